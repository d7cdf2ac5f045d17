"""The rules of the statistics, the scans, the element reads and the updates: their dtypes asked of
numpy itself, and their problems."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from tests.rules.test_rigid_dims import RIGID
from typedtensor._shape_rules import (
    CATEGORIES,
    CONCRETE,
    INT_DIMS,
    SCAN_OPS,
    STATISTIC_OPS,
    DimsMayDiffer,
    NotOneElement,
    Shape,
    ValueDoesNotFit,
    ValueWouldPromote,
    one_element_problem,
    result_dtype,
    update_dtype_problem,
    update_problem,
)
from typedtensor._shape_rules.core import UNKNOWN


def _numpy_name(dtype: np.dtype[np.generic]) -> str:
    return "bool_" if dtype == np.bool_ else dtype.name


@pytest.mark.parametrize("op", [*STATISTIC_OPS, *SCAN_OPS])
@pytest.mark.parametrize("dtype", CONCRETE)
def test_the_dtype_is_numpys(op: str, dtype: str) -> None:
    sample = np.ones((2, 2), np.dtype(dtype.rstrip("_")))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        given = getattr(np, op)(sample, axis=0) if op in SCAN_OPS else getattr(np, op)(sample)
    assert result_dtype(op, dtype) == _numpy_name(np.asarray(given).dtype)


@pytest.mark.parametrize("op", ["var", "std", "nanmean", "cumsum"])
@pytest.mark.parametrize("category", list(CATEGORIES))
def test_a_category_gives_what_holds_for_every_member(op: str, category: str) -> None:
    results = {result_dtype(op, member) for member in CATEGORIES[category]}
    answer = result_dtype(op, category)
    assert results <= set(CATEGORIES.get(answer, (answer,)))


def test_var_of_integers_is_float64_and_of_complexes_real() -> None:
    assert result_dtype("var", "integer") == "float64"
    assert result_dtype("std", "complexfloating") == "floating"
    assert result_dtype("var", "floating") == "floating"


def test_one_element_reads() -> None:
    assert one_element_problem(Shape[int, None]((1, 1)), INT_DIMS) is None
    assert one_element_problem(Shape[int, None](()), INT_DIMS) is None
    assert one_element_problem(Shape[int, None]((1, 3, 0)), INT_DIMS) == NotOneElement(3)
    assert one_element_problem(Shape[int, None]((0,)), INT_DIMS) == NotOneElement(0)
    # an unknown dim or a run may hold one element: no problem (no false positive)
    assert one_element_problem(Shape[int, None]((UNKNOWN, 1)), INT_DIMS) is None
    assert one_element_problem(Shape[int, None]((1,), UNKNOWN, (1,)), INT_DIMS) is None
    assert one_element_problem(Shape[int, None]((), UNKNOWN, (2,)), INT_DIMS) == NotOneElement(2)


def test_a_named_dim_reads_one_element_only_where_it_is_1() -> None:
    problem = one_element_problem(Shape[str, str](("1", "B")), RIGID)
    assert isinstance(problem, DimsMayDiffer) and problem.code == "tensor-dim"
    assert problem.message("item", ["Tensor[float32, 1, B]"]) == (
        'Cannot read the element of Tensor[float32, 1, B] for "item": B and 1 at axis 1 may differ: B is a named dim'
    )
    assert one_element_problem(Shape[str, str](("B", "3")), RIGID) == NotOneElement(3)  # a certain failure outranks


def test_a_value_broadcasts_to_the_region_without_growing_it() -> None:
    assert update_problem((2, 3), ()) is None
    assert update_problem((2, 3), (1, 3)) is None
    assert update_problem((2, 3), (3,)) is None
    assert update_problem((2, 3), (2,)) == ValueDoesNotFit((2, 3))
    assert update_problem((3,), (1, 3)) == ValueDoesNotFit((3,))
    assert update_problem((0,), (1,)) is None


def test_a_value_must_keep_the_dtype() -> None:
    assert update_dtype_problem("float32", "float32") is None
    problem = update_dtype_problem("int32", "float64")
    assert problem == ValueWouldPromote("int32", "float64")
    assert problem.code == "tensor-dtype"
