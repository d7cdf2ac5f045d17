"""Runtime shape checks: ``@shapechecked`` and ``check(x, Tensor[...])``.

Each checked call opens a jaxtyping context (``jaxtyped("context")``), so jaxtyping's memo binds
the call's named dims on first use and compares them everywhere else; nested checked calls open
their own. Annotations are translated once per function (``_annotations``); a call only looks
up its arguments and runs one dtype lookup and one jaxtyping ``isinstance`` per tensor.
"""

from __future__ import annotations

import functools
import inspect
import sys
import threading
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar, _SpecialForm, overload

import numpy as np
from jaxtyping import jaxtyped

from typedtensor._annotations import Namespaces, TensorSpec, UnresolvedName, fitting, resolve_annotation, tensor_spec
from typedtensor._dtypes import generic
from typedtensor._errors import AnnotationError
from typedtensor._check_report import mismatch
from typedtensor._tensor import Tensor

F = TypeVar("F")
T = TypeVar("T")

_MISSING = inspect.Parameter.empty


class CallRecord:
    """One checked call: its name, the tensors that passed (to report the dims they bound) and
    the constraints its constrained dtype TypeVars may still take."""

    __slots__ = ("checked", "dtype_vars", "name")

    def __init__(self, name: str | None) -> None:
        self.name = name
        self.checked: list[tuple[TensorSpec, tuple[int, ...]]] = []
        self.dtype_vars: dict[TypeVar, tuple[type[generic], ...]] = {}

    def check(self, value: object, spec: TensorSpec, where: str) -> None:
        """Raise ``ShapeError`` unless ``value`` matches ``spec``; bind its dims if it does."""
        if isinstance(value, Tensor):
            array = value.numpy()
            if (
                array.dtype in spec.dtypes
                and (spec.dtype_var is None or self._bind_dtype(spec, spec.dtype_var, array.dtype))
                and isinstance(array, spec.shape_type)
            ):
                self.checked.append((spec, array.shape))
                return
        elif value is None and spec.optional:
            return
        raise mismatch(where, spec, value, self)

    def _bind_dtype(self, spec: TensorSpec, var: TypeVar, dtype: np.dtype[Any]) -> bool:
        """Whether ``dtype`` fits a constraint ``var`` may still take in this call; narrows them."""
        still = fitting(dtype, self.dtype_vars.get(var, spec.constraints))
        if still:
            self.dtype_vars[var] = still
        return bool(still)


class _Calls(threading.local):
    """The checked calls running on this thread, innermost last (jaxtyping's memo is per thread too)."""

    def __init__(self) -> None:
        self.stack: list[CallRecord] = []


_calls = _Calls()


@dataclass(frozen=True)
class _Param:
    """A ``Tensor``-annotated parameter: where to find its argument and what it must match."""

    name: str
    position: int | None  # None for keyword-only parameters
    default: object
    spec: TensorSpec
    where: str

    def check(self, args: tuple[object, ...], kwargs: Mapping[str, object], call: CallRecord) -> None:
        position = self.position
        if position is not None and position < len(args):
            value = args[position]
        else:
            value = kwargs.get(self.name, self.default)
        if value is not _MISSING:  # a missing argument is the call's own TypeError, raised by fn
            call.check(value, self.spec, self.where)


@dataclass(frozen=True)
class _Plan:
    """What a checked function checks: its tensor parameters and its return value."""

    name: str
    params: tuple[_Param, ...]
    returns: TensorSpec | None
    returns_where: str


def shapechecked(fn: F) -> F:
    """Check the ``Tensor`` annotations of ``fn``'s parameters and return value at every call.

    Named dims (``Dim`` classes, TypeVars, ``*Ts``) bind on first use and must agree across the
    call; a mismatch raises ``ShapeError``. Works on functions, methods, static and class methods.

    >>> from typing import Literal as L, TypeVar
    >>> import typedtensor as tt
    >>> N = TypeVar("N")
    >>> @tt.shapechecked
    ... def first(x: tt.Tensor[tt.float32, N, L[2]]) -> tt.Tensor[tt.float32, L[2]]:
    ...     return x.max(axis=0)
    >>> first(tt.zeros((3, 2), tt.float32)).shape
    (2,)
    """
    checked: F = _decorate(fn, sys._getframe(1).f_locals)
    return checked


def _decorate(fn: Any, localns: Mapping[str, Any]) -> Any:
    """``shapechecked`` with the decorating scope's locals, for forward references."""
    if isinstance(fn, (staticmethod, classmethod)):
        return type(fn)(_decorate(fn.__func__, localns))
    if isinstance(fn, functools.partial):  # check the arguments it holds as well as the rest
        return functools.partial(_decorate(fn.func, localns), *fn.args, **fn.keywords)
    function = _python_function(fn)
    name = _display_name(function)
    if inspect.iscoroutinefunction(function) or inspect.isasyncgenfunction(function):
        # Bindings live on a per-thread stack, which interleaved coroutines would corrupt.
        raise TypeError(f"shapechecked does not support async functions such as {name}")
    if inspect.isgeneratorfunction(function):
        raise TypeError(
            f"shapechecked does not support generator functions such as {name}: their body runs after "
            "the call that checks the arguments has returned, when its dims are no longer bound"
        )
    return _wrap(fn, (function.__globals__, localns), name)


