"""Elementwise ops against numpy: values, dtypes and shapes, and errors raised before numpy runs."""

from __future__ import annotations

import operator
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import typedtensor as tt
from typedtensor._shape_rules import BINARY_RULES, UNARY_RULES, binary_dtype

pytestmark = pytest.mark.floors

Array = np.ndarray[Any, Any]
DTYPES = [np.dtype(name) for name in (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128",
)]
UNARY_OPERATORS: dict[str, Callable[[Any], Any]] = {"negative": operator.neg, "positive": operator.pos, "abs": operator.abs}
BINARY_OPERATORS: dict[str, Callable[[Any, Any], Any]] = {
    "add": operator.add, "subtract": operator.sub, "multiply": operator.mul, "divide": operator.truediv,
    "floor_divide": operator.floordiv, "power": operator.pow, "equal": operator.eq, "not_equal": operator.ne,
    "less": operator.lt, "less_equal": operator.le, "greater": operator.gt, "greater_equal": operator.ge,
}
SCALARS = [True, 2, 2.5, 1 + 2j, 0.5, np.float64(2.5), np.complex128(1j)]  # 0.5: numpy takes square roots for ** 0.5


def strided(draw: st.DrawFn, array: Array) -> Array:
    """``array``, or a view of the same values that is not contiguous."""
    how = draw(st.sampled_from(["plain", "every other", "transposed"]))
    if how == "every other" and array.ndim:
        spread = np.zeros((*array.shape[:-1], 2 * array.shape[-1]), array.dtype)
        spread[..., ::2] = array
        return spread[..., ::2]
    if how == "transposed" and array.ndim >= 2:
        return np.ascontiguousarray(array.swapaxes(0, 1)).swapaxes(0, 1)
    return array


shapes = hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=3)


@st.composite
def arrays(draw: st.DrawFn, dtypes: list[np.dtype[Any]] = DTYPES, shape: tuple[int, ...] | None = None) -> Array:
    """Arrays of any dtype (floats with NaN and infinities), shapes with 0s and 1s, some strided."""
    dtype = draw(st.sampled_from(dtypes))
    return strided(draw, draw(hnp.arrays(dtype, shape if shape is not None else draw(shapes))))


@st.composite
def broadcastable(draw: st.DrawFn, count: int) -> list[Array]:
    """``count`` arrays whose shapes broadcast: the same dims, some 1, some leading ones dropped."""
    shape = draw(shapes)
    result = []
    for _ in range(count):
        dims = tuple(1 if draw(st.booleans()) else size for size in shape)[draw(st.integers(0, len(shape))) :]
        result.append(draw(arrays(shape=dims)))
    return result


def numpy_result(function: Callable[..., Any], *operands: Any) -> Array | type[BaseException]:
    """What numpy gives, or the kind of exception it raises (TypeError, ValueError)."""
    try:
        with np.errstate(all="ignore"):
            return np.asarray(function(*operands))
    except (TypeError, ValueError) as error:
        return TypeError if isinstance(error, TypeError) else ValueError


def ours(function: Callable[..., Any], *operands: Any) -> Array | type[BaseException]:
    try:
        with np.errstate(all="ignore"):
            result = function(*operands)
    except (TypeError, ValueError) as error:
        return TypeError if isinstance(error, TypeError) else ValueError
    assert isinstance(result, tt.Tensor) and type(result.numpy()) is np.ndarray
    return result.numpy()


def assert_same(got: Array | type[BaseException], expected: Array | type[BaseException]) -> None:
    if not isinstance(expected, np.ndarray):
        assert got is expected
        return
    assert isinstance(got, np.ndarray), got
    assert (got.dtype, got.shape) == (expected.dtype, expected.shape)
    np.testing.assert_array_equal(got, expected)


def tensor(value: Any) -> Any:
    return tt.Tensor(value) if isinstance(value, np.ndarray) else value


# --- unary -----------------------------------------------------------------------------------

NUMPY_UNARY = [op for op in UNARY_RULES if op not in ("sigmoid", "relu", "erf", "rsqrt", "silu", "softplus", "gelu")]


@settings(max_examples=500)  # every op, every dtype, many shapes
@given(st.sampled_from(NUMPY_UNARY), arrays())
def test_unary_ops_equal_numpy(op: str, array: Array) -> None:
    expected = numpy_result(getattr(np, op), array)
    assert_same(ours(getattr(tt, op), tt.Tensor(array)), expected)
    if op in UNARY_OPERATORS:
        assert_same(ours(UNARY_OPERATORS[op], tt.Tensor(array)), expected)


