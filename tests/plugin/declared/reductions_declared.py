# pyright: reportUnnecessaryTypeIgnoreComment=true
"""The reductions' generated overloads, with no plugin: pyright and plain mypy agree on each line.

Ranks 1-6: ``axis=None``, one literal axis (either sign), keepdims; ranks 2-4: a pair of axes in
either order; ranks 1-4: a Selection string. The result dtype follows the shared rule; the dims
are exact where the dtype is floats' (or any dtype for max/min/any/all), unknown for the others.
Every other call (three axes, a list, an axis known only at run time, a rank above 6, a run of
unknown dims) falls back to unknown dims, never to a wrong shape.
"""

from typing import Any, Literal as L, TypeVar, TypeVarTuple, assert_type

import typedtensor as tt
from typedtensor import Dim, Tensor


class Batch(Dim): ...


N = TypeVar("N")
Ts = TypeVarTuple("Ts")

x: Tensor[tt.float32, L[32], L[256], L[5], L[128]] = tt.zeros((32, 256, 5, 128), tt.float32)
ints: Tensor[tt.int32, L[2], L[3]] = tt.ones((2, 3), tt.int32)
small: Tensor[tt.uint8, L[4]] = tt.ones((4,), tt.uint8)
flags: Tensor[tt.bool_, L[2], L[3]] = tt.ones((2, 3), tt.bool_)

# One literal axis, positive or negative, with and without keepdims (positional too).
assert_type(x.sum(axis=1), Tensor[tt.float32, L[32], L[5], L[128]])
assert_type(x.sum(axis=-1, keepdims=True), Tensor[tt.float32, L[32], L[256], L[5], L[1]])
assert_type(x.mean(0), Tensor[tt.float32, L[256], L[5], L[128]])
assert_type(x.prod(-2, True), Tensor[tt.float32, L[32], L[256], L[1], L[128]])
assert_type(tt.reduce_max(x, axis=-3, keepdims=False), Tensor[tt.float32, L[32], L[5], L[128]])

# A pair of axes in either order and either sign; a Selection string.
assert_type(x.sum(axis=(1, 3)), Tensor[tt.float32, L[32], L[5]])
assert_type(x.mean(axis=(-1, 1), keepdims=True), Tensor[tt.float32, L[32], L[1], L[5], L[1]])
assert_type(tt.reduce_sum(x, axis="v^v^"), Tensor[tt.float32, L[32], L[5]])
assert_type(x.min(axis="^^^^", keepdims=True), Tensor[tt.float32, L[1], L[1], L[1], L[1]])

# A nested call keeps its own type (mypy infers it in the context of each overload it tries).
assert_type(tt.reduce_sum(tt.expand_dims(x, 0), axis=1), Tensor[tt.float32, L[1], L[256], L[5], L[128]])

# axis=None (or omitted): every dim, at any rank; with keepdims a 1 per dim.
assert_type(x.sum(), Tensor[tt.float32])
assert_type(x.max(keepdims=True), Tensor[tt.float32, L[1], L[1], L[1], L[1]])
assert_type(tt.reduce_sum(ints), Tensor[tt.int64])
assert_type(tt.reduce_prod(small, axis=None), Tensor[tt.uint64])

# The result dtype rule: sum/prod widen small integers, mean of integers is float64, any/all
# bool_. Their dims are exact for floats, and for max/min/any/all of every dtype.
assert_type(ints.sum(axis=0), Tensor[tt.int64, *tuple[Any, ...]])
assert_type(tt.reduce_prod(flags, axis=1), Tensor[tt.int64, *tuple[Any, ...]])
assert_type(small.sum(axis=0), Tensor[tt.uint64, *tuple[Any, ...]])
assert_type(ints.mean(axis=-1), Tensor[tt.float64, *tuple[Any, ...]])
assert_type(tt.reduce_mean(flags), Tensor[tt.float64])
assert_type(ints.max(axis=1), Tensor[tt.int32, L[2]])
assert_type(tt.reduce_min(small), Tensor[tt.uint8])
assert_type(x.any(axis=2), Tensor[tt.bool_, L[32], L[256], L[128]])
assert_type(tt.reduce_all(ints, axis=0, keepdims=True), Tensor[tt.bool_, L[1], L[3]])


