"""The dtype rules of the elementwise ops numpy has no function for (erf, rsqrt, silu, softplus,
gelu), and of clip, against what numpy computes."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from typedtensor._shape_rules import CATEGORIES, CONCRETE, DTypeRefused, clip_dtype, unary_dtype

pytestmark = pytest.mark.floors

PYTHON_SCALARS = {"bool": True, "int": 1, "float": 1.5}
#: The ops computed as ``exp`` is (booleans and integers in a float), on real dtypes only.
REAL_TRANSCENDENTAL = ("erf", "silu", "softplus", "gelu")


def numpy_name(dtype: str) -> str:
    return "bool" if dtype == "bool_" else dtype


def ours_name(dtype: np.dtype[object]) -> str:
    return "bool_" if dtype == np.bool_ else dtype.name


@pytest.mark.parametrize("op", REAL_TRANSCENDENTAL)
@pytest.mark.parametrize("dtype", CONCRETE)
def test_real_transcendental_ops_take_exps_dtype_and_refuse_complex_numbers(op: str, dtype: str) -> None:
    result = unary_dtype(op, dtype)
    if dtype.startswith("complex"):
        assert isinstance(result, DTypeRefused) and "real dtypes only" in result.reason
    else:
        assert result == ours_name(np.exp(np.zeros(1, numpy_name(dtype))).dtype)


@pytest.mark.parametrize("dtype", CONCRETE)
def test_rsqrt_takes_the_dtype_of_one_over_sqrt(dtype: str) -> None:
    with np.errstate(all="ignore"):
        expected = (1 / np.sqrt(np.ones(1, numpy_name(dtype)))).dtype
    assert unary_dtype("rsqrt", dtype) == ours_name(expected)


def _operand(name: str | None) -> object:
    if name is None or name in PYTHON_SCALARS:
        return None if name is None else PYTHON_SCALARS[name]
    return np.zeros(1, numpy_name(name))


BOUNDS = [None, *PYTHON_SCALARS, *(dtype for dtype in CONCRETE if not dtype.startswith("complex"))]


@pytest.mark.parametrize("x", CONCRETE)
def test_clip_dtypes_are_numpys_for_every_pair_of_bounds(x: str) -> None:
    array = np.zeros(1, numpy_name(x))
    for low, high in itertools.product(BOUNDS, BOUNDS):
        ours = clip_dtype(x, low, high)
        if x.startswith("complex"):
            assert isinstance(ours, DTypeRefused), (x, low, high)
            continue
        try:
            expected = np.clip(array, _operand(low), _operand(high)).dtype
        except TypeError:  # numpy: no bound of both, a uint64 and an int
            continue
        assert ours == ours_name(expected), (x, low, high)


@pytest.mark.parametrize("bound", ["complex", "complex64"])
def test_clip_refuses_a_complex_bound(bound: str) -> None:
    result = clip_dtype("float32", bound, None)
    assert isinstance(result, DTypeRefused)
    assert result.reason == "complex numbers are not ordered, so they cannot be clipped"


@pytest.mark.parametrize("category", CATEGORIES)
@pytest.mark.parametrize("bound", [None, "int", "float", "float32"])
def test_a_clip_category_answer_holds_every_member(category: str, bound: str | None) -> None:
    results = [clip_dtype(member, bound, None) for member in CATEGORIES[category]]
    accepted = {result for result in results if isinstance(result, str)}
    answer = clip_dtype(category, bound, None)
    if not accepted:
        assert isinstance(answer, DTypeRefused)
    else:
        assert isinstance(answer, str) and accepted <= set(CATEGORIES.get(answer, (answer,)))
