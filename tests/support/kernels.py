"""Which kernels reductions run on and how many threads they split across, set for one test."""

from __future__ import annotations

import functools

import pytest

from typedtensor._reducer import compiled as _compiled, cost as _cost, parallel as _parallel, planner as _reduce


def use_kernels(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make reductions run on ``kind`` ("compiled" or "numpy") until the test ends."""
    if kind == "compiled":
        assert _compiled._ckernels is not None, "typedtensor._reducer._ckernels is not built: reinstall with a C compiler"
    monkeypatch.setattr(_compiled, "enabled", kind == "compiled")
    _reduce._plan.cache_clear()  # plans made for the other kernels


def force_threads(threads: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make large reductions be cut into parts and run them on ``threads`` threads, whatever the
    cost model says (it leaves memory-bound loops whole)."""
    monkeypatch.setattr(_parallel, "thread_count", lambda: threads)
    monkeypatch.setattr(_cost, "threads_for", lambda cost, parts: min(threads, parts))
    monkeypatch.setattr(_cost.Timings, "choose", lambda timings: (min(threads, timings.pieces), True))
    monkeypatch.setattr(_cost, "may_split", lambda cost: True)
    # plans of their own, cut, in a cache of their own: none of them outlives the test, nor do the
    # plans the test made before (the kernels fixture clears the cache in use when it ends)
    _reduce._plan.cache_clear()
    monkeypatch.setattr(_reduce, "_plan", functools.lru_cache(maxsize=_reduce.PLAN_CACHE_SIZE)(_reduce._plan.__wrapped__))
