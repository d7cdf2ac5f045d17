"""Signature hooks: with the plugin on, an overloaded op is checked in its loose form.

The overloads of ``matmul``, ``@``, ``transpose``, ``squeeze``, ``concat``, the reductions ... give exact types
where no plugin runs (pyright, plain mypy). With the plugin, their function hooks compute the
exact type themselves, and the overloads would get in the way of a reported problem: mypy tries
each item with errors filtered, the plugin's report makes every item fail, and mypy then checks
a first plausible item again, adding an error of its own (``Cannot infer value of type parameter
"K"``, ``Unsupported operand types for @``) beside the plugin's. So each item is loosened to the
shape of the fallback item: tensors of any dtype and shape, literal parameters as their plain
type, no type variables. Arguments of the wrong kind (a ``str`` for a tensor) are still errors.
"""

from __future__ import annotations

from typing import Final

from mypy.plugin import FunctionSigContext, MethodSigContext
from mypy.type_visitor import TypeTranslator
from mypy.typeops import get_all_type_vars
from mypy.types import AnyType, CallableType, FunctionLike, Instance, LiteralType, Type, TypeAliasType, TypeOfAny, TypeVarType

from typing_plugins._calls import unknown_tensor
from typing_plugins._rules import shape_rules
from typing_plugins._tensor_types import TENSOR

#: The overloaded functions whose every item the plugin checks in the loose form.
OVERLOADED_FUNCTIONS: Final = frozenset(
    {"typedtensor._linalg.matmul"}
    | {f"typedtensor._shaping.{op}" for op in ("transpose", "expand_dims", "squeeze", "concat", "stack")}
    | {f"typedtensor._reductions.reduce_{op}" for op in shape_rules.REDUCTION_OPS}
)
#: The overloaded methods of ``Tensor``, by name.
OVERLOADED_METHODS: Final = frozenset({"__matmul__", *shape_rules.REDUCTION_OPS})


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
    signature = ctx.default_signature
    loosen = _Loosen(unknown_tensor(ctx.api, AnyType(TypeOfAny.special_form)))
    loose: CallableType = signature.copy_modified(
        arg_types=[arg_type.accept(loosen) for arg_type in signature.arg_types],
        ret_type=signature.ret_type.accept(loosen),
    )
    # An alias keeps its type variable (``Axis[AxisIndexT]``: the items of a list of axes).
    kept = {variable.id for arg_type in loose.arg_types for variable in get_all_type_vars(arg_type)}
    return loose.copy_modified(variables=[variable for variable in signature.variables if variable.id in kept])
