"""Ops that move, merge, cut or grow dims: swapaxes, moveaxis, flatten, split, pad, tril, triu; and one_hot.

Each checks its call with the shared rule before the array's library computes
(``typedtensor._ops.rearranging``). The declared types keep the dtype and say what standard
typing can of the dims (``swapaxes`` of a matrix, ``flatten`` to one dim, ``tril`` keeping the
shape); with the mypy plugin every dim is exact (a merged dim is ``Mul[B, T]``, a split part
``Div[N, L[2]]``, a padded dim ``Add[N, L[2]]``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, SupportsIndex, overload

from typedtensor._creation import _fill_value
from typedtensor._dtypes import float32, generic, integer, marker_of, numpy_dtype_like
from typedtensor._generated.type_vars import D0, D1, D2, GenericT, M, N, NewDT, Shape
from typedtensor._ops import rearranging as _rearranging
from typedtensor._tensor import AnyTensor, Tensor, unwrap, wrap


# First: a shape that may hold three or more dims must not match the 2-D overloads.
@overload
def swapaxes(x: Tensor[GenericT, D0, D1, D2, *tuple[Any, ...]], axis1: SupportsIndex, axis2: SupportsIndex) -> Tensor[GenericT, *tuple[Any, ...]]: ...
@overload
def swapaxes(x: Tensor[GenericT, N, M], axis1: Literal[0, -2], axis2: Literal[1, -1]) -> Tensor[GenericT, M, N]: ...
@overload
def swapaxes(x: Tensor[GenericT, N, M], axis1: Literal[1, -1], axis2: Literal[0, -2]) -> Tensor[GenericT, M, N]: ...
@overload
def swapaxes(x: Tensor[GenericT, *Shape], axis1: SupportsIndex, axis2: SupportsIndex) -> Tensor[GenericT, *tuple[Any, ...]]: ...
def swapaxes(x: AnyTensor, axis1: SupportsIndex, axis2: SupportsIndex) -> AnyTensor:
    """``x`` with dims ``axis1`` and ``axis2`` exchanged (a view).

    >>> import typedtensor as tt
    >>> tt.swapaxes(tt.zeros((2, 3, 4)), 0, -1).shape
    (4, 3, 2)
    """
    return wrap(_rearranging.swapaxes(unwrap("swapaxes", x), axis1, axis2))


def moveaxis(
    x: Tensor[GenericT, *tuple[Any, ...]], source: SupportsIndex | Sequence[SupportsIndex], destination: SupportsIndex | Sequence[SupportsIndex]
) -> Tensor[GenericT, *tuple[Any, ...]]:
    """``x`` with the dims at ``source`` moved to ``destination`` (ints, or tuples of as many),
    the other dims in their order (numpy's ``moveaxis``; a view).

    >>> import typedtensor as tt
    >>> tt.moveaxis(tt.zeros((2, 3, 4)), 0, -1).shape
    (3, 4, 2)
    """
    return wrap(_rearranging.moveaxis(unwrap("moveaxis", x), source, destination))


@overload
def flatten(x: Tensor[GenericT, *tuple[Any, ...]], start: Literal[0] = 0, end: Literal[-1] = -1) -> Tensor[GenericT, Any]: ...
@overload
def flatten(x: Tensor[GenericT, *tuple[Any, ...]], start: SupportsIndex = 0, end: SupportsIndex = -1) -> Tensor[GenericT, *tuple[Any, ...]]: ...
def flatten(x: AnyTensor, start: SupportsIndex = 0, end: SupportsIndex = -1) -> AnyTensor:
    """``x`` with dims ``start`` to ``end`` (both included) merged into one, their product; by
    default every dim (a rank-0 tensor gives one dim of 1).

    >>> import typedtensor as tt
    >>> tt.flatten(tt.zeros((2, 3, 4)), 1).shape
    (2, 12)
    """
    return wrap(_rearranging.flatten(unwrap("flatten", x), start, end))


def split(
    x: Tensor[GenericT, *tuple[Any, ...]], sections: SupportsIndex | Sequence[SupportsIndex], axis: SupportsIndex = 0
) -> tuple[Tensor[GenericT, *tuple[Any, ...]], ...]:
    """``x`` cut along ``axis``: into ``sections`` equal parts (an int that must divide the dim),
    or into parts of the sizes ``sections`` lists (which must sum to the dim). The parts are views.

    >>> import typedtensor as tt
    >>> [part.shape for part in tt.split(tt.zeros((6, 2)), (1, 5))]
    [(1, 2), (5, 2)]
    """
    return tuple(map(wrap, _rearranging.split(unwrap("split", x), sections, axis)))


def pad(
    x: Tensor[GenericT, *tuple[Any, ...]],
    widths: SupportsIndex | Sequence[SupportsIndex] | Sequence[Sequence[SupportsIndex]],
    value: complex = 0,
) -> Tensor[GenericT, *tuple[Any, ...]]:
    """``x`` with ``value`` added around each dim: ``widths`` as numpy's ``pad_width``, an int
    (that many on both sides of every dim), a pair ``(before, after)`` for every dim, or a pair
    for each dim. Each dim ``d`` grows to ``d + before + after``.

    >>> import typedtensor as tt
    >>> tt.pad(tt.ones((2,), tt.int64), (1, 2))
    Tensor[int64, 5]([0, 1, 1, 0, 0])
    """
    array = unwrap("pad", x)
    # checked as full's value: numpy raised without the op, jax and torch wrapped 300 into int8 silently
    return wrap(_rearranging.pad(array, widths, _fill_value(value, marker_of(numpy_dtype_like(array.dtype)), "pad")))


def tril(x: Tensor[GenericT, *Shape], k: SupportsIndex = 0) -> Tensor[GenericT, *Shape]:
    """``x`` with the elements above diagonal ``k`` of its last two dims set to 0 (positive ``k``
    is above the main diagonal); at least two dims.

    >>> import typedtensor as tt
    >>> tt.tril(tt.ones((2, 2), tt.int64))
    Tensor[int64, 2, 2]([[1, 0],
                         [1, 1]])
    """
    return wrap(_rearranging.tril(unwrap("tril", x), k))


def triu(x: Tensor[GenericT, *Shape], k: SupportsIndex = 0) -> Tensor[GenericT, *Shape]:
    """``x`` with the elements below diagonal ``k`` of its last two dims set to 0; at least two dims."""
    return wrap(_rearranging.triu(unwrap("triu", x), k))


@overload
def one_hot(indices: Tensor[integer, *Shape], n: SupportsIndex) -> Tensor[float32, *Shape, Any]: ...
@overload
def one_hot(indices: Tensor[integer, *Shape], n: SupportsIndex, dtype: type[NewDT]) -> Tensor[NewDT, *Shape, Any]: ...
def one_hot(indices: AnyTensor, n: SupportsIndex, dtype: type[generic] = float32) -> AnyTensor:
    """A last dim of ``n`` after the indices' dims, 1 at each index and 0 elsewhere, in ``dtype``
    (``float32`` by default). The indices are of an integer dtype, each ``0 <= index < n``:
    another raises ``TensorIndexError`` naming it, before anything is computed.

    >>> import typedtensor as tt
    >>> tt.one_hot(tt.tensor([2, 0]), 3, tt.int8)
    Tensor[int8, 2, 3]([[0, 0, 1],
                        [1, 0, 0]])
    """
    return wrap(_rearranging.one_hot(unwrap("one_hot", indices, "indices"), n, dtype))
