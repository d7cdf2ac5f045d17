"""Ops along one axis: ``argmax``, ``argmin``, ``softmax``, ``log_softmax``, ``logsumexp``, ``take``,
``take_along_axis``.

Each checks its call with the shared rules (cached by shape) before numpy runs, on the tensor's
array (``typedtensor._ops.axis_ops``). The reductions inside ``softmax``, ``log_softmax`` and
``logsumexp`` run through the project's reducer, shifted by the maximum so that no ``exp``
overflows: ``logsumexp`` of ``[1e4, 1e4]`` is ``1e4 + log(2)``, not ``inf``.
"""

from __future__ import annotations

from typing import Any, Literal, SupportsIndex, overload

from typedtensor._dtypes import int64, integer
from typedtensor._generated.type_vars import FloatingT, GenericT, Shape
from typedtensor._ops import axis_ops as _axis_ops
from typedtensor._ops.common import Array
from typedtensor._tensor import AnyTensor, Axis, AxisIndexT, Tensor, unwrap, wrap


def argmax(x: Tensor[Any, *tuple[Any, ...]], axis: SupportsIndex = -1, keepdims: bool = False) -> Tensor[int64, *tuple[Any, ...]]:
    """The index of the largest element along ``axis`` (the first one on ties; NaN counts as largest).

    The axis is removed, or kept with size 1 with ``keepdims``; the result is ``int64``. An empty
    axis has no largest element: ``ValueError``.

    >>> import typedtensor as tt
    >>> tt.argmax(tt.tensor([[1, 5, 2], [7, 0, 7]]))
    Tensor[int64, 2]([1, 0])
    """
    return wrap(_axis_ops.argextreme("argmax", unwrap("argmax", x), axis, keepdims))


def argmin(x: Tensor[Any, *tuple[Any, ...]], axis: SupportsIndex = -1, keepdims: bool = False) -> Tensor[int64, *tuple[Any, ...]]:
    """The index of the smallest element along ``axis``; otherwise as ``argmax``."""
    return wrap(_axis_ops.argextreme("argmin", unwrap("argmin", x), axis, keepdims))


def softmax(x: Tensor[FloatingT, *Shape], axis: SupportsIndex = -1) -> Tensor[FloatingT, *Shape]:
    """``exp(x) / sum(exp(x))`` along ``axis``, shifted by the maximum so that nothing overflows.

    >>> import typedtensor as tt
    >>> tt.softmax(tt.tensor([[0.0, 0.0], [1e4, 1e4]], dtype=tt.float32))
    Tensor[float32, 2, 2]([[0.5, 0.5],
                           [0.5, 0.5]])
    """
    return wrap(_axis_ops.softmax(x._array if type(x) is Tensor else unwrap("softmax", x), axis))


def log_softmax(x: Tensor[FloatingT, *Shape], axis: SupportsIndex = -1) -> Tensor[FloatingT, *Shape]:
    """``log(softmax(x))`` along ``axis``, computed as ``x - logsumexp(x)`` without overflow or ``log(0)``."""
    return wrap(_axis_ops.log_softmax(x._array if type(x) is Tensor else unwrap("log_softmax", x), axis))


@overload
def logsumexp(x: Tensor[FloatingT, *tuple[Any, ...]], axis: None = None, keepdims: Literal[False] = False) -> Tensor[FloatingT]: ...
@overload
def logsumexp(x: Tensor[FloatingT, *tuple[Any, ...]], axis: Axis[AxisIndexT] = None, keepdims: bool = False) -> Tensor[FloatingT, *tuple[Any, ...]]: ...
def logsumexp(x: Tensor[Any, *tuple[Any, ...]], axis: Axis[AxisIndexT] = None, keepdims: bool = False) -> AnyTensor:
    """``log(sum(exp(x)))`` over ``axis`` (every form the reductions take), without overflow.

    Shifted by the maximum: inputs of ``1e4`` give finite results. A slice of ``-inf`` (or an
    empty one) gives ``-inf``, one holding ``+inf`` gives ``+inf``, one holding NaN gives NaN.

    >>> import typedtensor as tt
    >>> tt.logsumexp(tt.tensor([1e4, 1e4]))
    Tensor[float64](10000.69314718)
    """
    return wrap(_axis_ops.logsumexp(unwrap("logsumexp", x), axis, keepdims))


def _indices(op: str, indices: object) -> Array | int:
    """The array of a tensor of indices; a Python int stays one."""
    return indices if isinstance(indices, int) and not isinstance(indices, bool) else unwrap(op, indices, "indices")


@overload
def take(x: Tensor[GenericT, *tuple[Any, ...]], indices: Tensor[integer, *Shape], axis: None = None) -> Tensor[GenericT, *Shape]: ...
@overload
def take(
    x: Tensor[GenericT, *tuple[Any, ...]], indices: Tensor[integer, *tuple[Any, ...]] | int, axis: SupportsIndex | None = None
) -> Tensor[GenericT, *tuple[Any, ...]]: ...
def take(x: Tensor[Any, *tuple[Any, ...]], indices: Tensor[integer, *tuple[Any, ...]] | int, axis: SupportsIndex | None = None) -> AnyTensor:
    """The elements of ``x`` at ``indices`` along ``axis`` (numpy's ``take``): the dim at ``axis``
    is replaced by the dims of ``indices``; with ``axis=None`` ``x`` is flattened first.

    Negative indices count from the end; one out of range raises ``TensorIndexError``.

    >>> import typedtensor as tt
    >>> tt.take(tt.tensor([[1, 2, 3], [4, 5, 6]]), tt.tensor([2, 0]), axis=1)
    Tensor[int64, 2, 2]([[3, 1],
                         [6, 4]])
    """
    return wrap(_axis_ops.take(unwrap("take", x), _indices("take", indices), axis))


def take_along_axis(
    x: Tensor[GenericT, *tuple[Any, ...]], indices: Tensor[integer, *tuple[Any, ...]], axis: SupportsIndex = -1
) -> Tensor[GenericT, *tuple[Any, ...]]:
    """The elements of ``x`` at ``indices`` along ``axis``, position by position (numpy's
    ``take_along_axis``): ``indices`` has the rank of ``x``, its other dims broadcast with those
    of ``x``. ``take_along_axis(x, argmax(x, axis, keepdims=True), axis)`` picks each maximum.

    >>> import typedtensor as tt
    >>> x = tt.tensor([[1, 9, 3], [8, 5, 6]])
    >>> tt.take_along_axis(x, tt.argmax(x, axis=1, keepdims=True), axis=1)
    Tensor[int64, 2, 1]([[9],
                         [8]])
    """
    array = unwrap("take_along_axis", x)
    index = _indices("take_along_axis", indices)
    if isinstance(index, int):
        raise TypeError('"take_along_axis": indices must be a typedtensor.Tensor of integers, got int')
    return wrap(_axis_ops.take_along_axis(array, index, axis))
