"""Moving, merging, cutting and growing an array's dims: swapaxes, moveaxis, flatten, split, pad,
tril, triu; and one_hot.

Each checks its call with the shared rule (cached by shape and arguments) and raises its problem
before the array's namespace computes. Results are numpy's: views where numpy gives views
(swapaxes, moveaxis, split's parts, flatten where a reshape can), new arrays otherwise. The array
API has no ``pad``, ``tril`` or one-hot: on other libraries they are made of ``full``, ``concat``,
``arange`` and ``where``.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Hashable
from typing import Any, Final

import numpy as np

from typedtensor._arguments import int_argument, is_int
from typedtensor._dtypes import generic, marker_of, numpy_dtype_of
from typedtensor._errors import TensorIndexError, problem_error
from typedtensor._ops.backends import backend_of
from typedtensor._ops.common import Array, as_array, fail, namespace, operand_text
from typedtensor._shape_rules import (
    INT_DIMS,
    Problem,
    Shape,
    Unknown,
    flatten_shape,
    format_sizes,
    matrix_kept_shape,
    moveaxis_order,
    moveaxis_shape,
    one_hot_dtype_problem,
    one_hot_shape,
    pad_shape,
    split_shapes,
    swapaxes_shape,
)

_CACHE_SIZE: Final = 4096


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _outcome(rule: Callable[..., Any], shape: tuple[int, ...], *arguments: Hashable) -> Any:
    """``rule`` on ``shape`` and ``arguments`` in ints: the result's shape(s), or the problem."""
    outcome = rule(Shape[int, None](shape), *arguments)
    if isinstance(outcome, Problem):
        return outcome
    return tuple(map(_ints, outcome)) if isinstance(outcome, tuple) else _ints(outcome)


def _ints(shape: Shape[int, None]) -> tuple[int, ...]:
    """A shape computed from ints alone: every dim is an int."""
    assert shape.variadic is None and not any(isinstance(dim, Unknown) for dim in shape.prefix)
    return shape.prefix  # type: ignore[return-value]


def _checked(op: str, array: Array, rule: Callable[..., Any], *arguments: Hashable) -> Any:
    outcome = _outcome(rule, array.shape, *arguments)
    if isinstance(outcome, Problem):
        fail(outcome, op, [array])
    return outcome


def _axes(op: str, name: str, value: object) -> tuple[int, ...]:
    """An int or a tuple or list of ints as a tuple; else a ``TypeError`` naming ``name``."""
    if isinstance(value, (tuple, list)) and all(map(is_int, value)):
        return tuple(map(operator.index, value))
    if is_int(value):
        return (operator.index(value),)
    raise TypeError(f'"{op}": {name} must be an int or a tuple or list of ints, got {type(value).__name__} {value!r}')


def swapaxes(array: Array, axis1: object, axis2: object) -> Array:
    """``array`` with dims ``axis1`` and ``axis2`` exchanged (a view)."""
    first, second = int_argument("swapaxes", "axis1", axis1), int_argument("swapaxes", "axis2", axis2)
    _checked("swapaxes", array, swapaxes_shape, first, second)
    order = list(range(array.ndim))
    order[first], order[second] = order[second], order[first]
    return as_array(namespace(array).permute_dims(array, tuple(order)))


def moveaxis(array: Array, source: object, destination: object) -> Array:
    """``array`` with the dims at ``source`` moved to ``destination``, the others in their order (a view)."""
    moved, to = _axes("moveaxis", "source", source), _axes("moveaxis", "destination", destination)
    _checked("moveaxis", array, moveaxis_shape, moved, to)
    return as_array(namespace(array).permute_dims(array, moveaxis_order(array.ndim, moved, to)))


def flatten(array: Array, start: object, end: object) -> Array:
    """``array`` with dims ``start`` to ``end`` (both included) merged into one."""
    first, last = int_argument("flatten", "start", start), int_argument("flatten", "end", end)
    shape = _checked("flatten", array, flatten_shape, first, last, INT_DIMS)
    return as_array(namespace(array).reshape(array, shape))


def split(array: Array, sections: object, axis: object) -> tuple[Array, ...]:
    """``array`` cut along ``axis`` into ``sections`` equal parts (an int), or parts of the sizes
    ``sections`` gives (a tuple or list of ints, summing to the dim): views."""
    index = int_argument("split", "axis", axis)
    parts: int | tuple[int, ...] = operator.index(sections) if is_int(sections) else _sizes(sections)
    outcome = _outcome(split_shapes, array.shape, parts, index, INT_DIMS)
    if isinstance(outcome, Problem):
        written = f"{parts} equal parts" if isinstance(parts, int) else format_sizes([str(size) for size in parts])
        raise problem_error(outcome, "split", [operand_text(array), written])
    at, start, cut = index % array.ndim, 0, []
    for shape in outcome:
        stop = start + shape[at]
        cut.append(array[(slice(None),) * at + (slice(start, stop), ...)])  # the array API wants every axis indexed, or an ellipsis
        start = stop
    return tuple(cut)


