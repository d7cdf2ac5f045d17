"""Dtype rules of the elementwise ops (numpy 2's), and the problems of dtypes an op refuses.

Shapes: a unary op keeps its operand's shape; binary ops, comparisons and ``where`` broadcast
(``broadcast.py``). Dtypes: each op's rule maps the dtype numpy computes in (an operand's dtype,
or the promotion of both, Python scalars weak) to the result's, or refuses it where numpy has no
loop (``-`` of booleans, ``floor`` of complex numbers). An operand is named by its dtype
(``"float32"``), a category (``"floating"``), or the kind of a Python scalar (``"float"``).
For a category the answer holds for every member; a category is refused only when every member
is, since any other member may be what runs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, TypeGuard

from .core import Problem, join_operands
from .dtypes import BOOL, COMPLEXES, SIGNED, UNSIGNED, ScalarKind, members, narrowest, promote, promote_scalar

_INTEGERS: Final = frozenset({BOOL, *SIGNED, *UNSIGNED})
#: The float a transcendental function of a boolean or integer computes in (int8 -> float16).
_FLOAT_OF: Final = {
    BOOL: "float16", "int8": "float16", "uint8": "float16", "int16": "float32", "uint16": "float32",
    "int32": "float64", "uint32": "float64", "int64": "float64", "uint64": "float64",
}
#: Python scalar kinds, narrowest first: a parameter typed with one accepts the kinds before it too.
SCALAR_KINDS: Final[tuple[ScalarKind, ...]] = ("bool", "int", "float", "complex")
#: The dtype numpy gives a Python scalar of each kind when no tensor is there to take it.
_DEFAULT_OF_KIND: Final[dict[str, str]] = dict(zip(SCALAR_KINDS, (BOOL, "int64", "float64", "complex128")))


@dataclass(frozen=True)
class DTypeRefused(Problem):
    """An op numpy does not define for these dtypes; ``reason`` says why, and what to use instead."""

    code: ClassVar[str] = "tensor-dtype"
    reason: str

    def message(self, op: str, operands: Sequence[str]) -> str:
        return f'Cannot apply "{op}" to {join_operands(operands)}: {self.reason}'


@dataclass(frozen=True)
class CategoryNotDType(Problem):
    """A cast to a category of dtypes (``floating``), which is no one dtype to compute in."""

    code: ClassVar[str] = "tensor-dtype"
    category: str

    def message(self, op: str, operands: Sequence[str]) -> str:
        concrete = ", ".join(members(self.category))
        return (
            f'Cannot cast {join_operands(operands)} to {self.category} for "{op}": '
            f"{self.category} is a category of dtypes, not a dtype (use one of {concrete})"
        )


#: A rule maps the dtype numpy computes in to the result's, or to why it is refused.
Rule = Callable[[str], "str | DTypeRefused"]

def _kept(dtype: str) -> str:
    return dtype


def _to_bool(dtype: str) -> str:
    return BOOL


def _to_float(dtype: str) -> str:
    return _FLOAT_OF.get(dtype, dtype)


def _refusing(refused: frozenset[str], reason: str, then: Rule = _kept) -> Rule:
    """``then``, but ``refused`` dtypes are a ``DTypeRefused`` problem saying ``reason``."""

    def rule(dtype: str) -> str | DTypeRefused:
        return DTypeRefused(reason) if dtype in refused else then(dtype)

    return rule


def _abs(dtype: str) -> str:
    return {"complex64": "float32", "complex128": "float64"}.get(dtype, dtype)


def _booleans_in_int8(dtype: str) -> str:
    return "int8" if dtype == BOOL else dtype


def _divide(dtype: str) -> str:
    return "float64" if dtype in _INTEGERS else dtype


_BOOLEAN: Final = frozenset({BOOL})
_COMPLEX: Final = frozenset(COMPLEXES)
_TO_INTEGER: Final = "cast to an integer dtype first"
_UNORDERED: Final = "complex numbers are not ordered, so they have no floor"
_REAL_ONLY: Final = "it is defined for real dtypes only"

#: Unary ops: the rule applies to the operand's dtype.
UNARY_RULES: Final[dict[str, Rule]] = {
    "abs": _abs,
    "negative": _refusing(_BOOLEAN, "numpy has no boolean negative (use logical_not)"),
    "positive": _refusing(_BOOLEAN, f"numpy has no boolean unary plus ({_TO_INTEGER})"),
    "exp": _to_float, "log": _to_float, "log1p": _to_float, "expm1": _to_float, "sqrt": _to_float,
    "sin": _to_float, "cos": _to_float, "tanh": _to_float,
    "sigmoid": _refusing(_COMPLEX, _REAL_ONLY, _to_float),
    "relu": _refusing(_COMPLEX, _REAL_ONLY),
    "square": _booleans_in_int8,
    "floor": _refusing(_COMPLEX, _UNORDERED),
    "ceil": _refusing(_COMPLEX, "complex numbers are not ordered, so they have no ceiling"),
    "sign": _refusing(_BOOLEAN, f"numpy has no boolean sign ({_TO_INTEGER})"),
    "logical_not": _to_bool,
    "tan": _to_float, "arctan": _to_float, "log2": _to_float, "log10": _to_float, "rsqrt": _to_float,
    "erf": _refusing(_COMPLEX, _REAL_ONLY, _to_float),
    "silu": _refusing(_COMPLEX, _REAL_ONLY, _to_float),
    "softplus": _refusing(_COMPLEX, _REAL_ONLY, _to_float),
    "gelu": _refusing(_COMPLEX, _REAL_ONLY, _to_float),
    "isnan": _to_bool, "isinf": _to_bool, "isfinite": _to_bool,
}

#: Binary ops: the rule applies to the promotion of both operands (Python scalars weak).
BINARY_RULES: Final[dict[str, Rule]] = {
    "add": _kept, "multiply": _kept, "maximum": _kept, "minimum": _kept,
    "subtract": _refusing(_BOOLEAN, "numpy has no boolean subtract (use not_equal, or cast to an integer dtype first)"),
    "divide": _divide,
    "floor_divide": _refusing(_COMPLEX, _UNORDERED, _booleans_in_int8),
    "power": _booleans_in_int8,
    "equal": _to_bool, "not_equal": _to_bool, "less": _to_bool, "less_equal": _to_bool,
    "greater": _to_bool, "greater_equal": _to_bool, "logical_and": _to_bool, "logical_or": _to_bool,
}


#: ``Tensor``'s operators by the op each is (``x + y`` is ``add(x, y)``); a reflected one
#: (``2 - x`` is ``x.__rsub__(2)``) takes its operands the other way round.
UNARY_METHODS: Final = {"__neg__": "negative", "__pos__": "positive", "__abs__": "abs"}
BINARY_METHODS: Final = {
    "__add__": "add", "__sub__": "subtract", "__mul__": "multiply", "__truediv__": "divide",
    "__floordiv__": "floor_divide", "__pow__": "power", "__eq__": "equal", "__ne__": "not_equal",
    "__lt__": "less", "__le__": "less_equal", "__gt__": "greater", "__ge__": "greater_equal",
}
REFLECTED_METHODS: Final = {
    "__radd__": "add", "__rsub__": "subtract", "__rmul__": "multiply",
    "__rtruediv__": "divide", "__rfloordiv__": "floor_divide", "__rpow__": "power",
}


#: A comparison as Python runs it reflected (``a < x`` is ``x > a``).
SWAPPED_COMPARISONS: Final = {
    "less": "greater", "less_equal": "greater_equal", "greater": "less", "greater_equal": "less_equal",
    "equal": "equal", "not_equal": "not_equal",
}


def wrong_operand(op: str, parameter: str, got: str) -> str:
    """The message for an operand of ``op`` that is neither a Tensor nor a Python scalar (an
    ndarray, a numpy scalar): ``got`` is its type's name."""
    return (
        f'"{op}": {parameter} must be a typedtensor.Tensor or a Python scalar (bool, int, float, complex), '
        f"got {got}; make a tensor of it with typedtensor.tensor(value)"
    )


