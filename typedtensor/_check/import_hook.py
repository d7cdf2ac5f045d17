"""``install_import_hook``: ``@shapechecked`` on every tensor-annotated function of a package.

A finder first on ``sys.meta_path`` takes the named packages' modules, lets the other finders
find them, and wraps their loader: once a module has run, its functions and the methods of its
classes (those defined in it, not imported) are decorated in place. A function without tensor
annotations is left alone, so it costs nothing; one already checked is not checked twice. A
module whose functions annotate local variables is compiled from its source with those
assignments checked (``local_variables``); its other lines compile as they did.
"""

from __future__ import annotations

import ast
import importlib.abc
import importlib.machinery
import sys
import types
import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from typedtensor._check.decorator import CHECKS_ON, is_shapechecked, shapechecked_if_annotated
from typedtensor._check.local_variables import CHECK_LOCAL, check_local, with_local_checks
from typedtensor._errors import AnnotationError


class ImportHook:
    """An installed hook: ``uninstall()`` it, or use it as a context manager."""

    def __init__(self, finder: _CheckingFinder) -> None:
        self._finder = finder

    def uninstall(self) -> None:
        """Stop checking modules imported from now on; those imported stay checked."""
        if self._finder in sys.meta_path:
            sys.meta_path.remove(self._finder)

    def __enter__(self) -> ImportHook:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.uninstall()


def install_import_hook(packages: str | Iterable[str]) -> ImportHook:
    """Check every tensor-annotated function of ``packages`` (and their submodules) imported from now on.

    A module imported before the hook is installed stays unchecked. With ``TYPEDTENSOR_CHECKS=0``
    nothing is installed.
    """
    names = (packages,) if isinstance(packages, str) else tuple(packages)
    for name in names:
        if not isinstance(name, str) or not name or name.startswith("."):
            raise ValueError(f"install_import_hook takes absolute package names, got {name!r}")
    finder = _CheckingFinder(names)
    if CHECKS_ON:
        sys.meta_path.insert(0, finder)
    return ImportHook(finder)


class _CheckingFinder(importlib.abc.MetaPathFinder):
    """Finds the named packages' modules through the other finders, with a checking loader."""

    def __init__(self, packages: tuple[str, ...]) -> None:
        self.packages = packages

    def find_spec(self, fullname: str, path: Sequence[str] | None, target: types.ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if not any(fullname == package or fullname.startswith(package + ".") for package in self.packages):
            return None
        for finder in sys.meta_path:
            if isinstance(finder, _CheckingFinder):  # another hook's: asking it would come back here
                continue
            find_spec = getattr(finder, "find_spec", None)
            spec: importlib.machinery.ModuleSpec | None = find_spec(fullname, path, target) if find_spec is not None else None
            if spec is not None:
                if isinstance(spec.loader, importlib.abc.Loader) and hasattr(spec.loader, "exec_module"):
                    spec.loader = _CheckingLoader(spec.loader)
                return spec  # a namespace package has no loader and no code to check
        return None


class _CheckingLoader(importlib.abc.Loader):
    """Another loader, which decorates the module once it has run; everything else is the other's."""

    def __init__(self, loader: importlib.abc.Loader) -> None:
        self._loader = loader

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        code = self._code_checking_locals(module)
        if code is None:
            self._loader.exec_module(module)
        else:
            vars(module)[CHECK_LOCAL] = check_local
            exec(code, vars(module))
        _check_namespace(module.__name__, vars(module), "", {})

    def _code_checking_locals(self, module: types.ModuleType) -> types.CodeType | None:
        """The module's code with its annotated local variables checked, ``None`` if it has none
        (or no source): then the other loader runs it, from its cached bytecode."""
        get_source = getattr(self._loader, "get_source", None)
        source = get_source(module.__name__) if get_source is not None else None
        if source is None:
            return None
        filename = getattr(module, "__file__", None) or f"<{module.__name__}>"
        tree = ast.parse(source, filename)
        return compile(tree, filename, "exec", dont_inherit=True) if with_local_checks(tree, filename) else None

    def __getattr__(self, name: str) -> Any:  # get_source, is_package, get_resource_reader, ...
        return getattr(self._loader, name)


def _check_namespace(module: str, namespace: dict[str, Any], qualname: str, localns: Mapping[str, Any]) -> None:
    """Decorate in place the functions, static and class methods of a module's or class's
    ``namespace`` defined there (``qualname`` is the class's, with a dot), and look into its classes."""
    for name, value in list(namespace.items()):
        if isinstance(value, type):
            if value.__module__ == module and value.__qualname__ == qualname + name:  # not an alias or an import
                _check_namespace(module, _ClassNamespace(value), f"{value.__qualname__}.", vars(value))
            continue
        method_kind = type(value) if isinstance(value, (staticmethod, classmethod)) else None
        function = value.__func__ if method_kind is not None else value
        if not isinstance(function, types.FunctionType) or function.__module__ != module or is_shapechecked(function):
            continue
        checked = _checked(function, localns)
        if checked is not None:
            namespace[name] = method_kind(checked) if method_kind is not None else checked


def _checked(function: types.FunctionType, localns: Mapping[str, Any]) -> Any:
    """``function`` checked, ``None`` if it has nothing to check or its annotations cannot be
    checked: the import goes on, with a warning naming the function."""
    try:
        return shapechecked_if_annotated(function, localns)
    except (AnnotationError, TypeError) as error:  # TypeError: an async or generator function
        warnings.warn(f"typedtensor's import hook left {function.__module__}.{function.__qualname__} unchecked: {error}", stacklevel=2)
        return None


class _ClassNamespace(dict[str, Any]):
    """A class's attributes as a dict whose writes set the class's attributes (``vars(cls)`` is read-only)."""

    def __init__(self, cls: type) -> None:
        super().__init__(vars(cls))
        self._cls = cls

    def __setitem__(self, name: str, value: Any) -> None:
        super().__setitem__(name, value)
        setattr(self._cls, name, value)
