"""``Tensor[DT, *dims]`` as mypy sees it, translated to and from the shape rules' ``Shape``.

A dim is kept as the mypy type it is (``Literal[32]``, a ``Dim`` class, a TypeVar), but ``Any``
is the rules' ``UNKNOWN``; the rules treat dims as opaque, so nothing is lost. The one variadic
(``*Ts``, ``*tuple[X, ...]``) is kept as its ``UnpackType``. A TypeVar as ``x.shape`` bounds it
(``_shape_ints``) is read as annotations write it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from mypy.maptype import map_instance_to_supertype
from mypy.messages import format_type_bare
from mypy.options import Options
from mypy.typeops import try_getting_int_literals_from_type
from mypy.types import (
    AnyType,
    Instance,
    LiteralType,
    Type,
    TypeVarType,
    UnionType,
    UnpackType,
    flatten_nested_tuples,
    get_proper_type,
)

from typing_plugins import _dim_expressions
from typing_plugins._names import DIM, DIM_EXPRESSIONS, DIM_SIZE, DTYPES_MODULE, GENERIC, TENSOR
from typing_plugins._rules import shape_rules

MypyShape = shape_rules.Shape[Type, UnpackType]


@dataclass(frozen=True)
class TensorType:
    """A tensor's dtype and shape, in mypy types."""

    dtype: Type
    shape: MypyShape


def tensor_type(typ: Type) -> TensorType | None:
    """``typ`` seen as ``Tensor[DT, *dims]`` (also a subclass of Tensor), or None."""
    proper = get_proper_type(typ)
    if isinstance(proper, TypeVarType):
        proper = get_proper_type(proper.upper_bound)  # what every value of the TypeVar has
    if not isinstance(proper, Instance):
        return None
    tensor_info = next((info for info in proper.type.mro if info.fullname == TENSOR), None)
    if tensor_info is None:
        return None
    dtype, *args = flatten_nested_tuples(map_instance_to_supertype(proper, tensor_info).args)
    if not _is_dtype(dtype):
        # ``Tensor[L[2]]``: mypy has reported the argument; where the dims start is unknown, and
        # a guess (rank 0) would add a second error to the same mistake.
        return None
    dims = [shape_rules.UNKNOWN if _unknown_dim(dim) else declared_dim(dim) for dim in args]
    runs = [index for index, dim in enumerate(dims) if isinstance(dim, UnpackType)]
    if not runs:
        return TensorType(dtype, shape_rules.Shape(tuple(dims)))
    if len(runs) > 1:
        return None
    run = runs[0]
    variadic = dims[run]
    assert isinstance(variadic, UnpackType)  # found so above; narrows the type for mypy
    return TensorType(dtype, shape_rules.Shape(tuple(dims[:run]), _run(variadic), tuple(dims[run + 1 :])))


def int_literal(typ: Type) -> int | None:
    """n of ``Literal[n]`` or of a ``Final`` name (an inferred ``Literal[n]?``); None for a bool, an
    enum member or anything else."""
    values = try_getting_int_literals_from_type(typ)  # only for ``builtins.int``, not ``bool``
    return values[0] if values is not None and len(values) == 1 else None


def read_from_shape(dim: TypeVarType) -> bool:
    """Whether ``dim`` is a TypeVar as ``x.shape`` gives it, bounded by ``DimSize``."""
    bound = get_proper_type(dim.upper_bound)
    return isinstance(bound, Instance) and bound.type.fullname == DIM_SIZE


def declared_dim(dim: Type) -> Type:
    """``dim`` as annotations write it: a TypeVar ``x.shape`` bounded by ``DimSize`` unbounded again."""
    proper = get_proper_type(dim)
    if isinstance(proper, TypeVarType) and read_from_shape(proper):
        bound = get_proper_type(proper.upper_bound)
        assert isinstance(bound, Instance)  # read_from_shape says so; narrows the type for mypy
        return proper.copy_modified(upper_bound=Instance(bound.type.mro[-1], []))  # the last base: object
    return dim


