"""Every Python block of docs/ type-checks as it says, and the runnable ones run: none goes stale.

The convention is in ``docs_blocks`` (and, for writers, docs/writing-docs.md). mypy checks every
program of every page in one run; each program is one test, named after its page and first line.
"""

from __future__ import annotations

import re
import runpy
from pathlib import Path

import pytest

from tests.support.docs_blocks import DOCS, Program, programs, reveal_matches, revealed
from tests.support.mypy_helpers import PROJECT, Mypy, MypyRun, assert_no_crash

PAGES = sorted(DOCS.rglob("*.md"))
PROGRAMS = programs(PAGES)


def _id(program: Program) -> str:
    return f"{program.page.relative_to(DOCS).as_posix()}:{program.lines[0]}"


@pytest.fixture(scope="module")
def docs_run(mypy_runner: Mypy, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, MypyRun]:
    """mypy's verdict on every program of the docs, from one run."""
    folder = tmp_path_factory.mktemp("docs-programs")
    for program in PROGRAMS:
        (folder / f"{program.name}.py").write_text(program.source())
    run = mypy_runner.run(sorted(folder.glob("*.py")))
    assert_no_crash(run)
    return folder, run


@pytest.mark.parametrize("program", PROGRAMS, ids=_id)
def test_the_program_type_checks_as_it_says(docs_run: tuple[Path, MypyRun], program: Program) -> None:
    folder, run = docs_run
    reveals, errors = program.expected_reveals(), program.expected_errors()
    problems = list(program.problems)
    for message in run.about(folder / f"{program.name}.py"):
        revealed_type = revealed(message.text) if message.severity == "note" else None
        if revealed_type is not None and message.line in reveals:
            comment = reveals.pop(message.line)
            if not reveal_matches(comment, revealed_type):
                problems.append(f"line {message.line}: mypy reveals {revealed_type}, the comment says {comment}")
        elif message.severity == "error" and message.text in errors.get(message.line, []):
            errors[message.line].remove(message.text)
        else:
            problems.append(f"line {message.line}: unexpected {message.severity}: {message.text}")
    problems += [f"line {line}: reveal_type revealed nothing" for line in reveals]
    problems += [f"line {line}: no error {expected}" for line, expected_errors in errors.items() for expected in expected_errors]
    assert problems == [], f"{program.page.relative_to(PROJECT)}\n" + "\n".join(problems)


@pytest.mark.parametrize("program", [program for program in PROGRAMS if program.run], ids=_id)
def test_the_program_runs(program: Program, tmp_path: Path) -> None:
    path = tmp_path / f"{program.name}.py"
    path.write_text(program.source())
    runpy.run_path(str(path), run_name=program.name)


def test_every_python_block_is_seen() -> None:
    """A fence the reader cannot see (indented in a list) would escape the checks."""
    hidden = [
        f"{page.relative_to(DOCS)}:{number}"
        for page in PAGES
        for number, line in enumerate(page.read_text().splitlines(), start=1)
        if re.match(r"^\s+```python", line)
    ]
    assert hidden == []


def test_the_docs_check_and_run_code() -> None:
    assert len(PROGRAMS) >= 20 and sum(program.run for program in PROGRAMS) >= 8
