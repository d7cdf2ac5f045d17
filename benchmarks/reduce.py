"""typedtensor's reducer against the memory limit, numpy, and its own single thread, in one run.

Cases: the TFLite blog's [32, 256, 5, 128] over all 15 axis subsets x sum/mean/max/min/prod x
float32/float64/int32/float16, plus [1_000_000, 4] over each axis, a transposed (64, 64, 64)
over axis 0 and (8, 3, 224, 224) means over (2, 3). Each case times numpy's own call,
typedtensor in its default mode and typedtensor on one thread, interleaved (medians of
alternating runs). The limit is measured here too: the fastest of a few streaming reductions
over as many bytes, on one thread and on two. Then float32 sum/mean errors against a float64
reference, the dispatch cost on a [4, 4] tensor, and a summary of the issue's bars.

Run: ``.venv/bin/python benchmarks/reduce.py``; ``--quick`` for fewer runs and dtypes;
``--load`` keeps one core busy with a background process meanwhile; ``--only sum,float16``
times just those ops and dtypes; ``--plot FILE.png`` draws fraction-of-limit per pattern (needs
matplotlib); ``--calibrate`` prints the loop speeds ``typedtensor/_reducer/cost.py`` uses.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import functools
import itertools
import math
import multiprocessing
import os
import statistics
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

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
    case: Case
    numpy: float  # seconds
    default: float
    single: float
    limit: float  # GB/s: the single-thread limit for this many bytes

    @property
    def gbs(self) -> float:
        return self.case.array.nbytes / self.single / 1e9

    @property
    def fraction(self) -> float:
        return self.gbs / self.limit

    @property
    def vs_numpy(self) -> float:
        return self.numpy / min(self.default, self.single)

    @property
    def default_vs_numpy(self) -> float:
        return self.numpy / self.default

    @property
    def vs_single(self) -> float:
        return self.single / self.default


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


def medians(calls: list[Callable[[], object]], runs: int) -> list[float]:
    """Median seconds of each call, run in rotating order so that load hits all alike."""
    for call in calls:
        call()
    times: list[list[float]] = [[] for _ in calls]
    for run in range(runs):
        for index in [(run + k) % len(calls) for k in range(len(calls))]:
            start = time.perf_counter()
            calls[index]()
            times[index].append(time.perf_counter() - start)
    return [statistics.median(t) for t in times]


def single_thread(call: Callable[[], object]) -> Callable[[], object]:
    def run() -> object:
        with _parallel.limited(1):
            return call()

    return run


# The limit: the fastest of a few streaming reductions over as many bytes.
STREAMS: list[Callable[[Array], object]] = [
    lambda b: np.max(b.view(np.float32)),
    lambda b: np.add.reduce(b.view(np.int64)),
    lambda b: np.max(b.view(np.float64)),
    lambda b: tt.reduce_max(tt.Tensor(b.view(np.float32))),
    lambda b: tt.reduce_sum(tt.Tensor(b.view(np.float64))),
]
_limits: dict[int, tuple[float, float]] = {}


def limits(nbytes: int, runs: int) -> tuple[float, float]:
    """GB/s of the fastest streaming reduction over ``nbytes``: on one thread, and on two."""
    if nbytes not in _limits:
        buffer = np.random.default_rng(9).random(nbytes // 8)
        halves = np.split(buffer, 2)
        with _parallel.limited(1):
            one = min(medians([lambda s=s: s(buffer) for s in STREAMS], runs))  # type: ignore[misc]
            two = min(medians([lambda s=s: _on_two_threads(s, halves) for s in STREAMS], runs))  # type: ignore[misc]
        _limits[nbytes] = (buffer.nbytes / one / 1e9, buffer.nbytes / two / 1e9)
    return _limits[nbytes]


_helper = concurrent.futures.ThreadPoolExecutor(1)  # one thread kept for the two-thread limit


def _on_two_threads(stream: Callable[[Array], object], halves: list[Array]) -> None:
    other = _helper.submit(stream, halves[1])
    stream(halves[0])
    other.result()


def time_cases(selected: list[Case], runs: int) -> list[Timing]:
    timings = []
    for case in selected:
        tensor: AnyTensor = tt.Tensor(case.array)
        ours = functools.partial(OURS[case.op], tensor, case.axes)
        plain = functools.partial(NUMPY[case.op], case.array, case.axes)
        numpy_time, default, single = medians([plain, ours, single_thread(ours)], runs)
        timings.append(Timing(case, numpy_time, default, single, limits(case.array.nbytes, runs)[0]))
    return timings


def geomean(values: list[float]) -> float:
    return math.exp(statistics.fmean(math.log(v) for v in values))


def speed_table(timings: list[Timing]) -> list[str]:
    """Per op and dtype over the blog tensor's 15 patterns: single-thread GB/s and fraction of
    the limit, ratios against numpy and of the default mode against one thread."""
    lines = [
        f"{'op':<5} {'dtype':<8} {'GB/s':>5} {'frac':>5} {'min':>5}  {'x numpy':>7} {'min':>5}  {'dflt/1t min':>11}"
    ]
    for (op, dtype), group in itertools.groupby(
        [t for t in timings if t.case.label.startswith("blog")], key=lambda t: (t.case.op, t.case.dtype)
    ):
        rows = list(group)
        lines.append(
            f"{op:<5} {dtype:<8} {geomean([t.gbs for t in rows]):>5.1f} {geomean([t.fraction for t in rows]):>5.2f} "
            f"{min(t.fraction for t in rows):>5.2f}  {geomean([t.vs_numpy for t in rows]):>7.2f} "
            f"{min(t.vs_numpy for t in rows):>5.2f}  {min(t.vs_single for t in rows):>11.2f}"
        )
    return lines


def other_table(timings: list[Timing]) -> list[str]:
    lines = [f"{'case':<20} {'op':<5} {'dtype':<8} {'GB/s':>5} {'frac':>5} {'x numpy':>7} {'dflt/1t':>7}"]
    for t in timings:
        if not t.case.label.startswith("blog"):
            lines.append(
                f"{t.case.label:<20} {t.case.op:<5} {t.case.dtype:<8} {t.gbs:>5.1f} {t.fraction:>5.2f} "
                f"{t.vs_numpy:>7.2f} {t.vs_single:>7.2f}"
            )
    return lines


def relative_error(result: object, reference: Array) -> float:
    return float(np.max(np.abs(np.asarray(result, np.float64) - reference) / np.abs(reference)))


def errors() -> tuple[list[str], list[str]]:
    """float32 sum and mean errors of numpy and typedtensor on the blog tensor, [1e6, 4] and 0.1."""
    rng = np.random.default_rng(1)
    blog, long = rng.random(BLOG, np.float32), rng.random((1_000_000, 4), np.float32)
    inputs = [(f"blog{axes}", blog, axes) for axes in SUBSETS]
    inputs += [("[1e6,4](0,)", long, (0,)), ("[1e6,4](1,)", long, (1,)), ("blog.T(0,1)", blog.T, (0, 1))]
    inputs += [("[1e6,4] of 0.1 (0,)", np.full((1_000_000, 4), 0.1, np.float32), (0,))]
    lines, failures = [f"{'case':<22} {'op':<5} {'numpy':>8} {'ours':>8}"], []
    for (label, array, axes), op in itertools.product(inputs, ("sum", "mean")):
        reference = NUMPY[op](array.astype(np.float64), axes)
        ours = relative_error(OURS[op](tt.Tensor(array), axes).numpy(), reference)
        theirs = relative_error(np.asarray(NUMPY[op](array, axes)), reference)
        lines.append(f"{label:<22} {op:<5} {theirs:>8.1e} {ours:>8.1e}")
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


def bars(timings: list[Timing], error_failures: list[str], dispatch_ratios: list[tuple[str, float]]) -> list[str]:
    """Each bar of the issue and SPEC 8: the figure measured, and whether it holds."""
    blog = [t for t in timings if t.case.label.startswith("blog")]
    lines: list[str] = []

    def bar(text: str, value: float, holds: bool, worst: str = "") -> None:
        lines.append(f"[{'ok' if holds else 'MISS'}] {text}: {value:.2f}{f'  (worst: {worst})' if worst and not holds else ''}")

    def worst(rows: list[Timing], key: Callable[[Timing], float]) -> tuple[float, str]:
        low = min(rows, key=key)
        return key(low), f"{low.case.op} {low.case.dtype} {low.case.label}"

    floats = [t for t in blog if t.case.dtype in ("float32", "float64")]
    for op in OPS:
        rows = [t for t in floats if t.case.op == op]
        if rows:
            bar(f"{op} float32/64 fraction of limit, geomean >= 0.85", geomean([t.fraction for t in rows]), geomean([t.fraction for t in rows]) >= 0.85)
            value, where = worst(rows, lambda t: t.fraction)
            bar(f"{op} float32/64 fraction of limit, every pattern >= 0.7", value, value >= 0.7, where)
    int_sums = [t for t in blog if t.case.dtype == "int32" and t.case.op == "sum"]
    if int_sums:
        value, where = worst(int_sums, lambda t: t.fraction)
        bar("int32 sum fraction of limit, every pattern >= 0.6", value, value >= 0.6, where)
    if timings:
        value, where = worst(timings, lambda t: min(t.default_vs_numpy, t.numpy / t.single))
        bar("x numpy in either mode, every case >= 0.95", value, value >= 0.95, where)
        value, where = worst(timings, lambda t: t.vs_single)
        bar("default mode / own single thread, every case >= 0.95", value, value >= 0.95, where)
    half = [t for t in blog if t.case.dtype == "float16" and t.case.op == "sum"]
    if half:
        value, where = worst(half, lambda t: t.vs_numpy)
        bar("float16 sum x numpy, every pattern >= 5", value, value >= 5, where)
    for ops, floor in ((("sum", "mean"), 1.5), (("prod",), 2.0)):
        rows = [t for t in floats if t.case.op in ops]
        if rows:
            bar(f"SPEC: {'/'.join(ops)} float x numpy geomean >= {floor}", geomean([t.vs_numpy for t in rows]), geomean([t.vs_numpy for t in rows]) >= floor)
    long = [t for t in timings if t.case.label.startswith("[1e6,4]")]
    if long:
        value, where = worst(long, lambda t: t.vs_numpy)
        bar("SPEC: [1e6, 4] x numpy, either axis >= 5", value, value >= 5, where)
    if dispatch_ratios:
        value = max(r for _, r in dispatch_ratios)
        bar("dispatch on [4, 4] / np.sum, every axis form <= 1.3", value, value <= 1.3, "")
    lines.append(f"[{'ok' if not error_failures else 'MISS'}] float32 sum/mean error <= 1e-6 and numpy's: {'; '.join(error_failures) or 'every case'}")
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
    """Fraction of the single-thread limit per pattern, numpy beside typedtensor, float32."""
    import matplotlib.pyplot as plt  # type: ignore[import-not-found, unused-ignore]  # optional: only this option needs it

    ops = sorted({t.case.op for t in timings}, key=OPS.index)
    figure, axes_list = plt.subplots(len(ops), 1, figsize=(12, 2.6 * len(ops)), squeeze=False)
    for axes, op in zip(axes_list[:, 0], ops):
        rows = [t for t in timings if t.case.op == op and t.case.dtype == "float32" and t.case.label.startswith("blog")]
        positions = np.arange(len(rows))
        numpy_fraction = [t.case.array.nbytes / t.numpy / 1e9 / t.limit for t in rows]
        axes.bar(positions - 0.2, numpy_fraction, 0.4, label="numpy")
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
    parser.add_argument("--load", action="store_true", help="keep one core busy meanwhile")
    parser.add_argument("--only", help="comma-separated ops and dtypes to time (e.g. sum,float16)")
    parser.add_argument("--plot", metavar="FILE", help="draw fraction of limit per pattern (needs matplotlib)")
    parser.add_argument("--calibrate", action="store_true", help="print the loop speeds for typedtensor/_reducer/cost.py")
    args = parser.parse_args()
    if args.calibrate:
        calibrate()
        return
    runs = 3 if args.quick else 9
    only = set(args.only.split(",")) if args.only else set()
    ops = tuple(op for op in OPS if op in only) or OPS
    dtypes = tuple(d for d in DTYPES if d in only) or (("float32", "float16") if args.quick else DTYPES)
    print(f"numpy {np.__version__}; kernels: {'compiled' if _compiled.enabled else 'numpy'}; threads: {_parallel.thread_count()}; "
          f"load average {os.getloadavg()[0]:.2f}{' + a busy background process' if args.load else ''}; median of {runs} runs")
    with background_load(args.load):
        timings = time_cases(list(cases(ops, dtypes)), runs)
        error_lines, error_failures = errors() if not only else ([], [])
        dispatch_ratios = dispatch(runs) if not only else []
    print("\n## Limit (GB/s of the fastest streaming reduction, 1 and 2 threads)")
    print("  ".join(f"{n / 2**20:.0f} MiB: {one:.1f} / {two:.1f}" for n, (one, two) in sorted(_limits.items())))
    print("\n## Blog tensor, 15 patterns: single-thread GB/s and fraction of limit (geomean, min), x numpy (geomean, min), default/1-thread (min)")
    print("\n".join(speed_table(timings)))
    print("\n## Other shapes\n" + "\n".join(other_table(timings)))
    if error_lines:
        print("\n## float32 relative error against float64\n" + "\n".join(error_lines))
    if dispatch_ratios:
        print("\n## Dispatch, [4, 4] float64, typedtensor / np.sum: " + ", ".join(f"axis={a} {r:.2f}" for a, r in dispatch_ratios))
    print(f"\n## Bars (load average now {os.getloadavg()[0]:.2f})\n" + "\n".join(bars(timings, error_failures, dispatch_ratios)))
    if args.plot:
        plot(timings, args.plot)


if __name__ == "__main__":
    main()
