"""Ops of arrays along one axis: ``argmax``, ``argmin``, ``softmax``, ``log_softmax``, ``logsumexp``,
``take``, ``take_along_axis``.

Each checks its call with the shared rules (cached by shape) before numpy runs, then calls the
array API namespace of the array. The reductions inside ``softmax``, ``log_softmax`` and
``logsumexp`` run through the project's reducer, shifted by the maximum so that no ``exp``
overflows: ``logsumexp`` of ``[1e4, 1e4]`` is ``1e4 + log(2)``, not ``inf``.
"""

from __future__ import annotations

import functools
import math
import operator
import sys
from collections.abc import Callable
from typing import Any, Final, cast

import numpy as np

from typedtensor._arguments import int_argument
from typedtensor._dtypes import int8, int64, numpy_dtype_like, numpy_dtype_of, type_text, uint64
from typedtensor._ops.backends import backend_of, rule_shape, to_dtype
from typedtensor._ops.common import Array, as_array, copy_of, fail, namespace
from typedtensor._ops.indexing import out_of_range
from typedtensor._ops.reductions import reduce_array
from typedtensor._reducer import planner as _planner
from typedtensor._reducer.planner import EmptyExtent
from typedtensor._shape_rules import (
    INT_DIMS,
    Problem,
    Shape,
    argextreme_shape,
    axis_problem,
    index_problem,
    take_along_axis_shape,
    take_shape,
)

_CACHE_SIZE: Final = 4096
_UINT64: Final = numpy_dtype_of(uint64)


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _argextreme_plan(shape: tuple[int, ...], axis: int, keepdims: bool) -> tuple[int, ...] | Problem | EmptyExtent:
    """The result shape, or why the call cannot run: a bad axis, or an empty extent to search."""
    out = argextreme_shape(Shape[int, None](shape), axis, keepdims, 1)
    if isinstance(out, Problem):
        return out
    if shape[axis] == 0 and 0 not in out.prefix:
        return EmptyExtent(axis)
    return cast(tuple[int, ...], out.prefix)  # computed from ints: no dim is unknown


def argextreme(op: str, array: Array, axis: object, keepdims: object) -> Array:
    """``argmax`` or ``argmin`` (``op``) of ``array`` along ``axis``, as int64."""
    if keepdims is not False and keepdims is not True:
        raise TypeError(f'"{op}": keepdims must be True or False, got {type(keepdims).__name__} {keepdims!r}')
    plan = _argextreme_plan(array.shape, int_argument(op, "axis", axis), keepdims)
    if isinstance(plan, Problem):
        fail(plan, op, [array])
    xp = namespace(array)
    if isinstance(plan, EmptyExtent):
        raise ValueError(plan.message(op, type_text(array)))
    if 0 in plan:  # no positions to find (numpy refuses an empty extent even then)
        backend = backend_of(array)
        return as_array(xp.zeros(plan, dtype=backend.dtype(int64), device=backend.device(array)))
    if numpy_dtype_like(array.dtype).kind == "b":  # the array API orders no booleans: False < True as 0 < 1
        array = to_dtype(array, int8)
    return as_array(to_dtype(getattr(xp, op)(array, axis=axis, keepdims=keepdims), int64))


def _floating(op: str, array: Array) -> Array:
    """``array`` if it is floating, else a ``TypeError`` naming the tensor."""
    if (array.dtype if type(array) is np.ndarray else numpy_dtype_like(array.dtype)).kind != "f":
        raise TypeError(f'"{op}" takes a floating tensor (float16, float32 or float64), got {type_text(array)}; cast it first')
    return array


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _axis_problem(shape: tuple[int, ...], axis: int) -> Problem | None:
    return axis_problem(rule_shape(shape), axis)


