"""``conv2d``, ``max_pool2d`` and ``avg_pool2d`` on numpy against a plain numpy im2col and torch on CPU.

The reference is im2col as numpy code writes it: the padded input's ``KH * KW`` shifted, strided
slices copied into a column array ``[N, C, KH, KW, OH, OW]``, then one matmul with the kernels
(for the pools, the maximum or the mean over the window axes). typedtensor's numpy path is a
``tensordot`` of a strided window view (and, for the pools, one ``maximum``/``add`` per window
offset). torch runs ``torch.nn.functional`` on the same values (where installed).

Each case checks that the three agree, then times them interleaved in this one process (the
contenders alternate inside every repeat) and prints the medians' ratios: typedtensor's time over
the reference's (below 1: typedtensor is faster). The load average is printed first: the machine
may be shared. BLAS and torch run on ``--threads`` threads (1 by default: on a shared machine
a multithreaded BLAS waiting for busy cores made the median 100x the minimum); numpy's BLAS is
limited through threadpoolctl where it is installed (scikit-learn brings it).

    python benchmarks/conv.py [--quick] [--threads N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import typedtensor as tt

Array = np.ndarray[Any, Any]
Call = Callable[[], object]
AnyTensor = tt.Tensor[Any, *tuple[Any, ...]]


def im2col_conv2d(x: Array, w: Array, stride: int, padding: int) -> Array:
    """The plain numpy convolution: columns copied out, one matmul."""
    n, c, h, width = x.shape
    o, _, kh, kw = w.shape
    x = np.pad(x, ((0, 0), (0, 0), (padding, padding), (padding, padding)))
    columns = _columns(x, kh, kw, stride)  # [N, C, KH, KW, OH, OW]
    rows, cols = columns.shape[-2:]
    flat = columns.transpose(0, 4, 5, 1, 2, 3).reshape(n * rows * cols, c * kh * kw)
    product: Array = flat @ w.reshape(o, -1).T
    return product.reshape(n, rows, cols, o).transpose(0, 3, 1, 2)


def im2col_pool(x: Array, size: int, stride: int, kind: str) -> Array:
    columns = _columns(x, size, size, stride)
    pooled: Array = columns.max(axis=(2, 3)) if kind == "max" else columns.mean(axis=(2, 3))
    return pooled


def _columns(x: Array, kh: int, kw: int, stride: int) -> Array:
    n, c, h, w = x.shape
    rows, cols = (h - kh) // stride + 1, (w - kw) // stride + 1
    columns = np.empty((n, c, kh, kw, rows, cols), x.dtype)
    for i in range(kh):
        for j in range(kw):
            columns[:, :, i, j] = x[:, :, i : i + stride * (rows - 1) + 1 : stride, j : j + stride * (cols - 1) + 1 : stride]
    return columns


def median_times(calls: dict[str, Call], repeats: int, number: int) -> dict[str, float]:
    """The median seconds per call of each contender, the contenders alternating in every repeat."""
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(repeats):
        for name, call in calls.items():
            start = time.perf_counter()
            for _ in range(number):
                call()
            times[name].append((time.perf_counter() - start) / number)
    return {name: statistics.median(values) for name, values in times.items()}


def _torch() -> Any:
    try:
        import torch
    except ImportError:
        return None
    return torch


def conv_case(torch: Any, shape: tuple[int, ...], kernels: tuple[int, ...], stride: int, padding: int) -> dict[str, Call]:
    rng = np.random.default_rng(0)
    x, w = rng.standard_normal(shape, np.float32), rng.standard_normal(kernels, np.float32)
    tx: AnyTensor = tt.Tensor(x)
    tw: AnyTensor = tt.Tensor(w)
    expected = im2col_conv2d(x, w, stride, padding)
    np.testing.assert_allclose(tt.conv2d(tx, tw, stride, padding).numpy(), expected, rtol=1e-4, atol=1e-4)
    calls: dict[str, Call] = {
        "typedtensor": lambda: tt.conv2d(tx, tw, stride, padding),
        "im2col": lambda: im2col_conv2d(x, w, stride, padding),
    }
    if torch is not None:
        px, pw = torch.from_numpy(x), torch.from_numpy(w)
        np.testing.assert_allclose(torch.nn.functional.conv2d(px, pw, stride=stride, padding=padding).numpy(), expected, rtol=1e-4, atol=1e-4)
        calls["torch"] = lambda: torch.nn.functional.conv2d(px, pw, stride=stride, padding=padding)
    return calls


def pool_case(torch: Any, kind: str, shape: tuple[int, ...], size: int, stride: int) -> dict[str, Call]:
    x = np.random.default_rng(1).standard_normal(shape, np.float32)
    tx: AnyTensor = tt.Tensor(x)
    pool = tt.max_pool2d if kind == "max" else tt.avg_pool2d
    expected = im2col_pool(x, size, stride, kind)
    np.testing.assert_allclose(pool(tx, size, stride).numpy(), expected, rtol=1e-5, atol=1e-5)
    calls: dict[str, Call] = {"typedtensor": lambda: pool(tx, size, stride), "im2col": lambda: im2col_pool(x, size, stride, kind)}
    if torch is not None:
        torch_pool = torch.nn.functional.max_pool2d if kind == "max" else torch.nn.functional.avg_pool2d
        px = torch.from_numpy(x)
        np.testing.assert_allclose(torch_pool(px, size, stride).numpy(), expected, rtol=1e-5, atol=1e-5)
        calls["torch"] = lambda: torch_pool(px, size, stride)
    return calls


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats (a smoke run)")
    parser.add_argument("--threads", type=int, default=1, help="BLAS and torch threads (default 1)")
    arguments = parser.parse_args()
    torch = _torch()
    if torch is not None:
        torch.set_num_threads(arguments.threads)
    try:
        from threadpoolctl import threadpool_limits  # type: ignore[import-untyped]  # it ships no types
    except ImportError:
        blas = "BLAS threads as numpy's default (threadpoolctl is not installed)"
        run(torch, 5 if arguments.quick else 21, blas)
    else:
        with threadpool_limits(limits=arguments.threads, user_api="blas"):
            run(torch, 5 if arguments.quick else 21, f"BLAS on {arguments.threads} thread(s)")


def run(torch: Any, repeats: int, blas: str) -> None:
    print(f"load average {' '.join(f'{load:.2f}' for load in os.getloadavg())}; numpy {np.__version__}, {blas}; "
          f"torch {torch.__version__ if torch is not None else 'not installed'} ({torch.get_num_threads() if torch is not None else 0} threads)")
    cases: dict[str, dict[str, Call]] = {
        "conv2d [1400,1,8,8] * [8,1,3,3] pad 1 (the digits)": conv_case(torch, (1400, 1, 8, 8), (8, 1, 3, 3), 1, 1),
        "conv2d [32,16,32,32] * [32,16,3,3] pad 1": conv_case(torch, (32, 16, 32, 32), (32, 16, 3, 3), 1, 1),
        "conv2d [16,3,64,64] * [16,3,5,5] stride 2": conv_case(torch, (16, 3, 64, 64), (16, 3, 5, 5), 2, 0),
        "conv2d [4,4,8,8] * [4,4,3,3] (small)": conv_case(torch, (4, 4, 8, 8), (4, 4, 3, 3), 1, 0),
        "max_pool2d [1400,8,8,8] 2": pool_case(torch, "max", (1400, 8, 8, 8), 2, 2),
        "max_pool2d [32,32,32,32] 2": pool_case(torch, "max", (32, 32, 32, 32), 2, 2),
        "max_pool2d [32,32,32,32] 3 stride 2": pool_case(torch, "max", (32, 32, 32, 32), 3, 2),
        "avg_pool2d [32,32,32,32] 2": pool_case(torch, "avg", (32, 32, 32, 32), 2, 2),
        "avg_pool2d [4,4,8,8] 2 (small)": pool_case(torch, "avg", (4, 4, 8, 8), 2, 2),
    }
    print(f"{'case':55s} {'typedtensor':>12s} {'tt/im2col':>10s} {'tt/torch':>10s}")
    for name, calls in cases.items():
        number = max(1, int(0.02 / max(median_times(calls, 1, 1)["typedtensor"], 1e-7)))
        medians = median_times(calls, repeats, number)
        ours = medians["typedtensor"]
        versus_torch = f"{ours / medians['torch']:10.2f}" if "torch" in medians else f"{'-':>10s}"
        print(f"{name:55s} {ours * 1e6:10.1f}us {ours / medians['im2col']:10.2f} {versus_torch}")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
