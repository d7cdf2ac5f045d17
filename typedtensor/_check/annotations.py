"""Translating ``Tensor[...]`` annotations into jaxtyping array types, once per annotation.

``Tensor[float32, Batch, L[784], N, *Ts]`` becomes a ``TensorSpec``: the dtypes it accepts (from
our marker hierarchy, so ``floating`` accepts ``float32`` exactly as the static types say) and
``jaxtyping.Shaped[Any, "Batch 784 N *Ts"]`` (any library's array), whose ``isinstance`` check binds the named
dims in jaxtyping's per-call memo. jaxtyping owns every shape decision; this module only spells
our annotations in its language and says clearly when an annotation cannot be spelled. A
subclass of ``Tensor`` is checked as the ``Tensor[...]`` it derives from, and as its own class.
"""

from __future__ import annotations

import ast
import dataclasses
import itertools
import re
import sys
import threading
import types
import typing
import weakref
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, TypeVar, TypeVarTuple, Unpack

import numpy as np
from jaxtyping import AbstractArray, AbstractDtype, Shaped

from typedtensor._dims import Add, Dim, Div, Mul, Sub
from typedtensor._dtypes import CONCRETE_DTYPES, generic, numpy_dtype_of
from typedtensor._errors import AnnotationError
from typedtensor._shape_rules import Operation, OperationName, Polynomial, Tree, expression_text, format_tensor, normal_form
from typedtensor._tensor import Tensor

#: The namespaces a string annotation is evaluated in: the function's globals, then the locals
#: of the scope that applied the decorator (a class body or an enclosing function).
Namespaces = tuple[dict[str, Any], Mapping[str, Any]]

_VALID_DIMS = "Literal[n], a Dim subclass, a TypeVar, Add/Sub/Mul/Div of dims, Any, *Ts or *tuple[Any, ...]"

#: The dim expressions, by class.
_OPERATIONS: Final[dict[object, OperationName]] = {Add: "Add", Sub: "Sub", Mul: "Mul", Div: "Div"}


class UnresolvedName(AnnotationError):
    """A forward reference naming something not (yet) defined; retried at the first call."""


@dataclass(frozen=True)
class DimSpec:
    """One dim of an annotation: how messages write it and how jaxtyping spells it."""

    text: str
    token: str
    binds: bool  # a named size (Dim, TypeVar, *Ts) that the call binds on first use
    #: A dim expression (``C//H``) over the symbols of named dims: jaxtyping passes any size
    #: (``token`` is ``_``), and the decorator computes it from the dims the call has bound.
    expression: Polynomial | None = None

    @property
    def is_run(self) -> bool:
        """Whether this stands for a run of dims (``*Ts`` or ``*tuple[Any, ...]``)."""
        return self.token.startswith(("*", "..."))


ANY_RUN: Final = DimSpec("*tuple[Any, ...]", "...", False)


@dataclass(frozen=True, kw_only=True)
class ShapeSpec:
    """What a checked array's shape must be: its dims and the jaxtyping type that checks them."""

    text: str  # how messages write the annotation
    dims: tuple[DimSpec, ...]
    shape_type: type  # jaxtyping's; its ``isinstance`` binds the named dims in the call's memo
    variadic_index: int | None
    optional: bool = False  # ``X | None``: None passes too

    def aligned(self, shape: tuple[int, ...]) -> list[tuple[DimSpec, int | tuple[int, ...]]]:
        """Each dim with its size in ``shape`` (a run's as a tuple), in the order jaxtyping checks
        them: the run after the other dims. Empty if the rank cannot match."""
        index = self.variadic_index
        if index is None:
            return list(zip(self.dims, shape)) if len(shape) == len(self.dims) else []
        if len(shape) < len(self.dims) - 1:
            return []
        stop = len(shape) - (len(self.dims) - index - 1)
        fixed = zip(self.dims[:index] + self.dims[index + 1 :], shape[:index] + shape[stop:])
        return [*fixed, (self.dims[index], shape[index:stop])]

    def symbol_names(self) -> Iterable[tuple[str, str]]:
        """Each named dim's jaxtyping symbol with the name the user wrote."""
        return ((dim.token.lstrip("*"), dim.text.lstrip("*")) for dim in self.dims if dim.binds)

    def in_dim_names(self, text: str) -> str:
        """jaxtyping's ``text`` with our dims' symbols (``N_2``) written as the user's names (``N``)."""
        for symbol, name in self.symbol_names():
            if symbol != name:
                text = re.sub(rf"\b{re.escape(symbol)}\b", name, text)
        return text


