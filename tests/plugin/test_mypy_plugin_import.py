"""The plugin's import stays cheap: no numpy, no typedtensor package, only the pure shape rules."""

from __future__ import annotations

import subprocess
import sys

from tests.support.mypy_helpers import PROJECT

_PROBE = """
import sys
import mypy.plugin  # mypy has this loaded before it loads any plugin
from typing_plugins.mypy_plugin import PLUGIN_VERSION, plugin
from typing_plugins._rules import shape_rules
assert plugin("2.0").__name__ == "TypedTensorPlugin" and isinstance(PLUGIN_VERSION, int)
assert shape_rules.result_dtype("sum", "int32") == "int64"
heavy = sorted(name for name in ("numpy", "jaxtyping", "beartype", "typedtensor") if name in sys.modules)
assert heavy == [], heavy
import typedtensor._shape_rules  # the package still imports as usual afterwards
assert typedtensor._shape_rules.__file__ == shape_rules.__file__  # the rules run from one file
"""


def test_importing_the_plugin_imports_neither_numpy_nor_the_package() -> None:
    subprocess.run([sys.executable, "-c", _PROBE], cwd=PROJECT, check=True)
