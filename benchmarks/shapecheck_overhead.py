"""What ``@shapechecked`` adds to a call, for 1, 3 and 6 tensor arguments (SPEC §8: <= 30 µs).

Each function returns its first argument, so the bare call costs almost nothing and the
difference is the checking: the parameters, the return value and the per-call jaxtyping
context. Every figure is the best of several repeats, measured in this one run.

    python benchmarks/shapecheck_overhead.py
"""

from __future__ import annotations

import timeit
from collections.abc import Callable
from typing import Any, Literal, TypeVar

import typedtensor as tt
from typedtensor import Dim, Tensor

BAR_US = 30.0
NUMBER = 20_000
REPEAT = 7

N = TypeVar("N")


class Batch(Dim): ...


X = Tensor[tt.float32, Batch, N]
Y = Tensor[tt.floating, Batch, Literal[4]]


def one(a: X[N]) -> X[N]:
    return a


def three(a: X[N], b: Y, c: X[N]) -> X[N]:
    return a


def six(a: X[N], b: Y, c: X[N], d: Y, e: X[N], f: Y) -> X[N]:
    return a


def best_us(fn: Callable[..., Any], args: tuple[Any, ...]) -> float:
    """The best per-call time of ``fn(*args)`` in microseconds."""
    times = timeit.repeat(lambda: fn(*args), number=NUMBER, repeat=REPEAT)
    return min(times) / NUMBER * 1e6


def main() -> None:
    x = tt.zeros((8, 3), tt.float32)
    y = tt.zeros((8, 4), tt.float64)
    cases: list[tuple[Callable[..., Any], tuple[Any, ...]]] = [(one, (x,)), (three, (x, y, x)), (six, (x, y, x, y, x, y))]
    print(f"{'tensors':>7} {'bare µs':>9} {'checked µs':>11} {'overhead µs':>12}  bar {BAR_US:.0f} µs")
    for fn, args in cases:
        bare = best_us(fn, args)
        checked = best_us(tt.shapechecked(fn), args)
        verdict = "ok" if checked - bare <= BAR_US else "OVER"
        print(f"{len(args):>7} {bare:>9.2f} {checked:>11.2f} {checked - bare:>12.2f}  {verdict}")


if __name__ == "__main__":
    main()