def _python_function(fn: object) -> types.FunctionType:
    """The Python function behind ``fn``, whose module resolves string annotations: through
    ``functools.wraps``-style wrappers (``functools.cache``), bound methods and callable objects.
    Anything else (a builtin, a class) has no annotations of its own to check."""
    target = inspect.unwrap(fn)  # type: ignore[arg-type]  # any object; stops where __wrapped__ ends
    if inspect.ismethod(target):
        return _python_function(target.__func__)
    if isinstance(target, types.FunctionType):
        return target
    call = getattr(type(target), "__call__", None)
    if isinstance(call, types.FunctionType):
        return call
    raise TypeError(f"shapechecked decorates a function or method, got {type(fn).__name__}")


def _wrap(fn: Callable[..., T], namespaces: Namespaces, name: str) -> Callable[..., T]:
    """The checking wrapper; annotations are translated now, or at the first call if a name is
    not defined yet (a ``Dim`` declared below the function)."""
    plans: list[_Plan] = []
    try:
        plans.append(_plan(fn, namespaces, name))
    except UnresolvedName:
        pass

    @functools.wraps(fn)
    def checked(*args: Any, **kwargs: Any) -> T:
        if not plans:
            plans.append(_plan(fn, namespaces, name))
        plan = plans[0]
        call = CallRecord(plan.name)
        with jaxtyped("context"):
            _calls.stack.append(call)
            try:
                for param in plan.params:
                    param.check(args, kwargs, call)
                result = fn(*args, **kwargs)
                if plan.returns is not None:
                    call.check(result, plan.returns, plan.returns_where)
                return result
            finally:
                _calls.stack.pop()

    return checked


def _plan(fn: Callable[..., Any], namespaces: Namespaces, name: str) -> _Plan:
    """Translate ``fn``'s annotations once; ``AnnotationError`` names the bad one.

    The signature is the one callers see (a partial's remaining parameters, a callable object's
    without ``self``), so positions match the arguments of a call."""
    signature = inspect.signature(fn)
    params = []
    for position, param in enumerate(signature.parameters.values()):
        where = f'parameter "{param.name}" of {name}'
        spec = _spec(param.annotation, namespaces, where)
        if spec is None:
            continue
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            raise AnnotationError(f"{where}: *args and **kwargs annotated with Tensor are not checked")
        keyword_only = param.kind is param.KEYWORD_ONLY
        params.append(_Param(param.name, None if keyword_only else position, param.default, spec, where))
    returns_where = f"return value of {name}"
    returns = _spec(signature.return_annotation, namespaces, returns_where)
    return _Plan(name, tuple(params), returns, returns_where)


def _spec(annotation: object, namespaces: Namespaces, where: str) -> TensorSpec | None:
    return tensor_spec(resolve_annotation(annotation, namespaces, where), namespaces, where)


def _display_name(fn: Callable[..., Any]) -> str:
    """``Model.forward()``: the qualified name without the ``<locals>`` of enclosing functions."""
    qualname = getattr(fn, "__qualname__", repr(fn))
    return f"{qualname.rpartition('<locals>.')[2]}()"


@overload
def check(value: object, annotation: type[T]) -> T: ...
@overload
def check(value: T, annotation: types.UnionType | _SpecialForm) -> T: ...  # ``X | None``, ``Optional[X]``
def check(value: object, annotation: object) -> object:
    """Return ``value`` if it matches ``annotation`` (a ``Tensor[...]``), else raise ``ShapeError``.

    Inside a ``@shapechecked`` call it shares that call's dim bindings.

    >>> from typing import Literal as L
    >>> import typedtensor as tt
    >>> tt.check(tt.zeros((2, 3)), tt.Tensor[tt.floating, L[2], L[3]]).shape
    (2, 3)
    """
    spec = _check_spec(annotation)
    stack = _calls.stack
    call = stack[-1] if stack else CallRecord(None)
    where = "value passed to check()" + (f" in {call.name}" if call.name else "")
    call.check(value, spec, where)
    return value


@functools.lru_cache(maxsize=256)
def _check_spec(annotation: object) -> TensorSpec:
    """The spec of an annotation given to ``check()``, translated once per annotation."""
    spec = tensor_spec(annotation, ({}, {}), "check()")
    if spec is None:
        raise AnnotationError(f"check() takes a Tensor[...] annotation, got {annotation!r}")
    return spec
