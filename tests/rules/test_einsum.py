"""einsum's rule against numpy's einsum: on generated subscripts and shapes (letters repeated,
sizes of 1 and 0, ``...``, implicit outputs, mismatches), the rule refuses exactly what numpy
refuses, and gives numpy's shape otherwise; and on rigid symbolic dims."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

from tests.rules.test_rigid_dims import RIGID
from typedtensor._shape_rules import INT_DIMS, UNKNOWN, DimsMayDiffer, EinsumProblem, Problem, Shape, einsum_shape

LETTERS = "abcdE"


@st.composite
def calls(draw: st.DrawFn) -> tuple[str, list[tuple[int, ...]]]:
    """A subscript string and operand shapes that mostly fit it."""
    sizes = {letter: draw(st.integers(0, 3)) for letter in LETTERS}
    ellipsis = draw(st.lists(st.integers(1, 3), max_size=2))
    terms, shapes = [], []
    for _ in range(draw(st.integers(1, 3))):
        letters = draw(st.lists(st.sampled_from(LETTERS), max_size=3))
        with_dots = draw(st.booleans())
        at = draw(st.integers(0, len(letters)))
        dims = [sizes[letter] if draw(st.integers(0, 9)) else draw(st.integers(0, 3)) for letter in letters]  # sometimes another size
        covered = ellipsis[draw(st.integers(0, len(ellipsis))):] if with_dots else []
        covered = [1 if draw(st.integers(0, 4)) == 0 else size for size in covered]  # a 1 broadcasts
        terms.append("".join(letters[:at]) + ("..." if with_dots else "") + "".join(letters[at:]))
        shapes.append(tuple(dims[:at] + covered + dims[at:]))
    if draw(st.booleans()):
        used = sorted({letter for term in terms for letter in term if letter != "."})
        output = "".join(draw(st.permutations(used))[: draw(st.integers(0, len(used)))])
        terms_text = ",".join(terms) + "->" + (draw(st.sampled_from(["", "..."])) if any("..." in term for term in terms) else "") + output
    else:
        terms_text = ",".join(terms)
    if draw(st.integers(0, 9)) == 0:
        shapes = shapes[:-1]  # an operand too few
    return terms_text, shapes


def unequal_within_an_operand(subscripts: str, shapes: list[tuple[int, ...]]) -> bool:
    """Whether a letter repeated in one operand (on either side of its ``...``) has unequal sizes
    in it. numpy refuses that, but for one quirk, which the rule does not copy: it refuses them
    all. The quirk: ``aa->a`` of a ``(0, 1)`` gives ``(1,)`` and ``...aba->ab`` of a ``(0, 0, 1)``
    gives ``(1, 0)``, while ``aa->a`` of a ``(1, 0)``, ``aab->b`` of a ``(0, 1, 3)`` and ``aaa->``
    of a ``(0, 1, 1)`` are refused."""
    for term, shape in zip(subscripts.split("->")[0].split(","), shapes):
        head, dots, tail = term.partition("...")
        if len(head) + len(tail) > len(shape) or (not dots and len(term) != len(shape)):
            continue
        sizes: dict[str, set[int]] = {}
        for letter, size in zip(head + tail, shape[: len(head)] + shape[len(shape) - len(tail) :]):
            sizes.setdefault(letter, set()).add(size)
        if any(len(seen) > 1 for seen in sizes.values()):
            return True
    return False


@settings(max_examples=300, deadline=None)
@given(calls())
@example(("aaa->a", [(0, 1, 1)]))  # numpy's quirk (the CI drew it)
@example(("...aba->ab", [(0, 0, 1)]))  # ... beside an ellipsis of no dims (session 35's run drew it)
def test_the_rule_refuses_what_numpy_refuses_and_gives_its_shape(call: tuple[str, list[tuple[int, ...]]]) -> None:
    subscripts, shapes = call
    try:
        expected: tuple[int, ...] | None = np.einsum(subscripts, *[np.zeros(shape) for shape in shapes]).shape
    except ValueError:
        expected = None
    if unequal_within_an_operand(subscripts, shapes):
        expected = None
    got = einsum_shape(subscripts, [Shape[int, None](shape) for shape in shapes], INT_DIMS)
    if expected is None:
        assert isinstance(got, Problem), (subscripts, shapes, got)
    else:
        assert got == Shape(expected), (subscripts, shapes)


S = Shape[str, str]


@pytest.mark.parametrize(("subscripts", "shapes", "expected"), [
    ("bsd,btd->bst", [S(("B", "T", "8")), S(("B", "T", "8"))], S(("B", "T", "T"))),
    ("ij,jk", [S(("N", "1")), S(("3", "M"))], S(("N", "M"))),  # a 1 gives way to 3
    ("i...j->j...i", [S(("2",), "Ts", ("3",))], S(("3",), "Ts", ("2",))),
    ("ij->i", [S((), "Ts", ("3",))], S((UNKNOWN,))),  # the rank of Ts must be 1 for it to run
    ("ij,jk->ik", [S(("2", "N")), S(("3", "4"))], None),  # N and 3 may differ: tensor-dim
    ("ii", [S(("N", "M"))], None),
])
def test_einsum_on_symbolic_dims(subscripts: str, shapes: list[S], expected: S | None) -> None:
    got = einsum_shape(subscripts, shapes, RIGID)
    if expected is None:
        assert isinstance(got, DimsMayDiffer) and got.code == "tensor-dim"
    else:
        assert got == expected


def test_literals_that_differ_outrank_a_named_clash() -> None:
    got = einsum_shape("ij,jk,kl", [S(("2", "N")), S(("3", "4")), S(("5", "6"))], RIGID)
    assert isinstance(got, EinsumProblem) and got.code == "tensor-shape"
    assert got.message("einsum", ["A", "B", "C"]) == "\"einsum\" of 'ij,jk,kl' on A, B and C: letter 'k' is 4 in one place and 5 in another"


def test_a_letter_keeps_its_literal_after_a_named_clash() -> None:
    """``N`` against 3 may differ, but 3 against 4 certainly does: that is the one error."""
    got = einsum_shape("i,i,i", [S(("N",)), S(("3",)), S(("4",))], RIGID)
    assert isinstance(got, EinsumProblem) and got.reason == "letter 'i' is 3 in one place and 4 in another"
