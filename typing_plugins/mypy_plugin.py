"""The mypy plugin: exact result shapes of typedtensor's ops, and shape errors.

Enable it with ``plugins = ["typing_plugins.mypy_plugin"]`` under ``[tool.mypy]``. The plugin
class only dispatches, through tables of functions and of ``Tensor`` methods, each gathered from
the module of its kind of op. Each hook reads the call, asks the shared shape rules
(``typedtensor._shape_rules``) and builds the result type. Whatever a hook does not understand
keeps the declared return type, which is never wrong, only less exact.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, TypeVar

from mypy.nodes import Decorator, FuncDef, OverloadedFuncDef, TypeInfo
from mypy.plugin import AnalyzeTypeContext, Plugin, ReportConfigContext
from mypy.types import Type

from typing_plugins import (
    _axis_ops,
    _creation,
    _dim_expressions,
    _einsum,
    _elementwise,
    _indexing,
    _layers,
    _linalg,
    _rearranging,
    _reductions,
    _shape_ints,
    _shaping,
    _sorting_linalg,
    _statistics,
    _updates,
)
from typing_plugins._calls import CallContext, FunctionHook, FunctionSignatureHook, MethodHook, MethodSignatureHook
from typing_plugins._names import TENSOR
from typing_plugins._precision import precision_checked
from typing_plugins._rules import SOURCES_DIGEST
from typing_plugins._signatures import LOOSENED, signature_hook

#: Bump whenever inference changes: mypy then drops cached results computed by an older plugin.
PLUGIN_VERSION: Final = 13

#: Functions by the fullname mypy resolves the re-exported name to.
FUNCTION_HOOKS: Final[dict[str, FunctionHook]] = {
    **_reductions.FUNCTION_HOOKS,
    **_elementwise.FUNCTION_HOOKS,
    **_linalg.FUNCTION_HOOKS,
    **_shaping.FUNCTION_HOOKS,
    **_axis_ops.FUNCTION_HOOKS,
    **_creation.FUNCTION_HOOKS,
    **_rearranging.FUNCTION_HOOKS,
    **_sorting_linalg.FUNCTION_HOOKS,
    **_einsum.FUNCTION_HOOKS,
    **_layers.FUNCTION_HOOKS,
    **_statistics.FUNCTION_HOOKS,
}
#: Methods and operators of ``Tensor`` by name.
METHOD_HOOKS: Final[dict[str, MethodHook]] = {
    **_reductions.METHOD_HOOKS,
    **_elementwise.METHOD_HOOKS,
    **_linalg.METHOD_HOOKS,
    **_shaping.METHOD_HOOKS,
    **_indexing.METHOD_HOOKS,
    **_statistics.METHOD_HOOKS,
}
#: Methods of other classes by fullname, such as ``int.__eq__`` with a tensor argument.
OTHER_METHOD_HOOKS: Final[dict[str, MethodHook]] = {**_elementwise.SCALAR_METHOD_HOOKS, **_elementwise.ARRAY_METHOD_HOOKS, **_updates.METHOD_HOOKS}
#: Attributes of ``Tensor`` by fullname (``x.T``, ``x.shape``).
ATTRIBUTE_HOOKS: Final[dict[str, _shaping.AttributeHook]] = {**_shaping.ATTRIBUTE_HOOKS, **_shape_ints.ATTRIBUTE_HOOKS}

_Hook = TypeVar("_Hook")


class TypedTensorPlugin(Plugin):
    """Dispatches calls of typedtensor's functions and methods to their hooks; holds no state."""

    def get_function_hook(self, fullname: str) -> FunctionHook | None:
        hook = FUNCTION_HOOKS.get(fullname)
        return self._expression_result(fullname) if hook is None else precision_checked(fullname, hook)

    def get_method_hook(self, fullname: str) -> MethodHook | None:
        size_hook = self._inherited(_shape_ints.INT_OPERATOR_HOOKS, fullname, "builtins.int")
        if size_hook is not None:
            return size_hook
        hook = OTHER_METHOD_HOOKS.get(fullname) or self._inherited(METHOD_HOOKS, fullname, TENSOR)
        return self._expression_result(fullname) if hook is None else precision_checked(fullname, hook)

    def get_attribute_hook(self, fullname: str) -> _shaping.AttributeHook | None:
        return ATTRIBUTE_HOOKS.get(fullname)

    def get_type_analyze_hook(self, fullname: str) -> Callable[[AnalyzeTypeContext], Type] | None:
        return _dim_expressions.analyze_hook(fullname) if fullname in _dim_expressions.OPERATIONS else None

    def get_function_signature_hook(self, fullname: str) -> FunctionSignatureHook | None:
        return signature_hook(LOOSENED.get(fullname))

    def get_method_signature_hook(self, fullname: str) -> MethodSignatureHook | None:
        return _elementwise.ARRAY_SIGNATURE_HOOKS.get(fullname) or signature_hook(self._inherited(LOOSENED, fullname, TENSOR))

    def report_config_data(self, ctx: ReportConfigContext) -> str:
        return f"{PLUGIN_VERSION}:{SOURCES_DIGEST}"

    def _expression_result(self, fullname: str) -> Callable[[CallContext], Type] | None:
        """A hook for a function (or method) that returns a dim expression, which mypy's
        substitution of the call's dims leaves spelled as it comes (``Mul[Time, Batch]``)."""
        try:
            symbol = self.lookup_fully_qualified(fullname)
            node = symbol.node if symbol is not None else None
            if isinstance(node, Decorator):
                node = node.func
            signature = node.type if isinstance(node, (FuncDef, OverloadedFuncDef)) else None
            returns = signature is not None and _dim_expressions.returns_expression(signature)
        except Exception:  # a plugin bug must not stop the user's mypy run: no hook, the declared type
            return None
        return _dim_expressions.canonical_result if returns else None

    def _inherited(self, hooks: dict[str, _Hook], fullname: str, owner: str) -> _Hook | None:
        """The hook of ``fullname`` if it calls a method of ``owner``'s own (``Tensor``'s, ``int``'s)."""
        # mypy names a method after the class it is called on (python/mypy#19181), so a
        # subclass of Tensor calls in as "mymodule.Images.sum", a Dim's ``b * 2`` as "mymodule.Batch.__mul__".
        class_name, _, method = fullname.rpartition(".")
        hook = hooks.get(method)
        return hook if hook is not None and self._defined_in(class_name, method, owner) else None

    def _defined_in(self, class_name: str, method: str, owner: str) -> bool:
        """Whether ``class_name.method`` is ``owner``'s own: an override may mean something else."""
        symbol = self.lookup_fully_qualified(class_name)
        if symbol is None or not isinstance(symbol.node, TypeInfo):
            return False
        defining = next((info for info in symbol.node.mro if method in info.names), None)
        return defining is not None and defining.fullname == owner


def plugin(version: str) -> type[Plugin]:
    """mypy's entry point."""
    return TypedTensorPlugin
