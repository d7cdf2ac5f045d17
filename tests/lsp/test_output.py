"""The language server's reading of mypy's output, and its ranges, on output written by hand."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from typedtensor.lsp._output import Inspected, Message, Span, compact, innermost, inspected, messages
from typedtensor.lsp._server import _range
from typedtensor.lsp._source import Target, assignment_targets


def test_messages_read_spans_codes_and_severities() -> None:
    output = "\n".join(
        [
            "Daemon started",
            '/w/a.py:5:42:5:43: error: Axis 2 is out of range for "sum"  [tensor-axis]',
            "/w/a.py:7: error: Name \"y\" is not defined  [name-defined]",
            "/w/b.py:1:1:1:1: warning: Unused \"type: ignore\" comment  [unused-ignore]",
            "/w/b.py:3:5: note: Revealed type is \"int\"",
        ]
    )
    assert messages(output) == [
        Message(Path("/w/a.py"), Span(5, 42, 5, 43), "error", 'Axis 2 is out of range for "sum"', "tensor-axis"),
        Message(Path("/w/a.py"), Span(7, 1, 7, 1), "error", 'Name "y" is not defined', "name-defined"),
        Message(Path("/w/b.py"), Span(1, 1, 1, 1), "warning", 'Unused "type: ignore" comment', "unused-ignore"),
        Message(Path("/w/b.py"), Span(3, 5, 3, 5), "note", 'Revealed type is "int"', None),
    ]


def test_a_note_continues_the_error_on_its_line_only() -> None:
    output = "\n".join(
        [
            "/w/a.py:2:1:2:5: error: Incompatible types  [assignment]",
            "/w/a.py:2:1:2:5: note: Consider using a Sequence",
            "/w/a.py:9:1:9:5: note: A note of its own",
        ]
    )
    assert [(m.span.line, m.severity, m.text) for m in messages(output)] == [
        (2, "error", "Incompatible types\nConsider using a Sequence"),
        (9, "note", "A note of its own"),
    ]


def _expression(kind: str, *span: int) -> Inspected:
    return Inspected(kind, Span(*span), "T")


def test_pointing_at_a_callee_means_its_call() -> None:
    callee, call = _expression("MemberExpr", 5, 5, 5, 18), _expression("CallExpr", 5, 5, 5, 34)
    assert innermost([callee, call]) == call
    argument = _expression("NameExpr", 5, 20, 5, 20)
    assert innermost([argument, call]) == argument  # an argument is itself
    receiver, method = _expression("NameExpr", 5, 5, 5, 5), _expression("MemberExpr", 5, 5, 5, 9)
    assert innermost([receiver, method, call]) == receiver  # x in x.sum(): x
    assert innermost([]) is None


def test_inspect_answers_lose_their_quotes_and_unknown_types() -> None:
    output = 'No known type available for "NameExpr"\nMemberExpr:5:5:5:18 -> overloaded function\n'
    output += 'CallExpr:5:5:5:34 -> "Tensor[float32, Literal[32], Literal[5]]"'
    assert inspected(output) == [
        Inspected("MemberExpr", Span(5, 5, 5, 18), "overloaded function"),
        Inspected("CallExpr", Span(5, 5, 5, 34), "Tensor[float32, Literal[32], Literal[5]]"),
    ]


@pytest.mark.parametrize(
    ("mypy_type", "shown"),
    [
        ("Tensor[float32, Literal[32], Literal[5]]", "Tensor[float32, 32, 5]"),
        ("Tensor[float32]", "Tensor[float32]"),
        ("Tensor[int64, Batch, Any, *tuple[Any, ...]]", "Tensor[int64, Batch, Any, *tuple[Any, ...]]"),
        ("tuple[Literal[32], Literal[5]]", "tuple[Literal[32], Literal[5]]"),
        ("def (x: Tensor[float32, Literal[3]]) -> Literal[3]", "def (x: Tensor[float32, 3]) -> Literal[3]"),
        ("Tensor[float32, MyLiteral[3]]", "Tensor[float32, MyLiteral[3]]"),
        ("Tensor[float32, Literal[2]] | None", "Tensor[float32, 2] | None"),
    ],
)
def test_compact_writes_literal_dims_as_typedtensors_messages_do(mypy_type: str, shown: str) -> None:
    assert compact(mypy_type) == shown


def test_ranges_are_exact_on_ascii_and_whole_lines_after_other_characters() -> None:
    lines = ["x = a.sum(axis=4)\n", 'é = 1; y = a.sum(axis=4)\n']
    assert _range(1, 16, 1, 16, lines) == types.Range(
        start=types.Position(line=0, character=15), end=types.Position(line=0, character=16)
    )
    assert _range(2, 22, 2, 22, lines) == types.Range(
        start=types.Position(line=1, character=0), end=types.Position(line=2, character=0)
    )
    # mypy's "line 0" (a file-level message) stays inside the file
    assert _range(0, 0, 0, 0, lines).start == types.Position(line=0, character=0)


def test_assignment_targets_skip_annotations_stores_into_items_and_non_ascii_lines() -> None:
    source = "a = f()\nb: int = 1\nc[0] = 2\nself.d = 3\n(e := g())\né = 1; h = 2\nfor i in x: pass\n"
    assert assignment_targets(source, 0, 99) == [Target(0, 0, 1), Target(4, 1, 2)]
    assert assignment_targets(source, 1, 3) == []
    assert assignment_targets("x = (", 0, 9) == []
