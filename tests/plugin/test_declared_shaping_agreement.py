"""Every literal axis on every rank: what pyright and plain mypy say of expand_dims and squeeze agrees with the plugin.

One module holds a call of each op on tensors of rank 0 to 7 along every axis from one beyond the
valid range on either side, each in ``reveal_type``, the receivers of each kind of dim: literal
sizes (1 where squeeze removes a dim), named dims (a ``Dim`` class, a TypeVar, ``int``), ``Any``,
a ``*Ts`` after or before the known dims, a run of unknown dims after or before them. mypy with
the plugin gives the exact type (or reports the call, which then raises at run time); pyright
and plain mypy check the same module once each. Neither reports an error, and where the plugin
reports none each revealed type holds for the plugin's: the same dims, or fewer things said (an
``Any`` dim, a run of unknown dims, the whole type ``Any``), never another dim or rank. Where the
generated overloads cover the call (a valid axis on ranks 1 to 6, or ``expand_dims`` at 0 or -1 on
any shape; dims and runs that are not ``Any``), it is exactly the plugin's type.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.mypy_helpers import Mypy, MypyRun, assert_no_crash, mypy_revealed, pyright_revealed

RANKS = range(8)
COVERED_RANKS = range(1, 7)
UNKNOWN_RUN = "*tuple[Any, ...]"
HEAD = """from typing import Any, Literal as L, TypeVar, TypeVarTuple
import typedtensor as tt
from typedtensor import Dim, Tensor
class Batch(Dim): ...
N = TypeVar("N")
Ts = TypeVarTuple("Ts")
"""
NAMED = ("Batch", "N", "int")
#: Where a run goes among the known dims, if anywhere: after them or before them, and which.
Run = tuple[str, str] | None
TS_RUNS: tuple[Run, ...] = (None, ("after", "*Ts"), ("before", "*Ts"))
UNKNOWN_RUNS: tuple[Run, ...] = (None, ("after", UNKNOWN_RUN), ("before", UNKNOWN_RUN))


def literal_dims(count: int, one_at: int | None) -> list[str]:
    return [f"L[{1 if index == one_at else index + 2}]" for index in range(count)]


def named_dims(count: int, one_at: int | None) -> list[str]:
    return [NAMED[index % len(NAMED)] for index in range(count)]


def any_dims(count: int, one_at: int | None) -> list[str]:
    return ["Any"] * count


#: The kinds of receivers: their known dims, from their count and the position squeeze removes a
#: dim at (if certain); and the runs each kind goes with.
KINDS = ((literal_dims, UNKNOWN_RUNS), (named_dims, TS_RUNS), (any_dims, (None,)))


@dataclass(frozen=True)
class Call:
    op: str
    axis: int
    dims: tuple[str, ...]  # the receiver's, a run among them
    source: str

    @property
    def covered(self) -> bool:
        """Whether the generated overloads must give the plugin's type exactly (when it reports nothing)."""
        known = [dim for dim in self.dims if not dim.startswith("*")]
        anywhere = self.op == "expand_dims" and self.axis in (0, -1)
        return "Any" not in known and UNKNOWN_RUN not in self.dims and (anywhere or len(known) in COVERED_RANKS)


def squeezed_position(op: str, axis: int, count: int, run: Run) -> int | None:
    """Where among ``count`` known dims ``axis`` names the dim squeeze removes, if it certainly does."""
    if op != "squeeze" or not -count <= axis < count:
        return None
    if run is not None and (axis < 0) == (run[0] == "after"):
        return None  # counted from the run's side: the run may hold it
    return axis % count


def calls() -> Iterator[Call]:
    for op in ("expand_dims", "squeeze"):
        for count in RANKS:
            reach = count + 1 if op == "expand_dims" else count  # the valid axes are -reach to reach - 1
            for axis in range(-reach - 1, reach + 1):
                for dims_of, runs in KINDS:
                    for run in runs:
                        known = dims_of(count, squeezed_position(op, axis, count, run))
                        dims = known if run is None else ([*known, run[1]] if run[0] == "after" else [run[1], *known])
                        yield Call(op, axis, tuple(dims), f"tt.{op}(x, {axis})")


def write_module(path: Path, every: Sequence[Call]) -> dict[int, Call]:
    """The module, one function per call (its receiver a parameter); the line of each reveal_type."""
    lines = HEAD.splitlines()
    expected = {}
    for index, call in enumerate(every):
        receiver = f"Tensor[tt.float32{''.join(f', {dim}' for dim in call.dims)}]"
        lines += [f"def case{index}(x: {receiver}) -> {receiver}:", f"    reveal_type({call.source})", "    return x"]
        expected[len(lines) - 1] = call
    path.write_text("\n".join(lines) + "\n")
    return expected


