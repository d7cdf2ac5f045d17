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
from typing import TypeAlias

from mypy import errorcodes
from mypy.plugin import AnalyzeTypeContext, FunctionContext, MethodContext
from mypy.type_visitor import TypeTranslator
from mypy.typeops import try_getting_int_literals_from_type
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    LiteralType,
    Overloaded,
    TupleType,
    Type,
    TypeAliasType,
    TypeOfAny,
    TypeVarType,
    UnionType,
    UnpackType,
    get_proper_type,
)

from typing_plugins._names import DIM, DIM_EXPRESSIONS, PACKAGE
from typing_plugins._rules import shape_rules

#: The operation of each expression class, by the class's fullname.
OPERATIONS: dict[str, shape_rules.OperationName] = {DIM_EXPRESSIONS[name]: name for name in shape_rules.OPERATION_NAMES}


class NotAnExpression(Exception):
    """A type the normal form cannot hold; the expression keeps its declared spelling."""


class UnknownPart(NotAnExpression):
    """``Any`` in an expression: its size is unknown, so the expression is ``Any`` too."""


def expression_tree(typ: Type, atoms: dict[str, Type]) -> shape_rules.Tree:
    """``typ`` as the rules' expression, each named dim recorded in ``atoms`` by its name there."""
    proper = get_proper_type(typ)
    sizes = try_getting_int_literals_from_type(proper) if isinstance(proper, LiteralType) else None
    if sizes is not None and len(sizes) == 1 and sizes[0] >= 0:
        return sizes[0]
    if isinstance(proper, Instance) and proper.type.fullname in OPERATIONS and len(proper.args) == 2:
        left, right = (expression_tree(arg, atoms) for arg in proper.args)
        return shape_rules.Operation(OPERATIONS[proper.type.fullname], left, right)
    if isinstance(proper, Instance) and proper.type.has_base(DIM) and proper.type.fullname != DIM:  # a Dim class, not ``int`` or ``Dim``
        name = proper.type.fullname
    elif isinstance(proper, TypeVarType):
        name = f"{proper.fullname}@{proper.id}"  # two TypeVars may share a name
    elif isinstance(proper, AnyType):
        raise UnknownPart(typ)
    else:
        raise NotAnExpression(typ)
    atoms.setdefault(name, typ)
    return name


#: Builds ``Mul[args]`` and the like: by fullname while annotations are analysed, by public name
#: (``typedtensor.Mul``, which mypy resolves through the package) while code is checked.
MakeOperation: TypeAlias = Callable[[shape_rules.OperationName, list[Type]], Instance]


def canonical(expression: Instance, make: MakeOperation, int_type: Instance) -> Type:
    """``expression`` in its one spelling, or as it is if the normal form cannot hold it."""
    atoms: dict[str, Type] = {}
    try:
        tree = shape_rules.canonical_tree(shape_rules.normal_form(expression_tree(expression, atoms)))
    except UnknownPart:
        return AnyType(TypeOfAny.special_form)
    except NotAnExpression:
        return expression
    return _spelled(tree, atoms, make, int_type)


def _spelled(tree: shape_rules.Tree, atoms: dict[str, Type], make: MakeOperation, int_type: Instance) -> Type:
    if isinstance(tree, int):
        return LiteralType(tree, int_type)
    if isinstance(tree, str):
        return atoms[tree]
    return make(tree.name, [_spelled(part, atoms, make, int_type) for part in (tree.left, tree.right)])


class Algebra:
    """Dim arithmetic on mypy types for the shape rules (``Dims.form`` and ``Dims.spell``): a dim
    read as its normal form, a normal form spelled as the one type that writes it; ``atoms`` maps
    each named dim's name in the forms back to its type."""

    def __init__(self, make: MakeOperation, int_type: Instance) -> None:
        self.make = make
        self.int_type = int_type
        self.atoms: dict[str, Type] = {}

    def form(self, dim: Type) -> shape_rules.Polynomial | None:
        """A named dim's or an expression's normal form; None for any other dim."""
        try:
            return shape_rules.normal_form(expression_tree(dim, self.atoms))
        except NotAnExpression:
            return None

    def spell(self, form: shape_rules.Polynomial) -> Type:
        return _spelled(shape_rules.canonical_tree(form), self.atoms, self.make, self.int_type)


def analyze_hook(fullname: str) -> Callable[[AnalyzeTypeContext], Type]:
    """The type analyze hook of the expression class ``fullname``: the expression in its one spelling."""

    def analyze(ctx: AnalyzeTypeContext) -> Type:
        unbound, api = ctx.type, ctx.api
        if len(unbound.args) != 2:
            api.fail(f'"{unbound.name}" takes two dims, as in {unbound.name}[N, Literal[2]]', ctx.context, code=errorcodes.VALID_TYPE)
            return AnyType(TypeOfAny.from_error)
        declared = api.named_type(fullname, [api.analyze_type(arg) for arg in unbound.args])
        try:
            return canonical(declared, lambda name, args: api.named_type(DIM_EXPRESSIONS[name], args), api.named_type("builtins.int", []))
        except Exception:  # a plugin bug: the expression as written is never wrong
            return declared

    return analyze


def returns_expression(signature: Type) -> bool:
    """Whether a function's (or overloaded function's) return type has a dim expression in it."""
    proper = get_proper_type(signature)
    if isinstance(proper, Overloaded):
        return any(_mentions_expression(item.ret_type, 0) for item in proper.items)
    return isinstance(proper, CallableType) and _mentions_expression(proper.ret_type, 0)


def _mentions_expression(typ: Type, depth: int) -> bool:
    """Whether ``typ`` has a dim expression in it (looking as deep as types nest in practice:
    a recursive alias must not recurse for ever)."""
    proper = get_proper_type(typ)
    if depth > 8:
        return False
    if isinstance(proper, Instance):
        return proper.type.fullname in OPERATIONS or any(_mentions_expression(arg, depth + 1) for arg in proper.args)
    if isinstance(proper, UnpackType):
        return _mentions_expression(proper.type, depth + 1)
    if isinstance(proper, (TupleType, UnionType)):
        return any(_mentions_expression(item, depth + 1) for item in proper.items)
    return False


def canonical_result(ctx: FunctionContext | MethodContext) -> Type:
    """The hook of a function whose return type has a dim expression: mypy substitutes the call's
    dims into it (``Mul[B, T]`` with ``B`` a ``Time`` and ``T`` a ``Batch``), and this spells
    the result in its one way again (``Mul[Batch, Time]``)."""
    api = ctx.api
    try:
        translator = _Canonical(lambda name, args: api.named_generic_type(f"{PACKAGE}.{name}", args), api.named_generic_type("builtins.int", []))
        return ctx.default_return_type.accept(translator)
    except Exception:  # a plugin bug: the declared type is never wrong
        return ctx.default_return_type


class _Canonical(TypeTranslator):
    """Every dim expression of a type in its one spelling, innermost first."""

    def __init__(self, make: MakeOperation, int_type: Instance) -> None:
        super().__init__()
        self.make = make
        self.int_type = int_type

    def visit_instance(self, t: Instance, /) -> Type:
        translated = super().visit_instance(t)
        if isinstance(translated, Instance) and translated.type.fullname in OPERATIONS:
            return canonical(translated, self.make, self.int_type)
        return translated

    def visit_type_alias_type(self, t: TypeAliasType, /) -> Type:
        return t if t.is_recursive else get_proper_type(t).accept(self)  # an alias's dims are substituted too


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
