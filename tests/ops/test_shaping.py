"""The shaping ops against numpy: values, dtypes and shapes, and errors raised before numpy runs."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import typedtensor as tt
from tests.support.arrays import DTYPES, Array, strided

pytestmark = pytest.mark.floors

shapes = hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=3)


@st.composite
def arrays(draw: st.DrawFn, shape: tuple[int, ...] | None = None, dtype: np.dtype[Any] | None = None) -> Array:
    """An array of any dtype (or ``dtype``), possibly a strided view."""
    chosen = draw(st.sampled_from(DTYPES)) if dtype is None else dtype
    return strided(draw, draw(hnp.arrays(chosen, draw(shapes) if shape is None else shape)))


def assert_same(got: tt.Tensor[Any, *tuple[Any, ...]], expected: Array) -> None:
    assert type(got.numpy()) is np.ndarray
    assert got.numpy().dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got.numpy(), expected)


@given(arrays(), st.data())
def test_reshape_equals_numpy(array: Array, data: st.DataObject) -> None:
    target = list(data.draw(st.permutations(array.shape)))
    if target and data.draw(st.booleans()):
        index = data.draw(st.integers(0, len(target) - 1))
        if 0 not in target[:index] + target[index + 1 :]:  # else -1 has no solution
            target[index] = -1
    if data.draw(st.booleans()):
        target.append(1)
    expected = np.reshape(array, target)
    assert_same(tt.reshape(tt.Tensor(array), tuple(target)), expected)
    assert_same(tt.Tensor(array).reshape(target), expected)


@given(arrays(), st.data())
def test_transpose_equals_numpy(array: Array, data: st.DataObject) -> None:
    axes = data.draw(st.none() | st.permutations(range(array.ndim)).map(tuple))
    assert_same(tt.transpose(tt.Tensor(array), axes), np.transpose(array, axes))
    assert_same(tt.Tensor(array).T, array.T)


def test_negative_axes_of_a_transpose_count_from_the_end() -> None:
    array = np.arange(24).reshape(2, 3, 4)
    assert_same(tt.transpose(tt.Tensor(array), [-1, 0, -2]), np.transpose(array, (2, 0, 1)))


@given(arrays(), st.data())
def test_expand_dims_equals_numpy(array: Array, data: st.DataObject) -> None:
    axis = data.draw(st.integers(-array.ndim - 1, array.ndim))
    assert_same(tt.expand_dims(tt.Tensor(array), axis), np.expand_dims(array, axis))


@given(st.data())
def test_squeeze_equals_numpy(data: st.DataObject) -> None:
    array = data.draw(arrays(shape=data.draw(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=2))))
    ones = [index for index, size in enumerate(array.shape) if size == 1]
    axis = data.draw(st.none() | st.lists(st.sampled_from(ones), unique=True).map(tuple) if ones else st.none())
    expected = np.squeeze(array, axis=axis)
    assert_same(tt.squeeze(tt.Tensor(array), axis), expected)
    if axis:
        negative = tuple(k - array.ndim for k in axis)
        assert_same(tt.squeeze(tt.Tensor(array), list(negative) + list(axis)), expected)  # a repeat counts once


@st.composite
def joinable(draw: st.DrawFn, *, same_shape: bool) -> tuple[list[Array], int]:
    shape = draw(hnp.array_shapes(min_dims=0 if same_shape else 1, max_dims=3, min_side=0, max_side=3))
    rank = len(shape)
    axis = draw(st.integers(-rank - 1, rank) if same_shape else st.integers(-rank, rank - 1))
    tensors = []
    for _ in range(draw(st.integers(1, 3))):
        own = list(shape)
        if not same_shape:
            own[axis] = draw(st.integers(0, 3))
        tensors.append(draw(arrays(shape=tuple(own))))
    return tensors, axis


@given(joinable(same_shape=False), st.booleans())
def test_concat_equals_numpy(case: tuple[list[Array], int], as_list: bool) -> None:
    joined, axis = case
    tensors = [tt.Tensor(array) for array in joined]
    assert_same(tt.concat(tensors if as_list else tuple(tensors), axis=axis), np.concat(joined, axis=axis))


@given(joinable(same_shape=True), st.booleans())
def test_stack_equals_numpy(case: tuple[list[Array], int], as_list: bool) -> None:
    joined, axis = case
    tensors = [tt.Tensor(array) for array in joined]
    assert_same(tt.stack(tensors if as_list else tuple(tensors), axis=axis), np.stack(joined, axis=axis))


@given(arrays(), st.lists(st.integers(0, 3), max_size=4))
def test_tile_equals_numpy(array: Array, repetitions: list[int]) -> None:
    assert_same(tt.tile(tt.Tensor(array), tuple(repetitions)), np.tile(array, tuple(repetitions)))


@given(arrays(), st.data())
def test_broadcast_to_equals_numpy(array: Array, data: st.DataObject) -> None:
    lead = data.draw(st.lists(st.integers(0, 3), max_size=2))
    target = (*lead, *(data.draw(st.integers(0, 3)) if size == 1 else size for size in array.shape))
    assert_same(tt.broadcast_to(tt.Tensor(array), target), np.broadcast_to(array, target))


def test_an_int_is_a_shape_of_one_dim() -> None:
    x = tt.ones((2, 3))
    assert tt.reshape(x, 6).shape == (6,)
    assert tt.tile(x, 2).shape == (2, 6)
    assert x.reshape(np.int64(-1)).shape == (6,)


ERRORS: list[tuple[Callable[[], object], type[Exception], str]] = [
    (lambda: tt.ones((6, 4)).reshape((5, 5)), tt.ReshapeError,
     'Cannot reshape Tensor[float32, 6, 4] to (5, 5) for "reshape": it has 24 elements, the shape holds 25'),
    (lambda: tt.reshape(tt.ones((6, 4)), (-1, 5)), tt.ReshapeError,
     'Cannot reshape Tensor[float32, 6, 4] to (-1, 5) for "reshape": its 24 elements are not a multiple of 5, the product of the other sizes'),
    (lambda: tt.reshape(tt.ones((6, 4)), [-1, -1]), tt.ReshapeError,
     'Cannot reshape Tensor[float32, 6, 4] to (-1, -1) for "reshape": only one size may be -1, not 2'),
    (lambda: tt.reshape(tt.ones((6,)), (-2, 3)), tt.ReshapeError,
     'Cannot reshape Tensor[float32, 6] to (-2, 3) for "reshape": size -2 is negative (only one -1, solved from the element count, may be)'),
    (lambda: tt.reshape(tt.ones((0, 4)), (0, -1)), tt.ReshapeError,
     'Cannot reshape Tensor[float32, 0, 4] to (0, -1) for "reshape": -1 cannot be solved when another size is 0'),
    (lambda: tt.transpose(tt.ones((2, 3)), (0, 2)), tt.AxisError,
     'Axis 2 is out of range for "transpose" on Tensor[float32, 2, 3] (valid axes are -2 to 1)'),
    (lambda: tt.transpose(tt.ones((2, 3)), (1, -1)), tt.AxisError,
     'Axes (1, -1) for "transpose" on Tensor[float32, 2, 3] are not a permutation of its 2 axes (each axis exactly once)'),
    (lambda: tt.transpose(tt.ones((2, 3)), (0,)), tt.AxisError,
     'Axes (0,) for "transpose" on Tensor[float32, 2, 3] are not a permutation of its 2 axes (each axis exactly once)'),
    (lambda: tt.expand_dims(tt.ones((2, 3)), -4), tt.AxisError,
     'Axis -4 is out of range for "expand_dims" on Tensor[float32, 2, 3] (valid axes are -3 to 2)'),
    (lambda: tt.squeeze(tt.ones((1, 2, 3)), (0, 2)), tt.TensorShapeError,
     'Cannot squeeze Tensor[float32, 1, 2, 3] for "squeeze": axis 2 has size 3, not 1'),
    (lambda: tt.squeeze(tt.ones((1, 2, 3)), "v^^"), tt.TensorShapeError,
     'Cannot squeeze Tensor[float32, 1, 2, 3] for "squeeze": axes 1, 2 have sizes 2, 3, not 1'),
    (lambda: tt.squeeze(tt.ones((1,)), 1), tt.AxisError,
     'Axis 1 is out of range for "squeeze" on Tensor[float32, 1] (valid axes are -1 to 0)'),
    (lambda: tt.concat((tt.ones((2, 3)), tt.ones((2, 4), tt.int8)), axis=0), tt.TensorShapeError,
     'Cannot join Tensor[float32, 2, 3] and Tensor[int8, 2, 4] for "concat": sizes 3 and 4 at axis 1 differ'),
    (lambda: tt.concat([tt.ones((2, 3)), tt.ones((3,))]), tt.TensorShapeError,
     'Cannot join Tensor[float32, 2, 3] and Tensor[float32, 3] for "concat": ranks 2 and 1 differ'),
    (lambda: tt.concat([tt.ones(())]), tt.AxisError,
     'Axis 0 is out of range for "concat" on Tensor[float32] (a rank-0 tensor has no axes)'),
    (lambda: tt.stack([tt.ones((2, 3)), tt.ones((3, 2)), tt.ones((2, 3))], axis=1), tt.TensorShapeError,
     'Cannot join Tensor[float32, 2, 3], Tensor[float32, 3, 2] and Tensor[float32, 2, 3] for "stack": sizes 2 and 3 at axis 0 differ'),
    (lambda: tt.stack([]), tt.TensorShapeError, 'Cannot join no tensors for "stack": it needs at least one'),
    (lambda: tt.stack([tt.ones((2,))], axis=2), tt.AxisError,
     'Axis 2 is out of range for "stack" on Tensor[float32, 2] (valid axes are -2 to 1)'),
    (lambda: tt.tile(tt.ones((2, 3)), (2, -1)), tt.TensorShapeError,
     'Cannot tile Tensor[float32, 2, 3] by (2, -1) for "tile": repetition -1 is negative'),
    (lambda: tt.broadcast_to(tt.ones((2, 3)), (4, 3)), tt.BroadcastError,
     'Cannot broadcast Tensor[float32, 2, 3] to (4, 3) for "broadcast_to": size 2 at axis -2 is neither 1 nor 4'),
    (lambda: tt.broadcast_to(tt.ones((3,)), (1,)), tt.BroadcastError,
     'Cannot broadcast Tensor[float32, 3] to (1,) for "broadcast_to": size 3 at axis -1 is not 1'),
    (lambda: tt.broadcast_to(tt.ones((2, 3)), (3,)), tt.BroadcastError,
     'Cannot broadcast Tensor[float32, 2, 3] to (3,) for "broadcast_to": it has 2 dims, the shape 1'),
    (lambda: tt.broadcast_to(tt.ones((3,)), (-1, 3)), tt.BroadcastError,
     'Cannot broadcast Tensor[float32, 3] to (-1, 3) for "broadcast_to": size -1 is negative'),
]


@pytest.mark.parametrize(("call", "error", "message"), ERRORS, ids=[message.split('"')[1] + f"-{index}" for index, (_, _, message) in enumerate(ERRORS)])
def test_errors_name_the_op_and_every_operand_before_numpy_runs(call: Callable[[], object], error: type[Exception], message: str) -> None:
    with pytest.raises(error) as raised:
        call()
    assert str(raised.value) == message
    assert isinstance(raised.value, (ValueError, IndexError)) and raised.value.__context__ is None


BAD_ARGUMENTS: list[tuple[Callable[[], object], str]] = [
    (lambda: tt.reshape(tt.ones((2,)), (2.0,)), '"reshape": shape must be an int or a tuple or list of ints, got tuple (2.0,)'),
    (lambda: tt.reshape(tt.ones((2,)), (True, 2)), '"reshape": shape must be an int or a tuple or list of ints, got tuple (True, 2)'),
    (lambda: tt.reshape(np.ones(2), (2,)), '"reshape": x must be a typedtensor.Tensor, got ndarray; wrap it with typedtensor.Tensor(array)'),
    (lambda: tt.transpose(tt.ones((2,)), "0"), '"transpose": perm must be an int or a tuple or list of ints, got str \'0\''),
    (lambda: tt.expand_dims(tt.ones((2,)), (0,)), '"expand_dims": axis must be an int, got tuple (0,)'),
    (lambda: tt.squeeze(tt.ones((1,)), 0.0), '"squeeze": axis must be None, an int, a tuple or list of ints, or a Selection string such as "^v^"; got float 0.0'),
    (lambda: tt.concat(tt.ones((2,))), '"concat": tensors must be a tuple or list of typedtensor.Tensor, got Tensor'),
    (lambda: tt.stack([tt.ones((2,)), np.ones(2)]), '"stack": tensors[1] must be a typedtensor.Tensor, got ndarray; wrap it with typedtensor.Tensor(array)'),
    (lambda: tt.concat([tt.ones((2,))], axis=None), '"concat": axis must be an int, got NoneType None'),
    (lambda: tt.broadcast_to(tt.ones((2,)), "2"), '"broadcast_to": shape must be an int or a tuple or list of ints, got str \'2\''),
]


@pytest.mark.parametrize(("call", "message"), BAD_ARGUMENTS, ids=[message.split('"')[1] + f"-{index}" for index, (_, message) in enumerate(BAD_ARGUMENTS)])
def test_arguments_of_the_wrong_kind_are_refused_clearly(call: Callable[[], object], message: str) -> None:
    with pytest.raises(TypeError) as raised:
        call()
    assert str(raised.value) == message


RANK_64 = f"Tensor[float32, {', '.join(['1'] * 64)}]"
TOO_BIG = "would take more than numpy's limit of 9223372036854775807 bytes"
BEYOND_NUMPY: list[tuple[Callable[[], object], str]] = [
    (lambda: tt.expand_dims(tt.zeros((1,) * 64), 0), f"\"expand_dims\" on {RANK_64}: the result would have 65 dims, more than numpy's limit of 64"),
    (lambda: tt.zeros((1,) * 64).reshape((1,) * 65), f"\"reshape\" on {RANK_64}: the result would have 65 dims, more than numpy's limit of 64"),
    (lambda: tt.tile(tt.zeros((1,) * 64), (1,) * 65), f"\"tile\" on {RANK_64}: the result would have 65 dims, more than numpy's limit of 64"),
    (lambda: tt.broadcast_to(tt.zeros((1,) * 64), (1,) * 65), f"\"broadcast_to\" on {RANK_64}: the result would have 65 dims, more than numpy's limit of 64"),
    (lambda: tt.stack([tt.zeros((1,) * 64)] * 2), f"\"stack\" on {RANK_64} and {RANK_64}: the result would have 65 dims, more than numpy's limit of 64"),
    (lambda: tt.zeros((1,) * 65), "\"zeros\": the result would have 65 dims, more than numpy's limit of 64"),
    (lambda: tt.random.normal((1,) * 65), "\"normal\": the result would have 65 dims, more than numpy's limit of 64"),
    (lambda: tt.tile(tt.zeros((2,), tt.int8), 2**70), f'"tile" on Tensor[int8, 2]: the result of shape ({2**71},) {TOO_BIG}'),
    (lambda: tt.tile(tt.zeros((2,), tt.int8), (1, 2**62)), f'"tile" on Tensor[int8, 2]: the result of shape (1, {2**63}) {TOO_BIG}'),
    (lambda: tt.broadcast_to(tt.zeros((2,), tt.int8), (2**70, 2)), f'"broadcast_to" on Tensor[int8, 2]: the result of shape ({2**70}, 2) {TOO_BIG}'),
    (lambda: tt.eye(2**70), f'"eye": the result of shape ({2**70}, {2**70}) {TOO_BIG}'),
    (lambda: tt.ones((2**40, 2**40)), f'"ones": the result of shape ({2**40}, {2**40}) {TOO_BIG}'),
]


@pytest.mark.parametrize(("call", "message"), BEYOND_NUMPY, ids=[message.split('"')[1] + f"-{index}" for index, (_, message) in enumerate(BEYOND_NUMPY)])
def test_results_beyond_numpys_limits_name_the_op_and_the_limit(call: Callable[[], object], message: str) -> None:
    with pytest.raises(ValueError) as raised:
        call()
    assert str(raised.value) == message
    assert raised.value.__context__ is None
