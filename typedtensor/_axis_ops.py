"""Ops along one axis: ``argmax``, ``argmin``, ``softmax``, ``log_softmax``, ``logsumexp``, ``take``,
``take_along_axis``.

Each checks its call with the shared rules (cached by shape) before numpy runs, then calls the
array API namespace of the array it wraps. The reductions inside ``softmax``, ``log_softmax`` and
``logsumexp`` run through the project's reducer, shifted by the maximum so that no ``exp``
overflows: ``logsumexp`` of ``[1e4, 1e4]`` is ``1e4 + log(2)``, not ``inf``.
"""

from __future__ import annotations

import functools
import operator
from typing import Any, Final, Literal, SupportsIndex, Unpack, cast, overload

import numpy as np

from typedtensor._arguments import int_argument
from typedtensor._dtypes import int64, integer, numpy_dtype_of, type_text
from typedtensor._generated.type_vars import FloatingT, GenericT, Shape
from typedtensor._ops.indexing import out_of_range
from typedtensor._ops.common import AnyTensor, Array, array_of, fail, namespace, result
from typedtensor._reducer.planner import EmptyExtent, reduce_array
from typedtensor._shape_rules import (
    INT_DIMS,
    Problem,
    Shape as RuleShape,
    argextreme_shape,
    axis_problem,
    index_problem,
    take_along_axis_shape,
    take_shape,
)
from typedtensor._tensor import Axis, AxisIndexT, Tensor

_CACHE_SIZE: Final = 4096
_INT64: Final = numpy_dtype_of(int64)


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _argextreme_plan(shape: tuple[int, ...], axis: int, keepdims: bool) -> tuple[int, ...] | Problem | EmptyExtent:
    """The result shape, or why the call cannot run: a bad axis, or an empty extent to search."""
    out = argextreme_shape(RuleShape[int, None](shape), axis, keepdims, 1)
    if isinstance(out, Problem):
        return out
    if shape[axis] == 0 and 0 not in out.prefix:
        return EmptyExtent(axis)
    return cast(tuple[int, ...], out.prefix)  # computed from ints: no dim is unknown


def _argextreme(op: str, x: object, axis: object, keepdims: object) -> AnyTensor:
    array = array_of(op, x)
    if keepdims is not False and keepdims is not True:
        raise TypeError(f'"{op}": keepdims must be True or False, got {type(keepdims).__name__} {keepdims!r}')
    plan = _argextreme_plan(array.shape, int_argument(op, "axis", axis), keepdims)
    if isinstance(plan, Problem):
        fail(plan, op, [x])
    xp = namespace(array)
    if isinstance(plan, EmptyExtent):
        raise ValueError(plan.message(op, type_text(array)))
    if 0 in plan:  # no positions to find (numpy refuses an empty extent even then)
        return result(xp.zeros(plan, dtype=xp.int64))
    found = getattr(xp, op)(array, axis=axis, keepdims=keepdims)
    return result(found if found.dtype == _INT64 else xp.astype(found, xp.int64))


def argmax(x: Tensor[Any, Unpack[tuple[Any, ...]]], axis: SupportsIndex = -1, keepdims: bool = False) -> Tensor[int64, Unpack[tuple[Any, ...]]]:
    """The index of the largest element along ``axis`` (the first one on ties; NaN counts as largest).

    The axis is removed, or kept with size 1 with ``keepdims``; the result is ``int64``. An empty
    axis has no largest element: ``ValueError``.

    >>> import typedtensor as tt
    >>> tt.argmax(tt.tensor([[1, 5, 2], [7, 0, 7]]))
    Tensor[int64, 2]([1, 0])
    """
    return _argextreme("argmax", x, axis, keepdims)


def argmin(x: Tensor[Any, Unpack[tuple[Any, ...]]], axis: SupportsIndex = -1, keepdims: bool = False) -> Tensor[int64, Unpack[tuple[Any, ...]]]:
    """The index of the smallest element along ``axis``; otherwise as ``argmax``."""
    return _argextreme("argmin", x, axis, keepdims)


def _float_array(op: str, x: object) -> Array:
    """The array of a floating tensor, or a ``TypeError`` naming the tensor."""
    array = array_of(op, x)
    if array.dtype.kind != "f":
        raise TypeError(f'"{op}" takes a floating tensor (float16, float32 or float64), got {type_text(array)}; cast it first')
    return array


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _axis_problem(shape: tuple[int, ...], axis: int) -> Problem | None:
    return axis_problem(RuleShape[int, None](shape), axis)


