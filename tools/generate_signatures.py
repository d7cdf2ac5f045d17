"""Write the declared signatures of the elementwise ops and the reductions, computed from the shared rules.

    python tools/generate_signatures.py           # rewrite the generated code
    python tools/generate_signatures.py --check   # exit 1 if it is stale (a test runs this)

It writes whole modules in ``typedtensor/_generated/``: ``type_vars.py`` (the TypeVars every module
shares), ``reduction_axes.py`` (the reductions' ``axis`` aliases), and the public functions with
their overloads: ``elementwise.py``, ``reductions.py`` (``reduce_sum`` ...: a shape per rank and
literal axis from ``reduce_shape`` on symbolic dims, see ``reduction_forms``) and ``shaping.py``
(``expand_dims`` and ``squeeze``: a shape per literal axis from their rules, see ``axis_form``).
In ``typedtensor/_tensor.py`` it writes one block, the last of ``Tensor``'s class body: the
reduction methods (``Tensor.sum`` ...) and the operators. Each implementation is one line that
calls hand-written code; its docstring comes from the table in ``tools/docstrings.py``. Each op
gets ``@overload``s that say, without the mypy plugin, what standard typing can say exactly:
the shape of same-shape operands (``*Shape``), and the result dtype of each group of operand
dtypes the shared rules give one answer for. A dtype the rules keep is a TypeVar bounded by its
category (mypy joins two arguments' dtypes to solve it, and within a category the join holds
the promotion); a group with one result is a union of dtypes; a category gets the narrowest name
holding every member's result. Every overload's answer holds for every call it matches, so a
declared type is never wrong, only less exact than the plugin's.
"""

from __future__ import annotations

import argparse
import functools
import inspect
import itertools
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final

PROJECT: Final = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(PROJECT), str(PROJECT / "tools")]

from docstrings import DOCSTRINGS  # noqa: E402 - the table of docstrings, beside this file

from typing_plugins._rules import shape_rules  # noqa: E402 - the rules, without importing typedtensor

CONCRETE: Final = shape_rules.CONCRETE
CATEGORIES: Final = shape_rules.CATEGORIES  # narrow to wide
ATOMS: Final = (*CONCRETE, *CATEGORIES)
KINDS: Final = shape_rules.SCALAR_KINDS
#: The categories no other category overlaps: a TypeVar over one never spans a promotion boundary.
#: Floats first: model code's overloads are then found first (pyright's time grows with each tried).
LEAVES: Final = ("floating", "signedinteger", "unsignedinteger", "complexfloating", "bool_")
VARS: Final = {
    "generic": "GenericT", "number": "NumberT", "integer": "IntegerT", "signedinteger": "SignedT",
    "unsignedinteger": "UnsignedT", "inexact": "InexactT", "floating": "FloatingT", "complexfloating": "ComplexT",
}
SAME: Final = "*Shape"
ANY_SHAPE: Final = "*tuple[Any, ...]"
#: A parameter taking a tensor or a Python scalar (the alias the elementwise module defines).
OPERAND: Final = "Operand"

#: A dtype rule on concrete dtypes: the result's name, or None where the op refuses it.
Rule = Callable[..., "str | None"]


def members(atom: str) -> tuple[str, ...]:
    return CATEGORIES.get(atom, (atom,))


@functools.cache
def within(atom: str, outer: str) -> bool:
    return set(members(atom)) <= set(members(outer))


def narrowest(names: Iterable[str]) -> str:
    return str(shape_rules.dtypes.narrowest(names))


def accepted(result: object) -> str | None:
    return result if isinstance(result, str) else None


@dataclass(frozen=True)
class Case:
    """One overload's dtypes: the atoms (dtypes, categories) its tensor parameter accepts, and the
    result; ``kept`` means the result is the argument's own dtype (a TypeVar over one category)."""

    accepts: tuple[str, ...]
    result: str
    kept: bool = False

    @property
    def parameter(self) -> str:
        return VARS[self.accepts[0]] if self.kept else " | ".join(self.accepts)

    @property
    def returns(self) -> str:
        return VARS[self.accepts[0]] if self.kept else self.result

    def covers(self, atom: str) -> bool:
        return any(within(atom, outer) for outer in self.accepts)


def tensor_cases(rule: Rule, pending: Sequence[str]) -> list[Case]:
    """Overload dtypes for one tensor parameter covering every atom of ``pending``."""
    kept = [c for c in pending if c in CATEGORIES and all(rule(m) == m for m in members(c))]
    widest = [c for c in kept if not any(c != other and within(c, other) for other in kept)]
    cases = [Case((c,), c, kept=True) for c in widest]
    rest = [atom for atom in pending if not any(within(atom, c) for c in widest)]
    groups: dict[str, list[str]] = {}
    for dtype in (atom for atom in rest if atom in CONCRETE):
        result = rule(dtype)
        if result is not None:
            groups.setdefault(result, []).append(dtype)
    cases += [Case(simplest_union(dtypes), result) for result, dtypes in groups.items()]
    for category in (atom for atom in rest if atom in CATEGORIES):
        results = [result for m in members(category) if (result := rule(m)) is not None]
        if results and not any(case.covers(category) for case in cases):
            cases.append(Case((category,), narrowest(results)))
    return prune(cases)


def simplest_union(dtypes: Sequence[str]) -> tuple[str, ...]:
    """``dtypes`` as the fewest atoms: every category whose members are all there replaces them."""
    inside = [c for c in CATEGORIES if set(members(c)) <= set(dtypes)]
    widest = [c for c in inside if not any(c != other and within(c, other) for other in inside)]
    loose = [d for d in dtypes if not any(within(d, c) for c in widest)]
    return tuple(sorted([*loose, *widest], key=ATOMS.index))


def prune(cases: list[Case]) -> list[Case]:
    """Drop cases whose every atom a later case catches first with the same result."""
    index = 0
    while index < len(cases):
        case, later = cases[index], cases[index + 1 :]
        catchers = [next((other for other in later if other.covers(atom)), None) for atom in case.accepts]
        if not case.kept and all(c is not None and not c.kept and c.result == case.result for c in catchers):
            del cases[index]
            index = 0
        else:
            index += 1
    return cases


def pair_cases(rule: Rule) -> list[Case]:
    """Overload dtypes shared by two tensor parameters: one case per leaf category (or a union of
    leaves with one result), then every pair of dtypes."""
    cases: list[Case] = []
    for leaf in LEAVES:
        pairs = [(a, b, accepted(rule(a, b))) for a in members(leaf) for b in members(leaf)]
        results = [result for a, b, result in pairs if result is not None]
        if not results:
            continue
        if leaf in CATEGORIES and all(result in (a, b) for a, b, result in pairs if result is not None):
            cases.append(Case((leaf,), leaf, kept=True))
            continue
        result = narrowest(results)
        merged = next((c for c in cases if not c.kept and c.result == result and _one_result(rule, (*c.accepts, leaf)) == result), None)
        if merged is not None and result in CONCRETE:  # one union for the leaves of one result
            cases[cases.index(merged)] = Case(simplest_union(_concretes((*merged.accepts, leaf))), result)
        else:
            cases.append(Case((leaf,), result))
    everything = _one_result(rule, ("generic",))
    cases.append(Case(("generic",), everything if everything in CONCRETE else "Any"))
    return prune(cases)