def _normalising(op: str, array: Array, axis: object) -> int | None:
    """The axis of ``softmax``/``log_softmax``, after the dtype and the axis rule accept them;
    None for an array with no elements (its result is a copy)."""
    _floating(op, array)
    index = int_argument(op, "axis", axis)
    problem = _axis_problem(array.shape, index)
    if problem is not None:
        fail(problem, op, [array])
    return None if 0 in array.shape else index


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _accepted(kind: type, dtype: Any, shape: tuple[int, ...], axis: int) -> bool:
    """Whether ``softmax`` takes an array of ``kind``, ``dtype`` and ``shape`` along ``axis`` as
    it is: floating, the axis in range, some elements (else ``_normalising`` says why not). The
    array's type comes first in the key: array-api-strict's dtypes hash as numpy's, and warn
    compared to one. (A class hashes, though mypy reads ndarray's ``__hash__ = None`` as its type's.)"""
    return numpy_dtype_like(dtype).kind == "f" and _axis_problem(shape, axis) is None and 0 not in shape


#: Per array type, the library's own ``softmax`` and ``log_softmax`` taking the axis second
#: (max-shifted as ours: one kernel where the generic form runs five, so typed model code costs
#: what the library's does, SPEC 8), or ``(None, None)``: the generic form. Found once per type.
_FUSED: dict[type, tuple[Callable[[Any, int], Any] | None, Callable[[Any, int], Any] | None]] = {}


def _fused(array: Array) -> tuple[Callable[[Any, int], Any] | None, Callable[[Any, int], Any] | None]:
    """torch's or jax's own ``softmax`` and ``log_softmax`` for ``array``'s type, kept in ``_FUSED``."""
    name = None if type(array) is np.ndarray else backend_of(array).name
    library = sys.modules["torch"] if name == "torch" else sys.modules["jax"].nn if name == "jax" else None
    found = (None, None) if library is None else (library.softmax, library.log_softmax)
    _FUSED[type(array)] = found
    return found


# softmax and log_softmax on small arrays pay each step (SPEC 8: at most 2 us over the library's
# own): an int axis is one cached check, the library's function one lookup, no further call.

def softmax(array: Array, axis: object) -> Array:
    """``exp(x) / sum(exp(x))`` along ``axis``, shifted by the maximum so that nothing overflows."""
    index = axis if type(axis) is int and _accepted(type(array), array.dtype, array.shape, axis) else _normalising("softmax", array, axis)  # type: ignore[arg-type]
    if index is None:
        return copy_of(array)
    fused = (_FUSED.get(type(array)) or _fused(array))[0]
    if fused is not None:
        return fused(array, index)  # type: ignore[no-any-return]
    xp, reduce = namespace(array), _planner.reduce_array if type(array) is np.ndarray else reduce_array  # numpy's straight to the reducer
    exps = xp.exp(xp.subtract(array, reduce("max", array, index, True, "softmax")))
    return as_array(xp.divide(exps, reduce("sum", exps, index, True, "softmax")))


def log_softmax(array: Array, axis: object) -> Array:
    """``log(softmax(x))`` along ``axis``, computed as ``x - logsumexp(x)`` without overflow or ``log(0)``."""
    index = axis if type(axis) is int and _accepted(type(array), array.dtype, array.shape, axis) else _normalising("log_softmax", array, axis)  # type: ignore[arg-type]
    if index is None:
        return copy_of(array)
    fused = (_FUSED.get(type(array)) or _fused(array))[1]
    if fused is not None:
        return fused(array, index)  # type: ignore[no-any-return]
    xp, reduce = namespace(array), _planner.reduce_array if type(array) is np.ndarray else reduce_array
    shifted = xp.subtract(array, reduce("max", array, index, True, "log_softmax"))
    return as_array(xp.subtract(shifted, xp.log(reduce("sum", xp.exp(shifted), index, True, "log_softmax"))))


