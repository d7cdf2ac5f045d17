"""The generated signatures (tools/generate_signatures.py) are current, and never declare a wrong dtype."""

from __future__ import annotations

import importlib.util
import inspect
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import typedtensor as tt
from tests.support import PROJECT
from typedtensor._shape_rules import (
    BINARY_RULES,
    CATEGORIES,
    CONCRETE,
    REDUCTION_OPS,
    SCALAR_KINDS,
    UNARY_RULES,
    binary_dtype,
    result_dtype,
    unary_dtype,
    where_dtype,
)
from typedtensor._shape_rules.dtypes import narrowest

GENERATOR = PROJECT / "tools" / "generate_signatures.py"
TENSOR_OPERANDS = [*CONCRETE, *CATEGORIES]


def test_the_generated_code_is_current() -> None:
    check = subprocess.run([sys.executable, str(GENERATOR), "--check"], capture_output=True, text=True, cwd=PROJECT)
    assert check.returncode == 0, check.stdout + check.stderr


def test_generated_code_is_whole_modules_and_one_block_ending_the_class_of_tensor(generator: ModuleType) -> None:
    """Every module in ``_generated/`` is the generator's; the only code spliced into a hand-written
    file is ``Tensor``'s one block of methods, the last of its class body."""
    package = PROJECT / "typedtensor"
    written = set(generator.outputs())
    assert {path for path in (package / "_generated").glob("*.py") if path.name != "__init__.py"} <= written
    spliced = [path.relative_to(package) for path in package.rglob("*.py") if "# BEGIN GENERATED" in path.read_text()]
    assert spliced == [Path("_tensor.py")] and written - set((package / "_generated").glob("*.py")) == {package / "_tensor.py"}
    text = (package / "_tensor.py").read_text()
    assert text.count("# BEGIN GENERATED") == 1
    after = text.split("    # END GENERATED methods\n", 1)[1]
    assert not next(line for line in after.splitlines() if line.strip()).startswith(" "), "the block ends the class body"


def test_each_docstring_of_the_table_is_its_generated_def_s(generator: ModuleType) -> None:
    """``tools/docstrings.py`` holds the docstring of each generated function and method, and only those."""
    for name, docstring in generator.DOCSTRINGS.items():
        owner, _, attribute = name.rpartition(".")
        documented = getattr(tt.Tensor if owner == "Tensor" else tt, attribute)
        assert inspect.getdoc(documented) == inspect.cleandoc(docstring), name


@pytest.fixture(scope="module")
def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("generate_signatures", GENERATOR)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def members(name: str) -> set[str]:
    return set(CATEGORIES.get(name, (name,)))


class Overloads:
    """Which overload a checker picks for operands (dtype or category names, scalar kinds), and what it says."""

    def __init__(self, generator: ModuleType, signatures: Sequence[Any]) -> None:
        self.signatures = signatures
        self.categories = {var: category for category, var in generator.VARS.items()}

    def dtype(self, annotation: str) -> str:
        """``Tensor[float32 | int8, *Shape]`` -> ``float32 | int8``; a scalar kind stays itself."""
        return annotation.removeprefix("Tensor[").rsplit(", ", 1)[0] if annotation.startswith("Tensor[") else annotation

    def accepts(self, annotation: str, operand: str) -> bool:
        dtype = self.dtype(annotation)
        if operand in SCALAR_KINDS or dtype in SCALAR_KINDS:
            # A parameter of a scalar kind takes the narrower kinds too (a bool is an int).
            return dtype in SCALAR_KINDS and operand in SCALAR_KINDS and SCALAR_KINDS.index(operand) <= SCALAR_KINDS.index(dtype)
        return dtype == "Any" or any(members(operand) <= members(self.categories.get(atom, atom)) for atom in dtype.split(" | "))

    def declared(self, operands: Sequence[str]) -> set[str] | None:
        """The dtypes the first matching overload's result may be (None: Any), or no match at all."""
        for signature in self.signatures:
            annotations = [p.annotation for p in signature.parameters if p.name != "condition"]
            if all(self.accepts(a, o) for a, o in zip(annotations, operands)):
                result = self.dtype(signature.returns)
                if result in self.categories:  # a TypeVar: the join of its arguments' dtypes
                    solved = [o for a, o in zip(annotations, operands) if self.dtype(a) == result]
                    return members(narrowest(set().union(*map(members, solved))))
                return None if result == "Any" else members(result)
        raise AssertionError(f"no overload for {operands}")


def assert_holds(overloads: Overloads, operands: Sequence[str], answer: object) -> None:
    if not isinstance(answer, str):
        return  # refused at run time: whatever the declaration says
    declared = overloads.declared(operands)
    assert declared is None or members(answer) <= declared, (operands, answer, declared)


@pytest.mark.parametrize("op", UNARY_RULES)
def test_unary_declarations_hold_for_every_dtype(generator: ModuleType, op: str) -> None:
    overloads = Overloads(generator, generator.unary_signatures(op, "x"))
    for dtype in TENSOR_OPERANDS:
        assert_holds(overloads, [dtype], unary_dtype(op, dtype))