def _concretes(atoms: Iterable[str]) -> list[str]:
    return [dtype for atom in atoms for dtype in members(atom)]


def _one_result(rule: Rule, atoms: Sequence[str]) -> str | None:
    """The one result of ``rule`` over every pair of the atoms' dtypes, or None if they differ."""
    dtypes = _concretes(atoms)
    results = {result for a in dtypes for b in dtypes if (result := accepted(rule(a, b))) is not None}
    return results.pop() if len(results) == 1 else None


def scalar_levels(rule_for: Callable[[str], Rule]) -> list[tuple[str, list[Case]]]:
    """Overload dtypes of a tensor beside a Python scalar, per scalar kind, narrowest kind first.

    A parameter typed ``float`` also takes ``int`` and ``bool`` arguments, so an atom gets cases
    at a kind only where its results change at the next wider kind; until then the wider kind's
    case answers for the narrower kinds too.
    """
    levels: list[tuple[str, list[Case]]] = []
    for index, kind in enumerate(KINDS):
        rule = rule_for(kind)
        wider = rule_for(KINDS[index + 1]) if index + 1 < len(KINDS) else None
        pending = [a for a in ATOMS if wider is None or [rule(m) for m in members(a)] != [wider(m) for m in members(a)]]
        if pending:
            levels.append((kind, tensor_cases(rule, pending)))
    return levels


# --- the ops ----------------------------------------------------------------------------------

def unary_rule(op: str) -> Rule:
    return lambda dtype: accepted(shape_rules.unary_dtype(op, dtype))


def binary_rule(op: str) -> Rule:
    return lambda left, right: accepted(shape_rules.binary_dtype(op, left, right))


def where_rule(left: str, right: str) -> str | None:
    return shape_rules.where_dtype(left, right)


#: The elementwise functions, each by its rule's name, in the order they are written.
UNARY: Final = (
    "abs", "negative", "positive", "exp", "log", "log1p", "expm1", "sqrt", "square", "sin", "cos", "tanh",
    "sigmoid", "relu", "floor", "ceil", "sign", "logical_not",
    "erf", "tan", "arctan", "log2", "log10", "rsqrt", "isnan", "isinf", "isfinite", "silu", "softplus", "gelu",
)
#: A unary function's further parameters (declared, then passed on to the op), by its rule's name.
UNARY_OPTIONS: Final = {"gelu": ("approximate: bool = False", "approximate")}
BINARY: Final = (
    "add", "subtract", "multiply", "divide", "floor_divide", "power", "maximum", "minimum", "equal", "not_equal",
    "less", "less_equal", "greater", "greater_equal", "logical_and", "logical_or",
)
#: ``x == y`` and ``!=`` also take any object (``object.__eq__`` does), unequal unless an operand.
EQUALITY: Final = ("__eq__", "__ne__")


# --- signatures as text -------------------------------------------------------------------

def tensor(dtype: str, shape: str) -> str:
    return f"Tensor[{dtype}, {shape}]"


@dataclass(frozen=True)
class Parameter:
    """A parameter: a Python scalar of ``kind``, or a tensor of ``dtype`` (None: any) and ``shape``;
    ``OPERAND`` for ``kind`` takes either."""

    name: str
    kind: str | None = None
    dtype: Case | None = None
    shape: str = SAME

    @property
    def annotation(self) -> str:
        if self.kind is not None:
            return self.kind
        return tensor(self.dtype.parameter if self.dtype is not None else "Any", self.shape)

    def accepts(self, argument: str, same_shape: bool) -> bool:
        """Whether an argument (a dtype or category, or a scalar kind) fits; a bool fits any kind."""
        if self.kind is not None:
            return argument in KINDS and KINDS.index(argument) <= KINDS.index(self.kind)
        if argument in KINDS or (self.shape == SAME and not same_shape):
            return False
        return self.dtype is None or self.dtype.covers(argument)


@dataclass(frozen=True)
class Signature:
    """One overload: its parameters, and the dtype and shape of its result."""

    parameters: tuple[Parameter, ...]
    result: Case
    shape: str = SAME
    options: str = ""  # further parameters, declared as they are (``approximate: bool = False``)

    @property
    def returns(self) -> str:
        return tensor(self.result.returns, self.shape)

    def text(self, name: str, indent: str, ignores: Sequence[str] = ()) -> str:
        parameters = ", ".join([*(f"{p.name}: {p.annotation}" for p in self.parameters), *filter(None, [self.options])])
        comment = f"  # type: ignore[{', '.join(ignores)}]" if ignores else ""
        return f"{indent}@overload\n{indent}def {name}({parameters}) -> {self.returns}: ...{comment}\n"

    def matches(self, call: Call) -> bool:
        arguments, same_shape = call
        return all(p.accepts(argument, same_shape) for p, argument in zip(self.parameters, arguments))

    def answer(self, call: Call) -> tuple[frozenset[str] | None, str]:
        """The dtypes its result may be for ``call`` (None: any), and its shape."""
        if not self.result.kept:
            return (None if self.result.result == "Any" else frozenset(members(self.result.result))), self.shape
        solved = [a for p, a in zip(self.parameters, call[0]) if p.dtype is self.result]  # the TypeVar's join
        return frozenset(members(narrowest(_concretes(solved)))), self.shape

    def may_overlap(self, later: Signature) -> bool:
        """Whether mypy may find this and a later overload unsafely overlapping: a bool argument is
        also an int, an int a float, so a narrower scalar kind matches a wider kind's overload too."""
        kinds, later_kinds = ([(p.name, p.kind) for p in s.parameters if p.kind in KINDS] for s in (self, later))
        same_positions = [name for name, _ in kinds] == [name for name, _ in later_kinds]
        return bool(kinds) and same_positions and kinds != later_kinds and self.returns != later.returns


def overloads_text(name: str, signatures: Sequence[Signature], indent: str) -> str:
    """The overloads, each overlap mypy may report (a bool is an int: unavoidable) ignored.

    Whether mypy reports one depends on how it compares TypeVars, so ``unused-ignore`` is allowed
    alongside: the ignore says the overlap is known, not that mypy must find it.
    """
    texts = []
    for index, signature in enumerate(signatures):
        overlaps = any(signature.may_overlap(later) for later in signatures[index + 1 :])
        texts.append(signature.text(name, indent, ("overload-overlap", "unused-ignore") if overlaps else ()))
    return "".join(texts)


INEXACT: Final = set(members("inexact"))
#: A call as the overloads see it: each argument's dtype or category (or scalar kind), and
#: whether its tensors all have one shape.
Call = tuple[tuple[str, ...], bool]


def floats_first(signatures: list[Signature]) -> list[Signature]:
    """The overloads of float tensors moved forward, as far as each may go without changing the
    answer to any call (tried on every combination of dtypes, categories and scalar kinds).

    pyright evaluates a nested call's arguments again for every overload it tries (``maximum(maximum(x,
    0.0), 0.0)`` costs the square of the overloads tried), so model code's calls, on floats, must
    find their overload among the first.
    """
    matching = {call: [s for s in signatures if s.matches(call)] for call in _calls(signatures)}
    ordered = list(signatures)
    for index, signature in enumerate(ordered):
        if not of_floats(signature):
            continue
        position = {id(s): i for i, s in enumerate(ordered)}
        changed = []
        for call, matched in matching.items():
            first = min(matched, key=lambda s: position[id(s)], default=None)
            if signature in matched and first is not None and first.answer(call) != signature.answer(call):
                changed.append(position[id(first)])
        floats_before = [i for i in range(index) if of_floats(ordered[i])]
        ordered.insert(max([*changed, *floats_before, -1]) + 1, ordered.pop(index))
    return ordered


