"""Reading a call's arguments (``axis``, ``keepdims``, ``shape``, ``dtype``, an index ...) as values the shape rules understand.

A literal (``Literal`` types, ``Final`` names, tuples and lists of literals) becomes its value; a
well-typed argument that is not literal becomes ``UNKNOWN`` (a plain ``int`` axis becomes
``(UNKNOWN,)``, which keeps the rank). Anything else raises ``NotUnderstood``, and the caller
falls back to the declared type: mypy already reports arguments of the wrong type.
"""

from __future__ import annotations

from typing import Final

from mypy.maptype import map_instance_to_supertype
from mypy.nodes import ArgKind, ComplexExpr, Expression, FloatExpr, ListExpr, OpExpr, SliceExpr, StarExpr, TupleExpr, UnaryExpr
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    LiteralType,
    LiteralValue,
    NoneType,
    ProperType,
    TupleType,
    Type,
    TypeType,
    TypeVarType,
    UnionType,
    UnpackType,
    get_proper_type,
)

from typing_plugins._calls import CallContext, NotUnderstood, mypy_dims
from typing_plugins._names import DIM
from typing_plugins._rules import shape_rules
from typing_plugins._tensor_types import DIM_EXPRESSION_CLASSES, declared_dim, dtype_name, int_literal, tensor_type

#: The kinds of sequence ``axis`` may be (any subclass too); not ``bytes``, ``range`` or ``deque``.
_SEQUENCES: Final = ("builtins.tuple", "builtins.list")


def axis_argument(ctx: CallContext, formal: str = "axis") -> shape_rules.AxisSpec:
    """``axis`` of the call, or the axes passed for ``formal`` (``None`` when not passed)."""
    actual = _actual(ctx, formal)
    if actual is None:
        return None
    typ, expr = actual
    if isinstance(expr, ListExpr):
        # A list display's type is ``list[int]``: the literals survive only in its items.
        return tuple(_axis_item(ctx.api.get_expression_type(item)) for item in expr.items)
    return _axis_from_type(typ)


def keepdims_argument(ctx: CallContext) -> bool | shape_rules.Unknown:
    """``keepdims`` of the call (``False`` when not passed)."""
    return flag_argument(ctx, "keepdims")


def flag_argument(ctx: CallContext, formal: str) -> bool | shape_rules.Unknown:
    """A ``bool`` passed for ``formal``: its literal value, else ``UNKNOWN`` (``False`` when not passed)."""
    actual = _actual(ctx, formal)
    if actual is None:
        return False
    typ = _proper(actual[0])
    value = _literal_value(typ)
    if isinstance(value, bool):
        return value
    if isinstance(typ, AnyType) or (isinstance(typ, Instance) and typ.type.fullname == "builtins.bool"):
        return shape_rules.UNKNOWN
    raise NotUnderstood


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
    """``axis`` from its type; a kind ``Axis`` does not declare (``bytes``) is not understood."""
    proper = _proper(typ)
    if isinstance(proper, NoneType):
        return None
    if isinstance(proper, TupleType):
        return tuple(_axis_item(item) for item in proper.items)
    if _is_instance_of(proper, "builtins.str"):
        value = _literal_value(proper)
        return value if isinstance(value, str) else shape_rules.UNKNOWN
    if isinstance(proper, (AnyType, UnionType)) or any(_is_instance_of(proper, kind) for kind in _SEQUENCES):
        return shape_rules.UNKNOWN  # one of several kinds, or a tuple or list of unknown length
    return (_axis_item(proper),)  # one axis: the same rule as an item


def _axis_item(typ: Type) -> int | shape_rules.Unknown:
    """One axis: its literal value, or ``UNKNOWN`` for an ``int`` or numpy integer (or an
    ``IntEnum`` member) that is not literal."""
    proper = _proper(typ)
    value = int_literal(proper)
    if value is not None:
        return value
    if isinstance(proper, AnyType) or (isinstance(proper, Instance) and _is_index(proper)):
        return shape_rules.UNKNOWN
    raise NotUnderstood  # bools (reported by bool_axis), floats, nested tuples: mypy reports the rest


