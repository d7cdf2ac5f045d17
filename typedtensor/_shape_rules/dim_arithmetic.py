"""Dim arithmetic (``Add``, ``Sub``, ``Mul``, ``Div``): one normal form, its text and its value.

An expression arrives as a tree of ``Operation``s over ints (literal sizes) and names (named dims;
the caller maps its own dims to names and back). Its normal form is a sum of monomials, each an
integer coefficient times a sorted product of atoms; an atom is a name or a ``Floor`` (a floor
division that is not exact in normal form). So ``B*T`` is ``T*B``, ``N+N`` is ``2*N``, literals
fold, and ``(A*B)//B`` is ``A``: two expressions are the same dim exactly when their normal forms
are equal. A ``Floor`` is the code's claim that its division is exact; evaluation checks it.
"""

from __future__ import annotations

import ast
import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Final, Literal, TypeAlias

#: The four operations, by the names of their ``typedtensor`` types.
OperationName: TypeAlias = Literal["Add", "Sub", "Mul", "Div"]
OPERATION_NAMES: Final[tuple[OperationName, ...]] = ("Add", "Sub", "Mul", "Div")


@dataclass(frozen=True)
class Operation:
    """``Add[left, right]`` and the like, as written: not normalised."""

    name: OperationName
    left: Tree
    right: Tree


#: An expression as written: a literal size, a named dim's name, or an operation.
Tree: TypeAlias = "int | str | Operation"


@dataclass(frozen=True)
class Floor:
    """``numerator // denominator`` that does not divide exactly in normal form."""

    numerator: Polynomial
    denominator: Polynomial


Atom: TypeAlias = "str | Floor"
#: A product of atoms, sorted, an atom repeated for each power.
Monomial: TypeAlias = "tuple[Atom, ...]"


@dataclass(frozen=True)
class Polynomial:
    """The normal form: monomials with their nonzero coefficients, sorted; the constant is the
    empty monomial, last."""

    terms: tuple[tuple[Monomial, int], ...]

    @property
    def literal(self) -> int | None:
        """The expression's size if it is a literal (no atoms), else None."""
        if not self.terms:
            return 0
        (monomial, coefficient), *rest = self.terms
        return coefficient if not monomial and not rest else None


class InexactDivision(ArithmeticError):
    """A ``Div`` whose numerator its denominator does not divide (or divides by zero)."""

    def __init__(self, floor: Floor, numerator: int, denominator: int) -> None:
        super().__init__(f"{expression_text(_atom_polynomial(floor))} is {numerator}//{denominator}, not exact")


def _atom_key(atom: Atom) -> tuple[object, ...]:
    if isinstance(atom, str):
        return (0, atom)
    return (1, _polynomial_key(atom.numerator), _polynomial_key(atom.denominator))


def _monomial_key(monomial: Monomial) -> tuple[object, ...]:
    """Constants last, then by atoms: ``B*T + N + 3``."""
    return (not monomial, tuple(map(_atom_key, monomial)))


def _polynomial_key(polynomial: Polynomial) -> tuple[object, ...]:
    return tuple((_monomial_key(monomial), coefficient) for monomial, coefficient in polynomial.terms)


def _polynomial(terms: Iterable[tuple[Monomial, int]]) -> Polynomial:
    """The normal form of a sum of terms: like monomials added, zeros dropped, sorted."""
    sums: dict[Monomial, int] = {}
    for monomial, coefficient in terms:
        key = tuple(sorted(monomial, key=_atom_key))
        sums[key] = sums.get(key, 0) + coefficient
    kept = [(monomial, coefficient) for monomial, coefficient in sums.items() if coefficient]
    return Polynomial(tuple(sorted(kept, key=lambda term: _monomial_key(term[0]))))


def constant(size: int) -> Polynomial:
    """The normal form of a literal size."""
    return _polynomial([((), size)])


def _atom_polynomial(atom: Atom) -> Polynomial:
    return Polynomial((((atom,), 1),))


def atom(name: str) -> Polynomial:
    """The normal form of a named dim."""
    return _atom_polynomial(name)


def times(left: Polynomial, right: Polynomial) -> Polynomial:
    """``left * right`` in normal form."""
    return _polynomial((a + b, ca * cb) for a, ca in left.terms for b, cb in right.terms)


