"""The hook of ``einsum``: the shared rule on a literal subscript string and the operands' types."""

from __future__ import annotations

from typing import Final

from mypy.nodes import ARG_POS
from mypy.types import Instance, LiteralType, Type, get_proper_type

from typing_plugins._calls import CallContext, FunctionHook, NotUnderstood, guarded, mypy_dims, new_tensor, report, unknown_tensor
from typing_plugins._linalg import promoted_dtype
from typing_plugins._names import EINSUM
from typing_plugins._rules import shape_rules
from typing_plugins._tensor_types import TensorType, tensor_type


def einsum_hook(ctx: CallContext) -> Type:
    """``einsum(subscripts, *operands)``: exact where ``subscripts`` is a literal string; the
    dtype is the operands' promotion."""

    def infer() -> Type:
        if len(ctx.arg_types) != 2 or len(ctx.arg_types[0]) != 1 or any(kind != ARG_POS for kind in ctx.arg_kinds[1]):
            raise NotUnderstood  # ``*tensors``: how many is not known
        operands = [_tensor(typ) for typ in ctx.arg_types[1]]
        dtype = promoted_dtype(ctx, operands)
        subscripts = _literal_str(ctx.arg_types[0][0])
        if subscripts is None:
            return unknown_tensor(ctx.api, dtype)
        shape = shape_rules.einsum_shape(subscripts, [operand.shape for operand in operands], mypy_dims(ctx.api))
        if isinstance(shape, shape_rules.Problem):
            report(ctx, shape, "einsum", operands)
            return unknown_tensor(ctx.api, dtype)
        return new_tensor(ctx.api, dtype, shape)

    return guarded(ctx, infer)


def _tensor(typ: Type) -> TensorType:
    tensor = tensor_type(typ)
    if tensor is None:
        raise NotUnderstood
    return tensor


def _literal_str(typ: Type) -> str | None:
    """The value of a literal string (a ``Final`` name's too), else None."""
    proper = get_proper_type(typ)
    if isinstance(proper, Instance) and proper.last_known_value is not None:
        proper = proper.last_known_value
    return proper.value if isinstance(proper, LiteralType) and isinstance(proper.value, str) else None


FUNCTION_HOOKS: Final[dict[str, FunctionHook]] = {EINSUM: einsum_hook}
