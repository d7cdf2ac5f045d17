"""The shared shape rules (``typedtensor/_shape_rules.py``), loaded without the typedtensor package.

Importing ``typedtensor`` imports numpy and jaxtyping, about 0.1 s: most of what the plugin
would cost mypy on a re-check, for a module that is pure Python. So the plugin runs that one
file by itself (importlib's recipe for importing a source file), under a private module name so
that a later ``import typedtensor`` in the same process loads the package as usual. Same file,
same rules: the static and runtime answers still come from one definition.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Final

__all__ = ["shape_rules"]

_PRIVATE_NAME: Final = "typing_plugins._typedtensor_shape_rules"


def _load() -> ModuleType:
    package = importlib.util.find_spec("typedtensor")  # finds the package without running it
    if package is None or not package.submodule_search_locations:
        raise ImportError("typing_plugins.mypy_plugin needs typedtensor installed", name="typedtensor")
    path = Path(next(iter(package.submodule_search_locations))) / "_shape_rules.py"
    spec = importlib.util.spec_from_file_location(_PRIVATE_NAME, path)
    assert spec is not None and spec.loader is not None  # a .py path always has a loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[_PRIVATE_NAME] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


if TYPE_CHECKING:
    import typedtensor._shape_rules as shape_rules
else:
    shape_rules = _load()
