"""``tensor-unknown`` (off by default): where a call's result gained unknown dims its inputs did not have.

Every hook's result passes through ``precision_checked``, so the check is written once: the
dispatcher wraps the hook it hands to mypy. Nothing is said after another error on the call (one
mistake, one error; the error's result is unknown on purpose), nor when a tensor input already
had unknown dims (the loss happened earlier, and was reported there). The reason names the
first argument that is not a literal where there is one; indexing says which item lost the dims.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Final, TypeVar

from mypy.messages import format_type_bare
from mypy.nodes import Context
from mypy.plugin import CheckerPluginInterface, MethodContext
from mypy.types import AnyType, Instance, LiteralType, TupleType, Type, UnionType, get_proper_type

from typing_plugins._arguments import index_argument
from typing_plugins._calls import CallContext, NotUnderstood, note_failure, problems_reported
from typing_plugins._codes import TENSOR_UNKNOWN
from typing_plugins._names import TENSOR
from typing_plugins._rules import shape_rules
from typing_plugins._tensor_types import TensorType, tensor_text, tensor_type

_Context = TypeVar("_Context", bound=CallContext)

#: How messages name an operator or ``x[...]``; other ops go by their function or method name.
_OP_NAMES: Final = {**shape_rules.UNARY_METHODS, **shape_rules.BINARY_METHODS, **shape_rules.REFLECTED_METHODS, "__getitem__": "index"}
#: Arguments whose value a literal would have made exact (a numpy integer is never literal); a
#: float or a dtype never decides a shape.
_VALUE_TYPES: Final = frozenset({"builtins.int", "builtins.bool", "builtins.str"})
_CONTAINERS: Final = frozenset({"builtins.tuple", "builtins.list"})
_NDARRAY: Final = "numpy.ndarray"


def precision_checked(fullname: str, hook: Callable[[_Context], Type]) -> Callable[[_Context], Type]:
    """``hook``, reporting ``tensor-unknown`` where its result lost dims (when the code is enabled)."""
    op = _op_name(fullname)

    def checked(ctx: _Context) -> Type:
        if not ctx.api.msg.errors.is_error_code_enabled(TENSOR_UNKNOWN):
            return hook(ctx)
        problems_before = problems_reported()
        result = hook(ctx)
        if problems_reported() == problems_before:
            try:
                _check(ctx, op, result)
            except Exception as error:  # a plugin bug must not stop the user's mypy run
                note_failure(ctx.api, ctx.context, error)
        return result

    return checked


def _op_name(fullname: str) -> str:
    name = fullname.rpartition(".")[2]
    return _OP_NAMES.get(name, name)


def _check(ctx: CallContext, op: str, result: Type) -> None:
    tensor = tensor_type(result)
    if tensor is None or not _has_unknown_dims(tensor):
        return
    inputs = list(_input_tensors(ctx))
    if any(tensor is None or _has_unknown_dims(tensor) for tensor in inputs) or _has_error_at(ctx.api, ctx.context):
        return
    reason = _REASONS.get(op, _argument_reason)(ctx) or _rule_reason(ctx, [t for t in inputs if t is not None])
    _fail_unwatched(ctx, f'Result of "{op}" has unknown dims: {reason}')


def _fail_unwatched(ctx: CallContext, message: str) -> None:
    """Report ``message`` past mypy's error watchers, unless they saw an error already.

    mypy tries each overload of a call with its errors watched and takes the first that gives
    none, keeping the result of that try: a report seen by the watchers would make mypy pick
    another overload (a different result, other errors), and a report they filter out would be
    lost. A try that has already failed says nothing; mypy drops repeated messages of other tries.
    """
    errors = ctx.api.msg.errors
    watchers = errors._watchers
    if any(watcher.has_new_errors() for watcher in watchers):
        return
    errors._watchers = []
    try:
        ctx.api.fail(message, ctx.context, code=TENSOR_UNKNOWN)
    finally:
        errors._watchers = watchers


def _has_unknown_dims(tensor: TensorType) -> bool:
    shape = tensor.shape
    return shape.variadic is shape_rules.UNKNOWN or any(isinstance(dim, shape_rules.Unknown) for dim in (*shape.prefix, *shape.suffix))


def _input_tensors(ctx: CallContext) -> Iterator[TensorType | None]:
    """The call's tensors (``self`` too), in sequences too; None for an input whose dims were lost
    before this call (``Any``, a numpy array, a tensor type the plugin cannot read)."""
    types = [*([ctx.type] if isinstance(ctx, MethodContext) else []), *(typ for formal in ctx.arg_types for typ in formal)]
    for typ in types:
        yield from _tensors_in(typ)


def _tensors_in(typ: Type) -> Iterator[TensorType | None]:
    proper = get_proper_type(typ)
    tensor = tensor_type(proper)
    if tensor is not None:
        yield tensor
    elif isinstance(proper, AnyType) or (isinstance(proper, Instance) and _has_unreadable_dims(proper)):
        yield None
    elif isinstance(proper, (TupleType, UnionType)):
        for item in proper.items:
            yield from _tensors_in(item)
    elif isinstance(proper, Instance) and proper.type.fullname in _CONTAINERS:
        for arg in proper.args:
            yield from _tensors_in(arg)


def _has_unreadable_dims(instance: Instance) -> bool:
    """A tensor whose type the plugin cannot read (mypy reported it), or a numpy array: numpy's
    types lost its dims before this call."""
    return any(info.fullname in (TENSOR, _NDARRAY) for info in instance.type.mro)


def _has_error_at(api: CheckerPluginInterface, context: Context) -> bool:
    """Whether mypy reported an error on the call's lines, kept or silenced by ``# type: ignore``."""
    errors = api.msg.errors
    lines = range(context.line, max(context.line, context.end_line or context.line) + 1)
    kept = errors.error_info_map.get(errors.file, [])
    if any(info.line in lines and info.severity == "error" and info.code is not TENSOR_UNKNOWN for info in kept):
        return True
    ignored = errors.used_ignored_lines.get(errors.file, {})
    return any(code != TENSOR_UNKNOWN.code for line in lines for code in ignored.get(line, []))


