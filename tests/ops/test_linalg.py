"""matmul and ``@`` against numpy: values, dtypes and shapes, and errors raised before numpy runs."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import typedtensor as tt
from tests.support.arrays import DTYPES, Array, strided

pytestmark = pytest.mark.floors


@st.composite
def matmul_cases(draw: st.DrawFn) -> tuple[Array, Array, bool, bool]:
    """Operands numpy can multiply (batch dims broadcast, 1-D operands), and the flags."""
    side = st.integers(0, 3)
    n, k, m = draw(side), draw(side), draw(side)
    batch = draw(st.lists(st.integers(0, 3), max_size=2))
    a_shape: tuple[int, ...] = (*[draw(st.sampled_from([size, 1])) for size in batch], n, k)
    b_shape: tuple[int, ...] = (*batch[draw(st.integers(0, len(batch))) :], k, m)
    if draw(st.booleans()):
        a_shape = (k,)
    if draw(st.booleans()):
        b_shape = (k,)
    transpose_a, transpose_b = draw(st.booleans()), draw(st.booleans())
    # The flags transpose the operands given: store them the other way round.
    if transpose_a and len(a_shape) > 1:
        a_shape = (*a_shape[:-2], a_shape[-1], a_shape[-2])
    if transpose_b and len(b_shape) > 1:
        b_shape = (*b_shape[:-2], b_shape[-1], b_shape[-2])
    a = strided(draw, draw(hnp.arrays(draw(st.sampled_from(DTYPES)), a_shape)))
    b = strided(draw, draw(hnp.arrays(draw(st.sampled_from(DTYPES)), b_shape)))
    return a, b, transpose_a, transpose_b


@given(matmul_cases())
def test_matmul_equals_numpy(case: tuple[Array, Array, bool, bool]) -> None:
    a, b, transpose_a, transpose_b = case
    left = a.swapaxes(-1, -2) if transpose_a and a.ndim > 1 else a
    right = b.swapaxes(-1, -2) if transpose_b and b.ndim > 1 else b
    with np.errstate(all="ignore"):
        expected = np.asarray(np.matmul(left, right))
        results = [tt.matmul(tt.Tensor(a), tt.Tensor(b), transpose_a=transpose_a, transpose_b=transpose_b)]
        if not (transpose_a or transpose_b):
            results.append(tt.Tensor(a) @ tt.Tensor(b))
    for got in results:
        assert type(got.numpy()) is np.ndarray
        assert got.numpy().dtype == expected.dtype and got.shape == expected.shape
        np.testing.assert_array_equal(got.numpy(), expected)


def test_bool_matmul_is_bool_as_numpys() -> None:
    a = tt.tensor([[True, False], [False, False]])
    assert (a @ a).dtype is tt.bool_


def test_inner_dims_that_differ_name_both_operands_before_numpy_runs() -> None:
    with pytest.raises(tt.MatmulError) as raised:
        tt.zeros((32, 784)) @ tt.zeros((10, 784))
    assert str(raised.value) == (
        'Cannot matmul Tensor[float32, 32, 784] and Tensor[float32, 10, 784] for "matmul": inner dims 784 and 10 differ'
    )
    assert isinstance(raised.value, ValueError) and raised.value.__cause__ is None and raised.value.__context__ is None


def test_a_transpose_flag_makes_the_same_operands_fit_or_not() -> None:
    a, b = tt.zeros((32, 784)), tt.zeros((10, 784), tt.float64)
    assert tt.matmul(a, b, transpose_b=True).shape == (32, 10)
    with pytest.raises(tt.MatmulError, match=r"^Cannot matmul Tensor\[float32, 32, 784\] and Tensor\[float64, 10, 784\] for \"matmul\": inner dims 32 and 784 differ \(with transpose_a and transpose_b\)$"):
        tt.matmul(a, b, transpose_a=True, transpose_b=True)


def test_batch_dims_that_do_not_broadcast_are_a_matmul_error() -> None:
    with pytest.raises(tt.MatmulError) as raised:
        tt.matmul(tt.zeros((2, 3, 4)), tt.zeros((5, 4, 6)))
    assert str(raised.value) == (
        'Cannot matmul Tensor[float32, 2, 3, 4] and Tensor[float32, 5, 4, 6] for "matmul": '
        "batch sizes 2 and 5 at axis -3 differ and neither is 1"
    )


def test_a_rank_0_operand_is_refused() -> None:
    with pytest.raises(tt.MatmulError, match=r'for "matmul": Tensor\[int32\] has rank 0, matmul needs at least 1 dim$'):
        tt.ones((3,)) @ tt.ones((), tt.int32)


@pytest.mark.parametrize("flag", [1, "yes", None])
def test_flags_must_be_bools(flag: object) -> None:
    with pytest.raises(TypeError, match=r'^"matmul": transpose_b must be True or False, got '):
        tt.matmul(tt.ones((2, 2)), tt.ones((2, 2)), transpose_b=flag)  # type: ignore[call-overload]


def test_numpy_bools_are_flags_too() -> None:
    assert tt.matmul(tt.ones((2, 3)), tt.ones((2, 3)), transpose_a=np.True_).shape == (3, 3)  # type: ignore[call-overload]


@pytest.mark.parametrize("other", [np.ones((2, 2)), [[1.0, 2.0]], 2.0])
def test_operands_that_are_no_tensors_are_refused_clearly_on_either_side(other: Any) -> None:
    x = tt.ones((2, 2))
    with pytest.raises(TypeError, match=r'^"matmul": b must be a typedtensor.Tensor, got '):
        x @ other
    with pytest.raises(TypeError, match=r'^"matmul": a must be a typedtensor.Tensor, got '):
        other @ x
