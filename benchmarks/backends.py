"""What a typed op costs over the library's own call, on every installed array library (SPEC 10).

On a [4, 4] float32 tensor, where the per-call work is all there is: ``x + y``, ``x * 2.0``,
``exp``, ``@``, ``sum(axis=1)``, ``x[0]`` and ``softmax``, through typedtensor and as the
library's own quickest call (numpy, torch, jax eagerly, array-api-strict). typedtensor calls
torch through array-api-compat's namespace, and casts operands where the library's promotion is
not numpy's; the bar (SPEC 8) is at most 2 us more than the library.

Both run interleaved in this one process, alternating repeats, and each figure is the median of
the repeats' per-call times, so a slower moment of a shared machine hits both alike.

    python benchmarks/backends.py [--rounds 15]
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import typedtensor as tt

Call = Callable[[], object]
OVERHEAD_BAR_US = 2.0


def library(name: str) -> tuple[Any, Any] | None:
    """The library's module and its way to make an array of numpy's values, or None if it is not installed."""
    try:
        module = importlib.import_module(name)
    except ImportError:
        return None
    makers: dict[str, Callable[[np.ndarray[Any, Any]], Any]] = {
        "numpy": lambda values: values,
        "torch": lambda values: module.from_numpy(values),
        "jax": lambda values: module.numpy.asarray(values),
        "array_api_strict": lambda values: module.asarray(values),
    }
    return module, makers[name]


def cases(name: str, module: Any, a: Any, b: Any) -> dict[str, tuple[Call, Call]]:
    """Each op: typedtensor's call and the library's own."""
    x: tt.Tensor[Any, *tuple[Any, ...]] = tt.Tensor(a)
    y: tt.Tensor[Any, *tuple[Any, ...]] = tt.Tensor(b)
    xp = {"torch": module, "jax": getattr(module, "numpy", None)}.get(name, module)
    softmax: Call = {
        "torch": lambda: module.softmax(a, dim=1),
        "jax": lambda: module.nn.softmax(a, axis=1),
    }.get(name, lambda: (lambda e: e / xp.sum(e, axis=1, keepdims=True))(xp.exp(a - xp.max(a, axis=1, keepdims=True))))
    return {
        "x + y": (lambda: x + y, lambda: a + b),
        "x * 2.0": (lambda: x * 2.0, lambda: a * 2.0),
        "exp(x)": (lambda: tt.exp(x), lambda: xp.exp(a)),
        "x @ y": (lambda: x @ y, lambda: a @ b),
        "x.sum(axis=1)": (lambda: x.sum(axis=1), lambda: xp.sum(a, axis=1)),
        "x[0]": (lambda: x[0], lambda: a[0, ...]),
        "softmax(x)": (lambda: tt.softmax(x, axis=1), softmax),
    }


def per_call_us(call: Call, number: int) -> float:
    start = time.process_time()
    for _ in range(number):
        call()
    return (time.process_time() - start) / number * 1e6


def measure(typed: Call, raw: Call, rounds: int, number: int) -> tuple[float, float]:
    typed(), raw()  # warm: caches, and jax's compilation of each op
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(rounds):
        times[0].append(per_call_us(typed, number))
        times[1].append(per_call_us(raw, number))
    return statistics.median(times[0]), statistics.median(times[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--number", type=int, default=2000)
    arguments = parser.parse_args()
    values = np.random.default_rng(0).standard_normal((2, 4, 4)).astype(np.float32)
    print(f"[4, 4] float32, per call in us (CPU time, median of {arguments.rounds} rounds); load average {os.getloadavg()[0]:.2f}\n")
    print(f"{'library':18} {'op':15} {'typed':>8} {'library':>8} {'more':>7} {'ratio':>6}")
    for name in ["numpy", "array_api_strict", "torch", "jax"]:
        found = library(name)
        if found is None:
            print(f"{name:18} not installed")
            continue
        module, make = found
        for op, (typed, raw) in cases(name, module, make(values[0].copy()), make(values[1].copy())).items():
            typed_us, raw_us = measure(typed, raw, arguments.rounds, arguments.number)
            flag = "" if typed_us - raw_us <= OVERHEAD_BAR_US else "  over the bar"
            print(f"{name:18} {op:15} {typed_us:8.2f} {raw_us:8.2f} {typed_us - raw_us:+7.2f} {typed_us / raw_us:6.2f}{flag}")


if __name__ == "__main__":
    main()
