"""Indexing against numpy: values and shapes, the shared rule's shape (what the plugin says) equal to
numpy's, and every refusal a clear error naming the tensor."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import typedtensor as tt
from typedtensor._dtypes import type_text
from typedtensor._shape_rules import INT_DIMS, ArrayIndex, Problem, Shape, index_shape

Array = np.ndarray[Any, Any]

pytestmark = pytest.mark.floors


@st.composite
def keys(draw: st.DrawFn, shape: tuple[int, ...], arrays: bool) -> list[Any]:
    """Index items for ``shape``: mostly in range (negative ones too), sometimes not; slices with
    any bounds and steps; None; an ellipsis (rarely two); index arrays if ``arrays``."""
    items: list[Any] = []
    for _ in range(draw(st.integers(0, len(shape) + 2))):
        size = 4  # a guess at the dim: in range for most, out of range for some
        kind = draw(st.sampled_from(["int", "slice", "slice", "none", "ellipsis"] + (["ints", "mask"] if arrays else [])))
        if kind == "int":
            items.append(draw(st.integers(-size - 1, size)))
        elif kind == "slice":
            bound = st.one_of(st.none(), st.integers(-6, 6))
            items.append(slice(draw(bound), draw(bound), draw(st.one_of(st.none(), st.integers(-3, 3).filter(bool)))))
        elif kind == "none":
            items.append(None)
        elif kind == "ellipsis":
            items.append(Ellipsis)
        elif kind == "ints":
            index_shape_ = draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=3))
            items.append(draw(hnp.arrays(draw(st.sampled_from([np.int64, np.int8, np.uint16])), index_shape_, elements=st.integers(0, 2))))
        else:
            items.append(draw(hnp.arrays(np.bool_, draw(hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=4)))))
    return items


def as_tensor_item(item: Any) -> Any:
    return tt.Tensor(item) if isinstance(item, np.ndarray) else item


def rule_item(item: Any) -> Any:
    return ArrayIndex(Shape(item.shape), item.dtype == np.bool_) if isinstance(item, np.ndarray) else item


def strided(draw: st.DrawFn, array: Array) -> Array:
    if array.ndim >= 2 and draw(st.booleans()):
        array = np.ascontiguousarray(array.swapaxes(0, -1)).swapaxes(0, -1)
    return array[::-1] if array.ndim >= 1 and draw(st.booleans()) else array


@given(st.data())
def test_basic_indexing_equals_numpy_and_the_rule(data: st.DataObject) -> None:
    """Ints, slices, None and ``...``: the rule's shape is numpy's, and it refuses what numpy refuses."""
    shape = data.draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=4))
    array = strided(data.draw, data.draw(hnp.arrays(data.draw(st.sampled_from([np.float32, np.int8, np.bool_, np.complex128])), shape)))
    items = data.draw(keys(shape, arrays=False))
    rule = index_shape(Shape[int, None](shape), items, INT_DIMS)
    try:
        expected = array[tuple(items)]
    except IndexError:
        assert isinstance(rule, Problem)  # every refusal of literal indices is a static error too
        with pytest.raises(tt.TensorIndexError) as raised:
            tt.Tensor(array)[tuple(items)]
        assert str(raised.value) == rule.message("index", [type_text(array)])  # the plugin's words
        return
    assert rule == Shape(np.shape(expected))  # what the plugin says of literal dims is numpy's shape
    got = tt.Tensor(array)[tuple(items)] if len(items) != 1 or data.draw(st.booleans()) else tt.Tensor(array)[items[0]]
    assert got.numpy().dtype == array.dtype and got.shape == np.shape(expected)
    np.testing.assert_array_equal(got.numpy(), expected)


@given(st.data())
def test_index_tensors_equal_numpy(data: st.DataObject) -> None:
    """Integer and boolean index tensors: numpy's values; where one is alone, the rule's shape too."""
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=4))
    array = strided(data.draw, data.draw(hnp.arrays(np.float64, shape)))
    items = data.draw(keys(shape, arrays=True))
    rule = index_shape(Shape[int, None](shape), [rule_item(item) for item in items], INT_DIMS)
    tensor_items = tuple(as_tensor_item(item) for item in items)
    try:
        expected = array[tuple(items)]
    except IndexError as error:
        with pytest.raises(tt.TensorIndexError) as raised:
            tt.Tensor(array)[tensor_items]
        assert str(raised.value).startswith(("Index", "Too many", "An index", "Boolean", f'"index" on Tensor[float64, {", ".join(map(str, shape))}]: {error}'))
        return
    assert not isinstance(rule, Problem)  # no static error on an index that runs
    if rule.variadic is None:
        assert len(rule.prefix) == expected.ndim
        assert all(dim == size for dim, size in zip(rule.prefix, expected.shape) if isinstance(dim, int))
    got = tt.Tensor(array)[tensor_items]
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got.numpy(), expected)


X = "Tensor[float32, 3, 4]"


@pytest.mark.parametrize(
    ("key", "error", "message"),
    [
        (3, tt.TensorIndexError, f'Index 3 is out of range for axis 0 of size 3 in "index" on {X} (valid indices are -3 to 2)'),
        ((slice(None), -5), tt.TensorIndexError, f'Index -5 is out of range for axis 1 of size 4 in "index" on {X} (valid indices are -4 to 3)'),
        ((0, 0, 0), tt.TensorIndexError, f'Too many indices for "index" on {X}: 3 indices for 2 dims'),
        ((..., 0, ...), tt.TensorIndexError, f'An index may hold one ellipsis ("..."), got 2 in "index" on {X}'),
        (tt.tensor([True, False]), tt.TensorIndexError, f'Boolean index of size 2 does not match axis 0 of size 3 in "index" on {X}'),
        ((None, slice(None), tt.tensor([[4]])), tt.TensorIndexError, f'Index 4 is out of range for axis 1 of size 4 in "index" on {X} (valid indices are -4 to 3)'),
        (tt.tensor([2**64 - 1], dtype=tt.uint64), tt.TensorIndexError, f'Index 18446744073709551615 is out of range for axis 0 of size 3 in "index" on {X} (valid indices are -3 to 2)'),
        ((tt.tensor([0, 1]), tt.tensor([0, 1, 2])), tt.TensorIndexError, f'"index" on {X}: shape mismatch: indexing arrays could not be broadcast together with shapes (2,) (3,) '),
        (slice(None, None, 0), ValueError, f'"index" on {X}: slice step cannot be zero'),
        (slice(0.5, None), TypeError, f'"index" on {X}: slice indices must be integers or None or have an __index__ method'),
        (True, TypeError, '"index": a bool is not an index (numpy would read it as a mask); add a dim of 1 with None'),
        (1.0, TypeError, '"index": float is not an index; index with ints, slices, None, ... or a typedtensor.Tensor of integers or booleans'),
        ([0, 1], TypeError, '"index": list is not an index; index with ints, slices, None, ... or a typedtensor.Tensor of integers or booleans'),
        (np.array([0]), TypeError, '"index": ndarray is not an index; index with ints, slices, None, ... or a typedtensor.Tensor of integers or booleans'),
        (tt.tensor([0.0]), TypeError, '"index": an index tensor holds integers or booleans, got Tensor[float64, 1]'),
    ],
)
def test_refusals_name_the_tensor(key: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as raised:
        tt.zeros((3, 4))[key]
    assert str(raised.value) == message
    assert raised.value.__context__ is None  # not numpy's traceback


@pytest.mark.parametrize(
    ("shape", "key", "message"),
    [
        ((0, 0), [0], 'Index 0 is out of range for axis 0 of size 0 in "index" on Tensor[float32, 0, 0] (an empty dim has no valid index)'),
        ((3, 0), [5], 'Index 5 is out of range for axis 0 of size 3 in "index" on Tensor[float32, 3, 0] (valid indices are -3 to 2)'),
    ],
)
def test_an_index_tensor_out_of_range_is_refused_where_the_result_is_empty(shape: tuple[int, ...], key: list[int], message: str) -> None:
    """numpy before 2.3 only warned here (an empty result holds no element from beyond the dim)."""
    with pytest.raises(tt.TensorIndexError) as raised:
        tt.zeros(shape)[tt.tensor(key)]
    assert str(raised.value) == message


def test_numpy_integers_and_zero_dim_index_tensors_are_ints() -> None:
    x = tt.tensor(np.arange(12).reshape(3, 4))
    np.testing.assert_array_equal(x[np.int64(1), np.uint8(2)].numpy(), 6)
    assert x[tt.tensor(2)].shape == (4,) and x[tt.tensor(True)].shape == (1, 3, 4)


def test_a_view_shares_memory_and_a_tensor_iterates_over_its_first_dim() -> None:
    x = tt.tensor(np.arange(6.0).reshape(2, 3))
    assert np.shares_memory(x[0].numpy(), x.numpy())
    assert [row.shape for row in x] == [(3,), (3,)]  # iteration stops at the first TensorIndexError
