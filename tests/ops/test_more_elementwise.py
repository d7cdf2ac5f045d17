"""The elementwise ops numpy has no function for (erf, rsqrt, silu, softplus, gelu), against
``math`` in float64, and ``clip`` against numpy's: values, dtypes, shapes, errors."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import typedtensor as tt
from typedtensor._ops.special import approximate_erf, approximate_erfc, erf, erfc

from .test_elementwise import DTYPES, REAL, Array, arrays, broadcastable, numpy_result, ours

pytestmark = pytest.mark.floors

FLOATS = [np.dtype(name) for name in ("float16", "float32", "float64")]
_erf = np.vectorize(math.erf, otypes=[np.float64])
_erfc = np.vectorize(math.erfc, otypes=[np.float64])


def _float_of(dtype: np.dtype[Any]) -> np.dtype[Any]:
    """The dtype ``exp`` gives ``dtype``: the one these ops compute in."""
    return np.exp(np.zeros(0, dtype)).dtype


def _reference(op: str, x: Array) -> Array:
    """``op`` of float64 values, by its definition on ``math``'s erf."""
    with np.errstate(all="ignore"):
        if op == "erf":
            return _erf(x)
        if op == "rsqrt":
            return 1 / np.sqrt(x)
        if op == "silu":
            return np.where(np.isneginf(x), 0.0, x / (1 + np.exp(-x)))
        if op == "softplus":
            return np.logaddexp(0.0, x)
        if op == "gelu":
            return np.where(np.isneginf(x), 0.0, x * _erfc(-x / math.sqrt(2)) / 2)
        return np.where(np.isneginf(x), 0.0, x / (1 + np.exp(-2 * math.sqrt(2 / math.pi) * (x + 0.044715 * x**3))))


OPS = ["erf", "rsqrt", "silu", "softplus", "gelu", "gelu_tanh"]


@settings(max_examples=300)
@given(st.sampled_from(OPS), arrays(REAL))
def test_ops_equal_their_definition_in_the_float_exp_gives(op: str, array: Array) -> None:
    """Every real dtype (booleans and integers in a float), shapes with 0s and 1s, strided views, inf and NaN."""
    if op == "gelu_tanh":
        got = ours(lambda x: tt.gelu(x, approximate=True), tt.Tensor(array))
    else:
        got = ours(getattr(tt, op), tt.Tensor(array))
    dtype = _float_of(array.dtype)
    expected = _reference(op, array.astype(dtype).astype(np.float64))
    assert isinstance(got, np.ndarray) and (got.dtype, got.shape) == (dtype, array.shape)
    _assert_close(got, expected, array.astype(dtype).astype(np.float64), op.startswith("gelu"))


def _assert_close(got: Array, expected: Array, x: Array, through_erfc: bool) -> None:
    """Within 8 ulp of the float64 reference rounded to ``got``'s dtype, and 8 of the least normal
    near 0. Where ``erfc`` computes it, ``x**2 / 2`` ulp more (a series' ``exp(-z**2)`` rounds
    ``z**2 = x**2 / 2``) and ``2 (x**2 + 1)`` for its argument: ours is ``x`` times a rounded
    ``1/sqrt(2)``, the reference's ``x`` over a rounded ``sqrt(2)``, up to 2 ulp apart, which
    erfc's condition number ``2 z**2 + 1 = x**2 + 1`` magnifies (float64 gelu(-6): 31 ulp)."""
    dtype = got.dtype
    eps, tiny = float(np.finfo(dtype).eps), float(np.finfo(dtype).smallest_normal)
    with np.errstate(all="ignore"):
        want = expected.astype(dtype).astype(np.float64)
        rtol = eps * (8 + (np.minimum(x * x / 2 + 2 * (x * x + 1), 1e6) if through_erfc else 0))
        close = np.abs(got.astype(np.float64) - want) <= 8 * tiny + rtol * np.abs(want)
    same = (got.astype(np.float64) == want) | (np.isnan(got) & np.isnan(want))
    assert (close | same).all(), (x[~(close | same)], got[~(close | same)], want[~(close | same)])


@pytest.mark.parametrize("dtype", FLOATS)
def test_the_approximate_erf_is_within_two_ulp_of_math_erf(dtype: np.dtype[Any]) -> None:
    """The series dask and array API arrays get (numpy's take ``math.erf`` itself)."""
    x = np.concatenate([np.linspace(-7, 7, 200_001), np.geomspace(1e-300, 1, 2_000), -np.geomspace(1e-30, 30, 2_000)]).astype(dtype)
    got = approximate_erf(np, x)
    expected = _erf(x.astype(np.float64)).astype(dtype)
    assert got.dtype == dtype
    ulps = np.abs(got.astype(np.float64) - expected) / np.spacing(np.maximum(np.abs(expected), np.finfo(dtype).smallest_normal)).astype(np.float64)
    assert ulps.max() <= 2


