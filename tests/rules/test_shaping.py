"""The shaping and matmul rules: on ints against numpy itself, and their symbolic cases.

Symbolic dims are strings: digits are literal sizes, other names named dims (``"B"``), as the
mypy plugin's ``Literal[n]`` and ``Dim`` classes are.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

from typedtensor._shape_rules import (
    INT_DIMS,
    UNKNOWN,
    BatchDimsDiffer,
    Dims,
    InnerDimsDiffer,
    Problem,
    Shape,
    broadcast_to_shape,
    concat_shape,
    expand_dims_shape,
    expression_text,
    matmul_shape,
    normal_form,
    parse_expression,
    permute_shape,
    reshape_shape,
    squeeze_shape,
    stack_shape,
    tile_shape,
)
from typedtensor._shape_rules.joins import JoinedSizesDiffer, NothingToJoin, RanksDiffer
from typedtensor._shape_rules.matmul import RankZeroOperand
from typedtensor._shape_rules.reductions import AxisOutOfRange
from typedtensor._shape_rules.reshaping import (
    CountsDiffer,
    InferredBesideZero,
    MoreDimsThanTarget,
    NegativeRepetition,
    NegativeSize,
    NotAMultiple,
    NotAPermutation,
    NotSizeOne,
    SeveralInferred,
    SizeNotBroadcast,
)

pytestmark = pytest.mark.floors

SYMBOLIC = Dims[str](
    lambda dim: int(dim) if dim.lstrip("-").isdigit() else None, str, form=lambda dim: normal_form(parse_expression(dim)), spell=expression_text
)
shapes = hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=3)


def numpy_shape(function: Any, *arrays: Any, **arguments: Any) -> tuple[int, ...] | None:
    """The shape numpy's ``function`` gives, or None where numpy raises."""
    try:
        return tuple(function(*arrays, **arguments).shape)
    except (ValueError, IndexError, TypeError):
        return None


def agrees(rule_result: Shape[int, Any] | Problem, expected: tuple[int, ...] | None) -> bool:
    return isinstance(rule_result, Problem) if expected is None else rule_result == Shape(expected)


# ---- matmul -----------------------------------------------------------------------------------


@st.composite
def matmul_operands(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...], bool, bool]:
    side = st.integers(0, 3)
    inner = draw(side)
    batch = draw(st.lists(st.integers(0, 3), max_size=2))
    a = (*[draw(st.sampled_from([size, 1])) for size in batch], draw(side), inner)
    b = (*batch[draw(st.integers(0, len(batch))) :], inner, draw(side))
    if draw(st.booleans()):
        a = a[-1:]  # 1-D
    if draw(st.booleans()):
        b = b[-2:-1]
    if draw(st.booleans()):  # often a mismatch, sometimes not
        a, b = draw(shapes), draw(shapes)
    return a, b, draw(st.booleans()), draw(st.booleans())


@given(matmul_operands())
def test_matmul_agrees_with_numpy(operands: tuple[tuple[int, ...], tuple[int, ...], bool, bool]) -> None:
    a, b, transpose_a, transpose_b = operands
    left, right = np.zeros(a), np.zeros(b)
    if transpose_a and left.ndim > 1:
        left = np.swapaxes(left, -1, -2)
    if transpose_b and right.ndim > 1:
        right = np.swapaxes(right, -1, -2)
    expected = numpy_shape(np.matmul, left, right)
    assert agrees(matmul_shape(Shape(a), Shape(b), transpose_a, transpose_b, INT_DIMS), expected)


