"""Every reduction against the TOSA reference, over generated shapes, axes, dtypes and strides.

Every test runs twice: on the compiled loops and on the numpy kernels (the ``kernels`` fixture).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import typedtensor as tt
from tests.support.tosa_reference import normalise_axes, numpy_result_dtype, tosa_reduce
from typedtensor._shape_rules import REDUCTION_OPS

pytestmark = pytest.mark.floors

OPS = REDUCTION_OPS
DTYPES = [np.dtype(name) for name in (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128",
)]
FUNCTIONS = {op: getattr(tt, f"reduce_{op}") for op in OPS}
pytestmark = pytest.mark.usefixtures("kernels")


def _elements(dtype: np.dtype[Any], op: str) -> st.SearchStrategy[Any]:
    """Values that exercise ``op`` without leaving the range where a comparison means something."""
    if dtype.kind in "biu":
        return hnp.from_dtype(dtype)  # the full range: integer sums and products must wrap exactly
    if op in ("max", "min", "any", "all"):
        return hnp.from_dtype(dtype)  # NaN and infinities included
    if op == "prod":  # magnitudes up to 1 keep 400-element products finite, even in float16
        factor = st.sampled_from([-1.0, -0.9375, -0.75, -0.5, 0.0, 0.5, 0.75, 0.9375, 1.0])
        return factor if dtype.kind == "f" else st.builds(complex, factor, factor)
    return hnp.from_dtype(dtype, max_magnitude=10, allow_nan=False, allow_infinity=False) if dtype.kind == "c" else \
        hnp.from_dtype(dtype, min_value=-10, max_value=10, allow_nan=False, allow_infinity=False)


@st.composite
def strided_arrays(draw: st.DrawFn, dtype: np.dtype[Any], op: str) -> np.ndarray[Any, Any]:
    """An array of rank 0-6 (sizes 0 and 1 included), often a transposed, stepped or reversed view."""
    base_shape = draw(hnp.array_shapes(min_dims=0, max_dims=6, min_side=0, max_side=4).filter(lambda s: int(np.prod(s)) <= 400))
    base = draw(hnp.arrays(dtype, base_shape, elements=_elements(dtype, op)))
    view = base
    if base.ndim and draw(st.booleans()):
        view = view.transpose(draw(st.permutations(range(base.ndim))))
    if base.ndim and draw(st.booleans()):
        steps = draw(st.lists(st.sampled_from([1, 2, -1, -2]), min_size=base.ndim, max_size=base.ndim))
        view = view[tuple(slice(None, None, step) for step in steps)]
    return view


@st.composite
def axes_for(draw: st.DrawFn, rank: int) -> Any:
    """Any axis form TensorFlow accepts for ``rank``: None, int, tuple or list (repeats, any order, ()), Selection."""
    axis = st.integers(-rank, rank - 1)
    forms: list[st.SearchStrategy[Any]] = [st.none(), st.just(()), st.text("^v", min_size=rank, max_size=rank)]
    if rank:
        forms += [axis, st.lists(axis, max_size=rank + 2).map(tuple), st.lists(axis, max_size=rank + 2)]
    return draw(st.one_of(forms))


@st.composite
def cases(draw: st.DrawFn, ops: tuple[str, ...] = OPS) -> tuple[str, np.ndarray[Any, Any], Any, bool]:
    op = draw(st.sampled_from(ops))
    dtypes = [d for d in DTYPES if not (op in ("max", "min") and d.kind == "c")]  # TOSA orders reals only
    array = draw(strided_arrays(draw(st.sampled_from(dtypes)), op))
    return op, array, draw(axes_for(array.ndim)), draw(st.booleans())


def _has_empty_extent(array: np.ndarray[Any, Any], axis: Any) -> bool:
    reduced = normalise_axes(axis, array.ndim)
    kept = [size for dim, size in enumerate(array.shape) if dim not in reduced]
    return any(array.shape[dim] == 0 for dim in reduced) and 0 not in kept


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cases())
def test_reductions_match_the_tosa_reference(case: tuple[str, np.ndarray[Any, Any], Any, bool]) -> None:
    op, array, axis, keepdims = case
    if op in ("max", "min") and _has_empty_extent(array, axis):
        return  # covered by test_max_and_min_of_an_empty_extent_raise
    before = array.copy()
    result = FUNCTIONS[op](tt.Tensor(array), axis=axis, keepdims=keepdims).numpy()
    expected = tosa_reduce(op, array, axis, keepdims)

    assert type(result) is np.ndarray  # a rank-0 result too: a numpy scalar is no Tensor's array
    assert result.shape == expected.shape
    assert result.dtype == numpy_result_dtype(op, array.dtype)
    np.testing.assert_array_equal(array, before)  # the input is never modified
    assert not np.shares_memory(result, array)  # nor aliased, even for axis=()
    if result.dtype.kind in "fc" and op in ("sum", "mean", "prod"):  # a mean of ints is a float sum too
        _assert_close(op, array, axis, result, expected)
    else:
        np.testing.assert_array_equal(result, expected)  # exact: integers, booleans, max, min


def _assert_close(op: str, array: np.ndarray[Any, Any], axis: Any, result: Any, expected: Any) -> None:
    """Float sums: within the error bound of a plain running sum, n·eps·sum|x|."""
    eps = float(np.finfo(result.dtype).eps)
    extent = max(1, int(np.prod([array.shape[d] for d in normalise_axes(axis, array.ndim)])))
    if op == "prod":  # each multiply adds half an ulp, or half a subnormal once the product underflows
        underflow = extent * float(np.finfo(result.dtype).smallest_subnormal)
        np.testing.assert_allclose(result, expected.astype(result.dtype), rtol=extent * eps, atol=underflow)
        return
    magnitude = tosa_reduce("sum", np.abs(array.astype(np.complex128)), axis, keep_dims=False).reshape(np.shape(expected))
    if op == "mean":
        magnitude = magnitude / extent
    bound = 2 * extent * eps * magnitude + np.finfo(result.dtype).tiny
    error = np.abs(result.astype(np.complex128) - expected.astype(np.complex128))
    assert np.all(np.isnan(expected) == np.isnan(result))
    assert np.all((error <= bound) | np.isnan(expected)), (error, bound)


@pytest.mark.parametrize("op", OPS)
def test_methods_are_the_functions(op: str) -> None:
    x = tt.tensor(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    np.testing.assert_array_equal(getattr(x, op)(axis=(2, 0), keepdims=True).numpy(), FUNCTIONS[op](x, (2, 0), True).numpy())


@pytest.mark.parametrize("op", ["max", "min"])
def test_max_and_min_of_an_empty_extent_raise(op: str) -> None:
    x = tt.zeros((3, 0, 2), tt.float32)
    with pytest.raises(ValueError, match=rf'^"reduce_{op}" of an empty extent: Tensor\[float32, 3, 0, 2\] over axis 1 has no elements to compare$'):
        FUNCTIONS[op](x, axis=1)
    assert FUNCTIONS[op](x, axis=0).shape == (0, 2)  # nothing to compare, nothing to output


@pytest.mark.parametrize(("op", "value"), [("sum", 0), ("prod", 1), ("any", False), ("all", True)])
def test_empty_extents_give_the_identity(op: str, value: object) -> None:
    result = FUNCTIONS[op](tt.zeros((2, 0), tt.int32), axis=1).numpy()
    np.testing.assert_array_equal(result, [value, value])


def test_mean_of_an_empty_extent_is_nan_without_a_warning() -> None:
    assert np.isnan(tt.reduce_mean(tt.zeros((0, 3), tt.float32), axis=0).numpy()).all()


@pytest.mark.parametrize("op", ["max", "min"])
def test_max_and_min_propagate_nan(op: str) -> None:
    x = tt.tensor([[1.0, np.nan, 3.0], [4.0, 5.0, 6.0]], tt.float32)
    result = FUNCTIONS[op](x, axis=1).numpy()
    assert np.isnan(result[0]) and not np.isnan(result[1])


def test_axis_empty_tuple_copies() -> None:
    x = tt.ones((2, 3), tt.float64)
    result = x.sum(axis=())
    assert result.shape == (2, 3) and not np.shares_memory(result.numpy(), x.numpy())


def test_float32_sum_of_a_long_column_is_accurate() -> None:
    column = np.full((1_000_000, 4), 0.1, dtype=np.float32)
    exact = 1_000_000 * np.float64(np.float32(0.1))
    total = tt.reduce_sum(tt.Tensor(column), axis=0).numpy().astype(np.float64)
    relative_error = np.abs(total - exact) / exact
    assert relative_error.max() <= 1e-5  # numpy's np.sum here is off by about 1e-2


@pytest.mark.parametrize("axis", [0, (0, 2), ()])
@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
@pytest.mark.parametrize("op", ["sum", "mean"])
def test_a_sum_of_negative_zero_over_size_1_dims_is_positive_zero(op: str, dtype: str, axis: Any) -> None:
    # TOSA starts the sum from 0 and 0 + -0.0 is +0.0; numpy agrees, even for axis=().
    result = FUNCTIONS[op](tt.Tensor(np.full((1, 3, 1), -0.0, dtype)), axis=axis).numpy()
    assert not np.signbit(result).any()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.data())
def test_reducing_only_size_1_dims_is_numpy_s_elementwise_result(data: st.DataObject) -> None:
    # One copy in the result dtype (axis=() among these): the same values, signs and dtype as numpy.
    op = data.draw(st.sampled_from(OPS))
    array = data.draw(strided_arrays(data.draw(st.sampled_from([d for d in DTYPES if d.kind != "c"])), op))
    axis = tuple(data.draw(st.sets(st.sampled_from([d for d, size in enumerate(array.shape) if size == 1] or [None]))) - {None})
    keepdims = data.draw(st.booleans())
    with np.errstate(invalid="ignore", over="ignore"):
        expected = getattr(np, op)(array, axis=axis, keepdims=keepdims)
    result = FUNCTIONS[op](tt.Tensor(array), axis=axis, keepdims=keepdims).numpy()
    assert type(result) is np.ndarray  # numpy's ufuncs give a scalar for a rank-0 array
    assert result.dtype == expected.dtype and result.shape == expected.shape and result.flags.c_contiguous
    np.testing.assert_array_equal(result, expected)
    if result.dtype.kind == "f":
        np.testing.assert_array_equal(np.signbit(result), np.signbit(expected))  # 0 + -0.0 is +0.0
    assert not np.shares_memory(result, array)


@pytest.mark.parametrize("axis", [0, ()])
@pytest.mark.parametrize("op", ["prod", "mean"])
def test_complex_infinity_over_a_size_1_dim_is_computed_like_numpy(op: str, axis: Any) -> None:
    # numpy multiplies by 1 (or divides by 1): inf * (1 + 0j) has a NaN imaginary part.
    array = np.full((1, 2), complex(np.inf, 0.0))
    with np.errstate(invalid="ignore"):  # complex reductions run on numpy, which warns here
        result = FUNCTIONS[op](tt.Tensor(array), axis=axis).numpy()
        expected = getattr(np, op)(array, axis=axis)
    np.testing.assert_array_equal(result, expected)  # NaNs compare equal here


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_the_mean_of_an_empty_complex_extent_is_nan_in_both_parts(dtype: str) -> None:
    result = tt.reduce_mean(tt.Tensor(np.zeros((0, 2), dtype)), axis=0).numpy()
    assert np.isnan(result.real).all() and np.isnan(result.imag).all()
