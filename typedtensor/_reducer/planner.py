"""The canonicalized reducer behind every reduction.

Plan, then execute (the TensorFlow Lite idea): normalise the axes with the shared shape rules,
put the dims in memory order, drop size-1 dims, fold neighbouring dims that are both reduced or
both kept where the strides allow (so the fold is a view; ``_layout``), and cache the plan by
(op, shape, strides, dtype, axis, keepdims). Executing a cached plan is a reshape, one kernel
call and a reshape (a transpose on each side for inputs not in C order).
"""

from __future__ import annotations

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
    key = axis_key(axis, caller)
    if keepdims is not False and keepdims is not True and not isinstance(keepdims, np.bool_):
        raise TypeError(f'"{caller}": keepdims must be True or False, got {type(keepdims).__name__} {keepdims!r}')
    plan = _plan(op, array.shape, array.strides, array.dtype, key, bool(keepdims))
    if type(plan) is CompiledPlan or type(plan) is NumpyPlan:
        return plan.run(array)
    raise _error(plan, caller, array)  # type: ignore[arg-type]


def _error(problem: Problem | EmptyExtent, caller: str, array: Array) -> Exception:
    if isinstance(problem, EmptyExtent):
        return ValueError(problem.message(caller, type_text(array)))
    return problem_error(problem, caller, [type_text(array)])


@functools.lru_cache(maxsize=PLAN_CACHE_SIZE)
def _plan(
    op: str, shape: tuple[int, ...], strides: tuple[int, ...], dtype: np.dtype[Any], axis: AxisKey, keepdims: bool
) -> CompiledPlan | NumpyPlan | Problem | EmptyExtent:
    mask = reduced_mask(axis, len(shape))
    if not isinstance(mask, tuple):
        return mask
    out_dtype = numpy_dtype_of(marker_named(result_dtype(op, marker_of(dtype).__name__)))
    out_shape = apply_mask(shape, mask, keepdims, 1)
    if 0 in shape:
        # Output cells over an empty extent hold the op's identity; an empty output holds nothing.
        extent_is_empty = 0 in [size for size, reduced in zip(shape, mask) if reduced] and 0 not in out_shape
        if extent_is_empty and op in ("max", "min"):
            return EmptyExtent(axis)
        return NumpyPlan(None, None, shape, None, None, out_shape, _kernels.filler(op, out_dtype, out_shape, extent_is_empty))
    if dtype.kind != "c" and all(size == 1 for size, reduced in zip(shape, mask) if reduced):
        # Nothing to combine (axis=() among these): one copy in the result dtype, not a loop per element.
        return NumpyPlan(None, None, shape, None, None, out_shape, _kernels.unreduced(op, out_dtype))
    if _compiled.handles(dtype):
        return _compiled.plan(op, shape, strides, dtype, mask, out_shape, out_dtype)
    return _numpy_plan(op, shape, strides, dtype, mask, out_shape, out_dtype)


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
