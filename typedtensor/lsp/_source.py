"""Where in a Python source the language server asks for types: the names assignments bind.

Positions are LSP's (0-based lines and characters) and mypy's (1-based). They agree character for
character only on ASCII: mypy's columns after a non-ASCII character on the same line depend on
its parser, so such places are left alone (said less, never said wrong).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass


@dataclass(frozen=True, order=True)
class Target:
    """A name an assignment binds, in LSP positions: ``line`` (0-based), ``start`` to ``end``."""

    line: int
    start: int
    end: int


def ascii_before(line: str, character: int) -> bool:
    """Whether ``line`` is plain ASCII before ``character``, so LSP's and mypy's columns agree."""
    return line[:character].isascii()


def assignment_targets(text: str, first_line: int, last_line: int) -> list[Target]:
    """Names bound by unannotated assignments (``x = ...``, ``a, b = ...``, ``(y := ...)``) whose
    line lies in ``first_line..last_line`` (0-based, inclusive), in source order.

    An annotated name already shows its type; a name after a non-ASCII character is skipped.
    Text that does not parse has no targets.

    >>> assignment_targets("x = f()\\ny: int = 1\\na, (b, c) = g()\\nd[0] = 1\\n", 0, 9)
    [Target(line=0, start=0, end=1), Target(line=2, start=0, end=1), Target(line=2, start=4, end=5), Target(line=2, start=7, end=8)]
    """
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    lines = text.splitlines()
    targets = [
        Target(name.lineno - 1, name.col_offset, name.end_col_offset or name.col_offset)
        for node in ast.walk(tree)
        for name in _bound_names(node)
    ]
    return sorted(
        target
        for target in targets
        if first_line <= target.line <= last_line and ascii_before(lines[target.line], target.end)
    )


def _bound_names(node: ast.AST) -> list[ast.Name]:
    if isinstance(node, ast.Assign):
        return [
            name
            for target in node.targets
            for name in ast.walk(target)
            if isinstance(name, ast.Name) and isinstance(name.ctx, ast.Store)
        ]
    if isinstance(node, ast.NamedExpr):
        return [node.target]
    return []
