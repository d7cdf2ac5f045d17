"""Hooks of the ops along one axis: ``argmax``/``argmin``, ``softmax``/``log_softmax``, ``logsumexp``,
``take``, ``take_along_axis``."""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Final

from mypy.nodes import Context
from mypy.types import Instance, LiteralType, Type, UnpackType, get_proper_type

from typing_plugins._arguments import keepdims_argument, single_axis_argument
from typing_plugins._calls import (
    CallContext,
    FunctionHook,
    NotUnderstood,
    Operand,
    dtype_type,
    guarded,
    int_type,
    mypy_dims,
    new_tensor,
    report,
    unknown_tensor,
)
from typing_plugins._names import AXIS_OPS
from typing_plugins._reductions import infer_reduction
from typing_plugins._rules import shape_rules
from typing_plugins._tensor_types import TensorType, int_literal, tensor_type

MypyShape = shape_rules.Shape[Type, UnpackType]


def argextreme_hook(op: str, ctx: CallContext) -> Type:
    """``argmax(x, axis=-1, keepdims=False)``: that axis removed (kept as ``Literal[1]``), ``int64``."""

    def infer() -> Type:
        tensor = _tensor(ctx, "x")
        one = LiteralType(1, int_type(ctx.api))
        shape = shape_rules.argextreme_shape(tensor.shape, _one_axis(ctx, -1), keepdims_argument(ctx), one)
        return _result(ctx, op, shape, dtype_type(ctx.api, "int64"), [tensor])

    return guarded(ctx, infer)


def normalise_hook(op: str, ctx: CallContext) -> Type:
    """``softmax(x, axis=-1)``: the shape kept once the axis is in range, the (floating) dtype kept."""

    def infer() -> Type:
        tensor = _tensor(ctx, "x")
        declared = get_proper_type(ctx.default_return_type)
        dtype = declared.args[0] if isinstance(declared, Instance) and declared.args else tensor.dtype
        problem = shape_rules.axis_problem(tensor.shape, _one_axis(ctx, -1))
        return _result(ctx, op, tensor.shape if problem is None else problem, dtype, [tensor])

    return guarded(ctx, infer)


def logsumexp_hook(ctx: CallContext) -> Type:
    """``logsumexp(x, axis, keepdims)``: reduces as ``reduce_max`` does, and keeps the dtype."""
    tensor = ctx.arg_types[0][0] if ctx.arg_types and len(ctx.arg_types[0]) == 1 else None
    if tensor is None:
        return ctx.default_return_type
    return guarded(ctx, lambda: infer_reduction(ctx, "logsumexp", "max", tensor))


def take_hook(ctx: CallContext) -> Type:
    """``take(x, indices, axis=None)``: the dim at ``axis`` replaced by the dims of ``indices``."""

    def infer() -> Type:
        tensor, axis = _tensor(ctx, "x"), single_axis_argument(ctx, None)
        indices = _indices(ctx)
        if isinstance(indices, int):
            problem = _index_problem(tensor.shape, indices, axis, mypy_dims(ctx.api))
            if problem is not None:
                return _result(ctx, "take", problem, tensor.dtype, [tensor], _argument(ctx, "indices"))
            index_shape: MypyShape = shape_rules.Shape(())
        else:
            index_shape = shape_rules.Shape(()) if indices is None else indices.shape
        operands: list[Operand] = [tensor, "int" if not isinstance(indices, TensorType) else indices]
        return _result(ctx, "take", shape_rules.take_shape(tensor.shape, index_shape, axis), tensor.dtype, operands)

    return guarded(ctx, infer)


def take_along_axis_hook(ctx: CallContext) -> Type:
    """``take_along_axis(x, indices, axis=-1)``: indices of the same rank, the other dims broadcast."""

    def infer() -> Type:
        tensor, indices = _tensor(ctx, "x"), _tensor(ctx, "indices")
        shape = shape_rules.take_along_axis_shape(tensor.shape, indices.shape, _one_axis(ctx, -1), mypy_dims(ctx.api))
        return _result(ctx, "take_along_axis", shape, tensor.dtype, [tensor, indices])

    return guarded(ctx, infer)