def _sizes(sections: object) -> tuple[int, ...]:
    if isinstance(sections, (tuple, list)) and all(map(is_int, sections)):
        return tuple(map(operator.index, sections))
    raise TypeError(f'"split": sections must be an int or a tuple or list of ints, got {type(sections).__name__} {sections!r}')


def pad(array: Array, widths: object, value: object) -> Array:
    """``array`` with ``before`` elements of ``value`` in front of each dim and ``after`` behind it."""
    if not isinstance(value, (bool, int, float, complex, np.bool_, np.number)):
        raise TypeError(f'"pad": value must be a number (bool, int, float or complex), got {type(value).__name__}')
    pairs = _widths(widths)
    shape = _checked("pad", array, pad_shape, pairs, INT_DIMS)
    every = pairs * array.ndim if len(pairs) == 1 else pairs
    if type(array) is not np.ndarray:
        return _padded_by_concat(array, every, value)
    padded = np.full(shape, value, dtype=array.dtype)  # then the array inside: np.pad's values, 3x quicker on small arrays
    padded[tuple([slice(before, before + size) for (before, _), size in zip(every, array.shape)])] = array
    return padded


def _widths(widths: object) -> tuple[tuple[int, int], ...]:
    """numpy's ``pad_width``: an int, ``(before, after)``, or one pair per dim, as pairs."""
    if is_int(widths):
        return ((operator.index(widths), operator.index(widths)),)
    if isinstance(widths, (tuple, list)) and all(map(is_int, widths)) and len(widths) in (1, 2):
        before, after = widths[0], widths[-1]
        return ((operator.index(before), operator.index(after)),)
    if isinstance(widths, (tuple, list)) and all(isinstance(pair, (tuple, list)) and len(pair) == 2 and all(map(is_int, pair)) for pair in widths):
        return tuple((operator.index(pair[0]), operator.index(pair[1])) for pair in widths)
    raise TypeError(f'"pad": widths must be an int, a pair (before, after) or a pair for each dim, got {type(widths).__name__} {widths!r}')


def _padded_by_concat(array: Array, pairs: tuple[tuple[int, int], ...], value: object) -> Array:
    """``pad`` with the array API alone: blocks of ``value`` joined on each side, one dim at a time."""
    backend = backend_of(array)
    xp, device = backend.xp, backend.device(array)
    for axis, (before, after) in enumerate(pairs):
        if not before and not after:
            continue
        shape = list(array.shape)

        def block(width: int) -> Array:
            shape[axis] = width
            return xp.full(tuple(shape), value, dtype=array.dtype, device=device)  # type: ignore[no-any-return]

        array = xp.concat([block(before), array, block(after)], axis=axis)
    return array


def tril(array: Array, k: object) -> Array:
    """``array`` with the elements above diagonal ``k`` of its last two dims set to 0."""
    return _triangle("tril", array, int_argument("tril", "k", k))


def triu(array: Array, k: object) -> Array:
    """``array`` with the elements below diagonal ``k`` of its last two dims set to 0."""
    return _triangle("triu", array, int_argument("triu", "k", k))


def _triangle(op: str, array: Array, k: int) -> Array:
    _checked(op, array, matrix_kept_shape)
    if type(array) is np.ndarray:
        return np.tril(array, k) if op == "tril" else np.triu(array, k)
    backend = backend_of(array)
    xp, device = backend.xp, backend.device(array)
    rows, columns = array.shape[-2:]
    offset = xp.arange(columns, device=device)[None, :] - xp.arange(rows, device=device)[:, None]
    kept = offset <= k if op == "tril" else offset >= k
    return as_array(xp.where(kept, array, xp.zeros_like(array)))


#: By the dtype's name: another library's dtype compared with numpy's in a cache's lookup warns.
_one_hot_refusal = functools.lru_cache(maxsize=64)(one_hot_dtype_problem)


def one_hot(indices: Array, n: object, dtype: type[generic]) -> Array:
    """A last dim of ``n`` holding 1 at each index and 0 elsewhere, in ``dtype``; an index out of
    ``0 <= index < n`` raises ``TensorIndexError`` before anything is computed."""
    count = int_argument("one_hot", "n", n)
    numpy_dtype_of(dtype)  # a concrete dtype, or a TypeError saying which are
    refused = _one_hot_refusal(marker_of(indices.dtype).__name__)
    if refused is not None:
        fail(refused, "one_hot", [indices])
    _checked("one_hot", indices, one_hot_shape, count, INT_DIMS)
    backend = backend_of(indices)
    xp = backend.xp
    if indices.size:
        low, high = (int(indices.min()), int(indices.max())) if type(indices) is np.ndarray else (int(xp.min(indices)), int(xp.max(indices)))
        offending = low if low < 0 else high if high >= count else None
        if offending is not None:
            raise TensorIndexError(f'"one_hot" on {operand_text(indices)}: index {offending} is out of range for n={count} (0 <= index < {count})')
    classes = xp.arange(count, device=backend.device(indices))
    return as_array(xp.astype(indices[..., None] == classes, backend.dtype(dtype)))