def bool_axis(ctx: CallContext) -> str | None:
    """What ``axis`` is if it is a ``bool`` or a tuple or list holding one (``(0, True)``), as
    ``bool_axis_kind`` words it; None otherwise.

    A ``bool`` is an ``int`` to the type system, so the declared type lets it through; the
    runtime refuses it, and the plugin reports it.
    """
    actual = _actual(ctx, "axis")
    if actual is None:
        return None
    typ, expr = actual
    proper = get_proper_type(typ)
    if isinstance(expr, ListExpr):
        items, container = [ctx.api.get_expression_type(item) for item in expr.items], "list"
    else:
        items = _items(proper)
        container = "list" if _is_instance_of(proper, "builtins.list") else "tuple"
    if not any(map(_is_bool, items)):
        return None
    return shape_rules.bool_axis_kind(None if _is_bool(proper) else container)


def holds_bool(typ: Type) -> bool:
    """Whether ``typ`` is a ``bool`` or a tuple holding one (an index ``x[0, True]``)."""
    proper = get_proper_type(typ)
    return any(map(_is_bool, proper.items if isinstance(proper, TupleType) else [proper]))


def _items(proper: ProperType) -> list[Type]:
    """The types a tuple or list type holds; anything else stands for itself."""
    if isinstance(proper, TupleType):
        return list(proper.items)
    if isinstance(proper, Instance):
        for info in proper.type.mro:
            if info.fullname in _SEQUENCES:  # ``tuple[bool, ...]``, ``list[bool]`` or a subclass
                return list(map_instance_to_supertype(proper, info).args)
    return [proper]


def _is_bool(typ: Type) -> bool:
    return _is_instance_of(get_proper_type(typ), "builtins.bool")


def _is_instance_of(proper: ProperType, fullname: str) -> bool:
    """Whether ``proper`` is an instance of ``fullname`` or a subclass, a ``Literal`` of one too."""
    instance = proper.fallback if isinstance(proper, LiteralType) else proper
    return isinstance(instance, Instance) and instance.type.has_base(fullname)


def _is_index(instance: Instance) -> bool:
    """An ``int`` (not a ``bool``) or a numpy integer: what ``Axis`` declares one axis to be."""
    return (instance.type.has_base("builtins.int") and not instance.type.has_base("builtins.bool")) or instance.type.has_base(
        "numpy.integer"
    )


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


def dtype_argument(ctx: CallContext) -> Type | None:
    """The marker class passed as ``dtype`` (``tt.float32`` -> ``float32``), or None if left out (or None).

    Read from the argument, not from the declared result: as an argument of another call, a
    call is inferred in that parameter's context, which can solve its dtype TypeVar to ``Any``.
    """
    actual = _actual(ctx, "dtype") if "dtype" in ctx.callee_arg_names else None
    if actual is None or isinstance(get_proper_type(actual[0]), NoneType):
        return None
    proper = get_proper_type(actual[0])
    if isinstance(proper, CallableType) and proper.is_type_obj():  # the class itself: ``tt.float32``
        proper = get_proper_type(proper.ret_type)
    elif isinstance(proper, TypeType):  # a ``type[float32]`` value
        proper = get_proper_type(proper.item)
    if isinstance(proper, Instance):
        return proper
    raise NotUnderstood


def sizes_argument(ctx: CallContext, formal: str) -> tuple[Type | shape_rules.Unknown, ...] | shape_rules.Unknown:
    """A target shape or repetitions (an int, or a tuple or list of them) as dims.

    Each item is kept as the dim it is: a literal (also ``-1``), a ``Dim`` or TypeVar passed
    through from ``y.shape[i]``; a plain ``int`` is ``UNKNOWN``. A sequence of unknown length
    is ``UNKNOWN`` as a whole.
    """
    actual = _actual(ctx, formal)
    if actual is None:
        raise NotUnderstood  # required: mypy reports the call
    typ, expr = actual
    if isinstance(expr, (TupleExpr, ListExpr)):
        if any(isinstance(item, StarExpr) for item in expr.items):
            raise NotUnderstood
        # Inferred against ``tuple[*Shape]``, the display's type is ``tuple[int, int]``: the
        # literals survive only in its items.
        dims = mypy_dims(ctx.api)
        return tuple(_item_dim(ctx, item, dims) for item in expr.items)
    proper = _proper(typ)
    if isinstance(expr, OpExpr) and isinstance(proper, Instance) and _is_index(proper):
        return (_item_dim(ctx, expr, mypy_dims(ctx.api)),)  # one size the code computes
    if isinstance(proper, TupleType):
        return tuple(_dim(item) for item in proper.items)
    if isinstance(proper, Instance) and proper.type.has_base("typing.Sequence"):
        return shape_rules.UNKNOWN  # a tuple or list of unknown length
    return (_dim(proper),)  # one int


