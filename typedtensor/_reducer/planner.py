"""The canonicalized reducer behind every reduction.

Plan, then execute (the TensorFlow Lite idea): normalise the axes with the shared shape rules,
put the dims in memory order, drop size-1 dims, fold neighbouring dims that are both reduced or
both kept where the strides allow (so the fold is a view; ``_layout``), and cache the plan by
(op, shape, strides, dtype, axis, keepdims). Executing a cached plan is a reshape, one kernel
call and a reshape (a transpose on each side for inputs not in C order).

``reduce_partials`` runs the same plans into the dtype the reducer accumulates in, for callers
that reduce a large array chunk by chunk and combine the chunks' partial results (dask's
``reduction``: chunk, combine, aggregate), and ``finish_partials`` turns combined partials
into the result ``reduce_array`` would give.
"""

from __future__ import annotations

import dataclasses
import functools
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

import numpy as np

from typedtensor._arguments import axis_key
from typedtensor._dtypes import marker_named, marker_of, numpy_dtype_of, type_text
from typedtensor._errors import problem_error
from typedtensor._reducer import compiled as _compiled, kernels as _kernels
from typedtensor._reducer.compiled import CompiledPlan
from typedtensor._reducer.layout import fold, memory_order
from typedtensor._shape_rules import AxisKey, Problem, apply_mask, reduced_mask, result_dtype

Array: TypeAlias = np.ndarray[Any, Any]

PLAN_CACHE_SIZE: Final = 4096


@dataclass(frozen=True)
class EmptyExtent:
    """``max``/``min`` over a reduced extent with no elements: there is nothing to compare."""

    axis: AxisKey

    def message(self, op: str, tensor: str) -> str:
        return f'"{op}" of an empty extent: {tensor} over axis {self.axis!r} has no elements to compare'


@dataclass(frozen=True, slots=True)
class NumpyPlan:
    """How to run one reduction on arrays of one shape, strides and dtype, on numpy."""

    flip: tuple[slice, ...] | None  # reverses the reduced dims that step backwards, so they fold
    order: tuple[int, ...] | None  # the input's dims in memory order; None if they already are
    view_shape: tuple[int, ...]  # the input folded: size-1 dims dropped, neighbours of a kind merged
    kept_shape: tuple[int, ...] | None  # the kernel's result as kept dims in memory order ...
    kept_back: tuple[int, ...] | None  # ... and the transpose that puts them back; None if in order
    out_shape: tuple[int, ...]  # the result's shape, keepdims applied
    kernel: _kernels.Kernel  # reduces an array of view_shape to one of out_shape's size

    def run(self, array: Array) -> Array:
        if self.flip is not None:
            array = array[self.flip]
        if self.order is not None:
            array = array.transpose(self.order)
        result = self.kernel(array.reshape(self.view_shape))
        if self.kept_back is not None:
            result = result.reshape(self.kept_shape).transpose(self.kept_back)
        return result.reshape(self.out_shape)


def reduce_array(op: str, array: Array, axis: object, keepdims: bool, caller: str) -> Array:
    """``op`` over ``axis`` of ``array``: a new array, never a view of the input.

    ``caller`` is the name the user called (``reduce_sum`` or ``sum``), for messages.
    """
    return _run(op, array, axis, keepdims, caller, partial=False)


def reduce_partials(op: str, array: Array, axis: object, keepdims: bool, caller: str) -> Array:
    """``op`` over ``axis`` of ``array`` in the dtype the reducer accumulates in
    (``partials_dtype``): float16/float32 sums as float64 sums, integer sums and products in 64
    bits, a mean as the sum of its elements (divide the combined sums by their count). The array
    is read where it lies, never copied. Combine the partials of several chunks with
    ``reduce_partials`` again (``combining_op``) and finish them with ``finish_partials``.
    """
    return _run(op, array, axis, keepdims, caller, partial=True)


def partials_dtype(op: str, dtype: np.dtype[Any]) -> np.dtype[Any]:
    """The dtype of ``reduce_partials(op, ...)`` over arrays of ``dtype``."""
    if op in ("max", "min"):
        return dtype
    if op in ("any", "all"):
        return np.dtype(np.bool_)
    if dtype.kind == "c":
        return np.dtype(np.complex128)
    if op == "mean" or dtype.kind == "f":
        return np.dtype(np.float64)
    return np.dtype(np.uint64 if dtype.kind == "u" else np.int64)  # sums and products wrap in 64 bits, as numpy's


def combining_op(op: str) -> str:
    """The op that combines partials of ``op``: a mean's partials are sums."""
    return "sum" if op == "mean" else op


