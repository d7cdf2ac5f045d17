"""typedtensor's reducer against the memory limit, numpy, and its own single thread, in one run.

Cases: the TFLite blog's [32, 256, 5, 128] over all 15 axis subsets x sum/mean/max/min/prod x
float32/float64/int32/float16, plus [1_000_000, 4] over each axis, a transposed (64, 64, 64)
over axis 0 and (8, 3, 224, 224) means over (2, 3).

Every case is measured over one buffer: typedtensor wraps the array numpy reads (``tt.Tensor``,
no copy), and the case's limit is measured over that same buffer, interleaved with the case in
random order each repetition, each call right after an untimed read of the buffer (so every call
starts from the same caches): the time to read the input (of full maxes and full sums over it,
numpy's and typedtensor's in its dtype and numpy's over its 8-byte words, the one of the lowest
median) plus the time to write the output (a fill of a preallocated array of the result's size
and dtype). Each case runs untimed first (its plans learn their thread counts), and the cores
are woken before the first. Ratios of one case are medians of the per-repetition ratios of two
calls timed in the same repetition; numpy's call timed twice says how far noise alone moves one.
Then float32 sum/mean errors against float64 in C, Fortran, transposed and reversed layouts, the
dispatch cost on a [4, 4] tensor, and issue 20's bars with PASS or FAIL. The load average is
printed at the start and at the end: on a shared machine the figures are provisional.

Run: ``.venv/bin/python benchmarks/reduce.py``; ``--quick`` for fewer runs and dtypes;
``--load`` keeps one core busy with a background process meanwhile; ``--only sum,float16``
times just those ops and dtypes; ``--cases`` prints every case; ``--plot FILE.png`` draws
fraction-of-limit per pattern (needs matplotlib); ``--runs N`` and ``--learning-runs N`` set
the timed and untimed runs per case; ``--calibrate`` prints the loop speeds
``typedtensor/_reducer/cost.py`` uses.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import itertools
import math
import multiprocessing
import os
import random
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

import typedtensor as tt
from typedtensor._reducer import compiled as _compiled, parallel as _parallel

Array = np.ndarray[Any, Any]
Axes = tuple[int, ...]

BLOG = (32, 256, 5, 128)
SUBSETS: list[Axes] = [axes for count in range(1, 5) for axes in itertools.combinations(range(4), count)]
OPS = ("sum", "mean", "max", "min", "prod")
DTYPES = ("float32", "float64", "int32", "float16")
NUMPY: dict[str, Callable[[Array, Axes], Any]] = {
    "sum": lambda a, axes: np.sum(a, axis=axes),
    "mean": lambda a, axes: np.mean(a, axis=axes),
    "max": lambda a, axes: np.max(a, axis=axes),
    "min": lambda a, axes: np.min(a, axis=axes),
    "prod": lambda a, axes: np.prod(a, axis=axes),
}
AnyTensor = tt.Tensor[Any, *tuple[Any, ...]]
OURS: dict[str, Callable[[AnyTensor, Axes], AnyTensor]] = {op: getattr(tt, f"reduce_{op}") for op in OPS}


@dataclass(frozen=True)
class Case:
    label: str
    op: str
    dtype: str
    axes: Axes
    array: Array


@dataclass(frozen=True)
class Timing:
    """Per-repetition seconds of one case's calls, all timed interleaved over the case's own buffer."""

    case: Case
    numpy: list[float]
    default: list[float]
    single: list[float]
    limit: list[float]  # reading the input (the faster of a full max and a full sum) + writing the output
    numpy_again: list[float]  # numpy's call timed a second time: the ratios' resolution

    @property
    def numpy_control(self) -> float:
        """numpy against itself: how far from 1 the noise alone moves a case's ratio."""
        return pair_ratio(self.numpy, self.numpy_again)

    @property
    def gbs(self) -> float:
        return self.case.array.nbytes / statistics.median(self.single) / 1e9

    @property
    def limit_gbs(self) -> float:
        return self.case.array.nbytes / statistics.median(self.limit) / 1e9

    @property
    def fraction(self) -> float:
        """typedtensor on one thread against the limit: the median of per-repetition ratios."""
        return pair_ratio(self.limit, self.single)

    @property
    def vs_numpy(self) -> float:
        return pair_ratio(self.numpy, self.default)

    @property
    def single_vs_numpy(self) -> float:
        return pair_ratio(self.numpy, self.single)

    @property
    def numpy_fraction(self) -> float:
        return pair_ratio(self.limit, self.numpy)

    @property
    def vs_single(self) -> float:
        return pair_ratio(self.single, self.default)