#: The arithmetic of sizes that computes a dim (SPEC §9): each operator's operation.
_DIM_OPERATORS: Final[dict[str, shape_rules.OperationName]] = {"+": "Add", "-": "Sub", "*": "Mul", "//": "Div"}


def _item_dim(ctx: CallContext, item: Expression, dims: shape_rules.Dims[Type]) -> Type | shape_rules.Unknown:
    """One size of a display, also where the code computes it from sizes: ``c // 4`` on a ``c``
    read from ``x.shape`` is the dim ``Div[C, Literal[4]]``. (The ``int`` operators' hook gives
    that type already, but mypy calls no hook on a TypeVar's operator: here the expression is
    read again.)"""
    if isinstance(item, OpExpr) and item.op in _DIM_OPERATORS:
        form = _computed_form(ctx, item, dims)
        return shape_rules.UNKNOWN if form is None else dims.dim_of(form)
    return _dim(ctx.api.get_expression_type(item))


def _computed_form(ctx: CallContext, expr: Expression, dims: shape_rules.Dims[Type]) -> shape_rules.Polynomial | None:
    """The normal form of a size the code computes with ``+ - * //`` from literals and dims; None
    where a part is some other int (or a division by zero, which fails at run time)."""
    if not (isinstance(expr, OpExpr) and expr.op in _DIM_OPERATORS):
        return size_form(ctx.api.get_expression_type(expr), dims)
    left, right = _computed_form(ctx, expr.left, dims), _computed_form(ctx, expr.right, dims)
    if left is None or right is None or (expr.op == "//" and right.literal == 0):
        return None
    return shape_rules.operated(_DIM_OPERATORS[expr.op], left, right)


def size_form(typ: Type, dims: shape_rules.Dims[Type]) -> shape_rules.Polynomial | None:
    """A size's normal form (SPEC §9): of a literal, a named dim or a dim expression; None for
    another int."""
    try:
        return dims.form_of(_dim(typ))
    except NotUnderstood:
        return None


def _dim(typ: Type) -> Type | shape_rules.Unknown:
    """One size: a ``Literal`` int, a named or generic dim as it is; ``UNKNOWN`` for a plain int."""
    proper = _proper(typ)
    literal = proper.last_known_value if isinstance(proper, Instance) and proper.last_known_value else proper
    if int_literal(literal) is not None:
        return literal
    if isinstance(proper, TypeVarType):
        return declared_dim(proper)  # as annotations write it, not as ``x.shape`` bounds it
    if isinstance(proper, Instance) and (proper.type.has_base(DIM) or proper.type.fullname in DIM_EXPRESSION_CLASSES):
        return proper  # before ints: a named dim is an int subclass
    if isinstance(proper, AnyType) or (isinstance(proper, Instance) and (_is_index(proper) or _is_bool(proper))):
        return shape_rules.UNKNOWN  # some int (a bool is one, as numpy takes it)
    raise NotUnderstood  # a float, a str: wrong at run time, reported by mypy


def tensors_argument(ctx: CallContext) -> tuple[list[Type], bool]:
    """The tensor types passed as ``tensors`` (a tuple or list), and whether their count is known."""
    actual = _actual(ctx, "tensors")
    if actual is None:
        raise NotUnderstood
    typ, expr = actual
    proper = get_proper_type(typ)
    if isinstance(expr, ListExpr) and not any(isinstance(item, StarExpr) for item in expr.items):
        return [ctx.api.get_expression_type(item) for item in expr.items], True  # a list's type joins them
    if isinstance(proper, TupleType) and not any(isinstance(item, UnpackType) for item in proper.items):
        return list(proper.items), True
    sequence = next((info for info in proper.type.mro if info.fullname == "typing.Sequence"), None) if isinstance(proper, Instance) else None
    if sequence is None or not isinstance(proper, Instance):
        raise NotUnderstood
    return [map_instance_to_supertype(proper, sequence).args[0]], False


