"""Incremental mode: the plugin answers the same on types mypy reads back from its cache."""

from __future__ import annotations

import shutil
from pathlib import Path

from mypy.options import Options
from mypy.plugin import ReportConfigContext

from tests.support.mypy_helpers import PROJECT, Mypy, assert_no_crash
from typing_plugins._rules import PLUGIN_DIRECTORY, sources_digest
from typing_plugins.mypy_plugin import PLUGIN_VERSION, TypedTensorPlugin

SOURCE = """\
from typing import Literal as L
import typedtensor as tt
x: tt.Tensor[tt.float32, L[2], L[{size}]] = tt.zeros((2, {size}), tt.float32)
"""

USER = """\
from typing import Literal as L, assert_type
from typedtensor import Tensor, float32
from incremental_source import x
assert_type(x.sum(axis=0), Tensor[float32, L[{size}]])
assert_type(x.mean(axis=-1, keepdims=True), Tensor[float32, L[2], L[1]])
x.sum(axis=2)  # type: ignore[tensor-axis]
"""


def _check(mypy_runner: Mypy, source: Path, user: Path) -> str:
    run = mypy_runner.run([source, user], extra_args=["--verbose"])
    assert_no_crash(run)
    assert [str(m) for m in run.messages] == []
    return run.stderr  # the verbose log says which modules came from the cache


def test_a_rechecked_module_sees_cached_tensors_exactly(mypy_runner: Mypy, tmp_path: Path) -> None:
    source, user = tmp_path / "incremental_source.py", tmp_path / "incremental_user.py"
    source.write_text(SOURCE.format(size=3))
    user.write_text(USER.format(size=3))
    _check(mypy_runner, source, user)

    user.write_text(USER.format(size=3) + "assert_type(x.max(), Tensor[float32])\n")
    log = _check(mypy_runner, source, user)
    assert "Metadata fresh for incremental_source" in log

    source.write_text(SOURCE.format(size=4) + "# the shape changed\n")
    user.write_text(USER.format(size=4))
    _check(mypy_runner, source, user)


def test_the_cache_key_follows_the_shape_rules_and_the_plugin(tmp_path: Path) -> None:
    """mypy hashes only the plugin's entry module, but the shared rules and the plugin's other
    modules change apart from it."""
    rules = PROJECT / "typedtensor" / "_shape_rules"
    key = TypedTensorPlugin(Options()).report_config_data(ReportConfigContext("m", "m.py", is_check=False))
    assert key == f"{PLUGIN_VERSION}:{sources_digest(rules, PLUGIN_DIRECTORY)}"
    copies = [shutil.copytree(directory, tmp_path / directory.name, ignore=shutil.ignore_patterns("__pycache__")) for directory in (rules, PLUGIN_DIRECTORY)]
    assert sources_digest(*copies) == sources_digest(rules, PLUGIN_DIRECTORY)
    for module in sorted(path for copy in copies for path in copy.glob("*.py")):  # an edit of any one module changes the key
        before = sources_digest(*copies)
        module.write_text(module.read_text() + "# edited\n")
        assert sources_digest(*copies) != before, module.name
