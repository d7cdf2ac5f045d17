"""Fixtures shared by the runtime tests: which kernels reductions run on; hypothesis without deadlines."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import settings

from typedtensor._reducer import compiled as _compiled
from typedtensor._reducer import cost as _cost
from typedtensor._reducer import parallel as _parallel
from typedtensor._reducer import planner as _reduce

# No example may fail for its time: these machines are shared, and a first call that waited 350 ms
# for a core failed a matmul test whose calls take 0.2 ms (tests check results; benchmarks time).
settings.register_profile("untimed", deadline=None)
settings.load_profile("untimed")


def use_kernels(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make reductions run on ``kind`` ("compiled" or "numpy") until the test ends."""
    if kind == "compiled":
        assert _compiled._ckernels is not None, "typedtensor._reducer._ckernels is not built: reinstall with a C compiler"
    monkeypatch.setattr(_compiled, "enabled", kind == "compiled")
    _reduce._plan.cache_clear()  # plans made for the other kernels


def force_threads(threads: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make large reductions run their parts on ``threads`` threads, whatever the cost model says."""
    monkeypatch.setattr(_parallel, "thread_count", lambda: threads)
    monkeypatch.setattr(_cost, "threads_for", lambda cost, parts: min(threads, parts))


@pytest.fixture(params=["compiled", "numpy"])
def kernels(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Runs the test once on the compiled loops and once on the numpy kernels."""
    use_kernels(request.param, monkeypatch)
    yield request.param
    _reduce._plan.cache_clear()


@pytest.fixture
def numpy_kernels(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Runs the test on the numpy kernels only (it tests their strategies)."""
    use_kernels("numpy", monkeypatch)
    yield
    _reduce._plan.cache_clear()


@pytest.fixture
def compiled_kernels(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Runs the test on the compiled loops only (it tests them)."""
    use_kernels("compiled", monkeypatch)
    yield
    _reduce._plan.cache_clear()
