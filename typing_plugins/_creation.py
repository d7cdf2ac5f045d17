"""Hooks of the creation functions ``arange`` and ``eye``, which take sizes, of ``random.normal``
and ``random.uniform``, which take a shape tuple as ``zeros`` does (and share its hook), and of
``tensor``, which takes its dtype and dims from its data."""

from __future__ import annotations

import re
from typing import Final

from mypy.maptype import map_instance_to_supertype
from mypy.nodes import Expression
from mypy.plugin import FunctionContext
from mypy.types import AnyType, Instance, LiteralType, TupleType, Type, TypeOfAny, UnpackType, get_proper_type

from typing_plugins._arguments import data_argument, dim_argument, dtype_argument, nested_data
from typing_plugins._calls import (
    CallContext,
    FunctionHook,
    NotUnderstood,
    dtype_type,
    guarded,
    int_type,
    mypy_dims,
    new_tensor,
    report,
    unknown_tensor,
)
from typing_plugins._names import CREATION, RANDOM, TENSOR
from typing_plugins._reductions import creation_hook
from typing_plugins._rules import shape_rules
from typing_plugins._tensor_types import MypyShape, int_literal, tensor_type


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


def tensor_hook(ctx: FunctionContext) -> Type:
    """``tensor(data, dtype=None)``: the dtype and dims of a Tensor, of an ndarray (numpy's static
    type), of nested lists of scalars (their sizes, and numpy's dtype for them); ``dtype`` overrides."""
    return guarded(ctx, lambda: _infer_tensor(ctx))


def _infer_tensor(ctx: FunctionContext) -> Type:
    dtype, shape = _data_type(ctx, *data_argument(ctx))
    return new_tensor(ctx.api, dtype_argument(ctx) or dtype, shape)


def _data_type(ctx: FunctionContext, typ: Type, expr: Expression) -> tuple[Type, MypyShape]:
    """The dtype and shape of ``tensor(data)``."""
    tensor = tensor_type(typ)
    if tensor is not None:
        return tensor.dtype, tensor.shape
    array = _as_ndarray(typ)
    if array is not None:
        shape, dtype = array.args
        return _dtype_named(ctx, _numpy_dtype_name(dtype)), _numpy_shape(ctx, shape)
    data = nested_data(ctx, expr)
    items: list[shape_rules.NestedData] = data if isinstance(data, list) else [data]
    sizes = shape_rules.data_shape(items) if isinstance(data, list) else ()
    if sizes is None:
        raise NotUnderstood  # ragged: refused at run time
    dims = tuple(LiteralType(size, int_type(ctx.api)) for size in sizes)
    return _dtype_named(ctx, shape_rules.data_dtype(items)), shape_rules.Shape(dims)


def _as_ndarray(typ: Type) -> Instance | None:
    """``typ`` as ``np.ndarray[shape, dtype]`` (also a subclass of it), or None."""
    proper = get_proper_type(typ)
    if not isinstance(proper, Instance):
        return None
    ndarray = next((info for info in proper.type.mro if info.fullname == "numpy.ndarray"), None)
    return None if ndarray is None else map_instance_to_supertype(proper, ndarray)


def _dtype_named(ctx: FunctionContext, name: str | shape_rules.Unknown | None) -> Type:
    return AnyType(TypeOfAny.special_form) if name is None or isinstance(name, shape_rules.Unknown) else dtype_type(ctx.api, name)


def _numpy_shape(ctx: FunctionContext, shape: Type) -> MypyShape:
    """An ndarray's dims from numpy's shape type: ``tuple[int, int]`` is two unknown dims (a literal
    stays one), ``tuple[Any, ...]`` an unknown rank."""
    proper = get_proper_type(shape)
    if not isinstance(proper, TupleType) or any(isinstance(item, UnpackType) for item in proper.items):
        return shape_rules.Shape((), shape_rules.UNKNOWN)
    sizes = [int_literal(item) for item in proper.items]
    return shape_rules.Shape(tuple(shape_rules.UNKNOWN if size is None else LiteralType(size, int_type(ctx.api)) for size in sizes))


#: numpy's generic scalar classes by the dtypes' names they give with their bit widths.
_NUMPY_KINDS: Final = {"numpy.signedinteger": "int", "numpy.unsignedinteger": "uint", "numpy.floating": "float", "numpy.complexfloating": "complex"}
#: How numpy's stubs name a bit width: ``numpy._typing._nbit_base._32Bit``.
_BITS: Final = re.compile(r"_(\d+)Bit")


def _numpy_dtype_name(dtype: Type) -> str | None:
    """The dtype numpy's static ``np.dtype[scalar]`` names: ``float32`` for ``floating[_32Bit]``
    (or numpy's alias ``float32``); None for a bit width of several (``intp``) or an unknown one."""
    proper = get_proper_type(dtype)
    scalar = get_proper_type(proper.args[0]) if isinstance(proper, Instance) and proper.type.fullname == "numpy.dtype" and proper.args else None
    if not isinstance(scalar, Instance):
        return None
    if scalar.type.has_base("numpy.bool"):
        return "bool_"
    base = next((info for info in scalar.type.mro if info.fullname in _NUMPY_KINDS), None)
    if base is None:
        return None
    parts = map_instance_to_supertype(scalar, base).args  # a complex's two, each as wide
    widths = {_width(part) for part in parts}
    width = widths.pop() if len(widths) == 1 else None
    name = None if width is None else f"{_NUMPY_KINDS[base.fullname]}{width * len(parts)}"
    return name if name in shape_rules.CONCRETE else None


def _width(arg: Type) -> int | None:
    proper = get_proper_type(arg)
    match = _BITS.fullmatch(proper.type.name) if isinstance(proper, Instance) else None
    return int(match[1]) if match else None


FUNCTION_HOOKS: Final[dict[str, FunctionHook]] = {
    **dict.fromkeys(RANDOM.values(), creation_hook),
    CREATION["arange"]: arange_hook,
    CREATION["eye"]: eye_hook,
    CREATION["tensor"]: tensor_hook,
}
