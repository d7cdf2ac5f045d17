"""The docs site builds with ``mkdocs build --strict``: no broken link or anchor, no page missing from
the nav, every docstring rendered, and every public name of typedtensor in the API reference.

The Python blocks of the pages are checked by tests/plugin/test_docs_code.py.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import typedtensor
from tests.support import PROJECT


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    site = tmp_path / "site"
    command = [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", "mkdocs.yml", "--site-dir", str(site)]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    result = subprocess.run(command, cwd=PROJECT, env=env, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    api = (site / "api" / "index.html").read_text()
    assert 'id="typedtensor.reduce_sum"' in api and "The sum over" in api
    assert '<span class="gp">&gt;&gt;&gt; </span>' in api, "doctest examples render as code"
    assert not list(site.rglob("*.py")), "the build's griffe extension is not part of the site"


def test_the_api_reference_lists_every_public_name() -> None:
    documented = set(re.findall(r"^::: typedtensor\.(\w+)$", (PROJECT / "docs" / "api.md").read_text(), re.MULTILINE))
    public = {name for name in dir(typedtensor) if not name.startswith("_")}
    public -= {name for name in public if isinstance(getattr(typedtensor, name), ModuleType)}
    assert sorted(public - documented) == []
