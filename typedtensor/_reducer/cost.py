"""Whether a large reduction is worth running on several threads: a cost model.

The parts of a large reduction are fixed by the data: the units its C walk divides into (its
sub-problems or tiles, each with outputs of its own, or row parts combined in order), or the
parts ``_layout.cut`` cuts a compute-bound view into. This module decides whether a plan is cut
(``may_split``) and how many threads compute the units or the parts. It predicts the
single-thread time from the speed of the loop for the op and dtype (measured on data in cache,
single thread) capped by memory bandwidth, and the time on ``n`` threads from ``n`` times that
speed capped by two threads' bandwidth, plus the cost of waking the workers. It splits only
when the prediction wins by ``SPLIT_GAIN``.

When the table was first measured (2026-11-23) two threads read no faster than one on this
shared machine; since the loops got faster they do from DRAM (session 28, a plan's units shared
by two threads against one thread on the same buffer, each call after a read of it: 1.3-1.56x
on 40-80 MiB), in cache only now and then (0.9-1.45x on 10-20 MiB), so memory-bound views in
cache stay on one thread (``BANDWIDTH``). Views gain through the units the C walk divides into
(``run_shared``), which cost one thread nothing; only compute-bound loops are cut into parts
(``may_split``). A split that did not help (the workers did little, the caller waited for
them, or it took longer than one thread is predicted to) makes later calls stay on one thread
for a while (``_parallel.backing_off``), so a loaded machine costs a probe now and then.

The figures are this machine class's (2-core AMD EPYC, 1 MiB L2, 32 MiB L3); ``python
benchmarks/reduce.py --calibrate`` measures the loop speeds on another machine. What two
threads gain on a memory-bound view differs by machine more than any table can say (session
35, a 2-core Intel Xeon with 2 MiB of L2 and a large L3, the blog tensor in cache, two threads
against one: float32 sums 0.99-1.32x, max 0.75-1.45x, float64 sums 0.98-1.59x, int32 sums
0.68-1.26x, float16 sums 0.69-0.98x; on the EPYC 0.81-1.45x), so a large call's thread count
is measured instead: each plan whose call takes long enough to time keeps its latest times on
one thread and on several (``Timings``) and runs on the faster; the back-off, shared by all
plans, is left to the others (a plan that loses on two threads, as float16 sums do there, would
otherwise keep the ones that gain on one).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from typedtensor._reducer import parallel as _parallel
from typedtensor._reducer.parallel import Part, Result

# Single-thread GB/s of input of the compiled loops on data in L2, the slower of rows and columns
# (benchmarks/reduce.py --calibrate): sum, prod, max/min, any/all, mean. Unsigned integers run
# the same instructions as signed ones of their width.
LOOP_SPEEDS: Final[dict[str, tuple[float, float, float, float, float]]] = {
    # 2026-11-25 (issue 20): float16/float32 sums and means flushed in float32 (float16 on F16C);
    # bool, 8/16-bit integers, integer products and any/all compiled once at the baseline
    "bool": (5.4, 2.2, 15.8, 14.6, 3.4),
    "int8": (4.6, 2.1, 15.7, 18.6, 4.0),
    "int16": (9.6, 4.4, 29.4, 26.3, 7.4),
    "int32": (27.2, 17.9, 30.1, 27.1, 27.6),  # 2026-11-25: products cloned for x86-64-v3 again
    "int64": (50.7, 17.6, 31.9, 13.3, 12.6),
    "float16": (38.2, 7.7, 25.4, 24.0, 37.6),  # 2026-11-25: F16C columns in registers, results 8 at a time
    "float32": (41.6, 27.0, 26.4, 27.0, 41.4),
    "float64": (53.4, 55.0, 47.0, 11.4, 53.0),
}
_OP_COLUMN: Final = {"sum": 0, "prod": 1, "max": 2, "min": 2, "any": 3, "all": 3, "mean": 4}
NUMPY_SPEED: Final = 8.0  # GB/s: the numpy kernels' typical speed (they call numpy several times)
CACHE_BYTES: Final = 32 << 20  # larger inputs stream from DRAM
# GB/s on 1 and 2 threads, in cache and from DRAM. One thread: np.max over 64-256 MiB measured
# 27-31 (2026-11-23; the loops read a cached buffer faster now, up to 60, but these figures only
# weigh one thread against two). Two, session 28, shared plans against one thread: from DRAM
# 1.5x one (40-80 MiB 1.3-1.56x; the benchmark's float64 blog tensor, 42 MB, in its default
# mode 1.06-1.20x geomean per op, worst case 0.96x, in a quiet run), in cache 1.2x (20 MiB
# 0.9-1.45x; the float32 blog tensor, 21 MB, 0.97-1.08x geomean, worst 0.81x), so memory-bound
# views in cache stay on one thread.
BANDWIDTH: Final = {True: (30.0, 36.0), False: (28.0, 42.0)}
WAKE_SECONDS: Final = 50e-6  # waking a worker and its share's call: 20-45 us measured, with margin
SPLIT_GAIN: Final = 1.3  # split only if predicted at least this much faster


@dataclass(frozen=True, slots=True)
class Cost:
    """What the model needs of a plan: the bytes it reads and its loop's speed in GB/s."""

    nbytes: int
    speed: float


def compiled_cost(op: str, dtype: np.dtype[Any], nbytes: int) -> Cost:
    return Cost(nbytes, LOOP_SPEEDS[dtype.name.removeprefix("u")][_OP_COLUMN[op]])


