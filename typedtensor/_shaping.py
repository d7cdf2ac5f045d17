"""Ops that rearrange dims: reshape, transpose, expand_dims, squeeze, concat, stack, tile, broadcast_to.

Each checks its shapes with the shared rule before numpy computes (``typedtensor._ops.shaping``,
on the tensors' arrays), so a mistake raises the rule's error naming the op, the tensors and, for
the ops that take one, the target as written: ``Cannot reshape Tensor[float32, 6, 4] to (5, 5)``.
Results are what numpy gives: views where numpy gives views (reshape, transpose, expand_dims,
squeeze, broadcast_to), new arrays otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, SupportsIndex, TypeVar, TypeVarTuple, overload

from typedtensor._ops import shaping as _shaping
from typedtensor._ops.common import Array
from typedtensor._generated.type_vars import ComplexT, FloatingT, GenericT, SignedT, UnsignedT
# BEGIN GENERATED imports (tools/generate_signatures.py)
from typedtensor._generated.type_vars import D0, D1, D2, D3, D4, D5, D6
# END GENERATED imports
from typedtensor._tensor import AnyTensor, Axis, AxisIndexT, BoolT, Tensor, unwrap, wrap

Shape_ = TypeVarTuple("Shape_")
N = TypeVar("N")
M = TypeVar("M")


def reshape(x: Tensor[GenericT, *tuple[Any, ...]], shape: SupportsIndex | tuple[Any, ...] | list[Any]) -> Tensor[GenericT, *tuple[Any, ...]]:
    """The elements of ``x`` in ``shape``; one size may be ``-1``, solved from the element count.

    >>> import typedtensor as tt
    >>> tt.reshape(tt.ones((2, 3)), (-1,)).shape
    (6,)
    """
    return wrap(_shaping.reshape(unwrap("reshape", x), shape))


# First: a shape that may hold three or more dims (a run of unknown dims, a ``*Ts``) must not
# match the 2-D overload, whose answer would fix its rank at 2.
@overload
def transpose(x: Tensor[GenericT, D0, D1, D2, *tuple[Any, ...]], perm: Sequence[SupportsIndex] | None = None) -> Tensor[GenericT, *tuple[Any, ...]]: ...
@overload
def transpose(x: Tensor[GenericT, N, M], perm: None = None) -> Tensor[GenericT, M, N]: ...
@overload
def transpose(x: Tensor[GenericT, *Shape_], perm: Sequence[SupportsIndex] | None = None) -> Tensor[GenericT, *tuple[Any, ...]]: ...
def transpose(x: AnyTensor, perm: Sequence[SupportsIndex] | None = None) -> AnyTensor:
    """``x`` with its dims permuted: dim ``i`` of the result is dim ``perm[i]``; None reverses them.

    >>> import typedtensor as tt
    >>> tt.transpose(tt.zeros((2, 3, 4)), (2, 0, 1)).shape
    (4, 2, 3)
    """
    return wrap(_shaping.transpose(unwrap("transpose", x), perm))


# BEGIN GENERATED expand_dims (tools/generate_signatures.py)
@overload
def expand_dims(x: Tensor[GenericT, *Shape_], axis: Literal[0]) -> Tensor[GenericT, Literal[1], *Shape_]: ...
@overload
def expand_dims(x: Tensor[GenericT, *Shape_], axis: Literal[-1]) -> Tensor[GenericT, *Shape_, Literal[1]]: ...
@overload
def expand_dims(x: Tensor[GenericT, D0, D1, D2, D3, D4, D5, D6, *tuple[Any, ...]], axis: int) -> Tensor[GenericT, *tuple[Any, ...]]: ...
@overload
def expand_dims(x: Tensor[GenericT, D0, *Shape_], axis: Literal[1]) -> Tensor[GenericT, D0, Literal[1], *Shape_]: ...
@overload
def expand_dims(x: Tensor[GenericT, *Shape_, D0], axis: Literal[-2]) -> Tensor[GenericT, *Shape_, Literal[1], D0]: ...
@overload
def expand_dims(x: Tensor[GenericT, D0, D1, *Shape_], axis: Literal[2]) -> Tensor[GenericT, D0, D1, Literal[1], *Shape_]: ...
@overload
def expand_dims(x: Tensor[GenericT, *Shape_, D0, D1], axis: Literal[-3]) -> Tensor[GenericT, *Shape_, Literal[1], D0, D1]: ...
@overload
def expand_dims(x: Tensor[GenericT, D0, D1, D2, *Shape_], axis: Literal[3]) -> Tensor[GenericT, D0, D1, D2, Literal[1], *Shape_]: ...
@overload
def expand_dims(x: Tensor[GenericT, *Shape_, D0, D1, D2], axis: Literal[-4]) -> Tensor[GenericT, *Shape_, Literal[1], D0, D1, D2]: ...
@overload
def expand_dims(x: Tensor[GenericT, D0, D1, D2, D3, *Shape_], axis: Literal[4]) -> Tensor[GenericT, D0, D1, D2, D3, Literal[1], *Shape_]: ...
@overload
def expand_dims(x: Tensor[GenericT, *Shape_, D0, D1, D2, D3], axis: Literal[-5]) -> Tensor[GenericT, *Shape_, Literal[1], D0, D1, D2, D3]: ...
@overload
def expand_dims(x: Tensor[GenericT, D0, D1, D2, D3, D4, *Shape_], axis: Literal[5]) -> Tensor[GenericT, D0, D1, D2, D3, D4, Literal[1], *Shape_]: ...
@overload
def expand_dims(x: Tensor[GenericT, *Shape_, D0, D1, D2, D3, D4], axis: Literal[-6]) -> Tensor[GenericT, *Shape_, Literal[1], D0, D1, D2, D3, D4]: ...
@overload
def expand_dims(x: Tensor[GenericT, D0, D1, D2, D3, D4, D5, *Shape_], axis: Literal[6]) -> Tensor[GenericT, D0, D1, D2, D3, D4, D5, Literal[1], *Shape_]: ...
@overload
def expand_dims(x: Tensor[GenericT, *Shape_, D0, D1, D2, D3, D4, D5], axis: Literal[-7]) -> Tensor[GenericT, *Shape_, Literal[1], D0, D1, D2, D3, D4, D5]: ...
@overload
def expand_dims(x: Tensor[GenericT, *tuple[Any, ...]], axis: int) -> Tensor[GenericT, *tuple[Any, ...]]: ...
# END GENERATED expand_dims
def expand_dims(x: AnyTensor, axis: int) -> AnyTensor:
    """``x`` with a dim of size 1 inserted to be dim ``axis`` of the result (``-rank-1 <= axis <= rank``).

    >>> import typedtensor as tt
    >>> tt.expand_dims(tt.zeros((2, 3)), -1).shape
    (2, 3, 1)
    """
    return wrap(_shaping.expand_dims(unwrap("expand_dims", x), axis))


# BEGIN GENERATED squeeze (tools/generate_signatures.py)
@overload
def squeeze(x: Tensor[GenericT, D0, D1, D2, D3, D4, D5, D6, *tuple[Any, ...]], axis: Axis[AxisIndexT] = None) -> Tensor[GenericT, *tuple[Any, ...]]: ...
@overload
def squeeze(x: Tensor[GenericT, D0, *Shape_], axis: Literal[0]) -> Tensor[GenericT, *Shape_]: ...
@overload
def squeeze(x: Tensor[GenericT, *Shape_, D0], axis: Literal[-1]) -> Tensor[GenericT, *Shape_]: ...
@overload
def squeeze(x: Tensor[GenericT, D0, D1, *Shape_], axis: Literal[1]) -> Tensor[GenericT, D0, *Shape_]: ...
@overload
def squeeze(x: Tensor[GenericT, *Shape_, D0, D1], axis: Literal[-2]) -> Tensor[GenericT, *Shape_, D1]: ...
@overload
def squeeze(x: Tensor[GenericT, D0, D1, D2, *Shape_], axis: Literal[2]) -> Tensor[GenericT, D0, D1, *Shape_]: ...
@overload
def squeeze(x: Tensor[GenericT, *Shape_, D0, D1, D2], axis: Literal[-3]) -> Tensor[GenericT, *Shape_, D1, D2]: ...
@overload
def squeeze(x: Tensor[GenericT, D0, D1, D2, D3, *Shape_], axis: Literal[3]) -> Tensor[GenericT, D0, D1, D2, *Shape_]: ...
@overload
def squeeze(x: Tensor[GenericT, *Shape_, D0, D1, D2, D3], axis: Literal[-4]) -> Tensor[GenericT, *Shape_, D1, D2, D3]: ...
@overload
def squeeze(x: Tensor[GenericT, D0, D1, D2, D3, D4, *Shape_], axis: Literal[4]) -> Tensor[GenericT, D0, D1, D2, D3, *Shape_]: ...
@overload
def squeeze(x: Tensor[GenericT, *Shape_, D0, D1, D2, D3, D4], axis: Literal[-5]) -> Tensor[GenericT, *Shape_, D1, D2, D3, D4]: ...
@overload
def squeeze(x: Tensor[GenericT, D0, D1, D2, D3, D4, D5, *Shape_], axis: Literal[5]) -> Tensor[GenericT, D0, D1, D2, D3, D4, *Shape_]: ...
@overload
def squeeze(x: Tensor[GenericT, *Shape_, D0, D1, D2, D3, D4, D5], axis: Literal[-6]) -> Tensor[GenericT, *Shape_, D1, D2, D3, D4, D5]: ...
@overload
def squeeze(x: Tensor[GenericT, *tuple[Any, ...]], axis: Axis[AxisIndexT] = None) -> Tensor[GenericT, *tuple[Any, ...]]: ...
# END GENERATED squeeze
def squeeze(x: AnyTensor, axis: Axis[AxisIndexT] = None) -> AnyTensor:
    """``x`` without the dims ``axis`` names, each of size 1; with ``axis=None`` every size-1 dim.

    ``axis`` takes the reductions' forms (an int, a tuple or list, a Selection string).

    >>> import typedtensor as tt
    >>> tt.squeeze(tt.zeros((1, 3, 1)), axis=0).shape
    (3, 1)
    """
    return wrap(_shaping.squeeze(unwrap("squeeze", x), axis))


@overload
def concat(tensors: Sequence[Tensor[FloatingT, Any, *Shape_]], axis: Literal[0] = 0) -> Tensor[FloatingT, Any, *Shape_]: ...
@overload
def concat(tensors: Sequence[Tensor[SignedT, Any, *Shape_]], axis: Literal[0] = 0) -> Tensor[SignedT, Any, *Shape_]: ...
@overload
def concat(tensors: Sequence[Tensor[UnsignedT, Any, *Shape_]], axis: Literal[0] = 0) -> Tensor[UnsignedT, Any, *Shape_]: ...
@overload
def concat(tensors: Sequence[Tensor[ComplexT, Any, *Shape_]], axis: Literal[0] = 0) -> Tensor[ComplexT, Any, *Shape_]: ...
@overload
def concat(tensors: Sequence[Tensor[BoolT, Any, *Shape_]], axis: Literal[0] = 0) -> Tensor[BoolT, Any, *Shape_]: ...
@overload
def concat(tensors: Sequence[AnyTensor], axis: SupportsIndex = 0) -> AnyTensor: ...
def concat(tensors: Sequence[AnyTensor], axis: SupportsIndex = 0) -> AnyTensor:
    """The tensors joined along ``axis``: their sizes there add up, their other dims must agree.

    The dtype is numpy's promotion of theirs.

    >>> import typedtensor as tt
    >>> tt.concat((tt.zeros((2, 3)), tt.ones((4, 3))), axis=0).shape
    (6, 3)
    """
    return wrap(_shaping.concat(_arrays("concat", tensors), axis))


@overload
def stack(tensors: Sequence[Tensor[FloatingT, *Shape_]], axis: Literal[0] = 0) -> Tensor[FloatingT, Any, *Shape_]: ...
@overload
def stack(tensors: Sequence[Tensor[SignedT, *Shape_]], axis: Literal[0] = 0) -> Tensor[SignedT, Any, *Shape_]: ...
@overload
def stack(tensors: Sequence[Tensor[UnsignedT, *Shape_]], axis: Literal[0] = 0) -> Tensor[UnsignedT, Any, *Shape_]: ...
@overload
def stack(tensors: Sequence[Tensor[ComplexT, *Shape_]], axis: Literal[0] = 0) -> Tensor[ComplexT, Any, *Shape_]: ...
@overload
def stack(tensors: Sequence[Tensor[BoolT, *Shape_]], axis: Literal[0] = 0) -> Tensor[BoolT, Any, *Shape_]: ...
@overload
def stack(tensors: Sequence[AnyTensor], axis: SupportsIndex = 0) -> AnyTensor: ...
def stack(tensors: Sequence[AnyTensor], axis: SupportsIndex = 0) -> AnyTensor:
    """The tensors, all of one shape, along a new dim ``axis`` of their count (``-rank-1 <= axis <= rank``).

    >>> import typedtensor as tt
    >>> tt.stack([tt.zeros((2, 3)), tt.ones((2, 3))], axis=-1).shape
    (2, 3, 2)
    """
    return wrap(_shaping.stack(_arrays("stack", tensors), axis))


def tile(x: Tensor[GenericT, *tuple[Any, ...]], reps: SupportsIndex | tuple[Any, ...] | list[Any]) -> Tensor[GenericT, *tuple[Any, ...]]:
    """``x`` repeated ``reps[i]`` times along each dim, aligned from the end (numpy's ``tile``).

    >>> import typedtensor as tt
    >>> tt.tile(tt.zeros((2, 3)), (2, 1, 2)).shape
    (2, 2, 6)
    """
    return wrap(_shaping.tile(unwrap("tile", x), reps))


@overload
def broadcast_to(x: Tensor[GenericT, *tuple[Any, ...]], shape: tuple[*Shape_]) -> Tensor[GenericT, *Shape_]: ...
@overload
def broadcast_to(x: Tensor[GenericT, *tuple[Any, ...]], shape: SupportsIndex | list[Any]) -> Tensor[GenericT, *tuple[Any, ...]]: ...
def broadcast_to(x: AnyTensor, shape: SupportsIndex | tuple[Any, ...] | list[Any]) -> AnyTensor:
    """``x`` broadcast to ``shape`` (a read-only view): each dim, aligned from the end, is 1 or the target's.

    >>> import typedtensor as tt
    >>> tt.broadcast_to(tt.zeros((3,)), (2, 3)).shape
    (2, 3)
    """
    return wrap(_shaping.broadcast_to(unwrap("broadcast_to", x), shape))


def _arrays(op: str, tensors: object) -> tuple[Array, ...]:
    """The arrays of a tuple or list of tensors (a tuple: numpy joins a list of arrays more slowly)."""
    if not isinstance(tensors, (tuple, list)):
        raise TypeError(f'"{op}": tensors must be a tuple or list of typedtensor.Tensor, got {type(tensors).__name__}')
    return tuple([tensor._array if type(tensor) is Tensor else unwrap(op, tensor, f"tensors[{index}]") for index, tensor in enumerate(tensors)])