@pytest.mark.parametrize(
    ("a", "b", "flags", "expected"),
    [
        (("N", "784"), ("784", "10"), (False, False), Shape(("N", "10"))),
        (("N", "K"), ("K", "M"), (False, False), Shape(("N", "M"))),
        (("N", "K"), ("M", "K"), (False, True), Shape(("N", "M"))),
        (("K", "N"), ("K", "M"), (True, False), Shape(("N", "M"))),
        (("K",), ("K", "M"), (True, False), Shape(("M",))),  # a 1-D operand: a transpose changes nothing
        (("B", "N", "K"), ("K",), (False, False), Shape(("B", "N"))),
        (("N", "K"), ("J", "M"), (False, False), Shape(("N", "M"))),  # K and J may be equal
        (("32", "784"), ("10", "784"), (False, False), InnerDimsDiffer((784, 10))),
        (("32", "784"), ("10", "784"), (True, UNKNOWN), InnerDimsDiffer((32, 10), (True, False))),  # fails either way
        (("2", "N", "3"), ("5", "3", "M"), (False, False), BatchDimsDiffer((2, 5), -3)),
        (("B", "N", "3"), ("5", "3", "M"), (False, False), Shape(("5", "N", "M"))),
        ((), ("3",), (False, False), RankZeroOperand(0)),
        (("3", "3"), ("3", "4"), (UNKNOWN, False), Shape(("3", "4"))),  # either flag gives it
        (("3", "4"), ("4", "4"), (UNKNOWN, False), Shape(("3", "4"))),  # only False can run
        (("2", "3"), ("3", "4"), (UNKNOWN, UNKNOWN), Shape(("2", "4"))),
        (("4", "4"), ("4", "N"), (False, UNKNOWN), Shape(("4", UNKNOWN))),
    ],
)
def test_matmul_symbolic(a: tuple[str, ...], b: tuple[str, ...], flags: tuple[Any, Any], expected: object) -> None:
    assert matmul_shape(Shape(a), Shape(b), *flags, SYMBOLIC) == expected


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        (Shape((), "*Ts", ("784",)), Shape(("784", "10")), Shape((), "*Ts", ("10",))),  # 1-D or batched: same answer
        (Shape((), "*Ts", ("N", "K")), Shape(("B", "K", "M")), Shape((), UNKNOWN, ("N", "M"))),
        (Shape((), "*Ts", ("N", "K")), Shape((), "*Ts", ("K", "M")), Shape((), "*Ts", ("N", "M"))),
        (Shape((), "*Ts", ("3",)), Shape(("4", "10")), InnerDimsDiffer((3, 4))),
        (Shape((), "*Ts", ("3",)), Shape((), UNKNOWN, ("4",)), Shape((), UNKNOWN)),  # where is b's K?
        (Shape((), UNKNOWN), Shape(("3", "4")), Shape((), UNKNOWN)),
        (Shape(("N", "K")), Shape((), "*Ts", ("K", "M")), Shape((), "*Ts", ("N", "M"))),
    ],
)
def test_matmul_runs(a: Shape[str, str], b: Shape[str, str], expected: object) -> None:
    assert matmul_shape(a, b, False, False, SYMBOLIC) == expected


# ---- reshape ----------------------------------------------------------------------------------


@st.composite
def reshapes(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...]]:
    shape = draw(shapes)
    target = list(draw(shapes)) if draw(st.booleans()) else list(np.zeros(shape).reshape(-1, *draw(st.sampled_from([(), (1,)]))).shape)
    for _ in range(draw(st.integers(0, 2))):
        if target:
            target[draw(st.integers(0, len(target) - 1))] = -1
    return shape, tuple(target)


