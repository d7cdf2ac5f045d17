"""numpy beside a Tensor: numpy scalars as operands (strong, as numpy 2 promotes them), and
numpy's functions, which refuse a Tensor as its declared type says (tests/plugin/cases/numpy_interop.py)."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, strategies as st

import typedtensor as tt

from .test_elementwise import Array, arrays, numpy_result, ours

pytestmark = pytest.mark.floors

#: One numpy scalar of each dtype a tensor carries, but float64 and complex128 (Python scalars).
NUMPY_SCALARS = [
    np.bool_(True), np.int8(-3), np.int16(300), np.int32(7), np.int64(-2), np.uint8(3), np.uint16(2), np.uint32(5),
    np.uint64(4), np.float16(1.5), np.float32(-2.5), np.complex64(1 - 2j),
]
OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv, "//": operator.floordiv,
    "**": operator.pow, "==": operator.eq, "!=": operator.ne, "<": operator.lt, ">=": operator.ge,
}


def _same(got: Array | type[BaseException], expected: Array | type[BaseException]) -> None:
    if not isinstance(expected, np.ndarray):
        assert got is expected
        return
    assert isinstance(got, np.ndarray) and (got.dtype, got.shape) == (expected.dtype, expected.shape)
    np.testing.assert_array_equal(got, expected)


@given(st.sampled_from(list(OPERATORS)), arrays(), st.sampled_from(NUMPY_SCALARS), st.booleans())
def test_a_numpy_scalar_operand_is_numpys_rank_0_array(symbol: str, array: Array, scalar: np.generic, scalar_first: bool) -> None:
    """Values, dtype (numpy 2's: the scalar strong, ``float16 * np.float32`` is float32) and shape
    as numpy gives them, both ways round; where numpy refuses, the same kind of error."""
    function = OPERATORS[symbol]
    operands = (scalar, array) if scalar_first else (array, scalar)
    try:
        expected = numpy_result(function, *operands)
    except OverflowError:  # numpy: an integer too large for a dtype in a power
        return
    tensors = (scalar, tt.Tensor(array)) if scalar_first else (tt.Tensor(array), scalar)
    _same(ours(function, *tensors), expected)


@pytest.mark.parametrize("scalar", NUMPY_SCALARS, ids=lambda scalar: type(scalar).__name__)
def test_the_functions_and_where_and_clip_take_numpy_scalars(scalar: np.generic) -> None:
    x = tt.tensor([1.0, 2.0], dtype=tt.float16)
    array = x.numpy()
    with np.errstate(all="ignore"):
        assert tt.add(x, scalar).dtype.__name__ == np.add(array, scalar).dtype.name
        assert tt.subtract(scalar, x).numpy().tolist() == np.subtract(scalar, array).tolist()
        assert tt.where(x > 1, x, scalar).numpy().dtype == np.where(array > 1, array, scalar).dtype
    if not isinstance(scalar, np.complexfloating):
        assert tt.clip(x, scalar, None).numpy().dtype == np.clip(array, scalar, None).dtype


def test_numpys_float64_stays_a_python_float() -> None:
    """numpy's float64 subclasses float: to typedtensor, statically and at run time, it is one (weak)."""
    x = tt.zeros((2,), tt.float16)
    assert (x * np.float64(2)).dtype is tt.float16 and (np.float64(2) * x).dtype is tt.float16


def test_numpy_scalars_of_other_libraries_tensors_become_their_arrays() -> None:
    torch = pytest.importorskip("torch")
    x = tt.Tensor(torch.ones(2, dtype=torch.float16))
    result = np.float32(2) * x
    assert result.dtype is tt.float32 and isinstance(result.array, torch.Tensor)
    assert (x < np.int64(2)).numpy().tolist() == [True, True]


@pytest.mark.parametrize("scalar", [np.longdouble(1), np.str_("a"), np.datetime64(1, "s")], ids=lambda scalar: type(scalar).__name__)
def test_numpy_scalars_of_dtypes_a_tensor_does_not_carry_are_refused(scalar: np.generic) -> None:
    with pytest.raises(TypeError, match=rf'"add": x2 must be a typedtensor.Tensor or a Python scalar .*, got {type(scalar).__name__}'):
        tt.zeros((2,)) + scalar  # type: ignore[operator]


# --- numpy's functions ---------------------------------------------------------------------------

#: Each function, and what its message says: numpy's name, and the typed op where there is one.
REFUSED_FUNCTIONS: list[tuple[Callable[[Any], object], str]] = [
    (np.mean, "numpy.mean does not take a typedtensor.Tensor (its result would be an untyped ndarray): use x.mean(), or np.asarray(x) for the ndarray itself"),
    (lambda x: np.clip(x, 0, 1), "numpy.clip does not take a typedtensor.Tensor (its result would be an untyped ndarray): use typedtensor.clip, or np.asarray(x)"),
    (lambda x: np.concatenate([x, x]), "numpy.concatenate does not take a typedtensor.Tensor (its result would be an untyped ndarray): use typedtensor.concat, or"),
    (np.sum, "numpy.sum does not take a typedtensor.Tensor (its result would be an untyped ndarray): use x.sum(), or"),
    (lambda x: np.where(x > 0, x, 0), "numpy.where does not take a typedtensor.Tensor (its result would be an untyped ndarray): use typedtensor.where, or"),
    (lambda x: np.allclose(x, x), "numpy.allclose does not take a typedtensor.Tensor (its result would be an untyped ndarray): typedtensor has no op of that name: use np.asarray(x)"),
    (np.linalg.norm, "numpy.linalg.norm does not take a typedtensor.Tensor"),
]


@pytest.mark.parametrize(("function", "message"), REFUSED_FUNCTIONS)
def test_numpys_functions_refuse_a_tensor_naming_the_typed_op(function: Callable[[Any], object], message: str) -> None:
    with pytest.raises(TypeError) as raised:
        function(tt.ones((2, 3)))
    assert str(raised.value).startswith(message)


@pytest.mark.parametrize("ufunc", [np.exp, np.sqrt, np.negative])
def test_numpys_ufuncs_refuse_a_tensor(ufunc: np.ufunc) -> None:
    with pytest.raises(TypeError, match=r"operand 'Tensor' does not support ufuncs"):
        ufunc(tt.ones((2,)))


def test_asarray_and_array_give_the_ndarray() -> None:
    x = tt.tensor([1.5, 2.5], dtype=tt.float32)
    assert np.asarray(x) is x.numpy()
    assert np.asarray(x, dtype=np.float64).dtype == np.float64
    copied = np.array(x)
    assert copied is not x.numpy() and copied.tolist() == [1.5, 2.5]
    with pytest.raises(ValueError, match=r"Tensor\[float32, 2\] cannot become float64 without a copy"):
        np.asarray(x, dtype=np.float64, copy=False)
    np.testing.assert_array_equal(x, [1.5, 2.5])  # numpy's testing helpers convert with asarray first
