"""Dim expressions (``Mul[B, T]``) in annotations: kept in the rules' normal form.

mypy compares types by their arguments, so ``Mul[T, B]`` and ``Mul[B, T]`` would be different
dims. The plugin analyses each expression of an annotation into the rules' normal form and back
into the one type that spells it (``Mul[T, B]`` becomes ``Mul[B, T]``, ``Add[N, N]`` becomes
``Mul[Literal[2], N]``), so that equal expressions are the same type everywhere. A named dim
enters the normal form under a name of its own (its fullname); anything the normal form cannot
hold (``Any``, a type not yet defined) keeps the expression as written.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy import errorcodes
from mypy.plugin import AnalyzeTypeContext
from mypy.typeops import try_getting_int_literals_from_type
from mypy.types import AnyType, Instance, LiteralType, Type, TypeOfAny, TypeVarType, get_proper_type

from typing_plugins._names import DIM_EXPRESSIONS
from typing_plugins._rules import shape_rules

#: The operation of each expression class, by the class's fullname.
OPERATIONS: dict[str, shape_rules.OperationName] = {DIM_EXPRESSIONS[name]: name for name in shape_rules.OPERATION_NAMES}


class NotAnExpression(Exception):
    """A type the normal form cannot hold; the expression keeps its declared spelling."""


def expression_tree(typ: Type, atoms: dict[str, Type]) -> shape_rules.Tree:
    """``typ`` as the rules' expression, each named dim recorded in ``atoms`` by its name there."""
    proper = get_proper_type(typ)
    sizes = try_getting_int_literals_from_type(proper) if isinstance(proper, LiteralType) else None
    if sizes is not None and len(sizes) == 1 and sizes[0] >= 0:
        return sizes[0]
    if isinstance(proper, Instance) and proper.type.fullname in OPERATIONS and len(proper.args) == 2:
        left, right = (expression_tree(arg, atoms) for arg in proper.args)
        return shape_rules.Operation(OPERATIONS[proper.type.fullname], left, right)
    if isinstance(proper, Instance) and not proper.args:  # a Dim class
        name = proper.type.fullname
    elif isinstance(proper, TypeVarType):
        name = f"{proper.fullname}@{proper.id}"  # two TypeVars may share a name
    else:
        raise NotAnExpression(typ)
    atoms.setdefault(name, typ)
    return name


def canonical_type(tree: shape_rules.Tree, atoms: dict[str, Type], make: Callable[[str, list[Type]], Instance]) -> Type:
    """The type that spells ``tree``: ``make(fullname, args)`` builds a class's instance."""
    if isinstance(tree, int):
        return LiteralType(tree, make("builtins.int", []))
    if isinstance(tree, str):
        return atoms[tree]
    args = [canonical_type(part, atoms, make) for part in (tree.left, tree.right)]
    return make(DIM_EXPRESSIONS[tree.name], args)


def analyze_hook(fullname: str) -> Callable[[AnalyzeTypeContext], Type]:
    """The type analyze hook of the expression class ``fullname``: the expression in its one spelling."""

    def analyze(ctx: AnalyzeTypeContext) -> Type:
        unbound = ctx.type
        if len(unbound.args) != 2:
            ctx.api.fail(f'"{unbound.name}" takes two dims, as in {unbound.name}[N, Literal[2]]', ctx.context, code=errorcodes.VALID_TYPE)
            return AnyType(TypeOfAny.from_error)
        declared = ctx.api.named_type(fullname, [ctx.api.analyze_type(arg) for arg in unbound.args])
        try:
            atoms: dict[str, Type] = {}
            tree = shape_rules.canonical_tree(shape_rules.normal_form(expression_tree(declared, atoms)))
            return canonical_type(tree, atoms, ctx.api.named_type)
        except Exception:  # NotAnExpression, or a plugin bug: the expression as written is never wrong
            return declared

    return analyze


def expression_text(typ: Type, name_text: Callable[[Type], str]) -> str | None:
    """How messages write an expression (``B*T``), each named dim by ``name_text``; None for a
    type that is not one."""
    proper = get_proper_type(typ)
    if not (isinstance(proper, Instance) and proper.type.fullname in OPERATIONS):
        return None
    atoms: dict[str, Type] = {}
    try:
        form = shape_rules.normal_form(expression_tree(proper, atoms))
    except NotAnExpression:
        return None
    return shape_rules.expression_text(form, lambda name: name_text(atoms[name]))
