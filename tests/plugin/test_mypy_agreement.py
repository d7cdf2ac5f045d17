"""Static and runtime answers agree: mypy's inferred type of a reduction is its runtime result.

Hypothesis writes a module of many reductions with random literal shapes, dtypes, ops and axes
(out-of-range and bad Selections included); mypy checks it once, then the module runs. Each call
must give the same dtype and shape in both, or the same message from both.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import pytest
from hypothesis import Phase, given, settings, strategies as st

from tests.support.mypy_helpers import AGREEMENT_HEAD, Mypy, check_and_run, runtime_answer, static_answer
from typedtensor._shape_rules import REDUCTION_OPS

DTYPES = ("bool_", "int8", "int32", "int64", "uint16", "float32", "float64", "complex64")
OPS = REDUCTION_OPS
_modules = itertools.count()


@dataclass(frozen=True)
class Case:
    dtype: str
    shape: tuple[int, ...]
    op: str
    method: bool
    axis: str  # as written in the source
    keepdims: str  # "" (left out), "True" or "False"

    def call(self, name: str) -> str:
        args = [self.axis, *([f"keepdims={self.keepdims}"] if self.keepdims else [])]
        if self.method:
            return f"{name}.{self.op}({', '.join(args)})"
        return f"tt.reduce_{self.op}({', '.join([name, *args])})"

    def source(self, index: int) -> str:
        dims = "".join(f", L[{size}]" for size in self.shape)
        shape = "(" + "".join(f"{size}, " for size in self.shape) + ")"
        return (
            f"x{index}: Tensor[tt.{self.dtype}{dims}] = tt.zeros({shape}, tt.{self.dtype})\n"
            f"def case{index}() -> object:\n"
            f"    return reveal_type({self.call(f'x{index}')})\n"
        )


@st.composite
def cases(draw: st.DrawFn) -> Case:
    shape = tuple(draw(st.lists(st.integers(1, 4), max_size=4)))
    rank = len(shape)
    index = st.integers(-rank - 1, rank)  # one past each end: out of range is tested too
    axis = draw(
        st.one_of(
            st.just("axis=None"),
            index.map(lambda k: f"axis={k}"),
            st.lists(index, max_size=4).map(lambda ks: f"axis=({''.join(f'{k}, ' for k in ks)})"),
            st.lists(index, max_size=3).map(lambda ks: f"axis={ks}"),
            st.text("^v", min_size=rank, max_size=rank).map(lambda s: f'axis="{s}"'),
            st.text("^vx", max_size=rank + 1).map(lambda s: f'axis="{s}"'),
            index.map(str),  # positional
        )
    )
    return Case(
        draw(st.sampled_from(DTYPES)), shape, draw(st.sampled_from(OPS)), draw(st.booleans()), axis,
        draw(st.sampled_from(["", "True", "False"])),
    )


# No shrinking: each step is a mypy run, and the failing call is named in the assertion anyway.
@settings(max_examples=4, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(st.lists(cases(), min_size=40, max_size=40))
def test_mypy_and_the_runtime_agree(mypy_runner: Mypy, tmp_path_factory: pytest.TempPathFactory, batch: list[Case]) -> None:
    path = tmp_path_factory.mktemp("agreement") / f"agreement_{next(_modules)}.py"
    run, namespace = check_and_run(mypy_runner, path, AGREEMENT_HEAD + "".join(case.source(i) for i, case in enumerate(batch)))
    for index, case in enumerate(batch):
        line = 4 + 3 * index + 2  # the reveal_type line of case{index}
        assert static_answer(run, path, line) == runtime_answer(namespace[f"case{index}"]), case.call("x")
