"""The plugin never crashes mypy: nonsense gets a clear message or the declared type.

Modules of reductions and elementwise ops with nonsense arguments and receivers are checked by mypy; the test
asserts no INTERNAL ERROR, no plugin failure note, and that every error carries an error code.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from hypothesis import Phase, given, settings, strategies as st

from tests.support.mypy_helpers import Mypy, MypyRun, assert_no_crash
from typedtensor._shape_rules import BINARY_RULES, REDUCTION_OPS, UNARY_RULES

HEADER = """\
from typing import Any, Literal as L, TypeVar, TypeVarTuple
import numpy as np
import typedtensor as tt
from typedtensor import Tensor, float32

Ts = TypeVarTuple("Ts")
T = TypeVar("T", bound=Tensor[float32, L[2], L[3]])
class Sub(Tensor[float32, L[2], L[3]]): ...
class NotATensor:
    def sum(self, axis: object = None, keepdims: object = False) -> int: return 0
"""

#: Receivers by the parameter annotation that gives them their type.
RECEIVERS = {
    "bare": "Tensor",
    "rank0": "Tensor[float32]",
    "exact": "Tensor[float32, L[2], L[3]]",
    "anyrank": "Tensor[Any, *tuple[Any, ...]]",
    "threes": "Tensor[float32, *tuple[L[3], ...]]",
    "ends": "Tensor[float32, L[2], *Ts, L[5]]",
    "sub": "Sub",
    "typevar": "T",
    "optional": "Tensor[float32, L[2]] | None",
    "union": "Tensor[float32, L[2]] | Tensor[tt.int8, L[4], L[4]]",
    "anything": "Any",
    "array": "np.ndarray[Any, Any]",
    "number": "int",
    "stranger": "NotATensor",
    "cls": "type[Tensor[float32, L[2]]]",
}
AXES = (
    '"abc"', "1.5", "((0,),)", "(0, (1,))", "[[0]]", "10**100", "99999999999999999999999",
    "-99999999999999999999999", "True", "(True, 0)", "[False]", "None", "()", "[]", "...", "object()",
    '"' + "^" * 40 + '"', '""', '"\\u00e9v"', "{0}", "{0: 1}", 'b"^v"', "bare", "lambda: 0", "(0, 1.5)",
    "(None,)", "range(2)", "-0", "(1, -1, 1)", "0 if flag else 1", "*flags", "**options", "(0, *flags)",
    "[0, *flags]", "(-(1),)", "+1", "~0", "'v' * 2", "L",
)
KEEPDIMS = ("", "keepdims=True", 'keepdims="yes"', "keepdims=1", "keepdims=None", "keepdims=flag", "keepdims=[]")
CALLS = ("tt.reduce_{op}({receiver}, {args})", "{receiver}.{op}({args})", "tt.reduce_{op}({args})", "{receiver}.{op}(7, 8, {args})")
OPS = REDUCTION_OPS
_modules = itertools.count()
_CODED_ERROR = re.compile(r".*  \[[a-z-]+\]$")


def _module(lines: list[str]) -> str:
    params = ", ".join(f"{name}: {annotation}" for name, annotation in RECEIVERS.items())
    body = "".join(f"    {line}\n" for line in lines)
    return f"{HEADER}\ndef fuzz({params}, flag: bool, flags: list[int], options: dict[str, Any]) -> None:\n{body}"


def _check(mypy_runner: Mypy, directory: Path, lines: list[str]) -> MypyRun:
    path = directory / f"fuzz_{next(_modules)}.py"
    path.write_text(_module(lines))
    run = mypy_runner.run([path])
    assert_no_crash(run)
    unclear = [str(m) for m in run.about(path) if m.severity == "error" and not _CODED_ERROR.match(m.text)]
    assert unclear == []
    return run


def test_every_receiver_with_every_nonsense_axis(mypy_runner: Mypy, tmp_path: Path) -> None:
    ops = itertools.cycle(OPS)
    lines = [
        call.format(op=next(ops), receiver=receiver, args=f"axis={axis}" if not axis.startswith("*") else axis)
        for receiver in RECEIVERS
        for axis in AXES
        for call in CALLS[:2]
    ]
    _check(mypy_runner, tmp_path, lines)


@st.composite
def _calls(draw: st.DrawFn) -> str:
    axis = draw(st.sampled_from(AXES))
    args = ", ".join(filter(None, [axis if axis.startswith("*") else f"axis={axis}", draw(st.sampled_from(KEEPDIMS))]))
    return draw(st.sampled_from(CALLS)).format(op=draw(st.sampled_from(OPS)), receiver=draw(st.sampled_from(list(RECEIVERS))), args=args)


@settings(max_examples=3, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(st.lists(_calls(), min_size=60, max_size=60))
def test_random_nonsense_calls(mypy_runner: Mypy, tmp_path_factory: pytest.TempPathFactory, lines: list[str]) -> None:
    _check(mypy_runner, tmp_path_factory.mktemp("fuzz"), lines)


#: Elementwise calls of every shape: functions, operators both ways round, where and casts.
ELEMENTWISE_CALLS = (
    "tt.{unary}({a})", "{unary_operator}{a}", "tt.{binary}({a}, {b})", "{a} {operator} {b}", "tt.where({a}, {b}, {a})",
    "tt.cast({a}, {b})", "({a}).astype({b})", "tt.{binary}({a})", "tt.{unary}({a}, {b})", "tt.where({a})",
)
OPERANDS = (*RECEIVERS, "1", "2.5", "1j", "True", "np.float64(1)", "np.float32(1)", "None", '"s"', "tt.float32", "tt.floating", "flags")


@st.composite
def _elementwise_calls(draw: st.DrawFn) -> str:
    return draw(st.sampled_from(ELEMENTWISE_CALLS)).format(
        unary=draw(st.sampled_from(list(UNARY_RULES))),
        binary=draw(st.sampled_from(list(BINARY_RULES))),
        unary_operator=draw(st.sampled_from(["-", "+", "~"])),
        operator=draw(st.sampled_from(["+", "-", "*", "/", "//", "**", "==", "!=", "<", "<=", ">", ">="])),
        a=draw(st.sampled_from(OPERANDS)),
        b=draw(st.sampled_from(OPERANDS)),
    )


@settings(max_examples=4, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(st.lists(_elementwise_calls(), min_size=80, max_size=80))
def test_random_nonsense_elementwise_calls(mypy_runner: Mypy, tmp_path_factory: pytest.TempPathFactory, lines: list[str]) -> None:
    _check(mypy_runner, tmp_path_factory.mktemp("fuzz"), lines)
