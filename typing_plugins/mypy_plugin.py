"""The mypy plugin: exact result shapes of typedtensor's reductions and constructors, and shape errors.

Enable it with ``plugins = ["typing_plugins.mypy_plugin"]`` under ``[tool.mypy]``. The plugin
class only dispatches; each callback reads the call, asks the shared shape rules
(``typedtensor._shape_rules``) and builds the result type. Whatever a callback does not
understand keeps the declared return type, which is never wrong, only less exact.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Final

from mypy.errorcodes import ARG_TYPE, ErrorCode
from mypy.messages import format_type_bare
from mypy.nodes import TypeInfo
from mypy.plugin import FunctionContext, MethodContext, Plugin, ReportConfigContext
from mypy.types import AnyType, Instance, LiteralType, Type, TypeOfAny, UnpackType, get_proper_type

from typing_plugins import _codes
from typing_plugins._arguments import CallContext, NotUnderstood, axis_argument, bool_axis, keepdims_argument, shape_argument
from typing_plugins._rules import RULES_DIGEST, shape_rules
from typing_plugins._tensor_types import TENSOR, MypyShape, TensorType, dtype_name, tensor_instance, tensor_text, tensor_type

#: Bump whenever inference changes: mypy then drops cached results computed by an older plugin.
PLUGIN_VERSION: Final = 3

#: ``reduce_sum`` ... by the fullname mypy resolves the re-exported name to, and their op.
REDUCE_FUNCTIONS: Final = {f"typedtensor._reductions.reduce_{op}": op for op in shape_rules.REDUCTION_OPS}
#: The reduction methods of ``Tensor``, named like their op.
REDUCE_METHODS: Final = frozenset(shape_rules.REDUCTION_OPS)
#: ``zeros``, ``ones`` and ``full``, whose shape is their ``shape`` argument.
CREATION_FUNCTIONS: Final = frozenset(f"typedtensor._creation.{name}" for name in ("zeros", "ones", "full"))


class TypedTensorPlugin(Plugin):
    """Dispatches reduction and creation calls to their callbacks; holds no state of its own."""

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        if fullname in CREATION_FUNCTIONS:
            return creation_hook
        op = REDUCE_FUNCTIONS.get(fullname)
        return None if op is None else functools.partial(reduce_function_hook, op)

    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        # mypy names a method after the class it is called on (python/mypy#19181), so a
        # subclass of Tensor calls in as "mymodule.Images.sum".
        class_name, _, method = fullname.rpartition(".")
        if method not in REDUCE_METHODS or not self._calls_tensor_method(class_name, method):
            return None
        return functools.partial(reduce_method_hook, method)

    def report_config_data(self, ctx: ReportConfigContext) -> str:
        return f"{PLUGIN_VERSION}:{RULES_DIGEST}"

    def _calls_tensor_method(self, class_name: str, method: str) -> bool:
        """Whether ``class_name.method`` is Tensor's own: an override may mean something else."""
        symbol = self.lookup_fully_qualified(class_name)
        if symbol is None or not isinstance(symbol.node, TypeInfo):
            return False
        defining = next((info for info in symbol.node.mro if method in info.names), None)
        return defining is not None and defining.fullname == TENSOR


def plugin(version: str) -> type[Plugin]:
    """mypy's entry point."""
    return TypedTensorPlugin


def reduce_function_hook(op: str, ctx: FunctionContext) -> Type:
    """``reduce_<op>(x, axis, keepdims)``: the tensor is the first argument."""
    if len(ctx.arg_types) < 1 or len(ctx.arg_types[0]) != 1:
        return ctx.default_return_type
    return _guarded(ctx, lambda: _infer_reduction(ctx, f"reduce_{op}", op, ctx.arg_types[0][0]))


def reduce_method_hook(op: str, ctx: MethodContext) -> Type:
    """``x.<op>(axis, keepdims)``: the tensor is the receiver."""
    return _guarded(ctx, lambda: _infer_reduction(ctx, op, op, ctx.type))


def creation_hook(ctx: FunctionContext) -> Type:
    """``zeros(shape, dtype)``, ``ones`` and ``full``: a literal size of ``shape`` is a ``Literal`` dim."""
    return _guarded(ctx, lambda: _infer_creation(ctx))


def _guarded(ctx: CallContext, infer: Callable[[], Type]) -> Type:
    """``infer()``, or the declared type when the call is outside what the plugin models."""
    try:
        return infer()
    except NotUnderstood:
        return ctx.default_return_type
    except Exception as error:  # noqa: BLE001 - a plugin bug must not stop the user's mypy run
        # Say so at the call rather than hide it: the project's tests fail on this note.
        ctx.api.msg.note(f"typedtensor's mypy plugin failed here and kept the declared type ({error!r}); please report it", ctx.context)
        return ctx.default_return_type