def test_the_approximate_erfc_is_within_x_squared_ulp_of_math_erfc() -> None:
    """Its error comes from rounding ``x**2`` in ``exp(-x**2)``: about ``x**2`` ulp, 4e-15 at 7."""
    x = np.linspace(-7, 27, 200_001)
    expected = _erfc(x)
    relative = np.abs(approximate_erfc(np, x) - expected) / np.maximum(expected, 1e-300)
    assert (relative <= np.finfo(np.float64).eps * (8 + x * x)).all()


@pytest.mark.parametrize(("erf_of", "erfc_of"), [(erf, erfc), (approximate_erf, approximate_erfc)], ids=["numpy", "approximation"])
def test_erf_and_erfc_limits_and_nan(erf_of: Any, erfc_of: Any) -> None:
    x = np.array([-np.inf, -40.0, -0.0, 0.0, 40.0, np.inf, np.nan, 1e300, -1e-310])
    np.testing.assert_array_equal(erf_of(np, x)[:6], [-1, -1, 0, 0, 1, 1])
    np.testing.assert_array_equal(erfc_of(np, x)[:6], [2, 2, 1, 1, 0, 0])
    assert np.signbit(erf_of(np, x)[2]) and np.isnan(erf_of(np, x)[6]) and np.isnan(erfc_of(np, x)[6])
    assert erf_of(np, x)[7] == 1 and erf_of(np, x)[8] == pytest.approx(-1e-310 * 2 / math.sqrt(math.pi), rel=1e-6)
    assert erf_of(np, x[:0]).shape == (0,) and erf_of(np, x[3:4].reshape(())).shape == ()


@pytest.mark.parametrize("dtype", [tt.float16, tt.float32, tt.float64])
@pytest.mark.parametrize("op", ["silu", "softplus", "gelu", "gelu_tanh"])
def test_no_overflow_and_the_limits_at_the_extremes(dtype: type[tt.floating], op: str) -> None:
    """The test run turns warnings into errors: no overflow, no ``-inf * 0``."""
    big = float(np.finfo(dtype.numpy_dtype).max)
    x = tt.tensor([-np.inf, -big, -1e4, 1e4, big, np.inf, np.nan], dtype=dtype)
    got = (tt.gelu(x, approximate=True) if op == "gelu_tanh" else getattr(tt, op)(x)).numpy()
    np.testing.assert_array_equal(got[:3], [0, 0, 0])
    np.testing.assert_array_equal(got[3:6], [1e4, big, np.inf])
    assert np.isnan(got[6])


def test_gelu_refuses_an_approximate_that_is_no_bool() -> None:
    with pytest.raises(TypeError, match=r'"gelu": approximate must be a bool \(True: the tanh form\), got \'tanh\''):
        tt.gelu(tt.zeros((2,)), approximate="tanh")  # type: ignore[call-overload]


@pytest.mark.parametrize("op", ["erf", "silu", "softplus", "gelu"])
def test_complex_numbers_are_refused_before_computing(op: str) -> None:
    with pytest.raises(tt.TensorDTypeError, match=rf'Cannot apply "{op}" to Tensor\[complex64, 2\]: it is defined for real dtypes only'):
        getattr(tt, op)(tt.zeros((2,), tt.complex64))


@pytest.mark.parametrize("op", ["isnan", "isinf", "isfinite"])
@given(array=arrays())
def test_predicates_equal_numpys_on_every_dtype(op: str, array: Array) -> None:
    expected = getattr(np, op)(array)
    got = getattr(tt, op)(tt.Tensor(array)).numpy()
    assert got.dtype == np.bool_ and got.shape == array.shape
    np.testing.assert_array_equal(got, expected)


# --- clip ------------------------------------------------------------------------------------

#: -300 and 300 are beyond every 8-bit dtype: numpy drops such a bound where it does not bind.
BOUND_SCALARS = [None, True, 0, -1, 2, 300, -300, 0.5, -2.5, np.float64(1.5)]
ORDERED = [dtype for dtype in DTYPES if dtype.kind != "c"]


def _same(got: Array | type[BaseException], expected: Array | type[BaseException]) -> None:
    if not isinstance(expected, np.ndarray):
        assert got is expected
        return
    assert isinstance(got, np.ndarray), got
    assert (got.dtype, got.shape) == (expected.dtype, expected.shape)
    np.testing.assert_array_equal(got, expected)


def _clip(x: Any, low: Any, high: Any) -> Any:
    return tt.clip(x, low, high)


