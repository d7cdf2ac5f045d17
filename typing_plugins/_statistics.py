"""Hooks of the statistics (``var`` ... ``nanmin``, ``x.var``, ``x.std``), the scans (``cumsum``,
``cumprod``) and the reads of one element (``x.item()``, ``float(x)``, ``int(x)``, ``bool(x)``).

The statistics reduce as the reductions do (``infer_reduction``, with their dtype rule); a scan
keeps the shape once its axis is in range, in ``sum``'s (``prod``'s) dtype. A read of one element from a tensor with a literal dim other than 1 is ``tensor-shape``.
"""

from __future__ import annotations

import functools
from typing import Final

from mypy.plugin import FunctionContext, MethodContext
from mypy.types import Type

from typing_plugins._arguments import single_axis_argument
from typing_plugins._calls import CallContext, FunctionHook, MethodHook, NotUnderstood, guarded, mypy_dims, new_tensor, report, unknown_tensor
from typing_plugins._names import SCALAR_READS, SCANS, STATISTICS
from typing_plugins._reductions import infer_reduction, reduce_method_hook, result_dtype_type
from typing_plugins._rules import shape_rules
from typing_plugins._tensor_types import tensor_type


def statistic_hook(op: str, ctx: CallContext) -> Type:
    """``var(x, axis, keepdims, ddof)`` and the nan-statistics: the tensor is the first argument."""
    if len(ctx.arg_types) < 1 or len(ctx.arg_types[0]) != 1:
        return ctx.default_return_type
    return guarded(ctx, lambda: infer_reduction(ctx, op, op, ctx.arg_types[0][0]))


def scan_hook(op: str, ctx: FunctionContext) -> Type:
    """``cumsum(x, axis)``: the shape kept once the axis is in range, the dtype ``sum``'s (``prod``'s)."""

    def infer() -> Type:
        tensor = tensor_type(ctx.arg_types[0][0]) if ctx.arg_types and len(ctx.arg_types[0]) == 1 else None
        axis = single_axis_argument(ctx, None)
        if tensor is None or axis is None:
            raise NotUnderstood
        dtype = result_dtype_type(ctx, op, tensor.dtype)
        problem = shape_rules.axis_problem(tensor.shape, axis)
        if problem is not None:
            report(ctx, problem, op, [tensor], where=ctx.args[ctx.callee_arg_names.index("axis")][0])
            return unknown_tensor(ctx.api, dtype)
        return new_tensor(ctx.api, dtype, tensor.shape)

    return guarded(ctx, infer)


def item_hook(ctx: MethodContext) -> Type:
    """``x.item()``: the declared scalar, after the one-element check."""
    return _checked_read(ctx, "item", ctx.type)


def scalar_read_hook(op: str, ctx: FunctionContext) -> Type:
    """``float(x)``, ``int(x)``, ``bool(x)`` of a tensor: the one-element check (other arguments pass)."""
    if len(ctx.arg_types) != 1 or len(ctx.arg_types[0]) != 1:
        return ctx.default_return_type
    return _checked_read(ctx, op, ctx.arg_types[0][0])


def _checked_read(ctx: CallContext, op: str, receiver: Type) -> Type:
    tensor = tensor_type(receiver)
    if tensor is not None:
        problem = shape_rules.one_element_problem(tensor.shape, mypy_dims(ctx.api))
        if problem is not None:
            report(ctx, problem, op, [tensor])
    return ctx.default_return_type


FUNCTION_HOOKS: Final[dict[str, FunctionHook]] = {
    **{fullname: functools.partial(statistic_hook, op) for op, fullname in STATISTICS.items()},
    **{fullname: functools.partial(scan_hook, op) for op, fullname in SCANS.items()},
    **{fullname: functools.partial(scalar_read_hook, op) for op, fullname in SCALAR_READS.items()},
}
METHOD_HOOKS: Final[dict[str, MethodHook]] = {
    **{op: functools.partial(reduce_method_hook, op) for op in shape_rules.DEVIATION_OPS},
    "item": item_hook,
}
