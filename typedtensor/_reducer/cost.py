"""How many threads a large reduction runs on: measured where a plan has pieces, else a cost model.

The pieces of a large reduction are fixed by the data: the units its C walk divides into (its
sub-problems or tiles, each with outputs of its own, or row parts combined in order), or the
parts ``_layout.cut`` cuts a compute-bound view into. The cost model decides whether a plan is
cut (``may_split``), and how many threads the numpy kernels' parts run on (``run_split``). It
predicts the single-thread time from the speed of the loop for the op and dtype (measured on
data in cache, single thread) capped by memory bandwidth, and the time on ``n`` threads from
``n`` times that speed capped by two threads' bandwidth, plus the cost of waking the workers.
It splits only when the prediction wins by ``SPLIT_GAIN``. A predicted split that did not help
(the workers did little, the caller waited for them, or it took longer than one thread is
predicted to) makes later predicted splits stay on one thread for a while
(``_parallel.backing_off``), so a loaded machine costs a probe now and then.

The figures are this machine class's (2-core AMD EPYC, 1 MiB L2, 32 MiB L3); ``python
benchmarks/reduce.py --calibrate`` measures the loop speeds on another machine. There two
threads read faster than one from DRAM (session 28: 1.3-1.56x on 40-80 MiB) and in cache only
now and then (0.9-1.45x on 10-20 MiB). On another machine it differs more than a table can say
(session 35, a 2-core Intel Xeon with 2 MiB of L2 and a large L3, the blog tensor in cache, two
threads against one: float32 sums 0.99-1.32x by pattern, max 0.75-1.45x, float64 sums
0.98-1.59x, int32 sums 0.68-1.26x, float16 sums 0.69-0.98x), so the compiled plans' thread
counts are measured instead: each plan with pieces to share keeps its latest times on one
thread and on all (``Timings``) and runs on the faster, and leaves the shared back-off alone
(a plan that loses on two threads, as float16 sums do there, would keep the ones that gain on
one).
"""

from __future__ import annotations

