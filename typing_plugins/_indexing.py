"""The hook of ``x[...]``: ints drop dims, slices keep them (literal lengths where literal), ``None``
adds ``Literal[1]``, index tensors gather or mask."""

from __future__ import annotations

from typing import Final

from mypy.errorcodes import INDEX
from mypy.plugin import MethodContext
from mypy.types import Type

from typing_plugins._arguments import holds_bool, index_argument
from typing_plugins._calls import MethodHook, guarded, mypy_dims, new_tensor, report, unknown_tensor
from typing_plugins._rules import shape_rules
from typing_plugins._tensor_types import tensor_type


def getitem_hook(ctx: MethodContext) -> Type:
    """``x[key]`` (``x.__getitem__(key)``); a literal index out of range is a ``tensor-index`` error."""
    if len(ctx.args) != 1 or len(ctx.args[0]) != 1:
        return ctx.default_return_type
    tensor = tensor_type(ctx.type)
    if tensor is None:
        return ctx.default_return_type
    if holds_bool(ctx.arg_types[0][0]):
        # A bool is an int to the type system, so the declared ``SupportsIndex`` admits it; the runtime does not.
        ctx.api.fail(shape_rules.bool_index_message("index"), ctx.args[0][0], code=INDEX)
        return unknown_tensor(ctx.api, tensor.dtype)

    def infer() -> Type:
        items = index_argument(ctx, ctx.args[0][0], ctx.arg_types[0][0])
        shape = shape_rules.index_shape(tensor.shape, items, mypy_dims(ctx.api))
        if isinstance(shape, shape_rules.Problem):
            report(ctx, shape, "index", [tensor])
            return unknown_tensor(ctx.api, tensor.dtype)  # one bug, one error
        return new_tensor(ctx.api, tensor.dtype, shape)

    return guarded(ctx, infer)


METHOD_HOOKS: Final[dict[str, MethodHook]] = {"__getitem__": getitem_hook}