def _sigmoid_reference(array: Array) -> Array:
    """``1 / (1 + exp(-x))`` in float64 (complex excluded), in the dtype ``exp`` gives ``array``."""
    with np.errstate(all="ignore"):
        wide = 1 / (1 + np.exp(-array.astype(np.float64)))
        return wide.astype(np.exp(np.zeros(0, array.dtype)).dtype)


REAL = [dtype for dtype in DTYPES if dtype.kind != "c"]


@given(arrays(REAL))
def test_sigmoid_equals_its_definition(array: Array) -> None:
    got = tt.sigmoid(tt.Tensor(array)).numpy()
    expected = _sigmoid_reference(array)
    assert (got.dtype, got.shape) == (expected.dtype, expected.shape)
    eps = np.finfo(got.dtype).eps
    np.testing.assert_allclose(got, expected, rtol=4 * eps, atol=4 * eps)


def test_sigmoid_never_overflows() -> None:
    """No overflow warning (the test run turns warnings into errors), exact limits."""
    for dtype in (np.float16, np.float32, np.float64):
        x = tt.tensor([-1e4, -100.0, 0.0, 100.0, 1e4, -np.inf, np.inf, np.nan], dtype=tt.tensor(np.zeros(0, dtype)).dtype)
        got = tt.sigmoid(x).numpy()
        np.testing.assert_array_equal(got[[0, 4, 5, 6]], [0, 1, 0, 1])
        assert got[2] == 0.5 and np.isnan(got[7])


@given(arrays(REAL))
def test_relu_keeps_the_dtype_and_nan(array: Array) -> None:
    got = tt.relu(tt.Tensor(array)).numpy()
    with np.errstate(invalid="ignore"):
        expected = np.where(np.isnan(array) | (array > 0), array, np.zeros((), array.dtype)) if array.dtype.kind == "f" else np.where(array > 0, array, 0).astype(array.dtype)
    assert (got.dtype, got.shape) == (array.dtype, array.shape)
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize(
    ("op", "dtype", "reason"),
    [
        ("negative", tt.bool_, "numpy has no boolean negative (use logical_not)"),
        ("positive", tt.bool_, "numpy has no boolean unary plus (cast to an integer dtype first)"),
        ("sign", tt.bool_, "numpy has no boolean sign (cast to an integer dtype first)"),
        ("floor", tt.complex64, "complex numbers are not ordered, so they have no floor"),
        ("ceil", tt.complex128, "complex numbers are not ordered, so they have no ceiling"),
        ("sigmoid", tt.complex64, "it is defined for real dtypes only"),
        ("relu", tt.complex128, "it is defined for real dtypes only"),
    ],
)
def test_refused_dtypes_are_a_clear_type_error(op: str, dtype: type[tt.generic], reason: str) -> None:
    x = tt.zeros((2, 3), dtype)
    operators = [UNARY_OPERATORS[op]] if op in UNARY_OPERATORS else []
    for call in [getattr(tt, op), *operators]:
        with pytest.raises(tt.TensorDTypeError) as raised:
            call(x)
        assert str(raised.value) == f'Cannot apply "{op}" to Tensor[{dtype.__name__}, 2, 3]: {reason}'
        assert isinstance(raised.value, TypeError) and raised.value.__cause__ is None


# --- binary ----------------------------------------------------------------------------------


@settings(max_examples=800)  # every op, every pair of dtypes, many shapes
@given(st.sampled_from(list(BINARY_RULES)), broadcastable(2))
def test_binary_ops_equal_numpy(op: str, pair: list[Array]) -> None:
    a, b = pair
    expected = numpy_result(getattr(np, op), a, b)
    assert_same(ours(getattr(tt, op), tt.Tensor(a), tt.Tensor(b)), expected)
    if op in BINARY_OPERATORS:
        assert_same(ours(BINARY_OPERATORS[op], tt.Tensor(a), tt.Tensor(b)), expected)


