"""Reading ``axis``, ``keepdims`` and ``shape`` from a call, as values the shape rules understand.

A literal (``Literal`` types, ``Final`` names, tuples and lists of literals) becomes its value; a
well-typed argument that is not literal becomes ``UNKNOWN`` (a plain ``int`` axis becomes
``(UNKNOWN,)``, which keeps the rank). Anything else raises ``NotUnderstood``, and the caller
falls back to the declared type: mypy already reports arguments of the wrong type.
"""

from __future__ import annotations

from typing import Final

from mypy.nodes import ArgKind, Expression, ListExpr, SliceExpr, StarExpr, TupleExpr
from mypy.types import (
    AnyType,
    Instance,
    LiteralType,
    LiteralValue,
    NoneType,
    ProperType,
    TupleType,
    Type,
    UnionType,
    UnpackType,
    get_proper_type,
)

from typing_plugins._calls import CallContext, NotUnderstood
from typing_plugins._rules import shape_rules
from typing_plugins._tensor_types import dtype_name, tensor_type

def axis_argument(ctx: CallContext) -> shape_rules.AxisSpec:
    """``axis`` of the call (``None`` when not passed)."""
    actual = _actual(ctx, "axis")
    if actual is None:
        return None
    typ, expr = actual
    if isinstance(expr, ListExpr):
        # A list display's type is ``list[int]``: the literals survive only in its items.
        return tuple(_axis_item(ctx.api.get_expression_type(item)) for item in expr.items)
    return _axis_from_type(typ)


def keepdims_argument(ctx: CallContext) -> bool | shape_rules.Unknown:
    """``keepdims`` of the call (``False`` when not passed)."""
    actual = _actual(ctx, "keepdims")
    if actual is None:
        return False
    typ = _proper(actual[0])
    value = _literal_value(typ)
    if isinstance(value, bool):
        return value
    if isinstance(typ, AnyType) or (isinstance(typ, Instance) and typ.type.fullname == "builtins.bool"):
        return shape_rules.UNKNOWN
    raise NotUnderstood


def shape_argument(ctx: CallContext) -> tuple[int | shape_rules.Unknown, ...]:
    """``shape`` of ``zeros``/``ones``/``full``: each literal size, or ``UNKNOWN``."""
    actual = _actual(ctx, "shape")
    if actual is None:
        raise NotUnderstood  # shape is required: mypy reports the call
    typ, expr = actual
    if isinstance(expr, TupleExpr):
        if any(isinstance(item, StarExpr) for item in expr.items):
            raise NotUnderstood  # ``(*sizes, 3)``: which position an item lands at is unknown
        # Inferred against ``tuple[*Shape]``, the display's type is ``tuple[int, int]``: the
        # literals survive only in its items.
        return tuple(_size(ctx.api.get_expression_type(item)) for item in expr.items)
    proper = get_proper_type(typ)
    if not isinstance(proper, TupleType):
        raise NotUnderstood  # a tuple of unknown length: the rank is unknown
    return tuple(_size(item) for item in proper.items)


def _size(typ: Type) -> int | shape_rules.Unknown:
    """A literal size, else ``UNKNOWN`` (also a negative or ``bool`` one: the call fails at run time)."""
    value = _literal_value(_proper(typ))
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else shape_rules.UNKNOWN


def _actual(ctx: CallContext, formal: str) -> tuple[Type, Expression] | None:
    """The one argument passed for ``formal`` by position or name, or None if it was left out."""
    if formal not in ctx.callee_arg_names:
        raise NotUnderstood
    index = ctx.callee_arg_names.index(formal)
    kinds = ctx.arg_kinds[index]
    if not kinds:
        return None
    if len(kinds) != 1 or kinds[0] not in (ArgKind.ARG_POS, ArgKind.ARG_NAMED):
        raise NotUnderstood  # *args or **kwargs: what lands here is not known
    return ctx.arg_types[index][0], ctx.args[index][0]


def _axis_from_type(typ: Type) -> shape_rules.AxisSpec:
    proper = _proper(typ)
    value = _literal_value(proper)
    if isinstance(value, str):
        return value
    if isinstance(proper, NoneType):
        return None
    if isinstance(proper, TupleType):
        return tuple(_axis_item(item) for item in proper.items)
    if isinstance(proper, (AnyType, UnionType)):
        return shape_rules.UNKNOWN
    if isinstance(proper, Instance) and proper.type.has_base("typing.Sequence"):
        return shape_rules.UNKNOWN  # a str, or a tuple or list of unknown length
    return (_axis_item(proper),)  # one axis: the same rule as an item


def _axis_item(typ: Type) -> int | shape_rules.Unknown:
    """One axis: its literal value, or ``UNKNOWN`` for a plain ``int`` (or ``IntEnum`` member)."""
    proper = _proper(typ)
    value = _literal_value(proper)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if value is None and isinstance(proper, Instance) and _is_int(proper):
        return shape_rules.UNKNOWN
    if isinstance(proper, AnyType):
        return shape_rules.UNKNOWN
    raise NotUnderstood  # bools, floats, nested tuples: wrong at run time, reported by mypy


def _is_int(instance: Instance) -> bool:
    """``int`` or a subclass of it such as an ``IntEnum``; ``bool`` is not taken for an axis."""
    return instance.type.has_base("builtins.int") and instance.type.fullname != "builtins.bool"