def plus(left: Polynomial, right: Polynomial, sign: int = 1) -> Polynomial:
    """``left + right`` in normal form (``left - right`` with ``sign`` -1)."""
    return _polynomial(left.terms + _scaled(right, sign).terms)


def _scaled(polynomial: Polynomial, factor: int) -> Polynomial:
    return _polynomial((monomial, coefficient * factor) for monomial, coefficient in polynomial.terms)


def normal_form(tree: Tree) -> Polynomial:
    """The normal form of an expression as written."""
    if isinstance(tree, int):
        return constant(tree)
    if isinstance(tree, str):
        return _atom_polynomial(tree)
    return operated(tree.name, normal_form(tree.left), normal_form(tree.right))


def operated(name: OperationName, left: Polynomial, right: Polynomial) -> Polynomial:
    """The normal form of ``left`` and ``right`` combined by the operation ``name``."""
    if name in ("Add", "Sub"):
        return plus(left, right, 1 if name == "Add" else -1)
    if name == "Mul":
        return times(left, right)
    return floor_divided(left, right)


def floor_divided(numerator: Polynomial, denominator: Polynomial) -> Polynomial:
    """``numerator // denominator``: Python's for two literals, the quotient where it is exact in
    normal form, else a ``Floor``
    of the two with their common factor (an integer and atoms, which leave the quotient as it is)
    taken out."""
    if denominator.literal == 1:
        return numerator
    if numerator.literal is not None and denominator.literal:
        return constant(numerator.literal // denominator.literal)  # literals fold, as Python computes them
    if not denominator.terms:
        return _atom_polynomial(Floor(numerator, denominator))  # by 0: kept as written, the run refuses it
    factor = _common_factor(numerator.terms + denominator.terms)
    numerator, denominator = _divided(numerator, factor), _divided(denominator, factor)
    if numerator.literal is not None and denominator.literal:
        return constant(numerator.literal // denominator.literal)  # ``N//(2*N)``: the same floor as ``1//2``
    quotient = _quotient(numerator, denominator)
    return quotient if quotient is not None else _atom_polynomial(Floor(numerator, denominator))


def range_length(stop: Polynomial, start: int) -> Polynomial:
    """``len(range(start, stop))`` for a ``stop >= start``: ``stop-start``, a claim the run checks
    (SPEC §9). A step above 1 gives a floor, ``(stop-start+step-1)//step``, which no ``Div`` can
    spell: a ``Div`` is a division the run checks to be exact."""
    return plus(stop, constant(start), -1)


def _quotient(numerator: Polynomial, denominator: Polynomial) -> Polynomial | None:
    """``numerator / denominator`` where it is a polynomial with integer coefficients, else None:
    exact division, each step taking the remainder's leading term over the divisor's (in graded
    lexicographic order, which multiplication keeps, so the leading term falls every step)."""
    if not denominator.terms:
        return None
    atoms = sorted({part for monomial, _ in numerator.terms + denominator.terms for part in monomial}, key=_atom_key)

    def order(term: tuple[Monomial, int]) -> tuple[int, tuple[int, ...]]:
        return len(term[0]), tuple(term[0].count(part) for part in atoms)

    lead, lead_coefficient = max(denominator.terms, key=order)
    quotient: list[tuple[Monomial, int]] = []
    remainder = numerator
    while remainder.terms:
        monomial, coefficient = max(remainder.terms, key=order)
        factor = Counter(monomial)
        factor.subtract(lead)
        if any(power < 0 for power in factor.values()) or coefficient % lead_coefficient:
            return None
        step = (tuple(factor.elements()), coefficient // lead_coefficient)
        quotient.append(step)
        remainder = plus(remainder, times(_polynomial([step]), denominator), -1)
    return _polynomial(quotient)


def exact_quotient(numerator: Polynomial, denominator: Polynomial) -> Polynomial | None:
    """``numerator / denominator`` where it is exact for every size, counting each ``Floor`` in
    them as exact, the claim the code made by writing it (``2*(N//2)*M`` over ``N`` is ``M``, and
    so is ``4*(C//4)`` over 1 ``C``: the claim spelled out); None where it is not."""
    if _has_floor(numerator) or _has_floor(denominator):  # the claims first: 4*(C//4) over 1 is C
        (top, bottom), (divisor_top, divisor_bottom) = _fraction(numerator), _fraction(denominator)
        claimed = exact_quotient(times(top, divisor_bottom), times(bottom, divisor_top))
        if claimed is not None:
            return claimed
    factor = _common_factor(numerator.terms + denominator.terms)
    return _quotient(_divided(numerator, factor), _divided(denominator, factor))


def claimed_equal(left: Polynomial, right: Polynomial) -> bool:
    """Whether two expressions are equal for every size, counting each ``Floor`` as exact."""
    (left_top, left_bottom), (right_top, right_bottom) = _fraction(left), _fraction(right)
    return times(left_top, right_bottom) == times(right_top, left_bottom)


def _has_floor(polynomial: Polynomial) -> bool:
    return any(not isinstance(part, str) for monomial, _ in polynomial.terms for part in monomial)


def _fraction(polynomial: Polynomial) -> tuple[Polynomial, Polynomial]:
    """The expression as a fraction of two polynomials over names, each ``Floor`` read as an
    exact division."""
    top, bottom = constant(0), constant(1)
    for monomial, coefficient in polynomial.terms:
        term_top, term_bottom = constant(coefficient), constant(1)
        for part in monomial:
            part_top, part_bottom = (atom(part), constant(1)) if isinstance(part, str) else _floor_fraction(part)
            term_top, term_bottom = times(term_top, part_top), times(term_bottom, part_bottom)
        top, bottom = plus(times(top, term_bottom), times(term_top, bottom)), times(bottom, term_bottom)
    return top, bottom


def _floor_fraction(floor: Floor) -> tuple[Polynomial, Polynomial]:
    """``a // b`` read as the exact ``a / b``: the fraction of the two fractions."""
    (numerator_top, numerator_bottom), (denominator_top, denominator_bottom) = _fraction(floor.numerator), _fraction(floor.denominator)
    return times(numerator_top, denominator_bottom), times(numerator_bottom, denominator_top)


def _common_factor(terms: tuple[tuple[Monomial, int], ...]) -> tuple[Monomial, int]:
    """The monomial and the positive integer that divide every term (``1`` for none)."""
    if not terms:
        return (), 1
    common = Counter(terms[0][0])
    for monomial, _ in terms[1:]:
        common &= Counter(monomial)
    return tuple(common.elements()), math.gcd(*(coefficient for _, coefficient in terms)) or 1


def _divided(polynomial: Polynomial, factor: tuple[Monomial, int]) -> Polynomial:
    quotient = _divided_by_monomial(polynomial, *factor)
    assert quotient is not None  # a common factor divides every term
    return quotient


def _divided_by_monomial(polynomial: Polynomial, monomial: Monomial, coefficient: int) -> Polynomial | None:
    """``polynomial`` over ``coefficient * monomial`` if that divides every term, else None."""
    divisor = Counter(monomial)
    terms = []
    for term, term_coefficient in polynomial.terms:
        powers = Counter(term)
        if coefficient == 0 or term_coefficient % coefficient or (divisor - powers):
            return None
        terms.append((tuple((powers - divisor).elements()), term_coefficient // coefficient))
    return _polynomial(terms)


def evaluate(polynomial: Polynomial, sizes: Mapping[str, int]) -> int:
    """The size of an expression given the size of each name in it (a ``KeyError`` for a name
    missing); ``InexactDivision`` for a ``Floor`` that does not divide exactly."""
    return sum(coefficient * math.prod(_atom_value(atom, sizes) for atom in monomial) for monomial, coefficient in polynomial.terms)


def _atom_value(atom: Atom, sizes: Mapping[str, int]) -> int:
    if isinstance(atom, str):
        return sizes[atom]
    numerator, denominator = evaluate(atom.numerator, sizes), evaluate(atom.denominator, sizes)
    if denominator == 0 or numerator % denominator:
        raise InexactDivision(atom, numerator, denominator)
    return numerator // denominator


def names(polynomial: Polynomial) -> frozenset[str]:
    """The named dims an expression is computed from."""
    found: set[str] = set()
    for monomial, _ in polynomial.terms:
        for atom in monomial:
            found |= {atom} if isinstance(atom, str) else names(atom.numerator) | names(atom.denominator)
    return frozenset(found)


def canonical_tree(polynomial: Polynomial) -> Tree:
    """The normal form written as operations, one way only: a literal as its int, else terms
    added (or subtracted) left to right, a positive one first, each a coefficient times its atoms."""
    if polynomial.literal is not None:
        return polynomial.literal
    (first, coefficient), *rest = sorted(polynomial.terms, key=lambda term: term[1] < 0)
    tree = _monomial_tree(first, coefficient) if coefficient > 0 else Operation("Sub", 0, _monomial_tree(first, -coefficient))
    for monomial, coefficient in rest:
        tree = Operation("Sub" if coefficient < 0 else "Add", tree, _monomial_tree(monomial, abs(coefficient)))
    return tree


def _monomial_tree(monomial: Monomial, coefficient: int) -> Tree:
    factors: list[Tree] = [_atom_tree(atom) for atom in monomial]
    if coefficient != 1 or not factors:
        factors.insert(0, coefficient)
    tree = factors[0]
    for factor in factors[1:]:
        tree = Operation("Mul", tree, factor)
    return tree


def _atom_tree(atom: Atom) -> Tree:
    if isinstance(atom, str):
        return atom
    return Operation("Div", canonical_tree(atom.numerator), canonical_tree(atom.denominator))


def expression_text(polynomial: Polynomial, name_text: Callable[[str], str] = str) -> str:
    """How messages write an expression, as Python would: ``B*T``, ``C//H``, ``N-3``, ``2*(N//2)``."""
    if not polynomial.terms:
        return "0"
    text = ""
    for monomial, coefficient in sorted(polynomial.terms, key=lambda term: term[1] < 0):  # ``3-N``
        # ``-C//H`` would be ``(-C)//H``: a leading minus keeps a division in parentheses
        alone = abs(coefficient) == 1 and len(monomial) == 1 and (coefficient > 0 or bool(text))
        factors = [_atom_text(atom, name_text, alone) for atom in monomial]
        if abs(coefficient) != 1 or not factors:
            factors.insert(0, str(abs(coefficient)))
        text += ("-" if coefficient < 0 else "+" if text else "") + "*".join(factors)
    return text


def _atom_text(atom: Atom, name_text: Callable[[str], str], alone: bool) -> str:
    if isinstance(atom, str):
        return name_text(atom)
    numerator, denominator = (expression_text(part, name_text) for part in (atom.numerator, atom.denominator))
    if len(atom.numerator.terms) > 1 or not _positive(atom.numerator):
        numerator = f"({numerator})"
    if not _single(atom.denominator):
        denominator = f"({denominator})"
    text = f"{numerator}//{denominator}"
    return text if alone else f"({text})"


def _positive(polynomial: Polynomial) -> bool:
    return all(coefficient > 0 for _, coefficient in polynomial.terms)


def _single(polynomial: Polynomial) -> bool:
    """A name or a non-negative literal: no operator to bind."""
    if polynomial.literal is not None:
        return polynomial.literal >= 0
    (monomial, coefficient), *rest = polynomial.terms
    return not rest and coefficient == 1 and len(monomial) == 1 and isinstance(monomial[0], str)


_OPERATORS: Final[dict[type[ast.operator], OperationName]] = {ast.Add: "Add", ast.Sub: "Sub", ast.Mult: "Mul", ast.FloorDiv: "Div"}


def parse_expression(text: str) -> Tree:
    """The expression ``text`` writes (``B*T``, ``(N+1)//2``): names, non-negative ints, ``+``,
    ``-``, ``*``, ``//`` and parentheses; ``ValueError`` for anything else."""
    try:
        body = ast.parse(text, mode="eval").body
    except SyntaxError as error:
        raise ValueError(f"{text!r} is not a dim expression") from error
    return _tree(body, text)


def _tree(node: ast.expr, text: str) -> Tree:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return Operation("Sub", 0, _tree(node.operand, text))
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        return Operation(_OPERATORS[type(node.op)], _tree(node.left, text), _tree(node.right, text))
    raise ValueError(f"{text!r} is not a dim expression")
