"""Hooks of ``sort``/``argsort``/``top_k`` and of ``typedtensor.linalg``: the shared rules on the
call's types; ``top_k``, ``eigh``, ``svd`` and ``qr`` give tuples of tensors."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final

from mypy.types import AnyType, LiteralType, TupleType, Type, TypeOfAny, TypeVarType, UnpackType, get_proper_type

from typing_plugins._arguments import axis_argument, flag_argument, int_argument, keepdims_argument, single_axis_argument
from typing_plugins._calls import CallContext, FunctionHook, NotUnderstood, Operand, dtype_type, guarded, int_type, mypy_dims, new_tensor, report, unknown_tensor
from typing_plugins._linalg import promoted_dtype
from typing_plugins._names import LINALG, SORTING
from typing_plugins._rules import shape_rules
from typing_plugins._tensor_types import TensorType, dtype_name, tensor_type

MypyShape = shape_rules.Shape[Type, UnpackType]


def sort_hook(op: str, ctx: CallContext) -> Type:
    """``sort``/``argsort(x, axis=-1, descending=False)``: the shape kept; ``argsort`` gives ``int64``."""

    def infer() -> Type:
        tensor = _tensor(ctx, "x")
        dtype = tensor.dtype if op == "sort" else dtype_type(ctx.api, "int64")
        shape = shape_rules.sort_shape(tensor.shape, _one_axis(ctx))
        return _results(ctx, op, shape if isinstance(shape, shape_rules.Problem) else (shape,), [dtype], [tensor])

    return guarded(ctx, infer)


def top_k_hook(ctx: CallContext) -> Type:
    """``top_k(x, k, axis=-1)``: values and ``int64`` indices, the axis ``Literal[k]``."""

    def infer() -> Type:
        tensor = _tensor(ctx, "x")
        shape = shape_rules.top_k_shape(tensor.shape, int_argument(ctx, "k"), _one_axis(ctx), mypy_dims(ctx.api))
        shapes = shape if isinstance(shape, shape_rules.Problem) else (shape, shape)
        return _results(ctx, "top_k", shapes, [tensor.dtype, dtype_type(ctx.api, "int64")], [tensor])

    return guarded(ctx, infer)


def square_hook(op: str, ctx: CallContext) -> Type:
    """``inv``, ``det``, ``cholesky``, ``eigh``: square matrices, the results of ``square_shapes``."""

    def infer() -> Type:
        tensor = _tensor(ctx, "x")
        dtype = _linalg_dtype(ctx, op, tensor.dtype, [tensor])
        return _results(ctx, op, shape_rules.square_shapes(op, tensor.shape, mypy_dims(ctx.api)), [dtype], [tensor])

    return guarded(ctx, infer)


def svd_hook(ctx: CallContext) -> Type:
    """``svd(x, full_matrices=False)``: ``u``, ``s``, ``vh``."""

    def infer() -> Type:
        tensor = _tensor(ctx, "x")
        dtype = _linalg_dtype(ctx, "svd", tensor.dtype, [tensor])
        shapes = shape_rules.svd_shapes(tensor.shape, flag_argument(ctx, "full_matrices"), mypy_dims(ctx.api))
        return _results(ctx, "svd", shapes, [dtype], [tensor])

    return guarded(ctx, infer)


def qr_hook(ctx: CallContext) -> Type:
    """``qr(x)``: ``q``, ``r``."""

    def infer() -> Type:
        tensor = _tensor(ctx, "x")
        dtype = _linalg_dtype(ctx, "qr", tensor.dtype, [tensor])
        return _results(ctx, "qr", shape_rules.qr_shapes(tensor.shape, mypy_dims(ctx.api)), [dtype], [tensor])

    return guarded(ctx, infer)


def solve_hook(ctx: CallContext) -> Type:
    """``solve(a, b)``: the operands' promoted dtype, then linalg's."""

    def infer() -> Type:
        a, b = _tensor(ctx, "a"), _tensor(ctx, "b")
        dtype = _linalg_dtype(ctx, "solve", promoted_dtype(ctx, [a, b]), [a, b])
        shape = shape_rules.solve_shape(a.shape, b.shape, mypy_dims(ctx.api))
        return _results(ctx, "solve", shape if isinstance(shape, shape_rules.Problem) else (shape,), [dtype], [a, b])

    return guarded(ctx, infer)


def norm_hook(ctx: CallContext) -> Type:
    """``norm(x, axis=None, keepdims=False)``: reduces as the reductions do."""

    def infer() -> Type:
        tensor = _tensor(ctx, "x")
        dtype = _linalg_dtype(ctx, "norm", tensor.dtype, [tensor])
        one = LiteralType(1, int_type(ctx.api))
        shape = shape_rules.reduce_shape(tensor.shape, axis_argument(ctx), keepdims_argument(ctx), one)
        return _results(ctx, "norm", shape if isinstance(shape, shape_rules.Problem) else (shape,), [dtype], [tensor])

    return guarded(ctx, infer)


def _linalg_dtype(ctx: CallContext, op: str, dtype: Type, operands: Sequence[Operand]) -> Type:
    """The dtype of linalg's results: by the rule for a named dtype; a TypeVar bounded by the
    floats is kept; anything else unknown. A refused dtype is reported and the call not modelled."""
    name = dtype_name(dtype)
    if name is None:
        proper = get_proper_type(dtype)
        bound = dtype_name(proper.upper_bound) if isinstance(proper, TypeVarType) else None
        return dtype if bound is not None and shape_rules.linalg_dtype(bound) == bound else AnyType(TypeOfAny.special_form)
    result = shape_rules.linalg_dtype(name)
    if isinstance(result, shape_rules.Problem):
        report(ctx, result, op, operands)
        raise _Reported
    return dtype if result == name else dtype_type(ctx.api, result)


class _Reported(NotUnderstood):
    """A problem reported: the call keeps its declared type."""


def _results(ctx: CallContext, op: str, shapes: tuple[MypyShape, ...] | shape_rules.Problem, dtypes: list[Type], operands: Sequence[Operand]) -> Type:
    """The result tensors (a tuple where the op returns one), or the problem reported and
    tensors of unknown dims, so one bug gives one error."""
    count = len(shapes) if isinstance(shapes, tuple) else _declared_count(ctx)
    kinds = dtypes * count if len(dtypes) == 1 else dtypes
    if isinstance(shapes, shape_rules.Problem):
        report(ctx, shapes, op, operands)
        tensors = [unknown_tensor(ctx.api, dtype) for dtype in kinds]
    else:
        tensors = [new_tensor(ctx.api, dtype, shape) for dtype, shape in zip(kinds, shapes)]
    declared = get_proper_type(ctx.default_return_type)
    if isinstance(declared, TupleType):
        return declared.copy_modified(items=list(tensors))
    if len(tensors) != 1:
        raise NotUnderstood
    return tensors[0]


def _declared_count(ctx: CallContext) -> int:
    declared = get_proper_type(ctx.default_return_type)
    return len(declared.items) if isinstance(declared, TupleType) else 1


def _tensor(ctx: CallContext, formal: str) -> TensorType:
    """The tensor passed for ``formal``, or ``NotUnderstood``."""
    index = ctx.callee_arg_names.index(formal) if formal in ctx.callee_arg_names else -1
    if index < 0 or len(ctx.arg_types[index]) != 1:
        raise NotUnderstood
    tensor = tensor_type(ctx.arg_types[index][0])
    if tensor is None:
        raise NotUnderstood
    return tensor


def _one_axis(ctx: CallContext) -> int | shape_rules.Unknown:
    axis = single_axis_argument(ctx, -1)
    if axis is None:
        raise NotUnderstood  # sort(x, axis=None): a type error mypy reports
    return axis


FUNCTION_HOOKS: Final[dict[str, FunctionHook]] = {
    **{SORTING[op]: functools.partial(sort_hook, op) for op in ("sort", "argsort")},
    SORTING["top_k"]: top_k_hook,
    **{LINALG[op]: functools.partial(square_hook, op) for op in shape_rules.SQUARE_OPS},
    LINALG["svd"]: svd_hook,
    LINALG["qr"]: qr_hook,
    LINALG["solve"]: solve_hook,
    LINALG["norm"]: norm_hook,
}
