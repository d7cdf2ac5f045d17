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
from mypy.types import Type

from typing_plugins._calls import MethodHook, guarded, report, unknown_tensor
from typing_plugins._elementwise import operand
from typing_plugins._names import UPDATE
from typing_plugins._rules import shape_rules
from typing_plugins._tensor_types import TensorType, dtype_name, tensor_type


def update_hook(op: str, ctx: MethodContext) -> Type:
    """``x.at[index].set(value)`` / ``.add(value)``: ``x``'s type, or ``tensor-dtype`` where the value does not fit."""

    def infer() -> Type:
        tensor = tensor_type(ctx.default_return_type)  # x's type: what the update returns
        dtype = dtype_name(tensor.dtype) if tensor is not None else None
        if tensor is None or dtype not in shape_rules.CONCRETE or len(ctx.arg_types) != 1 or len(ctx.arg_types[0]) != 1:
            return ctx.default_return_type
        value = operand(ctx.arg_types[0][0])  # NotUnderstood for a union or Any: the declared type
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


METHOD_HOOKS: Final[dict[str, MethodHook]] = {f"{UPDATE}.{op}": functools.partial(update_hook, op) for op in ("set", "add")}