def _proper(typ: Type) -> ProperType:
    """``typ`` as a proper type, an enum member as an instance of its class.

    mypy's literal of an enum member holds the member's name, not its value (``Axes.ROWS`` may be
    1, a ``StrEnum`` member "^v"): read as a literal it would be a wrong axis. Its class still
    says what is known: an ``IntEnum`` member is some int, a ``StrEnum`` member some str.
    """
    proper = get_proper_type(typ)
    literal = proper.last_known_value if isinstance(proper, Instance) else proper
    if isinstance(literal, LiteralType) and literal.is_enum_literal():
        return literal.fallback.copy_modified(last_known_value=None)
    return proper


def _literal_value(typ: Type) -> LiteralValue | None:
    """The value of ``Literal[v]``, also of an inferred ``Literal[v]?`` (a ``Final`` name)."""
    proper = get_proper_type(typ)
    if isinstance(proper, Instance) and proper.last_known_value is not None:
        proper = proper.last_known_value
    return proper.value if isinstance(proper, LiteralType) else None


# Readers of the axis ops, indexing and creation (issue 8c).

DIM: Final = "typedtensor._dims.Dim"
#: What mypy names the type of ``...`` (older typeshed: ``builtins.ellipsis``).
ELLIPSIS_TYPES: Final = frozenset({"builtins.ellipsis", "types.EllipsisType"})
#: Dtypes whose tensors index by position: every integer dtype and category.
INTEGER_DTYPES: Final = frozenset({*shape_rules.CATEGORIES["integer"], "integer", "signedinteger", "unsignedinteger"})


def single_axis_argument(ctx: CallContext, default: int | None) -> int | shape_rules.Unknown | None:
    """``axis`` of an op that takes one int axis (or None, for ``take``): ``default`` when not passed."""
    actual = _actual(ctx, "axis")
    if actual is None:
        return default
    if isinstance(_proper(actual[0]), NoneType):
        return None
    return _axis_item(actual[0])


def dim_argument(ctx: CallContext, formal: str) -> Type | shape_rules.Unknown | None:
    """An int argument as a dim: ``Literal[n]`` for a literal, the argument's own type for a named
    dim (``x.shape[0]`` typed ``Batch``), ``UNKNOWN`` for another int; None when not passed (or None)."""
    actual = _actual(ctx, formal)
    proper = None if actual is None else _proper(actual[0])
    if proper is None or isinstance(proper, NoneType):
        return None
    value = _literal_value(proper)
    if isinstance(value, int) and not isinstance(value, bool):
        return LiteralType(value, ctx.api.named_generic_type("builtins.int", []))
    if isinstance(proper, Instance) and proper.type.has_base(DIM):
        return proper
    _axis_item(proper)  # some int, read as an axis is (anything else: NotUnderstood, mypy reports it)
    return shape_rules.UNKNOWN


def index_argument(ctx: CallContext, key: Expression, typ: Type) -> list[shape_rules.IndexItem[Type, UnpackType]]:
    """The items of an index ``x[key]``: from the expression where it is a tuple display or a slice
    (mypy types a slice as ``slice``, without its bounds), else from the key's type."""
    if isinstance(key, TupleExpr):
        if any(isinstance(item, StarExpr) for item in key.items):
            raise NotUnderstood  # ``x[(*items, 0)]``: which position an item lands at is unknown
        return [_index_item(ctx, item, ctx.api.get_expression_type(item)) for item in key.items]
    proper = get_proper_type(typ)
    if isinstance(proper, TupleType) and not isinstance(key, SliceExpr):
        return [_index_type_item(item) for item in proper.items]
    return [_index_item(ctx, key, typ)]


def _index_item(ctx: CallContext, expr: Expression, typ: Type) -> shape_rules.IndexItem[Type, UnpackType]:
    if isinstance(expr, SliceExpr):
        bounds = (expr.begin_index, expr.end_index, expr.stride)
        return slice(*(None if bound is None else _slice_bound(ctx.api.get_expression_type(bound)) for bound in bounds))
    return _index_type_item(typ)


def _index_type_item(typ: Type) -> shape_rules.IndexItem[Type, UnpackType]:
    """One index item from its type alone."""
    proper = _proper(typ)
    if isinstance(proper, NoneType):
        return None
    if isinstance(proper, Instance) and proper.type.fullname in ELLIPSIS_TYPES:
        return Ellipsis
    if isinstance(proper, Instance) and proper.type.fullname == "builtins.slice":
        return slice(shape_rules.UNKNOWN, shape_rules.UNKNOWN, shape_rules.UNKNOWN)  # bounds are not in its type
    tensor = tensor_type(proper)
    if tensor is not None:
        name = dtype_name(tensor.dtype)
        if name == "bool_" or name in INTEGER_DTYPES:
            return shape_rules.ArrayIndex(tensor.shape, name == "bool_")
        raise NotUnderstood  # a dtype the declared signature refuses, or one not known statically
    if isinstance(proper, AnyType):
        raise NotUnderstood  # of unknown kind: an int drops a dim, None adds one
    return _axis_item(proper)  # an int, literal or not, read as an axis is (a bool: NotUnderstood)


def _slice_bound(typ: Type) -> int | shape_rules.Unknown | None:
    proper = _proper(typ)
    value = _literal_value(proper)
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(proper, NoneType):
        return None
    if isinstance(proper, AnyType) or isinstance(proper, Instance):
        return shape_rules.UNKNOWN  # some int (mypy has checked the slice), or an object with __index__
    raise NotUnderstood
