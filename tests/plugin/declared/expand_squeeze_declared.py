# pyright: reportUnnecessaryTypeIgnoreComment=true
"""expand_dims and squeeze's generated overloads, with no plugin: pyright and plain mypy agree on each line.

One literal axis, either sign, on ranks 1-6 (and ``expand_dims`` at 0 or -1 on any shape): a
``Literal[1]`` inserted, or the dim removed, the other dims kept whatever they are (a literal
size, a ``Dim`` class, a TypeVar, ``int``, a ``*Ts`` beside the axis). Everything else falls back
to unknown dims, never to a wrong shape: an axis known only at run time, several axes, ``squeeze``
without an axis, an axis that may land in a ``*Ts``, a rank above 6, a run of unknown dims.
"""

from typing import Any, Literal as L, TypeVar, TypeVarTuple, assert_type

import typedtensor as tt
from typedtensor import Dim, Tensor


class Batch(Dim): ...


N = TypeVar("N")
Ts = TypeVarTuple("Ts")

x: Tensor[tt.float32, L[32], L[1], L[784]] = tt.zeros((32, 1, 784), tt.float32)
flags: Tensor[tt.bool_, L[3]] = tt.zeros((3,), tt.bool_)

# One literal axis of the result, either sign: a Literal[1] there.
assert_type(tt.expand_dims(x, 0), Tensor[tt.float32, L[1], L[32], L[1], L[784]])
assert_type(tt.expand_dims(x, 2), Tensor[tt.float32, L[32], L[1], L[1], L[784]])
assert_type(tt.expand_dims(x, -2), Tensor[tt.float32, L[32], L[1], L[1], L[784]])
assert_type(tt.expand_dims(x, 3), Tensor[tt.float32, L[32], L[1], L[784], L[1]])
assert_type(tt.expand_dims(x, -4), Tensor[tt.float32, L[1], L[32], L[1], L[784]])
assert_type(tt.expand_dims(flags, axis=1), Tensor[tt.bool_, L[3], L[1]])  # any dtype, by keyword

# One literal axis, either sign: that dim removed.
assert_type(tt.squeeze(x, 1), Tensor[tt.float32, L[32], L[784]])
assert_type(tt.squeeze(x, axis=-2), Tensor[tt.float32, L[32], L[784]])
assert_type(tt.squeeze(tt.expand_dims(flags, 0), 0), Tensor[tt.bool_, L[3]])


# A dim that is not a literal is taken to be 1 where squeezed (the call raises if it is not).
def named(m: Tensor[tt.float64, Batch, N, int, L[5]]) -> None:
    assert_type(tt.squeeze(m, 0), Tensor[tt.float64, N, int, L[5]])
    assert_type(tt.squeeze(m, -3), Tensor[tt.float64, Batch, int, L[5]])
    assert_type(tt.squeeze(m, 2), Tensor[tt.float64, Batch, N, L[5]])
    assert_type(tt.expand_dims(m, 1), Tensor[tt.float64, Batch, L[1], N, int, L[5]])


# A *Ts is kept where the axis is in the dims known before or after it; else unknown dims.
def variadic(v: Tensor[tt.float32, Batch, *Ts, L[1]]) -> None:
    assert_type(tt.expand_dims(v, 1), Tensor[tt.float32, Batch, L[1], *Ts, L[1]])
    assert_type(tt.expand_dims(v, -2), Tensor[tt.float32, Batch, *Ts, L[1], L[1]])
    assert_type(tt.squeeze(v, -1), Tensor[tt.float32, Batch, *Ts])
    assert_type(tt.squeeze(v, 0), Tensor[tt.float32, *Ts, L[1]])
    assert_type(tt.squeeze(v, 1), Tensor[tt.float32, *tuple[Any, ...]])  # in the *Ts, or the last dim
    assert_type(tt.expand_dims(v, 2), Tensor[tt.float32, *tuple[Any, ...]])
    assert_type(tt.expand_dims(v, -3), Tensor[tt.float32, *tuple[Any, ...]])


