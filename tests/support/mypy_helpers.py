"""Running mypy in-process with the project's configuration, and reading what it printed."""

from __future__ import annotations

import contextlib
import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import mypy.api

from tests.support import PROJECT
from typedtensor import TypedTensorError

CASES = PROJECT / "tests" / "plugin" / "cases"
EXAMPLES = PROJECT / "examples"

_MESSAGE = re.compile(r"^(?P<path>.+?):(?P<line>\d+): (?P<severity>error|note|warning): (?P<text>.*)$")
_SHAPE_ERROR = re.compile(r"^(?P<message>.*)  \[tensor-[a-z]+\]$")


@dataclass(frozen=True)
class Message:
    path: Path
    line: int
    severity: str
    text: str

    def __str__(self) -> str:
        return f"{self.path.name}:{self.line}: {self.severity}: {self.text}"


@dataclass(frozen=True)
class MypyRun:
    """What one mypy run printed, with its messages parsed."""

    stdout: str
    stderr: str
    exit_status: int
    messages: tuple[Message, ...]

    def about(self, path: Path, line: int | None = None) -> list[Message]:
        """The messages on ``path`` (on ``line`` of it, if given)."""
        return [m for m in self.messages if m.path == path.resolve() and line in (None, m.line)]


class Mypy:
    """Runs mypy in-process with a configuration: the project's (the plugin on, strict) by default."""

    def __init__(self, cache_dir: Path, config: Path = PROJECT / "pyproject.toml") -> None:
        self.cache_dir = cache_dir
        self.config = config

    def run(self, paths: Iterable[Path], extra_args: Sequence[str] = ()) -> MypyRun:
        args = [
            f"--config-file={self.config}",
            f"--cache-dir={self.cache_dir}",
            "--show-absolute-path",
            "--no-error-summary",
            "--no-pretty",
            "--show-traceback",
            *extra_args,
            *(str(path) for path in paths),
        ]
        # mypy runs from the project root, as a developer runs it: typedtensor is found there as
        # source, whichever way it is installed (tests/project/test_install.py checks the installs).
        # It also raises the recursion limit for good, which hypothesis rightly complains about.
        recursion_limit = sys.getrecursionlimit()
        with contextlib.chdir(PROJECT):
            stdout, stderr, status = mypy.api.run(args)
        sys.setrecursionlimit(recursion_limit)
        messages = tuple(
            Message(Path(m["path"]).resolve(), int(m["line"]), m["severity"], m["text"])
            for m in map(_MESSAGE.match, stdout.splitlines())
            if m
        )
        return MypyRun(stdout, stderr, status, messages)


def assert_no_crash(run: MypyRun) -> None:
    """mypy finished normally and the plugin never fell back because of its own bug."""
    output = run.stdout + run.stderr
    assert "INTERNAL ERROR" not in output and "Traceback" not in output, output
    assert run.exit_status in (0, 1), output
    assert "typedtensor's mypy plugin failed" not in output, output


#: What a call gives, statically or at run time: (dtype, shape), or the message of its shape error.
Answer = tuple[str, tuple[int, ...]] | str


def static_answer(run: MypyRun, path: Path, line: int) -> Answer:
    """mypy's answer on the ``reveal_type`` line ``line``: an exact type, or its one shape error."""
    texts = [m.text for m in run.about(path, line)]
    errors = [match["message"] for match in map(_SHAPE_ERROR.match, texts) if match]
    if errors:
        assert len(errors) == 1, texts  # one mistake, one error
        return errors[0]
    return revealed_tensor(texts)


#: How mypy reveals an exact tensor type: a dtype and literal dims, nothing unknown.
_REVEALED_TENSOR = re.compile(r'^Revealed type is "typedtensor\._tensor\.Tensor\[typedtensor\._dtypes\.(\w+)((?:, Literal\[\d+\])*)\]"$')
#: The imports of a generated agreement module: its cases start on line 4.
AGREEMENT_HEAD = "from typing import Literal as L\nimport typedtensor as tt\nfrom typedtensor import Tensor\n"


def revealed_tensor(texts: Sequence[str]) -> tuple[str, tuple[int, ...]]:
    """The one exact tensor type mypy revealed among ``texts``: its dtype's name and its dims."""
    revealed = [match for match in map(_REVEALED_TENSOR.match, texts) if match]
    assert len(revealed) == 1, texts  # an exact type, no Any left, and no error
    dtype, dims = revealed[0].groups()
    return dtype, tuple(int(size) for size in re.findall(r"\d+", dims))


def runtime_answer(call: Callable[[], Any]) -> Answer:
    """What ``call()`` gives, worded as ``static_answer`` words mypy's."""
    try:
        result = call()
    except TypedTensorError as error:
        return str(error)
    return result.dtype.__name__, result.shape


def check_and_run(mypy_runner: Mypy, path: Path, source: str) -> tuple[MypyRun, dict[str, object]]:
    """mypy's verdict on ``source`` written at ``path``, and the module's names after running it.

    ``path`` must be new each time, so that mypy's cache never mistakes one module for another;
    ``reveal_type`` runs as the identity.
    """
    path.write_text(source)
    run = mypy_runner.run([path])
    assert_no_crash(run)
    namespace: dict[str, object] = {"reveal_type": lambda value: value}
    exec(compile(source, str(path), "exec"), namespace)
    return run, namespace


def pyright_revealed(path: Path) -> dict[int, str]:
    """pyright's revealed types on ``path``, by line; it must report nothing else."""
    pyright = shutil.which("pyright")
    assert pyright is not None, "pyright is a dev dependency: pip install -e '.[dev]'"
    result = subprocess.run([pyright, "--outputjson", str(path)], cwd=PROJECT, capture_output=True, text=True, timeout=300)
    report = json.loads(result.stdout)
    revealed = {}
    for diagnostic in report["generalDiagnostics"]:
        assert diagnostic["severity"] == "information", diagnostic  # no error on code that runs
        revealed[diagnostic["range"]["start"]["line"] + 1] = re.sub(r'^Type of ".*" is "(.*)"$', r"\1", diagnostic["message"])
    return revealed


def mypy_revealed(path: Path, tmp: Path) -> dict[int, str]:
    """Plain mypy's (no plugin, strict) revealed types on ``path``, by line; it must report no error."""
    config = tmp / "no-plugin.ini"
    config.write_text("[mypy]\nstrict = True\n")
    run = Mypy(tmp / "cache", config).run([path])
    assert_no_crash(run)
    assert [m for m in run.messages if m.severity == "error"] == []  # no error on code that runs
    return {m.line: m.text.removeprefix('Revealed type is "').removesuffix('"') for m in run.about(path) if m.severity == "note"}
