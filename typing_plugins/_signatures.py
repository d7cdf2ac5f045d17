"""Signature hooks: with the plugin on, an overloaded op is checked in its loose form.

The overloads of ``matmul``, ``@``, ``transpose``, ``squeeze``, ``concat``, the reductions, the
elementwise ops and operators ... give exact types where no plugin runs (pyright, plain mypy). With the plugin, their function hooks compute the
exact type themselves, and the overloads would get in the way of a reported problem: mypy tries
each item with errors filtered, the plugin's report makes every item fail, and mypy then checks
a first plausible item again, adding an error of its own (``Cannot infer value of type parameter
"K"``, ``Unsupported operand types for @``) beside the plugin's. So each item is loosened to the
shape of the fallback item: tensors of any dtype and shape, literal parameters as their plain
type, no type variables (but an alias's: ``Axis[AxisIndexT]``, the items of a list of axes).
Arguments of the wrong kind (a ``str`` for a tensor) are still errors. (``softmax`` keeps its
tensors' dtypes: its argument's dtype is still checked to be a float.)

``LOOSENED`` is the one table of the ops so checked; mypy asks for a signature hook once per call
and runs it on each item of the call's overload, so what the items share is made once per call.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import Final, TypeAlias

from mypy.checker import TypeChecker
from mypy.nodes import OverloadedFuncDef, TypeInfo
from mypy.plugin import CheckerPluginInterface, FunctionSigContext, MethodSigContext
from mypy.type_visitor import TypeTranslator
from mypy.typeops import get_all_type_vars
from mypy.types import (
    AnyType,
    CallableType,
    FunctionLike,
    Instance,
    LiteralType,
    Overloaded,
    Type,
    TypeAliasType,
    TypeOfAny,
    TypeVarLikeType,
    TypeVarType,
)

from typing_plugins._calls import note_failure, unknown_tensor
from typing_plugins._names import AXIS_OPS, CLIP, EINSUM, ELEMENTWISE, LAYERS, LINALG, MATMUL, REARRANGING, REDUCTIONS, SCANS, SHAPING, SORTING, STATISTICS, TENSOR
from typing_plugins._rules import shape_rules

SignatureContext: TypeAlias = FunctionSigContext | MethodSigContext
SignatureHook: TypeAlias = Callable[[SignatureContext], FunctionLike]


class Loosening(enum.Enum):
    """How the items of an op's signature are loosened."""

    #: Every tensor any tensor.
    TENSORS = enum.auto()
    #: Every tensor any tensor, and ``axis`` the fallback's, which takes every axis the runtime does.
    #: Loosened, a literal axis would be ``int``, a pair ``tuple[int, int]``: three axes would still
    #: be no item's but the fallback's, and a call whose axis the plugin reports fails every item,
    #: so mypy would check such an item again and add an error of its own beside the plugin's.
    REDUCTION = enum.auto()
    #: Every tensor keeps its dtype but has any shape: ``softmax``'s ``(x: Tensor[FloatingT, *Shape]) ->
    #: Tensor[FloatingT, *Shape]`` is checked as ``Tensor[FloatingT, *tuple[Any, ...]]`` (the dtype still a
    #: float). mypy would otherwise solve ``Shape`` from the type the result is assigned to and blame
    #: the argument, and could not solve it for a union of tensors, which runs.
    SHAPES = enum.auto()


#: The ops checked in their loose form: functions by fullname, ``Tensor``'s methods by name. Not
#: ``astype``: it takes its shape from its receiver, not from the context.
LOOSENED: Final[dict[str, Loosening]] = {
    **dict.fromkeys(
        [MATMUL, *(SHAPING[op] for op in ("transpose", "expand_dims", "squeeze", "concat", "stack")), *ELEMENTWISE.values(), CLIP],
        Loosening.TENSORS,
    ),
    **dict.fromkeys(["__matmul__", *shape_rules.UNARY_METHODS, *shape_rules.BINARY_METHODS, *shape_rules.REFLECTED_METHODS], Loosening.TENSORS),
    **dict.fromkeys([*REDUCTIONS.values(), *shape_rules.REDUCTION_OPS], Loosening.REDUCTION),
    **dict.fromkeys([AXIS_OPS["softmax"], AXIS_OPS["log_softmax"]], Loosening.SHAPES),
    **dict.fromkeys([REARRANGING[op] for op in ("swapaxes", "flatten", "one_hot")], Loosening.TENSORS),
    **dict.fromkeys([SORTING["top_k"], *LINALG.values(), EINSUM], Loosening.TENSORS),
    **dict.fromkeys(LAYERS.values(), Loosening.TENSORS),
    **dict.fromkeys([*STATISTICS.values(), *shape_rules.DEVIATION_OPS], Loosening.REDUCTION),
    **dict.fromkeys(SCANS.values(), Loosening.TENSORS),
}