def numpy_cost(nbytes: int) -> Cost:
    return Cost(nbytes, NUMPY_SPEED)


def predicted_seconds(cost: Cost, threads: int) -> float:
    """The predicted time of the reduction on ``threads`` threads."""
    in_cache = cost.nbytes <= CACHE_BYTES
    one, two = BANDWIDTH[in_cache]
    bandwidth = one if threads == 1 else two  # more cores than two: no more bandwidth assumed
    seconds = cost.nbytes / (min(threads * cost.speed, bandwidth) * 1e9)
    return seconds if threads == 1 else seconds + WAKE_SECONDS


def may_split(cost: Cost) -> bool:
    """Whether the plan is cut into parts: only where its loop, not memory, bounds one thread (by
    ``SPLIT_GAIN``), and the best any number of threads can do (read at the bandwidth of several,
    after waking them) would pay. The parts are a property of the data and of this table, never of
    the thread count, so the bits stay the same on any. A memory-bound view is never cut: one
    thread would pay for its parts (the blog tensor: float32 and float64 sums and max 1.085x
    faster whole, geomean of 60 cases, up to 1.56x), and threads share its units instead
    (``run_shared``)."""
    one, many = BANDWIDTH[cost.nbytes <= CACHE_BYTES]
    compute_bound = cost.speed * SPLIT_GAIN <= one
    return compute_bound and predicted_seconds(cost, 1) > SPLIT_GAIN * (cost.nbytes / (many * 1e9) + WAKE_SECONDS)


def threads_for(cost: Cost, parts: int, timings: Timings | None = None) -> int:
    """How many threads to compute ``parts`` parts on: 1 unless the plan's ``timings`` choose
    several or, for a plan too short to time, splitting is predicted to pay."""
    threads = min(_parallel.thread_count(), parts)
    if threads < 2:
        return 1
    if timings is not None:  # its own times, not the back-off: they see a busy core too
        return timings.choose(threads)
    if predicted_seconds(cost, 1) <= SPLIT_GAIN * predicted_seconds(cost, threads):
        return 1
    return 1 if _parallel.backing_off() else threads  # only calls that would split count down the back-off


#: Calls predicted to take this long on one thread are timed, and their plan's times choose
#: their thread count (``Timings``); shorter ones follow the model, as waking a worker (20-45
#: us) and the clock's noise would drown what timing them tells.
TIMED_MIN_SECONDS: Final = 200e-6
TIMED_SAMPLES: Final = 3  # times on each thread count before choosing
TIMED_KEPT: Final = 5  # the latest times of each count, whose fastest decides: noise only ever adds time
TIMED_GAIN: Final = 1.05  # several threads only where at least this much faster: else a core spent for little
RETRY_EVERY: Final = 16  # once chosen, the other count is timed once in this many calls: load changes


def timings_for(cost: Cost, parts: int) -> Timings | None:
    """Timings for a plan of ``parts`` parts or units to share, if its calls are long enough to time."""
    return Timings() if parts >= 2 and predicted_seconds(cost, 1) >= TIMED_MIN_SECONDS else None


class Timings:
    """One plan's latest call times on one thread and on several, and the thread count they
    choose: each count timed ``TIMED_SAMPLES`` times in turn (one thread first), then the faster
    by the fastest of its latest times (a cold call, the first to start a worker, or one that
    met a busy core only adds time), the other once every ``RETRY_EVERY`` calls, so a change of
    load is seen. Races between threads calling one plan only blur the figures; the bits never depend
    on the count."""

    __slots__ = ("seconds", "calls")

    def __init__(self) -> None:
        self.seconds: dict[int, list[float]] = {}
        self.calls = 0

    def choose(self, threads: int) -> int:
        """1 or ``threads`` for the next call."""
        self.calls += 1
        one, many = len(self.seconds.get(1, ())), len(self.seconds.get(threads, ()))
        if min(one, many) < TIMED_SAMPLES:
            return 1 if one <= many else threads
        faster = threads if min(self.seconds[1]) >= TIMED_GAIN * min(self.seconds[threads]) else 1
        if self.calls % RETRY_EVERY == 0:
            return 1 if faster == threads else threads
        return faster

    def record(self, threads: int, seconds: float) -> None:
        kept = self.seconds.setdefault(threads, [])
        kept.append(seconds)
        del kept[:-TIMED_KEPT]


SHARES_PER_THREAD: Final = 4  # a shared call's units go in this many shares per thread, taken as threads free up


def run_shared(function: Callable[[int, int], None], units: int, threads: int, alone: float | None) -> None:
    """``function(share, shares)`` for every share of a call's ``units`` (the C walk's parts, each
    giving the same bits on any number of threads), on ``threads`` threads (``threads_for``);
    ``alone`` as ``_parallel.run_parts`` takes it."""
    shares = min(units, SHARES_PER_THREAD * threads)
    _parallel.run_parts(lambda share: function(share, shares), range(shares), threads, alone)


def run_split(function: Callable[[Part], Result], parts: Sequence[Part], cost: Cost) -> list[Result]:
    """``function`` of every part, on as many threads as splitting is predicted to pay for; a split
    slower than one thread is predicted to be makes the next calls back off."""
    return _parallel.run_parts(function, parts, threads_for(cost, len(parts)), alone=predicted_seconds(cost, 1))
