"""Hooks of the layers: ``conv2d``, ``max_pool2d``, ``avg_pool2d`` and ``layer_norm``, on the shared layers' rules.

The declared types know batch and channel dims only; a hook computes the spatial dims
(``(H + 2P - K) // S + 1``: a literal on literal sizes, the §9 normal form where it is exact,
unknown elsewhere) and reports channels that differ, windows larger than the input and dtypes
that are not floats. A stride, padding or window that is no literal (or a pair of literals) makes
its dims unknown; one out of range keeps the declared type (the run refuses it).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final

from mypy.nodes import ArgKind
from mypy.subtypes import is_same_type
from mypy.types import AnyType, Instance, NoneType, TupleType, Type, TypeOfAny, TypeVarType, UnpackType, get_proper_type

from typing_plugins._arguments import single_axis_argument
from typing_plugins._calls import CallContext, FunctionHook, NotUnderstood, dtype_type, guarded, mypy_dims, new_tensor, report, unknown_tensor
from typing_plugins._names import DIM, LAYERS
from typing_plugins._rules import shape_rules
from typing_plugins._tensor_types import DIM_EXPRESSION_CLASSES, TensorType, dtype_name, int_literal, tensor_type

MypyShape = shape_rules.Shape[Type, UnpackType]


def conv2d_hook(ctx: CallContext) -> Type:
    """``conv2d(x, w, stride=1, padding=0)``."""

    def infer() -> Type:
        x, w = _tensor(ctx, "x"), _tensor(ctx, "w")
        stride, padding = _pair_argument(ctx, "stride", 1, least=1), _pair_argument(ctx, "padding", 0)
        if stride is None or padding is None:
            raise NotUnderstood
        shape = shape_rules.conv2d_shape(x.shape, w.shape, stride, padding, mypy_dims(ctx.api))
        return _result(ctx, "conv2d", shape, [x, w])

    return guarded(ctx, infer)


def pool2d_hook(op: str, ctx: CallContext) -> Type:
    """``max_pool2d(x, size, stride=None)``, ``avg_pool2d(...)``: the stride is the size if None."""

    def infer() -> Type:
        x, size = _tensor(ctx, "x"), _pair_argument(ctx, "size", None, least=1)
        if size is None:
            raise NotUnderstood
        stride = _pair_argument(ctx, "stride", None, least=1) or size
        return _result(ctx, op, shape_rules.pool2d_shape(x.shape, size, stride, mypy_dims(ctx.api)), [x])

    return guarded(ctx, infer)


def layer_norm_hook(ctx: CallContext) -> Type:
    """``layer_norm(x, axis=-1, eps=1e-5)``: the shape kept once the axis is in range."""

    def infer() -> Type:
        x, axis = _tensor(ctx, "x"), single_axis_argument(ctx, -1)
        if axis is None:
            raise NotUnderstood
        problem = shape_rules.axis_problem(x.shape, axis)
        return _result(ctx, "layer_norm", x.shape if problem is None else problem, [x])

    return guarded(ctx, infer)


def _result(ctx: CallContext, op: str, shape: MypyShape | shape_rules.Problem, operands: Sequence[TensorType]) -> Type:
    """The result tensor, or the call's problem reported (a dtype's first) and a tensor of unknown dims."""
    names = [dtype_name(tensor.dtype) for tensor in operands]
    known = [name for name in names if name is not None]
    dtype_rule = shape_rules.layer_dtype(*known) if known else None
    if isinstance(dtype_rule, shape_rules.Problem):
        report(ctx, dtype_rule, op, operands)
        return unknown_tensor(ctx.api, AnyType(TypeOfAny.from_error))
    dtype = dtype_type(ctx.api, dtype_rule) if dtype_rule is not None and len(known) == len(names) else _shared_dtype(operands)
    if isinstance(shape, shape_rules.Problem):
        report(ctx, shape, op, operands)
        return unknown_tensor(ctx.api, dtype)  # one bug, one error
    return new_tensor(ctx.api, dtype, shape)


def _shared_dtype(operands: Sequence[TensorType]) -> Type:
    """The operands' one dtype that is no dtype's name (a TypeVar ``FloatingT``), kept as the
    layers keep a float dtype; ``Any`` if they differ (two TypeVars may promote to anything)."""
    first = operands[0].dtype
    return first if all(is_same_type(tensor.dtype, first) for tensor in operands[1:]) else AnyType(TypeOfAny.special_form)


def _tensor(ctx: CallContext, formal: str) -> TensorType:
    types = ctx.arg_types[ctx.callee_arg_names.index(formal)] if formal in ctx.callee_arg_names else []
    tensor = tensor_type(types[0]) if len(types) == 1 else None
    if tensor is None:
        raise NotUnderstood
    return tensor


def _pair_argument(ctx: CallContext, formal: str, default: int | None, least: int = 0) -> tuple[int | shape_rules.Unknown, int | shape_rules.Unknown] | None:
    """A stride, padding or window as a pair (height, width): ``default`` for both when not passed,
    None when None is passed (or nothing, without a default)."""
    if formal not in ctx.callee_arg_names:
        raise NotUnderstood
    index = ctx.callee_arg_names.index(formal)
    if not ctx.arg_types[index]:
        return None if default is None else (default, default)
    if len(ctx.arg_types[index]) != 1 or ctx.arg_kinds[index][0] not in (ArgKind.ARG_POS, ArgKind.ARG_NAMED):
        raise NotUnderstood  # *args or **kwargs
    proper = get_proper_type(ctx.arg_types[index][0])
    if isinstance(proper, NoneType):
        return None
    if isinstance(proper, TupleType) and len(proper.items) == 2:
        return _size(proper.items[0], least), _size(proper.items[1], least)
    size = _size(proper, least)
    return size, size


def _size(typ: Type, least: int) -> int | shape_rules.Unknown:
    """One literal size (at least ``least``, else not understood: the run refuses it), or ``UNKNOWN``
    for an int known at run time: a plain ``int``, or a dim read from a shape (``x.shape[2]``, whose
    type is the dim: a TypeVar, a ``Dim`` class, an expression)."""
    value = int_literal(typ)
    if value is not None:
        if value < least:
            raise NotUnderstood
        return value
    proper = get_proper_type(typ)
    if isinstance(proper, (AnyType, TypeVarType)) or (isinstance(proper, Instance) and _is_size(proper)):
        return shape_rules.UNKNOWN
    raise NotUnderstood


def _is_size(instance: Instance) -> bool:
    """An int (not a bool: the run refuses it), a named dim or a dim expression."""
    if instance.type.has_base(DIM) or instance.type.fullname in DIM_EXPRESSION_CLASSES:
        return True
    return instance.type.has_base("builtins.int") and not instance.type.has_base("builtins.bool")


FUNCTION_HOOKS: Final[dict[str, FunctionHook]] = {
    LAYERS["conv2d"]: conv2d_hook,
    LAYERS["max_pool2d"]: functools.partial(pool2d_hook, "max_pool2d"),
    LAYERS["avg_pool2d"]: functools.partial(pool2d_hook, "avg_pool2d"),
    LAYERS["layer_norm"]: layer_norm_hook,
}
