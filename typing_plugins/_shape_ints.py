"""Dims read from ``x.shape`` are ints: ``x.shape[0] // 2`` type-checks whatever the dim is.

A ``Literal`` size and a ``Dim`` class already are ints. A TypeVar dim (``T = TypeVar("T")``) is
bounded by ``object`` and the items of a ``*Ts`` run by ``object`` too, so mypy would refuse
``x.shape[0] // 2``, ``range(x.shape[1])`` and ``x.shape[0] * x.shape[1]``, code that runs: every
size a shape holds is an int at run time. So ``x.shape`` is typed with each unbounded TypeVar
bounded by ``DimSize`` (an int subclass no annotation writes) and each run's items ints.

The TypeVar keeps its id, so mypy still relates it to the annotations' ``T``; the shape rules
compare dims by equality, which counts the bound, so wherever the plugin reads a dim (a tensor's
type, an int argument such as the ``x.shape[0]`` of ``tt.zeros((x.shape[0], 3))``)
``_tensor_types.declared_dim`` gives it back its ``object`` bound: the rules see the very ``T`` of
the annotations.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from mypy.checker import TypeChecker
from mypy.lookup import lookup_fully_qualified
from mypy.nodes import TypeInfo
from mypy.plugin import AttributeContext, CheckerPluginInterface, MethodContext
from mypy.types import AnyType, Instance, LiteralType, TupleType, Type, TypeVarTupleType, TypeVarType, UnpackType, get_proper_type

from typing_plugins._arguments import size_form
from typing_plugins._calls import mypy_dims, note_failure
from typing_plugins._names import DIM_SIZE, TENSOR
from typing_plugins._rules import shape_rules


def shape_attribute_hook(ctx: AttributeContext) -> Type:
    """``x.shape``: the declared ``tuple[*Shape]``, its unbounded TypeVars and ``*Ts`` items ints."""
    shape = get_proper_type(ctx.default_attr_type)
    if ctx.is_lvalue or not isinstance(shape, TupleType):
        return ctx.default_attr_type
    try:
        size = _dim_size(ctx.api)
        if size is None:
            return ctx.default_attr_type
        sizes = ctx.api.named_generic_type("builtins.tuple", [ctx.api.named_generic_type("builtins.int", [])])
        return shape.copy_modified(items=[_as_int(item, size, sizes) for item in shape.items])
    except Exception as error:  # a plugin bug must not stop the user's mypy run
        note_failure(ctx.api, ctx.context, error)
        return ctx.default_attr_type


def _dim_size(api: CheckerPluginInterface) -> Instance | None:
    """``DimSize``, looked up in its module: the package does not export it, so a name lookup
    through ``typedtensor`` would not find it. None where mypy has not loaded it."""
    symbol = lookup_fully_qualified(DIM_SIZE, api.modules) if isinstance(api, TypeChecker) else None
    return Instance(symbol.node, []) if symbol is not None and isinstance(symbol.node, TypeInfo) else None


def _as_int(dim: Type, size: Instance, sizes: Instance) -> Type:
    """``dim`` as an int: an unbounded TypeVar bounded by ``size``, a ``*Ts`` run bounded by ``sizes``."""
    proper = get_proper_type(dim)
    if isinstance(proper, TypeVarType) and not proper.values and _is_object(proper.upper_bound):
        return proper.copy_modified(upper_bound=size)
    if isinstance(proper, UnpackType):
        run = get_proper_type(proper.type)
        if isinstance(run, TypeVarTupleType):  # mypy types an item of a run as its bound's item
            return UnpackType(run.copy_modified(upper_bound=sizes))  # a run's equality ignores its bound
    return dim


def _is_object(typ: Type) -> bool:
    proper = get_proper_type(typ)
    return isinstance(proper, Instance) and proper.type.fullname == "builtins.object"


def dim_arithmetic(operation: shape_rules.OperationName) -> Callable[[MethodContext], Type]:
    """The hook of an ``int`` operator on sizes (SPEC §9): on dims read from ``x.shape`` (named
    dims, expressions) and literals the result is the dim it computes (``c // 4`` is
    ``Div[C, Literal[4]]``, ``b * t`` is ``Mul[B, T]``); on two literals (``Final`` names too) a
    literal, as ``HEAD: Final = WIDTH // N_HEAD``; with any other int mypy's ``int``."""

    def compute(ctx: MethodContext) -> Type:
        result = get_proper_type(ctx.default_return_type)
        if not (isinstance(result, Instance) and result.type.fullname == "builtins.int" and len(ctx.arg_types) == 1 and len(ctx.arg_types[0]) == 1):
            return ctx.default_return_type
        if _some_int(ctx.type) or _some_int(ctx.arg_types[0][0]):
            return ctx.default_return_type  # most int arithmetic in a program: no size, nothing built
        try:
            dims = mypy_dims(ctx.api)
            left, right = size_form(ctx.type, dims), size_form(ctx.arg_types[0][0], dims)
            if left is None or right is None or (operation == "Div" and not right.terms):
                return ctx.default_return_type  # some int, or a division by 0 (the run raises)
            form = shape_rules.operated(operation, left, right)
            if form.literal is not None:
                return result.copy_modified(last_known_value=LiteralType(form.literal, result))  # a literal's type, as mypy gives ``3``
            dim = dims.dim_of(form)
            return ctx.default_return_type if isinstance(dim, shape_rules.Unknown) else dim
        except Exception as error:  # a plugin bug must not stop the user's mypy run
            note_failure(ctx.api, ctx.context, error)
            return ctx.default_return_type

    return compute


def _some_int(typ: Type) -> bool:
    """A plain ``int`` with no literal value (or ``Any``): never a size the rules can compute with."""
    proper = get_proper_type(typ)
    plain = isinstance(proper, Instance) and proper.type.fullname == "builtins.int" and proper.last_known_value is None
    return plain or isinstance(proper, AnyType)


ATTRIBUTE_HOOKS: Final = {f"{TENSOR}.shape": shape_attribute_hook}
#: The ``int`` operators that compute sizes.
_OPERATORS: Final[dict[str, shape_rules.OperationName]] = {"__add__": "Add", "__sub__": "Sub", "__mul__": "Mul", "__floordiv__": "Div"}
INT_OPERATOR_HOOKS: Final = {method: dim_arithmetic(operation) for method, operation in _OPERATORS.items()}
