"""Runs the parts of one large reduction on several threads.

The parts are fixed by the plan (by the data, never by the thread count), and each part's result
lands in its own slot, so combining them in order gives the same bits whoever computed them.
This module only decides who computes which: the calling thread and up to ``threads - 1``
persistent workers take parts from a shared counter. A worker is woken through a queue (a lock
release; on session 36's Intel VM it ran 38-107 us later); one slow to start costs little,
since the caller takes the parts no one has started. Several user threads reducing at once share
the workers, and each waits only for parts that are already being computed, so none can block
another. A compiled call whose units threads share runs on the C loops' own threads instead
(``_ckernels.reduce(..., shares, threads)``): what runs here are the parts of a cut view and the
numpy kernels' splits.

A split that did not help makes the next calls stay on one thread (``backing_off``), twice as many
after each such split in a row: one in which the workers did less than half their share, or
after which the caller, its parts done, waited for a worker's last part longer than a fifth of
the call and (if it did two or more) than one of its own parts took, or that took longer than
one thread is predicted to (their cores were busy). Only the splits the cost model predicted
count, and only its predictions back off: a plan that times its calls (``cost.Timings``) sees
a busy core in its own times.

The workers are daemon threads that live as long as the process, so reductions also split in
``atexit`` handlers; a forked child starts its own. ``TYPEDTENSOR_NUM_THREADS`` (read once,
when a reduction first considers splitting) sets the thread count, ``1`` turns splitting off;
the default is the number of cores this process may run on.
"""

from __future__ import annotations

import functools
import itertools
import math
import os
import queue
import threading
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Final, Generic, TypeVar

ENV_VAR: Final = "TYPEDTENSOR_NUM_THREADS"

Part = TypeVar("Part")
Result = TypeVar("Result")


def thread_count() -> int:
    """How many threads one reduction may use: ``TYPEDTENSOR_NUM_THREADS``, else the usable cores,
    at most the ``limited`` count."""
    return _configured_count() if _limit is None else min(_limit, _configured_count())


_limit: int | None = None


class limited:
    """Reductions in this block use at most ``count`` threads (benchmarks time one thread this way).
    A class, not a generator: entered right after a large read, as the benchmark times each call,
    the generator's version took 12 us (its objects and code out of the caches), more than the
    reduction's own Python path. One instance may be entered again inside itself."""

    __slots__ = ("count", "before")

    def __init__(self, count: int) -> None:
        self.count = count
        self.before: list[int | None] = []

    def __enter__(self) -> None:
        global _limit
        self.before.append(_limit)
        _limit = self.count

    def __exit__(self, *exception: object) -> None:
        global _limit
        _limit = self.before.pop()


@functools.cache
def _configured_count() -> int:
    """``TYPEDTENSOR_NUM_THREADS``, else the usable cores. A value that is not a positive integer
    warns and is ignored: a typo in the environment must not break reductions."""
    value = os.environ.get(ENV_VAR, "").strip()
    if value.isascii() and value.isdigit() and int(value) >= 1:
        return int(value)
    if value:
        warnings.warn(f"{ENV_VAR} must be a positive integer, got {value!r}; using the usable cores", RuntimeWarning, stacklevel=3)
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


class _Job(Generic[Part, Result]):
    """One call's parts: taken by index from a shared counter, each result stored in its slot."""

    def __init__(self, function: Callable[[Part], Result], parts: Sequence[Part]) -> None:
        self.function = function
        self.parts = parts
        self.results: list[Result | None] = [None] * len(parts)
        self.error: BaseException | None = None
        self._next = itertools.count()  # next() on it is atomic: each index is taken once
        self._lock = threading.Lock()
        self._finished = 0
        self.done = threading.Lock()  # held until the last part is finished
        self.done.acquire()

    def work(self) -> int:
        """Compute parts until none is left to take; how many this thread computed."""
        count, done = len(self.parts), 0
        while (index := next(self._next)) < count:
            done += 1
            try:
                self.results[index] = self.function(self.parts[index])
            except BaseException as error:  # re-raised by the caller
                self.error = self.error or error
            with self._lock:
                self._finished += 1
                last = self._finished == count
            if last:
                self.done.release()
        return done