@dataclass(frozen=True, kw_only=True)
class TensorSpec(ShapeSpec):
    """A checkable ``Tensor[...]`` annotation, or a subclass of ``Tensor``."""

    dtype_text: str
    dtypes: frozenset[np.dtype[Any]]
    #: A constrained TypeVar dtype (``TypeVar("I", int32, int64)``) binds one of its ``constraints``
    #: per call, as mypy solves it to one; a bound TypeVar is just its bound (mypy joins there).
    dtype_var: TypeVar | None = None
    constraints: tuple[type[generic], ...] = ()
    tensor_class: type[Tensor[Any, *tuple[Any, ...]]] = Tensor  # a subclass for ``Images``


def tensor_spec(annotation: object, namespaces: Namespaces, where: str) -> TensorSpec | None:
    """The spec of a resolved annotation, or ``None`` if it is not ``Tensor`` nor a subclass.

    ``where`` ("parameter "x" of f()") starts every error message.

    >>> import typedtensor as tt
    >>> spec = tensor_spec(tt.Tensor[tt.float32, Literal[3]], ({}, {}), "x")
    >>> spec.text, spec.shape_type.__name__
    ('Tensor[float32, 3]', "Shaped[Any, '3']")
    """
    cls = typing.get_origin(annotation) or annotation
    if not (isinstance(cls, type) and issubclass(cls, Tensor)):
        return None
    if cls is not Tensor:
        spec = tensor_spec(_tensor_base(annotation, cls, where), namespaces, where)
        assert spec is not None  # a Tensor annotation, found so by _tensor_base
        return dataclasses.replace(spec, text=f"{cls.__name__} (a {spec.text})", tensor_class=cls)
    if annotation is Tensor:
        return _build_spec(generic, [ANY_RUN], where)
    dtype, *dims = typing.get_args(annotation)
    dim_specs = [spec for dim in dims for spec in _dim_specs(_resolve(dim, namespaces, where), where)]
    return _build_spec(_resolve(dtype, namespaces, where), dim_specs, where)


def _tensor_base(annotation: object, cls: type, where: str) -> object:
    """The ``Tensor[...]`` base that a subclass annotation (``Images``, ``Seq[float32, L[3]]``)
    stands for, its type parameters substituted; a bare generic subclass has them all ``Any``."""
    bases = cls.__dict__.get("__orig_bases__", cls.__bases__)
    base = next(base for base in bases if issubclass(typing.get_origin(base) or base, Tensor))
    parameters = getattr(base, "__parameters__", ())
    if parameters:
        args = typing.get_args(annotation)
        if not args:
            args = tuple(Unpack[tuple[Any, ...]] if isinstance(p, TypeVarTuple) else Any for p in parameters)
        elif parameters != cls.__parameters__:  # type: ignore[attr-defined]  # a generic class has them
            raise AnnotationError(
                f"{where}: {show(annotation)} cannot be checked: the type parameters of {cls.__name__} "
                f"are not those of its base {show(base)}, in order"
            )
        base = base[args]
    base_class = typing.get_origin(base) or base
    return base if base_class is Tensor else _tensor_base(base, base_class, where)


