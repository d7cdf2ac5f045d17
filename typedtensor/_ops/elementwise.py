"""Elementwise ops on arrays: unary math, binary arithmetic, comparisons, ``where`` and casts.

An operand is an array or a Python scalar (``bool``, ``int``, ``float``, ``complex``), at least
one of them an array. Python scalars promote weakly (NEP 50): ``float32 * 2.0`` stays float32.
numpy's ``float64`` and ``complex128`` scalars are Python floats and complexes, so they are taken
as the plain Python value and promote the same way, as their declared type says (the faces
refuse other numpy scalars). Before numpy computes, the shared rules check the operands: shapes
that do not broadcast are a ``BroadcastError``, dtypes an op does not take (``-`` of booleans) a
``TensorDTypeError``, each naming the op and every operand. The operators are ``Tensor``'s; the
public functions, with their declared signatures, are in ``_generated/elementwise`` (generated
from the same rules) and call ``typedtensor._elementwise``, which unwraps their tensors.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from typing import Any, Final, NoReturn, TypeAlias

import numpy as np

from typedtensor._dtypes import CONCRETE_DTYPES, bool_, generic, int8, marker_named, marker_of, numpy_dtype_like, numpy_dtype_of
from typedtensor._ops.backends import Backend, backend_of, rule_shape, same_library, to_dtype
from typedtensor._ops.common import Array, as_array, copy_of, fail, namespace, operand_text
from typedtensor._ops.special import erf, erfc
from typedtensor._shape_rules import (
    BINARY_RULES,
    INT_DIMS,
    UNARY_RULES,
    BroadcastMismatch,
    CategoryNotDType,
    DTypeRefused,
    binary_dtype,
    broadcast_shapes,
    cast_dtype,
    clip_dtype,
    join_operands,
    unary_dtype,
    where_dtype,
)

#: An operand: an array, or a Python scalar (a subclass, such as an IntEnum member, until made plain).
Value: TypeAlias = Array | complex

_CACHE_SIZE: Final = 4096
_SCALAR_KINDS: Final[dict[type, str]] = {bool: "bool", int: "int", float: "float", complex: "complex"}
#: What an op takes as it is: an array, or a Python scalar that is no subclass.
_PLAIN_KINDS: Final = frozenset({np.ndarray, *_SCALAR_KINDS})


#: What a Python scalar is, a subclass too (an IntEnum member).
_NUMBERS: Final = (int, float, complex)
#: The types whose values an op takes as they are: the plain kinds, and each array type of another
#: library once seen (a set test, where ``isinstance`` of a jax array against the numbers costs 0.1 us).
_AS_IS: set[type] = set(_PLAIN_KINDS)


def _plain(value: Value) -> Value:
    """An array, or a Python scalar as its plain Python value (messages still name it as given)."""
    if type(value) in _AS_IS:
        return value
    if not isinstance(value, _NUMBERS):
        _AS_IS.add(type(value))
        return value  # an array of another library
    if isinstance(value, int):
        return int(value)  # an IntEnum member is its value
    if isinstance(value, float):
        return float(value)  # numpy's float64 is a float: plain, it promotes weakly like one
    return complex(value)


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _broadcast_problem(shapes: tuple[tuple[int, ...], ...]) -> BroadcastMismatch | None:
    broadcast = broadcast_shapes([rule_shape(shape) for shape in shapes], INT_DIMS)
    return broadcast if isinstance(broadcast, BroadcastMismatch) else None


def _refused_dtypes(rule: Callable[[str], object]) -> frozenset[np.dtype[Any]]:
    """The numpy dtypes ``rule`` refuses."""
    return frozenset(numpy_dtype_of(marker) for marker in CONCRETE_DTYPES if isinstance(rule(marker.__name__), DTypeRefused))


#: Per op, the dtypes it refuses; ops absent refuse none, and pay no check.
_UNARY_REFUSED: Final = {op: refused for op, rule in UNARY_RULES.items() if (refused := _refused_dtypes(rule))}
_BINARY_MAY_REFUSE: Final = frozenset(op for op, rule in BINARY_RULES.items() if _refused_dtypes(rule))


#: An operand's dtype as the refusal cache keys it: a numpy dtype, or a Python scalar's type.
DTypeKey: TypeAlias = "np.dtype[Any] | type"


def _dtype_key(value: Value) -> DTypeKey:
    if type(value) is np.ndarray:
        return value.dtype  # type: ignore[no-any-return]
    return type(value) if type(value) in _SCALAR_KINDS else numpy_dtype_like(value.dtype)  # type: ignore[union-attr]


def _dtype_name(key: DTypeKey) -> str:
    """How the shared rules name an operand's dtype: ``"float32"``, or a scalar's kind (``"int"``)."""
    return _SCALAR_KINDS[key] if isinstance(key, type) else marker_of(key).__name__


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _binary_refusal(op: str, left: DTypeKey, right: DTypeKey) -> DTypeRefused | None:
    """Whether ``op`` refuses operands of these dtypes."""
    refused = binary_dtype(op, _dtype_name(left), _dtype_name(right))
    return refused if isinstance(refused, DTypeRefused) else None


# Operators on small tensors pay for every step here (SPEC 8: at most 2 us over numpy's), so
# each op's function is looked up once per array type. An op that is an operator runs as the
# arrays' own operator (the array API has them all), which numpy runs faster than its function
# (``**``: see ``_power``); jax's binary ones are quicker as its functions (``_JAX_FUNCTIONS_FIRST``).

def unary(op: str, array: Array, *options: object) -> Array:
    """Unary ``op`` (``exp``, ``negative`` ...) of an array; ``options`` are the op's further
    arguments (``gelu``'s ``approximate``)."""
    if type(array) is not np.ndarray:
        return _library_unary(op, array, options)
    refused = _UNARY_REFUSED.get(op)
    if refused is not None and array.dtype in refused:
        problem = unary_dtype(op, marker_of(array.dtype).__name__)
        assert isinstance(problem, DTypeRefused)  # the dtype is in the refused set
        fail(problem, op, [array])
    value = (_FUNCTIONS.get((type(array), op)) or _function(array, op))(array, *options)
    return value if type(value) is np.ndarray else as_array(value)


def binary(op: str, x1: Value, x2: Value) -> Array:
    """Binary ``op`` (``add``, ``less`` ...) of two operands, one at least an array, after the
    shared rules accept them."""
    left = x1 if type(x1) in _AS_IS else _plain(x1)
    right = x2 if type(x2) in _AS_IS else _plain(x2)
    if type(left) is np.ndarray:
        array = left
        if type(right) is np.ndarray:
            if left.shape != right.shape:
                _check_broadcast(op, (x1, x2), (left.shape, right.shape))
        elif type(right) not in _SCALAR_KINDS:
            return _library_binary(op, x1, x2, left, right)  # an array of another library: refused there
    elif type(right) is np.ndarray and type(left) in _SCALAR_KINDS:
        array = right
    else:  # the faces pass an array at least: here one of another library
        return _library_binary(op, x1, x2, left, right)
    if op in _BINARY_MAY_REFUSE:
        refused = _binary_refusal(op, _dtype_key(left), _dtype_key(right))
        if refused is not None:  # a scalar named by its kind (numpy's float64 is a float), as statically
            fail(refused, op, [left, right])
    try:  # free unless numpy raises: no check before it on the fast path
        value = (_FUNCTIONS.get((type(array), op)) or _function(array, op))(left, right)
    except (OverflowError, ValueError) as error:
        refusal: Exception = error
    else:
        return value if type(value) is np.ndarray else as_array(value)  # numpy gives scalars for rank 0
    _refuse(op, x1, x2, left, right, refusal)  # outside the except block: numpy's error is not the context


def _check_broadcast(op: str, operands: tuple[Value, ...], shapes: tuple[tuple[int, ...], ...]) -> None:
    """Raise if the shapes of ``op``'s arrays do not broadcast, naming every operand."""
    problem = _broadcast_problem(shapes)
    if problem is not None:
        fail(problem, op, operands)


def _refuse(op: str, x1: Value, x2: Value, left: Value, right: Value, error: Exception) -> NoReturn:
    """Raise why numpy refused ``op``, naming the op and its operands: a Python int beyond the
    integer dtype it computes in, or integers to a negative integer power; anything else as
    numpy raised it."""
    operands = join_operands([operand_text(x) for x in (x1, x2)])
    if isinstance(error, OverflowError):
        _check_ints(op, (left, right), (x1, x2))
    elif "negative integer powers" in str(error):
        raise ValueError(
            f'"{op}" on {operands}: integers to negative integer powers are not allowed; cast the base to a float dtype first'
        ) from None
    raise error


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _int_range(left: DTypeKey, right: DTypeKey) -> tuple[np.dtype[Any], int, int] | None:
    """The integer dtype numpy computes a binary op or ``where`` in (the operands promoted, a
    Python scalar weak, two of them numpy's default dtypes) and the least and greatest ints it
    holds; None if it computes in floats or complex. Cached: ``np.iinfo`` costs microseconds."""
    dtype: np.dtype[Any] = numpy_dtype_of(marker_named(where_dtype(_dtype_name(left), _dtype_name(right))))
    if dtype.kind not in "iu":
        return None
    limits = np.iinfo(dtype)
    return dtype, int(limits.min), int(limits.max)


def _check_ints(op: str, values: tuple[Value, Value], operands: tuple[Value, Value]) -> None:
    """Raise for a Python int among ``values`` beyond the integer dtype ``op`` computes them in
    (numpy wraps it around, or fails converting it to C)."""
    int_range = _int_range(*map(_dtype_key, values))
    if int_range is None:
        return
    dtype, low, high = int_range
    for scalar in values:
        if type(scalar) is int and not low <= scalar <= high:
            of_dtype = [operand for operand in operands if type(operand) not in _SCALAR_KINDS and numpy_dtype_like(operand.dtype) == dtype]  # type: ignore[union-attr]
            # named as the tensor's dtype where it is one, else as the op's (a boolean tensor and an int: int64)
            holder = operand_text(of_dtype[0]) if of_dtype else f'{dtype}, the dtype of "{op}" on {join_operands([operand_text(x) for x in operands])}'
            raise OverflowError(f'"{op}": the Python int {scalar} is out of range for {holder} ({dtype} holds {low} to {high})') from None


_FUNCTIONS: dict[tuple[type, str], Callable[..., Any]] = {}


def _function(array: Array, op: str) -> Callable[..., Any]:
    """The function computing ``op`` on arrays of ``array``'s type (an operator, its namespace's
    function, or a composite), kept in ``_FUNCTIONS``."""
    xp = namespace(array)
    composite = _COMPOSITES.get(op)
    operator_ = None if op in _JAX_FUNCTIONS_FIRST and backend_of(array).name == "jax" else _OPERATORS.get(op)
    found = operator_ or (functools.partial(composite, xp) if composite else getattr(xp, _NAMESPACE_NAMES.get(op, op)))
    _FUNCTIONS[type(array), op] = found
    return found


def select(mask: Array, x1: Value, x2: Value) -> Array:
    """``where(mask, x1, x2)``: ``x1`` where ``mask`` is nonzero, else ``x2``, broadcast."""
    values = _plain(x1), _plain(x2)
    if type(values[0]) is int or type(values[1]) is int:  # numpy would wrap one its integer dtype cannot hold
        _check_ints("where", values, (x1, x2))
    if type(mask) is not np.ndarray or type(values[0]) not in _PLAIN_KINDS or type(values[1]) not in _PLAIN_KINDS:
        return _library_select(mask, values, (x1, x2))
    shapes = tuple(value.shape for value in (mask, *values) if isinstance(value, np.ndarray))
    if any(shape != mask.shape for shape in shapes):
        _check_broadcast("where", (mask, x1, x2), shapes)
    return as_array(np.where(mask, *values))


def clip(array: Array, low: Value | None, high: Value | None) -> Array:
    """``array`` bounded below by ``low`` and above by ``high`` (None: no bound), all broadcast:
    ``minimum(maximum(array, low), high)``, numpy's ``clip`` (NaN propagates; where ``low > high``,
    ``high``), after the shared rules accept the operands."""
    operands = (array, *[bound for bound in (low, high) if bound is not None])
    arrays = tuple(value for value in operands if not isinstance(value, (bool, int, float, complex)))
    if len(arrays) > 1:
        same_library("clip", arrays)
        shapes = tuple(value.shape for value in arrays)
        if any(shape != array.shape for shape in shapes):
            _check_broadcast("clip", operands, shapes)
    dtype = _clip_dtype(tuple(_dtype_key(_plain(value)) for value in operands))
    if isinstance(dtype, DTypeRefused):
        fail(dtype, "clip", operands)
    given = array
    if numpy_dtype_like(array.dtype) != dtype.numpy_dtype:  # then no bound widens it: one dtype throughout
        array = to_dtype(array, dtype)
    if type(low) is int or type(high) is int:
        low, high = _binding_ints(array, low, high, given)
    result = array if low is None else binary("maximum", array, low)
    result = result if high is None else binary("minimum", result, high)
    return copy_of(array) if result is given else result


def _binding_ints(array: Array, low: Value | None, high: Value | None, given: Array) -> tuple[Value | None, Value | None]:
    """The bounds, a Python int beyond the integer dtype of the ``given`` array (before any cast)
    left out where it does not bind (numpy's ``clip(uint8, -1, 300)`` is the array); one that
    binds is an ``OverflowError``, as one beyond a cast array's dtype (``clip(bool, -1, uint8)``:
    numpy leaves out only bounds beyond an integer input's own range)."""
    limits = _int_range(_dtype_key(given), int) if numpy_dtype_like(given.dtype).kind in "iu" else None
    if limits is not None:
        _, least, greatest = limits
        low = None if type(low) is int and low < least else low
        high = None if type(high) is int and high > greatest else high
    for bound in (low, high):
        if type(bound) is int:
            _check_ints("clip", (array, bound), (given, bound))
    return low, high


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _clip_dtype(keys: tuple[DTypeKey, ...]) -> type[generic] | DTypeRefused:
    """The dtype ``clip`` gives operands of these dtypes (``keys``: the array's, then the bounds'),
    or its refusal."""
    names = [_dtype_name(key) for key in keys]
    result = clip_dtype(names[0], *names[1:], *[None] * (3 - len(names)))
    return result if isinstance(result, DTypeRefused) else marker_named(result)


def _library_select(mask: Array, values: tuple[Value, Value], operands: tuple[Value, Value]) -> Array:
    """``where`` with an array of another library: the values cast to the rule's dtype first."""
    arrays = (mask, *[value for value in values if type(value) not in _SCALAR_KINDS])
    backend = same_library("where", arrays)
    shapes = tuple(array.shape for array in arrays)  # type: ignore[union-attr]  # no scalars among them
    if any(shape != mask.shape for shape in shapes):
        _check_broadcast("where", (mask, *operands), shapes)
    result = marker_named(where_dtype(*map(_dtype_name, map(_dtype_key, values))))
    device = backend.device(mask)
    converted = [backend.xp.asarray(value, dtype=backend.dtype(result), device=device) if type(value) in _SCALAR_KINDS else to_dtype(value, result) for value in values]
    return as_array(backend.xp.where(mask, *converted))


def convert(op: str, array: Array, dtype: object) -> Array:
    """``array`` cast to the dtype marker ``dtype`` (a copy, shape kept); a category is refused."""
    if not (isinstance(dtype, type) and issubclass(dtype, generic)):
        raise TypeError(f'"{op}": dtype must be a typedtensor dtype such as typedtensor.float32, got {dtype!r}')
    problem = cast_dtype(dtype.__name__)
    if isinstance(problem, CategoryNotDType):
        fail(problem, op, [array])
    if type(array) is np.ndarray:
        return as_array(array.astype(numpy_dtype_of(dtype)))
    return to_dtype(array, dtype)  # on another library: the array itself if it has the dtype already


def _sigmoid(xp: Any, array: Array) -> Array:
    """``1 / (1 + exp(-x))`` without overflow: ``exp`` only ever sees ``-|x|``.

    For ``x < 0`` that is ``exp(x) / (1 + exp(x))``, exact in the tail where ``1 - sigmoid(-x)``
    would round to 0.
    """
    array = _in_float(xp, "sigmoid", array)
    small = xp.exp(-xp.abs(array))
    return xp.where(array >= 0, 1, small) / (1 + small)  # type: ignore[no-any-return]


def _in_float(xp: Any, op: str, array: Array) -> Array:
    """``array``, booleans and integers cast to the float ``op``'s rule gives them (int8 -> float16)."""
    if numpy_dtype_like(array.dtype).kind in "fc":
        return array
    name = unary_dtype(op, marker_of(array.dtype).__name__)
    assert isinstance(name, str)  # only complex numbers are refused, and they are inexact
    return xp.astype(array, numpy_dtype_of(marker_named(name)))  # type: ignore[no-any-return]


#: Below ``-_TAIL`` both ``x * sigmoid(x)`` and ``x * Phi(x)`` are 0 in float64 (``exp(-746)`` is):
#: ``x`` bounded there makes ``silu(-inf)`` and ``gelu(-inf)`` their limit 0, not ``-inf * 0``.
_TAIL: Final = 750.0


def _above_tail(xp: Any, array: Array) -> Array:
    return xp.maximum(array, xp.full_like(array, -_TAIL))  # type: ignore[no-any-return]  # NaN stays NaN


def _silu(xp: Any, array: Array) -> Array:
    """``x * sigmoid(x)``: no overflow, as ``sigmoid`` has none; tends to ``x`` and to ``-0``."""
    array = _above_tail(xp, _in_float(xp, "silu", array))
    return array * _sigmoid(xp, array)


def _softplus(xp: Any, array: Array) -> Array:
    """``log(1 + exp(x))`` as ``maximum(x, 0) + log1p(exp(-|x|))``: ``exp`` never overflows, and
    the tail is exact (``softplus(-40)`` is ``exp(-40)``, ``softplus(40)`` is 40)."""
    array = _in_float(xp, "softplus", array)
    return xp.maximum(array, xp.zeros_like(array)) + xp.log1p(xp.exp(-xp.abs(array)))  # type: ignore[no-any-return]


#: 1 / sqrt(2), and sqrt(2 / pi) with the cubic term's coefficient: GELU's constants.
_HALF_SQRT2: Final = 0.7071067811865476
_SQRT_2_OVER_PI: Final = 0.7978845608028654
_GELU_CUBIC: Final = 0.044715
#: Beyond this ``|x|`` the tanh form's sigmoid is 0 or 1 in float64: a bound keeping ``x**3`` finite.
_GELU_BOUND: Final = 30.0


def _gelu(xp: Any, array: Array, approximate: bool = False) -> Array:
    """``x * Phi(x)``, Phi the normal distribution: exactly ``x / 2 * erfc(-x / sqrt(2))`` (exact
    in the far negative tail, where ``1 + erf`` would round to 0), or with ``approximate`` the
    tanh form ``x / 2 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 x**3)))``, computed as
    ``x * sigmoid(2 * ...)`` on ``x`` bounded to +-30, which leaves its value and keeps ``x**3`` finite."""
    if type(approximate) is not bool:  # torch spells it approximate="tanh": a truthy string must not pass
        raise TypeError(f'"gelu": approximate must be a bool (True: the tanh form), got {approximate!r}')
    array = _above_tail(xp, _in_float(xp, "gelu", array))
    if not approximate:
        return array * (erfc(xp, -array * _HALF_SQRT2) / 2)  # type: ignore[no-any-return]  # Phi in [0, 1]: no overflow
    limit = xp.full_like(array, _GELU_BOUND)
    bounded = xp.minimum(xp.maximum(array, -limit), limit)
    inner = bounded * (_SQRT_2_OVER_PI * 2 + (_SQRT_2_OVER_PI * 2 * _GELU_CUBIC) * bounded * bounded)
    return array * _sigmoid(xp, inner)


def _rsqrt(xp: Any, array: Array) -> Array:
    """``1 / sqrt(x)``, with the library's own where it has one (torch)."""
    own = getattr(xp, "rsqrt", None)
    return own(array) if own is not None else 1 / xp.sqrt(array)  # type: ignore[no-any-return]


def _erf(xp: Any, array: Array) -> Array:
    return erf(xp, _in_float(xp, "erf", array))  # type: ignore[no-any-return]


def _relu(xp: Any, array: Array) -> Array:
    """``maximum(x, 0)`` in ``x``'s own dtype: NaN stays NaN, and booleans stay booleans."""
    return xp.maximum(array, xp.asarray(0, dtype=array.dtype))  # type: ignore[no-any-return]


#: Per dtype, whether it is an integer or real float: ``**`` on those is numpy's ``pow``, only faster.
_REAL_BASES: dict[Any, bool] = {}


def _power(xp: Any, x1: Any, x2: Any) -> Array:
    """``x1 ** x2``: the arrays' operator where it computes numpy's ``pow`` (faster: it squares for
    ``** 2``), else ``pow`` itself. numpy's operator squares booleans in int8 (``pow``, the rule,
    computes in int64) and takes a complex number's square root for ``** 0.5``, not its ``pow``."""
    if type(x1) in _SCALAR_KINDS:
        return operator.pow(x1, x2)  # type: ignore[no-any-return]
    real = _REAL_BASES.get(x1.dtype) if type(x1) is np.ndarray else None  # array-api-strict's dtypes hash as numpy's
    if real is None:
        real = bool(xp.isdtype(x1.dtype, ("integral", "real floating")))
        if type(x1) is np.ndarray:
            _REAL_BASES[x1.dtype] = real
    return operator.pow(x1, x2) if real else xp.pow(x1, x2)  # type: ignore[no-any-return]


#: Ops that are no single namespace function or operator, by a function of the namespace.
_COMPOSITES: Final[dict[str, Callable[..., Array]]] = {"sigmoid": _sigmoid, "relu": _relu, "power": _power,
    "silu": _silu, "softplus": _softplus, "gelu": _gelu, "rsqrt": _rsqrt, "erf": _erf,
}
#: Ops the array API spells otherwise (numpy has both names; array-api-strict only its own).
_NAMESPACE_NAMES: Final = {"arctan": "atan"}
#: Ops that are operators of arrays.
_OPERATORS: Final[dict[str, Callable[..., Any]]] = {
    "add": operator.add, "subtract": operator.sub, "multiply": operator.mul, "divide": operator.truediv,
    "floor_divide": operator.floordiv, "equal": operator.eq, "not_equal": operator.ne,
    "less": operator.lt, "less_equal": operator.le, "greater": operator.gt, "greater_equal": operator.ge,
    "negative": operator.neg, "positive": operator.pos, "abs": operator.abs,
}
#: The binary ops jax runs faster as its namespace's functions: its arrays' operators check the
#: other operand and then call them (``a + b`` is ``jnp.add(a, b)``, 0.5-0.8 us later); its unary
#: operators are the quicker.
_JAX_FUNCTIONS_FIRST: Final = frozenset(_OPERATORS) - {"negative", "positive", "abs"}


# Other libraries (SPEC 10): the result dtype is the rule's, numpy's promotion, whatever the
# library would compute (torch's ``int32 + float32`` is float32, numpy's float64). So an op whose
# rule gives a wider dtype than its operands' computes in that dtype, its operands cast first.

#: The kinds of dtypes in promotion's order: an op whose result is of a higher kind computes in it.
_KIND_RANK: Final = {"b": 0, "i": 1, "u": 1, "f": 2, "c": 3}
#: Booleans compute in int8 where numpy gives them arithmetic (``True + True``, ``abs``, ``<``)
#: that the array API leaves out (array-api-strict refuses it); the result is cast back.
_BOOLEAN_STAND_IN: Final = int8
_LOGICAL: Final = frozenset({"logical_not", "logical_and", "logical_or"})


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _unary_plan(op: str, dtype: np.dtype[Any]) -> tuple[type[generic] | None, type[generic]] | DTypeRefused:
    """The dtype to cast the operand to first (None: none) and the rule's result dtype, or the refusal."""
    result = unary_dtype(op, marker_of(dtype).__name__)
    if isinstance(result, DTypeRefused):
        return result
    marker = marker_named(result)
    if op in _LOGICAL:
        return bool_, marker
    if dtype.kind == "b" and marker is bool_:
        return _BOOLEAN_STAND_IN, marker
    return (marker if marker is not bool_ and _KIND_RANK[numpy_dtype_of(marker).kind] > _KIND_RANK[dtype.kind] else None), marker


#: How an op runs on operands of another library, by the op and each operand's type and dtype:
#: the library's dtypes to cast the operands to first (None: none), the result's dtype, the op's
#: function and the namespace. Found once, so that a call pays a dict lookup, not the rules.
_LibraryCall: TypeAlias = tuple[Any, Any, Any, Callable[..., Any], Any]
_LIBRARY_CALLS: dict[tuple[object, ...], _LibraryCall] = {}


def _cast_to(backend: Backend, value: Value, marker: type[generic] | None) -> Any:
    """The library's dtype to cast ``value`` to for ``marker``: None for a scalar or one in it already."""
    if marker is None or type(value) in _SCALAR_KINDS or numpy_dtype_like(value.dtype) == marker.numpy_dtype:  # type: ignore[union-attr]
        return None
    return backend.dtype(marker)


def _library_unary(op: str, array: Array, options: tuple[object, ...]) -> Array:
    """Unary ``op`` on an array of another library, in the rule's dtype."""
    key = (op, type(array), array.dtype)
    call = _LIBRARY_CALLS.get(key)
    if call is None:
        plan = _unary_plan(op, numpy_dtype_like(array.dtype))
        if isinstance(plan, DTypeRefused):
            fail(plan, op, [array])
        backend = backend_of(array)
        function = _FUNCTIONS.get((type(array), op)) or _function(array, op)
        call = (_cast_to(backend, array, plan[0]), None, backend.dtype(plan[1]), function, backend.xp)
        if backend.lasting(*plan):
            _LIBRARY_CALLS[key] = call
    first, _, result, function, xp = call
    value = function(array if first is None else xp.astype(array, first), *options)
    return value if value.dtype == result else xp.astype(value, result)  # type: ignore[no-any-return]


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _binary_plan(op: str, left: DTypeKey, right: DTypeKey) -> tuple[type[generic], type[generic]]:
    """The dtype to cast the array operands to first and the rule's result dtype: the result's
    for arithmetic, the operands' promotion for comparisons, booleans for logical ops."""
    names = _dtype_name(left), _dtype_name(right)
    result = binary_dtype(op, *names)
    assert isinstance(result, str)  # refusals were raised before
    marker = marker_named(result)
    if op in _LOGICAL:
        return bool_, marker
    first = marker_named(where_dtype(*names)) if marker is bool_ else marker
    return (_BOOLEAN_STAND_IN if first is bool_ else first), marker


def _library_binary(op: str, x1: Value, x2: Value, left: Value, right: Value) -> Array:
    """Binary ``op`` of ``x1`` and ``x2`` (as ``left`` and ``right``: plain) with an array of
    another library, after the checks of ``binary``, the arrays cast to the dtype it computes in.
    Every small op pays each step here: no tuple is made but the key."""
    left_dtype = None if type(left) in _SCALAR_KINDS else left.dtype  # type: ignore[union-attr]  # an array
    right_dtype = None if type(right) in _SCALAR_KINDS else right.dtype  # type: ignore[union-attr]  # an array
    if left_dtype is not None and right_dtype is not None:
        if type(left) is not type(right):  # arrays of one type are of one library
            same_library(op, (left, right))
        if left.shape != right.shape:  # type: ignore[union-attr]  # arrays, both
            _check_broadcast(op, (x1, x2), (left.shape, right.shape))  # type: ignore[union-attr]
    key = (op, type(left), left_dtype, type(right), right_dtype)
    call = _LIBRARY_CALLS.get(key) or _binary_call(key, op, (left, right), right if left_dtype is None else left)  # type: ignore[arg-type]
    if type(left) is int or type(right) is int:  # torch would wrap an int its dtype cannot hold
        _check_ints(op, (left, right), (x1, x2))
    first, second, result, function, xp = call
    value = function(left if first is None else xp.astype(left, first), right if second is None else xp.astype(right, second))
    return value if value.dtype == result else xp.astype(value, result)  # type: ignore[no-any-return]


def _binary_call(key: tuple[object, ...], op: str, values: tuple[Value, Value], array: Array) -> _LibraryCall:
    """How binary ``op`` runs on ``values``, kept under ``key``; or the rule's refusal, raised."""
    keys = _dtype_key(values[0]), _dtype_key(values[1])
    refused = _binary_refusal(op, *keys) if op in _BINARY_MAY_REFUSE else None
    if refused is not None:
        fail(refused, op, values)
    first, result = _binary_plan(op, *keys)
    backend = backend_of(array)
    function = _FUNCTIONS.get((type(array), op)) or _function(array, op)
    call = (_cast_to(backend, values[0], first), _cast_to(backend, values[1], first), backend.dtype(result), function, backend.xp)
    if backend.lasting(first, result):
        _LIBRARY_CALLS[key] = call
    return call
