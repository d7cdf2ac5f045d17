"""typedtensor's reducer against numpy's own calls, measured interleaved in one process.

For [32, 256, 5, 128] over all 15 non-empty axis subsets and [1_000_000, 4] over each axis,
ops sum/mean/max/min/prod, dtypes float32/float64/int32: ratio = numpy time / typedtensor time
(medians of alternating runs, so load from other processes hits both sides alike). Then float32
sum errors against a float64 reference, and the dispatch overhead on a [4, 4] tensor.

Run: ``.venv/bin/python benchmarks/reduce.py`` (``--quick`` for a short run; ``--only sum,float64``
to time just the listed ops and dtypes, e.g. when re-measuring one suspicious case). Large
reductions run on ``TYPEDTENSOR_NUM_THREADS`` threads (default: the usable cores) while numpy's
run on one, so other load on the machine lowers the ratios: the header prints the load average.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import statistics
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

import typedtensor as tt
from typedtensor import _parallel

Array = np.ndarray[Any, Any]
Axis = int | tuple[int, ...] | None

BLOG_SHAPE = (32, 256, 5, 128)
LONG_SHAPE = (1_000_000, 4)
OPS = ("sum", "mean", "max", "min", "prod")
DTYPES = ("float32", "float64", "int32")
SLOW_RATIO = 0.95

NUMPY_CALLS: dict[str, Callable[[Array, Axis], Array]] = {
    "sum": lambda a, axis: np.sum(a, axis=axis),
    "mean": lambda a, axis: a.mean(axis=axis),
    "max": lambda a, axis: np.max(a, axis=axis),
    "min": lambda a, axis: np.min(a, axis=axis),
    "prod": lambda a, axis: np.prod(a, axis=axis),
}
OUR_CALLS: dict[str, Callable[[tt.Tensor[Any], Axis], object]] = {op: getattr(tt, f"reduce_{op}") for op in NUMPY_CALLS}


def cases() -> Iterator[tuple[tuple[int, ...], tuple[int, ...]]]:
    """Every (shape, axes) the ratio table covers."""
    for count in range(1, len(BLOG_SHAPE) + 1):
        for axes in itertools.combinations(range(len(BLOG_SHAPE)), count):
            yield BLOG_SHAPE, axes
    for axis in range(len(LONG_SHAPE)):
        yield LONG_SHAPE, (axis,)


def data(shape: tuple[int, ...], dtype: str, op: str, rng: np.random.Generator) -> Array:
    """Realistic inputs: positive floats, products of values near 1 (finite), any int32."""
    if dtype == "int32":
        return rng.integers(-(2**31), 2**31, size=shape, dtype=np.int32)
    if op == "prod":
        return (1 + (rng.random(shape) - 0.5) * 1e-3).astype(dtype)
    return rng.random(shape).astype(dtype)


def interleaved(first: Callable[[], object], second: Callable[[], object], runs: int) -> tuple[float, float]:
    """Median seconds of ``first`` and of ``second``, run alternately (which goes first alternates too)."""
    first()
    second()
    times: tuple[list[float], list[float]] = ([], [])
    for run in range(runs):
        order = ((0, first), (1, second)) if run % 2 == 0 else ((1, second), (0, first))
        for side, call in order:
            start = time.perf_counter()
            call()
            times[side].append(time.perf_counter() - start)
    return statistics.median(times[0]), statistics.median(times[1])


def ratio_table(runs: int, ops: tuple[str, ...], dtypes: tuple[str, ...]) -> list[str]:
    """Per op and dtype: min and geometric mean of numpy/typedtensor, and every slow case."""
    rng = np.random.default_rng(0)
    lines = [f"{'op':<5} {'dtype':<8} {'min':>6} {'geomean':>8} {'[1e6,4] ax0':>12} {'ax1':>6}  cases under {SLOW_RATIO}"]
    for op, dtype in itertools.product(ops, dtypes):
        ratios: dict[tuple[tuple[int, ...], tuple[int, ...]], float] = {}
        arrays = {shape: data(shape, dtype, op, rng) for shape in (BLOG_SHAPE, LONG_SHAPE)}
        for shape, axes in cases():
            array = arrays[shape]
            tensor = tt.Tensor(array)
            numpy_time, our_time = interleaved(
                lambda: NUMPY_CALLS[op](array, axes), lambda: OUR_CALLS[op](tensor, axes), runs
            )
            ratios[shape, axes] = numpy_time / our_time
        values = list(ratios.values())
        slow = ", ".join(f"{list(shape)}{axes}:{r:.2f}" for (shape, axes), r in ratios.items() if r < SLOW_RATIO)
        geomean = math.exp(statistics.fmean(math.log(r) for r in values))
        long0, long1 = ratios[LONG_SHAPE, (0,)], ratios[LONG_SHAPE, (1,)]
        lines.append(f"{op:<5} {dtype:<8} {min(values):>6.2f} {geomean:>8.2f} {long0:>12.2f} {long1:>6.2f}  {slow or '-'}")
    return lines


def relative_error(result: Array, reference: Array) -> float:
    return float(np.max(np.abs(result.astype(np.float64) - reference) / np.abs(reference)))


def error_table() -> list[str]:
    """float32 sum errors of numpy and typedtensor against a float64 sum of the same values."""
    rng = np.random.default_rng(1)
    inputs = {BLOG_SHAPE: rng.random(BLOG_SHAPE).astype(np.float32), LONG_SHAPE: rng.random(LONG_SHAPE).astype(np.float32)}
    lines = [f"{'case':<34} {'numpy':>9} {'typedtensor':>12}"]
    worse = []
    for shape, axes in [*cases(), ("0.1", (0,))]:
        array = np.full(LONG_SHAPE, 0.1, np.float32) if shape == "0.1" else inputs[shape]  # type: ignore[index]
        reference = np.sum(array.astype(np.float64), axis=axes)
        ours = relative_error(tt.reduce_sum(tt.Tensor(array), axis=axes).numpy(), reference)
        theirs = relative_error(np.sum(array, axis=axes), reference)
        label = f"{LONG_SHAPE} of 0.1 {axes}" if shape == "0.1" else f"{shape}{axes}"
        lines.append(f"{label:<34} {theirs:>9.1e} {ours:>12.1e}")
        if ours > theirs + 2.0**-24:  # more than half an ulp worse than numpy
            worse.append(label)
    lines.append(f"cases where typedtensor's error exceeds numpy's by over half an ulp: {', '.join(worse) or 'none'}")
    return lines


def dispatch_table(runs: int) -> list[str]:
    """Time of a [4, 4] float64 reduction against np.sum on the same array."""
    array = np.random.default_rng(2).random((4, 4))
    tensor = tt.Tensor(array)
    lines = [f"{'axis':<6} {'np.sum us':>10} {'tt us':>8} {'tt/np':>6}"]
    for axis in (None, 0, 1):
        calls = 2000

        def numpy_batch(axis: Axis = axis) -> None:
            for _ in range(calls):
                np.sum(array, axis=axis)

        def our_batch(axis: Axis = axis) -> None:
            for _ in range(calls):
                tt.reduce_sum(tensor, axis=axis)

        numpy_time, our_time = interleaved(numpy_batch, our_batch, runs)
        lines.append(f"{axis!s:<6} {numpy_time / calls * 1e6:>10.2f} {our_time / calls * 1e6:>8.2f} {our_time / numpy_time:>6.2f}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer runs per case: a rough picture in seconds")
    parser.add_argument("--only", help="comma-separated ops and dtypes to time (e.g. mean,int32); skips the other tables")
    args = parser.parse_args()
    runs = 3 if args.quick else 11
    only = set(args.only.split(",")) if args.only else set()
    ops = tuple(op for op in OPS if op in only) or OPS
    dtypes = tuple(dtype for dtype in DTYPES if dtype in only) or DTYPES
    print(f"numpy {np.__version__}; ratio = numpy time / typedtensor time, median of {runs} interleaved runs")
    print(f"typedtensor threads: {_parallel.thread_count()} ({_parallel.ENV_VAR}=1 for one); load average {os.getloadavg()[0]:.2f}\n")
    tables = [("Speed: [32, 256, 5, 128] over 15 axis subsets and [1_000_000, 4] over each axis", lambda: ratio_table(runs, ops, dtypes))]
    if not only:
        tables += [
            ("float32 sum: relative error against a float64 reference", error_table),
            ("Dispatch: reduce_sum on a [4, 4] float64 tensor (bar: tt/np <= 2)", lambda: dispatch_table(runs)),
        ]
    for title, table in tables:
        print(f"## {title}\n" + "\n".join(table()) + "\n")


if __name__ == "__main__":
    main()