def resolve_annotation(annotation: object, namespaces: Namespaces, where: str) -> object:
    """``annotation`` with a string (``from __future__ import annotations``) evaluated.

    A string that cannot be evaluated and names no ``Tensor`` is left alone: it may name a class
    imported only under ``TYPE_CHECKING``, and it is not ours to check. One that names ``Tensor``
    anywhere (``Tensor[...] | None`` too) raises, so that it is retried, never left unchecked.
    """
    if not isinstance(annotation, str):
        return annotation
    try:
        return _resolve(annotation, namespaces, where)
    except UnresolvedName:
        if _names_tensor(annotation, namespaces):
            raise
        return annotation


def _resolve(value: object, namespaces: Namespaces, where: str) -> object:
    """``value`` with a string or ``ForwardRef`` evaluated the way ``typing.get_type_hints`` does."""
    if isinstance(value, typing.ForwardRef):
        value = value.__forward_arg__
    if not isinstance(value, str):
        return value
    try:
        return eval(value, *namespaces)  # annotations are code, as in get_type_hints
    except NameError as error:
        raise UnresolvedName(
            f"{where}: cannot resolve the forward reference {value!r}: {error} "
            "(define or import it at module level before the first call)"
        ) from None


def _names_tensor(text: str, namespaces: Namespaces) -> bool:
    """Whether the annotation ``text`` names ``Tensor``, a subclass of it or a jaxtyping array
    type in any of its names (``tt.Tensor``, ``Float`` too)."""
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError:
        return False
    names = (node for node in ast.walk(tree) if isinstance(node, (ast.Name, ast.Attribute)))
    return any(_evaluates_to_ours(node, namespaces) for node in names)


def _evaluates_to_ours(node: ast.expr, namespaces: Namespaces) -> bool:
    try:
        code = compile(ast.Expression(node), "<annotation>", "eval")
        value = eval(code, *namespaces)  # annotations are code, as in get_type_hints
    except Exception:  # a name we cannot evaluate is simply not known to be ours
        return False
    return isinstance(value, type) and issubclass(value, (Tensor, AbstractArray, AbstractDtype))


def is_jaxtyping_array(annotation: object) -> bool:
    """``Float[np.ndarray, "N"]`` and the like: jaxtyping's array annotations."""
    return isinstance(annotation, type) and issubclass(annotation, AbstractArray)


def _dtype_markers(dtype: object, where: str) -> tuple[type[generic], ...]:
    """The marker classes a dtype argument accepts: ``Any`` all, a TypeVar its bound or each of
    its constraints."""
    if dtype is Any:
        return (generic,)
    if isinstance(dtype, TypeVar):
        choices = dtype.__constraints__ or (dtype.__bound__ or generic,)
        return tuple(_dtype_marker(choice, where) for choice in choices)
    return (_dtype_marker(dtype, where),)


def _dtype_marker(dtype: object, where: str) -> type[generic]:
    if isinstance(dtype, type) and issubclass(dtype, generic):
        return dtype
    raise AnnotationError(
        f"{where}: {show(dtype)} is not a typedtensor dtype (use a marker such as typedtensor.float32 "
        "or a category such as typedtensor.floating as the first argument of Tensor[...])"
    )


# A plain dict rather than functools.cache: mypy does not count a class as Hashable.
_DTYPES_OF: dict[type[generic], frozenset[np.dtype[Any]]] = {}


def dtypes_of(marker: type[generic]) -> frozenset[np.dtype[Any]]:
    """The numpy dtypes of the concrete markers within ``marker`` (a marker or a category), worked
    out once per marker: calls with a constrained dtype TypeVar ask for them at every check."""
    dtypes = _DTYPES_OF.get(marker)
    if dtypes is None:
        dtypes = _DTYPES_OF[marker] = frozenset(numpy_dtype_of(m) for m in CONCRETE_DTYPES if issubclass(m, marker))
    return dtypes


def fitting(dtype: np.dtype[Any], markers: tuple[type[generic], ...]) -> tuple[type[generic], ...]:
    """Those of ``markers`` that accept ``dtype``."""
    return tuple(marker for marker in markers if dtype in dtypes_of(marker))


