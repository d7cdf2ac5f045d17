"""Hooks of ``matmul`` and ``@``: the shared matmul rule on the operands' types, dtypes promoted.

``matmul`` and ``Tensor.__matmul__`` are declared with overloads (2-D through TypeVars, then a
fallback), so a call mypy cannot solve exactly takes the fallback without an error of mypy's own:
a matmul of inner dims that differ gets exactly one error, this plugin's ``tensor-matmul``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final

from mypy.plugin import FunctionContext, MethodContext
from mypy.types import AnyType, Type, TypeOfAny

from typing_plugins._arguments import flag_argument
from typing_plugins._calls import CallContext, FunctionHook, MethodHook, NotUnderstood, dtype_type, guarded, mypy_dims, new_tensor, report, unknown_tensor
from typing_plugins._names import MATMUL
from typing_plugins._rules import shape_rules
from typing_plugins._tensor_types import TensorType, dtype_name, tensor_type


def matmul_function_hook(ctx: FunctionContext) -> Type:
    """``matmul(a, b, transpose_a, transpose_b)``."""
    if len(ctx.arg_types) < 2 or len(ctx.arg_types[0]) != 1 or len(ctx.arg_types[1]) != 1:
        return ctx.default_return_type
    return guarded(
        ctx,
        lambda: _infer_matmul(
            ctx, ctx.arg_types[0][0], ctx.arg_types[1][0], flag_argument(ctx, "transpose_a"), flag_argument(ctx, "transpose_b")
        ),
    )


def matmul_method_hook(reflected: bool, ctx: MethodContext) -> Type:
    """``a @ b`` (``a.__matmul__(b)``), or reflected (``b.__rmatmul__(a)``)."""
    if len(ctx.arg_types) != 1 or len(ctx.arg_types[0]) != 1:
        return ctx.default_return_type
    left, right = (ctx.arg_types[0][0], ctx.type) if reflected else (ctx.type, ctx.arg_types[0][0])
    return guarded(ctx, lambda: _infer_matmul(ctx, left, right, False, False))


def _infer_matmul(ctx: CallContext, a_type: Type, b_type: Type, transpose_a: shape_rules.Flag, transpose_b: shape_rules.Flag) -> Type:
    a, b = tensor_type(a_type), tensor_type(b_type)
    if a is None or b is None:
        raise NotUnderstood
    dtype = promoted_dtype(ctx, [a, b])
    shape = shape_rules.matmul_shape(a.shape, b.shape, transpose_a, transpose_b, mypy_dims(ctx.api))
    if isinstance(shape, shape_rules.Problem):
        report(ctx, shape, "matmul", [a, b])
        return unknown_tensor(ctx.api, dtype)  # one bug, one error
    return new_tensor(ctx.api, dtype, shape)


def promoted_dtype(ctx: CallContext, tensors: Sequence[TensorType]) -> Type:
    """numpy's promotion of the tensors' dtypes; ``Any`` when one is a TypeVar or ``Any``.

    A TypeVar dtype may stand for a category at the call (``integer``), whose members need not
    promote to a member of it (int64 and uint64 give float64): nothing short of ``Any`` is safe.
    """
    names = [dtype_name(tensor.dtype) for tensor in tensors]
    known = [name for name in names if name is not None]
    if len(known) < len(names):
        return AnyType(TypeOfAny.special_form)
    return dtype_type(ctx.api, shape_rules.promote(*known))


FUNCTION_HOOKS: Final[dict[str, FunctionHook]] = {MATMUL: matmul_function_hook}
METHOD_HOOKS: Final[dict[str, MethodHook]] = {
    "__matmul__": functools.partial(matmul_method_hook, False),
    "__rmatmul__": functools.partial(matmul_method_hook, True),
}
