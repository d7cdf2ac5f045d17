"""The axis ops against numpy (and a long-double reference), and their errors, raised before numpy runs."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import typedtensor as tt

pytestmark = pytest.mark.floors

Array = np.ndarray[Any, Any]

DTYPES = [np.dtype(name) for name in (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128",
)]
FLOATS = [np.dtype(name) for name in ("float16", "float32", "float64")]
#: Tolerances against the long-double reference, by dtype.
TOLERANCE = {np.dtype("float16"): 4e-3, np.dtype("float32"): 2e-6, np.dtype("float64"): 1e-12}
# The reference computes exp(x) directly: long double holds exp(1e4) where it is 80 bits wide.
BOUND = 1e4 if np.finfo(np.longdouble).maxexp >= 16384 else 700.0


@st.composite
def arrays(draw: st.DrawFn, dtypes: list[np.dtype[Any]], min_dims: int = 0, elements: st.SearchStrategy[Any] | None = None) -> Array:
    """Arrays of every dtype given, with 0s and 1s among their dims, half of them strided views."""
    dtype = draw(st.sampled_from(dtypes))
    shape = draw(hnp.array_shapes(min_dims=min_dims, max_dims=4, min_side=0, max_side=4))
    array = draw(hnp.arrays(dtype, shape, elements=elements))
    if array.ndim >= 2 and draw(st.booleans()):
        array = np.ascontiguousarray(array.swapaxes(0, -1)).swapaxes(0, -1)  # the same values, strided
    if array.ndim >= 1 and draw(st.booleans()):
        array = array[::-1]  # a negative stride
    return array


def finite_floats(draw: st.DrawFn) -> Array:
    dtype = draw(st.sampled_from(FLOATS))
    bound = min(BOUND, float(np.finfo(dtype).max) / 2)
    return draw(arrays([dtype], min_dims=1, elements=st.floats(-bound, bound, width=dtype.itemsize * 8)))


@given(arrays(DTYPES, min_dims=1), st.data())
def test_argmax_and_argmin_equal_numpy(array: Array, data: st.DataObject) -> None:
    axis = data.draw(st.integers(-array.ndim, array.ndim - 1))
    keepdims = data.draw(st.booleans())
    out_shape = tuple(1 if i == axis % array.ndim else n for i, n in enumerate(array.shape) if keepdims or i != axis % array.ndim)
    for op in ("argmax", "argmin"):
        if array.shape[axis] == 0 and 0 not in out_shape:  # positions to find in nothing: a clear error
            with pytest.raises(ValueError, match=rf'^"{op}" of an empty extent: Tensor\[.*\] over axis {axis} has no elements to compare$'):
                getattr(tt, op)(tt.Tensor(array), axis=axis, keepdims=keepdims)
            continue
        # numpy refuses an empty extent even where there is no position to find: we give an empty result
        expected = np.zeros(out_shape, np.int64) if array.shape[axis] == 0 else getattr(np, op)(array, axis=axis, keepdims=keepdims)
        got = getattr(tt, op)(tt.Tensor(array), axis=axis, keepdims=keepdims)
        assert got.dtype is tt.int64 and got.shape == expected.shape
        np.testing.assert_array_equal(got.numpy(), expected)


@given(st.data())
def test_softmax_and_log_softmax_equal_the_long_double_reference(data: st.DataObject) -> None:
    array = finite_floats(data.draw)
    axis = data.draw(st.integers(-array.ndim, array.ndim - 1))
    wide = array.astype(np.longdouble)
    exps = np.exp(wide)
    reference = exps / exps.sum(axis=axis, keepdims=True) if array.size else wide
    tolerance = TOLERANCE[array.dtype]
    got = tt.softmax(tt.Tensor(array), axis=axis)
    assert got.dtype is tt.Tensor(array).dtype and got.shape == array.shape
    np.testing.assert_allclose(got.numpy().astype(np.longdouble), reference, rtol=tolerance, atol=tolerance)
    logs = tt.log_softmax(tt.Tensor(array), axis=axis)
    log_reference = wide - np.log(exps.sum(axis=axis, keepdims=True)) if array.size else wide
    assert logs.dtype is got.dtype and logs.shape == array.shape
    np.testing.assert_allclose(logs.numpy().astype(np.longdouble), log_reference, rtol=tolerance, atol=tolerance * 4)


AXES = st.one_of(
    st.none(),
    st.integers(-4, 3),
    st.lists(st.integers(-4, 3), max_size=4).map(tuple),
    st.lists(st.integers(-4, 3), max_size=3),
)


@given(st.data())
def test_logsumexp_equals_the_long_double_reference_over_every_axis_form(data: st.DataObject) -> None:
    array = finite_floats(data.draw)
    axis = data.draw(st.one_of(AXES, st.text("^v", min_size=array.ndim, max_size=array.ndim)))
    keepdims = data.draw(st.booleans())
    x = tt.Tensor(array)
    try:
        reduced = tt.reduce_any(x, axis=axis, keepdims=keepdims)  # the reductions' own axis rules
    except (tt.AxisError, tt.SelectionError) as error:
        with pytest.raises(type(error), match=re.escape(str(error).replace("reduce_any", "logsumexp"))):
            tt.logsumexp(x, axis=axis, keepdims=keepdims)
        return
    numpy_axis = tuple(i for i, c in enumerate(axis) if c == "^") if isinstance(axis, str) else axis
    numpy_axis = tuple(dict.fromkeys(k % array.ndim for k in numpy_axis)) if isinstance(numpy_axis, (tuple, list)) else numpy_axis
    with np.errstate(divide="ignore"):
        reference = np.log(np.exp(array.astype(np.longdouble)).sum(axis=numpy_axis, keepdims=keepdims))
    got = tt.logsumexp(x, axis=axis, keepdims=keepdims)
    assert got.dtype is x.dtype and got.shape == reduced.shape == reference.shape
    tolerance = TOLERANCE[array.dtype]
    np.testing.assert_allclose(got.numpy().astype(np.longdouble), reference, rtol=tolerance, atol=tolerance)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_large_inputs_do_not_overflow(dtype: type) -> None:
    x = tt.Tensor(np.array([[1e4, 1e4], [1e4, -1e4], [-1e4, -1e4]], dtype))
    np.testing.assert_allclose(tt.logsumexp(x, axis=1).numpy(), [1e4 + np.log(2), 1e4, -1e4 + np.log(2)], rtol=1e-7)
    np.testing.assert_allclose(tt.softmax(x).numpy(), [[0.5, 0.5], [1, 0], [0.5, 0.5]])
    np.testing.assert_allclose(tt.log_softmax(x).numpy(), [[-np.log(2)] * 2, [0, -2e4], [-np.log(2)] * 2], rtol=1e-7)
    assert tt.logsumexp(x).numpy() == pytest.approx(1e4 + np.log(3), rel=1e-7)


def test_logsumexp_of_infinities_nans_and_empty_slices() -> None:
    inf, nan = np.inf, np.nan
    x = tt.Tensor(np.array([[-inf, -inf], [inf, 1.0], [nan, 1.0], [inf, -inf], [-inf, 1e300]]))
    np.testing.assert_array_equal(tt.logsumexp(x, axis=1).numpy(), [-inf, inf, nan, inf, 1e300])
    np.testing.assert_array_equal(tt.logsumexp(tt.zeros((2, 0), tt.float32), axis=1).numpy(), [-inf, -inf])
    empty = tt.logsumexp(tt.zeros((0, 3)), axis=1, keepdims=True)
    assert empty.shape == (0, 1) and empty.dtype is tt.float32


def test_softmax_of_empty_tensors_and_of_minus_infinity() -> None:
    assert tt.softmax(tt.zeros((2, 0))).shape == (2, 0) and tt.log_softmax(tt.zeros((0, 3)), axis=0).shape == (0, 3)
    x = tt.Tensor(np.array([[-np.inf, 0.0, 0.0]], np.float32))
    np.testing.assert_array_equal(tt.softmax(x).numpy(), [[0.0, 0.5, 0.5]])
    np.testing.assert_allclose(tt.log_softmax(x).numpy(), [[-np.inf, -np.log(2), -np.log(2)]])


@st.composite
def gathers(draw: st.DrawFn, along: bool) -> tuple[Array, Array, int]:
    """An array, in-range integer indices (negative ones too) of any integer dtype, and an axis."""
    array = draw(arrays(DTYPES, min_dims=1))
    axis = draw(st.integers(-array.ndim, array.ndim - 1))
    size = array.shape[axis]
    index_dtype = draw(st.sampled_from([np.int8, np.int32, np.int64, np.uint8, np.uint64]))
    low = 0 if np.dtype(index_dtype).kind == "u" else -size
    if along:  # the rank of the array; other dims equal or 1
        taken = draw(st.integers(0, 3)) if size else 0  # nothing can be taken from an empty axis
        shape = tuple(taken if i == axis % array.ndim else draw(st.sampled_from([1, n])) for i, n in enumerate(array.shape))
    else:
        shape = draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3))
        shape = shape if size else (*shape, 0)
    indices = draw(hnp.arrays(index_dtype, shape, elements=st.integers(low, max(size - 1, low))))
    return array, indices, axis


@given(gathers(along=False), st.booleans())
def test_take_equals_numpy(case: tuple[Array, Array, int], flatten: bool) -> None:
    array, indices, axis = case
    where = None if flatten else axis
    if flatten and array.size == 0 and indices.size:
        return  # no element to take from a flattened empty tensor
    expected = np.take(array, indices.astype(np.int64), axis=where)
    got = tt.take(tt.Tensor(array), tt.Tensor(indices), axis=where)
    assert got.numpy().dtype == array.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got.numpy(), expected)


@given(gathers(along=True))
def test_take_along_axis_equals_numpy(case: tuple[Array, Array, int]) -> None:
    array, indices, axis = case
    expected = np.take_along_axis(array, indices.astype(np.int64), axis=axis)
    got = tt.take_along_axis(tt.Tensor(array), tt.Tensor(indices), axis=axis)
    assert got.numpy().dtype == array.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got.numpy(), expected)


def test_take_with_a_python_int_and_take_along_argmax() -> None:
    x = tt.tensor([[1.0, 9.0, 3.0], [8.0, 5.0, 6.0]], dtype=tt.float32)
    np.testing.assert_array_equal(tt.take(x, -1, axis=1).numpy(), [3.0, 6.0])
    np.testing.assert_array_equal(tt.take(x, 4).numpy(), 5.0)
    picked = tt.take_along_axis(x, tt.argmax(x, axis=1, keepdims=True), axis=1)
    np.testing.assert_array_equal(picked.numpy(), [[9.0], [8.0]])


X = "Tensor[float32, 2, 3]"


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda x: tt.argmax(x, axis=2), tt.AxisError, f'Axis 2 is out of range for "argmax" on {X} (valid axes are -2 to 1)'),
        (lambda x: tt.argmin(tt.zeros(())), tt.AxisError, 'Axis -1 is out of range for "argmin" on Tensor[float32] (a rank-0 tensor has no axes)'),
        (lambda x: tt.argmax(x, axis=None), TypeError, '"argmax": axis must be an int, got NoneType None'),
        (lambda x: tt.argmax(x, axis=True), TypeError, '"argmax": axis must be an int, got bool True'),
        (lambda x: tt.argmax(x, keepdims=1), TypeError, '"argmax": keepdims must be True or False, got int 1'),
        (lambda x: tt.argmax(x.numpy()), TypeError, '"argmax": x must be a typedtensor.Tensor, got ndarray; wrap it with typedtensor.Tensor(array)'),
        (lambda x: tt.softmax(x, axis=-3), tt.AxisError, f'Axis -3 is out of range for "softmax" on {X} (valid axes are -2 to 1)'),
        (lambda x: tt.log_softmax(tt.ones((2,), tt.int32)), TypeError, '"log_softmax" takes a floating tensor (float16, float32 or float64), got Tensor[int32, 2]; cast it first'),
        (lambda x: tt.logsumexp(x, axis=(0, 5, -3)), tt.AxisError, f'Axes 5, -3 are out of range for "logsumexp" on {X} (valid axes are -2 to 1)'),
        (lambda x: tt.logsumexp(x, axis="^"), tt.SelectionError, f'Selection "^" for "logsumexp" has 1 character but {X} has rank 2 (one character per dim)'),
        (lambda x: tt.logsumexp(tt.ones((2,), tt.complex64)), TypeError, '"logsumexp" takes a floating tensor (float16, float32 or float64), got Tensor[complex64, 2]; cast it first'),
        (lambda x: tt.take(x, tt.tensor([0, 3]), axis=1), tt.TensorIndexError, f'Index 3 is out of range for axis 1 of size 3 in "take" on {X} (valid indices are -3 to 2)'),
        (lambda x: tt.take(x, tt.tensor([[-7]])), tt.TensorIndexError, f'Index -7 is out of range for the flattened tensor of size 6 in "take" on {X} (valid indices are -6 to 5)'),
        (lambda x: tt.take(x, 2, axis=-2), tt.TensorIndexError, f'Index 2 is out of range for axis -2 of size 2 in "take" on {X} (valid indices are -2 to 1)'),
        (lambda x: tt.take(x, tt.tensor([2**64 - 1], dtype=tt.uint64), axis=0), tt.TensorIndexError, f'Index 18446744073709551615 is out of range for axis 0 of size 2 in "take" on {X} (valid indices are -2 to 1)'),
        (lambda x: tt.take(x, tt.tensor([0]), axis=2), tt.AxisError, f'Axis 2 is out of range for "take" on {X} (valid axes are -2 to 1)'),
        (lambda x: tt.take(x, tt.tensor([0.0])), TypeError, '"take": indices must be a tensor of integers, got Tensor[float64, 1]'),
        (lambda x: tt.take(x, tt.tensor([True])), TypeError, '"take": indices must be a tensor of integers, got Tensor[bool_, 1]'),
        (lambda x: tt.take_along_axis(x, tt.tensor([0])), tt.TensorShapeError, f'"take_along_axis" needs indices of the rank of the tensor: {X} has rank 2, Tensor[int64, 1] has rank 1'),
        (lambda x: tt.take_along_axis(x, tt.tensor([[0], [0], [0]])), tt.BroadcastError, f'Cannot broadcast {X} and Tensor[int64, 3, 1] for "take_along_axis": sizes 2 and 3 at axis -2 differ and neither is 1'),
        (lambda x: tt.take_along_axis(x, tt.tensor([[3]]), axis=1), tt.TensorIndexError, f'Index 3 is out of range for axis 1 of size 3 in "take_along_axis" on {X} (valid indices are -3 to 2)'),
        (lambda x: tt.take_along_axis(x, 0), TypeError, '"take_along_axis": indices must be a typedtensor.Tensor of integers, got int'),
    ],
)
def test_errors_name_the_op_and_the_tensor(call: Any, error: type[Exception], message: str) -> None:
    x = tt.zeros((2, 3))
    with pytest.raises(error) as raised:
        call(x)
    assert str(raised.value) == message
    assert raised.value.__context__ is None  # raised before numpy ran, or outside numpy's own error


EMPTY = "Tensor[float32, 0, 2]"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda e: tt.take(e, 2, axis=1), f'Index 2 is out of range for axis 1 of size 2 in "take" on {EMPTY} (valid indices are -2 to 1)'),
        (lambda e: tt.take(e, tt.tensor([0, -3]), axis=1), f'Index -3 is out of range for axis 1 of size 2 in "take" on {EMPTY} (valid indices are -2 to 1)'),
        (lambda e: tt.take(e, 0), f'Index 0 is out of range for the flattened tensor of size 0 in "take" on {EMPTY} (an empty dim has no valid index)'),
        (lambda e: tt.take(e, tt.tensor([0])), f'Index 0 is out of range for the flattened tensor of size 0 in "take" on {EMPTY} (an empty dim has no valid index)'),
        (lambda e: tt.take_along_axis(e, tt.tensor([[5]]), axis=1), f'Index 5 is out of range for axis 1 of size 2 in "take_along_axis" on {EMPTY} (valid indices are -2 to 1)'),
        (lambda e: tt.take(tt.zeros((3,)), 2**70), 'Index 1180591620717411303424 is out of range for the flattened tensor of size 3 in "take" on Tensor[float32, 3] (valid indices are -3 to 2)'),
    ],
)
def test_indices_are_checked_on_an_empty_tensor_and_beyond_int64(call: Any, message: str) -> None:
    """numpy takes nothing from an empty tensor, so it checks no index; the rule checks every one."""
    with pytest.raises(tt.TensorIndexError) as raised:
        call(tt.zeros((0, 2)))
    assert str(raised.value) == message
    assert raised.value.__context__ is None


def test_index_errors_are_index_errors_and_axis_errors_are_both() -> None:
    assert issubclass(tt.TensorIndexError, IndexError) and issubclass(tt.AxisError, (ValueError, IndexError))