def signature_hook(loosening: Loosening | None) -> SignatureHook | None:
    """The hook that loosens one call's signature (``loosening`` of the op called; None: none).

    mypy asks for it once per call, then runs it on each item of the call's overload.
    """
    return None if loosening is None else _LooseCall(loosening)


class _LooseCall:
    """Loosens each item of one call's overload; the loose tensor and the fallback's axis are made
    at the first item and kept for the others."""

    def __init__(self, loosening: Loosening) -> None:
        self.loosening = loosening
        self.loosen: _Loosen | None = None
        self.axis: _Axis | None = None

    def __call__(self, ctx: SignatureContext) -> FunctionLike:
        try:
            return self.loosened(ctx.default_signature, ctx.api)
        except Exception as error:  # a plugin bug must not stop the user's mypy run
            note_failure(ctx.api, ctx.context, error)
            return ctx.default_signature

    def loosened(self, signature: CallableType, api: CheckerPluginInterface) -> CallableType:
        if self.loosen is None:  # the call's first item
            self.loosen = _Loosen(api, keeps_dtypes=self.loosening is Loosening.SHAPES)
            self.axis = _fallback_axis(api) if self.loosening is Loosening.REDUCTION else None
        loose = self.loosen.signature(signature)
        return loose if self.axis is None else self.axis.given_to(loose)


class _Loosen(TypeTranslator):
    """Any tensor for a tensor (or one of its dtype), the plain type for a literal, ``Any`` for a type variable."""

    def __init__(self, api: CheckerPluginInterface, keeps_dtypes: bool) -> None:
        super().__init__()
        self.api = api
        self.keeps_dtypes = keeps_dtypes
        self.any_tensor = unknown_tensor(api, AnyType(TypeOfAny.special_form))

    def signature(self, signature: CallableType) -> CallableType:
        """``signature`` loosened, with the type variables its loose parameters still use."""
        loose = signature.copy_modified(
            arg_types=[arg_type.accept(self) for arg_type in signature.arg_types],
            ret_type=signature.ret_type.accept(self),
        )
        # An alias keeps its type variable (``Axis[AxisIndexT]``: the items of a list of axes).
        kept = {variable.id for arg_type in loose.arg_types for variable in get_all_type_vars(arg_type)}
        return loose.copy_modified(variables=[variable for variable in signature.variables if variable.id in kept])

    def visit_instance(self, t: Instance, /) -> Type:
        if t.type.fullname != TENSOR:
            return super().visit_instance(t)
        return unknown_tensor(self.api, t.args[0]) if self.keeps_dtypes else self.any_tensor

    def visit_literal_type(self, t: LiteralType, /) -> Type:
        return t.fallback

    def visit_type_var(self, t: TypeVarType, /) -> Type:
        return AnyType(TypeOfAny.special_form)

    def visit_type_alias_type(self, t: TypeAliasType, /) -> Type:
        return t  # the aliases of these signatures (``Axis``) hold no tensors or literals


class _Axis:
    """The fallback's ``axis`` (``typedtensor.Axis``) and the type variables it uses."""

    def __init__(self, fallback: CallableType) -> None:
        self.type = fallback.arg_types[fallback.arg_names.index("axis")]
        used = {variable.id for variable in get_all_type_vars(self.type)}
        self.variables = [variable for variable in fallback.variables if variable.id in used]

    def given_to(self, loose: CallableType) -> CallableType:
        """``loose`` with this ``axis``."""
        if "axis" not in loose.arg_names:
            return loose
        arg_types = [self.type if name == "axis" else arg_type for name, arg_type in zip(loose.arg_names, loose.arg_types)]
        own = {variable.id for variable in loose.variables}
        variables: list[TypeVarLikeType] = [*loose.variables, *(variable for variable in self.variables if variable.id not in own)]
        return loose.copy_modified(arg_types=arg_types, variables=variables)


def _fallback_axis(api: CheckerPluginInterface) -> _Axis | None:
    """The ``axis`` of the last overload of ``Tensor.sum``, which takes every axis the runtime does."""
    module_name, _, class_name = TENSOR.rpartition(".")
    module = api.modules.get(module_name) if isinstance(api, TypeChecker) else None
    tensor = module.names.get(class_name) if module is not None else None
    info = tensor.node if tensor is not None else None
    method = info.names.get("sum") if isinstance(info, TypeInfo) else None
    overloads = method.node.type if method is not None and isinstance(method.node, OverloadedFuncDef) else None
    fallback = overloads.items[-1] if isinstance(overloads, Overloaded) else None
    return _Axis(fallback) if fallback is not None and "axis" in fallback.arg_names else None
