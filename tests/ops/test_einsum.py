"""einsum against a direct loop over every assignment of its letters, and its errors, raised
before the library runs."""

from __future__ import annotations

import itertools
import re
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import typedtensor as tt

Array = np.ndarray[Any, Any]
DTYPES = ["bool", "int8", "int32", "uint8", "float16", "float32", "float64"]


def loop_einsum(inputs: list[str], output: str, arrays: list[Array]) -> Array:
    """The sum over every assignment of the letters of the product of the operands' elements."""
    sizes = {letter: size for term, array in zip(inputs, arrays) for letter, size in zip(term, array.shape)}
    dtype = np.result_type(*arrays)
    result = np.zeros([sizes[letter] for letter in output], dtype=np.float64)
    letters = sorted(sizes)
    for values in itertools.product(*[range(sizes[letter]) for letter in letters]):
        at = dict(zip(letters, values))
        product = 1.0
        for term, array in zip(inputs, arrays):
            product *= float(array[tuple(at[letter] for letter in term)])
        result[tuple(at[letter] for letter in output)] += product
    return result.astype(dtype) if dtype.kind != "b" else result != 0


@st.composite
def calls(draw: st.DrawFn) -> tuple[list[str], str, list[Array]]:
    """Terms over shared letter sizes (0s and 1s among them), an output of distinct letters, operands of small values."""
    sizes = {letter: draw(st.integers(0, 3)) for letter in "ijkl"}
    inputs = ["".join(draw(st.lists(st.sampled_from("ijkl"), max_size=3))) for _ in range(draw(st.integers(1, 3)))]
    used = sorted({letter for term in inputs for letter in term})
    output = "".join(draw(st.permutations(used))[: draw(st.integers(0, len(used)))])
    dtypes = draw(st.lists(st.sampled_from(DTYPES), min_size=len(inputs), max_size=len(inputs)))
    rng = np.random.default_rng(draw(st.integers(0, 99)))
    arrays = [rng.integers(0, 3, [sizes[letter] for letter in term]).astype(dtype) for term, dtype in zip(inputs, dtypes)]
    return inputs, output, arrays


@settings(max_examples=80, deadline=None)
@given(calls())
def test_einsum_is_the_sum_over_its_letters(call: tuple[list[str], str, list[Array]]) -> None:
    inputs, output, arrays = call
    got = tt.einsum(",".join(inputs) + "->" + output, *map(tt.Tensor, arrays))
    expected = loop_einsum(inputs, output, arrays)
    assert got.numpy().dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_allclose(got.numpy().astype(np.float64), expected.astype(np.float64), rtol=1e-3)


def test_optimised_and_plain_paths_agree() -> None:
    rng = np.random.default_rng(0)
    small, large = rng.standard_normal((4, 4)), rng.standard_normal((40, 40))
    for array in (small, large):
        np.testing.assert_allclose(tt.einsum("ij,jk->ik", tt.Tensor(array), tt.Tensor(array)).numpy(), array @ array, rtol=1e-12)
    np.testing.assert_allclose(tt.einsum("ij,jk,kl", *[tt.Tensor(small)] * 3).numpy(), small @ small @ small, rtol=1e-12)


def test_einsum_errors_name_the_operands_before_numpy_runs() -> None:
    a, b = tt.zeros((2, 3)), tt.zeros((4, 5))
    with pytest.raises(tt.TensorShapeError, match=re.escape("\"einsum\" of 'ij,jk->ik' on Tensor[float32, 2, 3] and Tensor[float32, 4, 5]: letter 'j' is 3 in one place and 4 in another")):
        tt.einsum("ij,jk->ik", a, b)
    with pytest.raises(tt.TensorShapeError, match="2 operand terms for 1 operand"):
        tt.einsum("ij,jk->ik", a)
    with pytest.raises(TypeError, match='"einsum": subscripts must be a str'):
        tt.einsum(3, a)  # type: ignore[call-overload]
    with pytest.raises(TypeError, match='"einsum": operand 1 must be a typedtensor.Tensor'):
        tt.einsum("i,i", tt.zeros((2,)), np.zeros(2))  # type: ignore[call-overload]
