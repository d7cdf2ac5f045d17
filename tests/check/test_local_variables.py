"""Annotated local variables in the modules the import hook loads: checked with the call's bindings."""

import ast
import itertools
import sys
import textwrap
import warnings
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import given, settings, strategies as st

import typedtensor as tt
from typedtensor import ShapeError
from typedtensor._check.local_variables import CHECK_LOCAL, with_local_checks

MODULE = """
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal as L, TypeVar
import typedtensor as tt
from typedtensor import Dim, Tensor

if TYPE_CHECKING:
    from somewhere_else import Missing

N = TypeVar("N")


class Batch(Dim): ...


def rows(x: Tensor[tt.float32, Batch, N]) -> Tensor[tt.float32, Batch]:
    total: Tensor[tt.float32, Batch] = x.sum(axis=1)
    return total


def claims(x: Tensor[tt.float32, Batch, N], width: int) -> None:
    wide: Tensor[tt.float32, Batch, L[3]] = x  # holds only when N is 3
    same: "Tensor[tt.float32, Batch, N]" = tt.zeros((width, 3), tt.float32)  # holds only for Batch's size


def unchecked_function(x: object) -> int:
    count: int = 2
    counts: list[int] = [count]
    lone: Tensor[tt.float32, L[2]] = x  # type: ignore[assignment]
    return count


def untouched(x: object) -> object:
    unknown: Missing = x
    return x


def nested() -> int:
    def inner(x: object) -> None:
        pair: Tensor[tt.float32, L[2]] = x  # type: ignore[assignment]

    inner(tt.zeros((2,), tt.float32))
    return 1


@dataclass
class Record:
    size: int = 3


module_level: Tensor[tt.float32, L[2]] = tt.zeros((5,), tt.float32)  # a global, not a local: left alone
"""

_serial = itertools.count()


@pytest.fixture(params=["", "from __future__ import annotations\n"], ids=["annotations", "string annotations"])
def module(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[ModuleType]:
    """The module above, imported through the hook under a name new to this process."""
    name = f"locals_{next(_serial)}"
    (tmp_path / f"{name}.py").write_text(request.param + MODULE)
    sys.path.insert(0, str(tmp_path))
    try:
        with tt.install_import_hook(name):
            __import__(name)
        yield sys.modules[name]
    finally:
        sys.path.remove(str(tmp_path))
        del sys.modules[name]


def test_an_annotated_local_is_checked_where_it_is_assigned(module: ModuleType) -> None:
    x = tt.zeros((4, 3), tt.float32)
    assert module.rows(x).shape == (4,)
    with pytest.raises(ShapeError, match=r'local variable "wide" of claims\(\) \(.*locals_\d+\.py:\d+\)') as caught:
        module.claims(tt.zeros((4, 5), tt.float32), 4)
    assert "Batch=4" in str(caught.value) and "N=5" in str(caught.value)


def test_a_local_shares_the_bindings_of_its_call(module: ModuleType) -> None:
    module.claims(tt.zeros((4, 3), tt.float32), 4)
    with pytest.raises(ShapeError, match=r'local variable "same" of claims\(\)'):
        module.claims(tt.zeros((4, 3), tt.float32), 5)  # Batch is 4 in this call


def test_a_local_outside_a_checked_call_is_checked_alone(module: ModuleType) -> None:
    assert module.unchecked_function(tt.zeros((2,), tt.float32)) == 2
    with pytest.raises(ShapeError, match=r'local variable "lone" \('):
        module.unchecked_function(tt.zeros((3,), tt.float32))
    assert module.nested() == 1


def test_annotations_without_tensors_or_that_cannot_run_are_left_alone(module: ModuleType) -> None:
    with pytest.warns(UserWarning, match=r'left local variable "unknown" \(.*\) unchecked: its annotation raised NameError'):
        assert module.untouched(7) == 7
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert module.untouched(8) == 8  # warned once per site
    assert module.Record().size == 3 and module.module_level.shape == (5,)


def test_only_annotated_assignments_inside_functions_are_rewritten() -> None:
    source = textwrap.dedent(
        """
        def f(x):
            y = x + 1
            z: int
            return y

        class C:
            field: int = 3

        top: int = 4
        """
    )
    tree = ast.parse(source)
    assert not with_local_checks(tree, "f.py")
    assert ast.dump(tree) == ast.dump(ast.parse(source))  # nothing changed: the module keeps its cached bytecode


def test_lines_without_annotations_keep_their_bytecode(module: ModuleType) -> None:
    tree = ast.parse(MODULE)
    with_local_checks(tree, "m.py")
    plain, rewritten = compile(MODULE, "m.py", "exec"), compile(tree, "m.py", "exec")
    functions = {code.co_name: code for code in plain.co_consts if hasattr(code, "co_code")}
    changed = {code.co_name: code for code in rewritten.co_consts if hasattr(code, "co_code")}
    assert functions["nested"].co_code == changed["nested"].co_code  # its own body has no annotated local
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call) and getattr(node.func, "id", "") == CHECK_LOCAL]
    names = sorted(ast.literal_eval(call.args[2])[2] for call in calls)
    assert names == ["counts", "lone", "pair", "same", "total", "unknown", "wide"]  # not ``count: int``
    assert functions["rows"].co_code != changed["rows"].co_code


@settings(max_examples=25, deadline=None)
@given(batch=st.integers(0, 4), width=st.integers(0, 5), claimed=st.integers(0, 5))
def test_the_check_agrees_with_the_sizes(batch: int, width: int, claimed: int, tmp_path_factory: pytest.TempPathFactory) -> None:
    module = _shared_module(tmp_path_factory)
    x = tt.zeros((batch, width), tt.float32)
    if width == 3 and claimed == batch:
        module.claims(x, claimed)
    else:
        with pytest.raises(ShapeError, match=r'local variable "(wide|same)"'):
            module.claims(x, claimed)


_loaded: list[ModuleType] = []


def _shared_module(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The module, imported through the hook once for the property test's examples."""
    if not _loaded:
        directory = tmp_path_factory.mktemp("locals_shared")
        (directory / "locals_shared.py").write_text(MODULE)
        sys.path.insert(0, str(directory))
        with tt.install_import_hook("locals_shared"):
            import locals_shared  # type: ignore[import-not-found]
        sys.path.remove(str(directory))
        _loaded.append(locals_shared)
    return _loaded[0]