def unary_dtype(op: str, dtype: str) -> str | DTypeRefused:
    """The result dtype of unary ``op`` on a tensor of ``dtype`` (a dtype or category name).

    >>> unary_dtype("exp", "int8"), unary_dtype("abs", "complex64"), unary_dtype("floor", "int32")
    ('float16', 'float32', 'int32')
    """
    return _over_members(UNARY_RULES[op], [members(dtype)])


def binary_dtype(op: str, left: str, right: str) -> str | DTypeRefused:
    """The result dtype of binary ``op`` on two operands: dtype or category names, or scalar kinds.

    At least one operand is a tensor (numpy 2 promotes a Python scalar weakly: ``float32 * 2.0``
    is float32).

    >>> binary_dtype("divide", "int8", "int"), binary_dtype("power", "bool_", "bool_"), binary_dtype("less", "int8", "float")
    ('float64', 'int8', 'bool_')
    """
    rule = BINARY_RULES[op]
    return _over_members(lambda left_kind, right_kind: rule(_common(left_kind, right_kind)), [_members_or_kind(left), _members_or_kind(right)])


def where_dtype(x: str, y: str) -> str:
    """The dtype of ``where(condition, x, y)``: ``x`` and ``y`` promoted, Python scalars weak.

    Two Python scalars take numpy's default dtype of the wider kind (``where(c, 1, 2.5)`` is float64).

    >>> where_dtype("float32", "float"), where_dtype("int", "float")
    ('float32', 'float64')
    """
    if x in _DEFAULT_OF_KIND and y in _DEFAULT_OF_KIND:
        return promote(_DEFAULT_OF_KIND[x], _DEFAULT_OF_KIND[y])
    result = binary_dtype("add", x, y)  # add computes in exactly the promoted dtype
    assert isinstance(result, str)  # add refuses no dtype
    return result


