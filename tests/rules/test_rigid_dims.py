"""Named dims are rigid (SPEC §7), in the rules: checked against numpy under every binding.

Symbolic dims are strings: digits are literal sizes, ``A`` and ``B`` named dims, ``A*B`` and the
like expressions over them (SPEC §9), ``?`` a dim of no kind the rules know (the plugin's ``int``). A call whose dims are literal and named either runs
for every binding of ``A`` and ``B`` to ``SIZES`` (then the rule gives a shape that holds in
each) or fails for some (then the rule gives a problem, of a literal code only if it fails for
every binding).
The runtime's ints have no names: ``INT_DIMS`` never reports ``tensor-dim``.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, strategies as st

from typedtensor._shape_rules import (
    INT_DIMS,
    UNKNOWN,
    Dims,
    Polynomial,
    Problem,
    Shape,
    broadcast_shapes,
    concat_shape,
    evaluate,
    expression_text,
    matmul_shape,
    normal_form,
    parse_expression,
    reshape_shape,
)

pytestmark = pytest.mark.floors

NAMES = ("A", "B")


def _form(dim: str) -> Polynomial | None:
    return None if dim == "?" else normal_form(parse_expression(dim))


def _name(dim: str) -> str | None:
    return dim if dim != "?" and not dim.lstrip("-").isdigit() else None


RIGID = Dims[str](lambda dim: int(dim) if dim.lstrip("-").isdigit() else None, str, _name, _form, expression_text)
dims = st.sampled_from(["1", "2", "3", "A", "A", "B"])
shapes = st.lists(dims, max_size=3).map(tuple)


#: The sizes each named dim takes: small ones, and 7, prime to every literal count here (so that
#: ``[2, 2, 3]`` to ``(A, -1)`` fails for one of them).
SIZES = (1, 2, 3, 4, 7)


def bindings() -> list[dict[str, int]]:
    return [dict(zip(NAMES, sizes)) for sizes in itertools.product(SIZES, repeat=len(NAMES))]


def concrete(shape: tuple[str, ...], binding: dict[str, int]) -> tuple[int, ...]:
    """The sizes of ``shape`` under ``binding``."""
    return tuple(evaluate(normal_form(parse_expression(dim)), binding) for dim in shape)


def check(outcome: Shape[str, None] | Problem, run: Callable[[dict[str, int]], tuple[int, ...] | None]) -> None:
    """The rule's outcome against numpy's under every binding."""
    results = {tuple(binding.items()): run(binding) for binding in bindings()}
    if all(result is not None for result in results.values()):
        assert isinstance(outcome, Shape), outcome
        for binding, result in results.items():
            assert outcome.variadic is None
            assert len(outcome.prefix) == len(result)  # type: ignore[arg-type]
            for dim, size in zip(outcome.prefix, result):  # type: ignore[arg-type]
                assert dim == "?" or not isinstance(dim, str) or concrete((dim,), dict(binding)) == (size,)
    else:
        assert isinstance(outcome, Problem), outcome
        # a literal code only for a failure whatever the sizes (two named clashes may make one too)
        assert outcome.code == "tensor-dim" or all(result is None for result in results.values()), outcome


def numpy_shape(function: Callable[..., np.ndarray]) -> tuple[int, ...] | None:
    try:
        return tuple(function().shape)
    except ValueError:
        return None


@given(shapes, shapes)
def test_broadcasting(left: tuple[str, ...], right: tuple[str, ...]) -> None:
    outcome = broadcast_shapes([Shape(left), Shape(right)], RIGID)

    def run(binding: dict[str, int]) -> tuple[int, ...] | None:
        return numpy_shape(lambda: np.broadcast_to(np.zeros(concrete(left, binding)), np.broadcast_shapes(concrete(left, binding), concrete(right, binding))))

    check(outcome, run)


@given(st.lists(dims, min_size=1, max_size=3).map(tuple), st.lists(dims, min_size=1, max_size=3).map(tuple))
def test_matmul(left: tuple[str, ...], right: tuple[str, ...]) -> None:
    outcome = matmul_shape(Shape(left), Shape(right), False, False, RIGID)
    check(outcome, lambda binding: numpy_shape(lambda: np.zeros(concrete(left, binding)) @ np.zeros(concrete(right, binding))))


@given(st.lists(st.lists(dims, min_size=2, max_size=2).map(tuple), min_size=2, max_size=3))
def test_concat(parts: list[tuple[str, ...]]) -> None:
    outcome = concat_shape([Shape(part) for part in parts], 0, RIGID)
    check(outcome, lambda binding: numpy_shape(lambda: np.concatenate([np.zeros(concrete(part, binding)) for part in parts])))


@given(
    st.lists(st.sampled_from(["1", "2", "3", "A", "A", "B", "A*B", "2*A"]), max_size=3).map(tuple),
    st.lists(st.sampled_from(["1", "2", "3", "4", "6", "A", "B", "A*B", "3*B", "-1"]), max_size=3).map(tuple),
)
def test_reshape(shape: tuple[str, ...], target: tuple[str, ...]) -> None:
    if target.count("-1") > 1:
        return
    outcome = reshape_shape(Shape(shape), target, RIGID)

    def run(binding: dict[str, int]) -> tuple[int, ...] | None:
        sizes = tuple(-1 if size == "-1" else concrete((size,), binding)[0] for size in target)
        return numpy_shape(lambda: np.zeros(concrete(shape, binding)).reshape(sizes))

    check(outcome, run)


def test_an_unknown_kind_of_dim_never_clashes() -> None:
    assert broadcast_shapes([Shape(("A", "?")), Shape(("?", "3"))], RIGID) == Shape((UNKNOWN, "3"))
    assert not isinstance(reshape_shape(Shape(("A", "?")), ("3", "-1"), RIGID), Problem)


def test_the_messages_name_both_dims() -> None:
    problem = broadcast_shapes([Shape(("A", "3", "A")), Shape(("3", "64"))], RIGID)
    assert isinstance(problem, Problem)
    assert problem.message("subtract", ["x", "y"]) == 'Cannot broadcast x and y for "subtract": A and 64 at axis -1 may differ: A is a named dim'
    problem = reshape_shape(Shape(("A", "5")), ("-1", "3"), RIGID)
    assert isinstance(problem, Problem)
    assert problem.message("reshape", ["x", "(-1, 3)"]) == (
        'Cannot reshape x to (-1, 3) for "reshape": its A*5 elements may not be a multiple of 3, the product of the other sizes: A is a named dim'
    )


@pytest.mark.parametrize(
    ("shape", "target", "code"),
    [
        (("A", "B", "6"), ("A", "B", "4", "-1"), "tensor-dim"),  # 6*A*B over 4*A*B: fits only if A or B is 0
        (("A", "B", "B"), ("A", "B", "4", "-1"), "tensor-dim"),  # B is not a multiple of 4 for every B: write B//4
        (("A", "2"), ("A", "3"), "tensor-dim"),  # only A = 0 fits
        (("A", "B"), ("A*2", "B//2"), None),  # the code's // is a claim the run checks
        (("A", "B"), ("B", "-1"), None),
    ],
)
def test_a_reshape_count_in_normal_form(shape: tuple[str, ...], target: tuple[str, ...], code: str | None) -> None:
    outcome = reshape_shape(Shape(shape), target, RIGID)
    assert isinstance(outcome, Shape) if code is None else isinstance(outcome, Problem) and outcome.code == code, outcome


def test_the_runtime_has_no_named_dims() -> None:
    assert broadcast_shapes([Shape((2, 3)), Shape((3,))], INT_DIMS) == Shape((2, 3))
    assert INT_DIMS.name_of(5) is None


def test_two_leading_parts_with_runs_of_unknown_length_are_not_one() -> None:
    """``[A, B, *tuple[Any, ...]]`` twice may be ``(2, 1)`` and ``(2, 1, 1)``: numpy gives
    ``(2, 2, 1)``, which does not start with ``A, B``."""
    shape = Shape(("A", "B"), UNKNOWN)
    assert np.broadcast_shapes((2, 1), (2, 1, 1)) == (2, 2, 1)
    assert broadcast_shapes([shape, shape], RIGID) == Shape((), UNKNOWN)
    assert broadcast_shapes([Shape(("A",), "*Ts"), Shape(("A",), "*Ts")], RIGID) == Shape(("A",), "*Ts")  # one run, named: the same
