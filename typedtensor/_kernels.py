"""Reduction kernels over folded views, and the choice of kernel per pattern.

A kernel takes the input reshaped to a plan's folded shape and returns a new array holding the
result's elements (any shape of that size). ``choose`` runs once per plan, so it may think;
kernels run on every call, so they only call numpy.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any, Final, TypeAlias

import numpy as np

Array: TypeAlias = np.ndarray[Any, Any]
Kernel: TypeAlias = Callable[[Array], Array]

_UFUNCS: Final[dict[str, np.ufunc]] = {
    "sum": np.add,
    "mean": np.add,
    "prod": np.multiply,
    "max": np.maximum,
    "min": np.minimum,
    "any": np.logical_or,
    "all": np.logical_and,
}
# What an empty reduced extent gives; max and min have no identity and never get here.
_EMPTY_VALUES: Final[dict[str, object]] = {"sum": 0, "prod": 1, "any": False, "all": True, "mean": np.nan}


def choose(op: str, view_shape: tuple[int, ...], reduced: tuple[bool, ...], dtype: np.dtype[Any], out_dtype: np.dtype[Any]) -> Kernel:
    """The kernel for ``op`` over the ``reduced`` dims of a folded, non-empty view."""
    axes = tuple(index for index, is_reduced in enumerate(reduced) if is_reduced)
    if not axes:
        return partial(copy_as, dtype=out_dtype)
    accumulate = _accumulate_dtype(op, dtype, out_dtype)
    kernel: Kernel = partial(ufunc_reduce, ufunc=_UFUNCS[op], axes=axes, dtype=accumulate)
    if op == "mean":
        count = int(np.prod([view_shape[axis] for axis in axes]))
        return partial(divide, kernel=kernel, count=count, dtype=out_dtype)
    if accumulate is not None and accumulate != out_dtype:
        return partial(cast, kernel=kernel, dtype=out_dtype)
    return kernel


def _accumulate_dtype(op: str, dtype: np.dtype[Any], out_dtype: np.dtype[Any]) -> np.dtype[Any] | None:
    """The dtype to reduce in: float16 sums run in float32 (numpy's float16 sums drift)."""
    if op in ("max", "min"):
        return None
    if out_dtype == np.float16:
        return np.dtype(np.float32)
    return out_dtype


def filler(op: str, out_dtype: np.dtype[Any], out_shape: tuple[int, ...], extent_is_empty: bool) -> Kernel:
    """The kernel of an input with a zero-size dim: the empty extent's value, or an empty result."""
    value = _EMPTY_VALUES[op] if extent_is_empty else 0
    return partial(fill, shape=out_shape, value=value, dtype=out_dtype)


def ufunc_reduce(view: Array, *, ufunc: np.ufunc, axes: tuple[int, ...], dtype: np.dtype[Any] | None) -> Array:
    # keepdims=True so that a full reduction is a 0-d array rather than a numpy scalar.
    return ufunc.reduce(view, axis=axes, dtype=dtype, keepdims=True)  # type: ignore[no-any-return]


def divide(view: Array, *, kernel: Kernel, count: int, dtype: np.dtype[Any]) -> Array:
    total = kernel(view)
    np.true_divide(total, count, out=total)
    return total if total.dtype == dtype else total.astype(dtype)


def cast(view: Array, *, kernel: Kernel, dtype: np.dtype[Any]) -> Array:
    return kernel(view).astype(dtype)


def copy_as(view: Array, *, dtype: np.dtype[Any]) -> Array:
    return np.array(view, dtype=dtype, copy=True)


def fill(view: Array, *, shape: tuple[int, ...], value: object, dtype: np.dtype[Any]) -> Array:
    return np.full(shape, value, dtype=dtype)
