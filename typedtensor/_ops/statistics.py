"""Statistics and scans of arrays: ``var``, ``std``, ``nansum``, ``nanmean``, ``nanmax``,
``nanmin``, ``cumsum``, ``cumprod``.

A statistic checks its ``axis`` as the reductions do (the same rule, the same errors, before
anything is computed), then is written with reductions: numpy's arrays through the project's
reducer, other libraries' through their own (``reductions.reduce_array``), and elementwise steps in
the array's namespace. ``var`` is two passes, the mean and then the mean squared deviation from
it, which is accurate where the one-pass ``E[x²] - E[x]²`` cancels catastrophically.

``ddof`` at or beyond the count of the reduced elements gives numpy's answer: a division by zero
(``inf``, or ``nan`` for a zero sum) and one ``RuntimeWarning`` saying so. Where the rules give an
extent a size only at run time, an error there would fail code that runs for most sizes.
"""

from __future__ import annotations

import functools
import math
import warnings
from typing import Any, Final

import numpy as np

from typedtensor._arguments import int_argument
from typedtensor._dtypes import complex128, float16, float32, float64, generic, marker_named, marker_of, numpy_dtype_like
from typedtensor._ops.backends import backend_of, to_dtype
from typedtensor._ops.common import Array, as_array, fail, namespace
from typedtensor._ops.reductions import checked_plan, reduce_array
from typedtensor._reducer import planner as _planner
from typedtensor._shape_rules import SCAN_OPS, Problem, Shape, axis_problem, result_dtype

_CACHE_SIZE: Final = 4096
#: The §4 reduction each nan-statistic is, once its NaNs are out of the way.
_NAN_OPS: Final = {"nansum": "sum", "nanmean": "mean", "nanmax": "max", "nanmin": "min"}


def statistic(op: str, array: Array, axis: object, keepdims: object, caller: str, ddof: object = 0) -> Array:
    """``op`` (``var``, ``std`` or a nan-statistic) of ``array`` over ``axis``: a new array.

    ``caller`` is the name the user called, for messages.
    """
    axes, count, result = checked_plan(op, array, axis, keepdims, caller)
    if op in ("var", "std"):
        return _deviation(op, array, axes, bool(keepdims), count, _ddof(caller, ddof), result, caller)
    return _nan_statistic(op, array, axes, bool(keepdims), result, caller)


def _ddof(caller: str, ddof: object) -> float:
    """``ddof`` as a number: an int or a float, not a bool (numpy's take any real number)."""
    if isinstance(ddof, (int, float, np.integer, np.floating)) and not isinstance(ddof, (bool, np.bool_)):
        return ddof  # type: ignore[return-value]
    raise TypeError(f'"{caller}": ddof must be an int or a float, got {type(ddof).__name__} {ddof!r}')


def _reducer(array: Array) -> Any:
    """The reduction of ``array``'s library: numpy's straight to the reducer, others' to their own."""
    return _planner.reduce_array if type(array) is np.ndarray else reduce_array


def _deviation(
    op: str, array: Array, axes: tuple[int, ...], keepdims: bool, count: int, ddof: float, result: type[generic], caller: str
) -> Array:
    """``var`` (or its square root, ``std``): the mean squared modulus of the deviations from the mean,
    its sum divided by ``count - ddof``. float16 runs in float32, integers in float64."""
    xp, reduce = namespace(array), _reducer(array)
    kind = numpy_dtype_like(array.dtype).kind
    work = to_dtype(array, float64) if kind in "biu" else to_dtype(array, float32) if result is float16 else array
    deviations = xp.subtract(work, reduce("mean", work, axes, True, caller))
    if kind == "c":
        squares = xp.real(xp.multiply(deviations, xp.conj(deviations)))
    elif type(deviations) is np.ndarray:  # squared in place, as np.var does: one large temporary fewer
        squares = np.multiply(deviations, deviations, out=deviations)
    else:
        squares = xp.multiply(deviations, deviations)
    total = reduce("sum", squares, axes, keepdims, caller)
    divisor = count - ddof
    if divisor <= 0:
        warnings.warn(f'"{caller}": degrees of freedom <= 0 ({count} elements, ddof={ddof}): the result is inf or nan', RuntimeWarning, stacklevel=4)
    with np.errstate(divide="ignore", invalid="ignore"):
        variance = xp.divide(total, max(divisor, 0))
        return as_array(to_dtype(xp.sqrt(variance) if op == "std" else variance, result))


def _nan_statistic(op: str, array: Array, axes: tuple[int, ...], keepdims: bool, result: type[generic], caller: str) -> Array:
    """``nansum``, ``nanmean``, ``nanmax`` or ``nanmin``: the reduction of the values that are not NaN.

    An extent of only NaNs gives 0 (``nansum``) or NaN (the others), without a warning."""
    xp, reduce, base = namespace(array), _reducer(array), _NAN_OPS[op]
    kind = numpy_dtype_like(array.dtype).kind
    if kind not in "fc":  # no NaN to skip
        return reduce(base, array, axes, keepdims, caller)  # type: ignore[no-any-return]
    missing = xp.isnan(array)
    if base in ("max", "min"):  # NaNs become the values that never win, unless all are NaN
        loser = -math.inf if base == "max" else math.inf
        filled = xp.where(missing, xp.full_like(array, complex(loser, loser) if kind == "c" else loser), array)
        found = reduce(base, filled, axes, keepdims, caller)
        return as_array(xp.where(reduce("all", missing, axes, keepdims, caller), xp.full_like(found, math.nan), found))
    numpy = type(array) is np.ndarray
    zero = 0 if numpy else xp.zeros_like(array)  # numpy's where takes a scalar: no array of zeros
    total = reduce("sum", xp.where(missing, zero, array), axes, keepdims, caller)
    if base == "sum":
        return total  # type: ignore[no-any-return]
    present = xp.logical_not(missing)
    if not numpy:  # counted in floats, exact to 2**24 at least: a count of booleans is int64, which jax's 32-bit mode has not
        present = to_dtype(present, float64 if result in (float64, complex128) else float32)
    counts = reduce("sum", present, axes, keepdims, caller)
    with np.errstate(divide="ignore", invalid="ignore"):  # nothing present: 0 / 0 is NaN
        return as_array(to_dtype(xp.divide(total, counts), result))


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _axis_problem(shape: tuple[int, ...], axis: int) -> Problem | None:
    return axis_problem(Shape[int, None](shape), axis)


def scan(op: str, array: Array, axis: object) -> Array:
    """``cumsum`` or ``cumprod`` (``op``) of ``array`` along one ``axis``, in the dtype ``sum`` or
    ``prod`` gives (an int32 ``cumsum`` is int64, as numpy's)."""
    index = int_argument(op, "axis", axis)
    problem = _axis_problem(tuple(array.shape), index)
    if problem is not None:
        fail(problem, op, [array])
    backend = backend_of(array)
    result = marker_named(result_dtype(op, marker_of(numpy_dtype_like(array.dtype)).__name__))
    work = to_dtype(array, backend.accumulator(result))  # an int32 sum runs in int64, as numpy's
    scanned = getattr(backend.xp, "cumulative_sum" if SCAN_OPS[op] == "sum" else "cumulative_prod")(work, axis=index)
    return as_array(to_dtype(scanned, result))
