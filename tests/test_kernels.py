"""The reducer's strategies: which one each pattern gets, and that each is exact or accurate.

Shapes here are large enough to trigger each strategy (they skip small arrays), so references
are numpy calls whose result does not depend on order: integer arithmetic wraps modulo 2**64
(any order gives the same value), max/min are exact, and float sums are checked against a
float64 sum of the same values.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from typedtensor import _kernels
from typedtensor._reduce import _fold_dims, reduce_array

Array = np.ndarray[Any, Any]
BLOG = (32, 256, 5, 128)


def strategy(op: str, array: Array, axes: tuple[int, ...]) -> str:
    """The strategy ``choose`` picks for ``op`` over ``axes`` of ``array``."""
    mask = tuple(index in axes for index in range(array.ndim))
    dims = _fold_dims(array.shape, array.strides, mask)
    layout = _kernels.Layout(
        tuple(d[0] for d in dims), tuple(d[1] for d in dims), tuple(d[2] for d in dims), array.dtype
    )
    out_dtype = getattr(np, op)(array[:1], axis=0).dtype  # numpy's result dtypes are the spec's
    return _kernels.pick(op, layout, _kernels._accumulate_dtype(op, array.dtype, out_dtype))


@pytest.mark.parametrize(
    ("op", "dtype", "shape", "axes", "expected"),
    [
        ("sum", "float32", (4, 4), (1,), "plain"),  # small: one call beats any planning
        ("any", "float32", (100_000, 4), (1,), "plain"),
        ("sum", "float32", (100_000, 4), (1,), "columns"),
        ("max", "int32", (100_000, 4), (1,), "columns"),
        ("sum", "float32", (100_000, 4), (0,), "rows"),
        ("min", "float64", (100_000, 16), (0,), "rows"),
        ("prod", "int32", BLOG, (1, 2, 3), "rows"),  # multiply has no SIMD inner loop
        ("max", "float32", BLOG, (1, 2, 3), "plain"),  # numpy's SIMD max of long runs wins
        ("sum", "float32", BLOG, (0,), "plain"),  # long kept rows: numpy's row adds win
        ("sum", "float32", BLOG, (1, 3), "einsum"),
        ("sum", "float32", BLOG, (2, 3), "einsum"),  # the 640-run cut in 5 x 128: as accurate as numpy
        ("sum", "float32", (100, 1031), (1,), "plain"),  # a prime run cannot be cut: einsum's chains would be long
        ("sum", "float32", BLOG, (1,), "plain"),  # long float32 kept rows: numpy's adds tie einsum
        ("sum", "float64", BLOG, (1,), "einsum"),
        ("mean", "int32", BLOG, (1, 3), "plain"),  # einsum would cast int32 to float64 in its loop
        ("sum", "int32", (100_000, 4), (1,), "columns"),  # cast once per block into a buffer
        ("mean", "float64", BLOG, (0, 2), "einsum"),
        ("sum", "int32", BLOG, (1, 3), "plain"),  # int64 accumulation: casting dominates
        ("prod", "float32", BLOG, (0, 3), "outer_first"),
        ("prod", "int32", BLOG, (0, 3), "outer_first"),
        ("prod", "int32", BLOG, (0, 2), "plain"),  # a cast first pass over a kept tail loses
        ("max", "float32", BLOG, (1, 3), "outer_first"),
        ("max", "float32", BLOG, (0, 2, 3), "plain"),  # long reduced tail: SIMD max wins
    ],
)
def test_choose_picks(op: str, dtype: str, shape: tuple[int, ...], axes: tuple[int, ...], expected: str) -> None:
    assert strategy(op, np.zeros(shape, dtype), axes) == expected


def test_transposed_input_falls_back_where_rows_would_copy() -> None:
    # [4, N] transposed is [N, 4] with rows that do not tile: no blocked view exists.
    array = np.zeros((4, 100_000), np.float32).T
    assert strategy("sum", array, (0,)) == "plain"


def reduce(op: str, array: Array, axes: tuple[int, ...]) -> Array:
    result = reduce_array(op, array, axes, False, op)
    assert not np.shares_memory(result, array)
    return result


@settings(max_examples=15, deadline=None)
@given(rows=st.integers(40_000, 70_000), width=st.sampled_from([2, 3, 4, 16]), seed=st.integers(0, 2**32 - 1))
def test_rows_and_columns_are_exact_for_integers(rows: int, width: int, seed: int) -> None:
    # rows = 40_000..70_000 is never a multiple of the block, so the leftover rows are exercised.
    array = np.random.default_rng(seed).integers(-(2**31), 2**31, size=(rows, width), dtype=np.int32)
    before = array.copy()
    wide = array.astype(np.int64)
    for axis in (0, 1):
        np.testing.assert_array_equal(reduce("sum", array, (axis,)), wide.sum(axis=axis))
        np.testing.assert_array_equal(reduce("prod", array, (axis,)), np.multiply.reduce(wide, axis=axis))
        np.testing.assert_array_equal(reduce("max", array, (axis,)), array.max(axis=axis))
        np.testing.assert_array_equal(reduce("min", array, (axis,)), array.min(axis=axis))
    np.testing.assert_array_equal(array, before)


def test_int64_products_wrap_like_a_plain_loop() -> None:
    array = np.random.default_rng(3).integers(-(2**62), 2**62, size=(33_000, 3), dtype=np.int64)
    with np.errstate(over="ignore"):
        for axis in (0, 1):
            np.testing.assert_array_equal(reduce("prod", array, (axis,)), np.multiply.reduce(array, axis=axis))
            np.testing.assert_array_equal(reduce("sum", array, (axis,)), np.add.reduce(array, axis=axis))


@settings(max_examples=20, deadline=None)
@given(
    axes=st.sampled_from([(0,), (1,), (0, 3), (1, 3), (0, 1, 3), (1, 2, 3), (0, 1, 2, 3)]),
    op=st.sampled_from(["max", "min"]),
    where=st.integers(0, 4 * 64 * 5 * 64 - 1),
)
def test_nan_propagates_from_any_position(axes: tuple[int, ...], op: str, where: int) -> None:
    array = np.random.default_rng(where).random((4, 64, 5, 64)).astype(np.float32)
    array.flat[where] = np.nan
    expected = getattr(np, op)(array, axis=axes)
    np.testing.assert_array_equal(reduce(op, array, axes), expected)  # NaNs compare equal here
    assert np.isnan(reduce(op, array, axes)).sum() == 1


@pytest.mark.parametrize("view", ["transposed", "stepped", "reversed"])
@pytest.mark.parametrize("op", ["sum", "prod", "max", "mean"])
def test_strided_views(view: str, op: str) -> None:
    base = 1 + (np.random.default_rng(4).random((40, 30, 60)) - 0.5) * 1e-3
    array = {"transposed": base.transpose(2, 0, 1), "stepped": base[:, ::2, 1::3], "reversed": base[::-1, :, ::-1]}[view]
    for axes in [(0,), (1,), (2,), (0, 2), (1, 2), (0, 1, 2)]:
        np.testing.assert_allclose(reduce(op, array, axes), getattr(np, op)(array, axis=axes), rtol=1e-12)


@pytest.mark.parametrize("axes", [(0,), (1,), (2,), (3,), (0, 1), (0, 2), (1, 3), (0, 1, 3), (1, 2, 3), (0, 1, 2, 3)])
def test_float32_sums_are_as_accurate_as_numpy(axes: tuple[int, ...]) -> None:
    array = np.random.default_rng(5).random((16, 64, 5, 128)).astype(np.float32)
    exact = array.astype(np.float64).sum(axis=axes)
    ours = np.max(np.abs(reduce("sum", array, axes) - exact) / exact)
    numpys = np.max(np.abs(array.sum(axis=axes) - exact) / exact)
    assert ours <= numpys + 2.0**-24  # within half an ulp of numpy's error: both round alike


def test_float32_sum_of_many_rows_stays_accurate() -> None:
    array = np.full((1_000_000, 4), 0.1, np.float32)
    exact = 1_000_000 * float(np.float32(0.1))
    assert np.max(np.abs(reduce("sum", array, (0,)) - exact)) / exact <= 1e-5


def test_float16_sums_accumulate_in_float32() -> None:
    array = np.full((50_000, 4), 0.1, np.float16)
    exact = 50_000 * float(np.float16(0.1))
    result = reduce("sum", array, (0,))
    assert result.dtype == np.float16
    assert np.max(np.abs(result.astype(np.float64) - exact)) / exact <= 1e-3


def test_means_divide_the_blocked_sums() -> None:
    array = np.random.default_rng(6).integers(-1000, 1000, size=(50_001, 4), dtype=np.int32)
    for axis in (0, 1):
        np.testing.assert_allclose(reduce("mean", array, (axis,)), array.mean(axis=axis), rtol=1e-12)
