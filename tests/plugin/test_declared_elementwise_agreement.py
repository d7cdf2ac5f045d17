"""Every op with a mask or a scalar operand: pyright and plain mypy are never wrong about a call that runs.

One module holds, each in ``reveal_type``: ``where`` with each operand a tensor of rank 0 to 3 or
of unknown rank (a run of unknown dims), or a Python scalar (``x1`` and ``x2``); every binary
function and every operator, comparisons too, with a Python scalar on either side of a tensor of
those ranks; the operators on two tensors of those ranks, and the binary functions on two of
known ranks. The tensors' dims broadcast: aligned from the right, each the call's dim at that
place (a literal size, a ``Dim`` class or a TypeVar) or ``Literal[1]``. Each call runs once, under
one binding of the named dims; those that raise (a dtype an op refuses) are left out. pyright and
plain mypy check the module once each: no error on any call, and each revealed type holds for
what the call gave (its dtype, its rank unless a run of unknown dims stands in, each dim its
size). Where every tensor operand has the same known dims, the revealed dims are exactly those.
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import pytest

import typedtensor as tt
from tests.plugin.test_symbolic_agreement import HEAD, UNKNOWN_RUN, Run, holds, mypy_said, normal, pyright_said, split
from tests.support.mypy_helpers import Mypy
from typedtensor._shape_rules import BINARY_METHODS, BINARY_RULES, REFLECTED_METHODS

#: A tensor operand's rank, or None for a run of unknown dims.
Rank = int | None
RANKS: tuple[Rank, ...] = (0, 1, 2, 3, None)
SCALARS = ("True", "2", "-1e9", "1j")
DTYPES = ("float32", "float16", "float64", "int32", "int64", "uint8", "bool_", "complex64")
#: The dims of a call, the last first: a literal size or a named dim, each standing for a size.
CALL_DIMS = (("L[3]", "Seq"), ("N", "L[4]"), ("L[2]", "Batch"))
SIZES: dict[str, object] = {"Batch": 2, "Seq": 3, "N": 4, "M": 5}
#: What the run of unknown dims stands for at run time: one dim more than the call's known dims.
UNKNOWN_SHAPE = (2, 5, 4, 3)
OPERATORS = {
    "__add__": "+", "__sub__": "-", "__mul__": "*", "__truediv__": "/", "__floordiv__": "//", "__pow__": "**",
    "__eq__": "==", "__ne__": "!=", "__lt__": "<", "__le__": "<=", "__gt__": ">", "__ge__": ">=",
}


@dataclass(frozen=True)
class Operand:
    """A tensor operand: its dtype and dims (``UNKNOWN_RUN`` alone for unknown rank)."""

    dtype: str
    dims: tuple[str, ...]

    @property
    def annotation(self) -> str:
        return f"Tensor[tt.{self.dtype}{''.join(', ' + dim for dim in self.dims)}]"

    @property
    def shape(self) -> tuple[int, ...]:
        if self.dims == (UNKNOWN_RUN,):
            return UNKNOWN_SHAPE
        return tuple(int(dim[2:-1]) if dim.startswith("L[") else int(SIZES[dim]) for dim in self.dims)  # type: ignore[call-overload]


@dataclass(frozen=True)
class Call:
    """A call on tensors ``a``, ``b`` and ``c`` (as many as it takes), and its run."""

    source: str
    operands: tuple[Operand, ...]

    def text(self, index: int) -> str:
        parameters = ", ".join(f"{name}: {operand.annotation}" for name, operand in zip("abc", self.operands))
        return f"def case{index}({parameters}) -> None:\n    reveal_type({self.source})\n"

    def run(self) -> Run | None:
        tensors = {name: tt.ones(operand.shape, getattr(tt, operand.dtype)) for name, operand in zip("abc", self.operands)}
        try:
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore")
                result = eval(self.source, {"tt": tt, **tensors})  # our own generated source
        except (tt.TypedTensorError, TypeError):
            return None
        return Run(SIZES, result.dtype.__name__, result.shape)

    @property
    def same_dims(self) -> tuple[str, ...] | None:
        """The dims every tensor operand has, if one known shape."""
        shapes = {operand.dims for operand in self.operands}
        return shapes.pop() if len(shapes) == 1 and UNKNOWN_RUN not in self.operands[0].dims else None


@dataclass
class Dims:
    """Draws the dims of a call's operands, by turns: the call's kind of dims (all literal or all
    named), and on every other call some ``Literal[1]`` in each operand (else all of one shape)."""

    call: int = 0
    operands: int = 0

    def next_call(self) -> None:
        self.call += 1

    def operand(self, rank: Rank, dtype: str) -> Operand:
        if rank is None:
            return Operand(dtype, (UNKNOWN_RUN,))
        self.operands += 1
        dims = [CALL_DIMS[place][self.call // 2 % 2] for place in range(rank)]
        if self.call % 2:
            dims = ["L[1]" if (self.operands >> place) % 3 == 0 else dim for place, dim in enumerate(dims)]
        return Operand(dtype, tuple(reversed(dims)))


def where_calls(dims: Dims, dtypes: Iterator[str], scalars: Iterator[str]) -> Iterator[Call]:
    """``where`` with each operand a tensor of every rank, ``x1`` and ``x2`` a scalar too."""
    values: tuple[Rank | str, ...] = (*RANKS, "scalar")
    for condition, x1, x2 in itertools.product(RANKS, values, values):
        dims.next_call()
        operands = [dims.operand(condition, "bool_" if dims.call % 4 else next(dtypes))]
        arguments = ["a"]
        for value in (x1, x2):
            if value == "scalar":
                arguments.append(next(scalars))
            else:
                arguments.append("bc"[len(operands) - 1])
                operands.append(dims.operand(value, next(dtypes)))  # type: ignore[arg-type]
        yield Call(f"tt.where({', '.join(arguments)})", tuple(operands))


def scalar_calls(dims: Dims, dtypes: Iterator[str], scalars: Iterator[str]) -> Iterator[Call]:
    """Every binary function and operator with a scalar on either side of a tensor of every rank."""
    for rank in RANKS:
        for op in BINARY_RULES:
            for scalar_first in (False, True):
                dims.next_call()
                arguments = [next(scalars), "a"] if scalar_first else ["a", next(scalars)]
                yield Call(f"tt.{op}({', '.join(arguments)})", (dims.operand(rank, next(dtypes)),))
        for symbol in OPERATORS.values():
            dims.next_call()
            a, scalar = dims.operand(rank, next(dtypes)), next(scalars)
            yield Call(f"a {symbol} {scalar}", (a,))
            if symbol not in ("==", "!="):  # ``2 == a`` is int's ``==``: a bool to both checkers (docs)
                yield Call(f"{scalar} {symbol} a", (a,))
    assert set(OPERATORS) <= {*BINARY_METHODS, *REFLECTED_METHODS}


def tensor_pairs(dims: Dims, dtypes: Iterator[str], ops: Iterator[str], symbols: Iterator[str]) -> Iterator[Call]:
    """Two tensors: two operators per pair of ranks, unknown too, and two binary functions per pair
    of known ranks (on an operand of unknown rank their same-shape overloads are a gap, see the docs)."""
    for left, right in itertools.product(RANKS, repeat=2):
        for _ in range(2):
            dims.next_call()
            yield Call(f"a {next(symbols)} b", (dims.operand(left, next(dtypes)), dims.operand(right, next(dtypes))))
            if left is not None and right is not None:
                dims.next_call()
                yield Call(f"tt.{next(ops)}(a, b)", (dims.operand(left, next(dtypes)), dims.operand(right, next(dtypes))))


def every_call() -> list[tuple[Call, Run]]:
    """Each call that runs, with its run."""
    dims = Dims()
    dtypes, scalars = itertools.cycle(DTYPES), itertools.cycle(SCALARS)
    ops, symbols = itertools.cycle(BINARY_RULES), itertools.cycle(OPERATORS.values())
    calls = [*where_calls(dims, dtypes, scalars), *scalar_calls(dims, dtypes, scalars), *tensor_pairs(dims, dtypes, ops, symbols)]
    return [(call, run) for call in calls if (run := call.run()) is not None]


def revealed_dims(revealed: str) -> list[str]:
    typ = normal(revealed)
    assert typ.startswith("Tensor[") and typ.endswith("]"), typ
    return split(typ[len("Tensor[") : -1], ",")[1:]


EVERY = every_call()


@pytest.fixture(scope="module")
def said(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[int, tuple[list[str], list[str]]]]:
    """What pyright and plain mypy said on each line of the module of every call."""
    tmp = tmp_path_factory.mktemp("declared-elementwise")
    path = tmp / "declared_elementwise.py"
    path.write_text(HEAD + "".join(call.text(index) for index, (call, _) in enumerate(EVERY)))
    plain = tmp / "plain.ini"
    plain.write_text("[mypy]\nstrict = True\n")
    return {"mypy": mypy_said(Mypy(tmp / "cache", plain).run([path]), path), "pyright": pyright_said(path)}


def line_of(index: int) -> int:
    return HEAD.count("\n") + 2 * index + 2


@pytest.mark.parametrize("checker", ["pyright", "mypy"])
def test_declared_types_hold_for_every_call_that_runs(said: dict[str, dict[int, tuple[list[str], list[str]]]], checker: str) -> None:
    wrong = []
    for index, (call, run) in enumerate(EVERY):
        errors, revealed = said[checker].get(line_of(index), ([], []))
        if errors or len(revealed) != 1 or not holds(revealed[0], run):
            wrong.append((call.text(index), errors, revealed, run))
    assert wrong == []


@pytest.mark.parametrize("checker", ["pyright", "mypy"])
def test_declared_types_keep_one_shape(said: dict[str, dict[int, tuple[list[str], list[str]]]], checker: str) -> None:
    """Operands of one known shape (and scalars) give that shape exactly."""
    same = [(index, call, dims) for index, (call, _) in enumerate(EVERY) if (dims := call.same_dims) is not None]
    inexact = []
    for index, call, dims in same:
        revealed = said[checker][line_of(index)][1]
        if revealed_dims(revealed[0]) != [dim.replace("L[", "Literal[") for dim in dims]:
            inexact.append((call.text(index), revealed))
    assert inexact == []
    # Every kind of call is among them (the enumeration is whole).
    assert {call.source.split("(")[0] for _, call, _ in same} >= {"tt.where", *(f"tt.{op}" for op in BINARY_RULES)}


def test_the_module_holds_every_form() -> None:
    sources: Sequence[str] = [call.source for call, _ in EVERY]
    assert sum(source.startswith("tt.where") for source in sources) > 150
    assert any(source.startswith("-1e9 ") for source in sources) and any(source.endswith(" -1e9") for source in sources)
