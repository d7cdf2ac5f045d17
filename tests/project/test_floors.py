"""The floor pass of .ci/run installs the lowest versions pyproject.toml allows, no others."""

from __future__ import annotations

import re
import tomllib

from packaging.version import Version

from tests.support import PROJECT

_FLOOR = re.compile(r"(?P<name>[A-Za-z0-9_.-]+)>=(?P<version>[0-9.]+)")


def test_the_floor_pass_pins_every_declared_floor() -> None:
    """The package's dependencies and the language server's (mypy is the plugin's), at their floors."""
    project = tomllib.loads((PROJECT / "pyproject.toml").read_text())["project"]
    declared = [*project["dependencies"], *project["optional-dependencies"]["lsp"]]
    floors = {match["name"]: Version(match["version"]) for match in map(_FLOOR.fullmatch, declared) if match}
    assert len(floors) == len(declared)  # each a plain floor
    lines = (PROJECT / ".ci" / "floors.txt").read_text().splitlines()
    pinned = dict(line.split("==") for line in lines if line and not line.startswith("#"))
    assert {name: Version(version) for name, version in pinned.items()} == floors
    dev = [match for match in map(_FLOOR.fullmatch, project["optional-dependencies"]["dev"]) if match]
    assert [Version(match["version"]) for match in dev if match["name"] == "mypy"] == [floors["mypy"]]
