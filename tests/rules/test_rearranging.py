"""The rules of swapaxes, moveaxis, flatten, split, pad, tril/triu, one_hot and the counts, on
named dims (strings, with SPEC §9's normal forms) and runs, and on every binding of the named
dims against numpy's shapes: a result the rule gives holds for each binding that runs, and a
problem it reports fails for some binding."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from typedtensor._shape_rules import (
    INT_DIMS,
    UNKNOWN,
    Dims,
    Polynomial,
    Problem,
    Shape,
    evaluate,
    expression_text,
    flatten_shape,
    matrix_kept_shape,
    moveaxis_shape,
    normal_form,
    one_hot_dtype_problem,
    one_hot_shape,
    pad_shape,
    parse_expression,
    split_shapes,
    swapaxes_shape,
)

U = UNKNOWN


def _form(dim: str) -> Polynomial:
    return normal_form(parse_expression(dim))


def _name(dim: str) -> str | None:
    return None if dim.lstrip("-").isdigit() else dim


NAMED = Dims[str](lambda dim: int(dim) if dim.lstrip("-").isdigit() else None, str, _name, _form, expression_text)
ENDS: Shape[str, str] = Shape(("B",), "*Ts", ("C", "D"))  # Tensor[DT, B, *Ts, C, D]


def test_swapaxes_on_named_dims_and_runs() -> None:
    assert swapaxes_shape(Shape(("B", "T", "C")), 0, -1) == Shape(("C", "T", "B"))
    assert swapaxes_shape(ENDS, 0, -1) == Shape(("D",), "*Ts", ("C", "B"))
    assert swapaxes_shape(ENDS, -1, -2) == Shape(("B",), "*Ts", ("D", "C"))
    assert swapaxes_shape(ENDS, 1, -1) == Shape((), U)  # axis 1 is in the run, or C
    assert swapaxes_shape(Shape(("B", "T")), U, 0) == Shape((U, U))
    assert isinstance(swapaxes_shape(Shape(("B", "T")), 0, 2), Problem)


def test_moveaxis_on_named_dims() -> None:
    assert moveaxis_shape(Shape(("B", "T", "C")), (0,), (-1,)) == Shape(("T", "C", "B"))
    assert moveaxis_shape(ENDS, (0,), (-1,)) == Shape((), U)
    problems = [moveaxis_shape(Shape(("B", "T")), source, destination) for source, destination in [((0,), (0, 1)), ((0, 0), (0, 1)), ((0, 1), (1, 1)), ((2,), (0,))]]
    assert [problem.code for problem in problems if isinstance(problem, Problem)] == ["tensor-axis"] * 4


def test_flatten_merges_into_a_normal_form() -> None:
    assert flatten_shape(Shape(("B", "T", "C")), 0, 1, NAMED) == Shape(("B*T", "C"))
    assert flatten_shape(Shape(("B", "2", "T")), 0, -1, NAMED) == Shape(("2*B*T",))
    assert flatten_shape(Shape(("B", "0", U)), 0, -1, NAMED) == Shape(("0",))
    assert flatten_shape(Shape(("B", U)), 0, -1, NAMED) == Shape((U,))
    assert flatten_shape(ENDS, 0, -2, NAMED) == Shape((U, "D"))  # B, the run and C merged
    assert flatten_shape(ENDS, 1, -1, NAMED) == Shape((), U)  # axis 1 is in the run, or C
    assert flatten_shape(ENDS, -2, -1, NAMED) == Shape(("B",), "*Ts", ("C*D",))
    assert flatten_shape(Shape(()), 0, -1, NAMED) == Shape(("1",))
    # Axis 0 is the first dim and -1 the last, wherever a run begins or ends: the result's rank is known.
    assert flatten_shape(Shape((), "*Ts"), 0, -1, NAMED) == Shape((U,))
    assert flatten_shape(Shape((), "*Ts", ("C", "D")), 0, -2, NAMED) == Shape((U, "D"))
    assert flatten_shape(Shape(("B", "C"), "*Ts"), 1, -1, NAMED) == Shape(("B", U))
    assert isinstance(flatten_shape(Shape(("B", "T")), 1, 0, NAMED), Problem)


def test_split_parts_are_quotients_or_the_sizes_given() -> None:
    assert split_shapes(Shape(("B", "3")), 2, 0, NAMED) == (Shape(("B//2", "3")),) * 2
    assert split_shapes(Shape(("2*B",)), 2, 0, NAMED) == (Shape(("B",)),) * 2
    assert split_shapes(Shape(("B",)), 1, 0, NAMED) == (Shape(("B",)),)
    assert split_shapes(Shape(("B",), "*Ts", ("3",)), ("1", "2"), -1, NAMED) == (Shape(("B",), "*Ts", ("1",)), Shape(("B",), "*Ts", ("2",)))
    assert split_shapes(Shape(("B", "T")), U, 0, NAMED) == Shape((), U)
    named_sizes = split_shapes(Shape(("B",)), ("1", "2"), 0, NAMED)
    assert isinstance(named_sizes, Problem) and named_sizes.code == "tensor-dim"
    assert named_sizes.message("split", ["Tensor[float32, B]", "(1, 2)"]) == (
        'Cannot split Tensor[float32, B] into (1, 2) for "split": the sizes sum to 3, and B at axis 0 may differ: B is a named dim'
    )
    assert split_shapes(Shape(("B",)), ("1", U), 0, NAMED) == (Shape(("1",)), Shape((U,)))


def test_pad_adds_the_widths() -> None:
    assert pad_shape(Shape(("B", "3")), ((1, 2),), NAMED) == Shape(("B+3", "6"))
    assert pad_shape(Shape(("B", "3")), ((0, 0), (U, 1)), NAMED) == Shape(("B", U))
    assert pad_shape(ENDS, ((1, 1),), NAMED) == Shape(("B+2",), U, ("C+2", "D+2"))
    assert isinstance(pad_shape(Shape(("B", "3")), ((1, 1), (1, 1), (1, 1)), NAMED), Problem)
    assert isinstance(pad_shape(Shape(("B",)), ((-1, 1),), NAMED), Problem)


def test_one_hot_and_triangles() -> None:
    assert one_hot_shape(ENDS, "N", NAMED) == Shape(("B",), "*Ts", ("C", "D", "N"))
    assert isinstance(one_hot_shape(Shape(("B",)), "-1", NAMED), Problem)
    assert one_hot_dtype_problem("int8") is None and one_hot_dtype_problem("generic") is None
    assert [problem.code for problem in (one_hot_dtype_problem("floating"), one_hot_dtype_problem("bool_")) if problem] == ["tensor-dtype"] * 2
    assert matrix_kept_shape(ENDS) == ENDS and isinstance(matrix_kept_shape(Shape(("B",))), Problem)


# --- every binding of the named dims against numpy ------------------------------------------

NAMES = ("A", "B")
SIZES = (0, 1, 2, 3, 4, 7)
dims = st.sampled_from(["1", "2", "3", "0", "A", "A", "B"])
named_shapes = st.lists(dims, min_size=1, max_size=3).map(tuple)


def _bindings() -> list[dict[str, int]]:
    return [dict(zip(NAMES, sizes)) for sizes in itertools.product(SIZES, repeat=len(NAMES))]


def _sizes(shape: tuple[str, ...], binding: dict[str, int]) -> tuple[int, ...] | None:
    """The sizes of ``shape`` under ``binding``; None where a claimed division is not exact."""
    try:
        return tuple(evaluate(_form(dim), binding) for dim in shape)
    except ArithmeticError:
        return None


def _numpy_shapes(run: Any) -> tuple[tuple[int, ...], ...] | None:
    try:
        outcome = run()
    except (ValueError, IndexError):
        return None
    return tuple(part.shape for part in outcome) if isinstance(outcome, list) else (outcome.shape,)


def check(outcome: Any, shape: tuple[str, ...], run: Any) -> None:
    """The rule's outcome on ``shape`` against numpy's (``run`` on an array) under every binding."""
    failures = 0
    for binding in _bindings():
        sizes = _sizes(shape, binding)
        assert sizes is not None
        expected = _numpy_shapes(lambda: run(np.zeros(sizes)))
        if isinstance(outcome, Problem):
            failures += expected is None
            continue
        parts = outcome if isinstance(outcome, tuple) else (outcome,)
        got = tuple(_sizes(part.prefix, binding) for part in parts)
        if None in got:
            assert expected is None  # the run's check of a claimed division
        else:
            assert got == expected, (shape, binding)
    if isinstance(outcome, Problem):
        assert failures, (shape, outcome)


def _torch_split(array: Any, sizes: tuple[int, ...], axis: int) -> list[Any]:
    """numpy's split at the cumulative sizes, which must sum to the dim."""
    if sum(sizes) != array.shape[axis]:
        raise ValueError("the sizes do not sum to the dim")
    return np.split(array, list(itertools.accumulate(sizes))[:-1], axis=axis)


