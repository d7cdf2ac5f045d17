"""Runtime shape checks: ``@shapechecked`` and ``check(x, Tensor[...])``.

Each checked call opens a jaxtyping context (``jaxtyped("context")``), so jaxtyping's memo binds
the call's named dims on first use and compares them everywhere else; nested checked calls open
their own. Annotations are translated once per function (``_specs``); a call only looks up its
arguments and runs one dtype lookup and one jaxtyping ``isinstance`` per tensor (per item of a
list or tuple of them).

Under torch.compile a call is checked while dynamo traces it, from its tensors' classes, shapes
and dtypes (``_traced_error``): once per shape, nothing in the graph, no graph break. A
``check()`` in its body then runs on its own, outside the call's bindings.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import operator
import os
import sys
import threading
import types
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any, Final, TypeVar, _SpecialForm, overload

import numpy as np
from jaxtyping import jaxtyped

from typedtensor._check.annotations import Namespaces, TensorSpec, UnresolvedName
from typedtensor._check.bindings import CallRecord, expression_reason
from typedtensor._check.jaxtyping_arrays import ArraySpec, DimNames
from typedtensor._check.report import Item, Where, mismatch
from typedtensor._check.specs import SequenceSpec, Spec, annotation_spec, function_specs
from typedtensor._check.unknown_sizes import ShapeAndDtype, matches
from typedtensor._dtypes import numpy_dtype_like
from typedtensor._errors import AnnotationError, ShapeError, TypedTensorError
from typedtensor._ops.backends import compiling
from typedtensor._tensor import Tensor

F = TypeVar("F")
T = TypeVar("T")

_MISSING = inspect.Parameter.empty

# Read once, at import: off in production, ``@shapechecked`` returns the function itself, so a
# call costs what an undecorated one does (no wrapper to look the switch up in).
CHECKS_ON = os.environ.get("TYPEDTENSOR_CHECKS") != "0"

_CHECKED_MARK = "__shapechecked__"


def _check_value(call: CallRecord, value: object, spec: Spec, where: Where) -> ShapeError | None:
    """The error if ``value`` does not match ``spec`` in ``call``; its dims are bound if it does.

    Returned, not raised: the caller raises it where the user's traceback should end.
    """
    if value is None and spec.optional:
        return None
    if isinstance(spec, SequenceSpec):
        return _check_items(call, value, spec, where)
    return None if _matches(call, value, spec, where) else mismatch(where, spec, value, call)


def _matches(call: CallRecord, value: object, spec: TensorSpec | ArraySpec, where: Where) -> bool:
    """Whether ``value`` matches a tensor or array spec; binds its dims in ``call`` if it does."""
    if isinstance(spec, ArraySpec):
        if not isinstance(value, spec.shape_type):  # jaxtyping checks the array type and dtype too
            return False
        shape = tuple(value.shape)  # type: ignore[attr-defined]  # an array, found so by jaxtyping
    else:
        if not isinstance(value, spec.tensor_class):
            return False
        array = value.array  # any library's: only its shape and dtype are read, never its values (a lazy or traced array stays so)
        dtype, shape = numpy_dtype_like(array.dtype), tuple(array.shape)
        if not (
            dtype in spec.dtypes
            and (spec.dtype_var is None or call.bind_dtype(spec, spec.dtype_var, dtype))
            and (isinstance(array, spec.shape_type) if type(array) is np.ndarray else matches(array, shape, spec.shape_type))
            and expression_reason(call, spec, shape, where) is None
        ):
            return False
    call.checked.append((spec, shape))
    return True


def _check_items(call: CallRecord, value: object, spec: SequenceSpec, where: Where) -> ShapeError | None:
    """Each item of a list or tuple against its spec, binding as it goes."""
    if not isinstance(value, (list, tuple)) or not isinstance(value, spec.kind) or not spec.fits_length(len(value)):
        return mismatch(where, spec, value, call)
    for index, item in enumerate(value):
        item_spec = spec.item(index)
        if item_spec is not None and (error := _check_value(call, item, item_spec, Item(index, where))):
            return error
    return None


class _Calls(threading.local):
    """The checked calls running on this thread, innermost last (jaxtyping's memo is per thread too)."""

    def __init__(self) -> None:
        self.stack: list[CallRecord] = []


_calls = _Calls()


@dataclass(frozen=True)
class _Param:
    """A parameter whose annotation holds tensors: where to find its argument and what it must match."""

    name: str
    position: int | None  # None for keyword-only parameters
    default: object
    spec: Spec
    where: str

    def value(self, args: tuple[object, ...], kwargs: Mapping[str, object]) -> object:
        """This parameter's argument in a call (``_MISSING`` if it has none)."""
        position = self.position
        if position is not None and position < len(args):
            return args[position]
        return kwargs.get(self.name, self.default)

    def check(self, args: tuple[object, ...], kwargs: Mapping[str, object], call: CallRecord) -> ShapeError | None:
        value = self.value(args, kwargs)
        if value is _MISSING:  # a missing argument is the call's own TypeError, raised by fn
            return None
        return _check_value(call, value, self.spec, self.where)


@dataclass(frozen=True)
class _Plan:
    """What a checked function checks: its tensor parameters and its return value."""

    name: str
    names: DimNames  # of the function's Tensor dims, shared with check()'s jaxtyping annotations
    params: tuple[_Param, ...]
    returns: Spec | None
    returns_where: str
    complete: bool  # every string annotation resolved; else translated again at the first call


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

    With ``TYPEDTENSOR_CHECKS=0`` in the environment at import, it returns ``fn`` itself.
    """
    if not CHECKS_ON:
        return fn
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
    return _wrap(fn, (function.__globals__, localns), function)


def shapechecked_if_annotated(function: types.FunctionType, localns: Mapping[str, Any]) -> Callable[..., Any] | None:
    """``function`` checked if its annotations name a tensor, else ``None`` (nothing to check,
    nothing to pay): what the import hook applies. Raises what ``shapechecked`` would on a bad
    annotation, and ``UnresolvedName`` for a tensor annotation naming what is not defined."""
    plan = _plan(function, (function.__globals__, localns), function)
    if not plan.params and plan.returns is None:
        return None
    wrapped: Callable[..., Any] = _decorate(function, localns)
    return wrapped


def is_shapechecked(fn: object) -> bool:
    """Whether ``fn`` is (or ``functools.wraps`` something that is) a checked function."""
    return getattr(fn, _CHECKED_MARK, False) is True


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


def _wrap(fn: Callable[..., T], namespaces: Namespaces, function: types.FunctionType) -> Callable[..., T]:
    """The checking wrapper; annotations are translated now, and again at the first call if a
    name is not defined yet (a ``Dim`` or a ``Tensor`` subclass declared below the function).

    A mismatch is raised here, in the one frame of typedtensor's that the user's traceback
    shows below the call: the checker's own frames would bury the call site.
    """
    plans: list[_Plan] = []
    try:
        plan = _plan(fn, namespaces, function)
    except UnresolvedName:
        pass
    else:
        if plan.complete:
            plans.append(plan)

    @functools.wraps(fn)
    def checked(*args: Any, **kwargs: Any) -> T:
        if not plans:
            plans.append(_plan(fn, namespaces, function))
        plan = plans[0]
        if compiling():  # torch.compile is tracing the call: no jaxtyping context, no stack (dynamo traces neither)
            if error := _traced_error(plan, args, kwargs, ()):
                raise error
            result = fn(*args, **kwargs)
            if plan.returns is not None and (error := _traced_error(plan, args, kwargs, (result,))):
                raise error
            return result
        call = CallRecord(plan.name, plan.names)
        with jaxtyped("context"):
            _calls.stack.append(call)
            try:
                if error := _arguments_error(plan, args, kwargs, call):
                    raise error
                result = fn(*args, **kwargs)
                if plan.returns is not None and (error := _check_value(call, result, plan.returns, plan.returns_where)):
                    raise error
                return result
            finally:
                _calls.stack.pop()

    setattr(checked, _CHECKED_MARK, True)  # copied onto outer wrappers by functools.wraps
    return checked


def _arguments_error(plan: _Plan, args: tuple[object, ...], kwargs: Mapping[str, object], call: CallRecord) -> ShapeError | None:
    """The error of the first argument that does not match its annotation; the others bind their dims in ``call``."""
    for param in plan.params:
        if error := param.check(args, kwargs, call):
            return error
    return None


def _call_error(plan: _Plan, args: tuple[object, ...], kwargs: Mapping[str, object], result: tuple[object, ...]) -> ShapeError | None:
    """The error of a call's arguments, and of its return value if ``result`` holds it, checked eagerly."""
    call = CallRecord(plan.name, plan.names)
    with jaxtyped("context"):
        if (error := _arguments_error(plan, args, kwargs, call)) or plan.returns is None or not result:
            return error
        return _check_value(call, result[0], plan.returns, plan.returns_where)


#: What ``_described`` gives for a value whose check reads more than a class, a shape and a dtype:
#: an array of a jaxtyping annotation, a value of a wrong type.
_UNDESCRIBED: Final = "undescribed"


def _traced_error(plan: _Plan, args: tuple[object, ...], kwargs: Mapping[str, object], result: tuple[object, ...]) -> Exception | None:
    """The error of a call that torch.compile is tracing: of its arguments, and of its return value
    if ``result`` holds it. The checks read the tensors' classes, shapes and dtypes, constants of
    the trace, so they run while dynamo traces (``_described_error``), once per shape: none of
    them enters the graph or breaks it. Other values are checked eagerly, between graphs."""
    values = [*(param.value(args, kwargs) for param in plan.params), *result]
    described = tuple(_described(value) for value in values)
    if any(description is _UNDESCRIBED for description in described):
        return _call_error(plan, args, kwargs, result)
    error = _described_error(plan, described)
    return None if error is None else error[0](error[1])


def _described(value: object) -> Any:
    """A tensor's class, shape and dtype (a list's or tuple's, its items'), as constants of a trace."""
    if value is None:
        return None
    if isinstance(value, Tensor):
        array = value.array
        # operator.index makes a size dynamo traces as symbolic a constant: the call's checks read every size
        return ("tensor", type(value), tuple(operator.index(size) for size in array.shape), array.dtype)
    if type(value) is list or type(value) is tuple:  # a subclass may not be made from its items
        items = tuple(_described(item) for item in value)
        return _UNDESCRIBED if any(item is _UNDESCRIBED for item in items) else ("sequence", type(value), items)
    return _UNDESCRIBED


def _described_error(plan: _Plan, described: tuple[Any, ...]) -> tuple[type[Exception], str] | None:
    """The class and message of the error of values so described against ``plan`` (the parameters',
    then the return value's if it is described): the checks, on stand-ins of the described class,
    shape and dtype, whose messages read nothing else. Given as constants, for torch.compile."""
    call = CallRecord(plan.name, plan.names)
    specs = [(param.spec, param.where) for param in plan.params] + [(plan.returns, plan.returns_where)]
    try:
        with jaxtyped("context"):
            for (spec, where), description in zip(specs, described):
                if spec is not None and (error := _check_value(call, _stand_in(description), spec, where)):
                    return type(error), str(error)
    except TypedTensorError as error:  # an AnnotationError: a dim expression's names are bound by nothing
        return type(error), str(error)
    return None


# torch._dynamo.assume_constant_result's mark, set without importing torch: dynamo calls the
# function while it traces, with constant arguments, and keeps what it returns as a constant.
setattr(_described_error, "_dynamo_marked_constant", True)


def _stand_in(description: Any) -> object:
    """A value of the class, shape and dtype that ``_described`` gave, for the checks to read."""
    if description is None:
        return None
    if description[0] == "tensor":
        _, cls, shape, dtype = description
        tensor = object.__new__(cls)
        tensor._array = ShapeAndDtype(dtype, shape)
        return tensor
    _, cls, items = description
    return cls(_stand_in(item) for item in items)


def _plan(fn: Callable[..., Any], namespaces: Namespaces, function: types.FunctionType) -> _Plan:
    """Translate ``fn``'s annotations once; ``AnnotationError`` names the bad one.

    The signature is the one callers see (a partial's remaining parameters, a callable object's
    without ``self``), so positions match the arguments of a call. ``function`` is the Python
    function behind ``fn``, which names it in messages."""
    name = _display_name(function)
    signature = inspect.signature(fn)
    # The traceback of a bad return value ends at the call, not in the function: say where it is.
    code = function.__code__
    returns_where = f"return value of {name} (defined at {code.co_filename}:{code.co_firstlineno})"
    parameters = list(signature.parameters.values())
    wheres = [f'parameter "{param.name}" of {name}' for param in parameters] + [returns_where]
    annotations = [param.annotation for param in parameters] + [signature.return_annotation]
    translated = function_specs(list(zip(annotations, wheres)), namespaces)
    params = []
    for position, (param, spec, where) in enumerate(zip(parameters, translated.specs, wheres)):
        if spec is None:
            continue
        if param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            raise AnnotationError(f"{where}: *args and **kwargs annotated with Tensor are not checked")
        keyword_only = param.kind is param.KEYWORD_ONLY
        params.append(_Param(param.name, None if keyword_only else position, param.default, spec, where))
    return _Plan(name, translated.names, tuple(params), translated.specs[-1], returns_where, translated.complete)


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

    Inside a ``@shapechecked`` call it shares that call's dim bindings. It takes every annotation
    ``shapechecked`` checks (a list of tensors, a jaxtyping array, ...).

    >>> from typing import Literal as L
    >>> import typedtensor as tt
    >>> tt.check(tt.zeros((2, 3)), tt.Tensor[tt.floating, L[2], L[3]]).shape
    (2, 3)

    With ``TYPEDTENSOR_CHECKS=0`` in the environment at import, it returns ``value`` unchecked.
    """
    if not CHECKS_ON:
        return value
    stack = _calls.stack
    call = stack[-1] if stack else CallRecord(None, ())
    spec = tensor_spec(annotation, call.names)
    if spec is None:
        raise _not_an_annotation(annotation)
    where = "value passed to check()" + (f" in {call.name}" if call.name else "")
    if error := check_in_call(call, value, spec, where, standalone=not stack):
        raise error
    return value


def calls_running() -> list[CallRecord]:
    """The checked calls running on this thread, innermost last."""
    return _calls.stack


def check_in_call(call: CallRecord, value: object, spec: Spec, where: str, standalone: bool) -> ShapeError | None:
    """The error if ``value`` does not match ``spec`` with ``call``'s bindings; ``standalone``
    (no checked call running) gives it a jaxtyping context of its own, so a list's items share dims."""
    with jaxtyped("context") if standalone else contextlib.nullcontext():
        return _check_value(call, value, spec, where)


def tensor_spec(annotation: object, names: DimNames) -> Spec | None:
    """The spec of an annotation given to ``check()`` (``None`` if it names no tensor), translated
    once per annotation and call names; raises ``AnnotationError`` on one that cannot be checked."""
    try:
        return _cached_spec(annotation, names)
    except TypeError:
        if isinstance(annotation, Hashable):  # the spec's own error (an AnnotationError among them)
            raise
        return None  # a list or dict, which the cache cannot key: no annotation either


@functools.lru_cache(maxsize=256)
def _cached_spec(annotation: object, names: DimNames) -> Spec | None:
    return annotation_spec(annotation, ({}, {}), "check()", names)


def _not_an_annotation(annotation: object) -> AnnotationError:
    return AnnotationError(f"check() takes a Tensor[...] annotation, got {annotation!r}")
