"""Rearranging an array's dims: reshape, transpose, expand_dims, squeeze, concat, stack, tile, broadcast_to.

Each checks its shapes with the shared rule (cached by shapes and arguments) before the array
API namespace computes, so a mistake raises the rule's error naming the op, the tensors and, for
the ops that take one, the target as written: ``Cannot reshape Tensor[float32, 6, 4] to (5, 5)``.
Results are what numpy gives: views where numpy gives views (reshape, transpose, expand_dims,
squeeze, broadcast_to), new arrays otherwise.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Final, TypeAlias

import numpy as np

from typedtensor._arguments import axis_key, int_argument, is_int
from typedtensor._errors import problem_error
from typedtensor._ops.backends import same_library
from typedtensor._ops.common import Array, as_array, fail, namespace, operand_text, promoted, refuse_result
from typedtensor._shape_rules import (
    INT_DIMS,
    AxisKey,
    Dims,
    Problem,
    Shape,
    Unknown,
    broadcast_to_shape,
    concat_shape,
    expand_dims_shape,
    format_sizes,
    permute_shape,
    reduced_mask,
    reshape_shape,
    squeeze_shape,
    stack_shape,
    tile_shape,
)

#: A rule of one tensor and one argument, as the runtime calls it: ints for dims.
Rule: TypeAlias = Callable[[Shape[int, None], Any, Dims[int]], "Shape[int, None] | Problem"]
#: A rule of a join: the tensors' shapes and the axis.
JoinRule: TypeAlias = Callable[[Sequence[Shape[int, None]], int, Dims[int]], "Shape[int, None] | Problem"]

_CACHE_SIZE: Final = 4096
_PLAIN_INT: Final = frozenset({int})


def reshape(array: Array, shape: object) -> Array:
    """The elements of ``array`` in ``shape`` (an int or a tuple or list of them, one may be -1)."""
    return _sized("reshape", reshape_shape, array, shape, "shape")


def tile(array: Array, reps: object) -> Array:
    """``array`` repeated ``reps[i]`` times along each dim, aligned from the end."""
    return _sized("tile", tile_shape, array, reps, "reps")


def broadcast_to(array: Array, shape: object) -> Array:
    """``array`` broadcast to ``shape`` (a read-only view)."""
    return _sized("broadcast_to", broadcast_to_shape, array, shape, "shape")


def transpose(array: Array, perm: object) -> Array:
    """``array`` with its dims permuted: dim ``i`` of the result is dim ``perm[i]``; None reverses them."""
    axes = None if perm is None else _sizes("transpose", perm, "perm")
    permutation = _permutation(array.shape, axes)
    if isinstance(permutation, Problem):
        fail(permutation, "transpose", [array])
    return as_array(namespace(array).permute_dims(array, permutation))


def expand_dims(array: Array, axis: object) -> Array:
    """``array`` with a dim of size 1 inserted to be dim ``axis`` of the result."""
    index = int_argument("expand_dims", "axis", axis)
    expanded = _outcome(expand_dims_shape, array.shape, index)
    if isinstance(expanded, Problem):
        fail(expanded, "expand_dims", [array])
    try:
        return as_array(namespace(array).expand_dims(array, axis=index))
    except ValueError as error:
        refusal = error
    refuse_result("expand_dims", [array], expanded, array.itemsize, refusal)


def squeeze(array: Array, axis: object) -> Array:
    """``array`` without the dims ``axis`` names (any form the reductions take), each of size 1;
    with ``axis=None`` every size-1 dim."""
    axes = _squeezed_axes(array.shape, axis_key(axis, "squeeze"))
    if isinstance(axes, Problem):
        fail(axes, "squeeze", [array])
    return as_array(namespace(array).squeeze(array, axis=axes))


def concat(arrays: tuple[Array, ...], axis: object) -> Array:
    """The arrays joined along ``axis``: their sizes there add up, their other dims must agree."""
    return _join("concat", concat_shape, arrays, axis)


def stack(arrays: tuple[Array, ...], axis: object) -> Array:
    """The arrays, all of one shape, along a new dim ``axis`` of their count."""
    return _join("stack", stack_shape, arrays, axis)


def _sizes(op: str, value: object, parameter: str) -> tuple[int, ...]:
    """An int or a tuple or list of ints as a tuple of ints; else a ``TypeError`` naming ``parameter``."""
    if type(value) is tuple and _PLAIN_INT.issuperset(map(type, value)):
        return value  # the common case, first: a tuple of plain ints is its own answer
    if isinstance(value, (tuple, list)) and all(map(is_int, value)):
        return tuple(map(operator.index, value))
    if is_int(value):
        return (operator.index(value),)
    raise TypeError(f'"{op}": {parameter} must be an int or a tuple or list of ints, got {type(value).__name__} {value!r}')


def _sized(op: str, rule: Rule, array: Array, value: object, parameter: str) -> Array:
    """An op of an array and sizes (a shape, repetitions), computed by the namespace's function of
    that name once the rule accepts them; else the rule's problem, naming the tensor and the sizes
    as given, or why numpy could not make the result."""
    sizes = _sizes(op, value, parameter)
    outcome = _outcome(rule, array.shape, sizes)
    if isinstance(outcome, Problem):
        raise problem_error(outcome, op, [operand_text(array), format_sizes([str(size) for size in sizes])])
    try:
        return as_array(getattr(namespace(array), op)(array, sizes))
    except (ValueError, OverflowError) as error:
        refusal: Exception = error
    refuse_result(op, [array], outcome, array.itemsize, refusal)


def _join(op: str, rule: JoinRule, arrays: tuple[Array, ...], axis: object) -> Array:
    index = int_argument(op, "axis", axis)
    problem = _join_problem(rule, tuple([array.shape for array in arrays]), index)
    if problem is not None:
        fail(problem, op, arrays)
    if any(type(array) is not np.ndarray for array in arrays):  # another library computes in the rule's dtype
        same_library(op, arrays)
        arrays = promoted(arrays)
    try:
        return as_array(getattr(namespace(arrays[0]), op)(arrays, axis=index))
    except (ValueError, IndexError) as error:  # a stack of 64 dims
        refusal: Exception = error
    refuse_result(op, arrays, (len(arrays), *arrays[0].shape), arrays[0].itemsize, refusal)


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _outcome(rule: Rule, shape: tuple[int, ...], argument: Hashable) -> tuple[int, ...] | Problem:
    """``rule`` on ``shape`` and ``argument`` in ints: the result's shape, or the problem."""
    outcome = rule(Shape(shape), argument, INT_DIMS)
    return outcome if isinstance(outcome, Problem) else _ints(outcome)


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _join_problem(rule: JoinRule, shapes: tuple[tuple[int, ...], ...], axis: int) -> Problem | None:
    outcome = rule([Shape[int, None](shape) for shape in shapes], axis, INT_DIMS)
    return outcome if isinstance(outcome, Problem) else None


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _permutation(shape: tuple[int, ...], axes: tuple[int, ...] | None) -> tuple[int, ...] | Problem:
    """The axes of a transpose, checked and made non-negative; None reverses."""
    permuted = permute_shape(Shape[int, None](shape), axes)
    if isinstance(permuted, Problem):
        return permuted
    rank = len(shape)
    return tuple(range(rank - 1, -1, -1)) if axes is None else tuple(axis % rank for axis in axes)


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _squeezed_axes(shape: tuple[int, ...], axis: AxisKey) -> tuple[int, ...] | Problem:
    """The axes a squeeze removes, each once and non-negative, once the rule accepts them."""
    squeezed = squeeze_shape(Shape[int, None](shape), axis, INT_DIMS)
    if isinstance(squeezed, Problem):
        return squeezed
    mask = [size == 1 for size in shape] if axis is None else reduced_mask(axis, len(shape))
    assert not isinstance(mask, Problem)  # the rule has checked the axes
    return tuple(index for index, squeezes in enumerate(mask) if squeezes)


def _ints(shape: Shape[int, None]) -> tuple[int, ...]:
    """A shape computed from ints alone: every dim is an int."""
    dims = shape.prefix
    assert shape.variadic is None and not any(isinstance(dim, Unknown) for dim in dims)
    return dims  # type: ignore[return-value]