DIM_EXPRESSION_CLASSES: Final = frozenset(DIM_EXPRESSIONS.values())


def named_dim_text(dim: Type, options: Options) -> str | None:
    """How messages write a named dim (SPEC §7: rigid), None for any other dim.

    A named dim is a ``Dim`` class (not ``Dim`` itself: any size), a dim expression over named
    dims (``Mul[B, T]``, SPEC §9: in normal form, one that is not a literal) or a TypeVar. A hook
    sees a TypeVar only where it is in scope, inside the function or class that declares it: at a
    call of a generic function mypy has solved its TypeVars before the hooks of the result run.
    """
    proper = get_proper_type(dim)
    named_class = isinstance(proper, Instance) and (
        (proper.type.has_base(DIM) and proper.type.fullname != DIM) or proper.type.fullname in DIM_EXPRESSION_CLASSES
    )
    return type_text(proper, options) if named_class or isinstance(proper, TypeVarType) else None


def _unknown_dim(dim: Type) -> bool:
    """``Any``, and a negative literal: no tensor has that dim, and the rules would read it as a
    size (``-1`` is reshape's size to solve), so it says nothing more than ``Any``."""
    proper = get_proper_type(dim)
    size = int_literal(proper)
    return isinstance(proper, AnyType) or (size is not None and size < 0)


def _is_dtype(dtype: Type) -> bool:
    """A dtype marker or category, a union of them, ``Any``, or a TypeVar (mypy checks its bound).

    ``*tuple[Any, ...]`` in the dtype's place (``Tensor[*tuple[Any, ...]]``) holds the dtype and
    the dims: the rank is unknown.
    """
    proper = get_proper_type(dtype)
    if isinstance(proper, UnionType):
        return all(map(_is_dtype, proper.items))
    return isinstance(proper, (AnyType, TypeVarType)) or (isinstance(proper, Instance) and proper.type.has_base(GENERIC))


def _run(variadic: UnpackType) -> UnpackType | shape_rules.Unknown:
    """``*tuple[Any, ...]`` is the rules' ``UNKNOWN``; other runs (``*Ts``) are kept as they are."""
    inner = get_proper_type(variadic.type)
    if isinstance(inner, Instance) and inner.type.fullname == "builtins.tuple":
        if isinstance(get_proper_type(inner.args[0]), AnyType):
            return shape_rules.UNKNOWN
    return variadic


def dtype_name(dtype: Type) -> str | None:
    """``float32`` for typedtensor's dtype marker ``float32``; None for TypeVars, Any and others."""
    proper = get_proper_type(dtype)
    if isinstance(proper, Instance) and proper.type.module_name == DTYPES_MODULE:
        return proper.type.name
    return None


def tensor_text(tensor: TensorType, options: Options) -> str:
    """How messages write the tensor: ``Tensor[float32, 32, Batch, *Rest]``."""
    shape = tensor.shape
    if shape.variadic is None:
        run = []
    else:
        run = ["*tuple[Any, ...]" if shape.variadic is shape_rules.UNKNOWN else type_text(shape.variadic, options)]
    dims = [*(type_text(dim, options) for dim in shape.prefix), *run, *(type_text(dim, options) for dim in shape.suffix)]
    return shape_rules.format_tensor(dtype_name(tensor.dtype) or type_text(tensor.dtype, options), dims)


def type_text(typ: Type | shape_rules.Unknown, options: Options) -> str:
    """How messages write a dim or a dtype: ``32``, ``Batch``, ``B*T``, ``Any``."""
    if isinstance(typ, shape_rules.Unknown):
        return "Any"
    proper = get_proper_type(typ)
    if isinstance(proper, LiteralType):
        return repr(proper.value)
    if isinstance(proper, UnpackType):
        return "*" + type_text(proper.type, options)
    expression = _dim_expressions.expression_text(proper, lambda atom: type_text(atom, options))
    return expression if expression is not None else format_type_bare(proper, options)
