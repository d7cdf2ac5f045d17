"""The compiled loops: each loop shape against numpy, float16 rounding, safety, and the fallback.

Differential tests against the TOSA reference (test_reference.py) use small arrays; the
shapes here are large enough to reach the loops' tiles, blocks, regrouped lanes and pairwise
leaves. Integer results are exact (numpy's int64 arithmetic wraps like the loops'), so they are
compared exactly; float ones against a float64 reference.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

from typedtensor._reducer import compiled as _compiled
from typedtensor._reducer.compiled import FLOAT32_SUM_BOUND, CompiledPlan
from typedtensor._reducer.planner import NumpyPlan, _plan, reduce_array

Array = np.ndarray[Any, Any]
pytestmark = pytest.mark.usefixtures("compiled_kernels")


# (shape, axes): which loop and bookkeeping each reaches, for the float32 blog tensor's folds.
SHAPES = [
    ((3_000_001,), (0,)),  # one long row: pairwise leaves of 256
    ((64, 70_000), (1,)),  # kept rows of long rows
    ((40_000, 4), (1,)),  # short dense rows, unrolled
    ((20_000, 13), (1,)),  # rows of 13: lanes plus a tail
    ((100_000, 4), (0,)),  # short dense columns regrouped into lanes of 64
    ((30, 70_000), (0,)),  # a wide column tile, rows four (eight where widened) per pass
    ((9000, 5, 100), (1,)),  # kept blocks of short sub-problems
    ((16, 300, 5, 100), (0, 2)),  # R K R K: accumulators in L2
    ((16, 300, 5, 100), (1, 3)),  # K R K R: rows into per-output accumulators
    ((3, 1027, 24), (0, 2)),  # R K R: calls of 1027 rows, in pairs half of them apart, one left over
    ((2, 1025, 272), (0, 2)),  # ... in 16 lanes (products; sums of such rows add pairwise, max/min: no pairs)
    ((1031, 128), (1,)),  # contiguous rows of 128: float16/float32 sums in pairs of one chain each, one left over
    ((600, 5, 128), (0, 2)),  # ... calls of 5 such rows, one row at a time
    ((1001, 300), (0,)),  # 1001 rows into 300 accumulators: float32/float64 products, float64 sums and means in pairs, one row left
    ((7, 11, 13, 17, 19), (0, 2, 4)),
    ((7, 11, 13, 17, 19), (1, 3)),
]


def integers(shape: tuple[int, ...], dtype: str) -> Array:
    info = np.iinfo(dtype)
    return np.random.default_rng(1).integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)


@pytest.mark.parametrize(("shape", "axes"), SHAPES)
@pytest.mark.parametrize("dtype", ["int8", "uint16", "int32", "uint64"])
def test_integer_loops_are_exact(shape: tuple[int, ...], axes: tuple[int, ...], dtype: str) -> None:
    array = integers(shape, dtype)
    wide = array.astype(np.uint64 if dtype.startswith("u") else np.int64)
    with np.errstate(over="ignore"):
        for op, expected in [
            ("sum", np.add.reduce(wide, axis=axes)),
            ("prod", np.multiply.reduce(wide, axis=axes)),
            ("max", array.max(axis=axes)),
            ("min", array.min(axis=axes)),
            ("any", array.any(axis=axes)),
            ("all", (array | 1).all(axis=axes)),
        ]:
            values = array | 1 if op == "all" else array
            np.testing.assert_array_equal(reduce_array(op, values, axes, False, op), expected, err_msg=op)
    if array.dtype.itemsize <= 4:  # numpy adds these in float64, exactly here: the means are the same bits
        np.testing.assert_array_equal(reduce_array("mean", array, axes, False, "mean"), np.mean(array, axis=axes))


def test_int32_means_of_large_sums_are_exact() -> None:
    # int32 means add in int64 and convert the sums four at a time where all four are below 2^51
    # in magnitude (the first four columns), else one at a time (the next four: a sum of 2^20 + 16
    # elements of 2^31 - 1 reaches past 2^51), then the tail (past -2^51)
    values = np.array([5, -7, 2**30, 1, 3, 2**31 - 1, 9, -(2**30), -(2**31)], np.int32)
    array = np.ascontiguousarray(np.broadcast_to(values, (2**20 + 16, values.size)))  # 38 MB
    expected = values.astype(np.float64)  # every column holds one value: its mean, exactly
    np.testing.assert_array_equal(reduce_array("mean", array, (0,), False, "mean"), expected)


@pytest.mark.parametrize("rows", [2**16 - 1, 2**16 + 1])
def test_int32_means_past_2_to_the_32_elements_per_result_do_not_wrap(rows: int) -> None:
    # below 2^32 elements per result an int64 sum of int32 cannot wrap; past it they add in double
    array = np.broadcast_to(np.int32(-(2**31)), (rows, 2**16))
    assert reduce_array("mean", array, (0, 1), False, "mean") == -(2**31)


@pytest.mark.parametrize(("shape", "axes"), SHAPES)
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_float_loops_are_accurate(shape: tuple[int, ...], axes: tuple[int, ...], dtype: str) -> None:
    array = np.random.default_rng(2).random(shape).astype(dtype)
    exact = array.astype(np.float64)
    eps = float(np.finfo(dtype).eps)
    # float32 sums add blocks of rows in float32 before float64 (FLOAT32_SUM_BOUND, plus the
    # reference's own rounding); float16 ones too, then round once to float16; float64 ones round
    # on the way, like the reference (chains as long as numpy's or shorter): a wrong loop is off by far more
    sum_rtol = {"float64": 1e-12, "float32": FLOAT32_SUM_BOUND + eps, "float16": eps}[dtype]
    for op in ["sum", "mean"]:
        with np.errstate(over="ignore"):  # float16 sums of millions overflow to inf, as they should
            expected = getattr(np, op)(exact, axis=axes).astype(dtype)
        np.testing.assert_allclose(reduce_array(op, array, axes, False, op), expected, rtol=sum_rtol, err_msg=op)
    for op in ["max", "min"]:
        np.testing.assert_array_equal(reduce_array(op, array, axes, False, op), getattr(np, op)(array, axis=axes))
    near_one = (1 + (array - 0.5) * 1e-3).astype(dtype)
    expected = np.prod(near_one.astype(np.float64), axis=axes).astype(dtype)  # float16: may underflow to 0
    extent = array.size // expected.size
    rtol = extent * eps if dtype == "float64" else eps  # float64 products round at every step, numpy's too
    np.testing.assert_allclose(reduce_array("prod", near_one, axes, False, "prod"), expected, rtol=rtol)


@pytest.mark.parametrize(("shape", "axes"), SHAPES)
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_nan_propagates_through_every_loop(shape: tuple[int, ...], axes: tuple[int, ...], dtype: str) -> None:
    array = np.random.default_rng(3).random(shape).astype(dtype)
    array.flat[array.size * 3 // 4] = np.nan
    for op in ["max", "min"]:
        np.testing.assert_array_equal(reduce_array(op, array, axes, False, op), getattr(np, op)(array, axis=axes))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(
    ("shape", "nans"),
    [
        # rows wider than UNROLL_MIN_BYTES go eight per pass over one row of accumulators, in steps of
        # four vectors, then of one, then the last columns one at a time (2095 = 64 * 32 + 16 * 2 + 15
        # floats, 32 * 65 + 8 + 7 doubles): a NaN in a four-vector step, in a one-vector one (floats:
        # columns 2048-2079, doubles: 2080-2087), in a last column, in the ninth row (a pass of its own)
        ((9, 2095), [(1, 7), (4, 1000), (6, 2070), (3, 2084), (2, 2094), (8, 2050), (8, 30)]),
        # narrower ones, 64 rows or more, in two halves (50 rows and 51): NaNs in the first half only,
        # in the second only (its first row, its last), in both, in the last columns (700 = 16 * 43 + 12)
        ((101, 700), [(3, 5), (50, 100), (100, 200), (7, 300), (60, 300), (49, 699), (51, 690)]),
    ],
)
def test_nan_propagates_through_the_wide_accumulator_loops(dtype: str, shape: tuple[int, int], nans: list[tuple[int, int]]) -> None:
    array = np.random.default_rng(4).random(shape).astype(dtype)
    for index in nans:
        array[index] = np.nan
    for op in ["max", "min"]:
        np.testing.assert_array_equal(reduce_array(op, array, (0,), False, op), getattr(np, op)(array, axis=0), err_msg=op)


@st.composite
def short_reduced_views(draw: st.DrawFn, dtype: str) -> tuple[Array, tuple[int, ...]]:
    """[K, R, K] with a short R (the blog tensor's 5) or a long one, whole or as a stepped,
    reversed or transposed view, sometimes empty; and the axes that reduce R (with K too, at times)."""
    outer, reduced, inner = draw(st.integers(0, 40)), draw(st.integers(1, 9) | st.integers(10, 300)), draw(st.integers(1, 300))
    step = draw(st.sampled_from([1, 2, -1]))
    extremes = draw(st.booleans())  # every element at the dtype's min or max: sums wrap at once
    info = np.iinfo(dtype) if dtype[0] in "iu" else None
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    shape = (outer, reduced, inner * abs(step))
    if info is None:
        base = rng.random(shape).astype(dtype)
    elif extremes:
        base = rng.choice(np.array([info.min, info.max], dtype), size=shape)
    else:
        base = rng.integers(info.min, info.max, size=shape, dtype=dtype, endpoint=True)
    view = base[:, :, ::step]
    if draw(st.booleans()):
        view = view.transpose(2, 1, 0)
        return view, draw(st.sampled_from([(1,), (1, 2)]))
    return view, draw(st.sampled_from([(1,), (0, 1)]))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
@pytest.mark.parametrize("dtype", ["int32", "uint32", "int64", "float32", "float64"])
def test_short_and_long_reduced_dims_between_kept_ones(dtype: str, data: st.DataObject) -> None:
    # The column loop over [K, R, K] (prefetching rows ahead) and the vectorised integer rows:
    # integers exactly as numpy (wrapping in 64 bits), floats within their bound, NaN kept.
    array, axes = data.draw(short_reduced_views(dtype))
    if dtype.startswith("float"):
        if array.size and data.draw(st.booleans()):
            array = array.copy()
            array.flat[data.draw(st.integers(0, array.size - 1))] = np.nan
        for op in ["max", "min"]:
            if array.size:
                np.testing.assert_array_equal(reduce_array(op, array, axes, False, op), getattr(np, op)(array, axis=axes))
        expected = np.sum(array.astype(np.float64), axis=axes)
        # float64 rounds on the way, as numpy's; float32 within its bound, plus the reference's rounding
        rtol = 1e-12 if dtype == "float64" else FLOAT32_SUM_BOUND + float(np.finfo(dtype).eps)
        np.testing.assert_allclose(reduce_array("sum", array, axes, False, "sum"), expected.astype(dtype), rtol=rtol)
        return
    with np.errstate(over="ignore"):
        expected = np.sum(array, axis=axes)  # numpy: int64 (uint64) arithmetic, wrapping
    result = reduce_array("sum", array, axes, False, "sum")
    assert result.dtype == expected.dtype
    np.testing.assert_array_equal(result, expected)


def test_float16_results_round_to_nearest_even_like_numpy() -> None:
    # Every float16 value plus a spread of others, summed exactly in float64 and rounded once:
    # ties, subnormals, overflow to infinity and NaN all go through the loops' conversion.
    every = np.arange(1 << 16, dtype=np.uint16).view(np.float16)
    others = np.random.default_rng(4).permutation(every)
    pairs = np.stack([every, others], axis=1)
    with np.errstate(invalid="ignore", over="ignore"):
        expected = (every.astype(np.float64) + others.astype(np.float64)).astype(np.float16)
    result = reduce_array("sum", pairs, (1,), False, "sum")
    np.testing.assert_array_equal(result, expected)  # NaNs compare equal here
    assert (np.signbit(result) == np.signbit(expected))[~np.isnan(expected)].all()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 0xFFFF), st.integers(0, 0xFFFF)), min_size=1, max_size=23), st.sampled_from([1, -1]))
def test_float16_sums_and_means_round_once_in_any_count_and_order(pairs: list[tuple[int, int]], step: int) -> None:
    # The results are converted to float16 4 at a time (a branch-free rounding); counts that are
    # not a multiple of 4, reversed outputs, and every kind of value (ties, subnormal, overflow, NaN).
    halves = np.array(pairs, np.uint16).view(np.float16)[::step]
    exact = halves.astype(np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        for op, expected in [("sum", exact[:, 0] + exact[:, 1]), ("mean", (exact[:, 0] + exact[:, 1]) / 2)]:
            result = reduce_array(op, halves, (1,), False, op)
            np.testing.assert_array_equal(result, expected.astype(np.float16), err_msg=op)  # NaNs compare equal
            assert (np.signbit(result) == np.signbit(expected.astype(np.float16)))[~np.isnan(expected)].all()


def test_float16_means_of_three_round_once_like_numpy() -> None:
    # Sums divided by 3: doubles that use every bit of their fraction, so the float16 results'
    # rounding (through floats rounded to odd with F16C) meets every kind of dropped bits.
    halves = np.random.default_rng(9).integers(0, 1 << 16, size=(200_000, 3), dtype=np.uint16).view(np.float16)
    halves[~np.isfinite(halves)] = 1.0
    with np.errstate(over="ignore"):
        expected = (halves.astype(np.float64).sum(axis=1) / 3).astype(np.float16)
    np.testing.assert_array_equal(reduce_array("mean", halves, (1,), False, "mean"), expected)


@pytest.mark.parametrize("rows", [2, 3, 5, 7, 16])
def test_float16_means_of_few_rows_round_once(rows: int) -> None:
    # Results of at most 16 rows: float32 sums in row order, divided by the count and rounded
    # once to float16 (the strips divide in float32 rounded to odd); halves of every exponent.
    halves = np.random.default_rng(12).integers(0, 1 << 16, size=(rows, 4099), dtype=np.uint16).view(np.float16)
    halves[~np.isfinite(halves)] = 1.0
    sums = np.add.reduce(halves.astype(np.float32), axis=0) + np.float32(0.0)  # as the accumulators start at 0.0
    with np.errstate(over="ignore"):
        expected = (sums.astype(np.float64) / rows).astype(np.float16)
    np.testing.assert_array_equal(reduce_array("mean", halves, (0,), False, "mean"), expected)


@pytest.mark.parametrize(("shape", "axes"), [((2001, 5, 64), (1,)), ((30_000, 4), (1,)), ((300, 7, 3, 40), (1,))])
def test_float64_means_of_few_rows_are_the_row_order_sums_divided(shape: tuple[int, ...], axes: tuple[int, ...]) -> None:
    # Results of at most 8 elements are accumulated where they lie and a mean's are divided
    # there: each the sum in row order (numpy's order over so few), divided once by the count.
    values = np.random.default_rng(11).standard_normal(shape)
    expected = np.add.reduce(values, axis=axes) / np.prod([shape[axis] for axis in axes])
    np.testing.assert_array_equal(reduce_array("mean", values, axes, False, "mean"), expected)


@pytest.mark.parametrize(("op", "dtype"), [("sum", "float64"), ("prod", "float64"), ("max", "float32"), ("min", "float64")])
def test_rows_give_the_same_bits_contiguous_or_strided(op: str, dtype: str) -> None:
    # Contiguous rows are reduced in vector lanes whose tree is combined in registers; strided
    # ones in scalar lanes whose tree goes through memory: the same lanes, the same tree.
    rng = np.random.default_rng(10)
    for length in (16, 24, 32, 100, 128, 256, 640):  # rows of up to 8 have unrolled loops of their own
        rows = (1 + (rng.random((40, length)) - 0.5) * 1e-3 if op == "prod" else rng.standard_normal((40, length))).astype(dtype)
        spaced = np.zeros((40, 2 * length), dtype)
        spaced[:, ::2] = rows
        contiguous, strided = reduce_array(op, rows, (1,), False, op), reduce_array(op, spaced[:, ::2], (1,), False, op)
        np.testing.assert_array_equal(contiguous.view(np.uint8), strided.view(np.uint8), err_msg=f"rows of {length}")


#: Views of 8 MiB or more (as float32) of one sub-problem and one tile: their rows are cut into parts
ROW_PARTS = [((40_000, 64), (0,)), ((9_000, 3, 100), (0, 1)), ((700, 60, 50), (0, 2)), ((20_480, 256), (0,))]  # the last: parts in pairs


@st.composite
def views(draw: st.DrawFn) -> tuple[Array, tuple[int, ...]]:
    """An array (C order, transposed or reversed) and the axes to reduce: small ones of every fold,
    or one of SHAPES and ROW_PARTS, large enough for tiles, blocks of sub-problems and row parts."""
    if draw(st.booleans()):
        shape, axes = draw(st.sampled_from(SHAPES + ROW_PARTS))
    else:
        shape = tuple(draw(st.lists(st.integers(1, 40), min_size=1, max_size=4)))
        axes = tuple(draw(st.sets(st.integers(0, len(shape) - 1), min_size=1)))
    dtype = draw(st.sampled_from(["float16", "float32", "float64", "int32"]))
    array = np.random.default_rng(draw(st.integers(0, 9))).random(shape).astype(dtype)
    return draw(st.sampled_from([array, array.T, array[..., ::-1]])), tuple(sorted(axes))


@settings(max_examples=60, deadline=None)
@given(views(), st.sampled_from(["sum", "mean", "prod", "max", "min"]), st.integers(2, 9))
def test_the_shares_of_a_call_give_the_bits_of_the_whole_call(view: tuple[Array, tuple[int, ...]], op: str, shares: int) -> None:
    # Threads share a call's units (sub-problems, tiles or row parts); the bits must not depend on
    # how many shares, nor on how many threads took them, in whichever order.
    array, axes = view
    if op == "mean" and array.dtype.kind == "i":
        op = "sum"
    mask = tuple(dim in axes for dim in range(array.ndim))
    out_shape = tuple(size for size, reduced in zip(array.shape, mask) if not reduced)
    out_dtype = reduce_array(op, np.ones(1, array.dtype), 0, False, op).dtype  # the op's rule, on an element
    plan = _compiled.plan(op, array.shape, array.strides, array.dtype, mask, out_shape, out_dtype)
    assume(len(plan.calls) == 1)  # not a compute-bound view cut into parts
    (call,) = plan.calls
    assert _compiled._units(op, array.dtype, out_dtype, call.layout, plan.divisor) >= 1
    arguments = (plan.op, plan.in_type, _compiled.TYPE_CODES[out_dtype], array, call.in_offset)
    results = []
    for threads in (3, 2, 1):  # before the whole call: no buffer it freed holds its accumulators
        out = np.full(out_shape, 7, out_dtype)  # a result no share writes stays 7
        assert _compiled._ckernels.reduce(*arguments, out, call.out_offset, call.layout, plan.divisor, shares, threads) >= 1
        results.append(out)
    expected = reduce_array(op, array, axes, False, op)
    assert expected.dtype == out_dtype
    for out in results:
        np.testing.assert_array_equal(np.atleast_1d(out).view(np.uint8), np.atleast_1d(expected).view(np.uint8))


def test_views_of_one_sub_problem_and_one_tile_have_row_parts() -> None:
    for shape, axes in ROW_PARTS:
        array = np.zeros(shape, np.float32)
        mask = tuple(dim in axes for dim in range(array.ndim))
        out_shape = tuple(size for size, reduced in zip(shape, mask) if not reduced)
        plan = _compiled.plan("sum", shape, array.strides, array.dtype, mask, out_shape, array.dtype)
        row_parts = _compiled._ckernels.units(plan.op, plan.in_type, plan.in_type, plan.calls[0].layout, 0.0)[1]
        assert plan.units == row_parts == array.nbytes // (4 << 20), shape


@pytest.mark.parametrize("op", ["sum", "mean", "prod", "max"])
@pytest.mark.parametrize("axes", [(1, 3), (1, 2, 3)])
def test_a_large_view_in_blocks_for_threads_gives_the_bits_of_its_slices(op: str, axes: tuple[int, ...]) -> None:
    # float16 [32, 256, 5, 128] (10 MiB) is walked in two blocks of 16 indices of its leading kept
    # dim, which threads can share; slices of 11, 11 and 10 (3.4 MiB) each in one block, as before
    # there were threads, cut across those blocks: the same bits.
    rng = np.random.default_rng(12)
    array = (1 + (rng.random((32, 256, 5, 128)) - 0.5) * 1e-3 if op == "prod" else rng.random((32, 256, 5, 128))).astype(np.float16)
    mask = tuple(dim in axes for dim in range(4))
    out_shape = tuple(size for size, reduced in zip(array.shape, mask) if not reduced)
    plan = _compiled.plan(op, array.shape, array.strides, array.dtype, mask, out_shape, array.dtype)
    assert plan.units == 2
    slices = [reduce_array(op, array[start:stop], axes, False, op) for start, stop in [(0, 11), (11, 22), (22, 32)]]
    assert reduce_array(op, array, axes, False, op).tobytes() == np.concatenate(slices).tobytes()


@pytest.mark.parametrize(("op", "dtype"), [("sum", "float32"), ("max", "float16"), ("sum", "float64")])
def test_more_shares_than_units_give_the_bits_of_the_whole_call(op: str, dtype: str) -> None:
    # (8, 100) over axis 0 is one unit (its results written by the strips for float16/32): shares
    # beyond the units must take nothing, leaving every result written once
    array = np.random.default_rng(13).random((8, 100)).astype(dtype)
    plan = _compiled.plan(op, array.shape, array.strides, array.dtype, (True, False), (100,), array.dtype)
    (call,) = plan.calls
    codes = (plan.op, plan.in_type, _compiled.TYPE_CODES[plan.out_dtype])
    assert _compiled._units(op, array.dtype, array.dtype, call.layout, plan.divisor) == 1
    out = np.full(100, 7, array.dtype)
    assert _compiled._ckernels.reduce(*codes, array, 0, out, 0, call.layout, plan.divisor, 4, 2) == 1  # one share: no worker
    assert out.tobytes() == reduce_array(op, array, 0, False, op).tobytes()


@pytest.mark.parametrize(("shares", "threads"), [(0, 2), (2, 0), (-1, 1)])
def test_a_shared_call_needs_a_share_and_a_thread(shares: int, threads: int) -> None:
    source, target = np.zeros(10, np.float32), np.zeros(1, np.float32)
    layout = np.array([[10, 4, 0, 1]], np.int64).tobytes()
    with pytest.raises(ValueError, match="shares and threads must be at least 1"):
        _compiled._ckernels.reduce(0, _compiled.TYPE_CODES[source.dtype], 10, source, 0, target, 0, layout, 0.0, shares, threads)


def test_a_layout_outside_the_buffers_is_refused() -> None:
    source, target = np.zeros(10, np.float32), np.zeros(1, np.float32)
    layout = np.array([[11, 4, 0, 1]], np.int64).tobytes()  # 11 elements of a 10-element array
    with pytest.raises(ValueError, match="outside the source or target buffer"):
        _compiled._ckernels.reduce(0, _compiled.TYPE_CODES[source.dtype], 10, source, 0, target, 0, layout, 0.0)


def test_plans_use_the_compiled_loops_except_for_complex() -> None:
    for dtype, expected in [("float32", CompiledPlan), ("bool", CompiledPlan), ("complex64", NumpyPlan)]:
        array = np.zeros((4, 4), dtype)
        assert type(_plan("sum", array.shape, array.strides, array.dtype, 0, False)) is expected


#: The calls the worker makes at most: a loop that kept the GIL would run them all before the main thread.
GIL_CALLS = 1000


def test_the_loops_release_the_gil() -> None:
    """No clock: with forced thread switches turned off, a thread keeps the GIL until it blocks or
    lets go of it, so the main thread runs while the worker is still reducing only if a C loop let go."""
    array = np.ones((512, 1024))  # 4 MiB, not cut into parts; a call lasts far longer than a thread takes to wake
    plan = _plan("sum", array.shape, array.strides, array.dtype, 0, False)
    # One C call and no thread of its own: the worker lets go of the GIL nowhere else.
    assert isinstance(plan, CompiledPlan) and len(plan.calls) == 1 and plan.combine is None
    started = threading.Event()
    calls_when_main_ran: list[int] = []
    calls = 0

    def reduce_until_the_main_thread_runs() -> None:
        nonlocal calls
        started.set()
        while not calls_when_main_ran and calls < GIL_CALLS:
            plan.run(array)
            calls += 1

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1000.0)
    try:
        worker = threading.Thread(target=reduce_until_the_main_thread_runs)
        worker.start()
        started.wait()
        calls_when_main_ran.append(calls)
        worker.join()
    finally:
        sys.setswitchinterval(interval)
    assert calls_when_main_ran[0] < GIL_CALLS


FALLBACK = """
import sys
{block}
import numpy as np, typedtensor as tt
from typedtensor._reducer import compiled as _compiled
from typedtensor._reducer.planner import NumpyPlan, _plan
array = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
plan = _plan("sum", array.shape, array.strides, array.dtype, (0, 2), False)
print(_compiled.enabled, type(plan) is NumpyPlan, tt.Tensor(array).sum(axis=(0, 2)).numpy().tolist())
"""
MISSING = "sys.modules['typedtensor._reducer._ckernels'] = None  # as if it had not been built"


@pytest.mark.parametrize(("env", "block"), [({_compiled.ENV_VAR: "numpy"}, ""), ({}, MISSING)])
def test_the_numpy_kernels_run_when_the_extension_is_switched_off_or_missing(env: dict[str, str], block: str) -> None:
    code = FALLBACK.format(block=block)
    result = subprocess.run([sys.executable, "-c", code], env={**os.environ, **env}, capture_output=True, text=True, check=True)
    assert result.stdout.strip().split(maxsplit=2) == ["False", "True", "[60.0, 92.0, 124.0]"]


STRIP_REDUCTIONS = """
import hashlib, itertools
import numpy as np
from typedtensor._reducer import _ckernels
from typedtensor._reducer.planner import reduce_array, reduce_partials
rng = np.random.default_rng(8)
digest = hashlib.sha256()
def finite_halves(shape):  # every exponent: float32 partial sums that round, subnormals
    halves = rng.integers(0, 1 << 16, size=shape, dtype=np.uint16).view(np.float16)
    return np.where(np.isfinite(halves), halves, np.float16(1))
# columns in strips of vectors and single columns, few and many rows (fewer than 8 or 16, blocks of
# 16 and a short last one), rows of up to 128 floats (held whole) and just past (the flushing
# threshold, FLUSHED_SHAPE), of 64 KiB or more (float32 sums), and rows between (in AVX-512 strips
# from 8 rows on: 8 rows of 300); results written
# by the strips (2 to 16 rows per result: 2 and 16, a block remainder, a tail of columns or only
# a tail, short rows regrouped or, one row fewer, not, float16 rows longer than float32's), calls of
# R K R K taken four outer indices at a time (a remainder of one; 16 rows per call, and 17: never),
# float16 rows of a whole tile (32768 columns) and a remainder, int32 rows between in narrower strips and a tail, float
# max/min rows wider than UNROLL_MIN_BYTES (eight per pass, a pass of one row, steps of four vectors
# and of one, a tail of columns), row reductions of
# PAIRED_ROWS_MIN rows or more (in pairs, float16's two of each half at once: an odd count leaves one,
# an odd half a pair: 1031 rows of 128, 1027 of 24), float max/min of 64 rows or
# more over narrower accumulators (in two halves, the second a row longer), rows 4 KiB apart (int32
# sums, max and min: not the strips; float32 sums: the split blocks), float16/float32 sums of
# contiguous rows of 16 to 128 (in 8 lanes, one block: pairs with one left over, calls of 2, 5 and
# 8 rows, float16's at once, and of 9; rows of 16 and 24, and 136: not), float32 and float64
# products and float64 sums and means of 64
# rows or more into more than 1 KiB and at most 8 KiB of doubles (rows r and half + r first: 64
# rows of 130, just over 1 KiB, a tail of 2 columns; of 1024, 8 KiB; 101 rows of 700, one left
# over; 64 rows of 128, 1 KiB: in order), and
# views they must not take (outer dims reversed, two reduced dims that do not fold)
CASES = [((300, 37), (0,)), ((64, 5, 130), (1,)), ((40, 3, 2000), (0, 1)), ((17, 9, 11), (0, 2)),
         ((33, 2, 77), (0,)), ((45, 128), (0,)), ((3, 21, 96), (0, 1)), ((11, 16400), (0,)),
         ((200, 5, 64), (1,)), ((6, 100), (0,)), ((12, 16400), (0,)),
         ((5, 128), (0,)), ((7, 129), (0,)), ((5, 16400), (0,)), ((40, 3, 1000), (1,)),
         ((16, 40), (0,)), ((9, 16, 24), (1,)), ((4, 2, 200), (1,)), ((201, 5, 64), (1,)),
         ((5, 7), (0,)), ((10, 3, 6), (1,)), ((11, 3, 32), (1,)), ((11, 4, 32), (1,)), ((50, 2, 40), (1,)),
         ((4, 6, 32), (0, 1)), ((8, 300), (0,)), ((9, 6, 5, 40), (0, 2)), ((6, 3, 16, 24), (0, 2)),
         ((5, 4, 17, 8), (0, 2)), ((3, 32784), (0,)), ((17, 2, 1003), (0, 1)), ((6, 2063), (0,)),
         ((3, 1027, 24), (0, 2)), ((101, 700), (0,)), ((9, 2095), (0,)), ((20, 1024), (0,)),
         ((1031, 128), (1,)), ((6, 5, 128), (0, 2)), ((40, 16), (1,)), ((33, 24), (1,)), ((9, 136), (1,)),
         ((64, 130), (0,)), ((64, 1024), (0,)), ((64, 128), (0,)), ((3, 2, 16), (0, 2)), ((2, 8, 64), (0, 2)),
         ((2, 9, 64), (0, 2))]
def bases(dtype, shape, op):
    if dtype == np.int32:
        return [rng.integers(-(2**31), 2**31, size=shape, dtype=np.int32)]
    normal = rng.standard_normal(shape) * (0.01 if op == "prod" else 100) + (1 if op == "prod" else 0)
    normal = normal.astype(dtype)
    normal.flat[rng.integers(0, normal.size, 6)] = [np.nan, np.inf, -np.inf, np.nan, 65504, -0.0]  # NaN order, overflow
    zeros = np.where(rng.random(shape) < 0.5, -0.0, 0.0).astype(dtype)  # ties: the first zero stays
    if dtype == np.float16:
        return [normal, finite_halves(shape), zeros]
    # float32 sums whose float64 tree rounds (a wrong order of lanes shows)
    wide = (rng.standard_normal(shape) * 2.0 ** rng.integers(-60, 60, shape)).astype(dtype)
    return [normal, zeros, wide] if dtype == np.float32 and op == "sum" else [normal, zeros]
def add(result):
    # a NaN's sign and payload are unspecified: which NaN an add keeps depends on the order of its
    # operands, which the compiler may swap
    if result.dtype.kind == "f":
        result = np.where(np.isnan(result), np.nan, result).astype(result.dtype)
    digest.update(result.tobytes())
for dtype, op, (shape, axes) in itertools.product([np.float16, np.float32, np.float64, np.int32], ["sum", "mean", "max", "min", "prod"], CASES):
    for base in bases(dtype, shape, op):
        for array in [base, base[::-1, ..., ::2], base.T, base[::-1], base[:, ::2]]:
            kept_axes = axes if array is not base.T else tuple(array.ndim - 1 - a for a in axes)
            add(reduce_array(op, array, kept_axes, False, op))
            if op == "sum" and dtype != np.float64:  # float16/float32 sums in float64, before they round
                add(reduce_partials(op, array, kept_axes, False, op))
cancelling = np.zeros((17, 41), np.float16)  # 1 + 2**-24 is 1 in float32 blocks, so each column sums to 0
cancelling[:3] = [[1], [2**-24], [-1]]
for dtype, op in itertools.product([np.float16, np.float32], ["sum", "mean"]):  # 40 columns in vectors, 1 in the tail
    digest.update(reduce_array(op, cancelling.astype(dtype), (0,), False, op).tobytes())
# float16 and float32 sums of more than 8 rows of 4 KiB or more, a multiple of 4 KiB apart: blocks
# of 16 rows in two passes (rows of 64 KiB or more, 69632 bytes apart: 16 + 9 rows and a tail of 16
# columns; 16 + 4 over a tile of 32768 columns, then a tile of 32; shorter rows: 16 + 11 and a
# tail of 52 columns)
for dtype, op, (rows, width, kept) in itertools.product([np.float16, np.float32], ["sum", "mean"], [(25, 17408, 16400), (20, 34816, 32800), (27, 4096, 2100)]):
    for base in bases(dtype, (rows, width), op):
        add(reduce_array(op, base[:, :kept], (0,), False, op))
print(_ckernels.V3_LOOPS, digest.hexdigest())
"""


def test_the_x86_64_v3_and_v4_loops_give_the_same_bits_as_the_baseline() -> None:
    # The loops chosen at load time on x86-64-v3 and v4 (F16C conversions, column strips in
    # registers, of floats and int32) and the baseline's must agree bit for bit; the target_clones of the other loops
    # cannot be forced from outside, so only this choice is tested.
    runs = [
        subprocess.run([sys.executable, "-c", STRIP_REDUCTIONS], env={**os.environ, "TYPEDTENSOR_V3_LOOPS": setting}, capture_output=True, text=True, check=True)
        for setting in ("0", "1", "3")  # off, all, x86-64-v3 only (on an AVX-512 CPU, v4 takes most)
    ]
    (off, off_digest), (on, on_digest), (_, v3_digest) = (run.stdout.split() for run in runs)
    assert off == "0"
    assert on_digest == off_digest
    assert v3_digest == off_digest
