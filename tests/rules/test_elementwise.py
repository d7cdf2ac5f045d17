"""Promotion, broadcasting and the elementwise dtype rules against numpy itself, and their symbolic cases."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

from typedtensor._shape_rules import (
    BINARY_RULES,
    CATEGORIES,
    CONCRETE,
    INT_DIMS,
    UNARY_RULES,
    UNKNOWN,
    BroadcastMismatch,
    CategoryNotDType,
    Dims,
    DTypeRefused,
    Shape,
    binary_dtype,
    broadcast_shapes,
    cast_dtype,
    promote,
    promote_scalar,
    unary_dtype,
    where_dtype,
)

pytestmark = pytest.mark.floors

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


# --- per-op dtype rules, against numpy itself over every dtype and Python scalar kind -------------

ALL_OPERANDS = [*CONCRETE, *PYTHON_SCALARS]


def _value(operand: str) -> Any:
    """A numpy operand of a dtype name, or the Python scalar of a kind."""
    return PYTHON_SCALARS[operand] if operand in PYTHON_SCALARS else np.ones(2, numpy_name(operand))


def _numpy_dtype(function: Any, *operands: str) -> str | None:
    """The dtype numpy's ``function`` gives these operands, or None where numpy refuses them."""
    try:
        with np.errstate(all="ignore"):
            return numpy_name_of(function(*map(_value, operands)).dtype)
    except TypeError:
        return None


def numpy_name_of(dtype: np.dtype[Any]) -> str:
    return "bool_" if dtype == np.bool_ else dtype.name


def _ours(result: object) -> str | None:
    return None if isinstance(result, DTypeRefused) else str(result)


#: Unary ops that are numpy functions of the same name; the others are checked against runs (test_special.py).
NUMPY_UNARY = [op for op in UNARY_RULES if op not in ("sigmoid", "relu", "erf", "rsqrt", "silu", "softplus", "gelu")]


@pytest.mark.parametrize("op", NUMPY_UNARY)
def test_unary_dtypes_are_numpys(op: str) -> None:
    for dtype in CONCRETE:
        assert _ours(unary_dtype(op, dtype)) == _numpy_dtype(getattr(np, op), dtype), (op, dtype)


@pytest.mark.parametrize("op", BINARY_RULES)
def test_binary_dtypes_are_numpys_for_every_pair_and_scalar_kind(op: str) -> None:
    for left in ALL_OPERANDS:
        for right in ALL_OPERANDS:
            if left in PYTHON_SCALARS and right in PYTHON_SCALARS:
                continue  # an op needs a tensor
            expected = _numpy_dtype(getattr(np, op), left, right)
            assert _ours(binary_dtype(op, left, right)) == expected, (op, left, right)


def test_where_dtypes_are_numpys() -> None:
    condition = np.array([True, False])
    for x in ALL_OPERANDS:
        for y in ALL_OPERANDS:
            expected = numpy_name_of(np.where(condition, _value(x), _value(y)).dtype)
            assert where_dtype(x, y) == expected, (x, y)


@pytest.mark.parametrize("op", UNARY_RULES)
@pytest.mark.parametrize("category", CATEGORIES)
def test_a_unary_category_answer_holds_every_member_and_refuses_only_when_all_do(op: str, category: str) -> None:
    results = [unary_dtype(op, member) for member in CATEGORIES[category]]
    answer = unary_dtype(op, category)
    accepted = {result for result in results if isinstance(result, str)}
    if not accepted:
        assert isinstance(answer, DTypeRefused)
    else:
        assert isinstance(answer, str) and accepted <= set(CATEGORIES.get(answer, (answer,)))


@pytest.mark.parametrize("op", ["subtract", "divide", "floor_divide", "less"])
def test_a_binary_category_answer_holds_every_pair_of_members(op: str) -> None:
    for category in CATEGORIES:
        for other in [*CONCRETE, *PYTHON_SCALARS]:
            pairs = [binary_dtype(op, member, other) for member in CATEGORIES[category]]
            accepted = {result for result in pairs if isinstance(result, str)}
            answer = binary_dtype(op, category, other)
            if not accepted:
                assert isinstance(answer, DTypeRefused)
            else:
                assert isinstance(answer, str) and accepted <= set(CATEGORIES.get(answer, (answer,)))


def test_refusals_say_why_and_what_to_use() -> None:
    negative = unary_dtype("negative", "bool_")
    assert isinstance(negative, DTypeRefused)
    assert negative.message("negative", ["Tensor[bool_, 2]"]) == (
        'Cannot apply "negative" to Tensor[bool_, 2]: numpy has no boolean negative (use logical_not)'
    )
    subtract = binary_dtype("subtract", "bool_", "bool")
    assert isinstance(subtract, DTypeRefused)
    assert subtract.message("subtract", ["Tensor[bool_, 2]", "bool"]) == (
        'Cannot apply "subtract" to Tensor[bool_, 2] and bool: '
        "numpy has no boolean subtract (use not_equal, or cast to an integer dtype first)"
    )
    # Other members of a category may be what runs: no problem, and the answer of those that run.
    assert binary_dtype("subtract", "generic", "bool_") == "number"


def test_casts_refuse_categories() -> None:
    assert cast_dtype("float16") == "float16"
    problem = cast_dtype("floating")
    assert isinstance(problem, CategoryNotDType)
    assert problem.message("cast", ["Tensor[int8, 3]"]) == (
        'Cannot cast Tensor[int8, 3] to floating for "cast": floating is a category of dtypes, not a dtype '
        "(use one of float16, float32, float64)"
    )


def test_promotion_of_three_dtypes_is_numpys_result_type() -> None:
    """numpy's promotion is not associative: ``concat``/``stack``/``where`` of three must match it."""
    wrong = [
        dtypes
        for dtypes in itertools.product(CONCRETE, repeat=3)
        if numpy_name(promote(*dtypes)) != np.result_type(*map(numpy_name, dtypes)).name
    ]
    assert wrong == []