def pair_ratio(numerators: list[float], denominators: list[float]) -> float:
    """The median of the ratios of the same repetition's two times (so load hits both alike)."""
    return statistics.median(n / d for n, d in zip(numerators, denominators))


def data(shape: tuple[int, ...], dtype: str, op: str, rng: np.random.Generator) -> Array:
    """U(0, 1) floats (products: values near 1, so they stay finite), any int32."""
    if dtype == "int32":
        return rng.integers(-(2**31), 2**31, size=shape, dtype=np.int32)
    if op == "prod":
        return (1 + (rng.random(shape, np.float32) - 0.5) * 1e-3).astype(dtype)
    return rng.random(shape, np.float32).astype(dtype)


def cases(ops: tuple[str, ...], dtypes: tuple[str, ...]) -> Iterator[Case]:
    rng = np.random.default_rng(0)
    for op, dtype in itertools.product(ops, dtypes):
        blog = data(BLOG, dtype, op, rng)
        for axes in SUBSETS:
            yield Case(f"blog{axes}", op, dtype, axes, blog)
        if dtype in ("float32", "float64"):
            long = data((1_000_000, 4), dtype, op, rng)
            yield Case("[1e6,4](0,)", op, dtype, (0,), long)
            yield Case("[1e6,4](1,)", op, dtype, (1,), long)
    if "sum" in ops and "float64" in dtypes:
        yield Case("(64,64,64).T(0,)", "sum", "float64", (0,), rng.random((64, 64, 64)).T)
    if "mean" in ops and "float32" in dtypes:
        yield Case("(8,3,224,224)(2,3)", "mean", "float32", (2, 3), data((8, 3, 224, 224), "float32", "mean", rng))


ORDER_SEED: Final = 20  # the calls' orders, the same in every run of the benchmark


def repetitions(
    calls: list[Callable[[], object]], runs: int, prime: Callable[[], object] | None = None, untimed: int = 0
) -> list[list[float]]:
    """Seconds of each call in each run, the calls in a new random order each run (seeded), so
    that load hits all alike and no call always follows the same one: a rotation kept the cyclic
    order, so typedtensor's default-mode call always ran right after numpy's, which had evicted
    part of the buffer from L3, and its one-thread call right after it (default mode measured
    0.84-0.94x one thread on the same plan). ``prime`` (untimed) runs before every timed call, so
    each starts with the caches in one state: what the call before it did, and how long it
    took, no longer decides whether a call reads from L3 or from DRAM. The first ``untimed`` runs
    are not timed (and one call of each before them)."""
    for call in calls:
        call()
    order = random.Random(ORDER_SEED)
    times: list[list[float]] = [[] for _ in calls]
    for run in range(untimed + runs):
        for index in order.sample(range(len(calls)), len(calls)):
            if prime is not None:
                prime()
            start = time.perf_counter()
            calls[index]()
            if run >= untimed:
                times[index].append(time.perf_counter() - start)
    return times


def medians(calls: list[Callable[[], object]], runs: int) -> list[float]:
    return [statistics.median(t) for t in repetitions(calls, runs)]


def single_thread(call: Callable[[], object]) -> Callable[[], object]:
    def run() -> object:
        with _parallel.limited(1):
            return call()

    return run