@settings(max_examples=300)
@given(st.data())
def test_clip_equals_numpys_with_tensor_and_scalar_bounds(data: st.DataObject) -> None:
    """Bounds of three shapes that broadcast (or scalars, or None), every real dtype, NaN bounds,
    ``low > high``; where numpy raises (an int beyond a dtype), ours raises the same kind."""
    x, low, high = data.draw(broadcastable(3).filter(lambda arrays: all(a.dtype.kind != "c" for a in arrays)))
    low = data.draw(st.sampled_from([low, *BOUND_SCALARS]))
    high = data.draw(st.sampled_from([high, *BOUND_SCALARS[1:]]))  # no bound at all: tested below
    tensors = [tt.Tensor(value) if isinstance(value, np.ndarray) else value for value in (x, low, high)]
    # numpy's float64 is a Python float to typedtensor (weak), as for every elementwise op
    plain = [float(value) if type(value) is np.float64 else value for value in (x, low, high)]
    try:
        expected = numpy_result(np.clip, *plain)
    except OverflowError:
        with pytest.raises(OverflowError, match=r'"clip": the Python int -?\d+ is out of range for '):
            tt.clip(*tensors)  # type: ignore[call-overload]
        return
    _same(ours(_clip, *tensors), expected)


def test_clip_keeps_an_int_bound_beyond_a_cast_inputs_dtype() -> None:
    # numpy leaves out an int bound beyond an integer input's own range; a bool input cast to
    # another bound's uint8 is not one: -1 raises there, as numpy's does (found by hypothesis)
    x, high = np.zeros(2, bool), np.zeros(2, np.uint8)
    with pytest.raises(OverflowError):
        np.clip(x, -1, high)
    with pytest.raises(OverflowError, match=r'"clip": the Python int -1 is out of range for uint8'):
        tt.clip(tt.Tensor(x), -1, tt.Tensor(high))


@given(arrays(ORDERED))
def test_clip_without_bounds_is_a_copy(array: Array) -> None:
    x = tt.Tensor(array)
    got = tt.clip(x, None, None).numpy()
    assert got is not array and got.dtype == array.dtype
    np.testing.assert_array_equal(got, array)


def test_clip_of_a_strided_view() -> None:
    array = np.arange(24.0).reshape(4, 6)[::2, ::3]
    np.testing.assert_array_equal(tt.clip(tt.Tensor(array), 3.0, 13.0).numpy(), np.clip(array, 3.0, 13.0))


def test_clip_errors_name_the_op_and_every_operand() -> None:
    x = tt.zeros((3, 4))
    with pytest.raises(tt.BroadcastError, match=r'Cannot broadcast Tensor\[float32, 3, 4\], Tensor\[float32, 3\] and float for "clip"'):
        tt.clip(x, tt.zeros((3,)), 1.0)
    with pytest.raises(tt.TensorDTypeError, match=r'Cannot apply "clip" to Tensor\[complex64, 2\] and int: complex numbers are not ordered'):
        tt.clip(tt.zeros((2,), tt.complex64), 0, None)
    with pytest.raises(TypeError, match=r'"clip": high must be a typedtensor.Tensor or a Python scalar'):
        tt.clip(x, 0.0, np.ones(4))  # type: ignore[call-overload]
    with pytest.raises(TypeError, match=r'"clip": x must be a typedtensor.Tensor, got ndarray'):
        tt.clip(np.ones(4), 0.0, 1.0)  # type: ignore[call-overload]


@pytest.mark.parametrize("compiled", [True, False], ids=["compiled", "math"])
@pytest.mark.parametrize("dtype", FLOATS)
def test_numpy_erf_is_libm_on_views_of_every_float(dtype: np.dtype[Any], compiled: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """numpy's arrays get libm's erf and erfc, through the compiled loop (over a contiguous copy:
    a reversed, strided, 2-D view reads its own elements) or, without the extension, ``math``'s
    element by element: within 1 ulp of ``math.erf`` either way, in the array's dtype."""
    from typedtensor._ops import special

    if compiled and special._ckernels is None:
        pytest.skip("the C extension is not built")
    if not compiled:
        monkeypatch.setattr(special, "_ckernels", None)
    base = np.linspace(-7, 7, 4001).astype(dtype).reshape(4001, 1) * np.ones(3, dtype)
    view = base[::-3, ::2]
    wide = view.astype(np.float64)
    for function, reference in ((erf, _erf), (erfc, _erfc)):
        got = function(np, view)
        expected = reference(wide).astype(dtype)
        assert got.dtype == dtype and got.shape == view.shape
        assert np.all(np.abs(got - expected) <= np.spacing(np.abs(expected))), function.__name__
