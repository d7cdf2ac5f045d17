"""Each fullname the plugin hooks on is defined where it says, so a move that unhooks an op fails here.

mypy names a function or a class after the module that defines it: a name still importable from
its old module (a re-export) would not be called by that name, so each must be defined there.
``Tensor``'s methods are hooked by name and must be ``Tensor``'s.
"""

from __future__ import annotations

import importlib

import pytest

import typedtensor
from typing_plugins import _names
from typing_plugins._rules import shape_rules
from typing_plugins._signatures import LOOSENED
from typing_plugins.mypy_plugin import ATTRIBUTE_HOOKS, FUNCTION_HOOKS, METHOD_HOOKS

#: The names of ``_names`` that name a module rather than something a module defines.
MODULES = {"PACKAGE", "DTYPES_MODULE"}
#: Every fullname of ``_names`` that names a function or class, by where it comes from.
DEFINED = {
    f"{constant}[{key}]" if key else constant: fullname
    for constant, value in vars(_names).items()
    if constant.isupper() and constant not in MODULES
    for key, fullname in (value.items() if isinstance(value, dict) else [("", value)])
}


def _defined(fullname: str) -> object:
    """What ``fullname`` names, taken from its module, which must be the module defining it."""
    module, _, name = fullname.rpartition(".")
    value = getattr(importlib.import_module(module), name)
    assert (value.__module__, value.__qualname__) == (module, name)
    return value


@pytest.mark.parametrize("constant", sorted(DEFINED))
def test_each_name_is_defined_where_it_says(constant: str) -> None:
    assert callable(_defined(DEFINED[constant]))


@pytest.mark.parametrize("constant", sorted(MODULES))
def test_each_module_name_imports(constant: str) -> None:
    assert importlib.import_module(getattr(_names, constant)).__name__ == getattr(_names, constant)


def test_every_hooked_function_is_named_in_names() -> None:
    """The hook tables spell no fullname of their own: each is one of ``_names``, tested above."""
    functions = set(FUNCTION_HOOKS) | {name for name in LOOSENED if "." in name}
    assert sorted(functions - set(DEFINED.values())) == []


def test_every_hooked_method_is_tensors() -> None:
    tensor = _defined(_names.TENSOR)
    methods = set(METHOD_HOOKS) | {name for name in LOOSENED if "." not in name}
    attributes = {fullname.removeprefix(f"{_names.TENSOR}.") for fullname in ATTRIBUTE_HOOKS}
    assert sorted(name for name in methods | attributes if not hasattr(tensor, name)) == []


def test_types_built_by_public_name_are_exported() -> None:
    """The plugin builds ``Tensor`` and the dtypes the rules name (``typedtensor.float32``) by their public names."""
    package = importlib.import_module(_names.PACKAGE)
    assert package is typedtensor and package.Tensor is _defined(_names.TENSOR)
    for name in [*shape_rules.CONCRETE, *shape_rules.CATEGORIES]:
        assert getattr(package, name).__module__ == _names.DTYPES_MODULE, name
