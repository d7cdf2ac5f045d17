"""Generated programs: what mypy says of every op equals what the op does at run time.

Hypothesis writes a module of chained op calls on tensors with random literal shapes and dtypes,
some well-typed, some with a literal mismatch. Each call is run while the module is written (so
later calls use the results of earlier ones), then mypy checks the module once:
- a call that runs gets no error from mypy (no false positives), and its revealed type is its
  runtime dtype and shape exactly;
- a call that raises a typedtensor shape error gets the same message from mypy.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import Phase, given, settings, strategies as st

import typedtensor as tt
from mypy_helpers import Mypy, MypyRun, assert_no_crash
from typedtensor._shape_rules import REDUCTION_OPS

DTYPES = ("bool_", "int8", "int32", "int64", "uint8", "uint64", "float16", "float32", "float64", "complex64")
HEADER = "from typing import Literal as L\nimport typedtensor as tt\nfrom typedtensor import Tensor\n"
_REVEALED = re.compile(r'^Revealed type is "typedtensor\._tensor\.Tensor\[typedtensor\._dtypes\.(\w+)((?:, Literal\[\d+\])*)\]"$')
_ERROR = re.compile(r"^(?P<message>.*)  \[(?P<code>tensor-[a-z]+)\]$")
_modules = itertools.count()

Answer = tuple[str, tuple[int, ...]] | str  # (dtype, shape), or a shape error's message


@dataclass
class Program:
    """Module source being written, with the runtime value of every variable it defines."""

    lines: list[str] = field(default_factory=lambda: HEADER.splitlines())
    tensors: dict[str, Any] = field(default_factory=dict)
    expected: dict[int, Answer] = field(default_factory=dict)  # line number -> runtime answer

    def variables(self) -> list[str]:
        return list(self.tensors)

    def run(self, expression: str) -> Any:
        with np.errstate(all="ignore"):
            return eval(expression, {"tt": tt, **self.tensors})

    def define_input(self, shape: tuple[int, ...], dtype: str) -> str:
        name = f"v{len(self.tensors)}"
        dims = "".join(f", L[{size}]" for size in shape)
        self.lines.append(f"{name}: Tensor[tt.{dtype}{dims}] = {creation(shape, dtype)}")
        self.tensors[name] = self.run(creation(shape, dtype))
        return name

    def call(self, expression: str) -> None:
        """Run ``expression``; keep its result as a variable if it ran, else record the error."""
        try:
            value = self.run(expression)
        except tt.TypedTensorError as error:
            self.lines.append(f"reveal_type({expression})")
            self.expected[len(self.lines)] = str(error)
            return
        name = f"v{len(self.tensors)}"
        self.lines.append(f"{name} = reveal_type({expression})")
        self.expected[len(self.lines)] = (value.dtype.__name__, value.shape)
        self.tensors[name] = value

    def shape(self, name: str) -> tuple[int, ...]:
        shape: tuple[int, ...] = self.tensors[name].shape
        return shape


def creation(shape: tuple[int, ...], dtype: str) -> str:
    return f"tt.ones(({''.join(f'{size}, ' for size in shape)}), tt.{dtype})"


# Each op writer draws one call on the program's variables (or new tensors written inline).
OpWriter = Callable[[st.DrawFn, Program], str]


def _operand_like(draw: st.DrawFn, program: Program, shape: tuple[int, ...]) -> str:
    """A tensor that broadcasts with ``shape`` most of the time: some dims 1, some dropped, or one off."""
    other = [1 if draw(st.booleans()) else size for size in shape][draw(st.integers(0, len(shape))) :]
    if other and draw(st.integers(0, 4)) == 0:
        position = draw(st.integers(0, len(other) - 1))
        other[position] = draw(st.integers(2, 5))  # often a mismatch
    return creation(tuple(other), draw(st.sampled_from(DTYPES)))


def write_binary(draw: st.DrawFn, program: Program) -> str:
    left = draw(st.sampled_from(program.variables()))
    right = draw(st.one_of(st.sampled_from(program.variables()), st.just(_operand_like(draw, program, program.shape(left)))))
    if draw(st.booleans()):
        right = draw(st.sampled_from(["2", "2.5", "True", "1j"]))  # a weak Python scalar
    form = draw(st.sampled_from(["tt.add({a}, {b})", "{a} + {b}", "{b} + {a}"]))
    return form.format(a=left, b=right)


def write_reduction(draw: st.DrawFn, program: Program) -> str:
    name = draw(st.sampled_from(program.variables()))
    rank = len(program.shape(name))
    index = st.integers(-rank - 1, rank)
    axis = draw(st.one_of(st.just("None"), index.map(str), st.lists(index, max_size=3).map(lambda ks: f"({''.join(f'{k}, ' for k in ks)})")))
    keepdims = draw(st.booleans())
    op = draw(st.sampled_from(REDUCTION_OPS))
    if draw(st.booleans()):
        return f"{name}.{op}(axis={axis}, keepdims={keepdims})"
    return f"tt.reduce_{op}({name}, axis={axis}, keepdims={keepdims})"


OP_WRITERS: dict[str, OpWriter] = {
    "binary": write_binary,
    "reduction": write_reduction,
}


@st.composite
def programs(draw: st.DrawFn, calls: int = 40) -> Program:
    program = Program()
    for _ in range(draw(st.integers(2, 4))):
        shape = tuple(draw(st.lists(st.integers(1, 4), max_size=3)))
        program.define_input(shape, draw(st.sampled_from(DTYPES)))
    for _ in range(calls):
        writer = OP_WRITERS[draw(st.sampled_from(sorted(OP_WRITERS)))]
        program.call(writer(draw, program))
    return program


def _static(run: MypyRun, path: Path, line: int) -> Answer | list[str]:
    """mypy's answer on ``line``: (dtype, shape), the message of a shape error, or all it said."""
    texts = [m.text for m in run.about(path, line)]
    errors = [match["message"] for match in map(_ERROR.match, texts) if match]
    if errors:
        return errors[0]
    revealed = [match for match in map(_REVEALED.match, texts) if match]
    if len(revealed) != 1 or len(texts) != 1:
        return texts  # not an exact type (Any left), or another error beside it
    dtype, dims = revealed[0].groups()
    return dtype, tuple(int(size) for size in re.findall(r"\d+", dims))


# No shrinking: each step is a mypy run, and the failing call is named in the assertion anyway.
@settings(max_examples=4, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(programs())
def test_static_answers_are_the_runtime_answers(mypy_runner: Mypy, tmp_path_factory: pytest.TempPathFactory, program: Program) -> None:
    # A new module name each time: mypy's cache must never mistake one program for another.
    path = tmp_path_factory.mktemp("ops") / f"ops_{next(_modules)}.py"
    path.write_text("\n".join(program.lines) + "\n")
    run = mypy_runner.run([path])
    assert_no_crash(run)
    for line, expected in program.expected.items():
        assert _static(run, path, line) == expected, program.lines[line - 1]
    unexpected = [str(m) for m in run.messages if m.line not in program.expected]
    assert unexpected == []  # the inputs' own lines check cleanly
