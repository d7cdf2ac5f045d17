"""Every ``assert_type`` line and every expected-error line of ``cases/`` is one test.

An ``assert_type`` line passes when mypy says nothing about it; a line ending in
``# type: ignore[code]`` passes when mypy reports exactly that code there (``warn_unused_ignores``
reports the ignore if the error is missing, and the error itself if its code differs).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mypy_helpers import CASES, EXAMPLES, MypyRun, assert_no_crash

_CASE_MARKERS = ("assert_type(", "# type: ignore[tensor-")


def _cases() -> list[tuple[Path, int]]:
    return [
        (path, number)
        for path in sorted(CASES.glob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if any(marker in line for marker in _CASE_MARKERS) and not line.lstrip().startswith(("#", "from"))
    ]


CASE_LINES = _cases()


@pytest.mark.parametrize(("path", "line"), CASE_LINES, ids=[f"{path.stem}:{line}" for path, line in CASE_LINES])
def test_case(cases_run: MypyRun, path: Path, line: int) -> None:
    source = path.read_text().splitlines()[line - 1].strip()
    messages = cases_run.about(path, line)
    assert not messages, f"{source}\n" + "\n".join(map(str, messages))


@pytest.mark.parametrize("path", sorted(CASES.glob("*.py")), ids=lambda path: path.stem)
def test_no_other_messages(cases_run: MypyRun, path: Path) -> None:
    """Setup lines of a case file check cleanly too (a typo there would hide cases)."""
    case_lines = {line for case_path, line in CASE_LINES if case_path == path}
    assert [str(m) for m in cases_run.about(path) if m.line not in case_lines] == []


@pytest.mark.parametrize("path", sorted(EXAMPLES.glob("*.py")), ids=lambda path: path.stem)
def test_examples_check_cleanly(cases_run: MypyRun, path: Path) -> None:
    """The project's own examples are what users copy: strict mypy with the plugin accepts them."""
    assert [str(m) for m in cases_run.about(path)] == []


def test_mypy_did_not_crash(cases_run: MypyRun) -> None:
    assert_no_crash(cases_run)


def test_there_are_enough_cases() -> None:
    assert len(CASE_LINES) >= 150
