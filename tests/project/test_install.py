"""The project installs both ways, and what gets installed is visible to type checkers.

Each install goes into a fresh virtual environment in a temporary directory, and a small file in
another temporary directory, outside the clone like a user's own code, is checked there: by mypy
with the plugin (an exact reduction type and a ``tensor-axis`` error) and by pyright (the import
resolves to typedtensor's declared types). setuptools' default editable install of a flat layout
is an import hook that static checkers cannot follow; the build configuration makes it a plain
path entry instead.

To stay fast the environments hold typedtensor alone (``--no-deps``, no pip of their own): the
checkers run from the test's interpreter and resolve imports in the fresh environment
(``--python-executable``, ``--pythonpath``), and nothing the files check comes from numpy. Nor
do they compile the optional C loops (``TYPEDTENSOR_BUILD_EXTENSION=0``, read by setup.py): nothing
here runs a reduction, the loops' own tests test the extension, and compiling it took 40 s per install.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from tests.support import PROJECT

#: Checked by mypy with the plugin: the exact result of a reduction, and an out-of-range axis.
WITH_PLUGIN = """\
from typing import Literal as L, assert_type

import typedtensor as tt

x: tt.Tensor[tt.float32, L[2], L[3]] = tt.zeros((2, 3), tt.float32)
assert_type(x.sum(axis=1), tt.Tensor[tt.float32, L[2]])
x.sum(axis=2)  # type: ignore[tensor-axis]
"""

#: Checked by pyright, which has no plugin: the declared types of the installed package.
DECLARED = """\
from typing import Literal as L, assert_type

import typedtensor as tt

x: tt.Tensor[tt.float32, L[2], L[3]] = tt.zeros((2, 3), tt.float32)
assert_type(x.max(axis=1), tt.Tensor[tt.float32, L[2]])
"""

MYPY_CONFIG = """\
[mypy]
strict = True
warn_unused_ignores = True
plugins = typing_plugins.mypy_plugin
"""


def _run(*command: str | Path, cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(part) for part in command], cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def _source_copy(destination: Path) -> Path:
    """The project's sources without environments, caches and build leftovers (``build/`` can
    hold stale files that setuptools would put in the wheel)."""
    ignore = shutil.ignore_patterns(".*", "build", "dist", "*.egg-info", "__pycache__")
    return Path(shutil.copytree(PROJECT, destination, ignore=ignore))


@pytest.fixture(scope="module", params=["regular", "editable"])
def installed(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The interpreter of a fresh virtual environment with typedtensor installed one way."""
    root = tmp_path_factory.mktemp(f"install-{request.param}")
    venv.EnvBuilder(with_pip=False).create(root / "venv")
    python = root / "venv" / "bin" / "python"
    target = ["-e", PROJECT] if request.param == "editable" else [_source_copy(root / "source")]
    without_extension = {**os.environ, "TYPEDTENSOR_BUILD_EXTENSION": "0"}
    pip_install = (sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--quiet", *target)
    pip = _run(*pip_install, cwd=root, env=without_extension)
    assert pip.returncode == 0, pip.stdout + pip.stderr
    return python


@pytest.fixture
def user_project(tmp_path: Path) -> Path:
    """A directory of the user's own code, outside the clone."""
    (tmp_path / "with_plugin.py").write_text(WITH_PLUGIN)
    (tmp_path / "declared.py").write_text(DECLARED)
    (tmp_path / "mypy.ini").write_text(MYPY_CONFIG)
    return tmp_path


def test_mypy_with_the_plugin_sees_the_installed_package(installed: Path, user_project: Path) -> None:
    command = (sys.executable, "-m", "mypy", "--python-executable", installed, "--cache-dir", user_project / ".cache")
    result = _run(*command, "with_plugin.py", cwd=user_project)
    assert (result.returncode, result.stdout) == (0, "Success: no issues found in 1 source file\n"), result.stdout + result.stderr


def test_pyright_resolves_the_installed_package(installed: Path, user_project: Path) -> None:
    result = _run(sys.executable, "-m", "pyright", "--outputjson", "--pythonpath", installed, "declared.py", cwd=user_project)
    report = json.loads(result.stdout)
    assert report["generalDiagnostics"] == [], result.stdout
    assert report["summary"]["filesAnalyzed"] == 1


def test_the_license_is_an_spdx_expression(installed: Path) -> None:
    """Metadata 2.4's ``License-Expression``: the table form ``{text = ...}`` is deprecated."""
    (metadata,) = installed.parents[1].glob("lib/python*/site-packages/typedtensor-*.dist-info/METADATA")
    assert "License-Expression: MIT\n" in metadata.read_text()