def of_floats(signature: Signature) -> bool:
    """Whether the overload is one of float (or complex) tensors only."""
    dtypes = [p.dtype for p in signature.parameters if p.dtype is not None]
    return bool(dtypes) and all(set(_concretes(dtype.accepts)) <= INEXACT for dtype in dtypes)


def compact(signatures: list[Signature]) -> list[Signature]:
    """The overloads of float tensors and of scalars alone, then one for each form of call (tensor and
    tensor, tensor and scalar ...) answering for every dtype: the one dtype all its calls give, or Any.

    A function's arguments are often calls (``maximum(add(x, b), 0.0)``), which pyright evaluates again
    for each overload it tries, and for every later one once an argument's type holds ``Any`` (unknown
    dims): the cost grows as the overloads tried, to the power of the nesting. Operators are free of
    it (their operands are evaluated once) and keep every overload.
    """
    kept = [s for s in signatures if of_floats(s) or all(p.kind is not None or p.dtype is None for p in s.parameters)]
    forms: dict[tuple[Parameter, ...], list[Signature]] = {}
    for signature in signatures:
        if any(p.dtype is not None for p in signature.parameters):
            forms.setdefault(tuple(map(_any_of_its_form, signature.parameters)), []).append(signature)
    return kept + [_catch_all(form, cases) for form, cases in forms.items()]


def _any_of_its_form(parameter: Parameter) -> Parameter:
    """The parameter taking every argument of its form: any scalar, or a tensor of any dtype."""
    if parameter.kind is not None:
        return Parameter(parameter.name, kind=KINDS[-1])
    return Parameter(parameter.name, dtype=parameter.dtype and Case(("generic",), "Any"), shape=parameter.shape)


def _catch_all(form: tuple[Parameter, ...], signatures: list[Signature]) -> Signature:
    """One overload of ``form`` answering what each of ``signatures`` does: their one dtype, or Any."""
    answers = {signature.result.returns for signature in signatures}
    answer = answers.pop() if len(answers) == 1 and not signatures[0].result.kept else "Any"
    return Signature(form, Case(("generic",), answer), signatures[0].shape)


def function_signatures(op: str) -> list[Signature]:
    """A binary function's overloads (``where`` for ``"where"``), compact for nested calls."""
    if op == "where":
        return [*unknown_rank_operands(where_rule, ("condition", "x1", "x2"), "x1", "x2"), *compact(where_signatures())]
    numpy_scalars = [numpy_scalar_signature(op, ("x1", "x2"), scalar_first) for scalar_first in (False, True)]
    return [*compact(binary_signatures(op, ("x1", "x2"), "both")), *numpy_scalars]


def unknown_rank_operands(rule: Rule, names: Sequence[str], *caught: str) -> list[Signature]:
    """An op's first overloads, one for each parameter ``caught``: a tensor of unknown rank there (a
    run of unknown dims, or ``Any``) gives unknown dims, and the one dtype of every call (or Any).

    A ``*Shape`` is solved from the first argument that fixes it, then a run of unknown dims (or
    ``Any``) matches it: ``where(mask[T, T], scores[*tuple[Any, ...]], -1e9)`` would be ``[T, T]``
    under pyright where it may be ``[B, H, T, T]``. An argument of unknown rank before them makes
    ``*Shape`` unknown itself. ``BEYOND_RANKS`` takes such a tensor but none of rank 0 to 6 (a run
    of unknown dims may stand for seven), so known shapes pass on. The binary functions keep the
    gap the docs name: every call would try this overload first, and nested calls evaluate their
    arguments again for each overload tried.
    """
    beyond = ", ".join(BEYOND_RANKS)
    everything = _one_result(rule, ("generic",))
    result = Case(("generic",), everything if everything in CONCRETE else "Any")

    def parameter(name: str, caught_name: str) -> Parameter:
        if name == caught_name:
            return Parameter(name, shape=beyond)
        return Parameter(name, shape=ANY_SHAPE) if name in ("self", "condition") else Parameter(name, kind=OPERAND)

    return [Signature(tuple(parameter(name, caught_name) for name in names), result, ANY_SHAPE) for caught_name in caught]


def _calls(signatures: Sequence[Signature]) -> list[Call]:
    """Every call the overloads may see: per parameter, every dtype and category, or scalar kind."""
    options: list[tuple[str, ...]] = []
    for position in range(len(signatures[0].parameters)):
        parameters = [s.parameters[position] for s in signatures]
        if all(p.kind is None and p.dtype is None for p in parameters):
            options.append(("generic",))  # a condition of any dtype
        else:
            options.append(tuple(a for a in (*ATOMS, *KINDS) if any(p.accepts(a, False) or p.accepts(a, True) for p in parameters)))
    return [(arguments, same) for arguments in itertools.product(*options) for same in (True, False)]


def unary_signatures(op: str, x: str) -> list[Signature]:
    cases = tensor_cases(unary_rule(op), list(ATOMS))
    options = UNARY_OPTIONS.get(op, ("", ""))[0]
    return [Signature((Parameter(x, dtype=case),), case, options=options) for case in cases]


def unary_function(op: str) -> str:
    """A unary function: its overloads, then the implementation passing its options on to the op."""
    declared, passed = UNARY_OPTIONS.get(op, ("", ""))
    parameters = ", ".join(filter(None, [f"x: {ANY_TENSOR}", declared]))
    return function_text(op, unary_signatures(op, "x"), parameters, f'unary("{op}", {", ".join(filter(None, ["x", passed]))})')


def pair_signatures(rule: Rule, names: tuple[str, str], prefix: Sequence[str] = (), shapes: Sequence[str] = (SAME, ANY_SHAPE)) -> list[Signature]:
    """Both operands tensors: same-shape overloads, then broadcasting ones of unknown dims."""
    signatures = []
    for shape in shapes:
        for case in pair_cases(rule):
            condition = [Parameter(name, shape=shape) for name in prefix]
            operands = [Parameter(name, dtype=case, shape=shape) for name in names]
            signatures.append(Signature((*condition, *operands), case, shape))
    return signatures


def scalar_signatures(
    rule: Rule, names: tuple[str, str], scalar_first: bool, prefix: Sequence[str] = (), shape: str = SAME
) -> list[Signature]:
    """A tensor and a Python scalar, in that order or the other; the tensors (``prefix``'s too) of ``shape``."""
    def rule_for(kind: str) -> Rule:
        return (lambda dtype: rule(kind, dtype)) if scalar_first else (lambda dtype: rule(dtype, kind))

    signatures = []
    for kind, cases in scalar_levels(rule_for):
        for case in cases:
            scalar = Parameter(names[0 if scalar_first else 1], kind=kind)
            operand = Parameter(names[1 if scalar_first else 0], dtype=case, shape=shape)
            operands = sorted([scalar, operand] if scalar_first else [operand, scalar], key=lambda p: p.name != "self")  # self first
            signatures.append(Signature((*[Parameter(name, shape=shape) for name in prefix], *operands), case, shape))
    return signatures


