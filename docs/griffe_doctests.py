"""A griffe extension for the API reference: doctest examples in docstrings render as code.

typedtensor's docstrings show examples as bare ``>>>`` blocks, which pytest runs as doctests.
Markdown would read them as nested quotes, and their output as links
(``Tensor[float32, 2]([0., 0.])``). Each block, up to the next blank line, is fenced as
``pycon`` before mkdocstrings renders the docstring. mkdocs.yml loads this file by its path.
"""

from __future__ import annotations

from typing import Any

import griffe


class DoctestBlocks(griffe.Extension):
    def on_object(self, *, obj: griffe.Object, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        if obj.docstring is not None:
            obj.docstring.value = fence_doctests(obj.docstring.value)


def fence_doctests(text: str) -> str:
    """``text`` with each run of lines that starts with ``>>>`` and ends before a blank line fenced."""
    out: list[str] = []
    block: list[str] = []
    for line in [*text.splitlines(), ""]:
        if block and not line.strip():
            out += ["```pycon", *block, "```"]
            block = []
        if block or line.startswith(">>>"):
            block.append(line)
        else:
            out.append(line)
    return "\n".join(out[:-1])
