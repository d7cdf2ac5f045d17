"""The statistics (``var``, ``std``, ``nansum`` ...) and the scans against numpy, over shapes with 0s
and 1s, every dtype and strided views; and their errors, worded as the reductions' are."""

from __future__ import annotations

import re
import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import typedtensor as tt
from tests.reducer.test_reference import axes_for
from tests.support.arrays import DTYPES
from tests.support.tosa_reference import normalise_axes

pytestmark = pytest.mark.floors

Array = np.ndarray[Any, Any]
#: Relative tolerance of a two-pass variance against numpy's in float64, by the result's dtype.
TOLERANCE = {np.dtype("float16"): 2e-2, np.dtype("float32"): 1e-4, np.dtype("float64"): 1e-9}


@st.composite
def arrays(draw: st.DrawFn, dtypes: list[np.dtype[Any]], nans: bool = False) -> Array:
    """Arrays of rank 0-4 (sizes 0 and 1 among the dims), bounded values (NaNs if ``nans``), half of
    them a transposed or reversed view."""
    dtype = draw(st.sampled_from(dtypes))
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=4))
    if dtype.kind in "fc":
        bounded = hnp.from_dtype(dtype, min_value=-100, max_value=100, allow_nan=False, allow_infinity=False) if dtype.kind == "f" else \
            hnp.from_dtype(dtype, max_magnitude=100, allow_nan=False, allow_infinity=False)
        elements = st.one_of(bounded, st.sampled_from([np.nan, complex(np.nan, 1.0)] if dtype.kind == "c" else [np.nan])) if nans else bounded
    else:
        elements = hnp.from_dtype(dtype) if dtype.kind == "b" else hnp.from_dtype(dtype, min_value=0, max_value=100)
    array = draw(hnp.arrays(dtype, shape, elements=elements))
    if array.ndim >= 2 and draw(st.booleans()):
        array = np.ascontiguousarray(array.swapaxes(0, -1)).swapaxes(0, -1)
    if array.ndim >= 1 and draw(st.booleans()):
        array = array[::-1]
    return array


def _numpy(op: str, array: Array, axis: Any, keepdims: bool, **options: Any) -> Array:
    """numpy's own answer, without its warnings (an empty or all-NaN extent)."""
    axes = tuple(normalise_axes(axis, array.ndim))
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return np.asarray(getattr(np, op)(array, axis=axes, keepdims=keepdims, **options))


def _reduced_count(array: Array, axis: Any) -> int:
    return int(np.prod([array.shape[dim] for dim in normalise_axes(axis, array.ndim)]))


@settings(max_examples=150, deadline=None)
@given(arrays(DTYPES), st.data(), st.booleans(), st.sampled_from(["var", "std"]), st.sampled_from([0, 1]))
def test_var_and_std_equal_numpy(array: Array, data: st.DataObject, keepdims: bool, op: str, ddof: int) -> None:
    axis = data.draw(axes_for(array.ndim))
    before = array.copy()
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        result = getattr(tt, op)(tt.Tensor(array), axis=axis, keepdims=keepdims, ddof=ddof).numpy()
    expected = _numpy(op, array.astype(np.complex128 if array.dtype.kind == "c" else np.float64), axis, keepdims, ddof=ddof)
    assert result.shape == expected.shape
    assert result.dtype == np.asarray(_numpy(op, array, axis, keepdims, ddof=ddof)).dtype  # numpy's dtype rule
    np.testing.assert_array_equal(array, before)
    assert not np.shares_memory(result, array)
    scale = np.abs(array).max() if array.size else 0.0
    atol = TOLERANCE[result.dtype] * (float(scale) ** (2 if op == "var" else 1))
    np.testing.assert_allclose(result, expected, rtol=TOLERANCE[result.dtype], atol=atol + 1e-30, equal_nan=True)


def test_the_methods_are_the_functions() -> None:
    x = tt.tensor([[1.0, 2.0, 4.0], [3.0, 3.0, 3.0]])
    for op in ("var", "std"):
        np.testing.assert_array_equal(getattr(x, op)(axis=-1, ddof=1).numpy(), getattr(tt, op)(x, -1, False, 1).numpy())


def test_var_is_two_pass_accurate_where_one_pass_cancels() -> None:
    # around 1e4 in float32 E[x²] - E[x]² loses every digit of a variance of 1
    values = (1e4 + np.array([-1.0, 1.0] * 500)).astype(np.float32)
    assert tt.var(tt.Tensor(values)).numpy() == np.float32(1.0)


@pytest.mark.parametrize("ddof", [2, 3])
def test_ddof_at_or_beyond_the_count_gives_inf_with_a_warning(ddof: int) -> None:
    with pytest.warns(RuntimeWarning, match=rf'^"var": degrees of freedom <= 0 \(2 elements, ddof={ddof}\): the result is inf or nan$'):
        result = tt.var(tt.tensor([1.0, 3.0]), ddof=ddof).numpy()
    assert np.isinf(result)