@pytest.mark.parametrize("op", BINARY_RULES)
def test_python_scalars_are_weak_on_either_side(op: str) -> None:
    """numpy's float64 and complex128 scalars are Python floats and complexes: weak as those."""
    for dtype in DTYPES:
        array = np.arange(1, 7).reshape(2, 3).astype(dtype)
        for scalar in SCALARS:
            plain = scalar.item() if isinstance(scalar, np.generic) else scalar
            for left, right in ((array, scalar), (scalar, array)):
                expected = numpy_result(getattr(np, op), *(plain if x is scalar else x for x in (left, right)))
                assert_same(ours(getattr(tt, op), tensor(left), tensor(right)), expected)
                if op in BINARY_OPERATORS:
                    assert_same(ours(BINARY_OPERATORS[op], tensor(left), tensor(right)), expected)


@pytest.mark.parametrize("exponent", [-1, 0, 0.5, 1, 2])  # numpy's ** had shortcuts for these
def test_a_rank_0_exponent_gives_the_rules_dtype(exponent: float) -> None:
    """numpy's ** before 2.3 took a rank-0 exponent as a scalar of the base's dtype, so
    ``float32[2, 3] ** int64[]`` stayed float32; the result is ``pow``'s, and its dtype the rule's."""
    for base_dtype in DTYPES:
        for exponent_dtype in DTYPES:
            base, power = np.arange(1, 7).reshape(2, 3).astype(base_dtype), np.asarray(exponent).astype(exponent_dtype)
            got = ours(operator.pow, tt.Tensor(base), tt.Tensor(power))
            assert_same(got, numpy_result(np.power, base, power))
            if isinstance(got, np.ndarray):
                names = [tt.Tensor(np.zeros(0, dtype)).dtype.__name__ for dtype in (base_dtype, exponent_dtype, got.dtype)]
                assert binary_dtype("power", names[0], names[1]) == names[2]


def test_a_broadcast_mismatch_names_the_op_and_both_operands_before_numpy_runs() -> None:
    calls: list[tuple[str, Callable[[Any, Any], Any]]] = [
        ("add", operator.add), ("less", operator.lt), ("maximum", tt.maximum), ("subtract", tt.subtract),
    ]
    for op, call in calls:
        with pytest.raises(tt.BroadcastError) as raised:
            call(tt.zeros((32, 10)), tt.zeros((5,), tt.int32))
        assert str(raised.value) == (
            f'Cannot broadcast Tensor[float32, 32, 10] and Tensor[int32, 5] for "{op}": '
            "sizes 10 and 5 at axis -1 differ and neither is 1"
        )
        assert isinstance(raised.value, ValueError) and raised.value.__cause__ is None


def test_refused_dtype_pairs_name_both_operands() -> None:
    b: Any = tt.zeros((2,), tt.bool_)  # Any: the plugin rightly reports these calls
    reason = "numpy has no boolean subtract (use not_equal, or cast to an integer dtype first)"
    calls: list[tuple[Callable[[], Any], str]] = [
        (lambda: b - b, "Tensor[bool_, 2] and Tensor[bool_, 2]"), (lambda: True - b, "bool and Tensor[bool_, 2]"),
    ]
    for call, operands in calls:
        with pytest.raises(tt.TensorDTypeError) as raised:
            call()
        assert str(raised.value) == f'Cannot apply "subtract" to {operands}: {reason}'
    complex_tensor: Any = tt.zeros((2,), tt.complex64)
    with pytest.raises(tt.TensorDTypeError) as raised:
        complex_tensor // np.complex128(2)  # numpy's complex128 is named as the complex it is
    assert str(raised.value) == (
        'Cannot apply "floor_divide" to Tensor[complex64, 2] and complex: complex numbers are not ordered, so they have no floor'
    )


@pytest.mark.parametrize("operand", [np.ones(3), np.str_("2"), np.longdouble(2), "2", None])  # numpy scalars of our dtypes: test_numpy_interop.py
def test_other_operands_are_refused_clearly(operand: object) -> None:
    with pytest.raises(TypeError, match=r'"add": x2 must be a typedtensor.Tensor or a Python scalar'):
        tt.add(tt.zeros((3,)), operand)  # type: ignore[call-overload]
    with pytest.raises(TypeError, match=r'"less": x2 must be a typedtensor.Tensor or a Python scalar'):
        tt.zeros((3,)) < operand  # type: ignore[operator]


def test_two_scalars_are_refused() -> None:
    with pytest.raises(TypeError, match='"add": at least one operand must be a typedtensor.Tensor'):
        tt.add(1, 2.0)  # type: ignore[call-overload]


