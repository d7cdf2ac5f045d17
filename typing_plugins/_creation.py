"""Hooks of the creation functions ``arange`` and ``eye``, which take sizes, and of ``random.normal``
and ``random.uniform``, which take a shape tuple as ``zeros`` does (and share its hook)."""

from __future__ import annotations

from typing import Final

from mypy.types import Instance, Type, UnpackType, get_proper_type

from typing_plugins._arguments import dim_argument
from typing_plugins._calls import CallContext, FunctionHook, NotUnderstood, guarded, mypy_dims, new_tensor, report, unknown_tensor
from typing_plugins._names import CREATION, RANDOM, TENSOR
from typing_plugins._reductions import creation_hook
from typing_plugins._rules import shape_rules


def arange_hook(ctx: CallContext) -> Type:
    """``arange(stop)``, ``arange(start, stop, step)``: one dim, ``stop`` itself counting from 0 by 1."""
    return guarded(ctx, lambda: _infer_sized(ctx, "arange", _arange_shape(ctx)))


def eye_hook(ctx: CallContext) -> Type:
    """``eye(n, m)``: ``n`` rows and ``m`` columns (``n`` when ``m`` is left out)."""
    return guarded(ctx, lambda: _infer_sized(ctx, "eye", shape_rules.eye_shape(_required(_size(ctx, "n")), _size(ctx, "m"))))


def _arange_shape(ctx: CallContext) -> shape_rules.Shape[Type, UnpackType] | shape_rules.Problem:
    start = _required(dim_argument(ctx, "start"))
    return shape_rules.arange_shape(start, dim_argument(ctx, "stop"), dim_argument(ctx, "step"), mypy_dims(ctx.api))


def _required(dim: Type | shape_rules.Unknown | None) -> Type | shape_rules.Unknown:
    if dim is None:
        raise NotUnderstood  # a required argument left out: mypy reports the call
    return dim


def _size(ctx: CallContext, formal: str) -> Type | shape_rules.Unknown | None:
    """A size argument of ``eye`` as a dim; a negative literal (refused at run time) is unknown."""
    dim = dim_argument(ctx, formal)
    size = mypy_dims(ctx.api).size_of(dim) if dim is not None else None
    return shape_rules.UNKNOWN if size is not None and size < 0 else dim


def _infer_sized(ctx: CallContext, op: str, shape: shape_rules.Shape[Type, UnpackType] | shape_rules.Problem) -> Type:
    """The declared tensor type (its dtype) with the dims of ``shape``; reports a problem."""
    declared = get_proper_type(ctx.default_return_type)
    if not isinstance(declared, Instance) or declared.type.fullname != TENSOR:
        return ctx.default_return_type
    if isinstance(shape, shape_rules.Problem):
        report(ctx, shape, op, [])
        return unknown_tensor(ctx.api, declared.args[0])
    return new_tensor(ctx.api, declared.args[0], shape)


FUNCTION_HOOKS: Final[dict[str, FunctionHook]] = {
    **dict.fromkeys(RANDOM.values(), creation_hook),
    CREATION["arange"]: arange_hook,
    CREATION["eye"]: eye_hook,
}
