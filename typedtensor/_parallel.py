"""A small persistent thread pool that runs the parts of one large reduction on several cores.

numpy's reductions run on one core and release the GIL inside their loops, so independent parts
of one reduction run in parallel on threads. The pool has ``thread_count() - 1`` workers and is
created on first use; the calling thread always runs the first part itself, so a reduction
needs no worker to be free to make progress.

Several user threads reducing at once: only one of them gets the pool at a time; the others
run their reduction whole on their own thread (``run_parts`` returns None), so at most
``user threads + thread_count() - 1`` threads compute and nothing waits on a busy pool.

``TYPEDTENSOR_NUM_THREADS`` (read once, on first use) sets the thread count; ``1`` turns
splitting off. The default is the number of cores this process may run on.
"""

from __future__ import annotations

import concurrent.futures
import functools
import os
import threading
from collections.abc import Callable, Sequence
from typing import Final, TypeVar

ENV_VAR: Final = "TYPEDTENSOR_NUM_THREADS"

Part = TypeVar("Part")
Result = TypeVar("Result")

_pool: concurrent.futures.ThreadPoolExecutor | None = None
_busy = threading.Lock()  # held by the one call that is using the pool


@functools.cache
def thread_count() -> int:
    """How many threads one reduction may use: ``TYPEDTENSOR_NUM_THREADS``, else the usable cores."""
    value = os.environ.get(ENV_VAR, "").strip()
    if not value:
        return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"{ENV_VAR} must be a positive integer, got {value!r}")
    return int(value)


def run_parts(function: Callable[[Part], Result], parts: Sequence[Part]) -> list[Result] | None:
    """``function`` of every part, the first on the calling thread and the rest on the pool.

    None when another call is using the pool: the caller then does the work alone.
    """
    if not _busy.acquire(blocking=False):
        return None
    try:
        pool = _get_pool()
        futures = [pool.submit(function, part) for part in parts[1:]]
        try:
            results = {0: function(parts[0])}
            results.update(_take_back(function, parts, futures))
        finally:
            # Even if a part raised, the pool stays ours until the others are done.
            concurrent.futures.wait(futures)
        return [results[index] if index in results else futures[index - 1].result() for index in range(len(parts))]
    finally:
        _busy.release()


def _take_back(
    function: Callable[[Part], Result], parts: Sequence[Part], futures: list[concurrent.futures.Future[Result]]
) -> dict[int, Result]:
    """Run here the parts no worker has started, last first (workers take them first to last).

    When other processes keep the other cores busy, waiting for a worker to be scheduled would
    make the split slower than one thread; taking its parts back bounds that loss.
    """
    results = {}
    for index in range(len(parts) - 1, 0, -1):
        if not futures[index - 1].cancel():
            break  # a worker has this part, so it has every earlier one
        results[index] = function(parts[index])
    return results


def _get_pool() -> concurrent.futures.ThreadPoolExecutor:
    global _pool
    if _pool is None:
        # ThreadPoolExecutor's workers are joined at interpreter exit, after their queued work.
        _pool = concurrent.futures.ThreadPoolExecutor(thread_count() - 1, thread_name_prefix="typedtensor")
    return _pool


def _forget_pool_after_fork() -> None:
    """A forked child has none of the parent's threads: its first split makes a new pool."""
    global _pool, _busy
    _pool = None
    _busy = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_pool_after_fork)
