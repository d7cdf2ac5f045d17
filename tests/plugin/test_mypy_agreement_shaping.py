"""Static and runtime answers agree on matmul and the shaping ops, and the plugin never crashes on them.

Hypothesis writes a module of calls on tensors of random literal shapes with random literal
arguments, many of them wrong; mypy checks it once, then the module runs. Each call must give the
same dtype and shape in both, or the same message from both: no error on code that runs, and
every mistake the runtime raises on is a static error. Then nonsense arguments and receivers:
mypy must finish with every error carrying a code and no note of a plugin failure.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import Phase, given, settings, strategies as st

from tests.support.mypy_helpers import Mypy, assert_no_crash, runtime_answer, static_answer

DTYPES = ("bool_", "int8", "int64", "uint16", "float32", "float64", "complex64")
_modules = itertools.count()

sizes = st.integers(0, 3)
shapes = st.lists(sizes, max_size=3).map(tuple)


def _literal_tuple(values: tuple[int, ...] | list[int]) -> str:
    return "(" + "".join(f"{value}, " for value in values) + ")"


@dataclass(frozen=True)
class Case:
    """A call of ``template`` on tensors of these dtypes and shapes, named ``{0}``, ``{1}`` ..."""

    operands: tuple[tuple[str, tuple[int, ...]], ...]
    template: str

    def source(self, index: int) -> tuple[list[str], int]:
        """The lines declaring the operands and the function revealing the call; the reveal's offset."""
        names = [f"t{index}_{position}" for position in range(len(self.operands))]
        lines = [
            f"{name}: Tensor[tt.{dtype}{''.join(f', L[{size}]' for size in shape)}] = tt.zeros({_literal_tuple(shape)}, tt.{dtype})"
            for name, (dtype, shape) in zip(names, self.operands)
        ]
        lines += [f"def case{index}() -> object:", f"    return reveal_type({self.template.format(*names)})"]
        return lines, len(lines) - 1


@st.composite
def _matmul(draw: st.DrawFn) -> Case:
    n, k, m = draw(sizes), draw(sizes), draw(sizes)
    batch = draw(st.lists(st.integers(1, 3), max_size=2))
    a = draw(st.sampled_from([(k,), (n, k), (*batch, n, k), (k, n)]))
    b = draw(st.sampled_from([(k,), (k, m), (*batch, k, m), (m, k), (*batch[:1], k, m)]))
    if draw(st.integers(0, 3)) == 0:
        a, b = draw(shapes), draw(shapes)
    flags = draw(st.sampled_from(["", ", transpose_a=True", ", transpose_b=True", ", True, True", ", transpose_b=False"]))
    template = "{0} @ {1}" if not flags and draw(st.booleans()) else "tt.matmul({0}, {1}" + flags + ")"
    return Case(((draw(st.sampled_from(DTYPES)), a), (draw(st.sampled_from(DTYPES)), b)), template)


@st.composite
def _one_tensor(draw: st.DrawFn) -> Case:
    shape = draw(shapes)
    rank = len(shape)
    axis = st.integers(-rank - 2, rank + 1)
    count = 1
    for size in shape:
        count *= size
    target = draw(st.one_of(shapes, st.permutations(shape).map(tuple), st.just((count,))))
    with_minus_one = tuple(-1 if draw(st.integers(0, 2)) == 0 else size for size in target)
    template = draw(
        st.sampled_from([
            f"{{0}}.reshape({_literal_tuple(with_minus_one)})",
            f"tt.reshape({{0}}, {list(with_minus_one)})",
            "{0}.T",
            "tt.transpose({0})",
            f"tt.transpose({{0}}, {_literal_tuple(draw(st.lists(axis, min_size=max(rank - 1, 0), max_size=rank + 1)))})",
            f"tt.transpose({{0}}, {_literal_tuple(draw(st.permutations(range(rank))))})",
            f"tt.expand_dims({{0}}, {draw(axis)})",
            "tt.squeeze({0})",
            f"tt.squeeze({{0}}, {draw(axis)})",
            f"tt.squeeze({{0}}, {_literal_tuple(draw(st.lists(axis, max_size=2, unique=True)))})",
            f"tt.tile({{0}}, {_literal_tuple(draw(st.lists(st.integers(-1, 3), max_size=4)))})",
            f"tt.broadcast_to({{0}}, {_literal_tuple(draw(st.sampled_from([(), (2,)])) + tuple(1 if draw(st.booleans()) else s for s in target))})",
            f"tt.broadcast_to({{0}}, {_literal_tuple((*draw(shapes), *shape))})",
        ])
    )
    return Case(((draw(st.sampled_from(DTYPES)), shape),), template)


@st.composite
def _join(draw: st.DrawFn) -> Case:
    shape = draw(shapes)
    rank = len(shape)
    count = draw(st.integers(1, 3))
    operands = []
    for _ in range(count):
        own = tuple(draw(sizes) if draw(st.integers(0, 3)) == 0 else size for size in shape)
        operands.append((draw(st.sampled_from(DTYPES)), own))
    names = ", ".join(f"{{{position}}}" for position in range(count))
    display = f"({names},)" if draw(st.booleans()) else f"[{names}]"
    op = draw(st.sampled_from(["concat", "stack"]))
    return Case(tuple(operands), f"tt.{op}({display}, axis={draw(st.integers(-rank - 2, rank + 1))})")


