"""Ops that rearrange dims: reshape, transpose, expand_dims, squeeze, concat, stack, tile, broadcast_to.

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
from typing import Any, Final, Literal, SupportsIndex, TypeAlias, overload

from typedtensor._arguments import axis_key, int_argument, is_int
from typedtensor._errors import problem_error
from typedtensor._ops.common import AnyTensor, array_of, fail, namespace, operand_text, refuse_result, result
from typedtensor._shape_rules import (
    INT_DIMS,
    AxisKey,
    Dims,
    Problem,
    Shape as RuleShape,
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
from typedtensor._generated.type_vars import D0, D1, D2, BoolT, ComplexT, FloatingT, GenericT, M, N, Shape, SignedT, UnsignedT
from typedtensor._tensor import Axis, AxisIndexT, Tensor

#: A rule of one tensor and one argument, as the runtime calls it: ints for dims.
Rule: TypeAlias = Callable[[RuleShape[int, None], Any, Dims[int]], "RuleShape[int, None] | Problem"]
#: A rule of a join: the tensors' shapes and the axis.
JoinRule: TypeAlias = Callable[[Sequence[RuleShape[int, None]], int, Dims[int]], "RuleShape[int, None] | Problem"]

_CACHE_SIZE: Final = 4096
_PLAIN_INT: Final = frozenset({int})


def reshape(x: Tensor[GenericT, *tuple[Any, ...]], shape: SupportsIndex | tuple[Any, ...] | list[Any]) -> Tensor[GenericT, *tuple[Any, ...]]:
    """The elements of ``x`` in ``shape``; one size may be ``-1``, solved from the element count.

    >>> import typedtensor as tt
    >>> tt.reshape(tt.ones((2, 3)), (-1,)).shape
    (6,)
    """
    return _sized("reshape", reshape_shape, x, shape, "shape")


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
    array = array_of("transpose", x)
    axes = None if perm is None else _sizes("transpose", perm, "perm")
    permutation = _permutation(array.shape, axes)
    if isinstance(permutation, Problem):
        fail(permutation, "transpose", [x])
    return result(namespace(array).permute_dims(array, permutation))


def expand_dims(x: AnyTensor, axis: int) -> AnyTensor:
    """``typedtensor.expand_dims``, whose overloads and docstring are generated (``_generated/shaping.py``)."""
    array = array_of("expand_dims", x)
    index = int_argument("expand_dims", "axis", axis)
    expanded = _outcome(expand_dims_shape, array.shape, index)
    if isinstance(expanded, Problem):
        fail(expanded, "expand_dims", [x])
    try:
        return result(namespace(array).expand_dims(array, axis=index))
    except ValueError as error:
        refusal = error
    refuse_result("expand_dims", [x], expanded, array.itemsize, refusal)


def squeeze(x: AnyTensor, axis: Axis[AxisIndexT] = None) -> AnyTensor:
    """``typedtensor.squeeze``, whose overloads and docstring are generated (``_generated/shaping.py``)."""
    array = array_of("squeeze", x)
    axes = _squeezed_axes(array.shape, axis_key(axis, "squeeze"))
    if isinstance(axes, Problem):
        fail(axes, "squeeze", [x])
    return result(namespace(array).squeeze(array, axis=axes))


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
    return _join("concat", concat_shape, tensors, axis)


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
    return _join("stack", stack_shape, tensors, axis)


def tile(x: Tensor[GenericT, *tuple[Any, ...]], reps: SupportsIndex | tuple[Any, ...] | list[Any]) -> Tensor[GenericT, *tuple[Any, ...]]:
    """``x`` repeated ``reps[i]`` times along each dim, aligned from the end (numpy's ``tile``).

    >>> import typedtensor as tt
    >>> tt.tile(tt.zeros((2, 3)), (2, 1, 2)).shape
    (2, 2, 6)
    """
    return _sized("tile", tile_shape, x, reps, "reps")


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
    return _sized("broadcast_to", broadcast_to_shape, x, shape, "shape")


def _sizes(op: str, value: object, parameter: str) -> tuple[int, ...]:
    """An int or a tuple or list of ints as a tuple of ints; else a ``TypeError`` naming ``parameter``."""
    if type(value) is tuple and _PLAIN_INT.issuperset(map(type, value)):
        return value  # the common case, first: a tuple of plain ints is its own answer
    if isinstance(value, (tuple, list)) and all(map(is_int, value)):
        return tuple(map(operator.index, value))
    if is_int(value):
        return (operator.index(value),)
    raise TypeError(f'"{op}": {parameter} must be an int or a tuple or list of ints, got {type(value).__name__} {value!r}')


def _sized(op: str, rule: Rule, x: object, value: object, parameter: str) -> AnyTensor:
    """An op of a tensor and sizes (a shape, repetitions), computed by the namespace's function of
    that name once the rule accepts them; else the rule's problem, naming the tensor and the sizes
    as given, or why numpy could not make the result."""
    array = array_of(op, x)
    sizes = _sizes(op, value, parameter)
    outcome = _outcome(rule, array.shape, sizes)
    if isinstance(outcome, Problem):
        raise problem_error(outcome, op, [operand_text(x), format_sizes([str(size) for size in sizes])])
    try:
        return result(getattr(namespace(array), op)(array, sizes))
    except (ValueError, OverflowError) as error:
        refusal: Exception = error
    refuse_result(op, [x], outcome, array.itemsize, refusal)


def _join(op: str, rule: JoinRule, tensors: object, axis: object) -> AnyTensor:
    if not isinstance(tensors, (tuple, list)):
        raise TypeError(f'"{op}": tensors must be a tuple or list of typedtensor.Tensor, got {type(tensors).__name__}')
    # A tuple: numpy converts a list of arrays more slowly.
    arrays = tuple([tensor.numpy() if isinstance(tensor, Tensor) else array_of(op, tensor, f"tensors[{index}]") for index, tensor in enumerate(tensors)])
    index = int_argument(op, "axis", axis)
    problem = _join_problem(rule, tuple([array.shape for array in arrays]), index)
    if problem is not None:
        fail(problem, op, tensors)
    try:
        return result(getattr(namespace(arrays[0]), op)(arrays, axis=index))
    except (ValueError, IndexError) as error:  # a stack of 64 dims
        refusal: Exception = error
    refuse_result(op, tensors, (len(arrays), *arrays[0].shape), arrays[0].itemsize, refusal)


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _outcome(rule: Rule, shape: tuple[int, ...], argument: Hashable) -> tuple[int, ...] | Problem:
    """``rule`` on ``shape`` and ``argument`` in ints: the result's shape, or the problem."""
    outcome = rule(RuleShape(shape), argument, INT_DIMS)
    return outcome if isinstance(outcome, Problem) else _ints(outcome)


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _join_problem(rule: JoinRule, shapes: tuple[tuple[int, ...], ...], axis: int) -> Problem | None:
    outcome = rule([RuleShape[int, None](shape) for shape in shapes], axis, INT_DIMS)
    return outcome if isinstance(outcome, Problem) else None


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _permutation(shape: tuple[int, ...], axes: tuple[int, ...] | None) -> tuple[int, ...] | Problem:
    """The axes of a transpose, checked and made non-negative; None reverses."""
    permuted = permute_shape(RuleShape[int, None](shape), axes)
    if isinstance(permuted, Problem):
        return permuted
    rank = len(shape)
    return tuple(range(rank - 1, -1, -1)) if axes is None else tuple(axis % rank for axis in axes)


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _squeezed_axes(shape: tuple[int, ...], axis: AxisKey) -> tuple[int, ...] | Problem:
    """The axes a squeeze removes, each once and non-negative, once the rule accepts them."""
    squeezed = squeeze_shape(RuleShape[int, None](shape), axis, INT_DIMS)
    if isinstance(squeezed, Problem):
        return squeezed
    mask = [size == 1 for size in shape] if axis is None else reduced_mask(axis, len(shape))
    assert not isinstance(mask, Problem)  # the rule has checked the axes
    return tuple(index for index, squeezes in enumerate(mask) if squeezes)


def _ints(shape: RuleShape[int, None]) -> tuple[int, ...]:
    """A shape computed from ints alone: every dim is an int."""
    dims = shape.prefix
    assert shape.variadic is None and not any(isinstance(dim, Unknown) for dim in dims)
    return dims  # type: ignore[return-value]
