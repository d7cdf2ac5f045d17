"""A/B of two builds of the reducer's C extension in one process: the same plans and buffers (the
benchmark's data: products of values near 1, as U(0, 1) ones underflow to subnormals), calls
interleaved (the order alternating), each right after a read of the buffer as in the benchmark,
the median of the per-repetition ratios and the ratio of the minima, and the results compared
bit for bit. Noise between builds is placement as much as code: load the same build twice for a
control (session 25: up to 16% on the blog tensor over (2,), about 5% elsewhere), and run it a
second time with the two builds swapped (the first argument is loaded first).

    cp typedtensor/_reducer/_ckernels*.so /tmp/old/    # before the change
    .venv/bin/python setup.py build_ext --inplace       # after it
    .venv/bin/python benchmarks/reduce_ab.py /tmp/old typedtensor/_reducer sum,max float32,float64 "0,2;1,2" 15

Patterns are axis tuples of the blog tensor [32, 256, 5, 128], separated by ';', or 'all'.
"""

from __future__ import annotations

import argparse
import glob
import importlib.machinery
import importlib.util
import itertools
import os
import statistics
import time
from types import ModuleType

import numpy as np
from reduce import BLOG, DTYPES, data, memory_order_flat  # benchmarks/reduce.py, beside this file

import typedtensor as tt
from typedtensor._reducer import compiled, parallel

MODULE = "typedtensor._reducer._ckernels"


def load(folder: str) -> ModuleType:
    """The extension built in ``folder``, loaded under its own name beside any other build."""
    path = glob.glob(os.path.join(folder, "_ckernels*.so"))[0]
    loader = importlib.machinery.ExtensionFileLoader(MODULE, path)
    spec = importlib.util.spec_from_file_location(MODULE, path, loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def time_both(builds: dict[str, ModuleType], op: str, tensor: tt.Tensor, axes: tuple[int, ...], repetitions: int) -> tuple[dict[str, list[float]], bool]:
    """Per-build times of ``op`` over ``axes`` on one thread, and whether the results have the same bits."""
    reduce = getattr(tt, f"reduce_{op}")
    words = memory_order_flat(tensor.array).view(np.int64)
    times: dict[str, list[float]] = {name: [] for name in builds}
    results: dict[str, np.ndarray] = {}
    with parallel.limited(1):
        for repetition in range(repetitions):
            for name in sorted(builds, reverse=repetition % 2 == 1):
                compiled._ckernels = builds[name]
                np.max(words)
                start = time.perf_counter()
                results[name] = np.asarray(reduce(tensor, axis=axes).array)
                times[name].append(time.perf_counter() - start)
    old, new = results.values()
    return times, old.dtype == new.dtype and old.reshape(-1).view(np.uint8).tobytes() == new.reshape(-1).view(np.uint8).tobytes()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("old"), parser.add_argument("new"), parser.add_argument("ops"), parser.add_argument("dtypes")
    parser.add_argument("patterns"), parser.add_argument("repetitions", nargs="?", type=int, default=15)
    args = parser.parse_args()
    builds = {"old": load(args.old), "new": load(args.new)}
    subsets = [axes for size in range(1, 5) for axes in itertools.combinations(range(4), size)]
    if args.patterns != "all":
        subsets = [tuple(int(axis) for axis in pattern.split(",")) for pattern in args.patterns.split(";")]
    dtypes = args.dtypes.split(",")
    if not set(dtypes) <= set(DTYPES):
        parser.error(f"dtypes: {', '.join(DTYPES)} (the benchmark's data), not {args.dtypes}")
    rng = np.random.default_rng(0)
    for dtype, op in itertools.product(dtypes, args.ops.split(",")):
        array = data(BLOG, dtype, op, rng)
        for axes in subsets:
            times, same = time_both(builds, op, tt.Tensor(array), axes, args.repetitions)
            old, new = (statistics.median(times[name]) for name in ("old", "new"))
            ratio = statistics.median(a / b for a, b in zip(times["old"], times["new"]))
            best = min(times["old"]) / min(times["new"])
            print(
                f"{op:5} {dtype:8} {str(axes):14} old {array.nbytes / old / 1e9:5.1f} new {array.nbytes / new / 1e9:5.1f} GB/s"
                f"  new/old median {ratio:5.2f} best {best:5.2f}  {'same bits' if same else 'DIFFERENT'}"
            )


if __name__ == "__main__":
    main()