@settings(max_examples=60, deadline=None)
@given(named_shapes, st.data())
def test_every_rule_holds_for_every_binding(shape: tuple[str, ...], data: st.DataObject) -> None:
    rank = len(shape)
    axis = data.draw(st.integers(-rank, rank - 1))
    other = data.draw(st.integers(-rank, rank - 1))
    count = data.draw(st.integers(1, 3))
    sizes = tuple(data.draw(st.lists(st.integers(0, 3), min_size=1, max_size=3)))
    widths = ((data.draw(st.integers(0, 2)), data.draw(st.integers(0, 2))),)
    check(swapaxes_shape(Shape(shape), axis, other), shape, lambda array: np.swapaxes(array, axis, other))
    check(moveaxis_shape(Shape(shape), (axis,), (other,)), shape, lambda array: np.moveaxis(array, axis, other))
    check(flatten_shape(Shape(shape), axis, other, NAMED), shape, lambda array: _flatten(array, axis, other))
    check(split_shapes(Shape(shape), count, axis, NAMED), shape, lambda array: np.split(array, count, axis=axis))
    check(split_shapes(Shape(shape), tuple(map(str, sizes)), axis, NAMED), shape, lambda array: _torch_split(array, sizes, axis))
    check(pad_shape(Shape(shape), widths, NAMED), shape, lambda array: np.pad(array, widths))
    check(matrix_kept_shape(Shape(shape)), shape, _tril)


def _flatten(array: Any, start: int, end: int) -> Any:
    first, last = start % array.ndim, end % array.ndim
    if first > last:
        raise ValueError("start after end")
    return array.reshape(array.shape[:first] + (int(np.prod(array.shape[first : last + 1])),) + array.shape[last + 1 :])


def _tril(array: Any) -> Any:
    if array.ndim < 2:
        raise ValueError("tril of fewer than 2 dims")  # numpy's tril takes a 1-D array as a row
    return np.tril(array)


@pytest.mark.parametrize("shape", [(2, 3), (0, 4), (1,), ()])
def test_the_runtime_dims_are_numpys(shape: tuple[int, ...]) -> None:
    array = np.zeros(shape)
    assert flatten_shape(Shape(shape), 0, -1, INT_DIMS) == Shape((array.size,))
    assert one_hot_shape(Shape(shape), 5, INT_DIMS) == Shape((*shape, 5))