def binary_signatures(op: str, names: tuple[str, str], sides: str) -> list[Signature]:
    """``sides``: ``"both"`` (a function), ``"right"`` (``x.__add__(y)``), ``"left"`` (``__radd__``)."""
    rule = binary_rule(op)
    if sides == "left":
        return floats_first(scalar_signatures(rule, names, scalar_first=True))
    scalars = scalar_signatures(rule, names, scalar_first=False) + (scalar_signatures(rule, names, scalar_first=True) if sides == "both" else [])
    # one shape's first: ``maximum(x, 0.0)`` finds its overload sooner
    return floats_first(pair_signatures(rule, names, shapes=(SAME,)) + scalars + pair_signatures(rule, names, shapes=(ANY_SHAPE,)))


def where_signatures() -> list[Signature]:
    """``where``'s overloads: exact where every tensor has one shape (``*Shape``), unknown dims and
    the dtype otherwise: a condition and an operand of different shapes beside a scalar broadcast
    (``where(mask[T, T], scores[B, H, T, T], -1e9)`` is rank 4), so no ``*Shape`` may join them."""
    prefix = ["condition"]
    names = ("x1", "x2")
    signatures = []
    for shape in (SAME, ANY_SHAPE):  # one shape's first: ``where(m, x, 0.0)`` finds its overload sooner
        signatures += pair_signatures(where_rule, names, prefix, (shape,))
        signatures += scalar_signatures(where_rule, names, False, prefix, shape) + scalar_signatures(where_rule, names, True, prefix, shape)
    for kind in KINDS:  # two Python scalars: numpy's default dtype of the wider kind
        result = Case((), shape_rules.where_dtype(kind, kind))
        signatures.append(Signature((Parameter("condition"), Parameter("x1", kind=kind), Parameter("x2", kind=kind)), result))
    return floats_first(signatures)


# --- the reductions -------------------------------------------------------------------------

#: The ranks whose reductions get exact overloads: one axis (positive or negative) on each; pairs
#: of axes (in either order) on some; Selection strings on some. Anything else (a rank above these
#: or unknown, an axis only known at run time, a list, three axes) falls back to unknown dims.
SINGLE_AXIS_RANKS: Final = range(1, 7)
PAIR_RANKS: Final = range(2, 5)
SELECTION_RANKS: Final = range(1, 5)
#: One TypeVar per dim of an overload's tensor, so that any dim (a literal size, a ``Dim`` class, a
#: TypeVar) flows through to the result; one more than the ranks covered, for ``BEYOND_RANKS``.
DIM_VARS: Final = tuple(f"D{index}" for index in range(max(SINGLE_AXIS_RANKS) + 1))
ONE: Final = "Literal[1]"
#: A tensor of more dims than any overload's, or with a run of unknown length (``*tuple[Any, ...]``,
#: which may stand for any number of dims): the overload of this receiver comes before the ones of
#: fixed ranks and answers unknown dims, so a run never matches a fixed rank (a wrong shape).
#: Its dims are TypeVars, not Any: mypy infers a nested call in the context of each overload it
#: tries, and would take Any dims there as the nested result's own (``squeeze(expand_dims(x, 0), 0)``
#: would match this overload); it leaves an outer overload's TypeVars out of that inference.
BEYOND_RANKS: Final = (*DIM_VARS, ANY_SHAPE)
#: What a reduction takes besides the tensor, as its implementation and its last overloads declare it.
REDUCTION_ARGUMENTS: Final = "axis: Axis[AxisIndexT] = None, keepdims: bool = False"


@dataclass(frozen=True)
class ReductionForm:
    """One reduction overload's shape: the receiver's dims, the ``axis`` and ``keepdims`` it takes
    (as annotations), the result's dims, and the axes the annotation admits with the keepdims."""

    dims: tuple[str, ...]
    axis: str
    keepdims: str
    result: tuple[str, ...]
    axes: tuple[shape_rules.AxisKey, ...] = ()
    kept: bool = False

    def parameters(self, tensor_parameter: str, dtype: str) -> str:
        return f"{tensor_parameter}: {tensor(dtype, ', '.join(self.dims))}, axis: {self.axis}, {self.keepdims}"

    def returns(self, dtype: str) -> str:
        return tensor(dtype, ", ".join(self.result)) if self.result else f"Tensor[{dtype}]"


def literal(values: Iterable[int | str]) -> str:
    return f"Literal[{', '.join(str(v) if isinstance(v, int) else f'{chr(34)}{v}{chr(34)}' for v in values)}]"


#: An ``axis`` annotation, and the values it admits (which the shape rule checks).
Spelling = tuple[str, list[shape_rules.AxisKey]]


def axis_spellings(rank: int, reduced: tuple[int, ...]) -> list[Spelling]:
    """The ``axis`` annotations that reduce exactly the dims ``reduced`` (one or two) of a tensor of
    ``rank`` dims: one literal axis (either sign) or its Selection string, a pair in either order."""
    signs = [(axis, axis - rank) for axis in reduced]
    literals: list[int | str] = list(signs[0]) if len(reduced) == 1 else []
    if rank in SELECTION_RANKS:
        literals.append(selection(rank, reduced))
    spellings: list[Spelling] = [(literal(literals), list(literals))]
    if len(reduced) == 2:
        first, second = (literal(values) for values in signs)
        pairs = [(a, b) for a in signs[0] for b in signs[1]]
        spellings.append((f"tuple[{first}, {second}] | tuple[{second}, {first}]", [*pairs, *((b, a) for a, b in pairs)]))
    return spellings


def reduced_dims_of(rank: int) -> list[tuple[int, ...]]:
    """The dims a reduction overload of ``rank`` dims reduces: each one, then each pair (on some ranks)."""
    pairs = list(itertools.combinations(range(rank), 2)) if rank in PAIR_RANKS else []
    return [*((axis,) for axis in range(rank)), *pairs]


def axis_alias(rank: int, reduced: tuple[int, ...]) -> str:
    """The name of the ``axis`` annotation reducing ``reduced`` of ``rank`` dims: ``Rank3Axis0``, ``Rank3Axes02``."""
    return f"Rank{rank}Axis{reduced[0]}" if len(reduced) == 1 else f"Rank{rank}Axes{''.join(map(str, reduced))}"


def axis_aliases() -> dict[str, str]:
    """Each ``axis`` alias and the annotation it names: every spelling of the same reduced dims."""
    return {
        axis_alias(rank, reduced): " | ".join(text for text, _ in axis_spellings(rank, reduced))
        for rank in SINGLE_AXIS_RANKS
        for reduced in reduced_dims_of(rank)
    }


def selection(rank: int, reduced: Iterable[int]) -> str:
    return "".join(shape_rules.SELECTION_REDUCE if dim in reduced else shape_rules.SELECTION_KEEP for dim in range(rank))