def memory_order_flat(array: Array) -> Array:
    """The elements of ``array`` in the order they lie in memory, as a 1-d view (never a copy)."""
    forwards = array[tuple(slice(None, None, -1) if stride < 0 else slice(None) for stride in array.strides)]
    order = sorted(range(array.ndim), key=lambda dim: -forwards.strides[dim])
    flat = forwards.transpose(order).reshape(-1)
    if not np.shares_memory(flat, array):
        raise ValueError(f"the benchmark's buffers must be dense in some order: {array.shape}, strides {array.strides}")
    return flat


def reads(array: Array) -> tuple[list[Callable[[], object]], list[Callable[[], object]]]:
    """Full maxes and full sums over the very buffer ``array`` is a view of: numpy's and
    typedtensor's (one thread) in its dtype, and numpy's over its 8-byte words (so float16's limit
    is the memory's, not a float16 loop's)."""
    flat = memory_order_flat(array)
    tensor: AnyTensor = tt.Tensor(flat)
    maxes: list[Callable[[], object]] = [
        functools.partial(np.max, flat), single_thread(functools.partial(tt.reduce_max, tensor))
    ]
    sums: list[Callable[[], object]] = [single_thread(functools.partial(tt.reduce_sum, tensor))]
    if flat.dtype != np.float16:  # numpy sums float16 in float16: it overflows (and is slow)
        sums.append(functools.partial(np.sum, flat))
    if flat.nbytes % 8 == 0:
        words = flat.view(np.int64)
        maxes.append(functools.partial(np.max, words))
        sums.append(functools.partial(np.add.reduce, words))
    return maxes, sums


RUNS: Final = 21  # timed runs per case: numpy against itself fell to 0.92 at 9 (180 blog cases), 0.93-0.94 at 21 (every case)
LEARNING_RUNS: Final = 16  # untimed runs of each case first (--learning-runs)


def time_case(case: Case, runs: int, learning_runs: int = LEARNING_RUNS) -> Timing:
    """numpy's call, typedtensor's (default and one thread) and the limit's reads and write,
    interleaved, each right after a read of the buffer (so all start from the same caches: a
    float16 sum over (0, 1) ran at 41 GB/s right after a read of its buffer, 7 after a 30 ms
    pause, and numpy's full max over its words at 84 and 19). The limit's read is the one of the
    lowest median, the same in every repetition (the fastest of five reads in each repetition
    was the luckiest of five, never compared with a case as lucky). ``learning_runs`` untimed
    runs of them all come first: a large plan learns its thread count over its first calls
    (``cost.Timings``), and the bars are of the calls after, which a loop that reduces one shape
    again and again makes (with one call first, the float32 sum over (0,) ran at 0.86-0.92x
    numpy in default mode, mostly on the model's one thread, where two threads ran 1.1-1.25x
    faster than one in repeated calls). Runs of all the calls, not calls of the plan alone:
    between those two threads gained more (the worker's core idle 1 ms, not 15), and the plans
    that learnt two threads there lost on them in the timed runs (the int32 max over (1, 2, 3):
    0.79x numpy). The one-thread calls leave the plan's times alone (``Timings.choose``: where
    only one thread may run, the call is not timed), so the default mode learns from its own."""
    tensor: AnyTensor = tt.Tensor(case.array)  # wraps the array: no copy, the very buffer numpy reads
    ours = functools.partial(OURS[case.op], tensor, case.axes)
    plain = functools.partial(NUMPY[case.op], case.array, case.axes)
    with np.errstate(over="ignore"):
        result = np.asarray(plain())
    output = np.empty(result.shape, result.dtype)
    maxes, sums = reads(case.array)
    write: Callable[[], object] = functools.partial(output.fill, 0)
    again = functools.partial(NUMPY[case.op], case.array, case.axes)
    calls: list[Callable[[], object]] = [plain, ours, single_thread(ours), write, again, *maxes, *sums]
    with np.errstate(over="ignore"):  # numpy's float16 sums overflow (it accumulates in float16)
        numpy_times, default, single, writes, numpy_again, *read_times = repetitions(
            calls, runs, prime=maxes[-1], untimed=learning_runs  # the words' max where there are words
        )
    fastest = min(read_times, key=statistics.median)
    limit = [read + w for read, w in zip(fastest, writes)]
    return Timing(case, numpy_times, default, single, limit, numpy_again)


