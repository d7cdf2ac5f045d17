"""Static and runtime answers agree on the elementwise ops: mypy's type of each call is its result.

Hypothesis writes a module of elementwise calls (functions and operators, unary and binary, Python
scalars either side, ``where``, casts) on tensors of random literal shapes and dtypes, some that
broadcast and some that do not; mypy checks it once, then it runs. Each call must give the same
dtype and shape in both, or the same message from both. No false positive: a call that runs gets
no error.
"""

from __future__ import annotations

import itertools
import re
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from hypothesis import Phase, given, settings, strategies as st

import typedtensor as tt
from tests.support.mypy_helpers import AGREEMENT_HEAD, Mypy, MypyRun, check_and_run, revealed_tensor
from typedtensor._shape_rules import BINARY_RULES, CONCRETE, UNARY_RULES

_ERROR = re.compile(r"^(?P<message>.*)  \[(?P<code>tensor-broadcast|tensor-dtype|operator|call-overload)\]$")
_OPERATORS = {
    "add": "+", "subtract": "-", "multiply": "*", "divide": "/", "floor_divide": "//", "power": "**",
    "equal": "==", "not_equal": "!=", "less": "<", "less_equal": "<=", "greater": ">", "greater_equal": ">=",
}
_UNARY_OPERATORS = {"negative": "-", "positive": "+"}
_SCALARS = ("True", "2", "2.5", "1j")
_modules = itertools.count()


@dataclass(frozen=True)
class Case:
    """Two tensors ``x`` and ``y`` (and a mask ``m`` of ``y``'s shape) and a call on them."""

    x: tuple[str, tuple[int, ...]]
    y: tuple[str, tuple[int, ...]]
    call: str  # with {x}, {y} and {m} for the tensors

    def source(self, index: int) -> str:
        lines = [self._tensor(f"{name}{index}", dtype, shape) for name, (dtype, shape) in (("x", self.x), ("y", self.y), ("m", ("bool_", self.y[1])))]
        call = self.call.format(x=f"x{index}", y=f"y{index}", m=f"m{index}")
        return "".join(lines) + f"def case{index}() -> object:\n    return reveal_type({call})\n"

    @staticmethod
    def _tensor(name: str, dtype: str, shape: tuple[int, ...]) -> str:
        dims = "".join(f", L[{size}]" for size in shape)
        return f"{name}: Tensor[tt.{dtype}{dims}] = tt.ones(({''.join(f'{size}, ' for size in shape)}), tt.{dtype})\n"


@st.composite
def cases(draw: st.DrawFn) -> Case:
    shape = tuple(draw(st.lists(st.integers(1, 3), max_size=3)))
    other = draw(
        st.one_of(
            st.just(shape),
            st.just(tuple(1 if draw(st.booleans()) else size for size in shape)[draw(st.integers(0, len(shape))) :]),
            st.lists(st.integers(1, 4), max_size=3).map(tuple),  # often does not broadcast
        )
    )
    dtypes = st.sampled_from(CONCRETE)
    unary, binary = draw(st.sampled_from(list(UNARY_RULES))), draw(st.sampled_from(list(BINARY_RULES)))
    scalar = draw(st.sampled_from(_SCALARS))
    calls = [
        f"tt.{unary}({{x}})",
        f"tt.{binary}({{x}}, {{y}})",
        f"tt.{binary}({scalar}, {{y}})",
        f"tt.where({{m}}, {{x}}, {scalar})",
        "tt.where({m}, {x}, {y})",
        f"tt.cast({{x}}, tt.{draw(dtypes)})",
        f"{{y}}.astype(tt.{draw(dtypes)})",
    ]
    if unary in _UNARY_OPERATORS:
        calls.append(f"{_UNARY_OPERATORS[unary]}{{x}}")
    if binary in _OPERATORS:
        calls += [f"{{x}} {_OPERATORS[binary]} {{y}}", f"{{x}} {_OPERATORS[binary]} {scalar}", f"{scalar} {_OPERATORS[binary]} {{y}}"]
    return Case((draw(dtypes), shape), (draw(dtypes), other), draw(st.sampled_from(calls)))


def _static(run: MypyRun, path: Path, line: int) -> tuple[str, tuple[int, ...]] | str:
    """mypy's answer on ``line``: (dtype, shape), or the message of its error."""
    texts = [m.text for m in run.about(path, line)]
    errors = [match for match in map(_ERROR.match, texts) if match]
    if errors:
        # A scalar on the left that no dtype takes (``1j // x``) finds no overload, or is reported by the
        # scalar's own operator first: mypy's words, not the runtime's.
        return "refused by mypy" if errors[0]["code"] in ("operator", "call-overload") else errors[0]["message"]
    return revealed_tensor(texts)


def _runtime(function: object, static: object) -> tuple[str, tuple[int, ...]] | str:
    try:
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", np.exceptions.ComplexWarning)  # a cast of complex numbers to reals
            result = function()  # type: ignore[operator]
    except (tt.BroadcastError, tt.TensorDTypeError) as error:
        return "refused by mypy" if static == "refused by mypy" else str(error)
    return result.dtype.__name__, result.shape


# No shrinking: each step is a mypy run, and the failing call is named in the assertion anyway.
@settings(max_examples=4, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(st.lists(cases(), min_size=60, max_size=60))
def test_mypy_and_the_runtime_agree(mypy_runner: Mypy, tmp_path_factory: pytest.TempPathFactory, batch: list[Case]) -> None:
    path = tmp_path_factory.mktemp("agreement") / f"elementwise_{next(_modules)}.py"
    run, namespace = check_and_run(mypy_runner, path, AGREEMENT_HEAD + "".join(case.source(i) for i, case in enumerate(batch)))
    for index, case in enumerate(batch):
        line = 3 + 5 * index + 5  # the reveal_type line of case{index}
        static = _static(run, path, line)
        assert static == _runtime(namespace[f"case{index}"], static), case
