"""Every ``assert_type`` line and every expected-error line of ``cases/`` is one test.

An ``assert_type`` line passes when mypy says nothing about it; a line ending in
``# type: ignore[code]`` passes when mypy reports exactly that code there (``warn_unused_ignores``
reports the ignore if the error is missing, and the error itself if its code differs).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.mypy_helpers import CASES, EXAMPLES, MypyRun, assert_no_crash

_CASE_MARKERS = ("assert_type(", "# type: ignore[tensor-")


def _cases() -> list[tuple[Path, int]]:
    return [
        (path, number)
        for path in sorted(CASES.glob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if any(marker in line for marker in _CASE_MARKERS) and not line.lstrip().startswith(("#", "from"))
    ]


CASE_LINES = _cases()


@pytest.mark.floors
@pytest.mark.parametrize(("path", "line"), CASE_LINES, ids=[f"{path.stem}:{line}" for path, line in CASE_LINES])
def test_case(cases_run: MypyRun, path: Path, line: int) -> None:
    source = path.read_text().splitlines()[line - 1].strip()
    messages = cases_run.about(path, line)
    assert not messages, f"{source}\n" + "\n".join(map(str, messages))


@pytest.mark.floors
@pytest.mark.parametrize("path", sorted(CASES.glob("*.py")), ids=lambda path: path.stem)
def test_no_other_messages(cases_run: MypyRun, path: Path) -> None:
    """Setup lines of a case file check cleanly too (a typo there would hide cases)."""
    case_lines = {line for case_path, line in CASE_LINES if case_path == path}
    assert [str(m) for m in cases_run.about(path) if m.line not in case_lines] == []


SHAPE_BUGS = EXAMPLES / "shape_bugs.py"
_MARKED_ERROR = re.compile(r"  # error: (tensor-[a-z]+)$")
_CODE = re.compile(r"  \[(tensor-[a-z]+)\]$")
_NAMED_DIM = re.compile(r"\b(Batch|Time|Context)\b")  # the named dims of shape_bugs.py


@pytest.mark.parametrize("path", sorted(set(EXAMPLES.glob("*.py")) - {SHAPE_BUGS}), ids=lambda path: path.stem)
def test_examples_check_cleanly(cases_run: MypyRun, path: Path) -> None:
    """The project's own examples are what users copy: strict mypy with the plugin accepts them."""
    assert [str(m) for m in cases_run.about(path)] == []


@pytest.mark.floors
def test_every_shape_bug_gets_its_marked_error_and_nothing_else(cases_run: MypyRun) -> None:
    lines = SHAPE_BUGS.read_text().splitlines()
    marked = {number: match[1] for number, line in enumerate(lines, start=1) if (match := _MARKED_ERROR.search(line))}
    reported = {m.line: code[1] for m in cases_run.about(SHAPE_BUGS) if (code := _CODE.search(m.text))}
    assert len(marked) == 13
    assert reported == marked
    assert len(cases_run.about(SHAPE_BUGS)) == len(marked)  # one error a bug, and no other message


@pytest.mark.floors
def test_each_shape_bug_fails_at_run_time_with_mypys_words(cases_run: MypyRun) -> None:
    """The runtime's error for each bug is the message mypy gave for its line, word for word where
    the types are literal. Where they have named dims the run names sizes instead (and a
    ``tensor-dim`` bug fails for the sizes the run gives): the same failure, of the same op."""
    messages = sorted(cases_run.about(SHAPE_BUGS), key=lambda m: m.line)
    output = subprocess.run([sys.executable, str(SHAPE_BUGS)], capture_output=True, text=True, check=True).stdout.splitlines()
    assert len(output) == len(messages)
    pairs = [(_CODE.sub("", m.text), line.split(": ", 1)) for m, line in zip(messages, output)]
    literal = [(static, run) for static, (_, run) in pairs if not _NAMED_DIM.search(static)]
    assert [static for static, _ in literal] == [run for _, run in literal]
    named = [(static.split(" Tensor")[0], error, run.split(" Tensor")[0]) for static, (error, run) in pairs if _NAMED_DIM.search(static)]
    assert named == [
        ("Cannot broadcast", "BroadcastError", "Cannot broadcast"),
        ("Cannot matmul", "MatmulError", "Cannot matmul"),
        ("Cannot reshape", "ReshapeError", "Cannot reshape"),
        ("Cannot matmul", "MatmulError", "Cannot matmul"),
        ("Cannot broadcast", "BroadcastError", "Cannot broadcast"),
        ("Cannot broadcast", "BroadcastError", "Cannot broadcast"),
    ]


@pytest.mark.floors
def test_mypy_did_not_crash(cases_run: MypyRun) -> None:
    assert_no_crash(cases_run)


def test_there_are_enough_cases() -> None:
    assert len(CASE_LINES) >= 150
