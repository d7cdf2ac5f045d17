"""One in-process mypy run over the case files, shared by every test of the session.

mypy is slow to start and to read numpy's stubs, so the session shares one cache directory and
runs mypy once per set of files; tests then look up the messages of their own lines.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from tests.support.mypy_helpers import CASES, EXAMPLES, Mypy, MypyRun

# pytest-mypy-plugins (the YAML cases) runs the ``mypy`` it finds on PATH: make it this
# interpreter's, also when the virtualenv is not activated.
os.environ["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])


@pytest.fixture(scope="session")
def mypy_runner(tmp_path_factory: pytest.TempPathFactory) -> Mypy:
    """A mypy runner whose cache (numpy's stubs, typedtensor) lives as long as the session."""
    return Mypy(tmp_path_factory.mktemp("mypy-cache"))


@pytest.fixture(scope="session")
def cases_run(mypy_runner: Mypy) -> MypyRun:
    """mypy's verdict on every case file and every example, from a single run."""
    return mypy_runner.run(sorted(CASES.glob("*.py")) + sorted(EXAMPLES.glob("*.py")))
