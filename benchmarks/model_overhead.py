"""What writing model code with ``Tensor`` costs over the same code on raw numpy (SPEC §8).

1. The thesis's benchmark subgraph (its Listing 34): ``matmul [N, 784] @ [784, 10]``, ``add``,
   ``softmax``, ``log``, ``multiply``, ``reduce_sum`` (over no axis, as the thesis's empty axis
   list) and ``reshape``, for N from 64 to 65,536, written with typedtensor and with numpy.
   The bar: typedtensor / numpy <= 1.05 at N = 65,536.
2. Each op on a [4, 4] float32 tensor against numpy's own spelling of it. The bar (at most 2 us
   more) is for operators (``+``, ``@``, ``>``, ``-x``, ``x[...]``); methods and functions, which
   call numpy's slower functions (``np.reshape``, ``np.permute_dims``), are shown beside them.

Both versions run interleaved in this one process (medians of alternating repeats), so a
slower moment of a shared machine hits both alike.

    python benchmarks/model_overhead.py [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any, Literal as L

import numpy as np

import typedtensor as tt
from typedtensor import Tensor, float32

RATIO_BAR = 1.05
OVERHEAD_BAR_US = 2.0
OPERATORS = frozenset({"a + b", "a * 2.0", "a @ b", "a > b", "-a", "a[1:3]"})  # what the bar covers


def subgraph_typed(in1: Tensor[float32, Any, L[10]], in2: Tensor[float32, Any, L[784]], in3: Tensor[float32, L[784], L[10]], in4: Tensor[float32, L[10]]) -> Tensor[float32, Any, L[10]]:
    product = tt.matmul(in2, in3)
    logits = tt.add(product, in4)
    probabilities = tt.softmax(logits, axis=-1)
    weighted = tt.multiply(in1, tt.log(probabilities))
    summed = tt.reduce_sum(weighted, axis=())
    return tt.reshape(summed, (in1.shape[0], 10))


def subgraph_numpy(in1: np.ndarray[Any, Any], in2: np.ndarray[Any, Any], in3: np.ndarray[Any, Any], in4: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    product = np.matmul(in2, in3)
    logits = np.add(product, in4)
    shifted = np.exp(logits - logits.max(axis=-1, keepdims=True))
    probabilities = shifted / shifted.sum(axis=-1, keepdims=True)
    weighted = np.multiply(in1, np.log(probabilities))
    summed = np.sum(weighted, axis=())
    return np.reshape(summed, (in1.shape[0], 10))


def interleaved_medians(first: Callable[[], object], second: Callable[[], object], repeats: int, number: int) -> tuple[float, float]:
    """Median seconds per call of each, timed in alternation."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeats):
        for function, bucket in ((first, times[0]), (second, times[1])):
            start = time.perf_counter()
            for _ in range(number):
                function()
            bucket.append((time.perf_counter() - start) / number)
    return statistics.median(times[0]), statistics.median(times[1])


def subgraph_table(quick: bool) -> float:
    rng = np.random.default_rng(0)
    sizes = [64, 1024, 65_536] if quick else [64, 256, 1024, 4096, 16_384, 65_536]
    print("Thesis subgraph (matmul, add, softmax, log, multiply, reduce_sum, reshape), float32")
    print(f"{'N':>7} {'numpy ms':>10} {'typedtensor ms':>15} {'ratio':>7}")
    ratio = float("nan")
    for n in sizes:
        arrays = [rng.standard_normal(shape, dtype=np.float32) * scale for shape, scale in (((n, 10), 1.0), ((n, 784), 0.05), ((784, 10), 1.0))]
        arrays.append(np.zeros(10, np.float32))
        tensors: list[Tensor[float32, *tuple[Any, ...]]] = [tt.Tensor(array) for array in arrays]
        np.testing.assert_allclose(subgraph_typed(*tensors).numpy(), subgraph_numpy(*arrays), rtol=1e-5, atol=1e-5)
        number = max(1, 20_000 // n)
        typed, plain = interleaved_medians(lambda: subgraph_typed(*tensors), lambda: subgraph_numpy(*arrays), 7 if quick else 15, number)
        ratio = typed / plain
        print(f"{n:>7} {plain * 1e3:>10.3f} {typed * 1e3:>15.3f} {ratio:>7.3f}")
    return ratio


def op_table(quick: bool) -> float:
    a_np = np.random.default_rng(1).standard_normal((4, 4), dtype=np.float32)
    b_np = a_np + 1
    a = tt.check(tt.Tensor(a_np), Tensor[float32, L[4], L[4]])
    b = tt.check(tt.Tensor(b_np), Tensor[float32, L[4], L[4]])
    ops: dict[str, tuple[Callable[[], object], Callable[[], object]]] = {
        "a + b": (lambda: a + b, lambda: a_np + b_np),
        "a * 2.0": (lambda: a * 2.0, lambda: a_np * 2.0),
        "a @ b": (lambda: a @ b, lambda: a_np @ b_np),
        "a > b": (lambda: a > b, lambda: a_np > b_np),
        "-a": (lambda: -a, lambda: -a_np),
        "tt.exp(a)": (lambda: tt.exp(a), lambda: np.exp(a_np)),
        "tt.where(a > 0, a, b)": (lambda: tt.where(a > 0, a, b), lambda: np.where(a_np > 0, a_np, b_np)),
        "a.reshape((16,))": (lambda: a.reshape((16,)), lambda: a_np.reshape((16,))),
        "a.T": (lambda: a.T, lambda: a_np.T),
        "a[1:3]": (lambda: a[1:3], lambda: a_np[1:3]),
        "tt.concat((a, b))": (lambda: tt.concat((a, b)), lambda: np.concat((a_np, b_np))),
        "a.sum(axis=1)": (lambda: a.sum(axis=1), lambda: a_np.sum(axis=1)),
    }
    print("\nPer-op overhead on a [4, 4] float32 tensor (median of interleaved repeats)")
    print(f"{'op':<24} {'numpy us':>9} {'typedtensor us':>15} {'overhead us':>12}")
    worst = 0.0
    for name, (typed_call, plain_call) in ops.items():
        typed, plain = interleaved_medians(typed_call, plain_call, 7 if quick else 15, 2_000 if quick else 10_000)
        overhead = (typed - plain) * 1e6
        if name in OPERATORS:
            worst = max(worst, overhead)
        print(f"{name:<24} {plain * 1e6:>9.2f} {typed * 1e6:>15.2f} {overhead:>12.2f}")
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer sizes and repeats")
    quick = parser.parse_args().quick
    ratio = subgraph_table(quick)
    worst = op_table(quick)
    print(f"\nsubgraph ratio at N = 65,536: {ratio:.3f} (bar <= {RATIO_BAR}) {'holds' if ratio <= RATIO_BAR else 'MISSED'}")
    print(f"worst operator overhead: {worst:.2f} us (bar <= {OVERHEAD_BAR_US} us) {'holds' if worst <= OVERHEAD_BAR_US else 'MISSED'}")


if __name__ == "__main__":
    main()
