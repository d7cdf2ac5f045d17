"""Hooks of the creation functions: ``zeros``/``ones``/``full`` and ``random.normal``/``uniform``
take their dims from a shape tuple, ``arange`` and ``eye`` from sizes."""

from __future__ import annotations

from typing import Final

from mypy.types import AnyType, Instance, LiteralType, Type, TypeOfAny, UnpackType, get_proper_type

from typing_plugins._arguments import dim_argument, shape_argument
from typing_plugins._calls import CallContext, FunctionHook, NotUnderstood, guarded, int_type, mypy_dims, new_tensor, report, unknown_tensor
from typing_plugins._rules import shape_rules
from typing_plugins._tensor_types import TENSOR


def creation_hook(ctx: CallContext) -> Type:
    """``zeros(shape, dtype)`` and the others taking a shape: a literal size is a ``Literal`` dim."""
    return guarded(ctx, lambda: _infer_creation(ctx))


def arange_hook(ctx: CallContext) -> Type:
    """``arange(stop)``, ``arange(start, stop, step)``: one dim, ``stop`` itself counting from 0 by 1."""
    return guarded(ctx, lambda: _infer_sized(ctx, "arange", _arange_shape(ctx)))


def eye_hook(ctx: CallContext) -> Type:
    """``eye(n, m)``: ``n`` rows and ``m`` columns (``n`` when ``m`` is left out)."""
    return guarded(ctx, lambda: _infer_sized(ctx, "eye", shape_rules.eye_shape(_required(_size(ctx, "n")), _size(ctx, "m"))))


def _infer_creation(ctx: CallContext) -> Type:
    """``Tensor[DT, ...]`` with a dim per item of ``shape``: ``Literal[n]``, or what is declared.

    As an argument, the call is inferred in the parameter's context, which may solve the shape
    to ``*tuple[Any, ...]``: the shape argument still says how many dims there are.
    """
    declared = get_proper_type(ctx.default_return_type)
    sizes = shape_argument(ctx)
    if not isinstance(declared, Instance) or declared.type.fullname != TENSOR:
        return ctx.default_return_type
    dtype, *dims = declared.args
    if len(dims) != len(sizes) or any(isinstance(dim, UnpackType) for dim in dims):
        dims = [AnyType(TypeOfAny.special_form)] * len(sizes)
    builtin_int = int_type(ctx.api)
    return new_tensor(ctx.api, dtype, shape_rules.Shape(tuple(_size_dim(size, dim, builtin_int) for size, dim in zip(sizes, dims))))


def _size_dim(size: int | shape_rules.Unknown, declared: Type, builtin_int: Instance) -> Type:
    """``Literal[size]``; for an unknown size the declared dim, with ``int`` made ``Any``.

    mypy widens the items of a tuple display to ``int``, which no ``Literal`` dim accepts, so a
    size known only at run time is ``Any``. Other declared dims (a ``Dim`` from ``x.shape``) stay.
    """
    if isinstance(size, int):
        return LiteralType(size, builtin_int)
    proper = get_proper_type(declared)
    widened = isinstance(proper, Instance) and proper.type.fullname == "builtins.int"
    return AnyType(TypeOfAny.special_form) if widened else declared


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


_SHAPED: Final = ("_creation.zeros", "_creation.ones", "_creation.full", "random.normal", "random.uniform")
FUNCTION_HOOKS: Final[dict[str, FunctionHook]] = {
    **{f"typedtensor.{name}": creation_hook for name in _SHAPED},
    "typedtensor._creation.arange": arange_hook,
    "typedtensor._creation.eye": eye_hook,
}
