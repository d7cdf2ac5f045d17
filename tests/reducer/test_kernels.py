"""The numpy kernels' strategies: which one each pattern gets, and that each is exact or accurate.

Every test here runs on the numpy kernels (the fallback when the C loops are not built or are
switched off); tests that hold on both kernel paths live in test_reference.py, test_accuracy.py,
test_errors.py and test_parallel.py.

Shapes here are large enough to trigger each strategy (they skip small arrays), so references
are numpy calls whose result does not depend on order: integer arithmetic wraps modulo 2**64
(any order gives the same value), max/min are exact, and float sums are checked against a
float64 sum of the same values.
"""

from __future__ import annotations

import concurrent.futures
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from tests.support.kernels import force_threads
from typedtensor._reducer import kernels as _kernels, layout as _layout
from typedtensor._reducer.planner import NumpyPlan, _plan, reduce_array

Array = np.ndarray[Any, Any]
BLOG = (32, 256, 5, 128)
pytestmark = pytest.mark.usefixtures("numpy_kernels")


def layout_of(op: str, array: Array, axes: tuple[int, ...]) -> tuple[_kernels.Layout, np.dtype[Any] | None]:
    """The folded view of ``array`` reduced over ``axes``, and the dtype ``op`` accumulates in."""
    mask = tuple(index in axes for index in range(array.ndim))
    out_dtype = getattr(np, op)(array[:1], axis=0).dtype  # numpy's result dtypes are the spec's
    layout = _kernels.fold(array.shape, array.strides, mask, array.dtype)
    return layout, _kernels._accumulate_dtype(op, array.dtype, out_dtype)


def strategy(op: str, array: Array, axes: tuple[int, ...]) -> str:
    """The strategy ``choose`` picks for ``op`` over ``axes`` of ``array``."""
    return _kernels.pick(op, *layout_of(op, array, axes))


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


def split(op: str, array: Array, axes: tuple[int, ...], parts: int) -> tuple[_kernels.Kernel, Array]:
    """The kernel for ``op`` over ``axes`` cut into ``parts`` parts (no size threshold), and its view."""
    layout, accumulate = layout_of(op, array, axes)
    return _kernels.split(op, layout, accumulate, _layout.cut_into(layout, parts)), array.reshape(layout.shape)


def run_split(op: str, array: Array, axes: tuple[int, ...], parts: int, monkeypatch: pytest.MonkeyPatch) -> Array:
    """``op`` over ``axes`` cut into ``parts`` parts, computed on as many threads."""
    force_threads(parts, monkeypatch)
    kernel, view = split(op, array, axes, parts)
    expected_shape = np.sum(array, axis=axes).shape
    return kernel(view).reshape(expected_shape)


@pytest.mark.parametrize("parts", [2, 3, 4])
@pytest.mark.parametrize("size", [37, 64, 101])
def test_parts_cover_the_cut_dim_once_in_order(parts: int, size: int) -> None:
    # Sizes not divisible by the part count: parts differ by at most one and tile the dim.
    kernel, _ = split("sum", np.zeros((size, 1000)), (1,), parts)
    cuts = [part.view_index[0] for part in kernel.keywords["parts"]]  # type: ignore[attr-defined]
    assert [cut.start for cut in cuts] == [0, *[cut.stop for cut in cuts[:-1]]] and cuts[-1].stop == size
    assert max(c.stop - c.start for c in cuts) - min(c.stop - c.start for c in cuts) <= 1