def test_equality_with_other_objects_is_false_but_arrays_are_refused() -> None:
    x = tt.zeros((3,))
    assert (x == None) is False and (x != "zero") is True  # noqa: E711 - the point of the test
    for array_like in (np.zeros(3), np.str_("0")):
        with pytest.raises(TypeError, match='"equal": x2 must be a typedtensor.Tensor or a Python scalar'):
            x == array_like
        with pytest.raises(TypeError, match='"not_equal": x2 must be'):
            x != array_like


def test_a_tensor_is_unhashable_and_true_only_as_one_element() -> None:
    x = tt.ones((2,))
    with pytest.raises(TypeError, match="unhashable"):
        hash(x)
    assert bool(tt.ones((1, 1))) is True and bool(tt.zeros(())) is False
    with pytest.raises(tt.TensorShapeError, match=r'^"bool" reads the element of a one-element tensor; Tensor\[bool_, 2\] has a dim of 2'):
        bool(x == x)  # a ValueError, as numpy's


# --- where and cast --------------------------------------------------------------------------


@given(broadcastable(3), st.lists(st.sampled_from([None, *SCALARS[:4]]), min_size=2, max_size=2))
def test_where_equals_numpy(arrays_: list[Array], scalars: list[complex | None]) -> None:
    """``x1`` and ``x2`` tensors or Python scalars (``None``: the tensor), ``condition`` of any dtype."""
    condition, *values = arrays_
    x, y = (value if scalar is None else scalar for value, scalar in zip(values, scalars))
    expected = numpy_result(np.where, condition, x, y)
    assert_same(ours(tt.where, tt.Tensor(condition), tensor(x), tensor(y)), expected)


def test_where_names_every_operand_when_shapes_do_not_broadcast() -> None:
    mask: Any = tt.zeros((3,), tt.bool_)
    with pytest.raises(tt.BroadcastError) as raised:
        tt.where(mask, tt.zeros((2, 3)), tt.zeros((4,)))
    assert str(raised.value) == (
        'Cannot broadcast Tensor[bool_, 3], Tensor[float32, 2, 3] and Tensor[float32, 4] for "where": '
        "sizes 3 and 4 at axis -1 differ and neither is 1"
    )


@given(arrays(), st.sampled_from(DTYPES))
def test_cast_equals_astype_and_copies(array: Array, dtype: np.dtype[Any]) -> None:
    marker: type[tt.generic] = tt.Tensor(np.zeros(0, dtype)).dtype
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)  # numpy drops imaginary parts, and says so
        expected = numpy_result(lambda a: a.astype(dtype), array)
        for got in (ours(tt.cast, tt.Tensor(array), marker), ours(lambda x: x.astype(marker), tt.Tensor(array))):
            assert_same(got, expected)
            assert isinstance(got, np.ndarray) and not np.shares_memory(got, array)


