"""mypy's daemon runs the plugin: exact types and shape errors, and again after an edit.

docs/static-checking.md recommends ``dmypy run`` for editors; this runs it as a user would, on a
file in a temporary directory, edits the file and runs it again. The daemon is always stopped.
Each edit changes the file's size: dmypy misses an edit that keeps the size within the second of
the last one it saw (python/mypy#12697; the language server works around it, see tests/lsp/test_server.py).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.mypy_helpers import PROJECT

MODULE = """\
from typing import Literal as L, assert_type
import typedtensor as tt
from typedtensor import Tensor, float32

x: Tensor[float32, L[32], L[{size}], L[128]] = tt.zeros((32, {size}, 128), tt.float32)
assert_type(tt.reduce_mean(x, axis=(0, 2)), Tensor[float32, L[{size}]])
assert_type(x.sum(axis=-1, keepdims=True), Tensor[float32, L[32], L[{size}], L[1]])
x.sum(axis={axis})
"""


@pytest.fixture
def dmypy(tmp_path: Path) -> Iterator[list[str]]:
    """The ``dmypy`` command with a status file of its own; the daemon is stopped afterwards."""
    command = [sys.executable, "-m", "mypy.dmypy", "--status-file", str(tmp_path / "dmypy.json")]
    try:
        yield command
    finally:
        stopped = subprocess.run([*command, "stop"], capture_output=True, text=True, timeout=60)
        if stopped.returncode != 0 and "No status file found" not in stopped.stdout + stopped.stderr:
            subprocess.run([*command, "kill"], capture_output=True, timeout=60)


def _run(dmypy: list[str], config: Path, module: Path) -> list[str]:
    """What ``dmypy run`` on the module prints: mypy's messages, and whether it started a daemon."""
    command = [*dmypy, "run", "--", f"--config-file={config}", "--no-error-summary", str(module)]
    result = subprocess.run(command, cwd=module.parent, capture_output=True, text=True, timeout=300)
    assert result.returncode in (0, 1), result.stdout + result.stderr
    return result.stdout.splitlines()


def test_dmypy_applies_the_plugin_before_and_after_an_edit(dmypy: list[str], tmp_path: Path) -> None:
    config = tmp_path / "mypy.ini"
    config.write_text(
        f"[mypy]\nstrict = True\nplugins = typing_plugins.mypy_plugin\nmypy_path = {PROJECT}\n"
        "[mypy-typedtensor.*]\nfollow_imports = silent\n"
    )
    module = tmp_path / "model.py"
    module.write_text(MODULE.format(size=256, axis=3))
    assert _run(dmypy, config, module) == [
        "Daemon started",
        'model.py:8: error: Axis 3 is out of range for "sum" on Tensor[float32, 32, 256, 128] (valid axes are -3 to 2)  [tensor-axis]',
    ]
    module.write_text(MODULE.format(size=5, axis=-4))
    assert _run(dmypy, config, module) == [  # the same daemon: no "Daemon started"
        'model.py:8: error: Axis -4 is out of range for "sum" on Tensor[float32, 32, 5, 128] (valid axes are -3 to 2)  [tensor-axis]',
    ]
    module.write_text(MODULE.format(size=5, axis=2))
    assert _run(dmypy, config, module) == []