def reduction_forms() -> list[ReductionForm]:
    """The shape overloads of a reduction, each checked against the shape rule for every spelling
    of its ``axis``: ``axis=None`` (any rank); per rank, each single axis and pair of axes, with and
    without keepdims, and ``axis=None`` with keepdims."""
    keep, drop = "keepdims: Literal[True]", "keepdims: Literal[False] = False"
    forms = [ReductionForm(("*Shape",), "None = None", drop, ())]
    for rank in SINGLE_AXIS_RANKS:
        dims = DIM_VARS[:rank]
        for reduced in reduced_dims_of(rank):
            for keepdims in (False, True):
                spellings = axis_spellings(rank, reduced)
                results = {reduced_dims(dims, axis, keepdims) for _, axes in spellings for axis in axes}
                assert len(results) == 1, (rank, reduced, spellings, results)
                axes = tuple(axis for _, values in spellings for axis in values)
                forms.append(ReductionForm(dims, axis_alias(rank, reduced), keep if keepdims else drop, results.pop(), axes, keepdims))
        # keepdims after an omitted axis is a keyword: alone, so that ``x.sum(0, True)`` still
        # matches the above; every dim's Selection beside it (ranks 1 and 2 have it above).
        every: list[Spelling] = [(literal([selection(rank, range(rank))]), [selection(rank, range(rank))])] if rank in SELECTION_RANKS and rank > 2 else []
        spellings = [*every, ("None", [None])]
        assert {reduced_dims(dims, axis, True) for _, axes in spellings for axis in axes} == {reduced_dims(dims, None, True)}
        axes = tuple(axis for _, values in spellings for axis in values)
        forms.append(ReductionForm(dims, f"{' | '.join(text for text, _ in spellings)} = None, *", keep, reduced_dims(dims, None, True), axes, True))
    return forms


def reduced_dims(dims: tuple[str, ...], axis: shape_rules.AxisKey, keepdims: bool) -> tuple[str, ...]:
    """The result's dims by the shared rule, on symbolic dims (each dim its TypeVar's name)."""
    result = shape_rules.reduce_shape(shape_rules.Shape[str, str](dims), axis, keepdims, ONE)
    assert isinstance(result, shape_rules.Shape) and result.variadic is None, (dims, axis, result)
    return tuple(map(str, result.prefix))


def reduction_cases(op: str) -> list[Case]:
    """The result dtypes of ``op``, from its rule over every dtype and category; the first is the
    one whose shapes the overloads give exactly (floats': a kept dtype, or the one result)."""
    return tensor_cases(lambda dtype: shape_rules.result_dtype(op, dtype), list(ATOMS))


def reduction_overloads(op: str, name: str, tensor_parameter: str, indent: str, extra: str = "") -> str:
    """A reduction's overloads: ``axis=None`` for every dtype; a tensor beyond the ranks covered;
    every shape form for the first dtype case; then unknown dims for every dtype. ``extra`` is
    what each takes after ``keepdims`` (``var``'s ``, ddof: float = 0``).

    A method keeps its dtype through the class's ``DT``, its ``self`` annotated with the category:
    mypy binds a ``self`` of a TypeVar dtype to a TypeVar bounded by any category (python/mypy's
    self-type check erases it), which would keep a ``sum`` of ``Tensor[DT, ...]`` as ``DT``.
    """
    method = tensor_parameter == "self"
    cases = reduction_cases(op)

    def dtypes(case: Case) -> tuple[str, str]:
        return (case.accepts[0], "DT") if method and case.kept else (case.parameter, case.returns)

    def receiver(case: Case, dims: str) -> str:
        return f"{tensor_parameter}: {tensor(dtypes(case)[0], dims)}"

    anything = REDUCTION_ARGUMENTS
    everything, *shapes = reduction_forms()
    exact = dtypes(cases[0])
    # A dtype case of a category's result (sum of ``integer``) would overlap the unknown dims of a
    # case before it (``signedinteger``): it keeps those.
    named = [case for case in cases if case.kept or case.result in CONCRETE]
    signatures = [(everything.parameters(tensor_parameter, dtypes(case)[0]), everything.returns(dtypes(case)[1])) for case in named]
    signatures.append((f"{receiver(cases[0], ', '.join(BEYOND_RANKS))}, {anything}", tensor(exact[1], ANY_SHAPE)))
    signatures += [(form.parameters(tensor_parameter, exact[0]), form.returns(exact[1])) for form in shapes]
    signatures += [(f"{receiver(case, ANY_SHAPE)}, {anything}", tensor(dtypes(case)[1], ANY_SHAPE)) for case in cases]
    if method:  # the last takes any receiver, as the method does: a Tensor of an invalid dtype too
        # (where others keep ``DT``, its own dtype is Any: mypy sees no bound on ``DT`` to relate them)
        kept_before = any(case.kept for case in cases) and not cases[-1].kept
        signatures[-1] = (f"self, {anything}", tensor("Any", ANY_SHAPE) if kept_before else signatures[-1][1])
    return overloads_of(name, [(parameters + extra, returns) for parameters, returns in signatures], indent)


def overloads_of(name: str, signatures: Iterable[tuple[str, str]], indent: str) -> str:
    """An ``@overload`` of ``name`` for each signature: its parameters and its return type, as text."""
    return "".join(f"{indent}@overload\n{indent}def {name}({parameters}) -> {returns}: ...\n" for parameters, returns in signatures)


def reduction_dtypes(op: str, method: bool) -> tuple[str, str]:
    """The dtypes of a reduction implementation's tensor and result: its one dtype case's (kept: a
    function's TypeVar, while a method's unannotated ``self`` relates to none), else Any."""
    cases = reduction_cases(op)
    if len(cases) != 1:
        return "Any", "Any"
    (case,) = cases
    if case.kept:
        return ("Any", "Any") if method else (case.parameter, case.returns)
    return "Any", case.returns


def reduction_function(op: str) -> str:
    """``reduce_<op>``: its overloads, then the implementation, which unwraps and reduces."""
    name = f"reduce_{op}"
    parameter, result = reduction_dtypes(op, method=False)
    parameters = f"x: {tensor(parameter, ANY_SHAPE)}, {REDUCTION_ARGUMENTS}"
    body = f'return reduce_tensor("{op}", x, axis, keepdims, "{name}")'
    return reduction_overloads(op, name, "x", "") + implementation(name, parameters, tensor(result, ANY_SHAPE), body, "", name)


def reduction_method(op: str) -> str:
    """``Tensor.<op>``: its overloads, then the implementation, which reduces the tensor's array."""
    _, result = reduction_dtypes(op, method=True)
    # numpy's arrays straight to the reducer (no frame more on the fast path), others' to their library
    reducer = "(_reducer.reduce_array if type(self._array) is np.ndarray else _reductions.reduce_array)"
    body = f'return wrap({reducer}("{op}", self._array, axis, keepdims, "{op}"))'
    implementation_text = implementation(op, f"self, {REDUCTION_ARGUMENTS}", tensor(result, ANY_SHAPE), body, METHOD, f"Tensor.{op}")
    return reduction_overloads(op, op, "self", METHOD) + implementation_text


# --- the statistics ------------------------------------------------------------------------

def statistic_extra(op: str) -> str:
    """What a statistic takes after ``keepdims``: ``ddof`` for ``var`` and ``std``."""
    return ", ddof: float = 0" if op in shape_rules.DEVIATION_OPS else ""


def statistic_call(op: str, array: str) -> str:
    """The call of the array op of statistic ``op`` on ``array``, named ``op`` in messages."""
    ddof = ", ddof" if op in shape_rules.DEVIATION_OPS else ""
    return f'statistic("{op}", {array}, axis, keepdims, "{op}"{ddof})'


