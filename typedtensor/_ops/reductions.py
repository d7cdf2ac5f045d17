"""Reductions of arrays (``sum``, ``mean``, ``max`` ...): numpy's run through the canonicalized
reducer; another library's through its own namespace, in the dtype the rule gives (SPEC 10),
after the same checks of the axes and with the same errors.
"""

from __future__ import annotations

import functools
import math
import sys
from collections.abc import Callable
from typing import Any, Final, TypeAlias

import numpy as np

from typedtensor._arguments import axis_key
from typedtensor._dtypes import generic, int8, marker_named, marker_of, numpy_dtype_like, type_text
from typedtensor._errors import problem_error
from typedtensor._ops.backends import Backend, backend_of
from typedtensor._ops.common import Array
from typedtensor._reducer import planner as _planner
from typedtensor._reducer.planner import EmptyExtent
from typedtensor._shape_rules import AxisKey, Problem, reduced_mask, result_dtype

_CACHE_SIZE: Final = 4096
#: The axes a reduction reduces, how many elements each result reduces, and the result's dtype.
Plan = tuple[tuple[int, ...], int, type[generic]]


def reduce_array(op: str, array: Array, axis: object, keepdims: bool, caller: str) -> Array:
    """``op`` over ``axis`` of ``array``: a new array, never a view of the input.

    ``caller`` is the name the user called (``reduce_sum`` or ``sum``), for messages.
    """
    if type(array) is np.ndarray:
        return _planner.reduce_array(op, array, axis, keepdims, caller)
    key = (op, type(array), array.dtype, array.shape, axis_key(axis, caller), _keepdims(keepdims, caller))
    reduction = _LIBRARY_REDUCTIONS.get(key)
    if reduction is None:
        axes, _, result = checked_plan(op, array, axis, keepdims, caller)
        backend = backend_of(array)
        if backend.name == "dask":
            return _dask_reduce(op, array, axes, bool(keepdims), result, caller)
        reduction = _library_reduction(key, backend, op, numpy_dtype_like(array.dtype), axes, result)
    function, computed, axis, result, xp = reduction
    value = function(array if computed is None else xp.astype(array, computed), axis=axis, keepdims=key[-1])
    return value if value.dtype == result else xp.astype(value, result)  # type: ignore[no-any-return]  # an array: the array API gives no scalars


#: How a reduction runs on an array of another library (dask's aside), by the op, the array's
#: type, dtype and shape, the axis and keepdims: the library's function, the dtype to compute in
#: (None: the array's), the axis or axes, the result's dtype and the namespace. Found once, so
#: that a call pays a dict lookup, not the checks.
_LibraryReduction: TypeAlias = tuple[Callable[..., Any], Any, int | tuple[int, ...], Any, Any]
_LIBRARY_REDUCTIONS: dict[tuple[object, ...], _LibraryReduction] = {}


def _library_reduction(key: tuple[object, ...], backend: Backend, op: str, dtype: np.dtype[Any], axes: tuple[int, ...], result: type[generic]) -> _LibraryReduction:
    """How ``op`` runs, kept under ``key``: sums, products and means in the result's dtype, as
    numpy's (int32 sums in int64, the mean of integers is a float); max and min of booleans as
    int8, which the array API orders."""
    computed: type[generic] | None = None
    if op in ("sum", "prod", "mean"):
        computed = backend.accumulator(result)
    elif op in ("max", "min") and dtype.kind == "b":
        computed = int8
    cast = None if computed is None or computed.numpy_dtype == dtype else backend.dtype(computed)
    axis = axes[0] if len(axes) == 1 else axes  # one axis as an int: jax's sum takes 1 us more for a tuple
    reduction = (getattr(backend.xp, op), cast, axis, backend.dtype(result), backend.xp)
    if backend.lasting(computed, result):
        _LIBRARY_REDUCTIONS[key] = reduction
    return reduction


def _keepdims(keepdims: object, caller: str) -> bool:
    """``keepdims`` as a bool, or a ``TypeError`` if it is none."""
    if keepdims is not False and keepdims is not True and not isinstance(keepdims, np.bool_):
        raise TypeError(f'"{caller}": keepdims must be True or False, got {type(keepdims).__name__} {keepdims!r}')
    return bool(keepdims)


def checked_plan(op: str, array: Array, axis: object, keepdims: object, caller: str) -> Plan:
    """The axes ``op`` reduces over ``axis`` of ``array``, how many elements each result reduces,
    and the result's dtype, after the reductions' checks of ``axis`` and ``keepdims``; a problem
    raised in the reductions' words (``caller`` is the name the user called)."""
    key = axis_key(axis, caller)
    _keepdims(keepdims, caller)
    plan = _axes_plan(op, tuple(array.shape), numpy_dtype_like(array.dtype), key)
    if isinstance(plan, EmptyExtent):
        raise ValueError(plan.message(caller, type_text(array)))
    if isinstance(plan, Problem):
        raise problem_error(plan, caller, [type_text(array)])
    return plan