@settings(max_examples=150, deadline=None)
@given(arrays(DTYPES, nans=True), st.data(), st.booleans(), st.sampled_from(["nansum", "nanmean", "nanmax", "nanmin"]))
def test_nan_statistics_equal_numpy(array: Array, data: st.DataObject, keepdims: bool, op: str) -> None:
    axis = data.draw(axes_for(array.ndim))
    reduced = normalise_axes(axis, array.ndim)
    kept = [size for dim, size in enumerate(array.shape) if dim not in reduced]
    if op in ("nanmax", "nanmin") and _reduced_count(array, axis) == 0:
        if 0 in kept:  # nothing to compare and nothing to give: an empty result, as reduce_max's (numpy refuses)
            result = getattr(tt, op)(tt.Tensor(array), axis=axis, keepdims=keepdims).numpy()
            assert (result.shape, result.dtype) == (_numpy("sum", array, axis, keepdims).shape, array.dtype)
            return
        with pytest.raises(ValueError, match=rf'^"{op}" of an empty extent: Tensor\[.*\] over axis .* has no elements to compare$'):
            getattr(tt, op)(tt.Tensor(array), axis=axis, keepdims=keepdims)
        return
    before = array.copy()
    result = getattr(tt, op)(tt.Tensor(array), axis=axis, keepdims=keepdims).numpy()
    expected = _numpy(op, array, axis, keepdims)
    np.testing.assert_array_equal(array, before)
    assert result.shape == expected.shape
    assert result.dtype == expected.dtype
    if op in ("nanmax", "nanmin") or array.dtype.kind not in "fc":
        np.testing.assert_array_equal(result, expected)
    else:
        rtol = 1e-2 if result.dtype in (np.float16, np.complex64) else 1e-5
        np.testing.assert_allclose(result, expected, rtol=rtol, atol=rtol * 100 * max(1, _reduced_count(array, axis)), equal_nan=True)


@settings(max_examples=100, deadline=None)
@given(arrays(DTYPES), st.data(), st.sampled_from(["cumsum", "cumprod"]))
def test_scans_equal_numpy(array: Array, data: st.DataObject, op: str) -> None:
    if array.ndim == 0:
        array = array.reshape(1)
    axis = data.draw(st.integers(-array.ndim, array.ndim - 1))
    with np.errstate(over="ignore", invalid="ignore"):  # a float16 product may overflow to inf, on both sides
        result = getattr(tt, op)(tt.Tensor(array), axis).numpy()
        # numpy's cumsum widens as its sum does
        expected = getattr(np, op)(array, axis=axis, dtype=np.sum(np.ones(1, array.dtype)).dtype)
    assert result.shape == array.shape and result.dtype == expected.dtype
    if array.dtype.kind in "fc":
        np.testing.assert_allclose(result, expected, rtol=1e-2 if array.dtype.itemsize <= 4 else 1e-6, equal_nan=True)
    else:
        np.testing.assert_array_equal(result, expected)  # exact, wrapping as numpy's


SHAPE = re.escape("Tensor[float32, 2, 3]")
X = tt.zeros((2, 3), tt.float32)


@pytest.mark.parametrize("op", ["var", "std", "nansum", "nanmean", "nanmax", "nanmin"])
def test_axes_out_of_range_are_worded_as_the_reductions(op: str) -> None:
    with pytest.raises(tt.AxisError, match=rf'^Axes 2, -3 are out of range for "{op}" on {SHAPE} \(valid axes are -2 to 1\)$'):
        getattr(tt, op)(X, axis=(0, 2, -3))
    with pytest.raises(tt.SelectionError, match=rf'^Selection "\^" for "{op}" has 1 character but {SHAPE} has rank 2'):
        getattr(tt, op)(X, axis="^")
    with pytest.raises(TypeError, match=rf'^"{op}": axis must be None, an int, a tuple or list of ints, or a Selection string'):
        getattr(tt, op)(X, axis=True)


def test_the_method_names_itself() -> None:
    with pytest.raises(tt.AxisError, match=rf'^Axis 5 is out of range for "std" on {SHAPE}'):
        X.std(5)


@pytest.mark.parametrize("ddof", ["1", True, None])
def test_ddof_is_a_number(ddof: object) -> None:
    with pytest.raises(TypeError, match=rf'^"var": ddof must be an int or a float, got {type(ddof).__name__}'):
        tt.var(X, ddof=ddof)  # type: ignore[arg-type]


@pytest.mark.parametrize("op", ["cumsum", "cumprod"])
def test_a_scan_axis_out_of_range_or_not_an_int(op: str) -> None:
    with pytest.raises(tt.AxisError, match=rf'^Axis -3 is out of range for "{op}" on {SHAPE} \(valid axes are -2 to 1\)$'):
        getattr(tt, op)(X, -3)
    with pytest.raises(TypeError, match=rf'^"{op}": axis must be an int, got tuple'):
        getattr(tt, op)(X, (0,))
