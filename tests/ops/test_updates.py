"""Reading one element (``x.item()``, ``float(x)``, ``int(x)``, ``bool(x)``) and the updates
``x.at[index].set(value)`` / ``.add(value)`` against numpy, and their errors."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import typedtensor as tt
from tests.support.arrays import DTYPES, strided

pytestmark = pytest.mark.floors

Array = np.ndarray[Any, Any]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(DTYPES), st.integers(0, 3), st.data())
def test_a_one_element_tensor_reads_as_numpy_reads_it(dtype: np.dtype[Any], rank: int, data: st.DataObject) -> None:
    array = data.draw(hnp.arrays(dtype, (1,) * rank, elements=hnp.from_dtype(dtype, allow_nan=False, allow_infinity=False)))
    x = tt.Tensor(array)
    assert type(x.item()) is type(array.item()) and x.item() == array.item()
    assert bool(x) == bool(array)
    if dtype.kind != "c":  # numpy refuses float() of a complex too
        assert float(x) == float(array.item())
        assert int(x) == int(array.item())


@pytest.mark.parametrize("shape", [(2,), (1, 3), (0,), (1, 0, 1)])
@pytest.mark.parametrize("read", ["item", "float", "int", "bool"])
def test_other_element_counts_are_a_shape_error_naming_the_shape(shape: tuple[int, ...], read: str) -> None:
    x = tt.zeros(shape)
    size = next(n for n in shape if n != 1)
    text = re.escape(f"Tensor[float32, {', '.join(map(str, shape))}]")
    message = rf'^"{read}" reads the element of a one-element tensor; {text} has a dim of {size}, so not one element \(index it first, or reduce it\)$'
    with pytest.raises(tt.TensorShapeError, match=message):
        x.item() if read == "item" else {"float": float, "int": int, "bool": bool}[read](x)
    assert issubclass(tt.TensorShapeError, ValueError)  # numpy's bool() of several elements is a ValueError


@st.composite
def updates(draw: st.DrawFn) -> tuple[Array, Any, Array | float]:
    """A strided array of a float or int dtype, a basic index into it, and a value that broadcasts to the region."""
    dtype = draw(st.sampled_from([np.dtype(name) for name in ("int32", "int64", "float32", "float64")]))
    array = strided(draw, draw(hnp.arrays(dtype, hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=4))))
    items = [draw(st.one_of(st.integers(0, size - 1), st.just(slice(None)), st.just(slice(1, None, 2)))) if size else slice(None) for size in array.shape]
    key = tuple(items[: draw(st.integers(1, array.ndim))])
    region = array[key].shape
    if draw(st.booleans()):
        return array, key, float(draw(st.integers(-5, 5)))
    value_shape = tuple(draw(st.sampled_from([1, size])) for size in region[draw(st.integers(0, len(region))) :])
    return array, key, draw(hnp.arrays(dtype, value_shape, elements=st.integers(-5, 5)))


@settings(max_examples=100, deadline=None)
@given(updates(), st.sampled_from(["set", "add"]))
@example((np.array([2**31 - 1], np.int32), (0,), 1.0), "add")  # wraps, as numpy's does (the floor pass drew it)
def test_updates_equal_numpy_and_leave_the_tensor_as_it_was(case: tuple[Array, Any, Array | float], op: str) -> None:
    array, key, value = case
    if array.dtype.kind == "i" and isinstance(value, float):
        value = int(value)
    before = array.copy()
    expected = array.copy()
    if op == "set":
        expected[key] = value
    else:
        with np.errstate(over="ignore"):  # integers wrap; numpy warns only where a scalar does
            expected[key] += value
    x = tt.Tensor(array)
    result = getattr(x.at[key], op)(tt.Tensor(value) if isinstance(value, np.ndarray) else value).numpy()
    assert result.dtype == array.dtype
    np.testing.assert_array_equal(result, expected)
    np.testing.assert_array_equal(array, before)
    assert not np.shares_memory(result, array)


def test_add_adds_once_per_occurrence_of_a_repeated_index() -> None:
    x = tt.zeros((3,), tt.int64)
    indices = tt.tensor([0, 2, 0, 0])
    np.testing.assert_array_equal(x.at[indices].add(1).numpy(), [3, 0, 1])
    np.testing.assert_array_equal(x.at[indices].set(1).numpy(), [1, 0, 1])


def test_a_mask_selects_the_region() -> None:
    x = tt.tensor([1.0, -2.0, 3.0])
    np.testing.assert_array_equal(x.at[x < 0].set(0.0).numpy(), [1.0, 0.0, 3.0])


def test_a_value_that_does_not_broadcast_to_the_region() -> None:
    message = r'^"at\[...\].set": the value Tensor\[float32, 2\] does not broadcast to the region \(3,\) the index selects in Tensor\[float32, 2, 3\]$'
    with pytest.raises(tt.BroadcastError, match=message):
        tt.zeros((2, 3)).at[0].set(tt.ones((2,)))
    with pytest.raises(tt.BroadcastError, match=r"region \(2, 3\)"):
        tt.zeros((2, 3)).at[...].add(tt.ones((1, 2, 3)))  # the region cannot grow


def test_a_value_that_does_not_fit_the_dtype() -> None:
    message = r'^"at\[...\].add": the value float does not fit Tensor\[int32, 3\] \(together they promote to float64, and the result keeps int32\); cast the value first$'
    with pytest.raises(tt.TensorDTypeError, match=message):
        tt.zeros((3,), tt.int32).at[0].add(1.5)
    with pytest.raises(tt.TensorDTypeError, match=r"the value Tensor\[float64\] does not fit Tensor\[float32, 3\]"):
        tt.zeros((3,)).at[0].set(tt.tensor(1.0))


def test_an_index_out_of_range_is_worded_as_indexing() -> None:
    with pytest.raises(tt.TensorIndexError, match=r"^Index 3 is out of range for axis 0 of size 3"):
        tt.zeros((3,)).at[3].set(1.0)


def test_a_value_of_no_operand_kind() -> None:
    with pytest.raises(TypeError, match=r'"at\[...\].set"'):
        tt.zeros((3,)).at[0].set("1")  # type: ignore[arg-type]


@pytest.mark.parametrize("op", ["set", "add"])
def test_a_scalar_update_gathers_no_region(op: str) -> None:
    """``x.at[rows].add(1.0)`` copied ``x[rows]`` only to learn its shape, which a scalar fits
    whatever it is: rows repeated 64 times over an [8, 100000] table gathered 51 MB beside the
    6.4 MB result (and a mask's region doubled the time). numpy's allocations are traced."""
    import tracemalloc

    table = tt.zeros((8, 100_000), tt.float64)
    rows = tt.tensor(np.zeros(64, np.int64))
    tracemalloc.start()
    try:
        updated = getattr(table.at[rows], op)(1.0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2 * table.numpy().nbytes
    assert updated.numpy()[0, 0] == (64.0 if op == "add" else 1.0) and updated.numpy()[1, 0] == 0.0


def test_a_scalar_update_out_of_range_is_worded_as_indexing() -> None:
    with pytest.raises(tt.TensorIndexError, match=r'^"index" on Tensor\[float32, 3\]: index 5 is out of range|Index 5 is out of range'):
        tt.zeros((3,)).at[tt.tensor([0, 5])].add(1.0)
    with pytest.raises(tt.TensorIndexError, match=r"Index -4 is out of range for axis 0 of size 3"):
        tt.zeros((3,)).at[-4].set(1.0)
    with pytest.raises(IndexError):
        tt.zeros((3,)).at[tt.tensor([True, False])].set(1.0)  # a mask of another length