_jobs: queue.SimpleQueue[_Job[object, object]] = queue.SimpleQueue()
_workers: list[threading.Thread] = []
_workers_lock = threading.Lock()


def run_parts(
    function: Callable[[Part], Result], parts: Sequence[Part], threads: int, alone: float | None = math.inf
) -> list[Result]:
    """``function`` of every part, in order, computed on up to ``threads`` threads (the caller's
    included). ``alone``: the seconds one thread is predicted to take, a split slower than that
    did not help; None where the caller times its splits itself (``cost.Timings``), which then
    leave the back-off alone."""
    if len(parts) < 2:
        return [function(part) for part in parts]
    job: _Job[Part, Result] = _Job(function, parts)
    helpers = start_workers(min(threads, len(parts)) - 1)
    start = time.perf_counter()
    for _ in range(helpers):
        _jobs.put(job)  # type: ignore[arg-type]
    by_caller = job.work()
    own_done = time.perf_counter()
    job.done.acquire()  # the parts other threads took are finished
    if helpers and alone is not None:
        end = time.perf_counter()
        did_share = len(parts) - by_caller >= len(parts) * helpers / (helpers + 1) / 2
        # waiting for a worker's last part as long as one of the caller's parts took is the parts'
        # grain, not a busy core, where the caller did several (of two parts, a worker at half speed
        # keeps the caller waiting just as long)
        grain = (own_done - start) / by_caller if by_caller >= 2 else 0.0
        waited = end - own_done
        _record(did_share and waited <= max(MAX_WAIT_SHARE * (end - start), grain) and end - start <= alone)
    if job.error is not None:
        raise job.error
    return job.results  # type: ignore[return-value]


MAX_BACKOFF: Final = 6  # after splits that did not help in a row, stay on one thread for up to 2**6 calls
# A split did not help either if the caller, its own parts done, waited this share of the call
# (and, if it did two parts or more, longer than its own took each) for a worker's: one that got
# only part of a busy core (benchmarks/reduce.py --quick measured the default mode at 0.83x of one
# thread on float16 under load before this).
MAX_WAIT_SHARE: Final = 0.2
_backoff = {"calls_left": 0, "misses": 0}  # races between callers only blur the count


def backing_off() -> bool:
    """Whether this call should stay on one thread because recent splits did not help."""
    if _backoff["calls_left"] <= 0:
        return False
    _backoff["calls_left"] -= 1
    return True


def _record(helped: bool) -> None:
    """Remember whether the workers did at least half their share of a split's parts."""
    if helped:
        _backoff["misses"] = 0
        return
    _backoff["misses"] = min(_backoff["misses"] + 1, MAX_BACKOFF)
    _backoff["calls_left"] = 2 ** _backoff["misses"]


def start_workers(wanted: int) -> int:
    """Make sure ``wanted`` workers exist; how many there are (fewer if threads cannot start)."""
    if wanted <= len(_workers):
        return wanted
    with _workers_lock:
        while len(_workers) < wanted:
            worker = threading.Thread(target=_serve, name=f"typedtensor-{len(_workers)}", daemon=True)
            try:
                worker.start()
            except RuntimeError:  # the interpreter is shutting down: the caller does the work
                break
            _workers.append(worker)
        return min(wanted, len(_workers))


def _serve() -> None:
    while True:
        _jobs.get().work()  # a job already finished by others has no part left: a no-op


def _forget_workers_after_fork() -> None:
    """A forked child has none of the parent's threads: its first split starts its own."""
    global _jobs, _workers_lock
    _jobs = queue.SimpleQueue()
    _workers.clear()
    _workers_lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_workers_after_fork)