def _module(batch: list[Case]) -> tuple[str, list[int]]:
    lines = ["from typing import Literal as L", "import typedtensor as tt", "from typedtensor import Tensor"]
    reveals = []
    for index, case in enumerate(batch):
        case_lines, offset = case.source(index)
        reveals.append(len(lines) + offset + 1)
        lines += case_lines
    return "\n".join(lines) + "\n", reveals



@settings(max_examples=4, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(st.lists(st.one_of(_matmul(), _one_tensor(), _join()), min_size=60, max_size=60))
def test_mypy_and_the_runtime_agree(mypy_runner: Mypy, tmp_path_factory: pytest.TempPathFactory, batch: list[Case]) -> None:
    path = tmp_path_factory.mktemp("agreement") / f"shaping_agreement_{next(_modules)}.py"
    source, reveals = _module(batch)
    path.write_text(source)
    run = mypy_runner.run([path])
    assert_no_crash(run)
    namespace: dict[str, object] = {"reveal_type": lambda value: value}
    exec(compile(source, str(path), "exec"), namespace)
    for index, (case, line) in enumerate(zip(batch, reveals)):
        assert static_answer(run, path, line) == runtime_answer(namespace[f"case{index}"]), case
    lines = {line for line in reveals}
    assert [str(m) for m in run.messages if m.line not in lines] == []


FUZZ_HEADER = """\
from typing import Any, Literal as L, TypeVar, TypeVarTuple
import numpy as np
import typedtensor as tt
from typedtensor import Tensor, float32

Ts = TypeVarTuple("Ts")
T = TypeVar("T", bound=Tensor[float32, L[2], L[3]])
class Sub(Tensor[float32, L[2], L[3]]): ...
"""
RECEIVERS = (
    "Tensor", "Tensor[float32]", "Tensor[float32, L[2], L[3]]", "Tensor[Any, *tuple[Any, ...]]",
    "Tensor[float32, *tuple[L[3], ...]]", "Tensor[float32, L[2], *Ts, L[5]]", "Sub", "T",
    "Tensor[float32, L[2]] | None", "Tensor[float32, L[2]] | Tensor[tt.int8, L[4], L[4]]", "Any",
    "np.ndarray[Any, Any]", "int",
)
ARGUMENTS = (
    '"abc"', "1.5", "((0,),)", "(0, (1,))", "[[0]]", "10**100", "-(10**100)", "True", "(True, 0)", "None", "()", "[]",
    "...", "object()", "r0", "r0.shape", "r0.shape[0]", "(r0.shape[0], -1)", "n", "(n, -1)", "*flags", "(0, *flags)",
    "[0, *flags]", "flag", "(r1, r2)", "[r1, r0]", "(r0,)", "rs", "-1", "(-1, -1)", "(-5,)",
)
TEMPLATES = (
    "{r} @ {a}", "{a} @ {r}", "tt.matmul({r}, {a})", "tt.matmul({r}, {r}, transpose_a={a})", "{r}.reshape({a})",
    "tt.reshape({r}, {a})", "{r}.T", "tt.transpose({r}, {a})", "tt.expand_dims({r}, {a})", "tt.squeeze({r}, {a})",
    "tt.concat({a})", "tt.concat(({r}, {r}), axis={a})", "tt.stack({a})", "tt.stack([{r}], {a})", "tt.tile({r}, {a})",
    "tt.broadcast_to({r}, {a})", "tt.matmul({a})", "tt.squeeze(*{a})",
)
_CODED_ERROR = re.compile(r".*  \[[a-z-]+\]$")


def _parses(call: str) -> bool:
    """Whether ``call`` is Python (``*flags`` is not an operand of ``@``): mypy stops at a syntax error."""
    try:
        compile(call, "<call>", "eval")
    except SyntaxError:
        return False
    return True


def test_nonsense_never_crashes_the_plugin(mypy_runner: Mypy, tmp_path: Path) -> None:
    params = ", ".join(f"r{index}: {annotation}" for index, annotation in enumerate(RECEIVERS))
    calls = [
        template.format(r=f"r{receiver}", a=argument)
        for template in TEMPLATES
        for receiver, argument in zip(itertools.cycle(range(len(RECEIVERS))), ARGUMENTS)
        if _parses(template.format(r=f"r{receiver}", a=argument))
    ]
    body = "".join(f"    {call}\n" for call in calls)
    path = tmp_path / "shaping_fuzz.py"
    path.write_text(f"{FUZZ_HEADER}\ndef fuzz({params}, n: int, flag: bool, flags: list[int], rs: list[Tensor[float32, L[2]]]) -> None:\n{body}")
    run = mypy_runner.run([path])
    assert_no_crash(run)
    assert [str(m) for m in run.about(path) if m.severity == "error" and not _CODED_ERROR.match(m.text)] == []
