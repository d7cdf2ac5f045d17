"""Ops that rearrange dims: reshape, transpose, expand_dims, squeeze, concat, stack, tile, broadcast_to.

Each checks its shapes with the shared rule before numpy computes (``typedtensor._ops.shaping``,
on the tensors' arrays), so a mistake raises the rule's error naming the op, the tensors and, for
the ops that take one, the target as written: ``Cannot reshape Tensor[float32, 6, 4] to (5, 5)``.
Results are what numpy gives: views where numpy gives views (reshape, transpose, expand_dims,
squeeze, broadcast_to), new arrays otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, SupportsIndex, overload

from typedtensor._generated.type_vars import D0, D1, D2, BoolT, ComplexT, FloatingT, GenericT, M, N, Shape, SignedT, UnsignedT
from typedtensor._ops import shaping as _shaping
from typedtensor._ops.common import Array
from typedtensor._tensor import AnyTensor, Axis, AxisIndexT, Tensor, unwrap, wrap


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
def transpose(x: Tensor[GenericT, *Shape], perm: Sequence[SupportsIndex] | None = None) -> Tensor[GenericT, *tuple[Any, ...]]: ...
def transpose(x: AnyTensor, perm: Sequence[SupportsIndex] | None = None) -> AnyTensor:
    """``x`` with its dims permuted: dim ``i`` of the result is dim ``perm[i]``; None reverses them.

    >>> import typedtensor as tt
    >>> tt.transpose(tt.zeros((2, 3, 4)), (2, 0, 1)).shape
    (4, 2, 3)
    """
    return wrap(_shaping.transpose(unwrap("transpose", x), perm))


def expand_dims(x: AnyTensor, axis: int) -> AnyTensor:
    """``typedtensor.expand_dims``, whose overloads and docstring are generated (``_generated/shaping.py``)."""
    return wrap(_shaping.expand_dims(unwrap("expand_dims", x), axis))


def squeeze(x: AnyTensor, axis: Axis[AxisIndexT] = None) -> AnyTensor:
    """``typedtensor.squeeze``, whose overloads and docstring are generated (``_generated/shaping.py``)."""
    return wrap(_shaping.squeeze(unwrap("squeeze", x), axis))


@overload
def concat(tensors: Sequence[Tensor[FloatingT, Any, *Shape]], axis: Literal[0] = 0) -> Tensor[FloatingT, Any, *Shape]: ...
@overload
def concat(tensors: Sequence[Tensor[SignedT, Any, *Shape]], axis: Literal[0] = 0) -> Tensor[SignedT, Any, *Shape]: ...
@overload
def concat(tensors: Sequence[Tensor[UnsignedT, Any, *Shape]], axis: Literal[0] = 0) -> Tensor[UnsignedT, Any, *Shape]: ...
@overload
def concat(tensors: Sequence[Tensor[ComplexT, Any, *Shape]], axis: Literal[0] = 0) -> Tensor[ComplexT, Any, *Shape]: ...
@overload
def concat(tensors: Sequence[Tensor[BoolT, Any, *Shape]], axis: Literal[0] = 0) -> Tensor[BoolT, Any, *Shape]: ...
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
def stack(tensors: Sequence[Tensor[FloatingT, *Shape]], axis: Literal[0] = 0) -> Tensor[FloatingT, Any, *Shape]: ...
@overload
def stack(tensors: Sequence[Tensor[SignedT, *Shape]], axis: Literal[0] = 0) -> Tensor[SignedT, Any, *Shape]: ...
@overload
def stack(tensors: Sequence[Tensor[UnsignedT, *Shape]], axis: Literal[0] = 0) -> Tensor[UnsignedT, Any, *Shape]: ...
@overload
def stack(tensors: Sequence[Tensor[ComplexT, *Shape]], axis: Literal[0] = 0) -> Tensor[ComplexT, Any, *Shape]: ...
@overload
def stack(tensors: Sequence[Tensor[BoolT, *Shape]], axis: Literal[0] = 0) -> Tensor[BoolT, Any, *Shape]: ...
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
def broadcast_to(x: Tensor[GenericT, *tuple[Any, ...]], shape: tuple[*Shape]) -> Tensor[GenericT, *Shape]: ...
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