def logsumexp(array: Array, axis: object, keepdims: bool) -> Array:
    """``log(sum(exp(x)))`` over ``axis`` (every form the reductions take), without overflow."""
    xp = namespace(_floating("logsumexp", array))
    if 0 in array.shape:  # nothing to shift by, nothing to exp: the log of empty sums is -inf
        with np.errstate(divide="ignore"):
            return as_array(xp.log(reduce_array("sum", array, axis, keepdims, "logsumexp")))
    peak = reduce_array("max", array, axis, True, "logsumexp")
    infinite = xp.isinf(peak)
    if type(array) is not np.ndarray:  # no data read: a lazy or traced array stays so
        return _shifted_logsumexp(xp, array, xp.where(infinite, xp.zeros_like(peak), peak), axis, keepdims)
    if infinite.any():  # inf - inf would be NaN: shift such slices by 0 (they give -inf or +inf)
        with np.errstate(divide="ignore", over="ignore"):
            return _shifted_logsumexp(xp, array, xp.where(infinite, 0.0, peak), axis, keepdims)
    # A finite maximum: exp(x - max) <= 1 cannot overflow and the sum is at least 1 (or NaN).
    return _shifted_logsumexp(xp, array, peak, axis, keepdims)


def _shifted_logsumexp(xp: Any, array: Array, peak: Array, axis: object, keepdims: bool) -> Array:
    summed = reduce_array("sum", xp.exp(xp.subtract(array, peak)), axis, keepdims, "logsumexp")
    return as_array(xp.add(xp.log(summed), xp.reshape(peak, summed.shape)))


def _index_array(op: str, indices: Array | int) -> Array | int:
    """The integer array of indices (a Python int stays one), or a ``TypeError`` naming the tensor."""
    if isinstance(indices, int):
        return operator.index(indices)
    if numpy_dtype_like(indices.dtype).kind not in "iu":
        raise TypeError(f'"{op}": indices must be a tensor of integers, got {type_text(indices)}')
    return indices


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _take_problem(shape: tuple[int, ...], indices: tuple[int, ...], axis: int | None) -> Problem | None:
    taken = take_shape(Shape[int, None](shape), Shape(indices), axis)
    return taken if isinstance(taken, Problem) else None


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _take_along_axis_problem(shape: tuple[int, ...], indices: tuple[int, ...], axis: int) -> Problem | None:
    taken = take_along_axis_shape(Shape[int, None](shape), Shape(indices), axis, INT_DIMS)
    return taken if isinstance(taken, Problem) else None


def take(array: Array, indices: Array | int, axis: object) -> Array:
    """The elements of ``array`` at ``indices`` (an integer array or an int) along ``axis`` (None:
    of the flattened array), as numpy's ``take``."""
    index = _index_array("take", indices)
    where = None if axis is None else int_argument("take", "axis", axis)
    problem = _take_problem(array.shape, np.shape(index), where)
    if problem is not None:
        fail(problem, "take", [array, indices])
    return _gather("take", array, indices, index, where)


def take_along_axis(array: Array, indices: Array, axis: object) -> Array:
    """The elements of ``array`` at ``indices`` along ``axis``, position by position (numpy's ``take_along_axis``)."""
    index = _index_array("take_along_axis", indices)
    assert not isinstance(index, int)  # an array stays one
    where = int_argument("take_along_axis", "axis", axis)
    problem = _take_along_axis_problem(array.shape, index.shape, where)
    if problem is not None:
        fail(problem, "take_along_axis", [array, indices])
    return _gather("take_along_axis", array, indices, index, where)


def _gather(op: str, array: Array, indices: Array | int, index: Array | int, axis: int | None) -> Array:
    """``op`` of the namespace, its indices' values checked: before numpy for an int (one
    comparison; numpy cannot convert one beyond int64), for uint64 (which numpy would wrap) and
    for an empty tensor (numpy takes nothing, so it checks nothing), else from numpy's refusal
    (no cost when every index is in range)."""
    size = math.prod(array.shape) if axis is None else array.shape[axis]
    if isinstance(index, int):
        problem: Problem | None = index_problem(index, size, axis)
    elif numpy_dtype_like(index.dtype) == _UINT64 or 0 in array.shape:
        problem = out_of_range(index, size, axis)
    else:
        problem = None
    if problem is not None:
        fail(problem, op, [array, indices])
    try:
        return as_array(getattr(namespace(array), op)(array, index, axis=axis))
    except IndexError:
        problem = out_of_range(index, size, axis)
        if problem is None:
            raise
    fail(problem, op, [array, indices])
