"""The shared shape rules on abstract dims: names for dims, runs of unknown length, unknown args.

The runtime only ever passes ints of a known rank; these are the inputs the mypy plugin passes.
Dims are strings here, the run ``"*Ts"``, and ``"1"`` is the size-1 dim of ``keepdims``.
"""

from __future__ import annotations

import pytest

from typedtensor._shape_rules import (
    UNKNOWN,
    AxisOutOfRange,
    AxisSpec,
    InvalidSelection,
    Shape,
    Unknown,
    reduce_shape,
    result_dtype,
)

U = UNKNOWN
FIXED: Shape[str, str] = Shape(("B", "T", "C"))
ENDS: Shape[str, str] = Shape(("B",), "*Ts", ("C",))  # Tensor[DT, B, *Ts, C]
ANY_RUN: Shape[str, str] = Shape(("B",), UNKNOWN, ("C",))  # Tensor[DT, B, *tuple[Any, ...], C]


def reduce(shape: Shape[str, str], axis: AxisSpec, keepdims: bool | Unknown = False) -> object:
    return reduce_shape(shape, axis, keepdims, "1")


@pytest.mark.parametrize(
    ("axis", "keepdims", "expected"),
    [
        (None, False, Shape(())),
        (None, True, Shape(("1", "1", "1"))),
        ((1, -1), False, Shape(("B",))),
        ("^v^", True, Shape(("1", "T", "1"))),
        ((), U, Shape(("B", "T", "C"))),  # nothing reduced: keepdims does not matter
        (0, U, Shape((), U)),
        ((U,), False, Shape((U, U))),  # one unknown axis: the rank drops by one
        ((U,), True, Shape((U, U, U))),
        ((0, U), True, Shape(("1", U, U))),
        ((0, U), False, Shape((), U)),
        (U, True, Shape((U, U, U))),
        (U, False, Shape((), U)),
    ],
)
def test_fixed_rank(axis: AxisSpec, keepdims: bool | Unknown, expected: Shape[str, str]) -> None:
    assert reduce(FIXED, axis, keepdims) == expected


@pytest.mark.parametrize(
    ("axis", "keepdims", "expected"),
    [
        (None, False, Shape(())),
        (None, True, Shape((), U)),
        ((0, -1), False, Shape((), "*Ts")),
        ((0, -1), True, Shape(("1",), "*Ts", ("1",))),
        (0, False, Shape((), "*Ts", ("C",))),
        (1, False, Shape(("B",), U)),  # past the prefix: it may be the last dim
        (-2, False, Shape((), U, ("C",))),
        (5, False, Shape(("B",), U)),  # the rank is unknown: never out of range
        ((U,), False, Shape((), U)),
        (0, U, Shape((), U)),
        ("^^", False, Shape((), "*Ts")),  # two chars: the run is empty
        ("v^^^", False, Shape(("B",))),  # four chars: a run of two, both reduced
        ("v^^^", True, Shape(("B", "1", "1", "1"))),
        ("vv^vv", False, Shape(("B", U, U, "C"))),  # part of the run reduced: its dims are unknown
        ("^vvv", False, Shape((), "*Ts", ("C",))),  # the run kept whole stays *Ts
        ("^v^", U, Shape((), U)),
    ],
)
def test_variadic(axis: AxisSpec, keepdims: bool | Unknown, expected: Shape[str, str]) -> None:
    assert reduce(ENDS, axis, keepdims) == expected


def test_an_unknown_run_kept_by_a_selection_has_a_known_length() -> None:
    assert reduce(ANY_RUN, "^vv^") == Shape((U, U))
    assert reduce(ANY_RUN, "vv") == Shape(("B", "C"))


@pytest.mark.parametrize(
    ("shape", "axis", "problem"),
    [
        (FIXED, (3, -4, 1, 9), AxisOutOfRange((3, -4, 9), 3)),
        (FIXED, (U, 3), AxisOutOfRange((3,), 3)),
        (Shape(()), 0, AxisOutOfRange((0,), 0)),
        (FIXED, "^^", InvalidSelection("^^", 3)),
        (ENDS, "^", InvalidSelection("^", 2, rank_is_minimum=True)),
        (ENDS, "^x", InvalidSelection("^x", 2, rank_is_minimum=True)),
    ],
)
def test_problems_only_where_the_rank_is_known(shape: Shape[str, str], axis: AxisSpec, problem: object) -> None:
    assert reduce(shape, axis) == problem


def test_selection_messages_count_characters_in_good_english() -> None:
    assert "has 1 character but" in InvalidSelection("^", 2).message("sum", "Tensor[float32, 2, 3]")
    assert "has 0 characters but" in InvalidSelection("", 2).message("sum", "Tensor[float32, 2, 3]")
    assert "rank at least 2" in InvalidSelection("^", 2, rank_is_minimum=True).message("sum", "Tensor[float32, B, *Ts, C]")


@pytest.mark.parametrize(
    ("op", "dtype", "expected"),
    [
        ("sum", "floating", "floating"),
        ("sum", "signedinteger", "signedinteger"),
        ("prod", "unsignedinteger", "unsignedinteger"),
        ("mean", "integer", "float64"),
        ("mean", "signedinteger", "float64"),
        ("mean", "unsignedinteger", "float64"),
        ("mean", "number", "number"),
        ("any", "generic", "bool_"),
        ("max", "integer", "integer"),
    ],
)
def test_result_dtype_of_categories(op: str, dtype: str, expected: str) -> None:
    assert result_dtype(op, dtype) == expected
