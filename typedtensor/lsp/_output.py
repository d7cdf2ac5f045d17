"""Reading what mypy prints: its messages, ``dmypy inspect``'s answers, and its type strings.

mypy runs with ``--show-column-numbers --show-error-end --show-absolute-path`` (see
``_mypy.OUTPUT_FLAGS``), so each message names its file and the span it is about. Columns are
mypy's: 1-based, the end inclusive.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final

_MESSAGE: Final = re.compile(
    r"^(?P<path>.+?):(?P<line>\d+)(?::(?P<column>\d+)(?::(?P<end_line>\d+):(?P<end_column>\d+))?)?: "
    r"(?P<severity>error|warning|note): (?P<text>.*?)(?:  \[(?P<code>[a-z0-9-]+)\])?$"
)
_INSPECTED: Final = re.compile(
    r"^(?P<kind>\w+):(?P<line>\d+):(?P<column>\d+):(?P<end_line>\d+):(?P<end_column>\d+) -> (?P<type>.*)$"
)
_TENSOR_LITERAL_DIM: Final = re.compile(r"Literal\[(-?\d+)\]")
_NAME_BEFORE: Final = re.compile(r"[\w.]*$")


@dataclass(frozen=True)
class Span:
    """A stretch of source in mypy's terms: 1-based lines and columns, the end column inclusive."""

    line: int
    column: int
    end_line: int
    end_column: int


@dataclass(frozen=True)
class Message:
    """One message of mypy's about one file (notes that follow an error on its line are folded in)."""

    path: Path
    span: Span
    severity: str
    text: str
    code: str | None


@dataclass(frozen=True)
class Inspected:
    """One expression ``dmypy inspect`` found: its kind (``CallExpr``), where it is, and its type."""

    kind: str
    span: Span
    type: str


def messages(output: str) -> list[Message]:
    """mypy's messages in ``output``; lines that are not messages (a summary, "Daemon started") are skipped.

    A note on the line of the error just before it continues that error (mypy's hints), so it is
    folded into the error's text rather than reported apart.

    >>> [m.text for m in messages('/p/a.py:3:5:3:9: error: Bad  [misc]\\n/p/a.py:3:5: note: Hint')]
    ['Bad\\nHint']
    """
    found: list[Message] = []
    for match in map(_MESSAGE.match, output.splitlines()):
        if match is None:
            continue
        message = _message(match)
        previous = found[-1] if found else None
        if (
            message.severity == "note"
            and previous is not None
            and previous.severity == "error"
            and (previous.path, previous.span.line) == (message.path, message.span.line)
        ):
            text = f"{previous.text}\n{message.text}"
            found[-1] = Message(previous.path, previous.span, "error", text, previous.code)
        else:
            found.append(message)
    return found


def _message(match: re.Match[str]) -> Message:
    line = int(match["line"])
    column = int(match["column"] or 1)
    end_line = int(match["end_line"] or line)
    end_column = int(match["end_column"] or column)
    return Message(
        Path(match["path"]), Span(line, column, end_line, end_column), match["severity"], match["text"], match["code"]
    )


def inspected(output: str) -> list[Inspected]:
    """The expressions of an ``inspect --include-span --include-kind`` answer, innermost first.

    Expressions without a known type (a module name, say) are reported by mypy without a span;
    they are skipped. A type mypy quotes loses its quotes.

    >>> inspected('NameExpr:5:1:5:1 -> "Tensor[float32, Literal[5]]"\\nNo known type available for "X"')
    [Inspected(kind='NameExpr', span=Span(line=5, column=1, end_line=5, end_column=1), type='Tensor[float32, Literal[5]]')]
    """
    found = []
    for match in map(_INSPECTED.match, output.splitlines()):
        if match is not None:
            span = Span(int(match["line"]), int(match["column"]), int(match["end_line"]), int(match["end_column"]))
            found.append(Inspected(match["kind"], span, _unquoted(match["type"])))
    return found


def _unquoted(text: str) -> str:
    return text[1:-1] if len(text) >= 2 and text[0] == text[-1] == '"' else text


def innermost(expressions: list[Inspected]) -> Inspected | None:
    """The expression a hover is about: the innermost, or the call whose callee it is.

    Pointing at ``reduce_mean`` in ``tt.reduce_mean(x, axis=1)`` (or at ``sum`` in ``x.sum()``)
    means the call: its result type is the shape one wants to see, not the function's signature.
    A callee starts where its call starts; an argument never does.
    """
    if not expressions:
        return None
    first = expressions[0]
    parent = expressions[1] if len(expressions) > 1 else None
    if (
        parent is not None
        and parent.kind == "CallExpr"
        and first.kind in ("NameExpr", "MemberExpr")
        and (parent.span.line, parent.span.column) == (first.span.line, first.span.column)
    ):
        return parent
    return first


def compact(type_text: str) -> str:
    """A mypy type string with each ``Literal[n]`` dim of a ``Tensor[...]`` written as ``n``.

    That is how typedtensor's messages write shapes; literals elsewhere keep their form.

    >>> compact("Tensor[float32, Literal[32], Literal[5]]")
    'Tensor[float32, 32, 5]'
    >>> compact("tuple[Tensor[int64, Literal[2], Any], Literal[3]]")
    'tuple[Tensor[int64, 2, Any], Literal[3]]'
    """
    out: list[str] = []
    owners: list[str] = []  # the name before each open bracket, innermost last
    position = 0
    while position < len(type_text):
        literal = _TENSOR_LITERAL_DIM.match(type_text, position)
        if literal is not None and owners and _is_tensor(owners[-1]) and _starts_argument(type_text, position):
            out.append(literal[1])
            position = literal.end()
            continue
        char = type_text[position]
        if char == "[":
            owners.append(_name_before(type_text, position))
        elif char == "]" and owners:
            owners.pop()
        out.append(char)
        position += 1
    return "".join(out)


def _name_before(text: str, position: int) -> str:
    match = _NAME_BEFORE.search(text, 0, position)
    return match[0] if match else ""


def _is_tensor(name: str) -> bool:
    return name == "Tensor" or name.endswith(".Tensor")


def _starts_argument(text: str, position: int) -> bool:
    """Whether ``position`` begins an argument of the bracket it is in (not ``x.Literal[...]``)."""
    before = text[:position].rstrip()
    return before.endswith(("[", ","))
