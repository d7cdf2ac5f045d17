"""Generated programs: what mypy says of every op equals what the op does at run time.

Hypothesis writes a module of chained calls of ops of every family (elementwise, reductions,
matmul, reshape, axis ops, indexing) on tensors with random literal shapes and dtypes, some
well-typed, some with a literal mismatch. Each call is run while the module is written (so
later calls use the results of earlier ones), then mypy checks the module once:
- a call that runs gets no error from mypy (no false positives), and its revealed type is its
  runtime dtype and shape exactly;
- a call that raises a typedtensor shape error gets the same message from mypy.
"""

from __future__ import annotations

import itertools
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from hypothesis import Phase, given, settings, strategies as st

import typedtensor as tt
from tests.support.mypy_helpers import AGREEMENT_HEAD, Answer, Mypy, assert_no_crash, static_answer
from typedtensor._shape_rules import REDUCTION_OPS

DTYPES = ("bool_", "int8", "int32", "int64", "uint8", "uint64", "float16", "float32", "float64", "complex64")
_modules = itertools.count()


@dataclass
class Program:
    """Module source being written, with the runtime value of every variable it defines."""

    lines: list[str] = field(default_factory=lambda: AGREEMENT_HEAD.splitlines())
    tensors: dict[str, Any] = field(default_factory=dict)
    expected: dict[int, Answer] = field(default_factory=dict)  # line number -> runtime answer

    def variables(self) -> list[str]:
        return list(self.tensors)

    def run(self, expression: str) -> Any:
        # Overflow, NaN and a complex-to-real cast warn; what matters here is the result's type.
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
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


def _tensor_of_rank(draw: st.DrawFn, program: Program, minimum: int) -> str:
    """A variable of at least ``minimum`` dims, or a new tensor written inline."""
    names = [name for name in program.variables() if len(program.shape(name)) >= minimum]
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=minimum, max_size=minimum + 1)))
    return draw(st.sampled_from(names)) if names and draw(st.booleans()) else creation(shape, draw(st.sampled_from(DTYPES)))


def write_matmul(draw: st.DrawFn, program: Program) -> str:
    left = _tensor_of_rank(draw, program, 1)
    inner = program.run(left).shape[-1]
    if draw(st.integers(0, 4)) == 0:
        inner = draw(st.integers(1, 5))  # often a mismatch
    right = creation((inner, draw(st.integers(1, 4))), draw(st.sampled_from(DTYPES)))
    return draw(st.sampled_from([f"{left} @ {right}", f"tt.matmul({left}, {right})"]))


def write_reshape(draw: st.DrawFn, program: Program) -> str:
    name = _tensor_of_rank(draw, program, 0)
    size = program.run(name).size
    divisors = [d for d in range(1, size + 1) if size % d == 0] or [1]
    first = draw(st.sampled_from(divisors))
    target = draw(st.sampled_from([(first, -1), (-1,), (first, size // first if size else 0), (first + 1, -1)]))
    return f"{name}.reshape({target!r})"


def write_axis_op(draw: st.DrawFn, program: Program) -> str:
    name = _tensor_of_rank(draw, program, 1)
    rank = len(program.run(name).shape)
    axis = draw(st.integers(-rank - 1, rank))
    return draw(st.sampled_from([
        f"tt.transpose({name})", f"{name}.T", f"tt.expand_dims({name}, {axis})", f"tt.argmax({name}, axis={axis})",
        f"tt.softmax(tt.cast({name}, tt.float32), axis={axis})", f"tt.exp({name})", f"-tt.cast({name}, tt.float64)",
        f"tt.concat(({name}, {name}), axis={axis})", f"{name}[0]", f"{name}[None, ..., :2]",
    ]))


OP_WRITERS: dict[str, OpWriter] = {
    "binary": write_binary,
    "reduction": write_reduction,
    "matmul": write_matmul,
    "reshape": write_reshape,
    "axis op": write_axis_op,
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


# No shrinking: each step is a mypy run, and the failing call is named in the assertion anyway.
@settings(max_examples=6, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(programs())
def test_static_answers_are_the_runtime_answers(mypy_runner: Mypy, tmp_path_factory: pytest.TempPathFactory, program: Program) -> None:
    # A new module name each time: mypy's cache must never mistake one program for another.
    path = tmp_path_factory.mktemp("ops") / f"ops_{next(_modules)}.py"
    path.write_text("\n".join(program.lines) + "\n")
    run = mypy_runner.run([path])
    assert_no_crash(run)
    for line, expected in program.expected.items():
        assert static_answer(run, path, line) == expected, program.lines[line - 1]
    unexpected = [str(m) for m in run.messages if m.line not in program.expected]
    assert unexpected == []  # the inputs' own lines check cleanly