def _dask_reduce(op: str, array: Array, axes: tuple[int, ...], keepdims: bool, result: type[generic], caller: str) -> Array:
    """``op`` of a dask array by typedtensor's reducer (``dask.array.reduction``): each chunk
    reduced to partials in the dtype the reducer accumulates in (float64 for float32 sums, a
    mean's as sums), read where it lies; the partials combined in that dtype and rounded once to
    the result's at the end, so many chunks lose no more than one array does. Nothing is computed
    here; what is computed later runs chunk by chunk, on this machine or a cluster."""
    dtype = numpy_dtype_like(array.dtype)
    count = math.prod(array.shape[axis] for axis in axes) if op == "mean" else 1  # only a mean divides
    if math.isnan(count):
        raise ValueError(
            f'"{caller}" on {type_text(array)} over axes {axes}: a dask array of unknown size (nan) along them has no count '
            "to divide by; call x.array.compute_chunk_sizes() first, or take the sum"
        )
    combining = _planner.combining_op(op)

    def partials(block: Array, axis: tuple[int, ...], keepdims: bool) -> Array:
        return _planner.reduce_partials(op, block, axis, keepdims, caller)

    def combined(block: Array, axis: tuple[int, ...], keepdims: bool) -> Array:
        return _planner.reduce_partials(combining, block, axis, keepdims, caller)

    def finished(block: Array, axis: tuple[int, ...], keepdims: bool) -> Array:
        if any(block.shape[dim] != 1 for dim in axis):
            totals = combined(block, axis, keepdims)
        else:  # one partial per result (a single chunk along the reduced axes): nothing to combine, only to round
            totals = block if keepdims else block.reshape([size for dim, size in enumerate(block.shape) if dim not in axis])
        return _planner.finish_partials(op, totals, dtype, int(count))

    dask_array = sys.modules["dask.array"]
    return dask_array.reduction(  # type: ignore[no-any-return]
        array, partials, finished, combine=combined, axis=axes, keepdims=keepdims, dtype=result.numpy_dtype,
        split_every=_split_every(array, axes, _planner.partials_dtype(op, dtype)), name=f"typedtensor-{op}",
    )


#: The partials one combining task of a dask reduction takes in all: dask's default, and our most.
_DASK_SPLIT_EVERY: Final = 4
_MOST_SPLIT_EVERY: Final = 16


def _split_every(array: Any, axes: tuple[int, ...], partials: np.dtype[Any]) -> dict[int, int] | None:
    """How many partials one combining task of a dask reduction takes along each reduced axis
    (dask's ``split_every``): in all as many as hold no more bytes than one chunk, at least dask's
    default 4 and at most 16, shared among the reduced axes cut into several chunks (``array``:
    a dask array). A combining task costs dask's scheduler far more than adding up small partials
    does: dask's 4, or 2 per axis over two axes, made a sum of 64 chunks 21 (axis 0) or 63 (every
    axis) combining tasks, and 16 makes 5, 10% and 20-25% faster in all. Bounded by a chunk's
    bytes, a task holds no more than a chunk task does. None (dask's choice) where the user
    configured ``split_every``, where nothing is combined, or for chunks of unknown size."""
    split = [axis for axis in axes if array.numblocks[axis] > 1]
    largest = [max(sizes, default=0) for sizes in array.chunks]
    if not split or any(math.isnan(size) for size in largest) or sys.modules["dask"].config.get("split_every", None) is not None:
        return None
    chunk_bytes = math.prod(largest) * array.dtype.itemsize
    partial_bytes = math.prod(1 if dim in axes else size for dim, size in enumerate(largest)) * partials.itemsize
    in_all = min(max(chunk_bytes // max(partial_bytes, 1), _DASK_SPLIT_EVERY), _MOST_SPLIT_EVERY)
    per_axis = max(int(in_all ** (1 / len(split))), 2)  # as dask shares its own among the axes
    return {axis: per_axis if axis in split else 1 for axis in axes}


#: The reductions an empty extent refuses: its maximum or minimum is no value.
_NEED_ELEMENTS: Final = frozenset({"max", "min", "nanmax", "nanmin"})


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _axes_plan(op: str, shape: tuple[int, ...], dtype: np.dtype[Any], axis: AxisKey) -> Plan | Problem | EmptyExtent:
    """The axes to reduce, how many elements each result reduces, and the result's dtype; or why the call cannot run."""
    mask = reduced_mask(axis, len(shape))
    if not isinstance(mask, tuple):
        return mask
    reduced = [size for size, is_reduced in zip(shape, mask) if is_reduced]
    kept = [size for size, is_reduced in zip(shape, mask) if not is_reduced]
    if op in _NEED_ELEMENTS and 0 in reduced and 0 not in kept:
        return EmptyExtent(axis)
    axes = tuple(index for index, is_reduced in enumerate(mask) if is_reduced)
    return axes, math.prod(reduced), marker_named(result_dtype(op, marker_of(dtype).__name__))