def _tensor(ctx: CallContext, formal: str) -> TensorType:
    """The tensor passed for ``formal``, or ``NotUnderstood``."""
    tensor = tensor_type(_argument_type(ctx, formal))
    if tensor is None:
        raise NotUnderstood
    return tensor


def _argument_type(ctx: CallContext, formal: str) -> Type:
    index = ctx.callee_arg_names.index(formal) if formal in ctx.callee_arg_names else -1
    if index < 0 or len(ctx.arg_types[index]) != 1:
        raise NotUnderstood
    return ctx.arg_types[index][0]


def _argument(ctx: CallContext, formal: str) -> Context:
    """Where the argument for ``formal`` is written, to point an error at."""
    return ctx.args[ctx.callee_arg_names.index(formal)][0]


def _one_axis(ctx: CallContext, default: int) -> int | shape_rules.Unknown:
    """The one int ``axis`` of the call."""
    axis = single_axis_argument(ctx, default)
    if axis is None:
        raise NotUnderstood  # argmax(x, axis=None): a type error mypy reports
    return axis


def _indices(ctx: CallContext) -> TensorType | int | None:
    """``take``'s indices: a tensor, a literal int, or None for an int of unknown value."""
    typ = get_proper_type(_argument_type(ctx, "indices"))
    tensor = tensor_type(typ)
    if tensor is not None:
        return tensor
    value = int_literal(typ)
    if value is not None:
        return value
    if isinstance(typ, Instance) and typ.type.fullname == "builtins.int":
        return None
    raise NotUnderstood


def _index_problem(shape: MypyShape, index: int, axis: int | None | shape_rules.Unknown, dims: shape_rules.Dims[Type]) -> shape_rules.Problem | None:
    """Whether a literal ``index`` is out of range for the literal dim ``take`` reads it from (the
    flattened tensor's size with ``axis`` None)."""
    if isinstance(axis, shape_rules.Unknown) or shape.rank is None:
        return None
    if axis is None:
        sizes = [size for size in map(dims.size_of, shape.prefix) if size is not None]
        return shape_rules.index_problem(index, math.prod(sizes), None) if len(sizes) == shape.rank else None
    if shape_rules.axis_problem(shape, axis) is not None:
        return None  # the axis is the mistake: take_shape reports it
    return shape_rules.index_problem(index, dims.size_of(shape.prefix[axis]), axis)


def _result(
    ctx: CallContext, op: str, shape: MypyShape | shape_rules.Problem, dtype: Type, operands: Sequence[Operand], where: Context | None = None
) -> Type:
    """``Tensor[dtype, *shape]``, or the problem reported (at the axis argument for a bad axis)
    and a tensor of unknown dims, so one bug gives one error."""
    if not isinstance(shape, shape_rules.Problem):
        return new_tensor(ctx.api, dtype, shape)
    if where is None and isinstance(shape, shape_rules.AxisOutOfRange) and "axis" in ctx.callee_arg_names:
        passed = ctx.args[ctx.callee_arg_names.index("axis")]
        where = passed[0] if passed else None
    report(ctx, shape, op, operands, where)
    return unknown_tensor(ctx.api, dtype)


FUNCTION_HOOKS: Final[dict[str, FunctionHook]] = {
    **{AXIS_OPS[op]: functools.partial(argextreme_hook, op) for op in ("argmax", "argmin")},
    **{AXIS_OPS[op]: functools.partial(normalise_hook, op) for op in ("softmax", "log_softmax")},
    AXIS_OPS["logsumexp"]: logsumexp_hook,
    AXIS_OPS["take"]: take_hook,
    AXIS_OPS["take_along_axis"]: take_along_axis_hook,
}