def finish_partials(op: str, totals: Array, dtype: np.dtype[Any], count: int) -> Array:
    """Combined partials of ``op`` over ``count`` elements of ``dtype`` per result, as the
    result ``reduce_array`` gives: a mean divided by ``count``, then rounded once to the result dtype."""
    out_dtype = numpy_dtype_of(marker_named(result_dtype(op, marker_of(dtype).__name__)))
    if op == "mean":
        with np.errstate(invalid="ignore", divide="ignore"):  # an empty extent's mean is NaN, as reduce_array's
            totals = totals / count
    return np.asarray(totals).astype(out_dtype, copy=True)


def _run(op: str, array: Array, axis: object, keepdims: bool, caller: str, partial: bool) -> Array:
    key = axis_key(axis, caller)
    if keepdims is not False and keepdims is not True and not isinstance(keepdims, np.bool_):
        raise TypeError(f'"{caller}": keepdims must be True or False, got {type(keepdims).__name__} {keepdims!r}')
    plan = _plan(op, array.shape, array.strides, array.dtype, key, bool(keepdims), partial)
    if type(plan) is CompiledPlan or type(plan) is NumpyPlan:
        return plan.run(array)
    raise _error(plan, caller, array)  # type: ignore[arg-type]


def _error(problem: Problem | EmptyExtent, caller: str, array: Array) -> Exception:
    if isinstance(problem, EmptyExtent):
        return ValueError(problem.message(caller, type_text(array)))
    return problem_error(problem, caller, [type_text(array)])


@functools.lru_cache(maxsize=PLAN_CACHE_SIZE)
def _plan(
    op: str, shape: tuple[int, ...], strides: tuple[int, ...], dtype: np.dtype[Any], axis: AxisKey, keepdims: bool,
    partial: bool = False,
) -> CompiledPlan | NumpyPlan | Problem | EmptyExtent:
    mask = reduced_mask(axis, len(shape))
    if not isinstance(mask, tuple):
        return mask
    if partial:
        out_dtype = partials_dtype(op, dtype)
    else:
        out_dtype = numpy_dtype_of(marker_named(result_dtype(op, marker_of(dtype).__name__)))
    kernel_op = combining_op(op) if partial else op  # a mean's partials are sums
    out_shape = apply_mask(shape, mask, keepdims, 1)
    if 0 in shape:
        # Output cells over an empty extent hold the op's identity; an empty output holds nothing.
        extent_is_empty = 0 in [size for size, reduced in zip(shape, mask) if reduced] and 0 not in out_shape
        if extent_is_empty and op in ("max", "min"):
            return EmptyExtent(axis)
        return NumpyPlan(None, None, shape, None, None, out_shape, _kernels.filler(kernel_op, out_dtype, out_shape, extent_is_empty))
    if dtype.kind != "c" and all(size == 1 for size, reduced in zip(shape, mask) if reduced):
        # Nothing to combine (axis=() among these): one copy in the result dtype, not a loop per element.
        return NumpyPlan(None, None, shape, None, None, out_shape, _kernels.unreduced(kernel_op, out_dtype))
    if _compiled.handles(dtype):
        plan = _compiled.plan(op, shape, strides, dtype, mask, out_shape, out_dtype)
        return dataclasses.replace(plan, divisor=0.0) if partial and op == "mean" else plan  # sums of integers in float64
    return _numpy_plan(kernel_op, shape, strides, dtype, mask, out_shape, out_dtype)


def _numpy_plan(
    op: str, shape: tuple[int, ...], strides: tuple[int, ...], dtype: np.dtype[Any], mask: tuple[bool, ...],
    out_shape: tuple[int, ...], out_dtype: np.dtype[Any],
) -> NumpyPlan:
    # A reduced dim read backwards reduces the same elements: reversing it lets it fold.
    backwards = [reduced and stride < 0 for stride, reduced in zip(strides, mask)]
    strides = tuple(-stride if back else stride for stride, back in zip(strides, backwards))
    order = memory_order(shape, strides)
    layout = fold(
        tuple(shape[dim] for dim in order), tuple(strides[dim] for dim in order), tuple(mask[dim] for dim in order), dtype
    )
    kept = [dim for dim in order if not mask[dim]]
    kept_back = tuple(sorted(range(len(kept)), key=kept.__getitem__)) if kept != sorted(kept) else None
    return NumpyPlan(
        tuple(slice(None, None, -1 if back else 1) for back in backwards) if any(backwards) else None,
        None if order == tuple(range(len(shape))) else order,
        layout.shape,
        tuple(shape[dim] for dim in kept) if kept_back else None,
        kept_back,
        out_shape,
        _kernels.choose(op, layout, out_dtype),
    )
