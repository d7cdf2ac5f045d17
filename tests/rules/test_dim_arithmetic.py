"""The normal form of dim expressions (SPEC §9): equal however built, evaluated as Python would.

The reference is Python's own arithmetic on the expression as written (``//`` is floor division);
hypothesis builds the expressions over a few names and small literals.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given, strategies as st

from typedtensor._shape_rules import (
    INT_DIMS,
    UNKNOWN,
    Dims,
    InexactDivision,
    Operation,
    Polynomial,
    Tree,
    canonical_tree,
    claimed_equal,
    evaluate,
    exact_quotient,
    expression_text,
    names,
    normal_form,
    parse_expression,
    slice_dim,
)

NAMES = ("B", "C", "H", "N", "T")
leaves = st.one_of(st.integers(0, 6), st.sampled_from(NAMES))
trees = st.recursive(
    leaves,
    lambda children: st.builds(Operation, st.sampled_from(["Add", "Sub", "Mul", "Div"]), children, children),
    max_leaves=8,
)
sizes = st.fixed_dictionaries({name: st.integers(1, 12) for name in NAMES})


class NotExact(Exception):
    """The expression as written divides inexactly or by zero somewhere."""


def direct(tree: Tree, values: dict[str, int]) -> int:
    """Python's arithmetic on the expression as written, refusing a division that is not exact."""
    if isinstance(tree, int):
        return tree
    if isinstance(tree, str):
        return values[tree]
    left, right = direct(tree.left, values), direct(tree.right, values)
    if tree.name == "Div":
        if right == 0 or left % right:
            raise NotExact
        return left // right
    return {"Add": left + right, "Sub": left - right, "Mul": left * right}[tree.name]


def same(text: str, other: str) -> bool:
    return normal_form(parse_expression(text)) == normal_form(parse_expression(other))


@pytest.mark.parametrize(
    ("text", "other"),
    [
        ("B*T", "T*B"),
        ("N+N", "2*N"),
        ("2*3", "6"),
        ("(A*B)//B", "A"),
        ("(4*C)//2", "2*C"),
        ("(2*N+2)//2", "N+1"),
        ("(B*2)*(T*3)", "6*(T*B)"),
        ("N-N", "0"),
        ("N//1", "N"),
        ("(4*C)//(2*H)", "(2*C)//H"),
    ],
)
def test_the_spec_s_equalities_hold(text: str, other: str) -> None:
    assert same(text, other)


@pytest.mark.parametrize(("text", "other"), [("N//2", "N"), ("2*(N//2)", "N"), ("(N+1)//2", "N//2"), ("C//H", "H//C"), ("N-3", "3-N")])
def test_different_expressions_stay_apart(text: str, other: str) -> None:
    assert not same(text, other)


@pytest.mark.parametrize(
    ("text", "printed"),
    [
        ("T*B", "B*T"),
        ("C//H", "C//H"),
        ("M+N", "M+N"),
        ("N-3", "N-3"),
        ("N+N", "2*N"),
        ("3-N", "3-N"),
        ("2*(N//2)", "2*(N//2)"),
        ("(N+1)//2", "(N+1)//2"),
        ("X//(C//H)", "X//(C//H)"),
        ("C//(2*H)", "C//(2*H)"),
        ("0-C//H", "-(C//H)"),
    ],
)
def test_messages_write_them_as_python_would(text: str, printed: str) -> None:
    assert expression_text(normal_form(parse_expression(text))) == printed


def test_a_division_that_is_not_exact_is_reported() -> None:
    with pytest.raises(InexactDivision, match=r"N//2 is 7//2, not exact"):
        evaluate(normal_form(parse_expression("N//2")), {"N": 7})
    with pytest.raises(InexactDivision):
        evaluate(normal_form(parse_expression("N//(H-H+C-C)")), {"N": 4, "H": 1, "C": 2})


@given(trees)
def test_normalising_is_idempotent(tree: Tree) -> None:
    form = normal_form(tree)
    assert normal_form(canonical_tree(form)) == form


@given(trees)
def test_the_printed_form_parses_back_to_the_same_normal_form(tree: Tree) -> None:
    form = normal_form(tree)
    assert normal_form(parse_expression(expression_text(form))) == form


@given(trees, sizes)
def test_evaluation_agrees_with_python_on_the_expression_as_written(tree: Tree, values: dict[str, int]) -> None:
    try:
        expected = direct(tree, values)
    except NotExact:
        assume(False)
    assert evaluate(normal_form(tree), values) == expected


