"""Hooks of the ops that rearrange dims (reshape, transpose and ``.T``, expand_dims, squeeze,
tile, broadcast_to) and of the joins (concat, stack).

Every op of one tensor keeps its dtype; a hook reads the op's other argument, asks the op's
rule and builds the result, or reports the rule's problem (naming the target as written, for
the ops that take one) and gives unknown dims, so that one mistake is one error.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Final, TypeAlias

from mypy.plugin import AttributeContext, FunctionContext, MethodContext
from mypy.types import Instance, Type, get_proper_type

from typing_plugins._arguments import axis_argument, int_argument, sizes_argument, tensors_argument
from typing_plugins._calls import CallContext, FunctionHook, MethodHook, NotUnderstood, guarded, mypy_dims, new_tensor, report, unknown_tensor
from typing_plugins._linalg import promoted_dtype
from typing_plugins._names import SHAPING, TENSOR
from typing_plugins._rules import shape_rules
from typing_plugins._tensor_types import MypyShape, TensorType, tensor_type, type_text

AttributeHook: TypeAlias = Callable[[AttributeContext], Type]
#: What an op's rule says of a call: the result shape, or a problem and the text of the target
#: the problem names beside the tensor (None for ops that take no target).
Outcome: TypeAlias = tuple[MypyShape | shape_rules.Problem, str | None]
Infer: TypeAlias = Callable[[CallContext, TensorType], Outcome]


def _reshape(ctx: CallContext, tensor: TensorType) -> Outcome:
    return _with_sizes(ctx, tensor, "shape", shape_rules.reshape_shape)


def _tile(ctx: CallContext, tensor: TensorType) -> Outcome:
    return _with_sizes(ctx, tensor, "reps", shape_rules.tile_shape)


def _broadcast_to(ctx: CallContext, tensor: TensorType) -> Outcome:
    return _with_sizes(ctx, tensor, "shape", shape_rules.broadcast_to_shape)


def _with_sizes(ctx: CallContext, tensor: TensorType, formal: str, rule: Callable[..., MypyShape | shape_rules.Problem]) -> Outcome:
    """An op whose argument ``formal`` is sizes (a shape, repetitions)."""
    sizes = sizes_argument(ctx, formal)
    if isinstance(sizes, shape_rules.Unknown):
        return rule(tensor.shape, sizes, mypy_dims(ctx.api)), None  # a sequence of unknown length is never a problem
    text = shape_rules.format_sizes([type_text(size, ctx.api.options) for size in sizes])
    return rule(tensor.shape, sizes, mypy_dims(ctx.api)), text


def _transpose(ctx: CallContext, tensor: TensorType) -> Outcome:
    perm = axis_argument(ctx, "perm")  # an int is the 1-tuple of it, as at run time
    if isinstance(perm, (str, int)):
        raise NotUnderstood  # not a sequence of ints: mypy reports it
    return shape_rules.permute_shape(tensor.shape, perm), None


def _expand_dims(ctx: CallContext, tensor: TensorType) -> Outcome:
    return shape_rules.expand_dims_shape(tensor.shape, int_argument(ctx, "axis"), mypy_dims(ctx.api)), None


def _squeeze(ctx: CallContext, tensor: TensorType) -> Outcome:
    return shape_rules.squeeze_shape(tensor.shape, axis_argument(ctx), mypy_dims(ctx.api)), None


def function_hook(op: str, infer: Infer, ctx: FunctionContext) -> Type:
    """``op(x, ...)``: the tensor is the first argument."""
    if not ctx.arg_types or len(ctx.arg_types[0]) != 1:
        return ctx.default_return_type
    return guarded(ctx, lambda: _infer(ctx, op, infer, ctx.arg_types[0][0]))


def method_hook(op: str, infer: Infer, ctx: MethodContext) -> Type:
    """``x.op(...)``: the tensor is the receiver."""
    return guarded(ctx, lambda: _infer(ctx, op, infer, ctx.type))


def _infer(ctx: CallContext, op: str, infer: Infer, receiver: Type) -> Type:
    tensor = tensor_type(receiver)
    if tensor is None:
        raise NotUnderstood
    shape, target = infer(ctx, tensor)
    if isinstance(shape, shape_rules.Problem):
        report(ctx, shape, op, [tensor] if target is None else [tensor, target])
        return unknown_tensor(ctx.api, tensor.dtype)  # one bug, one error
    return new_tensor(ctx.api, tensor.dtype, shape)


def join_hook(op: str, ctx: FunctionContext) -> Type:
    """``concat(tensors, axis)`` and ``stack``: the joined shape, the tensors' dtypes promoted."""
    return guarded(ctx, lambda: _infer_join(ctx, op))


def _infer_join(ctx: FunctionContext, op: str) -> Type:
    types, count_known = tensors_argument(ctx)
    tensors = [tensor_type(typ) for typ in types]
    known = [tensor for tensor in tensors if tensor is not None]
    if len(known) < len(tensors):
        raise NotUnderstood
    rule = shape_rules.concat_shape if op == "concat" else shape_rules.stack_shape
    shape = rule([tensor.shape for tensor in known], int_argument(ctx, "axis", 0), mypy_dims(ctx.api), count_known)
    dtype = promoted_dtype(ctx, known) if known else ctx.default_return_type
    if isinstance(shape, shape_rules.Problem):
        report(ctx, shape, op, known)
        return unknown_tensor(ctx.api, dtype)
    return new_tensor(ctx.api, dtype, shape)


def transposed_attribute_hook(ctx: AttributeContext) -> Type:
    """``x.T``: the dims reversed."""
    tensor = tensor_type(ctx.type)
    if tensor is None or ctx.is_lvalue:
        return ctx.default_attr_type
    shape = shape_rules.permute_shape(tensor.shape, None)
    assert not isinstance(shape, shape_rules.Problem)  # reversing always runs
    # ``Tensor``'s class from the receiver: mypy reads ``T`` while checking Tensor's own module,
    # before the package that re-exports the name is analysed
    receiver = get_proper_type(ctx.type)
    tensor_class = next(info for info in receiver.type.mro if info.fullname == TENSOR) if isinstance(receiver, Instance) else None
    return new_tensor(ctx.api, tensor.dtype, shape, tensor_class)


_ONE_TENSOR_OPS: Final[dict[str, Infer]] = {
    "reshape": _reshape,
    "transpose": _transpose,
    "expand_dims": _expand_dims,
    "squeeze": _squeeze,
    "tile": _tile,
    "broadcast_to": _broadcast_to,
}

FUNCTION_HOOKS: Final[dict[str, FunctionHook]] = {
    **{SHAPING[op]: functools.partial(function_hook, op, infer) for op, infer in _ONE_TENSOR_OPS.items()},
    **{SHAPING[op]: functools.partial(join_hook, op) for op in ("concat", "stack")},
}
METHOD_HOOKS: Final[dict[str, MethodHook]] = {"reshape": functools.partial(method_hook, "reshape", _reshape)}
ATTRIBUTE_HOOKS: Final[dict[str, AttributeHook]] = {f"{TENSOR}.T": transposed_attribute_hook}
