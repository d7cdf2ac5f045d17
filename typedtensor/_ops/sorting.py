"""Sorting and selecting arrays along one axis: ``sort``, ``argsort``, ``top_k``.

Each checks its call with the shared rules (cached by shape) before the library runs. Orders are
stable: equal elements keep their order, ascending or descending, so ``argsort`` and ``top_k``
give the same indices on every library. Descending is the ascending order reversed with ties
kept in place, so NaN (numpy's last) comes first. Booleans sort as ``False < True``.
"""

from __future__ import annotations

import functools
from typing import Any, Final

import numpy as np

from typedtensor._arguments import int_argument
from typedtensor._dtypes import bool_, int8, int64, numpy_dtype_like
from typedtensor._ops.backends import to_dtype
from typedtensor._ops.common import Array, as_array, fail, namespace
from typedtensor._shape_rules import INT_DIMS, Problem, Shape, sort_shape, top_k_shape

_CACHE_SIZE: Final = 4096
#: top_k partitions where the axis holds at least this many times k (below, sorting it is as quick).
_PARTITION_FROM: Final = 4


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _sort_problem(shape: tuple[int, ...], axis: int) -> Problem | None:
    checked = sort_shape(Shape[int, None](shape), axis)
    return checked if isinstance(checked, Problem) else None


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _top_k_problem(shape: tuple[int, ...], k: int, axis: int) -> Problem | None:
    checked = top_k_shape(Shape[int, None](shape), k, axis, INT_DIMS)
    return checked if isinstance(checked, Problem) else None


def _flag(op: str, value: object) -> bool:
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise TypeError(f'"{op}": descending must be True or False, got {type(value).__name__} {value!r}')


def _axis(op: str, array: Array, axis: object) -> int:
    """The axis of ``op``, once the rule accepts it (normalised to count from the start)."""
    index = int_argument(op, "axis", axis)
    problem = _sort_problem(tuple(array.shape), index)
    if problem is not None:
        fail(problem, op, [array])
    return index % array.ndim


def sort(array: Array, axis: object, descending: object) -> Array:
    """The elements of ``array`` in order along ``axis``."""
    index, reverse = _axis("sort", array, axis), _flag("sort", descending)
    if type(array) is np.ndarray:
        ordered = np.sort(array, axis=index)
        return np.flip(ordered, index) if reverse else ordered  # a view of the new array, never of the input
    return _library_order(array, index, reverse, "sort")


def argsort(array: Array, axis: object, descending: object) -> Array:
    """The indices (int64) that put ``array`` in order along ``axis``, stable."""
    return _argsort(array, _axis("argsort", array, axis), _flag("argsort", descending))


def top_k(array: Array, k: object, axis: object) -> tuple[Array, Array]:
    """The ``k`` largest elements along ``axis``, largest first (equal ones in their order), and
    their indices (int64)."""
    count, index = int_argument("top_k", "k", k), int_argument("top_k", "axis", axis)
    problem = _top_k_problem(tuple(array.shape), count, index)
    if problem is not None:
        fail(problem, "top_k", [array])
    index %= array.ndim
    if type(array) is np.ndarray:
        indices = _partitioned_top_k(array, count, index)
        if indices is None:
            indices = _argsort(array, index, True)[_first(count, index, array.ndim)]
        return np.take_along_axis(array, indices, index), indices
    first = _first(count, index, array.ndim)
    indices = _argsort(array, index, True)[first]
    return _library_order(array, index, True, "sort")[first], indices


def _first(count: int, axis: int, ndim: int) -> tuple[slice, ...]:
    """The first ``count`` along ``axis``, every other axis whole (as the array API asks)."""
    return (slice(None),) * axis + (slice(0, count),) + (slice(None),) * (ndim - axis - 1)


def _partitioned_top_k(array: Array, count: int, axis: int) -> Array | None:
    """The indices of ``top_k`` from a partition (linear, where the stable sort of the whole axis
    made a top 5 of [64, 50000] 8x slower than numpy's argpartition) and a stable sort of the
    ``count`` chosen; None where ``count`` is not small beside the axis, or where values equal to
    the ``count``-th largest lie on both sides of the cut (which of them come first is the stable order's)."""
    size = array.shape[axis]
    if not 0 < count * _PARTITION_FROM <= size or array.dtype.kind not in "biuf":
        return None
    rows = np.moveaxis(array, axis, -1)
    partition = np.argpartition(rows, size - count, axis=-1)  # numpy's order: NaN the largest, as the stable sort's
    cut = np.take_along_axis(rows, partition[..., size - count : size - count + 1], -1)
    chosen = np.sort(partition[..., size - count :], axis=-1)  # in index order, which the stable sort below keeps for ties
    values = np.take_along_axis(rows, chosen, -1)
    if not np.array_equal(np.count_nonzero(_equal(rows, cut), axis=-1), np.count_nonzero(_equal(values, cut), axis=-1)):
        return None
    return np.moveaxis(np.take_along_axis(chosen, _argsort(values, values.ndim - 1, True), -1), -1, axis)


def _equal(values: Array, cut: Array) -> Array:
    """Where ``values`` equal ``cut`` (NaN equal to NaN)."""
    same: Array = np.equal(values, cut)
    return np.logical_or(same, np.isnan(values) & np.isnan(cut)) if values.dtype.kind == "f" else same


def _argsort(array: Array, axis: int, descending: bool) -> Array:
    if type(array) is not np.ndarray:
        return as_array(to_dtype(_library_order(array, axis, descending, "argsort"), int64))
    if not descending:
        return np.argsort(array, axis=axis, stable=True)
    # Stable descending: sort the reversed array ascending, reverse back, and count positions
    # from the other end; equal elements then keep their order.
    flipped = np.flip(np.argsort(np.flip(array, axis), axis=axis, stable=True), axis)
    return as_array(np.subtract(array.shape[axis] - 1, flipped, dtype=np.int64))


def _library_order(array: Array, axis: int, descending: bool, op: str) -> Array:
    """``sort`` or ``argsort`` of another library's array, by its namespace (which orders no
    booleans: they sort as int8)."""
    xp: Any = namespace(array)
    boolean = numpy_dtype_like(array.dtype).kind == "b"
    result = getattr(xp, op)(to_dtype(array, int8) if boolean else array, axis=axis, descending=descending, stable=True)
    return as_array(to_dtype(result, bool_) if boolean and op == "sort" else result)
