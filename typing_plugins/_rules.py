"""The shared shape rules (``typedtensor/_shape_rules.py``), loaded without the typedtensor package.

Importing ``typedtensor`` imports numpy and jaxtyping, about 0.1 s: most of what the plugin
would cost mypy on a re-check, for a module that is pure Python. So the plugin runs that one
file by itself (importlib's recipe for importing a source file), under a private module name so
that a later ``import typedtensor`` in the same process loads the package as usual. Same file,
same rules: the static and runtime answers still come from one definition.

mypy keys its cache on the plugin's entry module only, so ``RULES_DIGEST`` (of this file's
source) goes into the key too: an edit of the rules re-checks modules inferred by the old ones.
"""

from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Final

__all__ = ["RULES_DIGEST", "shape_rules"]

_PRIVATE_NAME: Final = "typing_plugins._typedtensor_shape_rules"


def _rules_path() -> Path:
    package = importlib.util.find_spec("typedtensor")  # finds the package without running it
    if package is None or not package.submodule_search_locations:
        raise ImportError("typing_plugins.mypy_plugin needs typedtensor installed", name="typedtensor")
    return Path(next(iter(package.submodule_search_locations))) / "_shape_rules.py"


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(_PRIVATE_NAME, path)
    assert spec is not None and spec.loader is not None  # a .py path always has a loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[_PRIVATE_NAME] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


_PATH: Final = _rules_path()
RULES_DIGEST: Final = hashlib.sha256(_PATH.read_bytes()).hexdigest()[:16]

if TYPE_CHECKING:
    import typedtensor._shape_rules as shape_rules
else:
    shape_rules = _load(_PATH)