def time_cases(selected: list[Case], runs: int, learning_runs: int = LEARNING_RUNS) -> list[Timing]:
    if selected:
        wake_cores(selected[0].array)
    return [time_case(case, runs, learning_runs) for case in selected]


WAKE_CORES_SECONDS: Final = 1.0


def wake_cores(array: Array) -> None:
    """Reads ``array`` on every thread the reductions use for ``WAKE_CORES_SECONDS`` (numpy's max,
    which releases the GIL), so the first case does not meet a core that sat idle while the cases
    were made: after a second of sleep, a process's first 2-4 calls on two threads (the float32 sum
    over (0,)) took 1.3-2.4x its later ones, and that case's plan, learning its thread count from
    them, kept one thread (1.2x slower here) in four benchmark runs of seven."""
    words, threads = memory_order_flat(array).view(np.uint8), _parallel.thread_count()
    end = time.perf_counter() + WAKE_CORES_SECONDS
    while time.perf_counter() < end:
        _parallel.run_parts(lambda _: np.max(words), range(2 * threads), threads, alone=None)


def geomean(values: list[float]) -> float:
    return math.exp(statistics.fmean(math.log(v) for v in values))


def speed_table(timings: list[Timing]) -> list[str]:
    """Per op and dtype over the blog tensor's 15 patterns: the limit's and typedtensor's
    single-thread GB/s, its fraction of the limit, numpy's, and the ratios against numpy."""
    lines = [
        f"{'op':<5} {'dtype':<8} {'limit':>5} {'GB/s':>5} {'frac':>5} {'min':>5} {'numpy':>5}  {'x numpy':>7} {'min':>5}  {'dflt/1t min':>11}"
    ]
    for (op, dtype), group in itertools.groupby(
        [t for t in timings if t.case.label.startswith("blog")], key=lambda t: (t.case.op, t.case.dtype)
    ):
        rows = list(group)
        lines.append(
            f"{op:<5} {dtype:<8} {geomean([t.limit_gbs for t in rows]):>5.1f} {geomean([t.gbs for t in rows]):>5.1f} "
            f"{geomean([t.fraction for t in rows]):>5.2f} {min(t.fraction for t in rows):>5.2f} "
            f"{geomean([t.numpy_fraction for t in rows]):>5.2f}  {geomean([t.vs_numpy for t in rows]):>7.2f} "
            f"{min(t.vs_numpy for t in rows):>5.2f}  {min(t.vs_single for t in rows):>11.2f}"
        )
    return lines


def pattern_table(timings: list[Timing]) -> list[str]:
    """Every case: limit GB/s, typedtensor's fraction of it (one thread) and numpy's, x numpy."""
    lines = [f"{'case':<20} {'op':<5} {'dtype':<8} {'limit':>5} {'GB/s':>5} {'frac':>5} {'numpy':>5} {'x numpy':>7} {'dflt/1t':>7}"]
    for t in timings:
        lines.append(
            f"{t.case.label:<20} {t.case.op:<5} {t.case.dtype:<8} {t.limit_gbs:>5.1f} {t.gbs:>5.1f} {t.fraction:>5.2f} "
            f"{t.numpy_fraction:>5.2f} {t.vs_numpy:>7.2f} {t.vs_single:>7.2f}"
        )
    return lines


def relative_error(result: object, reference: Array) -> float:
    return float(np.max(np.abs(np.asarray(result, np.float64) - reference) / np.abs(reference)))


