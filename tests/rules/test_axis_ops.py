"""The rules of the axis ops, indexing and creation: on symbolic dims, and with ints against numpy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

from typedtensor._shape_rules import (
    INT_DIMS,
    UNKNOWN,
    ArrayIndex,
    AxisOutOfRange,
    BroadcastMismatch,
    Dims,
    IndexOutOfRange,
    MaskMismatch,
    Problem,
    RankMismatch,
    SeveralEllipses,
    Shape,
    TooManyIndices,
    ZeroStep,
    arange_shape,
    argextreme_shape,
    axis_problem,
    eye_shape,
    index_shape,
    join_shapes,
    take_along_axis_shape,
    take_shape,
)

pytestmark = pytest.mark.floors

# Symbolic dims: "N" and "M" are named dims, digits literal sizes; "*Ts" names a run.
SYMBOLIC = Dims[str](lambda dim: int(dim) if dim.lstrip("-").isdigit() else None, str)
RUN = Shape(("2",), "*Ts", ("5",))
ANY_RUN = Shape((), UNKNOWN)


@pytest.mark.parametrize(
    ("parts", "expected"),
    [
        ([Shape(("1",)), Shape(("N", "3"))], Shape(("1", "N", "3"))),
        ([Shape(("1",)), RUN, Shape(("3",))], Shape(("1", "2"), "*Ts", ("5", "3"))),
        ([RUN, Shape(("N",)), RUN], Shape(("2",), UNKNOWN, ("5",))),  # between two runs: unknown
        ([], Shape(())),
    ],
)
def test_join_shapes(parts: list[Shape[str, str]], expected: Shape[str, str]) -> None:
    assert join_shapes(parts) == expected


@pytest.mark.parametrize(
    ("shape", "items", "expected"),
    [
        (Shape(("3", "4")), [0], Shape(("4",))),
        (Shape(("3", "4")), [-1, slice(1, 3)], Shape(("2",))),
        (Shape(("3", "4")), [None, Ellipsis, slice(None, None, -1)], Shape(("1", "3", "4"))),
        (Shape(("N", "4")), [slice(None)], Shape(("N", "4"))),  # a full slice keeps a named dim
        (Shape(("N", "4")), [slice(None, None, -1), 2], Shape(("N",))),
        (Shape(("N", "4")), [slice(1, None)], Shape((UNKNOWN, "4"))),
        (Shape(("N", "4")), [slice(UNKNOWN, 2)], Shape((UNKNOWN, "4"))),
        (Shape(("3", "4")), [slice(None, None, 0)], Shape((UNKNOWN, "4"))),  # the runtime refuses it
        (Shape(("N", "4")), [7], Shape(("4",))),  # N has no size to check 7 against
        (Shape(("N", "4")), [UNKNOWN, UNKNOWN], Shape(())),
        (Shape(("3", "4")), [ArrayIndex(Shape(("5", "M")), False)], Shape(("5", "M", "4"))),
        (Shape(("3", "4")), [slice(None), ArrayIndex(RUN, False)], Shape(("3", "2"), "*Ts", ("5",))),
        (Shape(("3", "4")), [ArrayIndex(Shape(("3", "4")), True)], Shape((UNKNOWN,))),
        (Shape(("3", "4")), [ArrayIndex(Shape(("N",)), True), None], Shape((UNKNOWN, "1", "4"))),
        (Shape(("3", "4")), [ArrayIndex(Shape(("0",)), True)], Shape((UNKNOWN, "4"))),  # numpy takes an empty mask
        (Shape(("3", "4")), [ArrayIndex(Shape(("5",)), False), 0], ANY_RUN),  # numpy may move them
        (Shape(("3", "4")), [ArrayIndex(RUN, True)], ANY_RUN),  # a mask of unknown rank
        # An index array of unknown dtype may be a mask or integers: of rank 1 it takes one dim.
        (Shape(("3", "4")), [ArrayIndex(Shape(("5",)), UNKNOWN)], Shape((UNKNOWN, "4"))),
        (Shape(("3", "N", "4")), [slice(None), ArrayIndex(Shape(("5", "2")), UNKNOWN)], Shape(("3",), UNKNOWN)),
        (Shape(("3", "N", "4")), [0, Ellipsis, ArrayIndex(ANY_RUN, UNKNOWN)], ANY_RUN),  # two advanced indices
        (Shape(("3", "N", "4")), [slice(0, 2), ArrayIndex(ANY_RUN, UNKNOWN), Ellipsis, None], Shape(("2",), UNKNOWN, ("1",))),
        (RUN, [0], Shape((), "*Ts", ("5",))),
        (RUN, [Ellipsis, 4], Shape(("2",), "*Ts", ())),
        (RUN, [None, 1, Ellipsis, None, slice(0, 2)], Shape(("1",), "*Ts", ("1", "2"))),
        (RUN, [0, 9], ANY_RUN),  # 9 lands in Ts or on the 5: unknown, and no error
        (RUN, [Ellipsis, 9, 0], Shape((), UNKNOWN, ())),
        (RUN, [1, 9, Ellipsis, 0], Shape((), UNKNOWN, ())),
        (ANY_RUN, [None, Ellipsis, 0], Shape(("1",), UNKNOWN)),
    ],
)
def test_index_shape_symbolic(shape: Shape[str, str], items: list[Any], expected: Shape[str, str]) -> None:
    assert index_shape(shape, items, SYMBOLIC) == expected


@given(st.lists(st.integers(0, 3), min_size=1, max_size=3), st.lists(st.integers(1, 3), max_size=2), st.integers(0, 2), st.data())
def test_an_index_array_of_unknown_dtype_fits_both_readings(shape: list[int], index_shape_: list[int], position: int, data: st.DataObject) -> None:
    """Whether the array holds ints or bools, numpy's result has the dims the rule knows."""
    position = min(position, len(shape) - 1)
    items: list[Any] = [slice(None)] * position
    rule = index_shape(Shape(tuple(shape)), [*items, ArrayIndex(Shape(tuple(index_shape_)), UNKNOWN)], INT_DIMS)
    array = np.zeros(shape)
    for index in (data.draw(hnp.arrays(np.int64, tuple(index_shape_), elements=st.integers(0, 0))), data.draw(hnp.arrays(np.bool_, tuple(index_shape_)))):
        try:
            result = array[(*items, index)].shape
        except IndexError:
            continue  # refused at run time: whatever the rule says
        assert not isinstance(rule, Problem)
        assert _fits(rule, result), (rule, result)