def int_argument(ctx: CallContext, formal: str, default: int | None = None) -> int | shape_rules.Unknown:
    """One int passed for ``formal`` (an axis): its literal, or ``UNKNOWN`` for a plain ``int``."""
    actual = _actual(ctx, formal)
    if actual is None:
        if default is None:
            raise NotUnderstood  # required: mypy reports the call
        return default
    return _axis_item(actual[0])


# Readers of the axis ops, indexing and creation.

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
    dim (``x.shape[0]`` typed ``Batch`` or ``T``), ``UNKNOWN`` for another int; None when not passed (or None)."""
    actual = _actual(ctx, formal)
    proper = None if actual is None else _proper(actual[0])
    if proper is None or isinstance(proper, NoneType):
        return None
    if actual is not None and isinstance(actual[1], OpExpr) and isinstance(proper, Instance) and _is_index(proper):
        return _item_dim(ctx, actual[1], mypy_dims(ctx.api))  # a size the code computes: ``b * 2``
    value = int_literal(proper)
    if value is not None:
        return LiteralType(value, ctx.api.named_generic_type("builtins.int", []))
    if isinstance(proper, Instance) and (proper.type.has_base(DIM) or proper.type.fullname in DIM_EXPRESSION_CLASSES):
        return proper  # a named dim, or one the code computed (``b * 2``)
    if isinstance(proper, TypeVarType):
        return declared_dim(proper)  # a dim: read from ``x.shape``, or a size the function's annotations name
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
        if isinstance(get_proper_type(tensor.dtype), AnyType):
            return shape_rules.ArrayIndex(tensor.shape, shape_rules.UNKNOWN)  # a mask or integers
        raise NotUnderstood  # a dtype the declared signature refuses
    if isinstance(proper, AnyType):
        raise NotUnderstood  # of unknown kind: an int drops a dim, None adds one
    return _axis_item(proper)  # an int, literal or not, read as an axis is (a bool: NotUnderstood)


def _slice_bound(typ: Type) -> int | shape_rules.Unknown | None:
    proper = _proper(typ)
    value = int_literal(proper)
    if value is not None:
        return value
    if isinstance(proper, NoneType):
        return None
    if isinstance(proper, AnyType) or isinstance(proper, Instance):
        return shape_rules.UNKNOWN  # some int (mypy has checked the slice), or an object with __index__
    raise NotUnderstood


# Readers of ``tensor``'s data.

#: The range of int64, the dtype numpy gives Python ints within it.
_INT64_RANGE: Final = range(-(2**63), 2**63)
#: The classes of the scalars ``tensor`` takes as rank-0 items (subclasses too: ``Dim``, numpy's ``float64``).
_SCALAR_CLASSES: Final = ("builtins.int", "builtins.float", "builtins.complex", "numpy.generic")


def data_argument(ctx: CallContext) -> tuple[Type, Expression]:
    """The type and expression of ``tensor``'s ``data``."""
    actual = _actual(ctx, "data")
    if actual is None:
        raise NotUnderstood  # required: mypy reports the call
    return actual


def nested_data(ctx: CallContext, expr: Expression) -> shape_rules.NestedData:
    """A list or tuple display as nested lists of scalar kinds, one scalar as its kind: ``float`` for
    a float literal, ``bool`` for a bool, ``int`` for an int literal numpy holds as int64, else
    ``UNKNOWN`` (a ``float`` may hold an int, an ``int`` a bool). Anything else (a name holding a
    list, an array) is not understood: its rank is unknown."""
    if isinstance(expr, (ListExpr, TupleExpr)):
        if any(isinstance(item, StarExpr) for item in expr.items):
            raise NotUnderstood
        return [nested_data(ctx, item) for item in expr.items]
    literal = expr.expr if isinstance(expr, UnaryExpr) and expr.op in "+-" else expr
    if isinstance(literal, (FloatExpr, ComplexExpr)):
        return "float" if isinstance(literal, FloatExpr) else "complex"
    proper = _proper(ctx.api.get_expression_type(expr))
    value = _literal_value(proper)
    if _is_bool(proper):
        return "bool"
    if isinstance(value, int) and value in _INT64_RANGE:
        return "int"
    if any(_is_instance_of(proper, scalar) for scalar in _SCALAR_CLASSES):
        return shape_rules.UNKNOWN  # a scalar, of a kind not certain
    raise NotUnderstood
