"""The documents stand on their own and say what is live.

Everything the README and ``docs/`` point at is in the repository (a clone has nothing beside
it), and the error codes docs/static-checking.md calls live are those the plugin is shown to
report, the others being reserved.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from mypy.errorcodes import ErrorCode

from tests.support import PROJECT
from typing_plugins import _codes

DOCUMENTS = [PROJECT / "README.md", *sorted((PROJECT / "docs").glob("*.md"))]
CASES = PROJECT / "tests" / "plugin" / "cases"

_LINK = re.compile(r"\]\(([^)\s#]+)[^)]*\)")  # a markdown link's target, without its #anchor
_NAMED_PATH = re.compile(r"`([\w.-]+/[\w./-]*\w|[\w.-]+\.md)`")  # `docs/x.md`, `typedtensor/_x.py`, `X.md`
_FENCED = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)  # code and program output, not links
_CODE_ROW = re.compile(r"^\| `(tensor-[a-z]+)` \|.*\| (live|reserved)\b", re.MULTILINE)


def _points_inside(document: Path, target: str) -> bool:
    for base in (document.parent, PROJECT):
        path = (base / target).resolve()
        if path.is_relative_to(PROJECT) and path.exists():
            return True
    return False


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda path: path.name)
def test_what_a_document_points_at_is_in_the_repository(document: Path) -> None:
    text = _FENCED.sub("", document.read_text())
    links = [target for target in _LINK.findall(text) if not re.match(r"[a-z]+://", target)]
    named = _NAMED_PATH.findall(text)
    assert [target for target in links + named if not _points_inside(document, target)] == []


def _documented_codes() -> dict[str, str]:
    return dict(_CODE_ROW.findall((PROJECT / "docs" / "static-checking.md").read_text()))


def test_every_registered_error_code_is_documented_as_live_or_reserved() -> None:
    registered = {code.code for code in vars(_codes).values() if isinstance(code, ErrorCode)}
    assert set(_documented_codes()) == registered


def test_the_live_codes_are_those_the_cases_show_reported() -> None:
    """A case line ``# type: ignore[code]`` fails unless mypy reports that code there."""
    cases = "".join(path.read_text() for path in CASES.glob("*.py"))
    shown = {code for code in _documented_codes() if f"# type: ignore[{code}]" in cases}
    assert {code for code, status in _documented_codes().items() if status == "live"} == shown