def _normalising(op: str, x: object, axis: object) -> tuple[Array, int]:
    """The array and axis of ``softmax``/``log_softmax``, after the axis rule accepts them."""
    array = _float_array(op, x)
    index = int_argument(op, "axis", axis)
    problem = _axis_problem(array.shape, index)
    if problem is not None:
        fail(problem, op, [x])
    return array, index


def softmax(x: Tensor[FloatingT, Unpack[Shape]], axis: SupportsIndex = -1) -> Tensor[FloatingT, Unpack[Shape]]:
    """``exp(x) / sum(exp(x))`` along ``axis``, shifted by the maximum so that nothing overflows.

    >>> import typedtensor as tt
    >>> tt.softmax(tt.tensor([[0.0, 0.0], [1e4, 1e4]], dtype=tt.float32))
    Tensor[float32, 2, 2]([[0.5, 0.5],
                           [0.5, 0.5]])
    """
    array, index = _normalising("softmax", x, axis)
    if array.size == 0:
        return result(array.copy())
    xp = namespace(array)
    exps = xp.exp(xp.subtract(array, reduce_array("max", array, index, True, "softmax")))
    return result(xp.divide(exps, reduce_array("sum", exps, index, True, "softmax")))


def log_softmax(x: Tensor[FloatingT, Unpack[Shape]], axis: SupportsIndex = -1) -> Tensor[FloatingT, Unpack[Shape]]:
    """``log(softmax(x))`` along ``axis``, computed as ``x - logsumexp(x)`` without overflow or ``log(0)``."""
    array, index = _normalising("log_softmax", x, axis)
    if array.size == 0:
        return result(array.copy())
    xp = namespace(array)
    shifted = xp.subtract(array, reduce_array("max", array, index, True, "log_softmax"))
    return result(xp.subtract(shifted, xp.log(reduce_array("sum", xp.exp(shifted), index, True, "log_softmax"))))


@overload
def logsumexp(x: Tensor[FloatingT, Unpack[tuple[Any, ...]]], axis: None = None, keepdims: Literal[False] = False) -> Tensor[FloatingT]: ...
@overload
def logsumexp(x: Tensor[FloatingT, Unpack[tuple[Any, ...]]], axis: Axis[AxisIndexT] = None, keepdims: bool = False) -> Tensor[FloatingT, Unpack[tuple[Any, ...]]]: ...
def logsumexp(x: Tensor[Any, Unpack[tuple[Any, ...]]], axis: Axis[AxisIndexT] = None, keepdims: bool = False) -> AnyTensor:
    """``log(sum(exp(x)))`` over ``axis`` (every form the reductions take), without overflow.

    Shifted by the maximum: inputs of ``1e4`` give finite results. A slice of ``-inf`` (or an
    empty one) gives ``-inf``, one holding ``+inf`` gives ``+inf``, one holding NaN gives NaN.

    >>> import typedtensor as tt
    >>> tt.logsumexp(tt.tensor([1e4, 1e4]))
    Tensor[float64](10000.69314718)
    """
    array = _float_array("logsumexp", x)
    xp = namespace(array)
    if array.size == 0:  # nothing to shift by, nothing to exp: the log of empty sums is -inf
        with np.errstate(divide="ignore"):
            return result(xp.log(reduce_array("sum", array, axis, keepdims, "logsumexp")))
    peak = reduce_array("max", array, axis, True, "logsumexp")
    infinite = xp.isinf(peak)
    if infinite.any():  # inf - inf would be NaN: shift such slices by 0 (they give -inf or +inf)
        with np.errstate(divide="ignore", over="ignore"):
            return _shifted_logsumexp(xp, array, xp.where(infinite, 0.0, peak), axis, keepdims)
    # A finite maximum: exp(x - max) <= 1 cannot overflow and the sum is at least 1 (or NaN).
    return _shifted_logsumexp(xp, array, peak, axis, keepdims)


def _shifted_logsumexp(xp: Any, array: Array, peak: Array, axis: Axis[AxisIndexT], keepdims: bool) -> AnyTensor:
    summed = reduce_array("sum", xp.exp(xp.subtract(array, peak)), axis, keepdims, "logsumexp")
    return result(xp.add(xp.log(summed), xp.reshape(peak, summed.shape)))