@pytest.mark.parametrize(
    ("shape", "axes"),
    [
        ((5, 7000), (1,)),  # kept dim shorter than the part count: one part per index
        ((3, 4, 9000), (2,)),
        ((70_001, 4), (0,)),  # cut along the reduced dim, partial results combined
        ((70_001, 4), (1,)),  # cut along the kept dim, columns per part
        ((30, 50, 40), (0, 2)),
        ((30, 50, 40), (1,)),
        ((200_003,), (0,)),
    ],
)
@pytest.mark.parametrize("op", ["sum", "prod", "max", "min"])
@pytest.mark.parametrize("parts", [2, 3, 4])
def test_parallel_integers_are_exact(
    shape: tuple[int, ...], axes: tuple[int, ...], op: str, parts: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    array = np.random.default_rng(7).integers(-(2**31), 2**31, size=shape, dtype=np.int32)
    wide = array.astype(np.int64)
    expected = {"sum": np.add, "prod": np.multiply, "max": np.maximum, "min": np.minimum}[op].reduce(wide, axis=axes)
    np.testing.assert_array_equal(run_split(op, array, axes, parts, monkeypatch), expected)


@pytest.mark.parametrize("axes", [(0,), (1,)])
def test_parallel_int64_products_wrap_across_parts(axes: tuple[int, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    array = np.random.default_rng(8).integers(-(2**62), 2**62, size=(20_001, 3), dtype=np.int64)
    with np.errstate(over="ignore"):
        for op, ufunc in (("prod", np.multiply), ("sum", np.add)):
            np.testing.assert_array_equal(run_split(op, array, axes, 3, monkeypatch), ufunc.reduce(array, axis=axes))


@pytest.mark.parametrize("axes", [(0,), (1,), (0, 1)])
@pytest.mark.parametrize("op", ["max", "min"])
def test_parallel_nan_in_one_part_only(axes: tuple[int, ...], op: str, monkeypatch: pytest.MonkeyPatch) -> None:
    array = np.random.default_rng(9).random((1000, 64)).astype(np.float32)
    array[777, 5] = np.nan  # inside the last of the parts along dim 0
    result = run_split(op, array, axes, 2, monkeypatch)
    np.testing.assert_array_equal(result, getattr(np, op)(array, axis=axes))
    assert np.isnan(result).sum() == 1


@pytest.mark.parametrize("view", ["transposed", "stepped", "reversed"])
@pytest.mark.parametrize("op", ["sum", "prod", "max"])
def test_parallel_strided_views(view: str, op: str, monkeypatch: pytest.MonkeyPatch) -> None:
    base = 1 + (np.random.default_rng(10).random((60, 30, 90)) - 0.5) * 1e-3
    array = {"transposed": base.transpose(2, 0, 1), "stepped": base[:, ::2, 1::3], "reversed": base[::-1, :, ::-1]}[view]
    for axes in [(0,), (1,), (2,), (0, 2), (1, 2), (0, 1, 2)]:
        np.testing.assert_allclose(run_split(op, array, axes, 3, monkeypatch), getattr(np, op)(array, axis=axes), rtol=1e-12)


@pytest.mark.parametrize("axes", [(0,), (1,), (0, 2), (1, 3), (2, 3), (0, 1, 2, 3)])
def test_parallel_float32_sums_are_as_accurate_as_numpy(axes: tuple[int, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    array = np.random.default_rng(11).random((16, 64, 5, 128)).astype(np.float32)
    exact = array.astype(np.float64).sum(axis=axes)
    ours = np.max(np.abs(run_split("sum", array, axes, 2, monkeypatch) - exact) / exact)
    assert ours <= np.max(np.abs(array.sum(axis=axes) - exact) / exact) + 2.0**-24


def test_large_reductions_are_cut_into_parts_at_any_thread_count() -> None:
    array = np.random.default_rng(12).random((2000, 1000))
    plan = _plan("sum", array.shape, array.strides, array.dtype, 1, False)
    assert isinstance(plan, NumpyPlan)
    assert plan.kernel.func is _kernels.split_kept  # type: ignore[attr-defined]


def test_concurrent_callers_get_right_results() -> None:
    # Only one call uses the pool at a time; the others run whole on their own thread.
    arrays = [np.random.default_rng(seed).integers(-1000, 1000, size=(600, 1000)) for seed in range(8)]

    def work(array: Array) -> bool:
        return all(
            np.array_equal(reduce("sum", array, (axis,)), array.sum(axis=axis)) for _ in range(10) for axis in (0, 1)
        )

    with concurrent.futures.ThreadPoolExecutor(8) as users:
        assert all(users.map(work, arrays, timeout=120))
