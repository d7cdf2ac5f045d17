"""The plugin never crashes mypy on the axis ops, indexing and creation: nonsense gets a coded error
or the declared type (the same checks as ``test_mypy_fuzz.py``)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import Phase, given, settings, strategies as st

from tests.plugin.test_mypy_fuzz import AXES, KEEPDIMS, RECEIVERS, _check
from tests.support.mypy_helpers import Mypy

#: Index keys, sensible and not.
KEYS = (
    "0", "-1", "10**100", '"a"', "None", "...", "0, ...", "..., ...", "1:2", "::0", "::-1", ":k", "k:", "1.5:",
    "flag", "flags", "*flags,", "()", "None, None", "True", "1.5", "[0]", "index", "mask", "bare", "anything",
    "k", "0, 0, 0, 0", "index, index", "np.int64(1)", "slice(1, 2)", "slice(None)", "L", "(0, 1)",
)
#: What ``take`` and ``take_along_axis`` may be given as indices.
INDICES = ("index", "mask", "bare", "anything", "0", "99", "-99", "k", "1.5", "None", '"a"', "[0]", "array", "exact")
SIZES = ("0", "5", "-5", "k", "10**100", "1.5", "None", '"a"', "True", "anything", "exact.shape[0]", "bare.shape[0]", "flags[0]")
CALLS = (
    "tt.argmax({receiver}, {axis_args})",
    "tt.argmin({receiver}, {axis_args})",
    "tt.softmax({receiver}, {axis})",
    "tt.log_softmax({receiver}, {axis})",
    "tt.logsumexp({receiver}, {axis_args})",
    "tt.take({receiver}, {indices}, {axis})",
    "tt.take_along_axis({receiver}, {indices}, {axis})",
    "{receiver}[{key}]",
    "tt.arange({size})",
    "tt.arange({size}, {size}, {size})",
    "tt.eye({size}, {size})",
    "tt.random.normal(({size}, {size}))",
    "tt.random.uniform({size}, rng={size})",
)
EXTRA = "index: Tensor[tt.int64, L[2]], mask: Tensor[tt.bool_, L[2], L[3]], k: int"


def _line(call: str, receiver: str, axis: str, keepdims: str, indices: str, key: str, size: str) -> str:
    axis_argument = axis if axis.startswith("*") else f"axis={axis}"
    return call.format(
        receiver=receiver, axis=axis_argument, axis_args=", ".join(filter(None, [axis_argument, keepdims])),
        indices=indices, key=key, size=size,
    )


def _lines(calls: list[str]) -> list[str]:
    """The lines with the extra names a call may use defined first."""
    return [f"def inner({EXTRA}) -> None:", *(f"    {call}" for call in calls), "inner(tt.Tensor(np.zeros(2, np.int64)), None, 0)  # type: ignore"]


def test_every_receiver_with_every_call(mypy_runner: Mypy, tmp_path: Path) -> None:
    axes, keys, indices, sizes = (itertools.cycle(values) for values in (AXES, KEYS, INDICES, SIZES))
    calls = [
        _line(call, receiver, next(axes), "", next(indices), next(keys), next(sizes))
        for receiver in RECEIVERS
        for call in CALLS
    ]
    calls += [f"exact[{key}]" for key in KEYS] + [f"anyrank[{key}]" for key in KEYS] + [f"ends[{key}]" for key in KEYS]
    _check(mypy_runner, tmp_path, _lines(calls))


@st.composite
def _calls(draw: st.DrawFn) -> str:
    values = [draw(st.sampled_from(options)) for options in (CALLS, list(RECEIVERS), AXES, KEEPDIMS, INDICES, KEYS, SIZES)]
    return _line(*values)


@settings(max_examples=3, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(st.lists(_calls(), min_size=60, max_size=60))
def test_random_nonsense_calls(mypy_runner: Mypy, tmp_path_factory: pytest.TempPathFactory, lines: list[str]) -> None:
    _check(mypy_runner, tmp_path_factory.mktemp("fuzz"), _lines(lines))
