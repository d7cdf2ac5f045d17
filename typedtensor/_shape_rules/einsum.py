"""``einsum``'s rule: the result shape from a literal subscript string, numpy's semantics.

Each operand's term names its dims by letters (``ij``); ``...`` stands for any number of dims,
which broadcast across the operands. The output is the term after ``->``, or without one (numpy's
implicit mode) the letters that appear once, sorted, after ``...`` if any term has one. A letter's
dims must agree: within one operand exactly (``ii`` is a diagonal), across operands as
broadcasting does (a size 1 gives way, as numpy's einsum lets it). Two literal sizes that differ
are ``tensor-shape``; a named dim against another size ``tensor-dim`` (SPEC §7). A malformed
string, an operand count or rank that does not fit its terms, are ``tensor-shape`` too.
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from .broadcast import BroadcastMismatch, broadcast_dims, broadcast_shapes
from .core import UNKNOWN, D, Dims, DimsMayDiffer, Problem, Shape, Unknown, V, clash, join_operands, join_shapes

_LETTERS = frozenset(string.ascii_letters)


@dataclass(frozen=True)
class EinsumProblem(Problem):
    """A subscript string that does not fit its operands, or is malformed; ``reason`` says how."""

    code: ClassVar[str] = "tensor-shape"
    subscripts: str
    reason: str

    def message(self, op: str, operands: Sequence[str]) -> str:
        on = f" on {join_operands(operands)}" if operands else ""
        return f'"{op}" of {self.subscripts!r}{on}: {self.reason}'


@dataclass(frozen=True)
class _Term:
    """One term of the string: the letters before and after its ``...`` (``after`` is None
    when it has no ``...``, and then ``before`` holds all its letters)."""

    before: str
    after: str | None

    @property
    def letters(self) -> str:
        return self.before + (self.after or "")


def einsum_shape(subscripts: str, operands: Sequence[Shape[D, V]], dims: Dims[D]) -> Shape[D, V] | Problem:
    """The shape of ``einsum(subscripts, *operands)``.

    >>> from typedtensor._shape_rules import INT_DIMS
    >>> einsum_shape("bij,bjk->bik", [Shape((8, 2, 3)), Shape((8, 3, 4))], INT_DIMS)
    Shape(prefix=(8, 2, 4), variadic=None, suffix=())
    """
    parsed = _parse(subscripts, len(operands))
    if isinstance(parsed, str):
        return EinsumProblem(subscripts, parsed)
    terms, output = parsed
    bound: dict[str, D | Unknown] = {}
    ellipses: list[Shape[D, V]] = []
    clashes: list[DimsMayDiffer] = []  # reported unless two literals that differ come later
    for position, (term, shape) in enumerate(zip(terms, operands)):
        split = _split(term, shape)
        if isinstance(split, str):
            return EinsumProblem(subscripts, f"operand {position}, {split}")
        letter_dims, ellipsis = split
        if ellipsis is not None:
            ellipses.append(ellipsis)
        local: dict[str, D | Unknown] = {}
        # A letter twice in one term is a diagonal: its dims equal. Across operands they broadcast.
        outcomes = [_bind(local, letter, dim, dims, exact=True) for letter, dim in zip(term.letters, letter_dims)]
        outcomes += [_bind(bound, letter, dim, dims, exact=False) for letter, dim in local.items()]
        for outcome in outcomes:
            if isinstance(outcome, EinsumProblem):
                return replace(outcome, subscripts=subscripts)
            if outcome is not None:
                clashes.append(outcome)
    broadcast = broadcast_shapes(ellipses, dims) if ellipses else Shape[D, V](())
    if isinstance(broadcast, BroadcastMismatch):
        return broadcast
    if clashes or isinstance(broadcast, DimsMayDiffer):
        return clashes[0] if clashes else broadcast
    return _output(subscripts, terms, output, bound, broadcast)


def _bind(bound: dict[str, D | Unknown], letter: str, dim: D | Unknown, dims: Dims[D], exact: bool) -> EinsumProblem | DimsMayDiffer | None:
    """Bind ``letter`` to ``dim`` in ``bound``, merged with what it is bound to already: equal
    dims within one operand (``exact``), broadcast across operands. Two literals that differ are
    an ``EinsumProblem``; a named clash is returned as a ``DimsMayDiffer``, the letter then bound
    to the literal of the two (if one is) for later dims to be compared with."""
    known = bound.get(letter)
    if known is None:
        bound[letter] = dim
        return None
    merged: D | Unknown | BroadcastMismatch | DimsMayDiffer
    if exact:
        sizes = dims.size_of(known), dims.size_of(dim)
        named = clash(known, dim, dims)
        if sizes[0] is not None and sizes[1] is not None and sizes[0] != sizes[1]:
            merged = BroadcastMismatch((sizes[0], sizes[1]), -1)
        else:
            merged = DimsMayDiffer("contract", named) if named is not None else (dim if isinstance(known, Unknown) else known)
    else:
        merged = broadcast_dims(known, dim, dims, -1)
    if isinstance(merged, BroadcastMismatch):
        return EinsumProblem("", f"letter {letter!r} is {merged.sizes[0]} in one place and {merged.sizes[1]} in another")
    if isinstance(merged, DimsMayDiffer):
        bound[letter] = next((each for each in (known, dim) if dims.size_of(each) is not None), UNKNOWN)
        return replace(merged, action="contract", label=f"letter {letter!r}:", axis=None)
    bound[letter] = merged
    return None


def _parse(subscripts: str, count: int) -> tuple[list[_Term], _Term | None] | str:
    """The operands' terms and the output term (None: implicit), or what is wrong."""
    text = subscripts.replace(" ", "")
    if text.count("->") > 1:
        return "more than one '->'"
    inputs, arrow, output = text.partition("->")
    terms = [_term(part) for part in inputs.split(",")]
    out = _term(output) if arrow else None
    for term in [*terms, out]:
        if isinstance(term, str):
            return term
    if len(terms) != count:
        return f"{len(terms)} operand term{'s' if len(terms) != 1 else ''} for {count} operand{'s' if count != 1 else ''}"
    checked_terms = [term for term in terms if isinstance(term, _Term)]
    if isinstance(out, _Term):
        used = {letter for term in checked_terms for letter in term.letters}
        repeated = sorted({letter for letter in out.letters if out.letters.count(letter) > 1})
        if repeated:
            return f"the output names {repeated[0]!r} more than once"
        missing = sorted(set(out.letters) - used)
        if missing:
            return f"the output's {missing[0]!r} is in no operand's term"
    return checked_terms, out if isinstance(out, _Term) else None