def _dim_specs(dim: object, where: str) -> list[DimSpec]:
    """The dims one resolved argument of ``Tensor[...]`` stands for: one, or an unpacked run."""
    if is_unpacked(dim):
        return _unpacked_dims(_unpacked_argument(dim), where)
    return [_dim_spec(dim, where)]


def _dim_spec(dim: object, where: str) -> DimSpec:
    """How one resolved dim is written and checked; ``AnnotationError`` if it is none."""
    if dim is Any:
        return DimSpec("Any", "_", False)
    if (isinstance(dim, type) and issubclass(dim, Dim) and dim is not Dim) or isinstance(dim, TypeVar):
        return DimSpec(dim.__name__, symbol_of(dim, where), True)
    if typing.get_origin(dim) is Literal:
        return _literal_dim(dim, where)
    if typing.get_origin(dim) in _OPERATIONS:
        return _expression_dim(dim, where)
    hint = f" (write Literal[{dim}])" if isinstance(dim, int) and not isinstance(dim, bool) else ""
    raise AnnotationError(f"{where}: {show(dim)} is not a valid dim{hint}; a dim is {_VALID_DIMS}")


def _literal_dim(dim: object, where: str) -> DimSpec:
    """A ``Literal[n]`` dim: exactly one non-negative int."""
    values = typing.get_args(dim)
    size = values[0] if len(values) == 1 else None
    if type(size) is not int or size < 0:
        raise AnnotationError(f"{where}: {show(dim)} is not a valid dim; a Literal dim is one size such as Literal[32]")
    return DimSpec(str(size), str(size), False)


class _UnknownPart(Exception):
    """``Any`` in a dim expression."""


def _expression_dim(dim: object, where: str) -> DimSpec:
    """A dim expression (``Div[C, H]``) in its normal form: a literal or a named dim if it is
    one (``Div[Mul[A, B], B]`` is ``A``), else computed at the check."""
    named: dict[str, DimSpec] = {}
    try:
        form = normal_form(_expression_tree(dim, named, where))
    except _UnknownPart:
        return _dim_spec(Any, where)  # a size computed from an unknown one is unknown, as for mypy
    if form.literal is not None:
        return _literal_dim(Literal[form.literal], where)
    text = expression_text(form, lambda symbol: named[symbol].text)
    (monomial, coefficient), *rest = form.terms
    if not rest and coefficient == 1 and len(monomial) == 1 and isinstance(monomial[0], str):
        return named[monomial[0]]
    return DimSpec(text, "_", False, form)


def _expression_tree(dim: object, named: dict[str, DimSpec], where: str) -> Tree:
    """The rules' tree of a dim expression, each named dim by its jaxtyping symbol in ``named``."""
    operation = _OPERATIONS.get(typing.get_origin(dim))
    if operation is not None:
        left, right = (_expression_tree(arg, named, where) for arg in typing.get_args(dim))
        return Operation(operation, left, right)
    spec = _dim_spec(dim, where)
    if spec.binds:
        named[spec.token] = spec
        return spec.token
    if spec.token.isdigit():
        return int(spec.token)
    raise _UnknownPart  # the one dim left: Any


def _unpacked_dims(inner: object, where: str) -> list[DimSpec]:
    """``*Ts`` binds a run of dims; ``*tuple[Any, ...]`` (or ``*tuple[int, ...]``) matches any run;
    a fixed ``*tuple[L[2], N]`` is the dims it lists (PEP 646 allows all three)."""
    if isinstance(inner, TypeVarTuple):
        return [DimSpec(f"*{inner.__name__}", f"*{symbol_of(inner, where)}", True)]
    args = typing.get_args(inner)
    if typing.get_origin(inner) is tuple and args in ((Any, ...), (int, ...)):
        return [ANY_RUN]
    if typing.get_origin(inner) is tuple and ... not in args:
        return [_dim_spec(dim, where) for dim in args]
    raise AnnotationError(
        f"{where}: *{show(inner)} is not a valid run of dims; "
        "use *Ts, *tuple[Any, ...] or fixed dims such as *tuple[Literal[2], N]"
    )