def layouts(base: Array) -> dict[str, tuple[Array, list[int]]]:
    """``base`` in C, Fortran, transposed and reversed layouts, and where each of its dims went."""
    dims = list(range(base.ndim))
    reversed_view = base[tuple(slice(None, None, -1) if dim % 2 == 0 else slice(None) for dim in dims)]
    return {"C": (base, dims), "F": (np.asfortranarray(base), dims), "T": (base.T, dims[::-1]), "rev": (reversed_view, dims)}


def errors() -> tuple[list[str], list[str]]:
    """float32 sum and mean errors of numpy and typedtensor on the blog tensor and [1e6, 4] (in C,
    Fortran, transposed and reversed layouts) and on [1e6, 4] of 0.1, against float64."""
    rng = np.random.default_rng(1)
    inputs = []
    for base, subsets in ((rng.random(BLOG, np.float32), SUBSETS), (rng.random((1_000_000, 4), np.float32), [(0,), (1,)])):
        for name, (array, where) in layouts(base).items():
            label = f"{'blog' if base.ndim == 4 else '[1e6,4]'} {name}"
            inputs += [(f"{label} {axes}", array, tuple(where.index(a) for a in axes)) for axes in subsets]
    inputs += [("[1e6,4] of 0.1 (0,)", np.full((1_000_000, 4), 0.1, np.float32), (0,))]
    lines, failures = [f"{'case':<26} {'op':<5} {'numpy':>8} {'ours':>8}"], []
    for (label, array, axes), op in itertools.product(inputs, ("sum", "mean")):
        reference = NUMPY[op](array.astype(np.float64), axes)
        ours = relative_error(OURS[op](tt.Tensor(array), axes).numpy(), reference)
        theirs = relative_error(np.asarray(NUMPY[op](array, axes)), reference)
        lines.append(f"{label:<26} {op:<5} {theirs:>8.1e} {ours:>8.1e}")
        if ours > min(max(theirs, 2.0**-24) + 2.0**-24, 1e-6):
            failures.append(f"{label} {op}: {ours:.1e} (numpy {theirs:.1e})")
    return lines, failures


def dispatch(runs: int) -> list[tuple[str, float]]:
    """typedtensor's time over np.sum's on a [4, 4] float64 tensor, per axis form."""
    array = np.random.default_rng(2).random((4, 4))
    tensor: AnyTensor = tt.Tensor(array)
    ratios = []
    for axis in (None, 0, (0, 1), (1,)):
        numpy_time, ours = medians(
            [functools.partial(_thousand, np.sum, array, axis), functools.partial(_thousand, tt.reduce_sum, tensor, axis)], max(runs, 5)
        )
        ratios.append((str(axis), ours / numpy_time))
    return ratios