def _term(text: str) -> _Term | str:
    """One term, or what is wrong with it."""
    before, dots, after = text.partition("...")
    if "." in before or "." in after:
        return f"{text!r} has a '.' outside one '...'"
    wrong = sorted(set(before + after) - _LETTERS)
    if wrong:
        return f"{wrong[0]!r} is not a letter (subscripts are a-z and A-Z)"
    return _Term(before, after if dots else None)


def _split(term: _Term, shape: Shape[D, V]) -> tuple[list[D | Unknown], Shape[D, V] | None] | str:
    """The dims of ``term``'s letters in ``shape``, and the dims its ``...`` covers; or what is wrong."""
    before, after = term.before, term.after
    if after is None:
        if shape.rank is not None and shape.rank != len(before):
            return f"{before!r} names {len(before)} dim{'s' if len(before) != 1 else ''} of {shape.rank}"
        if shape.variadic is not None and len(shape.prefix) + len(shape.suffix) > len(before):
            return f"{before!r} names {len(before)} dims of more"
        return _fixed(shape, len(before)), None
    if shape.rank is not None:
        if shape.rank < len(before) + len(after):
            return f"{before + '...' + after!r} names {len(before) + len(after)} dims of {shape.rank}"
        return list(shape.prefix[: len(before)]) + list(shape.prefix[shape.rank - len(after) :]), Shape(shape.prefix[len(before) : shape.rank - len(after)])
    head = [shape.prefix[index] if index < len(shape.prefix) else UNKNOWN for index in range(len(before))]
    tail = [shape.suffix[index] if index >= 0 else UNKNOWN for index in range(len(shape.suffix) - len(after), len(shape.suffix))]
    if len(shape.prefix) >= len(before) and len(shape.suffix) >= len(after):
        middle: Shape[D, V] = Shape(shape.prefix[len(before) :], shape.variadic, shape.suffix[: len(shape.suffix) - len(after)])
    else:
        middle = Shape((), UNKNOWN)
    return head + tail, middle


def _fixed(shape: Shape[D, V], count: int) -> list[D | Unknown]:
    """The ``count`` dims of ``shape`` (a run among them: those it hides unknown)."""
    if shape.variadic is None:
        return list(shape.prefix)
    hidden = count - len(shape.prefix) - len(shape.suffix)
    return [*shape.prefix, *[UNKNOWN] * hidden, *shape.suffix]


def _output(subscripts: str, terms: list[_Term], output: _Term | None, bound: dict[str, D | Unknown], ellipsis: Shape[D, V]) -> Shape[D, V] | Problem:
    """The result: the output term's letters with their dims, ``...`` as the broadcast dims."""
    if output is None:
        letters = "".join(term.letters for term in terms)
        once = "".join(sorted(letter for letter in set(letters) if letters.count(letter) == 1))
        output = _Term("", once) if any(term.after is not None for term in terms) else _Term(once, None)
    head: Shape[D, V] = Shape(tuple(bound[letter] for letter in output.before))
    if output.after is None:
        if ellipsis.rank is not None and ellipsis.rank > 0:
            return EinsumProblem(subscripts, f"the operands' '...' covers {ellipsis.rank} dims, and the output has no '...' for them")
        return head
    return join_shapes([head, ellipsis, Shape(tuple(bound[letter] for letter in output.after))])
