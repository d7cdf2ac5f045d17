"""``install_import_hook``: every tensor-annotated function of a package checked, nothing else."""

import itertools
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import typedtensor as tt
from typedtensor import ShapeError

MODULE = """
from dataclasses import dataclass
from typing import Literal as L
import typedtensor as tt

Pair = tt.Tensor[tt.float32, L[2]]


def head(x: Pair) -> Pair:
    return x


def plain(x: int) -> int:
    return x


@tt.shapechecked
def already(x: Pair) -> Pair:
    return x


def unchecked_kind(x: dict[str, Pair]) -> None:
    pass


class Model:
    def forward(self, x: Pair) -> Pair:
        return x

    @staticmethod
    def static(x: Pair) -> Pair:
        return x

    @classmethod
    def build(cls, x: Pair) -> Pair:
        return x

    class Inner:
        def inner(self, x: Pair) -> Pair:
            return x


@dataclass
class Record:
    x: Pair
"""

_serial = itertools.count()


@pytest.fixture(params=["", "from __future__ import annotations\n"], ids=["annotations", "string annotations"])
def packages(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[list[str]]:
    """Two fresh packages, each with the module above at its top and in a nested submodule; their
    names are new to this process, so importing them runs them."""
    names = [f"hooked_{next(_serial)}_{label}" for label in ("mine", "other")]
    for name in names:
        for directory in (tmp_path / name, tmp_path / name / "sub"):
            directory.mkdir()
            (directory / "__init__.py").write_text(request.param + MODULE)
            (directory / "deep.py").write_text(request.param + MODULE)
    sys.path.insert(0, str(tmp_path))
    yield names
    sys.path.remove(str(tmp_path))
    for module in [module for module in sys.modules if module.split(".")[0] in names]:
        del sys.modules[module]


def import_all(package: str) -> list[ModuleType]:
    __import__(f"{package}.sub.deep")
    return [sys.modules[name] for name in (package, f"{package}.sub", f"{package}.sub.deep")]


def calls(module: ModuleType) -> dict[str, object]:
    model = module.Model
    return {
        "function": module.head,
        "method": model().forward,
        "staticmethod": model.static,
        "classmethod": model.build,
        "nested class": model.Inner().inner,
    }


def test_every_annotated_function_of_the_package_is_checked(packages: list[str]) -> None:
    mine, other = packages
    with pytest.warns(UserWarning, match=r"left hooked_\d+_mine(\.sub)?(\.deep)?\.unchecked_kind unchecked: .*dict"):
        with tt.install_import_hook(mine):
            modules = import_all(mine)
    right, wrong = tt.zeros((2,), tt.float32), tt.zeros((3,), tt.float32)
    for module in modules:
        for kind, call in calls(module).items():
            assert call(right) is right, kind  # type: ignore[operator]
            with pytest.raises(ShapeError, match=r"Literal\[2\]|2"):
                call(wrong)  # type: ignore[operator]
        with pytest.raises(ShapeError):
            module.Record(wrong)  # a dataclass's generated __init__ is the module's too
        assert module.plain(3) == 3 and not hasattr(module.plain, "__wrapped__")
        assert not hasattr(module.already.__wrapped__, "__wrapped__"), "checked twice"
        assert not hasattr(module.unchecked_kind, "__wrapped__")


def test_other_packages_and_later_imports_are_left_alone(packages: list[str]) -> None:
    mine, other = packages
    with tt.install_import_hook([mine]) as hook:
        pass
    hook.uninstall()  # twice is harmless
    for package in (mine, other):
        wrong = tt.zeros((3,), tt.float32)
        for module in import_all(package):
            for call in calls(module).values():
                assert call(wrong) is wrong  # type: ignore[operator]


def test_a_list_of_packages_is_hooked_and_others_not(packages: list[str]) -> None:
    mine, other = packages
    with tt.install_import_hook([mine, "some_package_not_installed"]):
        with pytest.warns(UserWarning):
            checked = import_all(mine)
        unchecked = import_all(other)
    wrong = tt.zeros((3,), tt.float32)
    assert all(module.head(wrong) is wrong for module in unchecked)
    for module in checked:
        with pytest.raises(ShapeError):
            module.head(wrong)


@pytest.mark.parametrize("name", ["", ".relative", 3])
def test_a_name_that_is_not_an_absolute_package_is_refused(name: object) -> None:
    with pytest.raises(ValueError, match="absolute package names"):
        tt.install_import_hook([name])  # type: ignore[list-item]


def test_the_module_source_and_loader_still_answer(packages: list[str]) -> None:
    """The wrapped loader lends the original's other methods (tracebacks read sources through them)."""
    mine, _ = packages
    with pytest.warns(UserWarning), tt.install_import_hook(mine):
        module = import_all(mine)[2]
    assert module.__loader__.get_source(module.__name__).endswith(MODULE)  # type: ignore[union-attr]