def statistic_function(op: str) -> str:
    """``var`` ... ``nanmin``: a reduction's overloads, then the implementation, which unwraps and reduces."""
    parameter, result = reduction_dtypes(op, method=False)
    parameters = f"x: {tensor(parameter, ANY_SHAPE)}, {REDUCTION_ARGUMENTS}{statistic_extra(op)}"
    body = f'return wrap({statistic_call(op, f"unwrap({chr(34)}{op}{chr(34)}, x)")})'
    return reduction_overloads(op, op, "x", "", statistic_extra(op)) + implementation(op, parameters, tensor(result, ANY_SHAPE), body, "", op)


def statistic_method(op: str) -> str:
    """``Tensor.var`` and ``Tensor.std``: a reduction method's overloads, then the implementation."""
    _, result = reduction_dtypes(op, method=True)
    parameters = f"self, {REDUCTION_ARGUMENTS}{statistic_extra(op)}"
    body = f"return wrap(_statistics.{statistic_call(op, 'self._array')})"
    implementation_text = implementation(op, parameters, tensor(result, ANY_SHAPE), body, METHOD, f"Tensor.{op}")
    return reduction_overloads(op, op, "self", METHOD, statistic_extra(op)) + implementation_text


def statistics_module() -> str:
    return functions_module(
        "The statistics ``var``, ``std``, ``nansum``, ``nanmean``, ``nanmax``, ``nanmin``, with their\n"
        "declared signatures.\n\n"
        "They reduce as the reductions do: the same overloads (``reduction_overloads``), each dtype by\n"
        "the dtype rules. The implementation is ``_ops.statistics.statistic``.",
        "shape and dtype",
        "Any, Literal, overload",
        ["from typedtensor._ops.statistics import statistic\n", "from typedtensor._tensor import Axis, AxisIndexT, Tensor, unwrap, wrap\n"],
        "\n\n".join(statistic_function(op) for op in shape_rules.STATISTIC_OPS),
    )


# --- expand_dims and squeeze ---------------------------------------------------------------

#: The run of dims in ``expand_dims``' and ``squeeze``'s overloads.
SHAPING_RUN: Final = "*Shape"
SymbolicShape = shape_rules.Shape[str, str]
ShapingRule = Callable[[SymbolicShape, int, shape_rules.Dims[str]], "SymbolicShape | shape_rules.Problem"]
#: The ops of one literal axis whose overloads are generated, each by its rule, and the ``axis``
#: the fallback takes: every axis the runtime does.
SHAPING_OPS: Final[dict[str, tuple[ShapingRule, str]]] = {
    "expand_dims": (shape_rules.expand_dims_shape, "axis: int"),
    "squeeze": (shape_rules.squeeze_shape, "axis: Axis[AxisIndexT] = None"),
}
#: The overloads' dims as the rules see them: a TypeVar's name, of no known size. So squeeze's
#: overloads take any dim where they remove one (the call raises unless it is 1), and a ``Dim``
#: class, a TypeVar or ``int`` there goes as the plugin removes it; ``Literal[1]`` there would
#: refuse those (a tensor's dims are invariant) and leave them unknown dims.
SYMBOLIC_DIMS: Final = shape_rules.Dims[str](lambda dim: None, lambda size: literal([size]))


@dataclass(frozen=True)
class AxisForm:
    """The overload of one literal ``axis``: the receiver's fixed dims beside a run (before it for a
    positive axis, after it for a negative one: as few as the rule needs to be exact), and the
    result's dims by the rule. One overload answers every rank the axis is valid on."""

    axis: int
    receiver: SymbolicShape
    result: SymbolicShape

    @property
    def anywhere(self) -> bool:
        """Whether it fixes no dim, so that it is exact on a run of unknown dims too."""
        return not self.receiver.prefix and not self.receiver.suffix


def axis_form(rule: ShapingRule, axis: int) -> AxisForm:
    for count in range(len(DIM_VARS) + 1):
        dims = DIM_VARS[:count]
        receiver = SymbolicShape(dims, SHAPING_RUN) if axis >= 0 else SymbolicShape((), SHAPING_RUN, dims)
        result = rule(receiver, axis, SYMBOLIC_DIMS)
        if isinstance(result, shape_rules.Shape) and result.variadic == SHAPING_RUN and shape_rules.UNKNOWN not in (*result.prefix, *result.suffix):
            return AxisForm(axis, receiver, result)
    raise AssertionError(f"no overload of axis {axis} is exact")


def single_axes(rule: ShapingRule) -> list[int]:
    """The axes valid on a tensor of some rank of ``SINGLE_AXIS_RANKS``, by the rule; 0, -1, 1, -2 ...
    in that order, the common ones first (pyright tries the overloads in order)."""
    def valid(axis: int) -> bool:
        return any(isinstance(rule(SymbolicShape(DIM_VARS[:rank]), axis, SYMBOLIC_DIMS), shape_rules.Shape) for rank in SINGLE_AXIS_RANKS)

    return [axis for distance in range(max(SINGLE_AXIS_RANKS) + 1) for axis in (distance, -distance - 1) if valid(axis)]


def shaping_forms(op: str) -> list[AxisForm]:
    rule, _ = SHAPING_OPS[op]
    return [axis_form(rule, axis) for axis in single_axes(rule)]


def shaping_overloads(op: str) -> str:
    """The overloads of ``op``: the axes exact on any shape; a tensor beyond the ranks covered or of
    a run of unknown dims (see ``BEYOND_RANKS``); the other axes; then unknown dims."""
    _, anything = SHAPING_OPS[op]
    forms = shaping_forms(op)

    def text(shape: SymbolicShape) -> str:
        return tensor("GenericT", ", ".join(map(str, [*shape.prefix, SHAPING_RUN, *shape.suffix])))

    exact = [(f"x: {text(form.receiver)}, axis: {literal([form.axis])}", text(form.result)) for form in forms]
    anywhere = [signature for form, signature in zip(forms, exact) if form.anywhere]
    fixed = [signature for form, signature in zip(forms, exact) if not form.anywhere]
    beyond = (f"x: {tensor('GenericT', ', '.join(BEYOND_RANKS))}, {anything}", tensor("GenericT", ANY_SHAPE))
    fallback = (f"x: {tensor('GenericT', ANY_SHAPE)}, {anything}", tensor("GenericT", ANY_SHAPE))
    return overloads_of(op, [*anywhere, beyond, *fixed, fallback], "")


def shaping_function(op: str) -> str:
    """``op``: its overloads, then the implementation, which calls ``_shaping``'s."""
    _, anything = SHAPING_OPS[op]
    return shaping_overloads(op) + implementation(op, f"x: {ANY_TENSOR}, {anything}", ANY_TENSOR, f"return _shaping.{op}(x, axis)", "", op)


# --- the generated files ------------------------------------------------------------------