def named(m: Tensor[tt.float64, Batch, L[10]]) -> None:
    assert_type(m.sum(axis=1), Tensor[tt.float64, Batch])
    assert_type(tt.reduce_mean(m, axis=0, keepdims=True), Tensor[tt.float64, L[1], L[10]])
    assert_type(m.max(keepdims=True), Tensor[tt.float64, L[1], L[1]])


def generic(t: Tensor[tt.float32, N, L[3]], v: Tensor[tt.float32, *Ts]) -> None:
    assert_type(t.sum(axis=-1), Tensor[tt.float32, N])  # a TypeVar dim flows through
    assert_type(v.sum(), Tensor[tt.float32])  # every dim of any rank
    assert_type(v.max(axis=0), Tensor[tt.float32, *tuple[Any, ...]])  # an axis in a *Ts: unknown dims
    assert_type(tt.reduce_sum(v, axis=-1, keepdims=True), Tensor[tt.float32, *tuple[Any, ...]])
    assert_type(v.mean(axis=(0, 1)), Tensor[tt.float32, *tuple[Any, ...]])


def ranks(
    six: Tensor[tt.float32, L[2], L[3], L[4], L[5], L[6], L[7]],
    seven: Tensor[tt.float32, L[1], L[2], L[3], L[4], L[5], L[6], L[7]],
) -> None:
    assert_type(six.sum(axis=1), Tensor[tt.float32, L[2], L[4], L[5], L[6], L[7]])
    assert_type(six.max(axis=-4, keepdims=True), Tensor[tt.float32, L[2], L[3], L[1], L[5], L[6], L[7]])
    assert_type(seven.sum(axis=1), Tensor[tt.float32, *tuple[Any, ...]])  # above rank 6: unknown dims
    assert_type(seven.sum(), Tensor[tt.float32])


# A run of unknown dims may be empty or long: no fixed rank may match it. mypy says unknown dims;
# pyright answers Any (its rule for an argument holding Any that more than one overload matches).
# Either way the result fits tensors of any rank and dims, which a wrong shape would not.
def unknown_runs(mixed: Tensor[tt.float32, L[2], *tuple[Any, ...]], unknown: Tensor[Any, *tuple[Any, ...]]) -> None:
    for reduced in (mixed.sum(axis=-1), mixed.max(axis=0), tt.reduce_mean(mixed, axis=(0, 1)), mixed.min(axis="^v"),
                    mixed.sum(axis=-1, keepdims=True), unknown.sum(axis=-1), tt.reduce_max(unknown, axis=0)):
        rank1: Tensor[tt.float32, L[997]] = reduced
        rank3: Tensor[tt.float32, L[997], L[998], L[999]] = reduced
        del rank1, rank3
    assert_type(mixed.sum(), Tensor[tt.float32])


# What the overloads do not cover falls back to unknown dims, the dtype as the rule allows.
def uncovered(axis: int, flag: bool, axes: list[int]) -> None:
    assert_type(x.sum(axis=axis), Tensor[tt.float32, *tuple[Any, ...]])
    assert_type(x.max(axis=1, keepdims=flag), Tensor[tt.float32, *tuple[Any, ...]])
    assert_type(x.max(axis=(0, 1, 3)), Tensor[tt.float32, *tuple[Any, ...]])
    assert_type(tt.reduce_any(x, axis=axes), Tensor[tt.bool_, *tuple[Any, ...]])
    assert_type(x.sum(axis=(1, 1)), Tensor[tt.float32, *tuple[Any, ...]])  # a repeated axis
    assert_type(x.min(axis="^^^v"), Tensor[tt.float32, *tuple[Any, ...]])  # three axes
    assert_type(x.max(axis="vvvv"), Tensor[tt.float32, *tuple[Any, ...]])  # none
    # A wrong axis of the right kind is no overload's and the fallback's: no error without the
    # plugin (at run time: AxisError, SelectionError).
    assert_type(x.sum(axis=4), Tensor[tt.float32, *tuple[Any, ...]])
    assert_type(x.sum(axis="^^"), Tensor[tt.float32, *tuple[Any, ...]])
    # An axis of a kind no overload takes is an error: pyright's reportCallIssue, mypy's call-overload
    # (an ignore pyright finds unnecessary is an error here: the test fails if it stops flagging).
    x.sum(axis=1.5)  # type: ignore[call-overload]
    tt.reduce_max(x, axis=range(2))  # type: ignore[call-overload]