@given(reshapes())
def test_reshape_agrees_with_numpy(case: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
    shape, target = case
    assert agrees(reshape_shape(Shape(shape), target, INT_DIMS), numpy_shape(np.reshape, np.zeros(shape), target))


@pytest.mark.parametrize(
    ("shape", "target", "expected"),
    [
        (("B", "28", "28"), ("B", "-1"), Shape(("B", "784"))),
        (("B", "28", "28"), ("-1", "784"), Shape(("B", "784"))),
        (("B", "28", "28"), ("-1", "28"), Shape(("28*B", "28"))),
        (("B", "28", "28"), ("C", "-1"), Shape(("C", UNKNOWN))),
        (("B", "28", "28"), ("B", "700"), Shape(("B", "700"))),  # runs if B is 0: never an error
        (("B", "6"), (UNKNOWN, "-1"), Shape((UNKNOWN, UNKNOWN))),
        (("6", "4"), ("5", "5"), CountsDiffer(24, 25)),
        (("6", "4"), ("-1", "5"), NotAMultiple(24, 5)),
        (("6", "4"), ("-1", "-1"), SeveralInferred(2)),
        (("6", "4"), ("-2", "12"), NegativeSize(-2)),  # numpy takes -2 for -1; the array API does not
        (("0", "4"), ("0", "-1"), InferredBesideZero()),
        (("B",), ("-1", "0"), InferredBesideZero()),
        (("0", "4"), ("-1", "2"), Shape(("0", "2"))),
        (("B", "T", "C"), ("-1", "C"), Shape(("B*T", "C"))),  # tokens flattened (SPEC §9)
        (("B*T", "C"), ("B", "T", "C"), Shape(("B", "T", "C"))),
        (("B", "T", "C"), ("B", "T", "4", "C//4"), Shape(("B", "T", "4", "C//4"))),  # the code's // is a claim
        (("N", "M"), ("2", "N//2", "M"), Shape(("2", "N//2", "M"))),
        (("2", "N//2", "M"), ("-1",), Shape(("M*N",))),  # the claim taken at its word
        (("B", "T", "C"), ("B", "T", "4", "-1"), Shape(("B", "T", "4", UNKNOWN))),  # C/4 is not exact: unknown
    ],
)
def test_reshape_symbolic(shape: tuple[str, ...], target: tuple[Any, ...], expected: object) -> None:
    assert reshape_shape(Shape(shape), target, SYMBOLIC) == expected


def test_reshape_of_a_run_keeps_the_target_and_solves_nothing() -> None:
    assert reshape_shape(Shape((), "*Ts", ("3",)), ("-1", "3"), SYMBOLIC) == Shape((UNKNOWN, "3"))
    assert reshape_shape(Shape((), "*Ts"), ("2", "3"), SYMBOLIC) == Shape(("2", "3"))
    assert reshape_shape(Shape(("2", "3")), UNKNOWN, SYMBOLIC) == Shape((), UNKNOWN)  # a target of unknown length


# ---- transpose, expand_dims, squeeze ----------------------------------------------------------


@given(shapes, st.data())
def test_permute_agrees_with_numpy(shape: tuple[int, ...], data: st.DataObject) -> None:
    rank = len(shape)
    axes = data.draw(st.none() | st.permutations(range(rank)).map(tuple) | st.lists(st.integers(-rank - 1, rank), max_size=rank + 1).map(tuple))
    if axes is not None and rank:
        axes = tuple(axis - rank if data.draw(st.booleans()) and 0 <= axis < rank else axis for axis in axes)
    expected = numpy_shape(np.transpose, np.zeros(shape), axes)
    assert agrees(permute_shape(Shape[int, Any](shape), axes), expected)


@pytest.mark.parametrize(
    ("shape", "axes", "expected"),
    [
        (Shape(("B", "3")), None, Shape(("3", "B"))),
        (Shape(("B",), "*Ts", ("3",)), None, Shape(("3",), UNKNOWN, ("B",))),
        (Shape(("B", "3", "4")), (2, UNKNOWN, UNKNOWN), Shape(("4", UNKNOWN, UNKNOWN))),
        (Shape(("B", "3")), UNKNOWN, Shape((UNKNOWN, UNKNOWN))),
        (Shape(("B", "3")), (0, 2), AxisOutOfRange((2,), 2)),
        (Shape(("B", "3")), (0, -2), NotAPermutation((0, -2), 2)),
        (Shape(("B", "3")), (0,), NotAPermutation((0,), 2)),
        (Shape(("B",), "*Ts", ("3",)), (2, 1, 0), Shape(("3", UNKNOWN, "B"))),  # three axes: the run has one dim
        (Shape(("B",), "*Ts", ("3",)), (0,), NotAPermutation((0,), 2, rank_is_minimum=True)),
    ],
)
def test_permute_symbolic(shape: Shape[str, str], axes: Any, expected: object) -> None:
    assert permute_shape(shape, axes) == expected


@given(shapes, st.integers(-6, 6))
def test_expand_dims_agrees_with_numpy(shape: tuple[int, ...], axis: int) -> None:
    expected = numpy_shape(np.expand_dims, np.zeros(shape), axis)
    assert agrees(expand_dims_shape(Shape(shape), axis, INT_DIMS), expected)


@pytest.mark.parametrize(
    ("shape", "axis", "expected"),
    [
        (Shape(("B", "3")), -1, Shape(("B", "3", "1"))),
        (Shape(("B", "3")), -3, Shape(("1", "B", "3"))),
        (Shape(("B", "3")), 3, AxisOutOfRange((3,), 3)),
        (Shape(()), -2, AxisOutOfRange((-2,), 1)),
        (Shape(("B",), "*Ts", ("3",)), 1, Shape(("B", "1"), "*Ts", ("3",))),
        (Shape(("B",), "*Ts", ("3",)), -2, Shape(("B",), "*Ts", ("1", "3"))),
        (Shape(("B",), "*Ts", ("3",)), 2, Shape(("B",), UNKNOWN, ())),
        (Shape(("B",), "*Ts", ("3",)), -3, Shape((), UNKNOWN, ("3",))),
        (Shape(("B", "3")), UNKNOWN, Shape((UNKNOWN, UNKNOWN, UNKNOWN))),
    ],
)
def test_expand_dims_symbolic(shape: Shape[str, str], axis: Any, expected: object) -> None:
    assert expand_dims_shape(shape, axis, SYMBOLIC) == expected


@given(hnp.array_shapes(min_dims=0, max_dims=4, min_side=1, max_side=2), st.data())
def test_squeeze_agrees_with_numpy(shape: tuple[int, ...], data: st.DataObject) -> None:
    rank = len(shape)
    axes = st.lists(st.integers(-rank - 1, rank), max_size=rank + 1, unique_by=lambda k: k % rank if -rank <= k < rank else k)
    axis = data.draw(st.none() | st.integers(-rank - 1, rank) | axes.map(tuple))  # numpy refuses repeats
    expected = numpy_shape(np.squeeze, np.zeros(shape), axis=axis)
    if rank == 0 and axis not in (None, ()):
        expected = None  # numpy lets axis 0 or -1 name a rank-0 array's dim; SPEC: it has no axes
    assert agrees(squeeze_shape(Shape(shape), axis, INT_DIMS), expected)


@pytest.mark.parametrize(
    ("shape", "axis", "expected"),
    [
        (Shape(("1", "B", "1", "3")), None, Shape((), UNKNOWN, ("3",))),  # B may be 1 at run time
        (Shape(("1", "3", "1")), None, Shape(("3",))),
        (Shape(("B",)), None, Shape((), UNKNOWN)),
        (Shape(("1",), "*Ts", ("2", "1")), None, Shape((), UNKNOWN, ("2",))),
        (Shape(("B", "1")), 0, Shape(("1",))),  # B must be 1 for this to run
        (Shape(("B", "1")), (1, -1), Shape(("B",))),  # a repeated axis counts once, as for reductions
        (Shape(("2", "3")), (0, 1), NotSizeOne((0, 1), (2, 3))),
        (Shape(("2", "1")), 2, AxisOutOfRange((2,), 2)),
        (Shape(("1", "2")), "^v", Shape(("2",))),
        (Shape(("1",), "*Ts", ("1",)), (0, -1), Shape((), "*Ts")),
        (Shape(("2",), "*Ts"), 0, NotSizeOne((0,), (2,))),
    ],
)
def test_squeeze_symbolic(shape: Shape[str, str], axis: Any, expected: object) -> None:
    assert squeeze_shape(shape, axis, SYMBOLIC) == expected


# ---- tile, broadcast_to -----------------------------------------------------------------------


@given(shapes, st.lists(st.integers(-1, 3), max_size=4))
def test_tile_agrees_with_numpy(shape: tuple[int, ...], repetitions: list[int]) -> None:
    expected = numpy_shape(np.tile, np.zeros(shape), tuple(repetitions))
    if any(repetition < 0 for repetition in repetitions):
        expected = None  # numpy lets an empty array through: a negative repetition is a mistake anyway
    assert agrees(tile_shape(Shape(shape), tuple(repetitions), INT_DIMS), expected)


@pytest.mark.parametrize(
    ("shape", "repetitions", "expected"),
    [
        (Shape(("B", "3")), ("1", "2"), Shape(("B", "6"))),
        (Shape(("B", "3")), ("2",), Shape(("B", "6"))),
        (Shape(("B", "1")), ("2", "N"), Shape(("2*B", "N"))),  # SPEC §9
        (Shape(("B", "3")), ("0", "1"), Shape(("0", "3"))),
        (Shape(("3",)), ("-1",), NegativeRepetition(-1)),
        (Shape(("B",), "*Ts", ("3",)), ("2",), Shape(("B",), "*Ts", ("6",))),
        (Shape(("B",), "*Ts", ("3",)), ("2", "2"), Shape((), UNKNOWN, ("6",))),
        (Shape(("B", "3")), UNKNOWN, Shape((), UNKNOWN)),
    ],
)
def test_tile_symbolic(shape: Shape[str, str], repetitions: Any, expected: object) -> None:
    assert tile_shape(shape, repetitions, SYMBOLIC) == expected


@given(shapes, shapes, st.data())
def test_broadcast_to_agrees_with_numpy(shape: tuple[int, ...], target: tuple[int, ...], data: st.DataObject) -> None:
    if data.draw(st.booleans()):  # often one that fits
        shape = tuple(1 if data.draw(st.booleans()) else size for size in target[data.draw(st.integers(0, len(target))) :])
    if target and data.draw(st.integers(0, 9)) == 0:
        target = (-1, *target[1:])
    expected = numpy_shape(np.broadcast_to, np.zeros(shape), target)
    assert agrees(broadcast_to_shape(Shape(shape), target, INT_DIMS), expected)


@pytest.mark.parametrize(
    ("shape", "target", "expected"),
    [
        (Shape(("B", "3")), ("5", "B", "3"), Shape(("5", "B", "3"))),
        (Shape(("1", "3")), ("N", "3"), Shape(("N", "3"))),
        (Shape(("B", "3")), ("4", "3"), Shape(("4", "3"))),  # B must be 1 or 4
        (Shape(("3",)), ("N", UNKNOWN), Shape(("N", "3"))),  # the only size 3 broadcasts to
        (Shape(("3",)), ("1",), SizeNotBroadcast(3, 1, -1)),
        (Shape(("2", "3")), ("3",), MoreDimsThanTarget(2, 1, False)),
        (Shape(("2",), "*Ts", ("3",)), ("3",), MoreDimsThanTarget(2, 1, True)),
        (Shape(("2",), "*Ts", ("3",)), ("4", "5", "3"), Shape(("4", "5", "3"))),
        (Shape(("3",)), UNKNOWN, Shape((), UNKNOWN)),
    ],
)
def test_broadcast_to_symbolic(shape: Shape[str, str], target: Any, expected: object) -> None:
    assert broadcast_to_shape(shape, target, SYMBOLIC) == expected


# ---- concat, stack ----------------------------------------------------------------------------


@st.composite
def joins(draw: st.DrawFn) -> tuple[list[tuple[int, ...]], int]:
    base = draw(shapes)
    count = draw(st.integers(0, 3))
    joined = [tuple(draw(st.integers(0, 3)) if draw(st.booleans()) else size for size in base) for _ in range(count)]
    if count and draw(st.integers(0, 4)) == 0:
        joined[-1] = draw(shapes)
    rank = len(base)
    return joined, draw(st.integers(-rank - 2, rank + 1))


@given(joins())
def test_concat_agrees_with_numpy(case: tuple[list[tuple[int, ...]], int]) -> None:
    joined, axis = case
    expected = numpy_shape(np.concat, [np.zeros(shape) for shape in joined], axis=axis)
    assert agrees(concat_shape([Shape(shape) for shape in joined], axis, INT_DIMS), expected)


@given(joins())
def test_stack_agrees_with_numpy(case: tuple[list[tuple[int, ...]], int]) -> None:
    joined, axis = case
    expected = numpy_shape(np.stack, [np.zeros(shape) for shape in joined], axis=axis)
    assert agrees(stack_shape([Shape(shape) for shape in joined], axis, INT_DIMS), expected)


@pytest.mark.parametrize(
    ("shapes", "axis", "expected"),
    [
        ([Shape(("B", "3")), Shape(("B", "5"))], -1, Shape(("B", "8"))),
        ([Shape(("B", "3")), Shape(("C", "3"))], 0, Shape(("B+C", "3"))),  # SPEC §9
        ([Shape(("B", "3")), Shape(("0", "3"))], 0, Shape(("B", "3"))),
        ([Shape(("B", "3")), Shape(("2", "N"))], 0, Shape(("B+2", "3"))),  # N must be 3
        ([Shape(("B", "3")), Shape(("C", "4"))], 0, JoinedSizesDiffer((3, 4), 1)),
        ([Shape(("B", "3")), Shape(("3",))], 0, RanksDiffer((2, 1))),
        ([Shape(("B", "3")), Shape((), "*Ts", ("2", "2", "3"))], 0, RanksDiffer((2, 3), rank_is_minimum=True)),
        ([Shape(("B", "3")), Shape((), "*Ts", ("3",))], 0, Shape((UNKNOWN, "3"))),
        ([Shape((), "*Ts", ("3",))], 0, Shape((), UNKNOWN)),
        ([], 0, NothingToJoin()),
        ([Shape(("B", "3"))], 2, AxisOutOfRange((2,), 2)),
        ([Shape(("B", "3"))], UNKNOWN, Shape((UNKNOWN, UNKNOWN))),
    ],
)
def test_concat_symbolic(shapes: list[Shape[str, str]], axis: Any, expected: object) -> None:
    assert concat_shape(shapes, axis, SYMBOLIC) == expected


def test_concat_of_a_sequence_of_unknown_length_adds_nothing_up() -> None:
    assert concat_shape([Shape(("B", "3"))], 1, SYMBOLIC, count_known=False) == Shape(("B", UNKNOWN))
    assert stack_shape([Shape(("B", "3"))], 0, SYMBOLIC, count_known=False) == Shape((UNKNOWN, "B", "3"))
    assert stack_shape([], 0, SYMBOLIC, count_known=False) == Shape((), UNKNOWN)


@pytest.mark.parametrize(
    ("shapes", "axis", "expected"),
    [
        ([Shape(("B", "3")), Shape(("1", "3"))], 0, Shape(("2", "1", "3"))),  # B must be 1
        ([Shape(("B", "3")), Shape(("B", "3"))], -1, Shape(("B", "3", "2"))),
        ([Shape(("B", "3")), Shape(("B", "4"))], 0, JoinedSizesDiffer((3, 4), 1)),
        ([Shape(("B", "3"))], 3, AxisOutOfRange((3,), 3)),
        ([Shape(())], -1, Shape(("1",))),
    ],
)
def test_stack_symbolic(shapes: list[Shape[str, str]], axis: Any, expected: object) -> None:
    assert stack_shape(shapes, axis, SYMBOLIC) == expected
