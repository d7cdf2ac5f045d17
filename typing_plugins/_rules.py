"""The shared shape rules (``typedtensor/_shape_rules/``), loaded without the typedtensor package.

Importing ``typedtensor`` imports numpy and jaxtyping, about 0.1 s: most of what the plugin
would cost mypy on a re-check, for a package that is pure Python. So the plugin runs that one
package by itself (importlib's recipe for importing a source file), under a private name so
that a later ``import typedtensor`` in the same process loads it again as usual. Same files,
same rules: the static and runtime answers still come from one definition.

mypy keys its cache on the plugin's entry module only, so ``SOURCES_DIGEST`` (of the rules' and
the plugin's own modules) goes into the key too: an edit of either re-checks modules inferred
by the old ones.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Final

__all__ = ["SOURCES_DIGEST", "shape_rules"]

_PRIVATE_NAME: Final = "typing_plugins._typedtensor_shape_rules"


def rules_directory() -> Path:
    """Where the installed typedtensor keeps its shape rules."""
    package = importlib.util.find_spec("typedtensor")  # finds the package without running it
    if package is None or not package.submodule_search_locations:
        raise ImportError("typing_plugins.mypy_plugin needs typedtensor installed", name="typedtensor")
    return Path(next(iter(package.submodule_search_locations))) / "_shape_rules"


def sources_digest(*directories: Path) -> str:
    """A digest of the source of every module in ``directories``."""
    digest = hashlib.sha256()
    for directory in directories:
        for path in sorted(directory.glob("*.py")):
            digest.update(directory.name.encode() + b"/" + path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def _load(directory: Path) -> ModuleType:
    init = directory / "__init__.py"
    spec = importlib.util.spec_from_file_location(_PRIVATE_NAME, init, submodule_search_locations=[str(directory)])
    assert spec is not None and spec.loader is not None  # a .py path always has a loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[_PRIVATE_NAME] = module  # its relative imports and dataclasses look it up there
    spec.loader.exec_module(module)
    return module


_DIRECTORY: Final = rules_directory()
#: The plugin's modules: ``typing_plugins/``.
PLUGIN_DIRECTORY: Final = Path(__file__).parent
SOURCES_DIGEST: Final = sources_digest(_DIRECTORY, PLUGIN_DIRECTORY)

if TYPE_CHECKING:
    import typedtensor._shape_rules as shape_rules
else:
    shape_rules = _load(_DIRECTORY)