import os
import random
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
# 0.9-1.45x; the float32 blog tensor, 21 MB, 0.97-1.08x geomean, worst 0.81x), so the model
# keeps memory-bound views in cache on one thread (the compiled plans measure instead: Timings).
BANDWIDTH: Final = {True: (30.0, 36.0), False: (28.0, 42.0)}
WAKE_SECONDS: Final = 50e-6  # waking a worker and its share's call: 20-45 us measured on the EPYC, with margin
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
    (``CompiledPlan._shared``)."""
    one, many = BANDWIDTH[cost.nbytes <= CACHE_BYTES]
    compute_bound = cost.speed * SPLIT_GAIN <= one
    return compute_bound and predicted_seconds(cost, 1) > SPLIT_GAIN * (cost.nbytes / (many * 1e9) + WAKE_SECONDS)


def threads_for(cost: Cost, parts: int) -> int:
    """How many threads to compute ``parts`` pieces on: 1 unless splitting is predicted to pay (and
    recent splits helped). Plans that time their calls ask their ``Timings`` instead."""
    threads = min(_parallel.thread_count(), parts)
    if threads < 2 or model_count(cost, threads) < 2:
        return 1
    return 1 if _parallel.backing_off() else threads  # only calls that would split count down the back-off


def model_count(cost: Cost, threads: int) -> int:
    """1 or ``threads``: the count the model predicts faster, by ``SPLIT_GAIN``."""
    return 1 if predicted_seconds(cost, 1) <= SPLIT_GAIN * predicted_seconds(cost, threads) else threads


TIMED_KEPT: Final = 5  # the latest times of each count: once each has as many, their medians decide
TIMED_GAIN: Final = 1.05  # several threads only where at least this much faster: else a core spent for little
LEARN_ODDS: Final = 2  # until then the model's count runs, the other on one call in this many
RETRY_ODDS: Final = 16  # then the faster runs, the other on one call in this many: load changes
KEPT_TIMED_ODDS: Final = 4  # ... and a plan keeping one thread times one call in this many, retries included
RETRY_AGAIN: Final = 2  # a retry faster than the kept count's median: this many more at once, so three of five can decide
_chance = random.Random()  # which calls time the other count: at random, so no periodic workload lines up
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_chance.seed)  # a forked child draws its own


class Timings:
    """One plan's latest call times on one thread and on all, and the thread count they choose.
    Until each count has ``TIMED_KEPT`` times, the model's prediction runs and the other count on
    one call in ``LEARN_ODDS`` (learning costs as many calls on the slower count however they are
    spread, so they come early: where the model was wrong, the calls after gain sooner); then the
    faster by the median of its latest ``TIMED_KEPT`` times (a busy core is what they measure: the
    fastest time would favour the count that is only sometimes fast; five, not three: a core that
    sat idle for a while is slow to come back, and a process's first two to four calls on two
    threads after a second of sleep took 1.3-2.4x its later ones, so five outlast two such times
    and three only one; more slow ones wait for the retries), timed on every call if that is
    several threads, and the other count on one call in ``RETRY_ODDS``, so a change of load is
    seen; a retry faster than the kept count's median runs that count on the next
    ``RETRY_AGAIN`` calls too, so three of the latest five can decide at once (a plan that learnt
    one thread while the other core was busy, simulated: back on two threads after 16 calls at
    the median, 52 waiting for the retries; a count fast half the time ran on 19% of calls, not
    12%); a plan that keeps one thread times one call in ``KEPT_TIMED_ODDS``, retries included.
    Races between threads calling one plan only blur the figures; the bits never depend on the
    count."""

    __slots__ = ("cost", "pieces", "seconds", "faster", "again")

    def __init__(self, cost: Cost, pieces: int) -> None:
        self.cost = cost  # the plan's: the model's count while learning
        self.pieces = pieces  # how many pieces threads may share: the parts, or a single call's units
        self.seconds: dict[int, list[float]] = {}
        self.faster: dict[int, int] = {}  # by the threads a call may use: the count the times favour, once learnt
        self.again = 0  # calls that run the other count next: a retry that came out faster asks for more

    def choose(self) -> tuple[int, bool]:
        """How many threads the next call runs on (1 or all it may use, at most its pieces), and
        whether to time it. Its own times decide, not the back-off: they see a busy core too. Not
        timed: a call where only one thread may run (``TYPEDTENSOR_NUM_THREADS=1``,
        ``parallel.limited(1)``), which did not run on a count of the plan's choosing, and, once
        learnt to keep one thread, all its calls but one in ``KEPT_TIMED_ODDS`` (the retries of
        the other count among them): reading the clock and keeping the time cost 10-13 us of a
        0.8 ms call right after other data filled the caches (the float32 max over (1, 2, 3):
        1.03x numpy's time, 1.02x timing one call in four). Kept several threads are timed on
        every call: a busy core shows in their times first, and a plan that kept them wrongly
        must see it soon (timing one call in four of them too, the benchmark's int32 max over the
        whole tensor ran at 0.94x one thread in default mode)."""
        threads = min(_parallel.thread_count(), self.pieces)
        if threads < 2:
            return 1, False
        kept, draw = self.faster.get(threads), _chance.random()
        learning = kept is None
        if kept is None:  # learning: the model's count, or the other
            kept = model_count(self.cost, threads)
        other = 1 if kept == threads else threads
        if self.again and not learning:
            self.again -= 1
            return other, True
        if draw * (LEARN_ODDS if learning else RETRY_ODDS) < 1:
            return other, True
        return kept, learning or kept > 1 or draw * KEPT_TIMED_ODDS < 1

    def record(self, threads: int, seconds: float) -> None:
        """Keep a call's time on ``threads`` threads, only the latest ``TIMED_KEPT``, and which
        count they favour where each count has as many."""
        kept = self.seconds.setdefault(threads, [])
        kept.append(seconds)
        del kept[:-TIMED_KEPT]
        one = self.seconds.get(1, [])
        for many, times in tuple(self.seconds.items()):  # a copy: another thread may add a count
            if many > 1 and len(one) == len(times) == TIMED_KEPT:
                was, medians = self.faster.get(many), {1: _median(one), many: _median(times)}
                self.faster[many] = _faster(medians, many)
                if was is not None and self.faster[many] != was:
                    self.again = 0  # decided: no more of the count it left
                elif was is not None and not self.again and threads in medians and threads != was:
                    # a retry: would it win, were its time its count's median?
                    self.again = RETRY_AGAIN if _faster({**medians, threads: seconds}, many) == threads else 0


def _faster(medians: dict[int, float], many: int) -> int:
    """1 or ``many``: the count whose median time is lower, several threads by ``TIMED_GAIN``."""
    return many if medians[1] >= TIMED_GAIN * medians[many] else 1


def _median(times: list[float]) -> float:
    """The middle time (the lower of the two middle ones of an even count). Not ``statistics``: a
    module of that name among the plugin's test cases would then clash with it."""
    return sorted(times)[(len(times) - 1) // 2]


def run_split(function: Callable[[Part], Result], parts: Sequence[Part], cost: Cost) -> list[Result]:
    """``function`` of every part, on as many threads as splitting is predicted to pay for; a split
    slower than one thread is predicted to be makes the next calls back off."""
    return _parallel.run_parts(function, parts, threads_for(cost, len(parts)), alone=predicted_seconds(cost, 1))