def cast_dtype(dtype: str) -> str | CategoryNotDType:
    """The dtype of a cast to ``dtype``: itself, unless it is a category (``floating``)."""
    return CategoryNotDType(dtype) if len(members(dtype)) > 1 else dtype


def is_scalar_kind(operand: str) -> TypeGuard[ScalarKind]:
    """Whether an operand name is a Python scalar's kind (``"float"``), not a dtype."""
    return operand in _DEFAULT_OF_KIND


def _members_or_kind(operand: str) -> tuple[str, ...]:
    return (operand,) if is_scalar_kind(operand) else members(operand)


def _common(left: str, right: str) -> str:
    """The dtype numpy computes a binary op in: the promotion, a Python scalar taking the tensor's."""
    if is_scalar_kind(right):
        return promote_scalar(left, right)
    if is_scalar_kind(left):
        return promote_scalar(right, left)
    return promote(left, right)


def _over_members(rule: Callable[..., str | DTypeRefused], operands: list[tuple[str, ...]]) -> str | DTypeRefused:
    """``rule`` over every combination of the operands' members: the narrowest name holding each
    result, or the problem when every combination is refused."""
    combinations: list[tuple[str, ...]] = [()]
    for names in operands:
        combinations = [(*done, name) for done in combinations for name in names]
    results = [rule(*combination) for combination in combinations]
    accepted = [result for result in results if isinstance(result, str)]
    if not accepted:
        refused = results[0]
        assert isinstance(refused, DTypeRefused)  # nothing was accepted
        return refused
    return narrowest(accepted)


def clip_dtype(x: str, low: str | None, high: str | None) -> str | DTypeRefused:
    """The dtype of ``clip(x, low, high)``: ``x``'s promoted with each bound given (None: no bound),
    the tensors together first, then the Python scalars weakly (numpy's ``clip(bool_, 1, int8)``
    is int8 and ``clip(int8, uint8, float16)`` float16, where ``maximum`` then ``minimum`` would
    give int64 and float32); complex numbers refused.

    >>> clip_dtype("int8", "int", "float"), clip_dtype("float32", None, "float"), clip_dtype("bool_", "int", None)
    ('float64', 'float32', 'int64')
    """
    bounds = [bound for bound in (low, high) if bound is not None]
    return _over_members(_clip_concrete, [members(x), *map(_members_or_kind, bounds)])


def _clip_concrete(x: str, *bounds: str) -> str | DTypeRefused:
    if any(name in COMPLEXES or name == "complex" for name in (x, *bounds)):
        return DTypeRefused("complex numbers are not ordered, so they cannot be clipped")
    result = promote(x, *(bound for bound in bounds if not is_scalar_kind(bound)))  # numpy's result_type of three
    for bound in bounds:
        if is_scalar_kind(bound):
            result = promote_scalar(result, bound)
    return result
