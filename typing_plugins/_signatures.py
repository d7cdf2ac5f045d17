"""Signature hooks: with the plugin on, an overloaded op is checked in its loose form.

The overloads of ``matmul``, ``@``, ``transpose``, ``squeeze``, ``concat``, the reductions, the
elementwise ops and operators ... give exact types where no plugin runs (pyright, plain mypy). With the plugin, their function hooks compute the
exact type themselves, and the overloads would get in the way of a reported problem: mypy tries
each item with errors filtered, the plugin's report makes every item fail, and mypy then checks
a first plausible item again, adding an error of its own (``Cannot infer value of type parameter
"K"``, ``Unsupported operand types for @``) beside the plugin's. So each item is loosened to the
shape of the fallback item: tensors of any dtype and shape, literal parameters as their plain
type, no type variables (but an alias's: ``Axis[AxisIndexT]``, the items of a list of axes).
Arguments of the wrong kind (a ``str`` for a tensor) are still errors. (``softmax``'s hook in
``_axis_ops`` loosens only its result: its argument's dtype is still checked to be a float.)
"""

from __future__ import annotations

from typing import Final

from mypy.checker import TypeChecker
from mypy.nodes import OverloadedFuncDef, TypeInfo
from mypy.plugin import CheckerPluginInterface, FunctionSigContext, MethodSigContext
from mypy.type_visitor import TypeTranslator
from mypy.typeops import get_all_type_vars
from mypy.types import AnyType, CallableType, FunctionLike, Instance, LiteralType, Overloaded, Type, TypeAliasType, TypeOfAny, TypeVarType

from typing_plugins._calls import unknown_tensor
from typing_plugins._names import MATMUL, REDUCTIONS, SHAPING, TENSOR
from typing_plugins._rules import shape_rules

#: The overloaded functions whose every item the plugin checks in the loose form.
OVERLOADED_FUNCTIONS: Final = frozenset({MATMUL} | {SHAPING[op] for op in ("transpose", "expand_dims", "squeeze", "concat", "stack")})
#: The overloaded methods of ``Tensor``, by name.
OVERLOADED_METHODS: Final = frozenset({"__matmul__"})
#: The reductions, functions and methods: their items take the fallback's ``axis`` when loosened.
REDUCTION_FUNCTIONS: Final = frozenset(REDUCTIONS.values())
REDUCTION_METHODS: Final = frozenset(shape_rules.REDUCTION_OPS)


class _Loosen(TypeTranslator):
    """Any tensor for a tensor, the plain type for a literal, ``Any`` for a type variable."""

    def __init__(self, any_tensor: Instance) -> None:
        super().__init__()
        self.any_tensor = any_tensor

    def visit_instance(self, t: Instance, /) -> Type:
        return self.any_tensor if t.type.fullname == TENSOR else super().visit_instance(t)

    def visit_literal_type(self, t: LiteralType, /) -> Type:
        return t.fallback

    def visit_type_var(self, t: TypeVarType, /) -> Type:
        return AnyType(TypeOfAny.special_form)

    def visit_type_alias_type(self, t: TypeAliasType, /) -> Type:
        return t  # the aliases of these signatures (``Axis``) hold no tensors or literals


def loosened_signature(ctx: FunctionSigContext | MethodSigContext) -> FunctionLike:
    """One item of an overloaded op, in the loose form of its fallback."""
    return _loosened(ctx.default_signature, ctx.api)


def loosened_reduction(ctx: FunctionSigContext | MethodSigContext) -> FunctionLike:
    """One item of a reduction, loose, its ``axis`` the fallback's (``typedtensor.Axis``).

    A literal axis loosens to ``int``, a pair to ``tuple[int, int]``: three axes would still be
    no item's but the fallback's, and a call whose axis the plugin reports fails every item, so
    mypy would check such an item again and add an error of its own beside the plugin's.
    """
    loose = _loosened(ctx.default_signature, ctx.api)
    fallback = _fallback_of_sum(ctx.api)
    if fallback is None or "axis" not in loose.arg_names or "axis" not in fallback.arg_names:
        return loose
    axis = fallback.arg_types[fallback.arg_names.index("axis")]
    arg_types = [axis if name == "axis" else arg_type for name, arg_type in zip(loose.arg_names, loose.arg_types)]
    used = {variable.id for variable in get_all_type_vars(axis)}
    used -= {variable.id for variable in loose.variables}
    variables = [*loose.variables, *(variable for variable in fallback.variables if variable.id in used)]
    return loose.copy_modified(arg_types=arg_types, variables=variables)


def _loosened(signature: CallableType, api: CheckerPluginInterface) -> CallableType:
    loosen = _Loosen(unknown_tensor(api, AnyType(TypeOfAny.special_form)))
    loose = signature.copy_modified(
        arg_types=[arg_type.accept(loosen) for arg_type in signature.arg_types],
        ret_type=signature.ret_type.accept(loosen),
    )
    # An alias keeps its type variable (``Axis[AxisIndexT]``: the items of a list of axes).
    kept = {variable.id for arg_type in loose.arg_types for variable in get_all_type_vars(arg_type)}
    return loose.copy_modified(variables=[variable for variable in signature.variables if variable.id in kept])


def _fallback_of_sum(api: CheckerPluginInterface) -> CallableType | None:
    """The last overload of ``Tensor.sum``: its ``axis`` takes every axis the runtime does."""
    module = api.modules.get(TENSOR.rpartition(".")[0]) if isinstance(api, TypeChecker) else None
    tensor = module.names.get("Tensor") if module is not None else None
    info = tensor.node if tensor is not None else None
    method = info.names.get("sum") if isinstance(info, TypeInfo) else None
    overloads = method.node.type if method is not None and isinstance(method.node, OverloadedFuncDef) else None
    return overloads.items[-1] if isinstance(overloads, Overloaded) else None
