"""Hooks of swapaxes, moveaxis, flatten, split, pad, tril/triu and one_hot, and of the creation
functions of one count (``linspace``, ``random.permutation``) or a shape (``random.integers``).

Each reads its literal arguments, asks the op's shared rule and builds the result (``split``: a
tuple of as many tensors as parts), or reports the rule's problem and gives unknown dims. What a
hook does not understand keeps the declared type. (``zeros_like`` and the like need no hook: their
declared types keep the shape exactly.)
"""

from __future__ import annotations

import functools
from typing import Final

from mypy.nodes import ListExpr, TupleExpr
from mypy.plugin import FunctionContext
from mypy.types import TupleType, Type, get_proper_type

from typing_plugins._arguments import axis_argument, dim_argument, dtype_argument, int_argument, sizes_argument
from typing_plugins._calls import CallContext, FunctionHook, NotUnderstood, dtype_type, guarded, mypy_dims, new_tensor, report, unknown_tensor
from typing_plugins._creation import _infer_sized
from typing_plugins._names import CREATION_MORE, RANDOM_MORE, REARRANGING
from typing_plugins._reductions import creation_hook
from typing_plugins._rules import shape_rules
from typing_plugins._shaping import Outcome, function_hook
from typing_plugins._tensor_types import TensorType, dtype_name, int_literal, tensor_type, type_text


def _swapaxes(ctx: CallContext, tensor: TensorType) -> Outcome:
    return shape_rules.swapaxes_shape(tensor.shape, int_argument(ctx, "axis1"), int_argument(ctx, "axis2")), None


def _moveaxis(ctx: CallContext, tensor: TensorType) -> Outcome:
    source, destination = axis_argument(ctx, "source"), axis_argument(ctx, "destination")
    if not isinstance(source, tuple) or not isinstance(destination, tuple):
        raise NotUnderstood  # a sequence of unknown length
    return shape_rules.moveaxis_shape(tensor.shape, source, destination), None


def _flatten(ctx: CallContext, tensor: TensorType) -> Outcome:
    start, end = int_argument(ctx, "start", 0), int_argument(ctx, "end", -1)
    return shape_rules.flatten_shape(tensor.shape, start, end, mypy_dims(ctx.api)), None


def _pad(ctx: CallContext, tensor: TensorType) -> Outcome:
    return shape_rules.pad_shape(tensor.shape, _widths(ctx), mypy_dims(ctx.api)), None


def _triangle(ctx: CallContext, tensor: TensorType) -> Outcome:
    return shape_rules.matrix_kept_shape(tensor.shape), None


def _widths(ctx: CallContext) -> shape_rules.Widths:
    """``pad``'s widths as pairs: an int, a display of two ints, or a display of pairs."""
    expr = ctx.args[ctx.callee_arg_names.index("widths")][0]
    if not isinstance(expr, (TupleExpr, ListExpr)):
        typ = ctx.api.get_expression_type(expr)
        return shape_rules.UNKNOWN if isinstance(get_proper_type(typ), TupleType) else ((_width(typ), _width(typ)),)
    pairs = [item.items for item in expr.items if isinstance(item, (TupleExpr, ListExpr))]
    if pairs and len(pairs) == len(expr.items):
        if any(len(pair) != 2 for pair in pairs):
            raise NotUnderstood  # refused at run time
        return tuple((_width(ctx.api.get_expression_type(before)), _width(ctx.api.get_expression_type(after))) for before, after in pairs)
    widths = [_width(ctx.api.get_expression_type(item)) for item in expr.items]
    if len(widths) not in (1, 2):
        raise NotUnderstood
    return ((widths[0], widths[-1]),)


def _width(typ: Type) -> int | shape_rules.Unknown:
    value = int_literal(typ)
    return shape_rules.UNKNOWN if value is None else value


def split_hook(ctx: FunctionContext) -> Type:
    """``split(x, sections, axis)``: a tuple of one tensor per part."""
    return guarded(ctx, lambda: _infer_split(ctx))


