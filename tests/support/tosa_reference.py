"""An independent reference for the reductions: the TOSA REDUCE_* pseudo-code, transcribed.

Deliberately slow and plain. It shares no code with typedtensor: the axes are normalised here
by hand, the accumulation is a Python loop over every input index, integers accumulate as Python
ints and wrap into the result dtype at the end (the same value as wrapping at every step), and
float sums and means accumulate exactly (``math.fsum``) so that tests can measure error.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

Array = np.ndarray[Any, Any]


def normalise_axes(axis: None | int | str | Sequence[int], rank: int) -> list[int]:
    """The reduced dims, sorted and unique: TensorFlow's reading of every axis form."""
    if axis is None:
        return list(range(rank))
    if isinstance(axis, str):
        return [index for index, char in enumerate(axis) if char == "^"]
    axes = [axis] if isinstance(axis, int) else list(axis)
    return sorted({k % rank for k in axes})


def numpy_result_dtype(op: str, dtype: np.dtype[Any]) -> np.dtype[Any]:
    """The dtype numpy's own reduction gives, asked of numpy itself."""
    sample = np.ones(1, dtype=dtype)
    if op in ("any", "all"):
        return np.dtype(bool)
    if op == "mean":
        return np.dtype(np.float64) if dtype.kind in "biu" else dtype
    if op in ("max", "min"):
        return dtype
    return np.asarray(getattr(np, op)(sample)).dtype


def _apply_max(acc: Any, value: Any) -> Any:
    return value if _is_nan(value) or (not _is_nan(acc) and value > acc) else acc


def _apply_min(acc: Any, value: Any) -> Any:
    return value if _is_nan(value) or (not _is_nan(acc) and value < acc) else acc


def _is_nan(value: Any) -> bool:
    return isinstance(value, float) and math.isnan(value)


def _lowest(dtype: np.dtype[Any]) -> Any:
    if dtype.kind == "b":
        return False
    return -math.inf if dtype.kind == "f" else int(np.iinfo(dtype).min)


def _highest(dtype: np.dtype[Any]) -> Any:
    if dtype.kind == "b":
        return True
    return math.inf if dtype.kind == "f" else int(np.iinfo(dtype).max)


def tosa_reduce(op: str, array: Array, axis: None | int | str | Sequence[int], keep_dims: bool) -> Array:
    """REDUCE_<op> of ``array`` over ``axis``, computed element by element.

    ``max``/``min`` handle real dtypes; ``sum``/``prod``/``mean`` of floats are exact sums
    rounded once (so they are what a perfect implementation would return).
    """
    in_shape = array.shape
    axes = normalise_axes(axis, len(in_shape))
    out_dtype = numpy_result_dtype(op, array.dtype)
    tmp_shape = list(in_shape)
    for ax in axes:
        tmp_shape[ax] = 1
    cells: dict[tuple[int, ...], list[Any]] = {index: [] for index in itertools.product(*map(range, tmp_shape))}
    for index in itertools.product(*map(range, in_shape)):
        tmp_index = list(index)
        for ax in axes:
            tmp_index[ax] = 0
        cells[tuple(tmp_index)].append(array[index].item())
    combine = _combiner(op, array.dtype, out_dtype)
    output = np.empty(tmp_shape, dtype=out_dtype)
    for index, values in cells.items():
        output[index] = combine(values)
    if keep_dims:
        return output
    return output.reshape([size for dim, size in enumerate(tmp_shape) if dim not in axes])


def _combiner(op: str, dtype: np.dtype[Any], out_dtype: np.dtype[Any]) -> Callable[[list[Any]], Any]:
    """How one output cell is computed from its input values, the accumulator loop of REDUCE_<op>."""
    exact = out_dtype.kind in "biu"

    def fold(initial: Any, step: Callable[[Any, Any], Any]) -> Callable[[list[Any]], Any]:
        def run(values: list[Any]) -> Any:
            acc = initial
            for value in values:
                acc = step(acc, value)
            return _wrap_int(acc, out_dtype) if exact and not isinstance(acc, bool) else acc

        return run

    if op == "any":
        return fold(False, lambda acc, value: acc or bool(value))
    if op == "all":
        return fold(True, lambda acc, value: acc and bool(value))
    if op == "max":
        return fold(_lowest(dtype), _apply_max)
    if op == "min":
        return fold(_highest(dtype), _apply_min)
    if op == "prod":
        return fold(1, lambda acc, value: acc * value)
    if op == "sum":
        return fold(0, lambda acc, value: acc + value) if exact else _exact_sum
    return lambda values: _exact_sum(values) / len(values) if values else math.nan


def _exact_sum(values: list[Any]) -> Any:
    if any(isinstance(value, complex) for value in values):
        return complex(math.fsum(v.real for v in values), math.fsum(v.imag for v in values))
    return math.fsum(values)


def _wrap_int(value: int, dtype: np.dtype[Any]) -> int:
    """``value`` wrapped into ``dtype``'s range, as fixed-width accumulation leaves it."""
    info = np.iinfo(dtype)
    span = int(info.max) - int(info.min) + 1
    return (int(value) - int(info.min)) % span + int(info.min)
