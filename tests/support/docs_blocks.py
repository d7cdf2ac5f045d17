"""The Python blocks of docs/, read as programs whose expectations are written in them.

The convention (docs/writing-docs.md tells writers; this module is what enforces it):

- A fenced ``python`` block whose first code line is an import starts a program; any other
  block continues the program of the block above it on the same page.
- Every program is type-checked by mypy with the plugin and the project's strict configuration.
  ``reveal_type(expr)  # T`` expects mypy to reveal ``T`` (module names dropped; the comment may
  start with a note, as in ``# n: int -> T``). A comment line ``# error: <message>  [<code>]``
  expects exactly that error on the nearest code line above it. Anything else mypy says fails.
- ``<!-- docs: run -->`` on the line before a program's first block also runs the program, which
  must finish without an exception (a program that runs imports ``reveal_type`` from ``typing``,
  as a reader who copies it must).

A program is written to a file of its own in which every other line of the page is blank, so
mypy's line numbers (and a traceback's) are the page's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from tests.support.mypy_helpers import PROJECT

DOCS: Final = PROJECT / "docs"
RUN_MARKER: Final = "<!-- docs: run -->"

_FENCE_START: Final = re.compile(r"^```(?P<language>[\w-]*)")
_REVEAL: Final = re.compile(r"reveal_type\(.*\)\s*#\s*(?P<expected>.+?)\s*$")
_ERROR: Final = re.compile(r"^\s*#\s*error:\s*(?P<expected>.+\[[a-z0-9-]+\])\s*$")
_QUALIFIER: Final = re.compile(r"\b[A-Za-z_]\w*\.(?=[A-Za-z_])")


@dataclass
class Program:
    """Consecutive blocks of one page that read as one program (their page lines, 1-based)."""

    page: Path
    lines: list[int] = field(default_factory=list)
    run: bool = False
    problems: list[str] = field(default_factory=list)  # breaches of the convention, reported as failures

    @property
    def name(self) -> str:
        page = self.page.relative_to(DOCS).with_suffix("").as_posix().replace("/", "_").replace("-", "_")
        return f"docs_{page}_{self.lines[0]}"

    def source(self) -> str:
        """The page with every line that is not this program's blanked."""
        page = self.page.read_text().splitlines()
        mine = set(self.lines)
        return "\n".join(text if number in mine else "" for number, text in enumerate(page, start=1)) + "\n"

    def expected_reveals(self) -> dict[int, str]:
        """Page line -> the type its ``reveal_type(...)  # T`` comment expects."""
        found = {}
        for number, text in self._code():
            if (match := _REVEAL.search(text)) is not None:
                found[number] = match["expected"]
        return found

    def expected_errors(self) -> dict[int, list[str]]:
        """Page line -> the errors ``# error: ...`` comments below it expect there."""
        found: dict[int, list[str]] = {}
        last_code_line = None
        for number, text in self._code():
            if (match := _ERROR.match(text)) is not None:
                assert last_code_line is not None, f"{self.page.name}:{number}: an error comment needs code above it"
                found.setdefault(last_code_line, []).append(match["expected"])
            elif text.strip() and not text.lstrip().startswith("#"):
                last_code_line = number
        return found

    def _code(self) -> list[tuple[int, str]]:
        page = self.page.read_text().splitlines()
        return [(number, page[number - 1]) for number in self.lines]


def programs(pages: list[Path]) -> list[Program]:
    """The programs of ``pages``, in page order."""
    return [program for page in pages for program in _page_programs(page)]


def _page_programs(page: Path) -> list[Program]:
    lines = page.read_text().splitlines()
    found: list[Program] = []
    language: str | None = None  # of the fenced block the scan is in
    block: list[int] = []
    for number, text in enumerate(lines, start=1):
        if language is None:
            if (match := _FENCE_START.match(text)) is not None:
                language, block = match["language"], []
                run = number > 1 and lines[number - 2] == RUN_MARKER
        elif text.startswith("```"):
            if language == "python":
                _add_block(page, lines, block, run, found)
            language = None
        else:
            block.append(number)
    if language is not None:
        found.append(Program(page, [len(lines)], problems=["a fenced block is not closed"]))
    return found


def _add_block(page: Path, lines: list[str], block: list[int], run: bool, found: list[Program]) -> None:
    """Start a program with the block if it begins with an import, else add it to the last one."""
    code = [lines[number - 1] for number in block if lines[number - 1].strip()]
    first = next((text for text in code if not text.lstrip().startswith("#")), None)
    if first is None:
        return  # nothing to check
    starts = first.startswith(("import ", "from "))
    if starts or not found:
        problems = [] if starts else ["the page's first python block starts with no import"]
        found.append(Program(page, list(block), run, problems))
    else:
        found[-1].lines.extend(block)
        if run:
            found[-1].problems.append(f"line {block[0]}: {RUN_MARKER} goes before the block that starts the program")


def revealed(mypy_note: str) -> str | None:
    """The type in mypy's ``Revealed type is "..."`` note, module names dropped."""
    match = re.fullmatch(r'Revealed type is "(?P<type>.*)"', mypy_note)
    return None if match is None else _QUALIFIER.sub("", match["type"])


def reveal_matches(expected_comment: str, revealed_type: str) -> bool:
    """Whether a ``# ...`` comment states the revealed type (alone, or after a note)."""
    return expected_comment == revealed_type or expected_comment.endswith(" " + revealed_type)
