"""sort, argsort, top_k and typedtensor.linalg against independent references, and their errors,
raised before the library runs."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import typedtensor as tt

Array = np.ndarray[Any, Any]

ORDERED = [np.dtype(name) for name in ("bool", "int8", "int64", "uint8", "uint64", "float16", "float32", "float64")]


@st.composite
def arrays(draw: st.DrawFn, min_dims: int = 1) -> Array:
    """Arrays of small values (many ties), with 0s and 1s among their dims, some strided views."""
    dtype = draw(st.sampled_from(ORDERED))
    shape = draw(hnp.array_shapes(min_dims=min_dims, max_dims=3, min_side=0, max_side=5))
    array = draw(hnp.arrays(dtype, shape, elements=st.integers(0, 3).map(lambda value: bool(value % 2) if dtype.kind == "b" else value)))
    if array.ndim >= 1 and draw(st.booleans()):
        array = array[::-1]  # a negative stride
    return array


def stable_order(values: Array, descending: bool) -> list[int]:
    """Python's stable sort of one row's positions: the independent reference."""
    keys = [float(value) for value in values]
    return sorted(range(len(keys)), key=lambda index: -keys[index] if descending else keys[index])


def reference_argsort(array: Array, axis: int, descending: bool) -> Array:
    moved = np.moveaxis(array, axis, -1)
    rows = moved.reshape(-1, moved.shape[-1]) if moved.size else np.zeros((0, moved.shape[-1]), moved.dtype)
    orders = np.array([stable_order(row, descending) for row in rows], dtype=np.int64).reshape(moved.shape)
    return np.moveaxis(orders, -1, axis)


@settings(max_examples=60, deadline=None)
@given(arrays(), st.data(), st.booleans())
def test_sort_and_argsort_are_stable_orders(array: Array, data: st.DataObject, descending: bool) -> None:
    axis = data.draw(st.integers(-array.ndim, array.ndim - 1))
    order = reference_argsort(array, axis, descending)
    indices = tt.argsort(tt.Tensor(array), axis=axis, descending=descending)
    assert indices.dtype is tt.int64
    np.testing.assert_array_equal(indices.numpy(), order)
    ordered = tt.sort(tt.Tensor(array), axis, descending)
    assert ordered.numpy().dtype == array.dtype
    np.testing.assert_array_equal(ordered.numpy(), np.take_along_axis(array, order, axis))


@settings(max_examples=60, deadline=None)
@given(arrays(), st.data())
def test_top_k_takes_the_k_largest_first(array: Array, data: st.DataObject) -> None:
    axis = data.draw(st.integers(-array.ndim, array.ndim - 1))
    k = data.draw(st.integers(0, array.shape[axis]))
    values, indices = tt.top_k(tt.Tensor(array), k, axis=axis)
    order = np.take(reference_argsort(array, axis, True), np.arange(k), axis=axis)
    assert values.shape == indices.shape == order.shape
    np.testing.assert_array_equal(indices.numpy(), order)
    np.testing.assert_array_equal(values.numpy(), np.take_along_axis(array, order, axis))


def test_k_beyond_the_axis_is_refused_before_anything_runs() -> None:
    x = tt.zeros((3, 4), tt.float32)
    with pytest.raises(tt.TensorIndexError, match=re.escape('"top_k" on Tensor[float32, 3, 4]: k = 4 is more than the 3 elements of axis 0')):
        tt.top_k(x, 4, axis=0)
    with pytest.raises(IndexError, match="k must not be negative, got -1"):
        tt.top_k(x, -1)
    with pytest.raises(tt.AxisError, match=re.escape('Axis 2 is out of range for "sort" on Tensor[float32, 3, 4]')):
        tt.sort(x, axis=2)
    with pytest.raises(TypeError, match='"argsort": descending must be True or False, got str'):
        tt.argsort(x, descending="yes")  # type: ignore[arg-type]


# --- linear algebra -------------------------------------------------------------------------

REAL = [np.dtype(name) for name in ("int8", "int64", "bool", "float16", "float32", "float64")]
TOLERANCE = {np.dtype("float16"): 2e-2, np.dtype("float32"): 1e-4, np.dtype("float64"): 1e-9}


@st.composite
def matrices(draw: st.DrawFn, square: bool = True, dtypes: list[np.dtype[Any]] = REAL) -> Array:
    """Batches of well-conditioned matrices (symmetric positive definite when square), 0s and 1s among the dims."""
    batch = draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3))
    rows = draw(st.integers(0, 4))
    columns = rows if square else draw(st.integers(0, 4))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    dtype = draw(st.sampled_from(dtypes))
    if dtype.kind == "b":  # the identity: invertible and positive definite
        return np.broadcast_to(np.eye(rows, columns, dtype=bool), (*batch, rows, columns)).copy()
    base = rng.integers(0, 2, (*batch, rows, columns)) if dtype.kind in "iu" else rng.standard_normal((*batch, rows, columns))
    if square:
        base = base @ np.swapaxes(base, -1, -2) + rows * np.eye(rows, dtype=int)  # positive definite
    if draw(st.booleans()):  # the same values in a strided view
        return np.ascontiguousarray(np.swapaxes(base, -1, -2)).astype(dtype).swapaxes(-1, -2)
    return base.astype(dtype)


def _result(array: Array) -> tuple[np.dtype[Any], float]:
    """The dtype linalg gives for ``array`` and the tolerance to compare in."""
    dtype = array.dtype if array.dtype.kind == "f" else np.dtype("float64")
    return dtype, TOLERANCE[dtype]


@settings(max_examples=40, deadline=None)
@given(matrices())
def test_inv_det_cholesky_as_numpy_in_float64(array: Array) -> None:
    dtype, tolerance = _result(array)
    wide = array.astype(np.float64)
    x = tt.Tensor(array)
    for got, expected in [(tt.linalg.inv(x), np.linalg.inv(wide)), (tt.linalg.det(x), np.linalg.det(wide)), (tt.linalg.cholesky(x), np.linalg.cholesky(wide))]:
        assert got.numpy().dtype == dtype and got.shape == np.shape(expected)
        np.testing.assert_allclose(got.numpy(), expected, rtol=tolerance * 10, atol=tolerance * 10)


@settings(max_examples=40, deadline=None)
@given(matrices())
def test_eigh_gives_the_eigenvalues_and_their_vectors(array: Array) -> None:
    dtype, tolerance = _result(array)
    wide = array.astype(np.float64)
    values, vectors = tt.linalg.eigh(tt.Tensor(array))
    assert values.numpy().dtype == vectors.numpy().dtype == dtype
    np.testing.assert_allclose(values.numpy(), np.linalg.eigvalsh(wide), rtol=tolerance * 10, atol=tolerance * 100)
    v = vectors.numpy().astype(np.float64)
    np.testing.assert_allclose(wide @ v, v * values.numpy()[..., None, :], atol=tolerance * 100 * max(1, np.abs(wide).max(initial=0)))


@settings(max_examples=40, deadline=None)
@given(matrices(square=False), st.booleans())
def test_svd_and_qr_reconstruct_their_matrices(array: Array, full: bool) -> None:
    dtype, tolerance = _result(array)
    wide = array.astype(np.float64)
    rows, columns = array.shape[-2:]
    u, s, vh = tt.linalg.svd(tt.Tensor(array), full_matrices=full)
    smaller = min(rows, columns)
    assert (u.shape[-2:], s.shape[-1:], vh.shape[-2:]) == (((rows, rows), (smaller,), (columns, columns)) if full else ((rows, smaller), (smaller,), (smaller, columns)))
    assert u.numpy().dtype == s.numpy().dtype == vh.numpy().dtype == dtype
    np.testing.assert_allclose(s.numpy(), np.linalg.svd(wide, compute_uv=False), rtol=tolerance * 10, atol=tolerance * 10)
    product = (u.numpy()[..., :smaller] * s.numpy()[..., None, :]) @ vh.numpy()[..., :smaller, :]
    np.testing.assert_allclose(product, wide, atol=tolerance * 100)
    q, r = tt.linalg.qr(tt.Tensor(array))
    assert (q.shape[-2:], r.shape[-2:]) == ((rows, smaller), (smaller, columns))
    np.testing.assert_allclose(q.numpy() @ r.numpy(), wide, atol=tolerance * 100)
    np.testing.assert_array_equal(np.tril(r.numpy(), -1), 0)


@settings(max_examples=40, deadline=None)
@given(matrices(), st.data())
def test_solve_as_numpy_with_batches_broadcast(a: Array, data: st.DataObject) -> None:
    size = a.shape[-1]
    vector = data.draw(st.booleans())
    b_shape = (size,) if vector else (*data.draw(st.sampled_from([(), a.shape[:-2], (1,) * (a.ndim - 2)])), size, data.draw(st.integers(0, 3)))
    b = np.random.default_rng(data.draw(st.integers(0, 99))).standard_normal(b_shape).astype(data.draw(st.sampled_from(["float32", "float64"])))
    got = tt.linalg.solve(tt.Tensor(a), tt.Tensor(b))
    expected = np.linalg.solve(a.astype(np.float64), b.astype(np.float64))
    dtype = np.result_type(a.dtype, b.dtype)
    dtype = dtype if dtype.kind == "f" else np.dtype("float64")
    assert got.numpy().dtype == dtype and got.shape == expected.shape
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-3, atol=1e-3)


@settings(max_examples=40, deadline=None)
@given(hnp.arrays(np.int8, hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4), elements=st.integers(-5, 5)), st.sampled_from(REAL), st.data(), st.booleans())
def test_norm_is_the_2_norm_over_the_axes(values: Array, dtype: np.dtype[Any], data: st.DataObject, keepdims: bool) -> None:
    array = values.astype(dtype)
    axis = data.draw(st.none() | st.tuples(*[st.just(index) for index in range(array.ndim)]) | (st.integers(-array.ndim, array.ndim - 1) if array.ndim else st.none()))
    got = tt.linalg.norm(tt.Tensor(array), axis=axis, keepdims=keepdims)
    dtype, tolerance = _result(array)
    expected = np.linalg.vector_norm(array.astype(np.float64), axis=axis, keepdims=keepdims)
    assert got.numpy().dtype == dtype and got.shape == np.shape(expected)
    np.testing.assert_allclose(got.numpy(), expected, rtol=tolerance, atol=tolerance)


def test_linalg_errors_name_the_tensors_before_numpy_runs() -> None:
    with pytest.raises(tt.TensorShapeError, match=re.escape('"inv" needs square matrices: Tensor[float32, 2, 3, 4] holds 3 by 4 matrices')):
        tt.linalg.inv(tt.zeros((2, 3, 4)))
    with pytest.raises(tt.TensorShapeError, match=re.escape('"svd" takes matrices (at least 2 dims): Tensor[float32, 3] has 1 dim')):
        tt.linalg.svd(tt.zeros((3,)))
    with pytest.raises(tt.TensorShapeError, match=re.escape('Cannot solve Tensor[float32, 3, 3] and Tensor[float32, 2] for "solve": the matrices are 3x3, b has 2 rows')):
        tt.linalg.solve(tt.zeros((3, 3)), tt.zeros((2,)))
    with pytest.raises(tt.BroadcastError, match=re.escape('for "solve": sizes 2 and 3 at axis -3 differ and neither is 1')):
        tt.linalg.solve(tt.zeros((2, 3, 3)), tt.zeros((3, 3, 1)))
    with pytest.raises(tt.TensorDTypeError, match="typedtensor.linalg takes real tensors"):
        tt.linalg.det(tt.zeros((2, 2), tt.complex64))
    with pytest.raises(tt.AxisError, match=re.escape('Axis 2 is out of range for "norm" on Tensor[int8, 2, 2]')):
        tt.linalg.norm(tt.zeros((2, 2), tt.int8), axis=2)


@st.composite
def long_rows(draw: st.DrawFn) -> tuple[Array, int, int]:
    """Rows long beside k (where top_k partitions instead of sorting), of few values (ties at the
    cut), NaN and both zeros among the floats, along either axis of a matrix or a reversed view."""
    dtype = draw(st.sampled_from([np.dtype("float32"), np.dtype("float64"), np.dtype("int8"), np.dtype("uint8"), np.dtype("bool")]))
    pool = [0.0, -0.0, 1.0, 2.5, -3.0, np.nan, np.inf] if dtype.kind == "f" else [0, 1, 2, 7] if dtype.kind in "iu" else [False, True]
    wide = st.integers(0, 255) if dtype.kind == "u" else st.integers(-128, 127) if dtype.kind == "i" else st.floats(-1e3, 1e3, width=32)
    elements = wide if dtype.kind != "b" and draw(st.booleans()) else st.sampled_from(pool)  # wide: few ties, so the partition's answer stands
    size, rows, axis = draw(st.integers(8, 40)), draw(st.integers(0, 3)), draw(st.integers(0, 1))
    shape = (size, rows) if axis == 0 else (rows, size)
    array = draw(hnp.arrays(dtype, shape, elements=elements))
    if draw(st.booleans()):
        array = array[::-1, ::-1]
    return array, draw(st.integers(1, size // 4)), axis


@settings(max_examples=80, deadline=None)
@given(long_rows())
def test_top_k_of_long_rows_is_the_stable_order(case: tuple[Array, int, int]) -> None:
    """NaN first (numpy's largest), then the values down, equal ones in their order."""
    array, k, axis = case
    rows = np.moveaxis(array, axis, -1)
    expected = np.array(
        [sorted(range(len(row)), key=lambda i: (not np.isnan(row[i]), -float(row[i]) if not np.isnan(row[i]) else 0.0))[:k] for row in rows.astype(np.float64)],
        dtype=np.int64,
    ).reshape(*rows.shape[:-1], k)
    values, indices = tt.top_k(tt.Tensor(array), k, axis=axis)
    np.testing.assert_array_equal(indices.numpy(), np.moveaxis(expected, -1, axis))
    np.testing.assert_array_equal(values.numpy(), np.take_along_axis(array, np.moveaxis(expected, -1, axis), axis))
    assert indices.numpy().dtype == np.int64 and values.numpy().dtype == array.dtype
