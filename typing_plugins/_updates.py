"""Hooks of the updates ``x.at[index].set(value)`` and ``.add(value)``: the value's dtype, on the shared rule.

The result keeps ``x``'s dtype, so the run refuses a value that would promote it (a ``float64``
into ``float32``, a float into an int tensor): the same ``tensor-dtype`` here, before the run. The
region the index selects is left to the run (the declared type holds no index); a value or a
tensor whose dtype is no concrete name (a TypeVar, Any, a category) says nothing.
"""

from __future__ import annotations

import functools
from typing import Final

from mypy.plugin import MethodContext
from mypy.types import Instance, LiteralType, Type, get_proper_type

from typing_plugins._calls import MethodHook, guarded, report, unknown_tensor
from typing_plugins._names import UPDATE
from typing_plugins._rules import shape_rules
from typing_plugins._tensor_types import TensorType, dtype_name, tensor_type

#: Python's scalar classes by their kind (a subclass, numpy's ``float64``, by its first such base).
_SCALAR_KINDS: Final[dict[str, shape_rules.ScalarKind]] = {"builtins.bool": "bool", "builtins.int": "int", "builtins.float": "float", "builtins.complex": "complex"}


def update_hook(op: str, ctx: MethodContext) -> Type:
    """``x.at[index].set(value)`` / ``.add(value)``: ``x``'s type, or ``tensor-dtype`` where the value does not fit."""

    def infer() -> Type:
        tensor = tensor_type(ctx.default_return_type)  # x's type: what the update returns
        value = _value(ctx.arg_types[0][0]) if len(ctx.arg_types) == 1 and len(ctx.arg_types[0]) == 1 else None
        dtype = dtype_name(tensor.dtype) if tensor is not None else None
        if tensor is None or value is None or dtype not in shape_rules.CONCRETE:
            return ctx.default_return_type
        if isinstance(value, TensorType):
            value_dtype = dtype_name(value.dtype)
            if value_dtype not in shape_rules.CONCRETE:
                return ctx.default_return_type
            promoted = shape_rules.promote(dtype, value_dtype)
        else:
            promoted = shape_rules.promote_scalar(dtype, value)
        problem = shape_rules.update_dtype_problem(dtype, promoted)
        if problem is None:
            return ctx.default_return_type
        report(ctx, problem, f"at[...].{op}", [tensor, value])
        return unknown_tensor(ctx.api, tensor.dtype)  # one bug, one error

    return guarded(ctx, infer)


def _value(typ: Type) -> TensorType | shape_rules.ScalarKind | None:
    """The value as a tensor, or a Python scalar's kind; None for anything else (a union, Any)."""
    tensor = tensor_type(typ)
    if tensor is not None:
        return tensor
    proper = get_proper_type(typ)
    if isinstance(proper, LiteralType):
        proper = proper.fallback
    if not isinstance(proper, Instance):
        return None
    return next((_SCALAR_KINDS[base.fullname] for base in proper.type.mro if base.fullname in _SCALAR_KINDS), None)


METHOD_HOOKS: Final[dict[str, MethodHook]] = {f"{UPDATE}.{op}": functools.partial(update_hook, op) for op in ("set", "add")}
