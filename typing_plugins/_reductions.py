"""Hooks of the reductions (``reduce_sum`` ... and ``x.sum`` ...) and of ``zeros``/``ones``/``full``."""

from __future__ import annotations

import functools
from typing import Final

from mypy.errorcodes import ARG_TYPE
from mypy.plugin import MethodContext
from mypy.types import AnyType, Instance, LiteralType, Type, TypeOfAny, TypeVarType, UnpackType, get_proper_type

from typing_plugins._arguments import axis_argument, bool_axis, dtype_argument, keepdims_argument, sizes_argument
from typing_plugins._calls import CallContext, FunctionHook, MethodHook, NotUnderstood, dtype_type, guarded, int_type, new_tensor, report, unknown_tensor
from typing_plugins._names import CREATION, DIM, REDUCTIONS, TENSOR
from typing_plugins._rules import shape_rules
from typing_plugins._tensor_types import TensorType, dtype_name, int_literal, tensor_type


def reduce_function_hook(op: str, ctx: CallContext) -> Type:
    """``reduce_<op>(x, axis, keepdims)``: the tensor is the first argument."""
    if len(ctx.arg_types) < 1 or len(ctx.arg_types[0]) != 1:
        return ctx.default_return_type
    return guarded(ctx, lambda: infer_reduction(ctx, f"reduce_{op}", op, ctx.arg_types[0][0]))


def reduce_method_hook(op: str, ctx: MethodContext) -> Type:
    """``x.<op>(axis, keepdims)``: the tensor is the receiver."""
    return guarded(ctx, lambda: infer_reduction(ctx, op, op, ctx.type))


def creation_hook(ctx: CallContext) -> Type:
    """``zeros(shape, dtype)``, ``ones`` and ``full``: a literal size of ``shape`` is a ``Literal`` dim."""
    return guarded(ctx, lambda: _infer_creation(ctx))


def infer_reduction(ctx: CallContext, caller: str, op: str, receiver: Type) -> Type:
    """The result type of reducing ``receiver``; reports a bad axis or Selection."""
    tensor = tensor_type(receiver)
    if tensor is None:
        return ctx.default_return_type
    dtype = result_dtype_type(ctx, op, tensor.dtype)
    try:
        return _reduced(ctx, caller, tensor, dtype)
    except NotUnderstood:  # ``**options``, ``*axes``: the dims are unknown, the dtype is not
        return unknown_tensor(ctx.api, dtype)


def result_dtype_type(ctx: CallContext, op: str, dtype: Type) -> Type:
    """The result dtype of ``op`` (a reduction, a statistic, a scan) on a tensor of ``dtype``."""
    name = dtype_name(dtype)
    if name is None:  # a TypeVar or Any: what the rule says for every dtype
        return _any_dtype_result(ctx, op, dtype)
    result = shape_rules.result_dtype(op, name)
    return dtype if result == name else dtype_type(ctx.api, result)


def _reduced(ctx: CallContext, caller: str, tensor: TensorType, dtype: Type) -> Type:
    """The result of reducing ``tensor`` to ``dtype`` along the call's axis, or the problem reported."""
    axis = ctx.args[ctx.callee_arg_names.index("axis")]  # errors are about the axis: reported there
    boolean = bool_axis(ctx)
    if boolean is not None:
        # A bool is an int to the type system, so the declared type admits it; the runtime does not.
        ctx.api.fail(shape_rules.wrong_axis_kind(caller, boolean), axis[0], code=ARG_TYPE)
        return unknown_tensor(ctx.api, dtype)
    shape = shape_rules.reduce_shape(tensor.shape, axis_argument(ctx), keepdims_argument(ctx), LiteralType(1, int_type(ctx.api)))
    if isinstance(shape, shape_rules.Problem):
        report(ctx, shape, caller, [tensor], where=axis[0])
        return unknown_tensor(ctx.api, dtype)  # one bug, one error: the result's dims are unknown
    return new_tensor(ctx.api, dtype, shape)


def _any_dtype_result(ctx: CallContext, op: str, dtype: Type) -> Type:
    """The result dtype of ``op`` on a dtype not known by name: kept if every dtype keeps its own,
    the one dtype every dtype gives (``bool_`` for any/all), else ``Any``."""
    results = {shape_rules.result_dtype(op, name) for name in shape_rules.CONCRETE}
    if all(shape_rules.result_dtype(op, name) == name for name in shape_rules.CONCRETE):
        return dtype
    return dtype_type(ctx.api, results.pop()) if len(results) == 1 else AnyType(TypeOfAny.special_form)


def _infer_creation(ctx: CallContext) -> Type:
    """``Tensor[DT, ...]`` with a dim per item of ``shape``: ``Literal[n]``, a named dim or one the
    code computes (``2 * x.shape[0]``, SPEC §9), else what is declared.

    As an argument, the call is inferred in the parameter's context, which may solve the shape
    to ``*tuple[Any, ...]`` and the dtype to ``Any``: the arguments still say what they are.
    """
    declared = get_proper_type(ctx.default_return_type)
    sizes = sizes_argument(ctx, "shape")
    if not isinstance(declared, Instance) or declared.type.fullname != TENSOR:
        return ctx.default_return_type
    declared_dtype, *dims = declared.args
    dtype = dtype_argument(ctx) or declared_dtype
    if isinstance(sizes, shape_rules.Unknown):
        return unknown_tensor(ctx.api, dtype)  # declared, the run would be of ``int``, not of dims
    if len(dims) != len(sizes) or any(isinstance(dim, UnpackType) for dim in dims):
        dims = [AnyType(TypeOfAny.special_form)] * len(sizes)
    return new_tensor(ctx.api, dtype, shape_rules.Shape(tuple(map(_size_dim, sizes, dims))))


def _size_dim(size: Type | shape_rules.Unknown, declared: Type) -> Type | shape_rules.Unknown:
    """The dim of a size; for an unknown one a named dim as declared, else unknown.

    mypy solves the declared dims from the display's item types: ``int`` (its literals widened),
    ``np.int64``, an ``int`` subclass, ``bool``, none of them a dim. A named dim (a ``Dim`` from
    ``x.shape``, a TypeVar) stays, so a size known only at run time fits a literal annotation.
    """
    if not isinstance(size, shape_rules.Unknown):
        value = int_literal(size)
        return shape_rules.UNKNOWN if value is not None and value < 0 else size  # a negative size fails at run time
    proper = get_proper_type(declared)
    named = isinstance(proper, TypeVarType) or (isinstance(proper, Instance) and proper.type.has_base(DIM))
    return declared if named else shape_rules.UNKNOWN


FUNCTION_HOOKS: Final[dict[str, FunctionHook]] = {
    **{fullname: functools.partial(reduce_function_hook, op) for op, fullname in REDUCTIONS.items()},
    **{CREATION[name]: creation_hook for name in ("zeros", "ones", "full")},
}
METHOD_HOOKS: Final[dict[str, MethodHook]] = {op: functools.partial(reduce_method_hook, op) for op in shape_rules.REDUCTION_OPS}