HEADER: Final = '"""{doc}\n\nGenerated by ``tools/generate_signatures.py`` from {sources}: do not edit by hand.\n"""\n'
#: The sources of a module with docstrings: the rules, and the table of docstrings.
DOCUMENTED: Final = "the shared {rules} rules\nand the docstrings in ``tools/docstrings.py``"
ANY_TENSOR: Final = tensor("Any", ANY_SHAPE)
METHOD: Final = "    "  # the indent of a method's def
#: The names the generated code imports, by module (only those a module uses are imported).
IMPORTABLE: Final = {
    "typedtensor._dtypes": (*ATOMS, "NumpyScalar"),
    "typedtensor._generated.reduction_axes": tuple(axis_aliases()),
    "typedtensor._generated.type_vars": (*VARS.values(), "BoolT", "NewDT", *DIM_VARS, "N", "K", "M", "Shape"),
}


def docstring(name: str, indent: str) -> str:
    """The docstring of ``name`` in the table, as the first statement of a def whose body is at ``indent``."""
    first, *rest = inspect.cleandoc(DOCSTRINGS[name]).splitlines()
    if not rest:
        return f'{indent}"""{first}"""\n'
    lines = "".join(f"{indent}{line}\n" if line else "\n" for line in rest)
    return f'{indent}"""{first}\n{lines}{indent}"""\n'


def implementation(name: str, parameters: str, returns: str, body: str, indent: str, documented: str | None = None) -> str:
    """The def of ``name`` after its overloads: the table's docstring of ``documented``, if any, and its one-line body."""
    doc = docstring(documented, indent + "    ") if documented is not None else ""
    return f"{indent}def {name}({parameters}) -> {returns}:\n{doc}{indent}    {body}\n"


def imports_used(code: str) -> list[str]:
    """The imports of the dtypes, the TypeVars and the ``axis`` aliases that ``code`` uses (its
    docstrings left out), each module's names as ruff's isort orders them."""
    words = set(re.findall(r"\w+", re.sub(r'""".*?"""', "", code, flags=re.DOTALL)))
    lines = []
    for module, names in IMPORTABLE.items():
        used = sorted(words.intersection(names), key=isort_order)
        if used:
            lines.append(f"from {module} import {', '.join(used)}\n")
    return lines


def functions_module(doc: str, rules: str, typing_names: str, imports: Sequence[str], code: str, preamble: str = "") -> str:
    """A module of public functions: its docstring, the imports (``imports``, and those of the
    dtypes, TypeVars and aliases ``code`` uses) in order, ``preamble``, then ``code``."""
    return "".join([
        HEADER.format(sources=DOCUMENTED.format(rules=rules), doc=doc),
        "from __future__ import annotations\n\n",
        f"from typing import {typing_names}\n\n",
        *sorted([*imports, *imports_used(code)], key=lambda line: line.split()[1]),
        f"\n{preamble}\n\n" if preamble else "\n\n",
        code,
    ])


