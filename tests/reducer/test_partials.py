"""reduce_partials: chunks reduced to the accumulating dtype, combined, finished, against numpy.

A caller that reduces chunk by chunk (dask's ``reduction``) splits the array along reduced dims,
reduces each chunk to partials, stacks them, combines them with the combining op and finishes
them. The result must be numpy's (exactly for integers, booleans, max and min; floats within
their bounds), on both kernel paths.
"""

from __future__ import annotations

import tracemalloc
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from typedtensor._reducer.compiled import FLOAT32_SUM_BOUND
from typedtensor._reducer.planner import combining_op, finish_partials, partials_dtype, reduce_array, reduce_partials

Array = np.ndarray[Any, Any]
OPS = ["sum", "mean", "prod", "max", "min", "any", "all"]
NUMPY = {"sum": np.sum, "mean": np.mean, "prod": np.prod, "max": np.max, "min": np.min, "any": np.any, "all": np.all}


def values(shape: tuple[int, ...], dtype: str, op: str, rng: np.random.Generator) -> Array:
    if dtype == "bool":
        return rng.random(shape) > 0.3
    if dtype[0] in "iu" and op == "mean":  # float64 sums of these are exact: numpy's mean, to the bit
        return rng.integers(0 if dtype[0] == "u" else -100, 100, size=shape, dtype=dtype)
    if dtype[0] in "iu":
        info = np.iinfo(dtype)
        return rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)  # sums and products wrap
    if op == "prod":
        return (1 + (rng.random(shape) - 0.5) * 1e-2).astype(dtype)
    return rng.random(shape).astype(dtype)


def combined(op: str, array: Array, axes: tuple[int, ...], split_axis: int, chunks: int) -> Array:
    """``op`` over ``axes`` of ``array`` as a chunked caller computes it: partials of each chunk
    along ``split_axis`` (views: nothing copied), stacked, combined, finished."""
    parts = [reduce_partials(op, chunk, axes, True, op) for chunk in np.array_split(array, chunks, axis=split_axis)]
    assert all(part.dtype == partials_dtype(op, array.dtype) for part in parts)
    totals = reduce_partials(combining_op(op), np.concatenate(parts, axis=split_axis), axes, False, op)
    count = int(np.prod([array.shape[axis] for axis in axes]))
    return finish_partials(op, totals, array.dtype, count)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("dtype", ["bool", "uint8", "int32", "int64", "float16", "float32", "float64", "complex64"])
def test_combined_partials_of_split_chunks_are_numpy_s_result(op: str, dtype: str, data: st.DataObject, kernels: str) -> None:
    if dtype == "complex64" and op in ("max", "min"):
        return  # complex numbers have no order
    shape = tuple(data.draw(st.lists(st.integers(1, 30), min_size=1, max_size=3)))
    axes = tuple(sorted(data.draw(st.lists(st.sampled_from(range(len(shape))), min_size=1, unique=True))))
    split_axis = data.draw(st.sampled_from(axes))
    array = values(shape, dtype, op, np.random.default_rng(data.draw(st.integers(0, 2**32 - 1))))
    if data.draw(st.booleans()):
        array = array[::-1]  # a view stepping backwards: read in place too
    result = combined(op, array, axes, split_axis, data.draw(st.integers(1, min(4, shape[split_axis]))))  # no empty chunk
    whole = reduce_array(op, array, axes, False, op)
    assert result.dtype == whole.dtype and result.shape == whole.shape
    with np.errstate(over="ignore"):
        expected = NUMPY[op](array.astype(np.complex128 if dtype.startswith("complex") else np.float64), axis=axes) \
            if dtype.startswith(("float", "complex")) and op in ("sum", "mean", "prod") else NUMPY[op](array, axis=axes)
    if dtype.startswith(("float", "complex")) and op in ("sum", "mean", "prod"):
        rtol = {"float16": 2.0**-10, "float32": FLOAT32_SUM_BOUND + 2.0**-23, "complex64": 2.0**-22, "float64": 1e-12}[dtype]
        np.testing.assert_allclose(result, expected.astype(result.dtype), rtol=rtol)
    else:
        np.testing.assert_array_equal(result, np.asarray(expected).astype(result.dtype))  # integers wrap alike


def test_float32_sums_give_float64_partials_read_in_place(compiled_kernels: None) -> None:
    block = np.random.default_rng(3).random((2048, 1024), np.float32)  # 8 MiB
    tracemalloc.start()
    try:
        partial = reduce_partials("sum", block, 0, False, "sum")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert partial.dtype == np.float64
    assert peak < block.nbytes // 16  # the partials and the plan, never a copy of the block
    exact = block.astype(np.float64).sum(axis=0)
    assert float(np.max(np.abs(partial - exact) / exact)) <= FLOAT32_SUM_BOUND


def test_partials_of_a_mean_are_sums_and_finish_divides() -> None:
    block = np.arange(12, dtype=np.int32).reshape(3, 4)
    sums = reduce_partials("mean", block, 0, False, "mean")
    assert sums.dtype == np.float64
    np.testing.assert_array_equal(sums, [12.0, 15.0, 18.0, 21.0])
    np.testing.assert_array_equal(finish_partials("mean", sums, block.dtype, 3), block.mean(axis=0))
