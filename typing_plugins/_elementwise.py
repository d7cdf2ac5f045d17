"""Hooks of the elementwise ops: shapes kept or broadcast, dtypes by each op's rule, as the runtime does.

Functions and operators share one inference per kind of op (unary, binary, ``where``, cast). A
problem (shapes that do not broadcast, a dtype the op refuses) is reported once, and the result
then has unknown dims (and the dtype the rules still give), so the mistake gives no second error.

The ops are overloaded (the declared types for checkers without the plugin), and mypy picks an
overload by trying each with errors muted: a hook's error there would fail every overload and end
in a fallback with errors of its own. So a signature hook loosens each overload's tensors to
``Tensor[Any, *tuple[Any, ...]]`` (scalars stay as declared: two scalars are still an error), the
first one that fits is tried, and the result is the hook's alone, computed from the rules; a
TypeVar dtype is kept where the rule keeps every dtype of its bound.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from typing import Final

from mypy.errorcodes import OPERATOR
from mypy.plugin import FunctionContext, MethodContext, MethodSigContext
from mypy.types import (
    AnyType,
    CallableType,
    FunctionLike,
    Instance,
    LiteralType,
    NoneType,
    Type,
    TypeOfAny,
    TypeType,
    TypeVarType,
    get_proper_type,
)

from typing_plugins._calls import (
    CallContext,
    FunctionHook,
    MethodHook,
    MethodSignatureHook,
    NotUnderstood,
    dtype_type,
    guarded,
    mypy_dims,
    new_tensor,
    note_failure,
    report,
    unknown_tensor,
)
from typing_plugins._names import CLIP, DTYPES_MODULE, ELEMENTWISE
from typing_plugins._rules import shape_rules
from typing_plugins._tensor_types import TensorType, dtype_name, tensor_type

#: A Python scalar operand by its kind (``"float"``), as the dtype rules know it.
Operand = TensorType | shape_rules.ScalarKind
#: A dtype rule over operand names (dtype, category or scalar kind): a name, or a problem.
DTypeRule = Callable[..., "str | shape_rules.Problem"]

#: The kind of a Python scalar by its type, or by the builtin it subclasses (numpy's float64 is a float).
_SCALAR_KINDS: Final[dict[str, shape_rules.ScalarKind]] = {
    "builtins.bool": "bool",
    "builtins.int": "int",
    "builtins.float": "float",
    "builtins.complex": "complex",
}


def _arguments(ctx: CallContext, count: int) -> list[Type]:
    """The types of the first ``count`` parameters, each given one plain argument; else not understood."""
    if len(ctx.arg_types) < count or any(len(types) != 1 for types in ctx.arg_types[:count]):
        raise NotUnderstood
    return [types[0] for types in ctx.arg_types[:count]]


def unary_function_hook(op: str, ctx: FunctionContext) -> Type:
    """``op(x)``."""
    return guarded(ctx, lambda: _infer_unary(ctx, op, *_arguments(ctx, 1)))


def unary_method_hook(op: str, ctx: MethodContext) -> Type:
    """``-x`` (``x.__neg__()``), ``+x``, ``abs(x)``."""
    return guarded(ctx, lambda: _infer_unary(ctx, op, ctx.type))


def binary_function_hook(op: str, ctx: FunctionContext) -> Type:
    """``op(x1, x2)``."""
    return guarded(ctx, lambda: _infer_binary(ctx, op, *_arguments(ctx, 2)))


def binary_method_hook(op: str, reflected: bool, ctx: MethodContext) -> Type:
    """``x + y`` (``x.__add__(y)``), or reflected ``2 + x`` (``x.__radd__(2)``)."""

    def infer() -> Type:
        (other,) = _arguments(ctx, 1)
        array = _array_name(other)
        if array is not None:  # ``x == a``: Tensor's ``__eq__`` takes any object, and refuses an array
            return _refuse_operand(ctx, op, "x1" if reflected else "x2", array)
        return _infer_binary(ctx, op, *((other, ctx.type) if reflected else (ctx.type, other)))

    return guarded(ctx, infer)


def array_operator_hook(name: str, ctx: MethodContext) -> Type:
    """``a + x`` with ``a`` an ndarray (``a.__add__(x)``), or ``x + a``, which mypy checks as
    ``a.__radd__(x)`` once Tensor's ``__add__`` refuses the array. numpy's stubs take a tensor;
    at run time numpy defers to it (``__array_ufunc__ = None``) and Tensor refuses the array."""
    if not ctx.arg_types or len(ctx.arg_types[0]) != 1 or tensor_type(ctx.arg_types[0][0]) is None:  # ``__pow__`` has a ``mod`` too
        return ctx.default_return_type
    array = _array_name(ctx.type) or "ndarray"
    if name in shape_rules.REFLECTED_METHODS:  # ``x + a``: Tensor's ``__add__(a)`` runs
        return _refuse_operand(ctx, shape_rules.REFLECTED_METHODS[name], "x2", array)
    op = shape_rules.BINARY_METHODS[name]
    if op in shape_rules.SWAPPED_COMPARISONS:  # ``a < x``: Tensor's ``__gt__(a)`` runs
        return _refuse_operand(ctx, shape_rules.SWAPPED_COMPARISONS[op], "x2", array)
    return _refuse_operand(ctx, op, "x1", array)  # ``a + x``: Tensor's ``__radd__(a)`` runs


def array_operator_signature(ctx: MethodSigContext) -> FunctionLike:
    """numpy's operator with a tensor operand takes it (each item of its overload), so that
    ``array_operator_hook`` reports the runtime's error: numpy's stubs refuse a tensor (to them it
    is no array-like, so that numpy's functions refuse it), and mypy's own error would list
    numpy's overloads instead of saying what to write."""
    signature = ctx.default_signature
    try:
        if ctx.args and ctx.args[0] and tensor_type(ctx.api.get_expression_type(ctx.args[0][0])) is not None:
            anything = ctx.api.named_generic_type("builtins.object", [])
            return signature.copy_modified(arg_types=[anything, *signature.arg_types[1:]])
    except Exception as error:  # a plugin bug must not stop the user's mypy run
        note_failure(ctx.api, ctx.context, error)
    return signature


def _array_name(typ: Type) -> str | None:
    """The class name of an ndarray type (what the runtime's message names); None for others.

    numpy scalars are left to mypy: its own error where the declared types refuse them, none for
    ``float64``, a ``float`` the runtime takes."""
    proper = get_proper_type(typ)
    if isinstance(proper, Instance) and proper.type.has_base("numpy.ndarray"):
        return proper.type.name
    return None


def _refuse_operand(ctx: CallContext, op: str, parameter: str, got: str) -> Type:
    ctx.api.fail(shape_rules.wrong_operand(op, parameter, got), ctx.context, code=OPERATOR)
    return unknown_tensor(ctx.api, AnyType(TypeOfAny.special_form))  # one bug, one error


def where_hook(ctx: FunctionContext) -> Type:
    """``where(condition, x1, x2)``."""
    return guarded(ctx, lambda: _infer_where(ctx, *_arguments(ctx, 3)))


def clip_hook(ctx: FunctionContext) -> Type:
    """``clip(x, low, high)``, a bound None where there is none."""
    return guarded(ctx, lambda: _infer_clip(ctx, *_arguments(ctx, 3)))


def cast_function_hook(op: str, ctx: FunctionContext) -> Type:
    """``cast(x, dtype)``."""
    return guarded(ctx, lambda: _infer_cast(ctx, op, *_arguments(ctx, 2)))


def cast_method_hook(op: str, ctx: MethodContext) -> Type:
    """``x.astype(dtype)``."""
    return guarded(ctx, lambda: _infer_cast(ctx, op, ctx.type, *_arguments(ctx, 1)))


def _infer_unary(ctx: CallContext, op: str, x: Type) -> Type:
    tensor = tensor_type(x)
    if tensor is None:
        raise NotUnderstood
    return _result(ctx, op, [tensor], [tensor], lambda name: shape_rules.unary_dtype(op, name))


def _infer_binary(ctx: CallContext, op: str, left: Type, right: Type) -> Type:
    operands = [_numpy_scalar(ctx, left) or operand(left), _numpy_scalar(ctx, right) or operand(right)]
    return _result(ctx, op, operands, operands, lambda x1, x2: shape_rules.binary_dtype(op, x1, x2))


def _infer_where(ctx: FunctionContext, condition: Type, left: Type, right: Type) -> Type:
    mask = tensor_type(condition)
    if mask is None:
        raise NotUnderstood
    values = [operand(left), operand(right)]
    return _result(ctx, "where", [mask, *values], values, shape_rules.where_dtype)


def _infer_clip(ctx: FunctionContext, x: Type, low: Type, high: Type) -> Type:
    tensor = tensor_type(x)
    if tensor is None:
        raise NotUnderstood
    given = [not isinstance(get_proper_type(bound), NoneType) for bound in (low, high)]
    operands = [tensor, *(_numpy_scalar(ctx, bound) or operand(bound) for bound, is_given in zip((low, high), given) if is_given)]

    def rule(x_name: str, *bound_names: str) -> str | shape_rules.Problem:
        names = iter(bound_names)
        return shape_rules.clip_dtype(x_name, *(next(names) if is_given else None for is_given in given))

    return _result(ctx, "clip", operands, operands, rule)


def _infer_cast(ctx: CallContext, op: str, x: Type, dtype: Type) -> Type:
    tensor, (marker, exact) = tensor_type(x), _marker(dtype)
    if tensor is None or marker is None:
        raise NotUnderstood
    name = dtype_name(marker)
    # Only the class itself is known to be a category: a ``type[floating]`` may be float32 at run time.
    problem = shape_rules.cast_dtype(name) if exact and name is not None else None
    if isinstance(problem, shape_rules.Problem):
        return _failed(ctx, problem, op, [tensor])
    return new_tensor(ctx.api, marker, tensor.shape)


def _result(ctx: CallContext, op: str, operands: Sequence[Operand], typed: Sequence[Operand], rule: DTypeRule) -> Type:
    """The result of ``op``: every tensor of ``operands`` broadcast, the dtype ``rule`` gives ``typed``.

    Shapes are checked first, as the runtime checks them.
    """
    tensors = [operand for operand in operands if isinstance(operand, TensorType)]
    if not tensors:
        raise NotUnderstood  # two scalars: mypy finds no overload for them
    shape = shape_rules.broadcast_shapes([tensor.shape for tensor in tensors], mypy_dims(ctx.api))
    dtype = _dtype(ctx, typed, rule)
    if isinstance(dtype, shape_rules.Problem):
        return _failed(ctx, shape if isinstance(shape, shape_rules.Problem) else dtype, op, operands)
    if isinstance(shape, shape_rules.Problem):
        return _failed(ctx, shape, op, operands, dtype)  # the dtype is still the rule's (SPEC §5)
    return new_tensor(ctx.api, dtype, shape)


def _failed(ctx: CallContext, problem: shape_rules.Problem, op: str, operands: Sequence[Operand], dtype: Type | None = None) -> Type:
    """Report ``problem``; the result has unknown dims, so the mistake gives one error, and
    ``dtype``: the one the rules give, unknown where they give none."""
    report(ctx, problem, op, operands)
    return unknown_tensor(ctx.api, AnyType(TypeOfAny.from_error) if dtype is None else dtype)


def _dtype(ctx: CallContext, operands: Sequence[Operand], rule: DTypeRule) -> Type | shape_rules.Problem:
    """The result dtype by ``rule``. A TypeVar dtype stands for every dtype of its bound: the result
    is the TypeVar itself where the rule keeps each of them (every tensor operand has that dtype),
    else the rule's answer for the bound's category."""
    names: list[str] = []
    variables: list[TypeVarType] = []
    for operand in operands:
        if not isinstance(operand, TensorType):
            names.append(operand)
            continue
        dtype = get_proper_type(operand.dtype)
        name = dtype_name(dtype) if not isinstance(dtype, TypeVarType) else dtype_name(dtype.upper_bound)
        if name is None:
            return AnyType(TypeOfAny.special_form)  # Any, or a TypeVar bound by no dtype
        names.append(name)
        variables += [dtype] if isinstance(dtype, TypeVarType) else []
    tensors = [operand for operand in operands if isinstance(operand, TensorType)]
    one_variable = len(variables) == len(tensors) and all(variable == variables[0] for variable in variables)
    if variables and one_variable and _keeps(rule, operands, names):
        return variables[0]
    result = rule(*names)
    return result if isinstance(result, shape_rules.Problem) else dtype_type(ctx.api, result)


def _keeps(rule: DTypeRule, operands: Sequence[Operand], names: Sequence[str]) -> bool:
    """Whether ``rule`` gives each dtype of the tensors' one category back, the scalars as they are."""
    category = next(name for operand, name in zip(operands, names) if isinstance(operand, TensorType))
    return all(
        rule(*[member if isinstance(operand, TensorType) else name for operand, name in zip(operands, names)]) == member
        for member in shape_rules.CATEGORIES.get(category, (category,))
    )


def operand(typ: Type) -> Operand:
    """A tensor, or a Python scalar by its kind (``float``), also of a subclass (numpy's ``float64``)."""
    tensor = tensor_type(typ)
    if tensor is not None:
        return tensor
    proper = get_proper_type(typ)
    if isinstance(proper, LiteralType):
        proper = proper.fallback
    if isinstance(proper, Instance):
        kind = next((_SCALAR_KINDS[base.fullname] for base in proper.type.mro if base.fullname in _SCALAR_KINDS), None)
        if kind is not None:
            return kind
    raise NotUnderstood  # a union, Any, another numpy scalar: the declared type says what is known


#: numpy's scalar classes by the kind of the dtypes they name with their width (``floating[_32Bit]``).
_NUMPY_SCALAR_KINDS: Final = {"numpy.floating": "float", "numpy.signedinteger": "int", "numpy.unsignedinteger": "uint", "numpy.complexfloating": "complex"}


def _numpy_scalar(ctx: CallContext, typ: Type) -> TensorType | None:
    """A numpy scalar other than ``float64`` and ``complex128`` (which are Python scalars) as the
    rank-0 tensor of its dtype that numpy 2 promotes it as (``np.float32(2)``: float32); else None."""
    proper = get_proper_type(typ)
    if not isinstance(proper, Instance) or any(base.fullname in _SCALAR_KINDS for base in proper.type.mro):
        return None
    if proper.type.fullname == "numpy.bool":
        name = "bool_"
    else:
        kind = _NUMPY_SCALAR_KINDS.get(proper.type.fullname)
        width = get_proper_type(proper.args[0]) if proper.args else None
        bits = re.fullmatch(r"_(\d+)Bit", width.type.name) if isinstance(width, Instance) else None
        if kind is None or bits is None:
            return None
        name = f"{kind}{int(bits[1]) * (2 if kind == 'complex' else 1)}"
    return TensorType(dtype_type(ctx.api, name), shape_rules.Shape(())) if name in shape_rules.CONCRETE else None


def _marker(typ: Type) -> tuple[Type | None, bool]:
    """The dtype a ``dtype`` argument names (``float32`` for ``tt.float32``, ``T`` for a ``type[T]``),
    and whether it is exactly that class rather than any subclass of it."""
    proper = get_proper_type(typ)
    if isinstance(proper, CallableType) and proper.is_type_obj():
        info = proper.type_object()
        return (Instance(info, []), True) if info.module_name == DTYPES_MODULE else (None, False)
    if isinstance(proper, TypeType):
        return proper.item, False
    return None, False


FUNCTION_HOOKS: Final[dict[str, FunctionHook]] = {
    **{ELEMENTWISE[op]: functools.partial(unary_function_hook, op) for op in shape_rules.UNARY_RULES},
    **{ELEMENTWISE[op]: functools.partial(binary_function_hook, op) for op in shape_rules.BINARY_RULES},
    ELEMENTWISE["where"]: where_hook,
    CLIP: clip_hook,
    ELEMENTWISE["cast"]: functools.partial(cast_function_hook, "cast"),
}
METHOD_HOOKS: Final[dict[str, MethodHook]] = {
    **{name: functools.partial(unary_method_hook, op) for name, op in shape_rules.UNARY_METHODS.items()},
    **{name: functools.partial(binary_method_hook, op, False) for name, op in shape_rules.BINARY_METHODS.items()},
    **{name: functools.partial(binary_method_hook, op, True) for name, op in shape_rules.REFLECTED_METHODS.items()},
    "astype": functools.partial(cast_method_hook, "astype"),
}
#: numpy's operators take a tensor in numpy's stubs; at run time the tensor refuses the array.
ARRAY_METHOD_HOOKS: Final[dict[str, MethodHook]] = {
    f"numpy.ndarray.{name}": functools.partial(array_operator_hook, name) for name in (*shape_rules.BINARY_METHODS, *shape_rules.REFLECTED_METHODS)
}
ARRAY_SIGNATURE_HOOKS: Final[dict[str, MethodSignatureHook]] = dict.fromkeys(ARRAY_METHOD_HOOKS, array_operator_signature)
#: ``2 == x`` is ``int.__eq__(x)`` to mypy (it takes any object): with a tensor it is elementwise.
SCALAR_METHOD_HOOKS: Final[dict[str, MethodHook]] = {
    f"builtins.{scalar}.__{name}__": functools.partial(binary_method_hook, op, True)
    for scalar in ("bool", "int", "float", "complex")
    for name, op in (("eq", "equal"), ("ne", "not_equal"))
}