def is_unpacked(dim: object) -> bool:
    """``*Ts``, ``*tuple[...]`` and ``Unpack[...]`` all arrive as different objects."""
    return _is_unpack_form(dim) or getattr(dim, "__unpacked__", False) is True


def _is_unpack_form(dim: object) -> bool:
    """``Unpack[...]`` of ``typing``, or of ``typing_extensions``, which before Python 3.12 has
    its own ``Unpack`` (the spelling of libraries that support older Pythons). A user who wrote
    the latter has imported it, so it is looked up, never imported here."""
    origin = typing.get_origin(dim)
    extensions = sys.modules.get("typing_extensions")
    return origin is Unpack or (extensions is not None and origin is getattr(extensions, "Unpack", Unpack))


def _unpacked_argument(dim: object) -> object:
    """``Ts`` of ``*Ts`` / ``Unpack[Ts]``; ``tuple[Any, ...]`` of ``*tuple[Any, ...]``."""
    if _is_unpack_form(dim):
        return typing.get_args(dim)[0]
    return tuple[typing.get_args(dim)]  # type: ignore[misc]  # rebuild the packed tuple type


#: Each named dim's jaxtyping symbol, and every symbol ever handed out. jaxtyping binds dims by
#: symbol, so distinct dim objects need distinct symbols even when their names collide.
_symbols: weakref.WeakKeyDictionary[object, str] = weakref.WeakKeyDictionary()
_taken: set[str] = set()
_symbols_lock = threading.Lock()


def symbol_of(dim: type | TypeVar | TypeVarTuple, where: str) -> str:
    """The jaxtyping symbol of a named dim: one per object, so that dims bind nominally (two
    classes called ``Batch``, or a ``Dim`` and a TypeVar called ``N``, are different dims), and
    with no leading ``_``, which jaxtyping reads as "anonymous". Messages translate it back."""
    name = dim.__name__
    if not name.isidentifier():
        raise AnnotationError(f"{where}: the dim name {name!r} is not an identifier")
    with _symbols_lock:
        symbol = _symbols.get(dim)
        if symbol is None:
            base = name.lstrip("_") or "dim"
            symbol = next(
                candidate
                for candidate in itertools.chain([base], (f"{base}_{n}" for n in itertools.count(2)))
                if candidate not in _taken
            )
            _taken.add(symbol)
            _symbols[dim] = symbol
        return symbol


def _build_spec(dtype: object, dims: list[DimSpec], where: str) -> TensorSpec:
    """The spec of a resolved dtype and validated dims, with its jaxtyping array type."""
    variadic = [index for index, dim in enumerate(dims) if dim.is_run]
    if len(variadic) > 1:
        raise AnnotationError(f"{where}: a shape may contain only one unpacked *Ts or *tuple[Any, ...]")
    markers = _dtype_markers(dtype, where)
    var = dtype if isinstance(dtype, TypeVar) and dtype.__constraints__ else None
    dtype_text = var.__name__ if var else markers[0].__name__
    return TensorSpec(
        text=format_tensor(dtype_text, [dim.text for dim in dims]),
        dtype_text=dtype_text,
        dtypes=frozenset().union(*map(dtypes_of, markers)),
        dims=tuple(dims),
        # Any array type: a Tensor over torch, jax or dask is checked as one over numpy (SPEC 10)
        shape_type=typing.cast(type, Shaped[typing.Any, " ".join(dim.token for dim in dims)]),
        variadic_index=variadic[0] if variadic else None,
        dtype_var=var,
        constraints=markers if var else (),
    )


def show(value: object) -> str:
    """A value as an annotation would spell it: classes by name, ``Literal[2, 3]`` and
    ``list[Tensor[float32, N]]`` without module paths, TypeVars without ``~``."""
    if isinstance(value, type) and not isinstance(value, types.GenericAlias):
        return value.__name__
    return _MODULE_PATH.sub("", repr(value)).replace("~", "")


_MODULE_PATH: Final = re.compile(r"\b(?:[a-z_][a-z0-9_]*\.)+(?=[A-Za-z_])")