def test_a_cast_to_a_category_or_a_foreign_dtype_is_a_clear_type_error() -> None:
    x: Any = tt.zeros((2, 3), tt.int8)  # Any: the plugin rightly reports these calls
    with pytest.raises(tt.TensorDTypeError) as raised:
        tt.cast(x, tt.floating)
    assert str(raised.value) == (
        'Cannot cast Tensor[int8, 2, 3] to floating for "cast": floating is a category of dtypes, not a dtype '
        "(use one of float16, float32, float64)"
    )
    with pytest.raises(tt.TensorDTypeError, match='^Cannot cast Tensor\\[int8, 2, 3\\] to integer for "astype"'):
        x.astype(tt.integer)
    with pytest.raises(TypeError, match="^\"cast\": dtype must be a typedtensor dtype such as typedtensor.float32, got <class 'numpy.float32'>$"):
        tt.cast(x, np.float32)  # type: ignore[type-var]


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: tt.zeros((2,), tt.int8) + 300, OverflowError, '"add": the Python int 300 is out of range for Tensor[int8, 2] (int8 holds -128 to 127)'),
        (lambda: 300 - tt.zeros((2,), tt.int8), OverflowError, '"subtract": the Python int 300 is out of range for Tensor[int8, 2] (int8 holds -128 to 127)'),
        (lambda: tt.multiply(tt.zeros((2,), tt.uint64), -1), OverflowError, '"multiply": the Python int -1 is out of range for Tensor[uint64, 2] (uint64 holds 0 to 18446744073709551615)'),
        (lambda: tt.zeros((2,), tt.int64) + 2**63, OverflowError, '"add": the Python int 9223372036854775808 is out of range for Tensor[int64, 2] (int64 holds -9223372036854775808 to 9223372036854775807)'),
        (lambda: tt.zeros((2,), tt.int8) ** -1, ValueError, '"power" on Tensor[int8, 2] and int: integers to negative integer powers are not allowed; cast the base to a float dtype first'),
        (lambda: tt.power(tt.ones((2,), tt.int32), tt.tensor([1, -2])), ValueError, '"power" on Tensor[int32, 2] and Tensor[int64, 2]: integers to negative integer powers are not allowed; cast the base to a float dtype first'),
    ],
)
def test_what_numpy_refuses_to_compute_names_the_op_and_the_operands(call: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as raised:
        call()
    assert str(raised.value) == message
    assert raised.value.__context__ is None and raised.value.__cause__ is None


@pytest.mark.parametrize(("x1", "x2"), [(tt.zeros((2,), tt.int8), 300), (-1, tt.zeros((2,), tt.uint8))])
def test_where_refuses_a_python_int_its_integer_tensor_cannot_hold(x1: Any, x2: Any) -> None:
    """numpy would wrap it around (``where(c, int8 tensor, 300)`` gave 44)."""
    tensor = x1 if isinstance(x1, tt.Tensor) else x2
    scalar = x2 if tensor is x1 else x1
    limits = np.iinfo(tensor.numpy().dtype)
    with pytest.raises(OverflowError) as raised:
        tt.where(tt.ones((2,), tt.bool_), x1, x2)
    assert str(raised.value) == (
        f'"where": the Python int {scalar} is out of range for Tensor[{tensor.dtype.__name__}, 2] '
        f"({tensor.dtype.__name__} holds {limits.min} to {limits.max})"
    )
    np.testing.assert_array_equal(tt.where(tt.ones((2,), tt.bool_), tensor, 7).numpy(), [0, 0])


INT64_HOLDS = "int64 holds -9223372036854775808 to 9223372036854775807"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: tt.ones((2,), tt.bool_) + 2**70, f'"add": the Python int {2**70} is out of range for int64, the dtype of "add" on Tensor[bool_, 2] and int ({INT64_HOLDS})'),
        (lambda: tt.where(tt.ones((2,), tt.bool_), 2**63, 1), f'"where": the Python int {2**63} is out of range for int64, the dtype of "where" on int and int ({INT64_HOLDS})'),
        (lambda: tt.where(tt.ones((2,), tt.bool_), -(2**63) - 1, True), f'"where": the Python int {-(2**63) - 1} is out of range for int64, the dtype of "where" on int and bool ({INT64_HOLDS})'),
        (lambda: tt.where(tt.ones((2,), tt.bool_), tt.ones((2,), tt.bool_), 2**63), f'"where": the Python int {2**63} is out of range for int64, the dtype of "where" on Tensor[bool_, 2] and int ({INT64_HOLDS})'),
    ],
)
def test_a_python_int_beyond_the_integer_dtype_an_op_computes_in_is_refused(call: Any, message: str) -> None:
    """Not only a tensor's own integer dtype: booleans and Python ints compute in int64, where
    numpy wrapped 2**63 around to -2**63 (``where``) or raised from its C conversion."""
    with pytest.raises(OverflowError) as raised:
        call()
    assert str(raised.value) == message
    assert raised.value.__context__ is None and raised.value.__cause__ is None
    assert tt.where(tt.ones((1,), tt.bool_), 2**63 - 1, 1).numpy().tolist() == [2**63 - 1]  # the largest still fits


@pytest.mark.parametrize(
    ("expression", "op", "parameter"),
    [("a + x", "add", "x1"), ("a < x", "greater", "x2"), ("a == x", "equal", "x2"), ("a ** x", "power", "x1"), ("x - a", "subtract", "x2")],
)
def test_an_ndarray_operand_is_refused_in_the_plugins_words(expression: str, op: str, parameter: str) -> None:
    """numpy defers to the tensor (``__array_ufunc__ = None``), which refuses the array; the mypy
    plugin reports the same words (``test_mypy_messages.yml``: an_ndarray_operand...)."""
    x, a = tt.zeros((3,)), np.ones(3)
    with pytest.raises(TypeError) as raised:
        eval(expression, {"x": x, "a": a})
    assert str(raised.value) == (
        f'"{op}": {parameter} must be a typedtensor.Tensor or a Python scalar (bool, int, float, complex), '
        "got ndarray; make a tensor of it with typedtensor.tensor(value)"
    )
