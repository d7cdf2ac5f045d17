"""What typedtensor's elementwise operators add to numpy's on a [4, 4] float32 tensor (SPEC §8: <= 2 µs).

Each line times the same expression on two Tensors and on their two ndarrays, interleaved in
rounds so that load from other processes falls on both alike, in this process's CPU time (a
shared machine's other work then adds little); every figure is the best round, measured in this
one run. The difference is what typedtensor adds: reading the operands, the
shared rules' broadcasting check (cached by shapes), a dtype check for ops that refuse some
dtypes, the array namespace, and wrapping the result.

    python benchmarks/op_overhead.py
"""

from __future__ import annotations

import os
import time
import timeit
from collections.abc import Callable
from typing import Any

import numpy as np

import typedtensor as tt

BAR_US = 2.0
NUMBER = 20_000
ROUNDS = 9

#: label -> the operator expression on (x, y, row): numpy's arrays and typedtensor's tensors take each.
CASES: dict[str, Callable[[Any, Any, Any], Any]] = {
    "x + y": lambda x, y, row: x + y,
    "x - y": lambda x, y, row: x - y,
    "x * 2.0": lambda x, y, row: x * 2.0,
    "2.0 * x": lambda x, y, row: 2.0 * x,
    "x / y": lambda x, y, row: x / y,
    "x // y": lambda x, y, row: x // y,
    "x ** 2": lambda x, y, row: x**2,
    "x < y": lambda x, y, row: x < y,
    "x == y": lambda x, y, row: x == y,
    "-x": lambda x, y, row: -x,
    "abs(x)": lambda x, y, row: abs(x),
    "x + row (broadcast)": lambda x, y, row: x + row,
}
#: Functions, numpy's and ours, on (x, y).
FUNCTIONS: dict[str, tuple[Callable[[Any, Any], Any], Callable[[Any, Any], Any]]] = {
    "exp(x)": (lambda x, y: np.exp(x), lambda x, y: tt.exp(x)),
    "maximum(x, y)": (np.maximum, tt.maximum),
    "where(x < y, x, y)": (lambda x, y: np.where(x < y, x, y), lambda x, y: tt.where(x < y, x, y)),
    "sigmoid(x)": (lambda x, y: 1 / (1 + np.exp(-x)), lambda x, y: tt.sigmoid(x)),
}


def best_us(fn: Callable[[], Any]) -> float:
    return timeit.Timer(fn, timer=time.process_time).timeit(NUMBER) / NUMBER * 1e6


def compare(numpy_call: Callable[[], Any], ours_call: Callable[[], Any]) -> tuple[float, float]:
    """Best per-call µs of each, measured in alternating rounds."""
    numpy_best, ours_best = float("inf"), float("inf")
    for _ in range(ROUNDS):
        numpy_best = min(numpy_best, best_us(numpy_call))
        ours_best = min(ours_best, best_us(ours_call))
    return numpy_best, ours_best


def main() -> None:
    rng = np.random.default_rng(0)
    a, b, r = (rng.random(shape).astype(np.float32) + 1 for shape in ((4, 4), (4, 4), (4,)))
    x, y, row = tt.Tensor(a), tt.Tensor(b), tt.Tensor(r)
    print(f"[4, 4] float32, best of {ROUNDS} rounds of {NUMBER:,} calls; load average {os.getloadavg()[0]:.1f}")
    print(f"{'expression':<22} {'numpy µs':>9} {'tt µs':>7} {'added µs':>9} {'ratio':>6}  bar +{BAR_US:.0f} µs")
    worst = 0.0
    rows = [(label, (lambda e=expr: e(a, b, r)), (lambda e=expr: e(x, y, row))) for label, expr in CASES.items()]
    rows += [(label, (lambda f=numpy_fn: f(a, b)), (lambda f=ours_fn: f(x, y))) for label, (numpy_fn, ours_fn) in FUNCTIONS.items()]
    for label, numpy_call, ours_call in rows:
        numpy_us, ours_us = compare(numpy_call, ours_call)
        added = ours_us - numpy_us
        worst = max(worst, added) if label in CASES else worst
        verdict = "ok" if added <= BAR_US else "OVER"
        print(f"{label:<22} {numpy_us:>9.2f} {ours_us:>7.2f} {added:>9.2f} {ours_us / numpy_us:>6.2f}  {verdict}")
    print(f"worst operator: +{worst:.2f} µs ({'within' if worst <= BAR_US else 'OVER'} the {BAR_US:.0f} µs bar)")


if __name__ == "__main__":
    main()
