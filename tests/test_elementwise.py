"""Elementwise ops against numpy: values, dtypes and shapes, and errors raised before numpy runs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import typedtensor as tt

DTYPES = [np.dtype(name) for name in (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128",
)]  # fmt: skip


@st.composite
def broadcastable_pairs(draw: st.DrawFn) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    shape = draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=3))
    other = tuple(1 if draw(st.booleans()) else size for size in shape)[draw(st.integers(0, len(shape))) :]
    left, right = draw(st.sampled_from(DTYPES)), draw(st.sampled_from(DTYPES))
    a = draw(hnp.arrays(left, shape))
    b = draw(hnp.arrays(right, other))
    if draw(st.booleans()) and a.ndim >= 2:
        a = np.ascontiguousarray(a.swapaxes(0, 1)).swapaxes(0, 1)  # a strided view
    return (a, b) if draw(st.booleans()) else (b, a)


@given(broadcastable_pairs())
def test_add_equals_numpy(pair: tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]) -> None:
    a, b = pair
    with np.errstate(all="ignore"):
        expected = np.add(a, b)
        got = tt.add(tt.Tensor(a), tt.Tensor(b))
        operator = tt.Tensor(a) + tt.Tensor(b)
    for result in (got, operator):
        assert type(result.numpy()) is np.ndarray
        assert result.numpy().dtype == expected.dtype and result.shape == expected.shape
        np.testing.assert_array_equal(result.numpy(), expected)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("scalar", [True, 2, 2.5, 1 + 2j, np.float64(2.5), np.complex128(1j)])
def test_python_scalars_are_weak_on_either_side(dtype: np.dtype[Any], scalar: complex) -> None:
    """numpy's float64 and complex128 scalars are Python floats and complexes: weak as those."""
    array = np.ones((2, 3), dtype)
    plain = scalar.item() if isinstance(scalar, np.generic) else scalar
    with np.errstate(all="ignore"):
        expected = array + plain
        for result in (tt.Tensor(array) + scalar, scalar + tt.Tensor(array), tt.add(scalar, tt.Tensor(array))):
            assert result.numpy().dtype == expected.dtype
            np.testing.assert_array_equal(result.numpy(), expected)


def test_a_broadcast_mismatch_names_the_op_and_both_operands_before_numpy_runs() -> None:
    with pytest.raises(tt.BroadcastError) as raised:
        tt.zeros((32, 10)) + tt.zeros((5,), tt.int32)
    assert str(raised.value) == (
        'Cannot broadcast Tensor[float32, 32, 10] and Tensor[int32, 5] for "add": '
        "sizes 10 and 5 at axis -1 differ and neither is 1"
    )
    assert isinstance(raised.value, ValueError) and raised.value.__cause__ is None


@pytest.mark.parametrize("operand", [np.float32(2.0), np.ones(3), "2", None])
def test_other_operands_are_refused_clearly(operand: object) -> None:
    with pytest.raises(TypeError, match=r'"add": x2 must be a typedtensor.Tensor or a Python scalar'):
        tt.add(tt.zeros((3,)), operand)  # type: ignore[arg-type]


def test_two_scalars_are_refused() -> None:
    with pytest.raises(TypeError, match='"add": at least one operand must be a typedtensor.Tensor'):
        tt.add(1, 2.0)
