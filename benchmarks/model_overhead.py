"""What writing model code with ``Tensor`` costs over the same code on raw numpy (SPEC §8).

1. The thesis's benchmark subgraph (its Listing 34): ``matmul [N, 784] @ [784, 10]``, ``add``,
   ``softmax``, ``log``, ``multiply``, ``reduce_sum`` (over no axis, as the thesis's empty axis
   list) and ``reshape``, for N from 64 to 65,536, written with typedtensor and with numpy.
   The bar: typedtensor / numpy <= 1.05 at N = 65,536.
2. Every op family on a [4, 4] float32 tensor (operators, elementwise functions, matmul and
   shaping, axis ops, indexing, creation) against numpy's quickest code for the same result.
   The bar (at most 2 us more) is for operators (``+``, ``@``, ``>``, ``-x``, ``x[...]``);
   methods and functions, which call numpy's slower functions (``np.reshape``,
   ``np.permute_dims``, ``np.where``), are shown beside them, with that numpy function's own time
   where numpy's quickest spelling skips it (``a.T`` for ``np.permute_dims``).

Both versions run interleaved in this one process (alternating repeats: the median for the
subgraph, the best repeat in CPU time per op), so a slower moment of a shared machine hits both
alike.

    python benchmarks/model_overhead.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal as L

import numpy as np

import typedtensor as tt
from typedtensor import Tensor, float32

RATIO_BAR = 1.05
OVERHEAD_BAR_US = 2.0
Array = np.ndarray[Any, Any]
Call = Callable[[], object]


def subgraph_typed(
    in1: Tensor[float32, Any, L[10]], in2: Tensor[float32, Any, L[784]], in3: Tensor[float32, L[784], L[10]], in4: Tensor[float32, L[10]]
) -> Tensor[float32, Any, L[10]]:
    product = tt.matmul(in2, in3)
    logits = tt.add(product, in4)
    probabilities = tt.softmax(logits, axis=-1)
    weighted = tt.multiply(in1, tt.log(probabilities))
    summed = tt.reduce_sum(weighted, axis=())
    return tt.reshape(summed, (in1.shape[0], 10))


def subgraph_numpy(in1: Array, in2: Array, in3: Array, in4: Array) -> Array:
    product = np.matmul(in2, in3)
    logits = np.add(product, in4)
    probabilities = numpy_softmax(logits)
    weighted = np.multiply(in1, np.log(probabilities))
    summed = np.sum(weighted, axis=())
    return np.reshape(summed, (in1.shape[0], 10))


def numpy_softmax(a: Array) -> Array:
    """The max-shifted softmax over the last axis as a numpy user writes it."""
    shifted = np.exp(a - a.max(axis=-1, keepdims=True))
    return shifted / shifted.sum(axis=-1, keepdims=True)  # type: ignore[no-any-return]


def numpy_logsumexp(a: Array) -> Array:
    """The stable logsumexp over the last axis as a numpy user writes it (infinite maxima
    shifted by 0, like typedtensor's)."""
    with np.errstate(divide="ignore", over="ignore"):
        peak = a.max(axis=-1, keepdims=True)
        peak = np.where(np.isinf(peak), 0.0, peak)
        summed = np.exp(a - peak).sum(axis=-1)
        return np.log(summed) + peak.reshape(summed.shape)  # type: ignore[no-any-return]


def interleaved_times(calls: list[Call], repeats: int, number: int, timer: Callable[[], float] = time.perf_counter) -> list[list[float]]:
    """Seconds per call of each of ``calls`` in every repeat, the calls timed in alternation."""
    times: list[list[float]] = [[] for _ in calls]
    for _ in range(repeats):
        for call, bucket in zip(calls, times, strict=True):
            start = timer()
            for _ in range(number):
                call()
            bucket.append((timer() - start) / number)
    return times


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
        times = interleaved_times([lambda: subgraph_typed(*tensors), lambda: subgraph_numpy(*arrays)], 7 if quick else 15, max(1, 20_000 // n))
        typed, plain = map(statistics.median, times)
        ratio = typed / plain
        print(f"{n:>7} {plain * 1e3:>10.3f} {typed * 1e3:>15.3f} {ratio:>7.3f}")
    return ratio


@dataclass(frozen=True)
class OpCase:
    """One op: typedtensor's call, numpy's quickest code for the same result, and numpy's
    namespace function where the quickest code skips it."""

    name: str
    typed: Call
    numpy: Call
    numpy_function: Call | None = None
    operator: bool = False  # the 2 us bar covers operators


def op_cases() -> list[OpCase]:
    rng = np.random.default_rng(1)
    a_np, row_np = rng.standard_normal((4, 4), dtype=np.float32), rng.standard_normal(4, dtype=np.float32)
    b_np = a_np + 1
    a = tt.check(tt.Tensor(a_np), Tensor[float32, L[4], L[4]])
    b = tt.check(tt.Tensor(b_np), Tensor[float32, L[4], L[4]])
    row = tt.check(tt.Tensor(row_np), Tensor[float32, L[4]])
    index_np, index = np.array([2, 0, 3]), tt.tensor([2, 0, 3])
    along_np, along = np.argmax(a_np, axis=1, keepdims=True), tt.argmax(a, axis=1, keepdims=True)
    pair_np, pair = (a_np, b_np), (a, b)
    operators = [
        OpCase("a + b", lambda: a + b, lambda: a_np + b_np),
        OpCase("a - b", lambda: a - b, lambda: a_np - b_np),
        OpCase("a * 2.0", lambda: a * 2.0, lambda: a_np * 2.0),
        OpCase("2.0 * a", lambda: 2.0 * a, lambda: 2.0 * a_np),
        OpCase("a / b", lambda: a / b, lambda: a_np / b_np),
        OpCase("a ** 2", lambda: a**2, lambda: a_np**2),
        OpCase("a + row (broadcast)", lambda: a + row, lambda: a_np + row_np),
        OpCase("a > b", lambda: a > b, lambda: a_np > b_np),
        OpCase("a == b", lambda: a == b, lambda: a_np == b_np),
        OpCase("-a", lambda: -a, lambda: -a_np),
        OpCase("abs(a)", lambda: abs(a), lambda: abs(a_np)),
        OpCase("a @ b", lambda: a @ b, lambda: a_np @ b_np),
        OpCase("a[1:3]", lambda: a[1:3], lambda: a_np[1:3]),
        OpCase("a[1]", lambda: a[1], lambda: a_np[1]),
        OpCase("a[None, ..., 0]", lambda: a[None, ..., 0], lambda: a_np[None, ..., 0]),
        OpCase("a[index]", lambda: a[index], lambda: a_np[index_np]),
    ]
    return [OpCase(case.name, case.typed, case.numpy, operator=True) for case in operators] + [
        OpCase("tt.exp(a)", lambda: tt.exp(a), lambda: np.exp(a_np)),
        OpCase("tt.maximum(a, b)", lambda: tt.maximum(a, b), lambda: np.maximum(a_np, b_np)),
        OpCase("tt.where(a > 0, a, b)", lambda: tt.where(a > 0, a, b), lambda: np.where(a_np > 0, a_np, b_np)),
        OpCase("tt.sigmoid(a)", lambda: tt.sigmoid(a), lambda: 1 / (1 + np.exp(-a_np))),
        OpCase("matmul transpose_b", lambda: tt.matmul(a, b, transpose_b=True), lambda: a_np @ b_np.T, lambda: np.matmul(a_np, np.matrix_transpose(b_np))),
        OpCase("a.reshape((16,))", lambda: a.reshape((16,)), lambda: a_np.reshape((16,)), lambda: np.reshape(a_np, (16,))),
        OpCase("a.T", lambda: a.T, lambda: a_np.T, lambda: np.permute_dims(a_np, (1, 0))),
        OpCase("tt.expand_dims(a, 0)", lambda: tt.expand_dims(a, 0), lambda: a_np[None], lambda: np.expand_dims(a_np, axis=0)),
        OpCase("tt.squeeze(a)", lambda: tt.squeeze(a), lambda: a_np.squeeze(), lambda: np.squeeze(a_np)),
        OpCase("tt.concat((a, b))", lambda: tt.concat(pair), lambda: np.concatenate(pair_np), lambda: np.concat(pair_np)),
        OpCase("tt.stack((a, b))", lambda: tt.stack(pair), lambda: np.stack(pair_np)),
        OpCase("tt.tile(a, (2, 1))", lambda: tt.tile(a, (2, 1)), lambda: np.tile(a_np, (2, 1))),
        OpCase("tt.broadcast_to(a, ...)", lambda: tt.broadcast_to(a, (2, 4, 4)), lambda: np.broadcast_to(a_np, (2, 4, 4))),
        OpCase("a.sum(axis=1)", lambda: a.sum(axis=1), lambda: a_np.sum(axis=1), lambda: np.sum(a_np, axis=1)),
        OpCase("tt.argmax(a)", lambda: tt.argmax(a), lambda: a_np.argmax(axis=-1), lambda: np.argmax(a_np, axis=-1)),
        OpCase("tt.softmax(a)", lambda: tt.softmax(a), lambda: numpy_softmax(a_np)),
        OpCase("tt.logsumexp(a, axis=-1)", lambda: tt.logsumexp(a, axis=-1), lambda: numpy_logsumexp(a_np)),
        OpCase("tt.take(a, index, 1)", lambda: tt.take(a, index, axis=1), lambda: np.take(a_np, index_np, axis=1)),
        OpCase("tt.take_along_axis", lambda: tt.take_along_axis(a, along, axis=1), lambda: np.take_along_axis(a_np, along_np, axis=1)),
        OpCase("tt.arange(16)", lambda: tt.arange(16), lambda: np.arange(16)),
        OpCase("tt.eye(4)", lambda: tt.eye(4), lambda: np.eye(4, dtype=np.float32)),
        OpCase("tt.swapaxes(a, 0, 1)", lambda: tt.swapaxes(a, 0, 1), lambda: a_np.swapaxes(0, 1), lambda: np.permute_dims(a_np, (1, 0))),
        OpCase("tt.moveaxis(a, 0, -1)", lambda: tt.moveaxis(a, 0, -1), lambda: np.moveaxis(a_np, 0, -1)),
        OpCase("tt.flatten(a)", lambda: tt.flatten(a), lambda: a_np.reshape(-1), lambda: np.reshape(a_np, (16,))),
        OpCase("tt.split(a, 2)", lambda: tt.split(a, 2), lambda: np.split(a_np, 2)),
        OpCase("tt.pad(a, 1)", lambda: tt.pad(a, 1), lambda: np.pad(a_np, 1)),
        OpCase("tt.tril(a)", lambda: tt.tril(a), lambda: np.tril(a_np)),
        OpCase("tt.one_hot(index, 4)", lambda: tt.one_hot(index, 4), lambda: np.eye(4, dtype=np.float32)[index_np]),
        OpCase("tt.zeros_like(a)", lambda: tt.zeros_like(a), lambda: np.zeros_like(a_np)),
    ]


def op_table(quick: bool) -> float:
    """Prints each op's figures; returns the worst operator's overhead in us."""
    print("\nPer-op overhead on a [4, 4] float32 tensor (best of interleaved repeats, CPU time)")
    print(f"{'op':<26} {'numpy us':>9} {'typedtensor us':>15} {'overhead us':>12} {'np.function us':>15}")
    worst = 0.0
    for case in op_cases():
        calls = [case.typed, case.numpy] + ([case.numpy_function] if case.numpy_function else [])
        times = interleaved_times(calls, 7 if quick else 15, 2_000 if quick else 10_000, time.process_time)
        typed, plain, *function = (min(repeats) * 1e6 for repeats in times)
        if case.operator:
            worst = max(worst, typed - plain)
        beside = f"{function[0]:>15.2f}" if function else ""
        print(f"{case.name:<26} {plain:>9.2f} {typed:>15.2f} {typed - plain:>12.2f} {beside}")
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer sizes and repeats")
    quick = parser.parse_args().quick
    print(f"numpy {np.__version__}, load average {os.getloadavg()[0]:.1f}\n")
    ratio = subgraph_table(quick)
    worst = op_table(quick)
    print(f"\nsubgraph ratio at N = 65,536: {ratio:.3f} (bar <= {RATIO_BAR}) {'holds' if ratio <= RATIO_BAR else 'MISSED'}")
    print(f"worst operator overhead: {worst:.2f} us (bar <= {OVERHEAD_BAR_US} us) {'holds' if worst <= OVERHEAD_BAR_US else 'MISSED'}")


if __name__ == "__main__":
    main()
