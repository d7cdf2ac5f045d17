"""Static and runtime answers agree on ``tensor`` of list and tuple displays: mypy's type of each
call is its result's dtype and shape.

Hypothesis writes a module of ``tt.tensor(...)`` calls on nested displays of literal scalars
(bools, ints, floats, complex numbers, empty lists), with or without ``dtype``; mypy checks it
once, then it runs.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import pytest
from hypothesis import Phase, given, settings, strategies as st

from tests.support.mypy_helpers import AGREEMENT_HEAD, Mypy, check_and_run, revealed_tensor
from typedtensor._shape_rules import CONCRETE

#: Literal scalars of each kind; with a ``dtype`` only those every dtype holds.
_SCALARS = ("True", "False", "0", "2", "-3", "2.5", "-0.5", "1j", "-2j")
_FITTING_EVERY_DTYPE = ("True", "False", "0", "1")
_modules = itertools.count()


@dataclass(frozen=True)
class Case:
    data: str
    dtype: str | None

    def source(self, index: int) -> str:
        dtype = "" if self.dtype is None else f", dtype=tt.{self.dtype}"
        return f"def case{index}() -> object:\n    return reveal_type(tt.tensor({self.data}{dtype}))\n"


def _display(shape: tuple[int, ...], scalars: st.SearchStrategy[str], brackets: tuple[str, str]) -> st.SearchStrategy[str]:
    """A display of ``shape``: nested lists (or tuples) of literal scalars."""
    if not shape:
        return scalars
    items = st.lists(_display(shape[1:], scalars, brackets), min_size=shape[0], max_size=shape[0])
    opening, closing = brackets
    return items.map(lambda parts: opening + ", ".join(parts) + ("," if closing == ")" and len(parts) == 1 else "") + closing)


@st.composite
def cases(draw: st.DrawFn) -> Case:
    shape = tuple(draw(st.lists(st.integers(0, 3), max_size=3)))
    dtype = draw(st.none() | st.sampled_from(CONCRETE))
    scalars = st.sampled_from(_SCALARS if dtype is None else _FITTING_EVERY_DTYPE)
    return Case(draw(_display(shape, scalars, draw(st.sampled_from([("[", "]"), ("(", ")")])))), dtype)


# No shrinking: each step is a mypy run, and the failing call is named in the assertion anyway.
@settings(max_examples=3, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(st.lists(cases(), min_size=60, max_size=60))
def test_mypy_and_the_runtime_agree(mypy_runner: Mypy, tmp_path_factory: pytest.TempPathFactory, batch: list[Case]) -> None:
    path = tmp_path_factory.mktemp("agreement") / f"creation_{next(_modules)}.py"
    run, namespace = check_and_run(mypy_runner, path, AGREEMENT_HEAD + "".join(case.source(i) for i, case in enumerate(batch)))
    for index, case in enumerate(batch):
        line = 3 + 2 * index + 2  # the reveal_type line of case{index}
        result = namespace[f"case{index}"]()  # type: ignore[operator]
        assert revealed_tensor([m.text for m in run.about(path, line)]) == (result.dtype.__name__, result.shape), case