def _argument_reason(ctx: CallContext) -> str | None:
    if any(kind.is_star() for kinds in ctx.arg_kinds for kind in kinds):
        return "its arguments are unpacked (*args or **kwargs)"
    for name, types in zip(ctx.callee_arg_names, ctx.arg_types):
        typ = next((typ for typ in types if _not_literal(typ)), None)
        if typ is not None:
            return f'argument "{name}" is not a literal ({format_type_bare(typ, ctx.api.options)})'
    return None


def _data_reason(ctx: CallContext) -> str | None:
    """``tensor(data)``: a list display gives its sizes, a list's type does not."""
    return f"data is not a literal ({format_type_bare(ctx.arg_types[0][0], ctx.api.options)})" if ctx.arg_types[0] else None


def _not_literal(typ: Type) -> bool:
    """Whether ``typ`` is an int, bool or str (in a tuple or list too) with no literal value; an
    enum member is none of these to the plugin, even a literal one."""
    proper = get_proper_type(typ)
    if isinstance(proper, Instance) and proper.last_known_value is not None:
        proper = proper.last_known_value  # a ``Final`` name: its value
    if isinstance(proper, LiteralType):
        return proper.is_enum_literal()
    if isinstance(proper, AnyType):
        return True
    if isinstance(proper, (TupleType, UnionType)):
        return any(map(_not_literal, proper.items))
    if not isinstance(proper, Instance):
        return False  # None, a dtype
    if proper.type.fullname in _CONTAINERS:
        return any(map(_not_literal, proper.args))
    return proper.type.is_enum or proper.type.fullname in _VALUE_TYPES or proper.type.has_base("numpy.integer")


def _index_reason(ctx: CallContext) -> str | None:
    try:
        items = index_argument(ctx, ctx.args[0][0], ctx.arg_types[0][0])
    except NotUnderstood:
        return None
    if any(isinstance(item, shape_rules.ArrayIndex) for item in items):
        return "an index tensor"
    bounds = [bound for item in items if isinstance(item, slice) for bound in (item.start, item.stop, item.step)]
    return "a slice bound is not a literal" if any(isinstance(bound, shape_rules.Unknown) for bound in bounds) else None


#: The hooks whose reason is not the first argument that is not a literal.
_REASONS: Final[dict[str, Callable[[CallContext], str | None]]] = {"index": _index_reason, "tensor": _data_reason}


def _rule_reason(ctx: CallContext, inputs: list[TensorType]) -> str:
    """No argument to blame: the input's dims (a named dim, a run) do not decide the result."""
    if not inputs:
        return "its rule cannot be exact here"
    return "its rule cannot be exact for " + " and ".join(tensor_text(tensor, ctx.api.options) for tensor in inputs)

