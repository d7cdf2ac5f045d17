"""A typed reduction of an array larger than this machine's memory, on dask.

The array is never held: dask makes each chunk of random values when a worker needs it, the typed
``reduce_mean`` runs typedtensor's reducer on the chunk (its partials in float64) and drops it,
and the partials are combined in dask's task graph. Memory stays at a few chunks per thread
whatever the size; dask's ``ProgressBar`` shows the chunks going by. The same code runs on a
cluster with ``distributed.Client()``.

Run it: ``python examples/out_of_core.py`` (needs the ``dask`` extra). The default size is 1.5
times this machine's memory; ``--gigabytes 0.1`` runs a small one.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import time
from typing import Any, Literal as L, TypeAlias

import dask.array as da
import numpy as np
from dask.diagnostics.progress import ProgressBar

import typedtensor as tt
from typedtensor import Dim, Tensor, float32

Columns: TypeAlias = L[1024]
COLUMNS = 1024
CHUNK_ROWS = 16384  # 64 MB chunks of float32: large enough that scheduling is a small part


class Rows(Dim):
    """The samples, as many as the size asks for."""


@tt.shapechecked
def column_means(x: Tensor[float32, Rows, Columns]) -> Tensor[float32, Columns]:
    return tt.reduce_mean(x, axis=0)


def lazy_values(gigabytes: float, seed: int) -> Any:
    """Uniform float32 values in [0, 1), ``gigabytes`` of them, each chunk made only when computed."""
    rows = max(1, int(gigabytes * 1e9) // (COLUMNS * 4))
    generator: Any = da.random.default_rng(seed)  # type: ignore[no-untyped-call]  # dask's random module is untyped
    return generator.random((rows, COLUMNS), dtype=np.float32, chunks=(CHUNK_ROWS, COLUMNS))


def machine_gigabytes() -> float:
    return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 1e9


def reducer_throughput(seed: int) -> float:
    """GB/s of the reducer on one chunk in memory, as dask runs it on every chunk (median of 5)."""
    chunk = tt.check(Tensor(np.random.default_rng(seed).random((CHUNK_ROWS, COLUMNS), dtype=np.float32)), Tensor[float32, Rows, Columns])
    times = []
    for _ in range(5):
        start = time.perf_counter()
        tt.reduce_mean(chunk, axis=0)
        times.append(time.perf_counter() - start)
    return CHUNK_ROWS * COLUMNS * 4 / statistics.median(times) / 1e9


def main() -> None:
    parser = argparse.ArgumentParser(description="A typed reduction of an array larger than this machine's memory, on dask.")
    parser.add_argument("--gigabytes", type=float, default=None, help="the array's size (default: 1.5 times this machine's memory)")
    parser.add_argument("--seed", type=int, default=0)
    arguments = parser.parse_args()
    gigabytes = arguments.gigabytes if arguments.gigabytes is not None else round(1.5 * machine_gigabytes())
    values = lazy_values(gigabytes, arguments.seed)
    x = tt.check(Tensor(values), Tensor[float32, Rows, Columns])
    print(f"array {values.shape[0]} x {COLUMNS} float32: {values.nbytes / 1e9:.2f} GB in {values.numblocks[0]} chunks; "
          f"this machine has {machine_gigabytes():.1f} GB")
    print(f"reducer: {reducer_throughput(arguments.seed):.1f} GB/s on one {CHUNK_ROWS * COLUMNS * 4 / 1e6:.0f} MB chunk")

    means = column_means(x)  # a graph: nothing is computed yet
    start = time.perf_counter()
    with ProgressBar():  # type: ignore[no-untyped-call]  # dask's diagnostics are untyped
        result = means.numpy()
    elapsed = time.perf_counter() - start
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e3  # kilobytes on Linux
    print(f"whole run: {values.nbytes / 1e9:.2f} GB in {elapsed:.1f} s ({values.nbytes / 1e9 / elapsed:.2f} GB/s, "
          f"making the values included), peak memory {peak:.0f} MB")
    print(f"column means: min {result.min():.6f}  max {result.max():.6f}  first {result[0]:.6f}")


if __name__ == "__main__":
    main()
