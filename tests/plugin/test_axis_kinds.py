"""What ``axis`` accepts is the same for the declared type, the plugin and the runtime.

One table of axis values, each accepted or refused, checked three ways: the runtime (a reduction
raises ``TypeError`` or not), mypy with the plugin, and pyright, which sees the declared types
only. A ``bool`` is an ``int`` to every type checker, so the declared type cannot refuse it: the
plugin does, as the runtime does.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import deque
from enum import IntEnum, StrEnum
from pathlib import Path
from typing import cast

import numpy as np
import pytest

import typedtensor as tt
from tests.support.mypy_helpers import PROJECT, Mypy, MypyRun, assert_no_crash

ACCEPTED = [
    "None",
    "1",
    "-2",
    "np.int64(1)",
    "np.uint8(0)",
    "Axes.LAST",
    "(0, 1)",
    "(np.int8(0), -1)",
    "()",
    "[1, 0, 1]",
    "[np.int64(0)]",
    "[Axes.LAST]",
    "cast(list[int], [])",
    "cast(list[np.int64], [np.int64(0)])",
    "cast(list[Axes], [Axes.LAST])",
    "cast(tuple[int, ...], (0,))",
    '"v^"',
    "Selections.ROWS",
]
REFUSED = [
    "1.5",
    'b"^v"',
    'b"\\x00"',
    'bytearray(b"^v")',
    "range(2)",
    "deque([0])",
    "{0}",
    "frozenset({0})",
    "np.array([0])",
    "np.bool_(True)",
    "(0, 1.0)",
    "[0.5]",
    "cast(list[str], ['^'])",
]
#: Refused at run time and by the plugin; the declared type cannot tell them from ints.
BOOLS = ["True", "(0, True)", "[False]", "cast(list[bool], [True])", "cast(tuple[bool, ...], (True,))"]

HEAD = """\
from collections import deque
from enum import IntEnum, StrEnum
from typing import cast

import numpy as np

import typedtensor as tt


class Axes(IntEnum):
    LAST = -1


class Selections(StrEnum):
    ROWS = "^v"


x = tt.zeros((2, 3), tt.float32)
"""

VALUES = ACCEPTED + REFUSED + BOOLS


class Axes(IntEnum):
    LAST = -1


class Selections(StrEnum):
    ROWS = "^v"


def _calls(value: str) -> list[str]:
    """The method and the function: each declares ``axis`` in its own signature."""
    return [f"x.sum(axis={value})", f"tt.reduce_max(x, {value})"]


def _line(value: str, call: int) -> int:
    """The line of ``_calls(value)[call]`` in the module ``_module`` writes (1-based)."""
    return HEAD.count("\n") + 2 * VALUES.index(value) + call + 1


@pytest.fixture(scope="module")
def module(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("axis-kinds") / "axis_kinds.py"
    path.write_text(HEAD + "".join(f"{call}\n" for value in VALUES for call in _calls(value)))
    return path


@pytest.fixture(scope="module")
def mypy_run(mypy_runner: Mypy, module: Path) -> MypyRun:
    run = mypy_runner.run([module])
    assert_no_crash(run)
    return run


@pytest.fixture(scope="module")
def pyright_errors(module: Path) -> set[int]:
    """The lines pyright reports an error on."""
    command = [sys.executable, "-m", "pyright", "--outputjson", str(module)]
    report = json.loads(subprocess.run(command, cwd=PROJECT, capture_output=True, text=True, timeout=300).stdout)
    assert report["summary"]["filesAnalyzed"] == 1, report
    return {d["range"]["start"]["line"] + 1 for d in report["generalDiagnostics"] if d["severity"] == "error"}


def _runtime_accepts(value: str) -> bool:
    axis = eval(value, {"np": np, "cast": cast, "deque": deque, "Axes": Axes, "Selections": Selections})
    x = tt.zeros((2, 3), tt.float32)
    try:
        x.sum(axis=axis)
    except TypeError as error:
        assert str(error).startswith('"sum": axis must be None, an int, a tuple or list of ints, or a Selection string')
        return False
    return True


@pytest.mark.parametrize("value", VALUES)
def test_the_runtime(value: str) -> None:
    assert _runtime_accepts(value) == (value in ACCEPTED)


@pytest.mark.parametrize("value", VALUES)
def test_mypy_with_the_plugin(mypy_run: MypyRun, module: Path, value: str) -> None:
    for call, source in enumerate(_calls(value)):
        errors = [m.text for m in mypy_run.about(module, _line(value, call)) if m.severity == "error"]
        assert (errors == []) == (value in ACCEPTED), (source, errors)


@pytest.mark.parametrize("value", VALUES)
def test_pyright_with_the_declared_types(pyright_errors: set[int], value: str) -> None:
    for call, source in enumerate(_calls(value)):
        assert (_line(value, call) not in pyright_errors) == (value not in REFUSED), source


def test_the_plugin_reports_a_bool_axis_in_the_runtimes_words(mypy_run: MypyRun, module: Path) -> None:
    assert [m.text for m in mypy_run.about(module, _line("(0, True)", 0))] == [
        '"sum": axis must be None, an int, a tuple or list of ints, or a Selection string such as "^v^"; '
        "got a bool in a tuple  [arg-type]"
    ]


def test_the_plugin_does_not_read_bytes_as_a_selection(mypy_run: MypyRun, module: Path) -> None:
    """One error, mypy's own: no declared overload takes bytes, and the plugin adds nothing."""
    messages = mypy_run.about(module, _line('b"\\x00"', 0))
    assert [m.text.rpartition("  ")[2] for m in messages if m.severity == "error"] == ["[call-overload]"], messages
