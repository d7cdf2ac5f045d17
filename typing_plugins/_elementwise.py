"""Hooks of the elementwise ops: broadcasting shapes and promoting dtypes, as the runtime does."""

from __future__ import annotations

import functools
from typing import Final

from mypy.plugin import FunctionContext, MethodContext
from mypy.types import AnyType, Instance, LiteralType, Type, TypeOfAny, get_proper_type

from typing_plugins._calls import (
    CallContext,
    FunctionHook,
    MethodHook,
    NotUnderstood,
    dtype_type,
    guarded,
    mypy_dims,
    new_tensor,
    report,
    unknown_tensor,
)
from typing_plugins._rules import shape_rules
from typing_plugins._tensor_types import TensorType, dtype_name, tensor_type

#: Python scalar types by the kind the dtype rules know them as.
_SCALAR_KINDS: Final[dict[str, shape_rules.ScalarKind]] = {
    "builtins.bool": "bool",
    "builtins.int": "int",
    "builtins.float": "float",
    "builtins.complex": "complex",
}


def binary_function_hook(op: str, ctx: FunctionContext) -> Type:
    """``op(x1, x2)``."""
    if len(ctx.arg_types) < 2 or len(ctx.arg_types[0]) != 1 or len(ctx.arg_types[1]) != 1:
        return ctx.default_return_type
    return guarded(ctx, lambda: _infer_binary(ctx, op, ctx.arg_types[0][0], ctx.arg_types[1][0]))


def binary_method_hook(op: str, reflected: bool, ctx: MethodContext) -> Type:
    """``x + y`` (``x.__add__(y)``), or reflected ``2 + x`` (``x.__radd__(2)``)."""
    if len(ctx.arg_types) != 1 or len(ctx.arg_types[0]) != 1:
        return ctx.default_return_type
    operands = (ctx.arg_types[0][0], ctx.type) if reflected else (ctx.type, ctx.arg_types[0][0])
    return guarded(ctx, lambda: _infer_binary(ctx, op, *operands))


def _infer_binary(ctx: CallContext, op: str, left_type: Type, right_type: Type) -> Type:
    left, right = _operand(left_type), _operand(right_type)
    tensors = [operand for operand in (left, right) if isinstance(operand, TensorType)]
    if not tensors:
        raise NotUnderstood
    dtype = _result_dtype(ctx, left, right)
    shape = shape_rules.broadcast_shapes([tensor.shape for tensor in tensors], mypy_dims(ctx.api))
    if isinstance(shape, shape_rules.Problem):
        report(ctx, shape, op, [left, right])
        return unknown_tensor(ctx.api, dtype)  # one bug, one error
    return new_tensor(ctx.api, dtype, shape)


def _operand(typ: Type) -> TensorType | shape_rules.ScalarKind:
    """A tensor, or a Python scalar by its kind's name (``float``)."""
    tensor = tensor_type(typ)
    if tensor is not None:
        return tensor
    proper = get_proper_type(typ)
    if isinstance(proper, LiteralType):
        proper = proper.fallback
    if isinstance(proper, Instance) and proper.type.fullname in _SCALAR_KINDS:
        return _SCALAR_KINDS[proper.type.fullname]
    raise NotUnderstood  # a union, Any, a numpy scalar: the declared type says what is known


def _result_dtype(ctx: CallContext, left: TensorType | shape_rules.ScalarKind, right: TensorType | shape_rules.ScalarKind) -> Type:
    """numpy's promotion of the operands' dtypes, Python scalars weak; ``Any`` when a dtype is unknown."""
    names = [dtype_name(operand.dtype) for operand in (left, right) if isinstance(operand, TensorType)]
    known = [name for name in names if name is not None]
    if len(known) < len(names):
        return AnyType(TypeOfAny.special_form)  # a TypeVar or Any dtype
    result = shape_rules.promote(*known)
    for operand in (left, right):
        if not isinstance(operand, TensorType):
            result = shape_rules.promote_scalar(result, operand)
    return dtype_type(ctx.api, result)


FUNCTION_HOOKS: Final[dict[str, FunctionHook]] = {
    f"typedtensor._elementwise.{op}": functools.partial(binary_function_hook, op) for op in ("add",)
}
METHOD_HOOKS: Final[dict[str, MethodHook]] = {
    **{f"__{op}__": functools.partial(binary_method_hook, op, False) for op in ("add",)},
    **{f"__r{op}__": functools.partial(binary_method_hook, op, True) for op in ("add",)},
}
