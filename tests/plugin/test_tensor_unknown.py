"""``tensor-unknown`` switched on over the case files and the examples (its wording and silences
are cases of ``test_mypy_messages.yml``, which can enable a code per case).

A report must change nothing else: mypy picks an overload by whether trying it gave errors, so
a report it saw there would change results and errors elsewhere.
"""

from __future__ import annotations

import re

import pytest

from tests.support.mypy_helpers import CASES, EXAMPLES, Message, Mypy, MypyRun, assert_no_crash

_REPORT = re.compile(r'^Result of "\w+" has unknown dims: .+  \[tensor-unknown\]$')


@pytest.fixture(scope="module")
def unknown_run(mypy_runner: Mypy) -> MypyRun:
    return mypy_runner.run(sorted(CASES.glob("*.py")) + sorted(EXAMPLES.glob("*.py")), ["--enable-error-code=tensor-unknown"])


def _reports(run: MypyRun) -> list[Message]:
    return [m for m in run.messages if m.text.endswith("[tensor-unknown]")]


def test_it_changes_no_other_message(cases_run: MypyRun, unknown_run: MypyRun) -> None:
    assert_no_crash(unknown_run)
    # A line whose ``# type: ignore[...]`` names another code says so of the report too.
    others = [m for m in unknown_run.messages if "tensor-unknown" not in m.text]
    assert sorted(map(str, others)) == sorted(map(str, cases_run.messages))


def test_reports_are_worded_alike_and_alone_on_their_line(unknown_run: MypyRun) -> None:
    reports = _reports(unknown_run)
    assert len(reports) > 50  # the cases lose dims on purpose in many places
    assert [m.text for m in reports if not _REPORT.match(m.text)] == []
    errors = {(m.path, m.line) for m in unknown_run.messages if m.severity == "error" and m not in reports}
    assert [str(m) for m in reports if (m.path, m.line) in errors] == []