def _infer_split(ctx: FunctionContext) -> Type:
    tensor = tensor_type(ctx.arg_types[0][0]) if ctx.arg_types and len(ctx.arg_types[0]) == 1 else None
    if tensor is None:
        raise NotUnderstood
    expr = ctx.args[ctx.callee_arg_names.index("sections")][0]
    sections: shape_rules.Sections[Type]
    if isinstance(expr, (TupleExpr, ListExpr)):
        sizes = sizes_argument(ctx, "sections")
        if isinstance(sizes, shape_rules.Unknown):
            raise NotUnderstood
        sections, written = sizes, shape_rules.format_sizes([type_text(size, ctx.api.options) for size in sizes])
    else:
        sections = int_argument(ctx, "sections")
        written = f"{sections} equal parts"
    parts = shape_rules.split_shapes(tensor.shape, sections, int_argument(ctx, "axis", 0), mypy_dims(ctx.api))
    if isinstance(parts, shape_rules.Problem):
        report(ctx, parts, "split", [tensor, written])
        return ctx.default_return_type  # a tuple of any length, of tensors of unknown dims
    if not isinstance(parts, tuple):
        return ctx.default_return_type  # a count known only at run time
    fallback = ctx.api.named_generic_type("builtins.tuple", [unknown_tensor(ctx.api, tensor.dtype)])
    return TupleType([new_tensor(ctx.api, tensor.dtype, part) for part in parts], fallback)


def one_hot_hook(ctx: FunctionContext) -> Type:
    """``one_hot(indices, n, dtype)``: the indices' dims and ``n``, in ``dtype`` (float32 by default)."""
    return guarded(ctx, lambda: _infer_one_hot(ctx))


def _infer_one_hot(ctx: FunctionContext) -> Type:
    tensor = tensor_type(ctx.arg_types[0][0]) if ctx.arg_types and len(ctx.arg_types[0]) == 1 else None
    if tensor is None:
        raise NotUnderstood
    dtype = dtype_argument(ctx) or dtype_type(ctx.api, "float32")
    name = dtype_name(tensor.dtype)
    refused = None if name is None else shape_rules.one_hot_dtype_problem(name)
    count = dim_argument(ctx, "n")
    shape = refused or shape_rules.one_hot_shape(tensor.shape, shape_rules.UNKNOWN if count is None else count, mypy_dims(ctx.api))
    if isinstance(shape, shape_rules.Problem):
        report(ctx, shape, "one_hot", [tensor])
        return unknown_tensor(ctx.api, dtype)
    return new_tensor(ctx.api, dtype, shape)


def counted_hook(op: str, parameter: str, ctx: FunctionContext) -> Type:
    """``linspace(start, stop, num)``, ``random.permutation(n)``: one dim of the count."""
    return guarded(ctx, lambda: _infer_counted(ctx, op, parameter))


def _infer_counted(ctx: FunctionContext, op: str, parameter: str) -> Type:
    count = dim_argument(ctx, parameter)
    if count is None:
        raise NotUnderstood
    return _infer_sized(ctx, op, shape_rules.counted_shape(count, parameter, mypy_dims(ctx.api)))


_ONE_TENSOR_OPS: Final = {
    "swapaxes": _swapaxes,
    "moveaxis": _moveaxis,
    "flatten": _flatten,
    "pad": _pad,
    "tril": _triangle,
    "triu": _triangle,
}

FUNCTION_HOOKS: Final[dict[str, FunctionHook]] = {
    **{REARRANGING[op]: functools.partial(function_hook, op, infer) for op, infer in _ONE_TENSOR_OPS.items()},
    REARRANGING["split"]: split_hook,
    REARRANGING["one_hot"]: one_hot_hook,
    CREATION_MORE["linspace"]: functools.partial(counted_hook, "linspace", "num"),
    RANDOM_MORE["permutation"]: functools.partial(counted_hook, "permutation", "n"),
    RANDOM_MORE["integers"]: creation_hook,
}