def _infer_reduction(ctx: CallContext, caller: str, op: str, receiver: Type) -> Type:
    """The result type of reducing ``receiver``; reports a bad axis or Selection."""
    declared = get_proper_type(ctx.default_return_type)
    tensor = tensor_type(receiver)
    unknown_run = _unknown_run(declared)
    if tensor is None or unknown_run is None or not isinstance(declared, Instance):
        return ctx.default_return_type
    dtype = _result_dtype(ctx, op, tensor.dtype, declared)
    return tensor_instance(declared, dtype, _reduced_shape(ctx, caller, tensor), unknown_run)


def _reduced_shape(ctx: CallContext, caller: str, tensor: TensorType) -> MypyShape:
    """The result's shape; after an error reported here, unknown dims (one bug, one error)."""
    boolean = bool_axis(ctx)
    if boolean is not None:
        _fail_at_axis(ctx, shape_rules.wrong_axis_kind(caller, format_type_bare(boolean, ctx.api.options)), ARG_TYPE)
        return shape_rules.Shape((), shape_rules.UNKNOWN)
    one = LiteralType(1, ctx.api.named_generic_type("builtins.int", []))
    shape = shape_rules.reduce_shape(tensor.shape, axis_argument(ctx), keepdims_argument(ctx), one)
    if isinstance(shape, shape_rules.Shape):
        return shape
    _report(ctx, shape, caller, tensor)
    return shape_rules.Shape((), shape_rules.UNKNOWN)


def _infer_creation(ctx: FunctionContext) -> Type:
    """The declared ``Tensor[DT, int, int]`` with each dim made exact: ``Literal[n]``, or ``Any``."""
    declared = get_proper_type(ctx.default_return_type)
    sizes = shape_argument(ctx)
    if not isinstance(declared, Instance) or declared.type.fullname != TENSOR or len(declared.args) != 1 + len(sizes):
        return ctx.default_return_type
    if any(isinstance(arg, UnpackType) for arg in declared.args):
        return ctx.default_return_type  # a shape of unknown length: the rank is unknown too
    int_type = ctx.api.named_generic_type("builtins.int", [])
    dtype, *dims = declared.args
    return declared.copy_modified(args=[dtype, *(_size_dim(size, dim, int_type) for size, dim in zip(sizes, dims))])


def _size_dim(size: int | shape_rules.Unknown, declared: Type, int_type: Instance) -> Type:
    """``Literal[size]``; for an unknown size the declared dim, with ``int`` made ``Any``.

    mypy widens the items of a tuple display to ``int``, which no ``Literal`` dim accepts, so a
    size known only at run time is ``Any``. Other declared dims (a ``Dim`` from ``x.shape``) stay.
    """
    if isinstance(size, int):
        return LiteralType(size, int_type)
    proper = get_proper_type(declared)
    widened = isinstance(proper, Instance) and proper.type.fullname == "builtins.int"
    return AnyType(TypeOfAny.special_form) if widened else declared


def _unknown_run(declared: Type) -> UnpackType | None:
    """The ``*tuple[Any, ...]`` of a declared ``Tensor[DT, *tuple[Any, ...]]``, or None."""
    proper = get_proper_type(declared)
    if isinstance(proper, Instance) and proper.type.fullname == TENSOR and len(proper.args) == 2:
        run = proper.args[1]
        return run if isinstance(run, UnpackType) else None
    return None


def _result_dtype(ctx: CallContext, op: str, dtype: Type, declared: Instance) -> Type:
    """The result's dtype by ``result_dtype``; the declared one for TypeVars and other unknowns."""
    name = dtype_name(dtype)
    if name is None:
        return declared.args[0]
    result = shape_rules.result_dtype(op, name)
    # By its public name: mypy's checker resolves names through packages, not private modules.
    return dtype if result == name else ctx.api.named_generic_type(f"typedtensor.{result}", [])


def _report(ctx: CallContext, problem: shape_rules.Problem, caller: str, tensor: TensorType) -> None:
    code: ErrorCode = _codes.TENSOR_AXIS if isinstance(problem, shape_rules.AxisOutOfRange) else _codes.TENSOR_SELECTION
    _fail_at_axis(ctx, problem.message(caller, tensor_text(tensor, ctx.api.options)), code)


def _fail_at_axis(ctx: CallContext, message: str, code: ErrorCode) -> None:
    """Report ``message`` at the ``axis`` argument (every error here is about one)."""
    ctx.api.fail(message, ctx.args[ctx.callee_arg_names.index("axis")][0], code=code)
