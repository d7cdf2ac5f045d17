"""Promotion and broadcasting rules against numpy itself, and their symbolic cases."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from typedtensor._shape_rules import (
    CATEGORIES,
    CONCRETE,
    INT_DIMS,
    UNKNOWN,
    BroadcastMismatch,
    Dims,
    Shape,
    broadcast_shapes,
    promote,
    promote_scalar,
)

PYTHON_SCALARS = {"bool": True, "int": 1, "float": 1.0, "complex": 1j}


def numpy_name(dtype: str) -> str:
    return "bool" if dtype == "bool_" else dtype


@pytest.mark.parametrize("left", CONCRETE)
@pytest.mark.parametrize("right", CONCRETE)
def test_promotion_is_numpys_result_type(left: str, right: str) -> None:
    expected = np.result_type(np.dtype(numpy_name(left)), np.dtype(numpy_name(right)))
    assert numpy_name(promote(left, right)) == expected.name


@pytest.mark.parametrize("dtype", CONCRETE)
@pytest.mark.parametrize("kind", PYTHON_SCALARS)
def test_python_scalars_promote_weakly_as_numpy_2(dtype: str, kind: Any) -> None:
    array = np.zeros(2, numpy_name(dtype))
    assert numpy_name(promote_scalar(dtype, kind)) == (array + PYTHON_SCALARS[kind]).dtype.name


@pytest.mark.parametrize("category", CATEGORIES)
@pytest.mark.parametrize("other", [*CONCRETE, *CATEGORIES])
def test_a_category_answers_with_the_narrowest_name_holding_every_result(category: str, other: str) -> None:
    members = CATEGORIES.get(other, (other,))
    results = {promote(a, b) for a in CATEGORIES[category] for b in members}
    answer = promote(category, other)
    assert results <= set(CATEGORIES.get(answer, (answer,)))
    narrower = [name for name, inside in CATEGORIES.items() if results <= set(inside) and len(inside) < len(CATEGORIES.get(answer, (answer,)))]
    assert narrower == [] or len(results) == 1


shapes = hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=3)


@given(st.lists(shapes, min_size=1, max_size=3), st.data())
def test_broadcasting_ints_agrees_with_numpy(base: list[tuple[int, ...]], data: st.DataObject) -> None:
    # Half the time make the shapes broadcastable by putting 1s where they differ.
    if data.draw(st.booleans()):
        base = [tuple(1 if data.draw(st.booleans()) else size for size in shape) for shape in base]
    try:
        expected: tuple[int, ...] | None = np.broadcast_shapes(*base)
    except ValueError:
        expected = None
    got = broadcast_shapes([Shape[int, str](shape) for shape in base], INT_DIMS)
    if expected is None:
        assert isinstance(got, BroadcastMismatch)
    else:
        assert got == Shape(expected)


# Symbolic dims: "N" and "M" are named dims, "1", "3", "5" literal sizes.
SYMBOLIC = Dims[str](lambda dim: int(dim) if dim.isdigit() else None, str)


@pytest.mark.parametrize(
    ("shapes", "expected"),
    [
        ([("N", "3"), ("3",)], Shape(("N", "3"))),
        ([("N", "1"), ("5",)], Shape(("N", "5"))),
        ([("N",), ("5",)], Shape(("5",))),  # N runs only if it is 1 or 5: the result is 5
        ([("N",), ("1",)], Shape(("N",))),
        ([("N",), ("M",)], Shape((UNKNOWN,))),  # may be equal at run time: never an error
        ([("N",), (UNKNOWN,)], Shape((UNKNOWN,))),
        ([(UNKNOWN,), ("3",)], Shape(("3",))),
        ([("3", "N"), ("5", "N")], BroadcastMismatch((3, 5), -2)),
    ],
)
def test_broadcasting_symbolic_dims(shapes: list[tuple[Any, ...]], expected: object) -> None:
    assert broadcast_shapes([Shape[str, str](shape) for shape in shapes], SYMBOLIC) == expected


@pytest.mark.parametrize(
    ("shapes", "expected"),
    [
        ([Shape(("B",), "*Ts", ("3",)), Shape(("3",))], Shape(("B",), "*Ts", ("3",))),
        ([Shape(("B",), "*Ts", ("3",)), Shape(("B",), "*Ts", ("1",))], Shape(("B",), "*Ts", ("3",))),
        ([Shape(("B",), "*Ts", ("3",)), Shape(("2", "3"))], Shape((), UNKNOWN, ("3",))),
        ([Shape((), UNKNOWN, ("3",)), Shape(("5",))], BroadcastMismatch((3, 5), -1)),
        ([Shape((), "*Ts"), Shape((), "*Us")], Shape((), UNKNOWN)),
    ],
)
def test_broadcasting_runs(shapes: list[Shape[str, str]], expected: object) -> None:
    assert broadcast_shapes(shapes, SYMBOLIC) == expected