def ranks(
    six: Tensor[tt.float32, L[2], L[3], L[4], L[5], L[6], L[1]],
    seven: Tensor[tt.float32, L[1], L[2], L[3], L[4], L[5], L[6], L[7]],
) -> None:
    assert_type(tt.expand_dims(six, 6), Tensor[tt.float32, L[2], L[3], L[4], L[5], L[6], L[1], L[1]])
    assert_type(tt.expand_dims(six, -7), Tensor[tt.float32, L[1], L[2], L[3], L[4], L[5], L[6], L[1]])
    assert_type(tt.squeeze(six, 5), Tensor[tt.float32, L[2], L[3], L[4], L[5], L[6]])
    assert_type(tt.squeeze(six, -1), Tensor[tt.float32, L[2], L[3], L[4], L[5], L[6]])
    # Above rank 6: unknown dims, but at 0 and -1 expand_dims is exact on any shape.
    assert_type(tt.squeeze(seven, 0), Tensor[tt.float32, *tuple[Any, ...]])
    assert_type(tt.expand_dims(seven, 3), Tensor[tt.float32, *tuple[Any, ...]])
    assert_type(tt.expand_dims(seven, -1), Tensor[tt.float32, L[1], L[2], L[3], L[4], L[5], L[6], L[7], L[1]])


# A run of unknown dims may be empty or long: no fixed dims may be matched against it. mypy says
# unknown dims; pyright answers Any (its rule for an argument holding Any that more than one
# overload matches). Either way the result fits tensors of any rank and dims, which a wrong shape
# would not: squeeze(named, -1) of a Tensor[float32, Batch] of size 1 is a Tensor[float32]. (The
# overloads of squeeze at 0 and -1 written by hand before them had pyright drop the run:
# squeeze(ones, 0) was a Tensor[float32, L[3]].)
def unknown_runs(
    named: Tensor[tt.float32, Batch, *tuple[Any, ...]], ones: Tensor[tt.float32, L[1], L[3], *tuple[Any, ...]], unknown: Tensor[Any, *tuple[Any, ...]]
) -> None:
    for shaped in (tt.squeeze(named, -1), tt.squeeze(named, 0), tt.squeeze(ones, 0), tt.squeeze(unknown, -2),
                   tt.expand_dims(named, -2), tt.expand_dims(named, 1), tt.expand_dims(unknown, 3)):
        rank0: Tensor[tt.float32] = shaped
        rank3: Tensor[tt.float32, L[997], L[998], L[999]] = shaped
        del rank0, rank3
    assert_type(tt.expand_dims(unknown, 0), Tensor[Any, L[1], *tuple[Any, ...]])


# What the overloads do not cover falls back to unknown dims, the dtype kept.
def uncovered(axis: int, axes: list[int]) -> None:
    assert_type(tt.expand_dims(x, axis), Tensor[tt.float32, *tuple[Any, ...]])
    assert_type(tt.squeeze(x, axis), Tensor[tt.float32, *tuple[Any, ...]])
    assert_type(tt.squeeze(x, axes), Tensor[tt.float32, *tuple[Any, ...]])
    assert_type(tt.squeeze(x, (1,)), Tensor[tt.float32, *tuple[Any, ...]])
    assert_type(tt.squeeze(x, "v^v"), Tensor[tt.float32, *tuple[Any, ...]])
    # Without an axis every dim of size 1 goes: a dim that is no literal (here a TypeVar of the
    # overloads) may be 1 or not, so the rank is unknown.
    assert_type(tt.squeeze(x), Tensor[tt.float32, *tuple[Any, ...]])
    # A wrong axis of the right kind is no exact overload's and the fallback's: no error without
    # the plugin (at run time: AxisError). A literal int overload of each rank would refuse it,
    # but then refuse an ``int`` axis too: a false positive on code that runs.
    assert_type(tt.expand_dims(x, 4), Tensor[tt.float32, *tuple[Any, ...]])
    assert_type(tt.squeeze(x, -4), Tensor[tt.float32, *tuple[Any, ...]])
    # An axis of a kind no overload takes is an error: pyright's reportCallIssue, mypy's call-overload
    # (an ignore pyright finds unnecessary is an error here: the test fails if it stops flagging).
    tt.expand_dims(x, (0, 1))  # type: ignore[call-overload]
    tt.squeeze(x, 1.5)  # type: ignore[call-overload]


def never_runs() -> None:
    """squeeze of a literal size other than 1 raises at run time; only the plugin reports it
    (``tensor-shape``): without it, the overload of axis 0 takes the dim as it takes ``Batch``."""
    assert_type(tt.squeeze(x, 0), Tensor[tt.float32, L[1], L[784]])