def bars(timings: list[Timing], error_failures: list[str] | None, dispatch_ratios: list[tuple[str, float]]) -> list[str]:
    """Each bar of issue 20 (and SPEC 8's dispatch bar): the figure measured, PASS or FAIL."""
    blog = [t for t in timings if t.case.label.startswith("blog")]
    lines: list[str] = []

    def bar(text: str, value: float, holds: bool, worst: str = "") -> None:
        lines.append(f"[{'PASS' if holds else 'FAIL'}] {text}: {value:.2f}{f'  (worst: {worst})' if worst else ''}")

    def every(text: str, rows: list[Timing], key: Callable[[Timing], float], floor: float) -> None:
        if rows:
            low = min(rows, key=key)
            bar(f"{text}, every case >= {floor}", key(low), key(low) >= floor, f"{low.case.op} {low.case.dtype} {low.case.label}")

    def mean_of(text: str, rows: list[Timing], key: Callable[[Timing], float], floor: float) -> None:
        if rows:
            value = geomean([key(t) for t in rows])
            bar(f"{text}, geomean >= {floor}", value, value >= floor)

    def fraction(t: Timing) -> float:
        return t.fraction

    floats = [t for t in blog if t.case.dtype in ("float32", "float64")]
    for op in OPS:
        rows = [t for t in floats if t.case.op == op]
        mean_of(f"{op} float32/64 of the limit", rows, fraction, 0.85)
        every(f"{op} float32/64 of the limit", rows, fraction, 0.7)
    every("int32 sum of the limit", [t for t in blog if t.case.dtype == "int32" and t.case.op == "sum"], fraction, 0.6)
    every("float16 sum/mean of the limit", [t for t in blog if t.case.dtype == "float16" and t.case.op in ("sum", "mean")], fraction, 0.5)
    every("x numpy on the same buffer (default mode)", timings, lambda t: t.vs_numpy, 0.95)
    if timings:  # how far from 1 noise alone moved a case's ratio, either way
        low = min(timings, key=lambda t: min(t.numpy_control, 1 / t.numpy_control))
        spread = min(low.numpy_control, 1 / low.numpy_control)
        lines.append(f"[info] numpy against itself, every case (what noise alone gives): {spread:.2f}  ({low.case.op} {low.case.dtype} {low.case.label})")
    mean_of("sum/mean float32/64 x numpy", [t for t in floats if t.case.op in ("sum", "mean")], lambda t: t.vs_numpy, 1.5)
    mean_of("prod float32/64 x numpy", [t for t in floats if t.case.op == "prod"], lambda t: t.vs_numpy, 2.0)
    every("[1e6, 4] either axis x numpy", [t for t in timings if t.case.label.startswith("[1e6,4]")], lambda t: t.vs_numpy, 5.0)
    if error_failures is not None:
        lines.append(
            f"[{'FAIL' if error_failures else 'PASS'}] float32 sum/mean error <= 1e-6 and <= numpy's, C/F/T/reversed: "
            f"{'; '.join(error_failures) or 'every case'}"
        )
    if dispatch_ratios:
        value = max(r for _, r in dispatch_ratios)
        bar("SPEC 8: dispatch on [4, 4] / np.sum, every axis form <= 1.3", value, value <= 1.3)
    return lines


def calibrate() -> None:
    """The single-thread speeds of the compiled loops on data in L2 (for typedtensor/_reducer/cost.py)."""
    rng = np.random.default_rng(3)
    print("LOOP_SPEEDS = {  # GB/s, the slower of rows and columns: sum, prod, max/min, any/all, mean")
    for dtype in [d for d in _compiled.TYPE_CODES if d.kind != "u"]:
        array = rng.random((64, 256, 16)) * 100 > 50 if dtype.kind == "b" else (rng.random((64, 256, 16)) * 100).astype(dtype)
        tensor: AnyTensor = tt.Tensor(array)
        speeds = []
        for op in ("sum", "prod", "max", "any", "mean"):
            seconds = [min(_cpu_seconds(functools.partial(OURS[op] if op in OURS else tt.reduce_any, tensor, axes)) for _ in range(15)) for axes in ((1, 2), (0, 1))]
            speeds.append(f"{array.nbytes / max(seconds) / 1e9:.1f}")
        print(f'    "{dtype.name}": ({", ".join(speeds)}),')
    print("}")


def _thousand(reduce: Callable[..., object], array: object, axis: object) -> None:
    for _ in range(1000):
        reduce(array, axis=axis)


def _cpu_seconds(call: Callable[[], object]) -> float:
    start = time.thread_time()
    call()
    return time.thread_time() - start


def plot(timings: list[Timing], path: str) -> None:
    """Fraction of the per-pattern limit, numpy beside typedtensor (one thread), float32, per op."""
    import matplotlib.pyplot as plt  # type: ignore[import-not-found, unused-ignore]  # optional: only this option needs it

    ops = sorted({t.case.op for t in timings}, key=OPS.index)
    figure, axes_list = plt.subplots(len(ops), 1, figsize=(12, 2.6 * len(ops)), squeeze=False)
    for axes, op in zip(axes_list[:, 0], ops):
        rows = [t for t in timings if t.case.op == op and t.case.dtype == "float32" and t.case.label.startswith("blog")]
        positions = np.arange(len(rows))
        axes.bar(positions - 0.2, [t.numpy_fraction for t in rows], 0.4, label="numpy")
        axes.bar(positions + 0.2, [t.fraction for t in rows], 0.4, label="typedtensor (1 thread)")
        axes.set_xticks(positions, [t.case.label[4:] for t in rows], fontsize=7)
        axes.set_ylabel(f"{op}: of limit")
        axes.axhline(1.0, color="grey", linewidth=0.5)
    axes_list[0, 0].legend()
    figure.tight_layout()
    figure.savefig(path)