def isort_order(name: str) -> tuple[int, list[str | int]]:
    """Constants first (``D0``), then classes (``GenericT``, ``N``), then the rest, numbers in their
    natural order (``int8`` before ``int64``)."""
    kind = 0 if len(name) > 1 and name.isupper() else 1 if name[0].isupper() else 2
    return kind, [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", name.lower())]


def dtype_vars_module() -> str:
    lines = [
        HEADER.format(sources="the shared dtype rules", doc="The TypeVars every module shares: one per dtype category, for declared signatures that\n"
                      "keep a dtype; the dims of overloads; a tensor's shape.\n\n"
                      "A signature keeps its operands' dtype through a TypeVar bounded by a category of numpy's\n"
                      "hierarchy, not by ``generic``: a checker joins two arguments' dtypes to solve one TypeVar\n"
                      "(``float32`` and ``float64`` to ``floating``), and within a category the join holds the\n"
                      "promoted dtype, while across categories it may not (``int64`` with ``uint64`` joins to\n"
                      "``integer`` but promotes to ``float64``)."),
        "from typing import TypeVar, TypeVarTuple\n\n",
        f"from typedtensor._dtypes import {', '.join(sorted(['bool_', *CATEGORIES], key=isort_order))}\n\n",
        *[f'{var} = TypeVar("{var}", bound={category})\n' for category, var in VARS.items()],
        "#: The dtype of booleans, beside the categories' (bool @ bool is bool, and so is a concat of bools).\n",
        'BoolT = TypeVar("BoolT", bound=bool_)\n',
        "#: The dtype a cast gives.\n",
        'NewDT = TypeVar("NewDT", bound=generic)\n',
        "#: The dims of the reductions' overloads, one TypeVar per dim.\n",
        *[f'{var} = TypeVar("{var}")\n' for var in DIM_VARS],
        "#: The dims of a matrix product, ``N x K`` by ``K x M`` (and of a transpose, ``N x M``).\n",
        *[f'{var} = TypeVar("{var}")\n' for var in ("N", "K", "M")],
        "#: A tensor's dims, ``Tensor[DT, *Shape]``: the shape an op keeps.\n",
        'Shape = TypeVarTuple("Shape")\n',
        "#: The batch dims before a matrix product's last two (``Tensor``'s own ``Shape`` is another TypeVarTuple).\n",
        'Batch = TypeVarTuple("Batch")\n',
    ]
    return "".join(lines)


def reduction_axes_module() -> str:
    return "".join([
        HEADER.format(sources="the shared shape rules", doc="The ``axis`` annotations of the reductions' overloads: one alias per rank and reduced dims.\n\n"
                      "``Rank3Axis0`` is every ``axis`` that reduces dim 0 of a rank-3 tensor (``0``, ``-3``, ``\"^vv\"``);\n"
                      "``Rank3Axes02`` every one reducing dims 0 and 2. The overloads of every reduction, method and\n"
                      "function, keepdims or not, name the same annotation: pyright evaluates an alias once, where it\n"
                      "evaluated each spelled-out union again in every overload (docs/performance.md)."),
        "from typing import Literal, TypeAlias\n\n",
        *[f"{name}: TypeAlias = {annotation}\n" for name, annotation in axis_aliases().items()],
    ])


def function_text(name: str, signatures: list[Signature], implementation_parameters: str, call: str) -> str:
    """The function: its overloads and the implementation; one signature is the function's own."""
    if len(signatures) == 1:
        (signature,) = signatures
        declared = ", ".join(f"{p.name}: {p.annotation}" for p in signature.parameters)
        return implementation(name, declared, signature.returns, f"return {call}", "", name) + "\n\n"
    overloads = overloads_text(name, signatures, "")
    return overloads + implementation(name, implementation_parameters, ANY_TENSOR, f"return {call}", "", name) + "\n\n"


def api_module() -> str:
    functions = [unary_function(op) for op in UNARY]
    functions += [function_text(op, function_signatures(op), "x1: Operand, x2: Operand", f'binary("{op}", x1, x2)') for op in BINARY]
    functions.append(function_text("where", function_signatures("where"), f"condition: {ANY_TENSOR}, x1: Operand, x2: Operand", "select(condition, x1, x2)"))
    functions.append(implementation("cast", f"x: {tensor('Any', SAME)}, dtype: type[NewDT]", tensor("NewDT", SAME), 'return convert("cast", x, dtype)', "", "cast"))
    return functions_module(
        "The elementwise ops as public functions, with their declared signatures.\n\n"
        "Each ``@overload`` says what standard typing can say exactly without the mypy plugin; the\n"
        "runtime (``_elementwise``) and the plugin compute from the same rules.",
        "dtype",
        "Any, TypeAlias, overload",
        ["from typedtensor._elementwise import binary, convert, select, unary\n", "from typedtensor._tensor import Tensor\n"],
        "".join(functions),
        "#: What a binary op takes: a tensor, or a Python scalar (``complex`` admits bool, int and float),\n"
        "#: or a numpy scalar (a rank-0 tensor of its dtype).\n"
        f"Operand: TypeAlias = {ANY_TENSOR} | complex | NumpyScalar\n",
    )


def numpy_scalar_signature(op: str, names: tuple[str, str] = ("self", "other"), scalar_first: bool = False) -> Signature:
    """``x * np.float32(2)`` and ``np.float32(2) * x``, which numpy hands to ``x.__rmul__``: a numpy
    scalar is a rank-0 tensor of its dtype to numpy 2 (strong, unlike a Python scalar), so the
    shape is the tensor's and the dtype the one every pair of dtypes gives (``bool_``), else Any.
    numpy's ``float64`` and ``complex128`` are Python floats and complexes: the overloads before
    this one take them, weak."""
    everything = _one_result(binary_rule(op), ("generic",))
    tensor, scalar = Parameter(names[1] if scalar_first else names[0]), Parameter(names[0] if scalar_first else names[1], kind="NumpyScalar")
    return Signature((scalar, tensor) if scalar_first else (tensor, scalar), Case(("generic",), everything if everything in CONCRETE else "Any"))


def operator_block() -> str:
    """The operators of ``Tensor``, each calling the op of its name (``x + y`` is ``add(x, y)``)."""
    indent = "    "
    parts = []
    for name, op in shape_rules.UNARY_METHODS.items():
        overloads = overloads_text(name, unary_signatures(op, "self"), indent)
        parts.append(f"{overloads}{indent}def {name}(self) -> {ANY_TENSOR}:\n{indent}    return wrap(_elementwise.unary(\"{op}\", self._array))\n\n")
    for name, op in [*shape_rules.BINARY_METHODS.items(), *shape_rules.REFLECTED_METHODS.items()]:
        reflected = name in shape_rules.REFLECTED_METHODS
        names = ("other", "self") if reflected else ("self", "other")
        signatures = binary_signatures(op, names, "left" if reflected else "right")
        if not reflected and _one_result(binary_rule(op), ("generic",)) in CONCRETE:
            # mypy gives ``x[()] < scores`` (scores of unknown rank) rank 0: every overload it
            # matches returns bool_, so it takes the first; where their dtypes differ it says Any
            signatures = [*unknown_rank_operands(binary_rule(op), names, "other"), *signatures]
        overloads = overloads_text(name, [*signatures, numpy_scalar_signature(op)], indent)
        if name in EQUALITY:
            # mypy reports the override at the first decorator: each return differs from object's bool.
            overloads = overloads.replace("@overload\n", "@overload  # type: ignore[override]\n", 1)
            body = f'return _compared("{op}", self._array, other)'
            other = "object"
        else:
            other_value = f'operand("{op}", other, "x1", self._array)' if reflected else f'other._array if type(other) is Tensor else operand("{op}", other, "x2", self._array)'
            body = f'return wrap(_elementwise.binary("{op}", {other_value}, self._array))' if reflected else f'return wrap(_elementwise.binary("{op}", self._array, {other_value}))'
            other = "complex | NumpyScalar" if reflected else f"{ANY_TENSOR} | complex | NumpyScalar"
        returns = "Any" if name in EQUALITY else ANY_TENSOR
        parts.append(f"{overloads}{indent}def {name}(self, other: {other}) -> {returns}:\n{indent}    {body}\n\n")
    parts.append(
        f"{indent}def astype(self, dtype: type[NewDT]) -> Tensor[NewDT, *Shape]:\n"
        f"{docstring('Tensor.astype', indent + '    ')}"
        f'{indent}    return wrap(_elementwise.convert("astype", self._array, dtype))\n'
    )
    return "".join(parts)


BEGIN: Final = "# BEGIN GENERATED {name} (tools/generate_signatures.py)\n"
END: Final = "# END GENERATED {name}\n"


def replace_block(text: str, name: str, body: str) -> str:
    """``text`` with what lies between the markers of block ``name`` replaced by ``body``."""
    begin, end = BEGIN.format(name=name), END.format(name=name)
    start = text.index(begin) + len(begin)
    stop = text.index(end, start)
    indent = text[text.rindex("\n", 0, start - len(begin)) + 1 : start - len(begin)]
    return text[:start] + body + indent + text[stop:]


def tensor_methods() -> str:
    """``Tensor``'s generated methods, the block at the end of its class: the reductions, then the operators."""
    reductions = [reduction_method(op) + "\n" for op in shape_rules.REDUCTION_OPS]
    reductions += [statistic_method(op) + "\n" for op in shape_rules.DEVIATION_OPS]
    return "".join(reductions) + operator_block()


def reductions_module() -> str:
    return functions_module(
        "The reductions ``reduce_sum`` ... ``reduce_all``, with their declared signatures.\n\n"
        "Each ``@overload`` says what standard typing can say exactly without the mypy plugin: the\n"
        "result's dims for each rank and literal ``axis`` the shape rules give (``reduction_forms``),\n"
        "its dtype by the dtype rules. The implementation is ``_reductions.reduce_tensor``.",
        "shape and dtype",
        "Any, Literal, overload",
        ["from typedtensor._reductions import reduce_tensor\n", "from typedtensor._tensor import Axis, AxisIndexT, Tensor\n"],
        "\n\n".join(reduction_function(op) for op in shape_rules.REDUCTION_OPS),
    )


def shaping_module() -> str:
    return functions_module(
        "``expand_dims`` and ``squeeze``, with their declared signatures.\n\n"
        "Each ``@overload`` says what standard typing can say exactly without the mypy plugin: the\n"
        "result's dims for each literal ``axis`` by the op's shape rule (``axis_form``). The\n"
        "implementations are ``_shaping``'s.",
        "shape",
        "Any, Literal, overload",
        ["from typedtensor import _shaping\n", "from typedtensor._tensor import Axis, AxisIndexT, Tensor\n"],
        "\n\n".join(shaping_function(op) for op in SHAPING_OPS),
    )


def outputs() -> dict[Path, str]:
    """Each generated file and what it must hold: whole modules in ``_generated/``, and the block
    of ``Tensor``'s methods in ``_tensor.py``."""
    generated = PROJECT / "typedtensor" / "_generated"
    tensor_path = PROJECT / "typedtensor" / "_tensor.py"
    return {
        generated / "type_vars.py": dtype_vars_module(),
        generated / "reduction_axes.py": reduction_axes_module(),
        generated / "elementwise.py": api_module(),
        generated / "reductions.py": reductions_module(),
        generated / "shaping.py": shaping_module(),
        generated / "statistics.py": statistics_module(),
        tensor_path: replace_block(tensor_path.read_text(), "methods", tensor_methods()),
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="only check that the generated code is current")
    args = parser.parse_args(argv)
    stale = [path for path, text in outputs().items() if not path.exists() or path.read_text() != text]
    if args.check:
        for path in stale:
            print(f"{path.relative_to(PROJECT)} is stale: run python tools/generate_signatures.py")
        return 1 if stale else 0
    for path, text in outputs().items():
        path.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
