"""Helpers the tests share: references, runners and editors that are not tests themselves.

- ``arrays``: the dtypes and strided views the ops' tests draw arrays with.
- ``kernels``: which kernels reductions run on, and how many threads, for the reducer's tests.
- ``tosa_reference``: an independent reference for the reductions.
- ``mypy_helpers``: mypy run in-process with the project's configuration; pyright's answers.
- ``docs_blocks``: the Python blocks of docs/, read as programs.
- ``lsp_editor``: a client of the language server, driven synchronously.
"""

from pathlib import Path
from typing import Final

#: The root of the clone: the tests find docs, examples, tools and configuration from here.
PROJECT: Final = Path(__file__).resolve().parents[2]
