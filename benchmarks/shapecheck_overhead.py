"""What ``@shapechecked`` adds to a call, for 1, 3 and 6 tensor arguments (SPEC §8: <= 30 µs),
and what the import hook's check of an annotated local variable adds to its line.

Each function returns its first argument, so the bare call costs almost nothing and the
difference is the checking: the parameters, the return value and the per-call jaxtyping
context. The local variables are timed in a function compiled twice, as written and as the
import hook rewrites it: a line without an annotation compiles to the same bytecode either way,
so only annotated lines are timed. Every figure is the best of several repeats, in this one run.

    python benchmarks/shapecheck_overhead.py
"""

from __future__ import annotations

import ast
import timeit
from collections.abc import Callable
from typing import Any, Literal, TypeVar

import typedtensor as tt
from typedtensor import Dim, Tensor
from typedtensor._check.local_variables import CHECK_LOCAL, check_local, with_local_checks

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


LOCALS = """
def assign(a):
    y: X[N] = a
    n: int = 3
    return y
"""


def with_locals(checked: bool) -> Callable[..., Any]:
    """``assign`` of ``LOCALS``, compiled as written or with its annotated locals checked."""
    tree = ast.parse(LOCALS)
    if checked:
        with_local_checks(tree, "<locals>")
    namespace: dict[str, Any] = {"X": X, "N": N, CHECK_LOCAL: check_local}
    exec(compile(tree, "<locals>", "exec"), namespace)
    function: Callable[..., Any] = namespace["assign"]
    return function


def local_variables(x: Any) -> None:
    """Per annotated local: one of a tensor (checked) and one of an int (looked up, not checked)."""
    bare = best_us(with_locals(False), (x,))
    checked = best_us(with_locals(True), (x,))
    print(f"\nannotated locals (one Tensor, one int) per call: bare {bare:.2f} µs, checked {checked:.2f} µs, +{checked - bare:.2f} µs")


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
    local_variables(x)


if __name__ == "__main__":
    main()
