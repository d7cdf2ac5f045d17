"""The canonicalized reducer behind every reduction.

Plan, then execute (the TensorFlow Lite idea): normalise the axes with the shared shape rules,
drop size-1 dims, fold neighbouring dims that are both reduced or both kept where the strides
allow (so the fold is a view), and cache the plan by (op, shape, strides, dtype, axis,
keepdims). Executing a cached plan is a reshape, one kernel call and a reshape.
"""

from __future__ import annotations

import functools
import operator
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

import numpy as np

from typedtensor import _kernels
from typedtensor._dtypes import marker_named, marker_of, numpy_dtype_of, type_text
from typedtensor._errors import problem_error
from typedtensor._shape_rules import AxisKey, Problem, apply_mask, reduced_mask, result_dtype, wrong_axis_kind

Array: TypeAlias = np.ndarray[Any, Any]

PLAN_CACHE_SIZE: Final = 4096


@dataclass(frozen=True)
class EmptyExtent:
    """``max``/``min`` over a reduced extent with no elements: there is nothing to compare."""

    axis: AxisKey

    def message(self, op: str, tensor: str) -> str:
        return f'"{op}" of an empty extent: {tensor} over axis {self.axis!r} has no elements to compare'


@dataclass(frozen=True, slots=True)
class Plan:
    """How to run one reduction on arrays of one shape, strides and dtype."""

    view_shape: tuple[int, ...]  # the input folded: size-1 dims dropped, neighbours of a kind merged
    out_shape: tuple[int, ...]  # the result's shape, keepdims applied
    kernel: _kernels.Kernel  # reduces an array of view_shape to one of out_shape's size

    def run(self, array: Array) -> Array:
        return self.kernel(array.reshape(self.view_shape)).reshape(self.out_shape)


def reduce_array(op: str, array: Array, axis: object, keepdims: bool, caller: str) -> Array:
    """``op`` over ``axis`` of ``array``: a new array, never a view of the input.

    ``caller`` is the name the user called (``reduce_sum`` or ``sum``), for messages.
    """
    key = _axis_key(axis, caller)
    if keepdims is not False and keepdims is not True and not isinstance(keepdims, np.bool_):
        raise TypeError(f'"{caller}": keepdims must be True or False, got {type(keepdims).__name__} {keepdims!r}')
    plan = _plan(op, array.shape, array.strides, array.dtype, key, bool(keepdims))
    if isinstance(plan, Plan):
        return plan.run(array)
    raise _error(plan, caller, array)


def _axis_key(axis: object, caller: str) -> AxisKey:
    """``axis`` as a hashable key, or a ``TypeError`` that says what ``axis`` may be."""
    if axis is None or isinstance(axis, str) or type(axis) is int:
        return axis
    if isinstance(axis, (tuple, list)) and all(_is_int(k) for k in axis):
        return tuple(operator.index(k) for k in axis)
    if _is_int(axis):
        return operator.index(axis)  # type: ignore[arg-type]
    raise TypeError(wrong_axis_kind(caller, f"{type(axis).__name__} {axis!r}"))


def _is_int(value: object) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _error(problem: Problem | EmptyExtent, caller: str, array: Array) -> Exception:
    if isinstance(problem, EmptyExtent):
        return ValueError(problem.message(caller, type_text(array)))
    return problem_error(problem, caller, [type_text(array)])


@functools.lru_cache(maxsize=PLAN_CACHE_SIZE)
def _plan(
    op: str, shape: tuple[int, ...], strides: tuple[int, ...], dtype: np.dtype[Any], axis: AxisKey, keepdims: bool
) -> Plan | Problem | EmptyExtent:
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
        return Plan(shape, out_shape, _kernels.filler(op, out_dtype, out_shape, extent_is_empty))
    layout = _kernels.fold(shape, strides, mask, dtype)
    return Plan(layout.shape, out_shape, _kernels.choose(op, layout, out_dtype))