def _fits(shape: Shape[int, Any], sizes: tuple[int, ...]) -> bool:
    """Whether ``sizes`` has every dim ``shape`` knows (an unknown dim fits any size)."""
    if shape.variadic is None and len(sizes) != len(shape.prefix):
        return False
    if len(sizes) < len(shape.prefix) + len(shape.suffix):
        return False
    known = zip([*shape.prefix, *shape.suffix], [*sizes[: len(shape.prefix)], *sizes[len(sizes) - len(shape.suffix) :]])
    return all(dim is UNKNOWN or dim == size for dim, size in known)


@pytest.mark.parametrize(
    ("shape", "items", "problem"),
    [
        (Shape(("3", "4")), [3], IndexOutOfRange(3, 0, 3)),
        (Shape(("3", "4")), [Ellipsis, -5], IndexOutOfRange(-5, 1, 4)),
        (Shape(("3", "4")), [0, 0, 0], TooManyIndices(3, 2)),
        (Shape(("N",)), [ArrayIndex(Shape(("2", "2")), True)], TooManyIndices(2, 1)),
        (Shape(()), [0], TooManyIndices(1, 0)),
        (Shape(("3", "4")), [Ellipsis, 0, Ellipsis], SeveralEllipses(2)),
        (Shape(("3", "4")), [slice(None), ArrayIndex(Shape(("5",)), True)], MaskMismatch(1, 4, 5)),
        (RUN, [2], IndexOutOfRange(2, 0, 2)),
        (RUN, [Ellipsis, -6], IndexOutOfRange(-6, -1, 5)),  # counted from the end after a run
    ],
)
def test_index_problems(shape: Shape[str, str], items: list[Any], problem: Problem) -> None:
    assert index_shape(shape, items, SYMBOLIC) == problem


@pytest.mark.parametrize(
    ("problem", "message"),
    [
        (IndexOutOfRange(3, 0, 3), 'Index 3 is out of range for axis 0 of size 3 in "index" on T (valid indices are -3 to 2)'),
        (IndexOutOfRange(0, None, 0), 'Index 0 is out of range for the flattened tensor of size 0 in "index" on T (an empty dim has no valid index)'),
        (TooManyIndices(1, 0), 'Too many indices for "index" on T: 1 index for 0 dims'),
        (TooManyIndices(3, 1), 'Too many indices for "index" on T: 3 indices for 1 dim'),
        (SeveralEllipses(2), 'An index may hold one ellipsis ("..."), got 2 in "index" on T'),
        (MaskMismatch(1, 4, 5), 'Boolean index of size 5 does not match axis 1 of size 4 in "index" on T'),
    ],
)
def test_index_messages(problem: Problem, message: str) -> None:
    assert problem.message("index", ["T"]) == message


@pytest.mark.parametrize(
    ("shape", "axis", "keepdims", "expected"),
    [
        (Shape(("N", "3")), -1, False, Shape(("N",))),
        (Shape(("N", "3")), 0, True, Shape(("1", "3"))),
        (Shape(("N", "3")), 2, False, AxisOutOfRange((2,), 2)),
        (Shape(()), -1, False, AxisOutOfRange((-1,), 0)),
        (Shape(("N", "3")), UNKNOWN, False, Shape((UNKNOWN,))),
        (RUN, -1, True, Shape(("2",), "*Ts", ("1",))),
        (RUN, 5, False, Shape(("2",), UNKNOWN)),
    ],
)
def test_argextreme_shape(shape: Shape[str, str], axis: Any, keepdims: bool, expected: object) -> None:
    assert argextreme_shape(shape, axis, keepdims, "1") == expected