def plugin_answers(run: MypyRun, path: Path) -> dict[int, str | None]:
    """The plugin's type on each line, or None where it reported the call."""
    answers: dict[int, str | None] = {}
    for message in run.about(path):
        if message.severity == "error":
            # only a shape error; squeezing a named dim is tensor-dim (named dims are rigid, SPEC §7)
            assert re.search(r"\[tensor-(axis|shape|dim)\]$", message.text), message
            answers[message.line] = None
        elif message.line not in answers:
            answers[message.line] = normal(message.text.removeprefix('Revealed type is "').removesuffix('"'))
    return answers


def normal(revealed: str) -> str:
    """A type as both checkers write it: no module prefixes (mypy), no scopes of TypeVars and
    ``Any`` for ``Unknown`` (pyright's name for an Any it inferred)."""
    return re.sub(r"\bUnknown\b", "Any", re.sub(r"@\w+", "", re.sub(r"\b[\w.]+\.(\w+)", r"\1", revealed)))


def parts(revealed: str) -> list[str]:
    """``Tensor[float32, L, *tuple[Any, ...]]`` -> ``["float32", "L", "*tuple[Any, ...]"]``."""
    inner = revealed.removeprefix("Tensor[").removesuffix("]")
    items, depth, start = [], 0, 0
    for index, char in enumerate(inner):
        depth += {"[": 1, "]": -1}.get(char, 0)
        if char == "," and depth == 0:
            items.append(inner[start:index].strip())
            start = index + 1
    return [*items, inner[start:].strip()]


def fits(declared: Sequence[str], exact: Sequence[str]) -> bool:
    """Whether every shape ``exact`` admits fits ``declared``: the same items in order, but where
    ``declared`` has an ``Any`` dim (for one dim) or a run of unknown dims (for any items)."""
    if not declared:
        return not exact
    first, rest = declared[0], declared[1:]
    if first == UNKNOWN_RUN:
        return any(fits(rest, exact[start:]) for start in range(len(exact) + 1))
    if not exact:
        return False
    one_dim = first == "Any" and not exact[0].startswith("*")
    return (first == exact[0] or one_dim) and fits(rest, exact[1:])


def exact_type(answer: str | None) -> bool:
    """Whether the plugin's answer is a type that says every dim (no error, no run of unknown dims)."""
    return answer is not None and UNKNOWN_RUN not in answer


def holds(declared: str, exact: str) -> bool:
    return declared == "Any" or fits(parts(declared), parts(exact))


EVERY = list(calls())


@pytest.fixture(scope="module")
def answers(tmp_path_factory: pytest.TempPathFactory, mypy_runner: Mypy) -> tuple[dict[int, Call], dict[str, dict[int, str | None]]]:
    """The calls by line, and each checker's answers by line: the plugin's, pyright's, plain mypy's."""
    tmp = tmp_path_factory.mktemp("declared-shaping")
    path = tmp / "declared_shaping.py"
    expected = write_module(path, EVERY)
    run = mypy_runner.run([path])
    assert_no_crash(run)
    checkers: dict[str, dict[int, str | None]] = {
        "plugin": plugin_answers(run, path),
        "pyright": {line: normal(text) for line, text in pyright_revealed(path).items()},
        "mypy": {line: normal(text) for line, text in mypy_revealed(path, tmp).items()},
    }
    for name, revealed in checkers.items():
        assert sorted(revealed) == sorted(expected), name
    return expected, checkers


@pytest.mark.parametrize("checker", ["pyright", "mypy"])
def test_declared_types_never_contradict_the_plugin(answers: tuple[dict[int, Call], dict[str, dict[int, str | None]]], checker: str) -> None:
    expected, checkers = answers
    wrong = [
        (call, checkers["plugin"][line], checkers[checker][line])
        for line, call in expected.items()
        if (exact := checkers["plugin"][line]) is not None and not holds(str(checkers[checker][line]), exact)
    ]
    assert wrong == []


@pytest.mark.parametrize("checker", ["pyright", "mypy"])
def test_declared_types_are_the_plugins_where_covered(answers: tuple[dict[int, Call], dict[str, dict[int, str | None]]], checker: str) -> None:
    expected, checkers = answers
    covered = [(line, call) for line, call in expected.items() if call.covered and exact_type(checkers["plugin"][line])]
    inexact = [(call, checkers["plugin"][line], checkers[checker][line]) for line, call in covered if checkers[checker][line] != checkers["plugin"][line]]
    assert inexact == []
    # Every op, covered rank and valid axis of either sign is among them (the enumeration is whole).
    fixed = {(call.op, len(call.dims), call.axis) for _, call in covered if not any(dim.startswith("*") for dim in call.dims)}
    for op, extra in (("expand_dims", 1), ("squeeze", 0)):
        assert {(op, rank, axis) for rank in COVERED_RANKS for axis in range(-rank - extra, rank + extra)} <= fixed
