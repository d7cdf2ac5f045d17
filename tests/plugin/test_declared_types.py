"""The declared types, without the plugin: pyright (Pylance's checker) and plain mypy agree on them.

``declared/`` holds ``assert_type`` lines and expected errors that must hold for a user who has no
mypy plugin; the examples must check cleanly under pyright too.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.support.mypy_helpers import EXAMPLES, PROJECT, Mypy, assert_no_crash

DECLARED = Path(__file__).resolve().parent / "declared"
PYRIGHT_TARGETS = [*sorted(DECLARED.glob("*.py")), *sorted(EXAMPLES.glob("*.py"))]


@pytest.fixture(scope="module")
def pyright_diagnostics() -> list[dict[str, object]]:
    """pyright's diagnostics on the declared cases and the examples, from one run."""
    pyright = shutil.which("pyright")
    assert pyright is not None, "pyright is a dev dependency: pip install -e '.[dev]'"
    command = [pyright, "--outputjson", *map(str, PYRIGHT_TARGETS)]
    result = subprocess.run(command, cwd=PROJECT, capture_output=True, text=True, timeout=300)
    report = json.loads(result.stdout)
    assert report["summary"]["filesAnalyzed"] == len(PYRIGHT_TARGETS), result.stdout
    diagnostics: list[dict[str, object]] = report["generalDiagnostics"]
    return diagnostics


@pytest.mark.parametrize("path", PYRIGHT_TARGETS, ids=lambda path: path.stem)
def test_pyright_accepts(pyright_diagnostics: list[dict[str, object]], path: Path) -> None:
    """Every assert_type holds and every expected error happens (unused ignores are errors)."""
    assert [d for d in pyright_diagnostics if Path(str(d["file"])) == path] == []


def test_plain_mypy_accepts_the_declared_cases(tmp_path: Path) -> None:
    config = tmp_path / "no-plugin.ini"
    config.write_text("[mypy]\nstrict = True\nwarn_unused_ignores = True\n")
    run = Mypy(tmp_path / "cache", config).run(sorted(DECLARED.glob("*.py")))
    assert_no_crash(run)
    assert [str(m) for m in run.messages] == []