def _index_array(op: str, indices: object) -> Array | int:
    """The integer array of a Tensor of indices (a Python int stays one), or a ``TypeError``."""
    if isinstance(indices, int) and not isinstance(indices, bool):
        return operator.index(indices)
    array = array_of(op, indices, "indices")
    if array.dtype.kind not in "iu":
        raise TypeError(f'"{op}": indices must be a tensor of integers, got {type_text(array)}')
    return array


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _take_problem(shape: tuple[int, ...], indices: tuple[int, ...], axis: int | None) -> Problem | None:
    taken = take_shape(RuleShape[int, None](shape), RuleShape(indices), axis)
    return taken if isinstance(taken, Problem) else None


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _take_along_axis_problem(shape: tuple[int, ...], indices: tuple[int, ...], axis: int) -> Problem | None:
    taken = take_along_axis_shape(RuleShape[int, None](shape), RuleShape(indices), axis, INT_DIMS)
    return taken if isinstance(taken, Problem) else None


def _gather(op: str, x: object, indices: object, array: Array, index: Array | int, axis: int | None) -> AnyTensor:
    """``op`` of the namespace, its indices' values checked: before numpy for an int (one
    comparison; numpy cannot convert one beyond int64), for uint64 (which numpy would wrap) and
    for an empty tensor (numpy takes nothing, so it checks nothing), else from numpy's refusal
    (no cost when every index is in range)."""
    size = array.size if axis is None else array.shape[axis]
    if isinstance(index, int):
        problem: Problem | None = index_problem(index, size, axis)
    elif index.dtype == np.uint64 or array.size == 0:
        problem = out_of_range(index, size, axis)
    else:
        problem = None
    if problem is not None:
        fail(problem, op, [x, indices])
    try:
        return result(getattr(namespace(array), op)(array, index, axis=axis))
    except IndexError:
        problem = out_of_range(index, size, axis)
        if problem is None:
            raise
    fail(problem, op, [x, indices])


@overload
def take(x: Tensor[GenericT, Unpack[tuple[Any, ...]]], indices: Tensor[integer, Unpack[Shape]], axis: None = None) -> Tensor[GenericT, Unpack[Shape]]: ...
@overload
def take(
    x: Tensor[GenericT, Unpack[tuple[Any, ...]]], indices: Tensor[integer, Unpack[tuple[Any, ...]]] | int, axis: SupportsIndex | None = None
) -> Tensor[GenericT, Unpack[tuple[Any, ...]]]: ...
def take(x: Tensor[Any, Unpack[tuple[Any, ...]]], indices: Tensor[integer, Unpack[tuple[Any, ...]]] | int, axis: SupportsIndex | None = None) -> AnyTensor:
    """The elements of ``x`` at ``indices`` along ``axis`` (numpy's ``take``): the dim at ``axis``
    is replaced by the dims of ``indices``; with ``axis=None`` ``x`` is flattened first.

    Negative indices count from the end; one out of range raises ``TensorIndexError``.

    >>> import typedtensor as tt
    >>> tt.take(tt.tensor([[1, 2, 3], [4, 5, 6]]), tt.tensor([2, 0]), axis=1)
    Tensor[int64, 2, 2]([[3, 1],
                         [6, 4]])
    """
    array = array_of("take", x)
    index = _index_array("take", indices)
    where = None if axis is None else int_argument("take", "axis", axis)
    problem = _take_problem(array.shape, np.shape(index), where)
    if problem is not None:
        fail(problem, "take", [x, indices])
    return _gather("take", x, indices, array, index, where)


def take_along_axis(
    x: Tensor[GenericT, Unpack[tuple[Any, ...]]], indices: Tensor[integer, Unpack[tuple[Any, ...]]], axis: SupportsIndex = -1
) -> Tensor[GenericT, Unpack[tuple[Any, ...]]]:
    """The elements of ``x`` at ``indices`` along ``axis``, position by position (numpy's
    ``take_along_axis``): ``indices`` has the rank of ``x``, its other dims broadcast with those
    of ``x``. ``take_along_axis(x, argmax(x, axis, keepdims=True), axis)`` picks each maximum.

    >>> import typedtensor as tt
    >>> x = tt.tensor([[1, 9, 3], [8, 5, 6]])
    >>> tt.take_along_axis(x, tt.argmax(x, axis=1, keepdims=True), axis=1)
    Tensor[int64, 2, 1]([[9],
                         [8]])
    """
    array = array_of("take_along_axis", x)
    index = _index_array("take_along_axis", indices)
    if isinstance(index, int):
        raise TypeError('"take_along_axis": indices must be a typedtensor.Tensor of integers, got int')
    where = int_argument("take_along_axis", "axis", axis)
    problem = _take_along_axis_problem(array.shape, index.shape, where)
    if problem is not None:
        fail(problem, "take_along_axis", [x, indices])
    return _gather("take_along_axis", x, indices, array, index, where)