def test_axis_problem_only_where_the_rank_is_known() -> None:
    assert axis_problem(Shape(("N", "3")), -3) == AxisOutOfRange((-3,), 2)
    assert axis_problem(Shape(("N", "3")), -2) is None
    assert axis_problem(RUN, 99) is None and axis_problem(Shape(("N",)), UNKNOWN) is None


@pytest.mark.parametrize(
    ("shape", "indices", "axis", "expected"),
    [
        (Shape(("N", "3", "4")), Shape(("5", "M")), 1, Shape(("N", "5", "M", "4"))),
        (Shape(("N", "3")), Shape(()), -1, Shape(("N",))),
        (Shape(("N", "3")), Shape(("5",)), None, Shape(("5",))),
        (Shape(("N", "3")), RUN, 0, Shape(("2",), "*Ts", ("5", "3"))),
        (Shape(("N", "3")), Shape(("5",)), 2, AxisOutOfRange((2,), 2)),
        (Shape(("N", "3")), Shape(("5", "6")), UNKNOWN, Shape((UNKNOWN,) * 3)),
        (RUN, Shape(("7",)), 0, Shape(("7",), "*Ts", ("5",))),
        (RUN, Shape(("7",)), -1, Shape(("2",), "*Ts", ("7",))),
        (RUN, Shape(("7",)), 1, ANY_RUN),
    ],
)
def test_take_shape(shape: Shape[str, str], indices: Shape[str, str], axis: Any, expected: object) -> None:
    assert take_shape(shape, indices, axis) == expected


@pytest.mark.parametrize(
    ("shape", "indices", "axis", "expected"),
    [
        (Shape(("N", "3")), Shape(("N", "1")), 1, Shape(("N", "1"))),
        (Shape(("N", "3")), Shape(("1", "7")), -1, Shape(("N", "7"))),
        (Shape(("N", "3")), Shape(("M", "1")), 0, Shape(("M", "3"))),  # at the axis: the index's dim
        (Shape(("N", "3")), Shape(("4", "5")), 0, BroadcastMismatch((3, 5), -1)),
        (Shape(("N", "3")), Shape(("5",)), 0, RankMismatch(2, 1)),
        (Shape(("N", "3")), Shape(("N", "3")), -3, AxisOutOfRange((-3,), 2)),
        (RUN, RUN, 0, RUN),
        (RUN, Shape(("2", "5")), 0, ANY_RUN),
    ],
)
def test_take_along_axis_shape(shape: Shape[str, str], indices: Shape[str, str], axis: Any, expected: object) -> None:
    assert take_along_axis_shape(shape, indices, axis, SYMBOLIC) == expected


@pytest.mark.parametrize(
    ("start", "stop", "step", "expected"),
    [
        ("5", None, None, Shape(("5",))),
        ("N", None, None, Shape(("N",))),  # arange(x.shape[0]): positions along N
        ("2", "11", "3", Shape(("3",))),
        ("5", "0", "-2", Shape(("3",))),
        ("-3", None, None, Shape(("0",))),
        ("0", "N", None, Shape(("N",))),
        ("1", "N", None, Shape((UNKNOWN,))),
        (UNKNOWN, "5", "1", Shape((UNKNOWN,))),
        ("0", "5", "0", ZeroStep()),
    ],
)
def test_arange_shape(start: Any, stop: Any, step: Any, expected: object) -> None:
    assert arange_shape(start, stop, step, SYMBOLIC) == expected


def test_eye_shape() -> None:
    assert eye_shape("N", None) == Shape(("N", "N"))
    assert eye_shape("3", "N") == Shape(("3", "N"))


@given(st.integers(-20, 20), st.one_of(st.none(), st.integers(-20, 20)), st.integers(-5, 5))
def test_arange_with_ints_is_numpys_length(start: int, stop: int | None, step: int) -> None:
    got = arange_shape(start, stop, step, INT_DIMS)
    if step == 0:
        assert got == ZeroStep()
    else:
        assert got == Shape(np.arange(start, stop, step).shape)  # numpy's arange(n, None, step) counts to n too


@given(hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4), hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3), st.data())
def test_take_shape_with_ints_is_numpys(shape: tuple[int, ...], indices: tuple[int, ...], data: st.DataObject) -> None:
    axis = data.draw(st.one_of(st.none(), st.integers(-len(shape) - 1, len(shape))))
    if 0 in shape:
        indices = (*indices, 0)  # numpy takes nothing from an empty tensor, but takes no indices
    got = take_shape(Shape[int, None](shape), Shape(indices), axis)
    if shape == () and axis is not None:
        assert isinstance(got, AxisOutOfRange)  # as the reductions: a rank-0 tensor has no axes (numpy takes 0 and -1)
        return
    try:
        expected = np.take(np.zeros(shape), np.zeros(indices, np.intp), axis=axis).shape
    except np.exceptions.AxisError:
        assert isinstance(got, AxisOutOfRange)
        return
    assert got == Shape(expected)