@given(trees, trees, sizes)
def test_expressions_of_one_normal_form_are_the_same_size(tree: Tree, other: Tree, values: dict[str, int]) -> None:
    """Built two ways (here ``(1*tree + other) - other``), Python gives both one size."""
    rebuilt = Operation("Sub", Operation("Add", Operation("Mul", 1, tree), other), other)
    assert normal_form(rebuilt) == normal_form(tree)
    try:
        assert direct(rebuilt, values) == direct(tree, values)
    except NotExact:
        pass


@given(trees, trees, trees)
def test_the_laws_of_arithmetic_hold_in_normal_form(a: Tree, b: Tree, c: Tree) -> None:
    def equal(x: Tree, y: Tree) -> bool:
        return normal_form(x) == normal_form(y)

    assert equal(Operation("Add", a, b), Operation("Add", b, a))
    assert equal(Operation("Mul", a, b), Operation("Mul", b, a))
    assert equal(Operation("Add", Operation("Add", a, b), c), Operation("Add", a, Operation("Add", b, c)))
    assert equal(Operation("Mul", Operation("Mul", a, b), c), Operation("Mul", a, Operation("Mul", b, c)))
    assert equal(Operation("Mul", a, Operation("Add", b, c)), Operation("Add", Operation("Mul", a, b), Operation("Mul", a, c)))
    assert equal(Operation("Sub", Operation("Add", a, b), b), a)


@given(trees)
def test_the_names_are_those_written(tree: Tree) -> None:
    form = normal_form(tree)
    written = set(NAMES) & set(expression_text(form).replace("(", " ").replace(")", " ").replace("*", " ").replace("+", " ").replace("-", " ").replace("/", " ").split())
    assert names(form) == written


@pytest.mark.parametrize(("text", "tree"), [("2-5", -3), ("3-N", Operation("Sub", 3, "N")), ("0-N", Operation("Sub", 0, "N")), ("T*B+B", Operation("Add", "B", Operation("Mul", "B", "T")))])
def test_the_canonical_tree_is_a_literal_or_starts_with_a_positive_term(text: str, tree: Tree) -> None:
    assert canonical_tree(normal_form(parse_expression(text))) == tree


def form(text: str) -> Polynomial:
    return normal_form(parse_expression(text))


@pytest.mark.parametrize(
    ("numerator", "denominator", "quotient"),
    [
        ("B*T*C", "C", "B*T"),
        ("6*B", "3", "2*B"),
        ("2*(N//2)*M", "N", "M"),  # the code's // is its claim
        ("N*M", "2*(N//2)", "M"),
        ("B*T*C", "4*B*T", None),  # write C//4 to claim it
        ("5*B", "3", None),
        ("N+M", "N+M", "1"),
        ("0", "B", "0"),
    ],
)
def test_exact_quotients(numerator: str, denominator: str, quotient: str | None) -> None:
    found = exact_quotient(form(numerator), form(denominator))
    assert found == (None if quotient is None else form(quotient))


@given(trees, trees, sizes)
def test_a_product_over_a_factor_is_the_other_factor_wherever_the_claims_hold(factor: Tree, other: Tree, values: dict[str, int]) -> None:
    assume(normal_form(factor).terms)  # not 0
    quotient = exact_quotient(normal_form(Operation("Mul", factor, other)), normal_form(factor))
    assert quotient is not None
    try:
        size, other_size = direct(factor, values), direct(other, values)
    except NotExact:
        assume(False)
    assume(size != 0)
    assert evaluate(quotient, values) == other_size


@pytest.mark.parametrize(("text", "other", "equal"), [("2*(N//2)", "N", True), ("4*((C//4)*B)", "C*B", True), ("N//2", "N", False), ("N-1", "N", False)])
def test_claimed_equality(text: str, other: str, equal: bool) -> None:
    assert claimed_equal(form(text), form(other)) is equal


NAMED = Dims[str](lambda dim: int(dim) if dim.isdigit() else None, str, form=lambda dim: form(dim), spell=expression_text)


@given(st.integers(0, 5), st.none() | st.integers(0, 5), st.sampled_from([None, 1, 2, 3, -1, -2, -3]), st.integers(0, 30))
def test_a_slice_of_a_named_dim_is_its_length_for_every_size_the_claim_allows(start: int | None, stop: int | None, step: int | None, size: int) -> None:
    """``x[3:]`` on ``N`` is ``N-3`` (a claim: N >= 3), evaluated as the run checks it; a stepped
    slice's length is a floor no ``Div`` spells, so unknown. Literal sizes are Python's."""
    dim = slice_dim("N", slice(start, stop, step), NAMED)
    assert slice_dim(size, slice(start, stop, step), INT_DIMS) == len(range(size)[start:stop:step])
    if step not in (None, 1, -1) or stop is not None:
        assert dim is UNKNOWN
    elif isinstance(dim, str) and size >= (start or 0):
        assert evaluate(form(dim), {"N": size}) == len(range(size)[start:stop:step])