@pytest.mark.parametrize("op", BINARY_RULES)
def test_binary_function_declarations_hold_for_every_pair_and_scalar(generator: ModuleType, op: str) -> None:
    overloads = Overloads(generator, generator.function_signatures(op))
    for left in [*TENSOR_OPERANDS, *SCALAR_KINDS]:
        for right in [*TENSOR_OPERANDS, *SCALAR_KINDS]:
            if left in SCALAR_KINDS and right in SCALAR_KINDS:
                continue
            assert_holds(overloads, [left, right], binary_dtype(op, left, right))


def test_where_declarations_hold(generator: ModuleType) -> None:
    overloads = Overloads(generator, generator.function_signatures("where"))
    for x in [*TENSOR_OPERANDS, *SCALAR_KINDS]:
        for y in [*TENSOR_OPERANDS, *SCALAR_KINDS]:
            assert_holds(overloads, [x, y], where_dtype(x, y))


@pytest.mark.parametrize("op", BINARY_RULES)
def test_operator_declarations_hold_on_either_side(generator: ModuleType, op: str) -> None:
    """``x - y`` and ``x - 2`` (``__sub__``), and ``2 - x`` (``__rsub__``, self's annotation first)."""
    right = Overloads(generator, generator.binary_signatures(op, ("self", "other"), "right"))
    left = Overloads(generator, generator.binary_signatures(op, ("other", "self"), "left"))
    for dtype in TENSOR_OPERANDS:
        for other in [*TENSOR_OPERANDS, *SCALAR_KINDS]:
            assert_holds(right, [dtype, other], binary_dtype(op, dtype, other))
        for kind in SCALAR_KINDS:
            assert_holds(left, [dtype, kind], binary_dtype(op, kind, dtype))


@pytest.mark.parametrize("op", REDUCTION_OPS)
def test_reduction_declarations_hold_for_every_dtype(generator: ModuleType, op: str) -> None:
    """The first unknown-dims overload a tensor of each dtype (or category) matches declares its
    result dtype; the first case, the one of exact shapes, too."""
    cases = generator.reduction_cases(op)
    for operand in TENSOR_OPERANDS:
        case = next(c for c in cases if c.covers(operand))
        declared = members(operand if case.kept else case.result)
        results = {result_dtype(op, dtype) for dtype in members(operand)}
        assert all(members(result) <= declared for result in results), (op, operand, case)


def test_reduction_overloads_give_numpy_shapes(generator: ModuleType) -> None:
    """Each fixed-rank shape overload, its dims given distinct sizes, says the shape numpy's sum has
    for every axis its annotation admits (a Selection as the axes of its ``^``)."""
    forms = [form for form in generator.reduction_forms() if form.axes]
    sizes = dict(zip(generator.DIM_VARS, (2, 3, 5, 7, 11, 13)))
    for form in forms:
        array = np.zeros([sizes[dim] for dim in form.dims])
        declared = tuple(1 if dim == generator.ONE else sizes[dim] for dim in form.result)
        for axis in form.axes:
            numpy_axis = tuple(i for i, char in enumerate(axis) if char == "^") if isinstance(axis, str) else axis
            assert np.sum(array, axis=numpy_axis, keepdims=form.kept).shape == declared, (form, axis)
    assert len(forms) == 2 * (21 + 10) + 6  # one axis on ranks 1-6 and pairs on ranks 2-4, each kept or not; None kept


@pytest.mark.parametrize("op", ["expand_dims", "squeeze"])
def test_shaping_overloads_give_numpy_shapes(generator: ModuleType, op: str) -> None:
    """Each overload of one literal axis, on every rank 1-6 it takes (its run filled with dims of
    their own, each dim a distinct size but 1 where squeeze removes it), says numpy's shape; and
    every axis valid on those ranks, either sign, has its overload."""
    numpy_op = {"expand_dims": np.expand_dims, "squeeze": np.squeeze}[op]
    checked = set()
    for form in generator.shaping_forms(op):
        fixed = len(form.receiver.prefix) + len(form.receiver.suffix)
        for rank in range(fixed, max(generator.SINGLE_AXIS_RANKS) + 1):
            run = [f"run{index}" for index in range(rank - fixed)]
            dims = [*form.receiver.prefix, *run, *form.receiver.suffix]
            sizes = {generator.ONE: 1} | {dim: 2 + index for index, dim in enumerate(dims)}
            if op == "squeeze":
                sizes[dims[form.axis]] = 1
            result = [*form.result.prefix, *run, *form.result.suffix]
            assert numpy_op(np.zeros([sizes[dim] for dim in dims]), axis=form.axis).shape == tuple(sizes[dim] for dim in result), (form, rank)
            checked.add((rank, form.axis))
    extra = 1 if op == "expand_dims" else 0  # expand_dims takes the result's axes
    assert checked >= {(rank, axis) for rank in generator.SINGLE_AXIS_RANKS for axis in range(-rank - extra, rank + extra)}
