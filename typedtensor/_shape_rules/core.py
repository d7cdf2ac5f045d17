"""What every shape rule works with: shapes of opaque dims, unknowns, problems.

Dims are opaque values of any type ``D``: the runtime's are ints, the mypy plugin's are mypy
types (``Literal[32]``, a ``Dim`` class, a TypeVar). A rule learns a dim's literal size, or
whether it is a named dim, and makes a dim of a size it computed, only through the caller's
``Dims``. A dim the rule cannot know is ``UNKNOWN``.

A named dim is rigid (SPEC §7): it stands for every size it may take, so where two dims must
agree, a named dim against a literal or another named dim works only for some sizes and is a
``Clash``. The runtime's dims are all literal: it never sees one.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, Generic, TypeVar

from .dim_arithmetic import Polynomial, constant, expression_text, times


class Unknown(enum.Enum):
    """A value only known at run time: a dim, an axis, a whole argument, or a run of dims."""

    UNKNOWN = "UNKNOWN"

    def __repr__(self) -> str:
        return self.value


UNKNOWN: Final = Unknown.UNKNOWN

D = TypeVar("D")
V = TypeVar("V")


@dataclass(frozen=True)
class Shape(Generic[D, V]):
    """A shape of known dims around at most one run of unknown length.

    ``variadic`` is ``None`` for a fixed rank, the caller's own value for a run it can name
    (mypy's ``*Ts``), or ``UNKNOWN`` for any number of unknown dims (``*tuple[Any, ...]``).
    """

    prefix: tuple[D | Unknown, ...]
    variadic: V | Unknown | None = None
    suffix: tuple[D | Unknown, ...] = ()

    @property
    def rank(self) -> int | None:
        return len(self.prefix) if self.variadic is None else None


def _no_name(dim: object) -> None:
    return None


def _no_form(dim: object) -> None:
    return None


def _no_spelling(form: Polynomial) -> Unknown:
    return UNKNOWN


@dataclass(frozen=True)
class Dims(Generic[D]):
    """How the caller's dims are sized: ``size`` reads a dim's literal size (None for a named or
    generic dim), ``literal`` makes the dim of a size, ``name`` reads how messages write a named
    dim (a ``Dim`` class, a TypeVar of the function being checked), None for any other dim.

    Dim arithmetic (SPEC §9): ``form`` reads a dim that is not literal as its normal form (a named
    dim as an atom, ``Mul[B, T]`` as ``B*T``; None for a dim of no kind the rules know), ``spell``
    makes the dim of a normal form, and ``atom_text`` writes an atom's name as messages do. The
    runtime's dims are all literal and need none of them.
    """

    size: Callable[[D], int | None]
    literal: Callable[[int], D]
    name: Callable[[D], str | None] = _no_name
    form: Callable[[D], Polynomial | None] = _no_form
    spell: Callable[[Polynomial], D | Unknown] = _no_spelling
    atom_text: Callable[[str], str] = str

    def size_of(self, dim: D | Unknown) -> int | None:
        return None if isinstance(dim, Unknown) else self.size(dim)

    def name_of(self, dim: D | Unknown) -> str | None:
        return None if isinstance(dim, Unknown) else self.name(dim)

    def form_of(self, dim: D | Unknown) -> Polynomial | None:
        """The dim's normal form: a literal's constant, a named dim's or expression's form; None
        for an unknown dim."""
        if isinstance(dim, Unknown):
            return None
        size = self.size(dim)
        return constant(size) if size is not None else self.form(dim)

    def product(self, dims: Sequence[D | Unknown]) -> Polynomial | None:
        """The normal form of the dims' product; None if one of them is unknown."""
        result = constant(1)
        for dim in dims:
            form = self.form_of(dim)
            if form is None:
                return None
            result = times(result, form)
        return result

    def dim_of(self, form: Polynomial) -> D | Unknown:
        """The dim of a normal form: a literal for a size, else the caller's spelling (unknown for
        a negative size, which no dim has)."""
        if form.literal is not None:
            return self.literal(form.literal) if form.literal >= 0 else UNKNOWN
        return self.spell(form)

    def text_of(self, form: Polynomial) -> str:
        """How messages write a normal form: ``B*T``, ``C//4``."""
        return expression_text(form, self.atom_text)


def _int_identity(size: int) -> int:
    return size


#: The runtime's dims: every dim is its size.
INT_DIMS: Final = Dims[int](_int_identity, _int_identity)


@dataclass(frozen=True)
class Clash:
    """Two dims that must agree, at least one of them named: the code runs only for some sizes."""

    dims: tuple[str, str]  # as messages write them
    named: tuple[str, ...]  # those of ``dims`` that are named

    def pair(self) -> str:
        return f"{self.dims[0]} and {self.dims[1]}"

    def reason(self) -> str:
        """Why they may differ: ``T is a named dim``, ``T and U are named dims``."""
        return f"{self.named[0]} is a named dim" if len(self.named) == 1 else f"{join_operands(self.named)} are named dims"


def clash(left: D | Unknown, right: D | Unknown, dims: Dims[D]) -> Clash | None:
    """The clash of two dims that must agree: a named dim against a literal size or another
    named dim. Equal dims, unknown dims and two literals are not one (the last is a certain
    failure, each rule's own problem)."""
    if left == right:
        return None
    texts = []
    for dim in (left, right):
        size, name = dims.size_of(dim), dims.name_of(dim)
        if size is None and name is None:
            return None  # unknown, or a dim of no kind the rules know (``int``)
        texts.append(str(size) if name is None else name)
    named = tuple(name for dim in (left, right) if (name := dims.name_of(dim)) is not None)
    return Clash((texts[0], texts[1]), named) if named else None


class Problem:
    """Why a call cannot run, found by a rule: the runtime raises it, the plugin reports it.

    ``code`` is the static error code (``tensor-axis``); ``message`` words it for the operation
    ``op`` on operands written as ``format_tensor`` writes them. Both voices use these words.
    """

    code: ClassVar[str]

    def message(self, op: str, operands: Sequence[str]) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class DimsMayDiffer(Problem):
    """Two dims that must agree and clash (a named dim in them): the call runs only for some sizes.

    ``action`` is the op's verb (``broadcast``, ``matmul``, ``join``, ``squeeze``), ``label`` names
    the dims where the op has a word for them (``inner dims``), ``axis`` is where they are."""

    code: ClassVar[str] = "tensor-dim"
    action: str
    clash: Clash
    axis: int | None = None
    label: str = ""

    def message(self, op: str, operands: Sequence[str]) -> str:
        label = f"{self.label} " if self.label else ""
        where = f" at axis {self.axis}" if self.axis is not None else ""
        return (
            f'Cannot {self.action} {join_operands(operands)} for "{op}": '
            f"{label}{self.clash.pair()}{where} may differ: {self.clash.reason()}"
        )


def format_tensor(dtype: str, dims: Sequence[str]) -> str:
    """How messages write a tensor type: ``Tensor[float32, 32, Batch, *Rest]``."""
    return f"Tensor[{', '.join([dtype, *dims])}]"


def join_operands(operands: Sequence[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``: operands as a message lists them."""
    return operands[0] if len(operands) == 1 else f"{', '.join(operands[:-1])} and {operands[-1]}"


def join_shapes(parts: Sequence[Shape[D, V]]) -> Shape[D, V]:
    """The dims of ``parts`` one after another, as one shape.

    One run among them stays as it is; between two or more runs nothing is known, so everything
    from the first run to the last becomes one unknown run.
    """
    runs = [index for index, part in enumerate(parts) if part.variadic is not None]
    if not runs:
        return Shape(tuple(dim for part in parts for dim in part.prefix))
    first, last = runs[0], runs[-1]
    before = tuple(dim for part in parts[:first] for dim in part.prefix) + parts[first].prefix
    after = parts[last].suffix + tuple(dim for part in parts[last + 1 :] for dim in part.prefix)
    return Shape(before, parts[first].variadic if first == last else UNKNOWN, after)