def _burn() -> None:
    while True:
        pass


@contextlib.contextmanager
def background_load(enabled: bool) -> Iterator[None]:
    """A process that keeps one core busy, for the --load mode."""
    if not enabled:
        yield
        return
    process = multiprocessing.Process(target=_burn, daemon=True)
    process.start()
    try:
        yield
    finally:
        process.terminate()
        process.join()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 runs per case, float32 and float16 only")
    parser.add_argument("--runs", type=positive, metavar="N", help=f"timed runs per case (default {RUNS}; --quick: 3)")
    parser.add_argument("--load", action="store_true", help="keep one core busy meanwhile")
    parser.add_argument("--only", help="comma-separated ops and dtypes to time (e.g. sum,float16)")
    parser.add_argument("--cases", action="store_true", help="print every case, not only the summary")
    parser.add_argument("--plot", metavar="FILE", help="draw fraction of limit per pattern (needs matplotlib)")
    parser.add_argument(
        "--learning-runs", type=natural, default=LEARNING_RUNS, metavar="N",
        help=f"untimed runs of each case before its timed ones (default {LEARNING_RUNS}; 0: from its second calls)",
    )
    parser.add_argument("--calibrate", action="store_true", help="print the loop speeds for typedtensor/_reducer/cost.py")
    args = parser.parse_args()
    if args.calibrate:
        calibrate()
        return
    runs = args.runs or (3 if args.quick else RUNS)
    only = set(args.only.split(",")) if args.only else set()
    ops = tuple(op for op in OPS if op in only) or OPS
    dtypes = tuple(d for d in DTYPES if d in only) or (("float32", "float16") if args.quick else DTYPES)
    print(f"numpy {np.__version__}; kernels: {'compiled' if _compiled.enabled else 'numpy'}; threads: {_parallel.thread_count()}; "
          f"load average {_load()}{' + a busy background process' if args.load else ''}; {runs} runs per case, "
          f"after {args.learning_runs} untimed")
    with background_load(args.load):
        timings = time_cases(list(cases(ops, dtypes)), runs, args.learning_runs)
        error_lines, error_failures = errors() if not only else ([], None)
        dispatch_ratios = dispatch(runs) if not only else []
    print("\n## Blog tensor, 15 patterns (geomean; min): limit GB/s, typedtensor GB/s (1 thread) and fraction of the limit, "
          "numpy's fraction, x numpy (default mode), default/1-thread")
    print("\n".join(speed_table(timings)))
    print("\n## " + ("Every case" if args.cases else "Other shapes") + " (medians of per-repetition ratios)")
    print("\n".join(pattern_table([t for t in timings if args.cases or not t.case.label.startswith("blog")])))
    if error_lines:
        print("\n## float32 relative error against float64\n" + "\n".join(error_lines))
    if dispatch_ratios:
        print("\n## Dispatch, [4, 4] float64, typedtensor / np.sum: " + ", ".join(f"axis={a} {r:.2f}" for a, r in dispatch_ratios))
    print(f"\n## Bars (load average now {_load()})\n" + "\n".join(bars(timings, error_failures, dispatch_ratios)))
    if args.plot:
        plot(timings, args.plot)


def positive(text: str) -> int:
    if (value := natural(text)) < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {text}")
    return value


def natural(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"must be a whole number, got {text!r}")
    return int(text)


def _load() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


if __name__ == "__main__":
    main()
