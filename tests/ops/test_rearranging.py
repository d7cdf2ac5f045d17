"""swapaxes, moveaxis, flatten, split, pad, tril/triu, one_hot and the new creation functions
against numpy: values, dtypes and shapes (with 0s and 1s, every dtype, strided views), and
errors raised before numpy runs."""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import typedtensor as tt
from tests.support.arrays import DTYPES, Array, strided

pytestmark = pytest.mark.floors

shapes = hnp.array_shapes(min_dims=1, max_dims=4, min_side=0, max_side=3)


@st.composite
def arrays(draw: st.DrawFn, min_dims: int = 1) -> Array:
    """An array of any dtype, possibly a strided view."""
    shape = draw(hnp.array_shapes(min_dims=min_dims, max_dims=4, min_side=0, max_side=3))
    return strided(draw, draw(hnp.arrays(draw(st.sampled_from(DTYPES)), shape)))


def assert_same(got: tt.Tensor[Any, *tuple[Any, ...]], expected: Array) -> None:
    assert type(got.numpy()) is np.ndarray
    assert got.numpy().dtype == expected.dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got.numpy(), expected)


def axes(array: Array) -> st.SearchStrategy[int]:
    return st.integers(-array.ndim, array.ndim - 1)


@settings(max_examples=40, deadline=None)
@given(arrays(), st.data())
def test_swapaxes_and_moveaxis_equal_numpy(array: Array, data: st.DataObject) -> None:
    first, second = data.draw(axes(array)), data.draw(axes(array))
    assert_same(tt.swapaxes(tt.Tensor(array), first, second), np.swapaxes(array, first, second))
    count = data.draw(st.integers(0, array.ndim))
    source = data.draw(st.permutations(range(array.ndim)))[:count]
    destination = data.draw(st.permutations(range(-array.ndim, 0)))[:count]
    assert_same(tt.moveaxis(tt.Tensor(array), source, destination), np.moveaxis(array, source, destination))


@settings(max_examples=40, deadline=None)
@given(arrays(min_dims=0), st.data())
def test_flatten_equals_a_numpy_reshape(array: Array, data: st.DataObject) -> None:
    if array.ndim == 0:
        assert_same(tt.flatten(tt.Tensor(array)), array.reshape(1))
        return
    start = data.draw(axes(array))
    end = data.draw(st.integers(start % array.ndim, array.ndim - 1))
    merged = int(np.prod(array.shape[start % array.ndim : end + 1]))
    expected = array.reshape(array.shape[: start % array.ndim] + (merged,) + array.shape[end + 1 :])
    assert_same(tt.flatten(tt.Tensor(array), start, end), expected)


@settings(max_examples=40, deadline=None)
@given(arrays(), st.data())
def test_split_equals_numpy(array: Array, data: st.DataObject) -> None:
    axis = data.draw(axes(array))
    size = array.shape[axis]
    count = data.draw(st.sampled_from([n for n in range(1, 5) if size % n == 0]))
    for got, expected in itertools.zip_longest(tt.split(tt.Tensor(array), count, axis), np.split(array, count, axis=axis)):
        assert_same(got, expected)
    cuts = sorted(data.draw(st.lists(st.integers(0, size), max_size=3)))
    sizes = [stop - start for start, stop in itertools.pairwise([0, *cuts, size])]
    for got, expected in itertools.zip_longest(tt.split(tt.Tensor(array), sizes, axis), np.split(array, cuts, axis=axis)):
        assert_same(got, expected)


@settings(max_examples=40, deadline=None)
@given(arrays(), st.data())
def test_pad_equals_numpy(array: Array, data: st.DataObject) -> None:
    width = st.integers(0, 2)
    form = data.draw(st.sampled_from(["int", "pair", "each"]))
    widths: Any = {
        "int": data.draw(width),
        "pair": (data.draw(width), data.draw(width)),
        "each": [(data.draw(width), data.draw(width)) for _ in range(array.ndim)],
    }[form]
    value = data.draw(st.sampled_from([0, 1, True]))
    assert_same(tt.pad(tt.Tensor(array), widths, value), np.pad(array, widths, constant_values=value))


@settings(max_examples=40, deadline=None)
@given(arrays(min_dims=2), st.integers(-3, 3))
def test_tril_and_triu_equal_numpy(array: Array, k: int) -> None:
    assert_same(tt.tril(tt.Tensor(array), k), np.tril(array, k))
    assert_same(tt.triu(tt.Tensor(array), k), np.triu(array, k))


@settings(max_examples=40, deadline=None)
@given(st.data(), st.sampled_from(["int8", "uint8", "int32", "int64", "uint64"]), st.sampled_from([tt.float32, tt.int64, tt.bool_]))
def test_one_hot_equals_an_identity_rows_lookup(data: st.DataObject, index_dtype: str, dtype: type[tt.generic]) -> None:
    n = data.draw(st.integers(1, 5))
    indices = strided(data.draw, data.draw(hnp.arrays(np.dtype(index_dtype), data.draw(shapes), elements=st.integers(0, n - 1))))
    expected = np.eye(n, dtype=tt.zeros((), dtype).numpy().dtype)[indices.astype(np.int64)]
    assert_same(tt.one_hot(tt.Tensor(indices), n, dtype), expected)


def test_one_hot_names_an_index_out_of_range_and_refuses_floats() -> None:
    with pytest.raises(tt.TensorIndexError, match=r'^"one_hot" on Tensor\[int64, 3\]: index 3 is out of range for n=3 \(0 <= index < 3\)$'):
        tt.one_hot(tt.tensor([0, 3, 1]), 3)
    with pytest.raises(tt.TensorIndexError, match="index -1 is out of range"):
        tt.one_hot(tt.tensor([[2, -1]]), 3)
    with pytest.raises(tt.TensorDTypeError, match=r'^Cannot apply "one_hot" to Tensor\[float64, 1\]: the indices must be of an integer dtype, not float64$'):
        tt.one_hot(tt.tensor([1.0]), 3)
    assert tt.one_hot(tt.zeros((0, 2), tt.int64), 0).shape == (0, 2, 0)


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda x: tt.split(x, 4), tt.TensorShapeError, 'Cannot split Tensor[float32, 6, 4] into 4 equal parts for "split": size 6 at axis 0 is not a multiple of 4'),
        (lambda x: tt.split(x, (2, 3)), tt.TensorShapeError, 'Cannot split Tensor[float32, 6, 4] into (2, 3) for "split": the sizes sum to 5, not to size 6 at axis 0'),
        (lambda x: tt.split(x, 0), tt.TensorShapeError, 'Cannot split Tensor[float32, 6, 4] into 0 equal parts for "split": the number of parts must be at least 1, not 0'),
        (lambda x: tt.flatten(x, 1, 0), tt.AxisError, 'Cannot flatten Tensor[float32, 6, 4] from axis 1 to axis 0 for "flatten": the start comes after the end'),
        (lambda x: tt.swapaxes(x, 0, 2), tt.AxisError, 'Axis 2 is out of range for "swapaxes" on Tensor[float32, 6, 4] (valid axes are -2 to 1)'),
        (lambda x: tt.moveaxis(x, (0, 1), 0), tt.AxisError, 'Cannot move axes (0, 1) to (0,) for "moveaxis" on Tensor[float32, 6, 4]: 2 sources and 1 destinations'),
        (lambda x: tt.pad(x, ((1, 1),) * 3), tt.TensorShapeError, 'Cannot pad Tensor[float32, 6, 4] for "pad": 3 pairs of widths for its 2 dims'),
        (lambda x: tt.pad(x, -1), tt.TensorShapeError, 'Cannot pad Tensor[float32, 6, 4] for "pad": width -1 is negative'),
        (lambda x: tt.tril(x[0]), tt.TensorShapeError, '"tril" needs at least 2 dims, Tensor[float32, 4] has 1'),
    ],
)
def test_errors_name_the_op_and_the_tensor(call: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as raised:
        call(tt.zeros((6, 4)))
    assert str(raised.value) == message


@settings(max_examples=30, deadline=None)
@given(arrays(min_dims=0), st.sampled_from([None, tt.float32, tt.int8]))
def test_the_like_functions_keep_the_shape_and_dtype(array: Array, dtype: type[tt.generic] | None) -> None:
    x = tt.Tensor(array)
    numpy_dtype = array.dtype if dtype is None else tt.zeros((), dtype).numpy().dtype
    made = [tt.zeros_like(x), tt.ones_like(x), tt.full_like(x, 1)] if dtype is None else [tt.zeros_like(x, dtype), tt.ones_like(x, dtype), tt.full_like(x, 1, dtype)]
    for tensor, expected in zip(made, [np.zeros_like(array, numpy_dtype), np.ones_like(array, numpy_dtype), np.full_like(array, 1, numpy_dtype)]):
        assert_same(tensor, expected)


def test_full_like_refuses_a_value_beyond_the_dtype() -> None:
    with pytest.raises(ValueError, match='"full_like": value 300 is out of range for int8'):
        tt.full_like(tt.zeros((2,), tt.int8), 300)


@given(st.floats(-10, 10), st.floats(-10, 10), st.integers(0, 6), st.booleans())
def test_linspace_equals_numpy(start: float, stop: float, num: int, endpoint: bool) -> None:
    assert_same(tt.linspace(start, stop, num, endpoint=endpoint), np.linspace(start, stop, num, endpoint=endpoint))
    with pytest.raises(tt.TensorShapeError, match='^"linspace": num must not be negative, got -1$'):
        tt.linspace(start, stop, -1)


@given(st.integers(0, 6), st.integers(0, 2**16), st.integers(-5, 5), st.integers(1, 5), hnp.array_shapes(min_dims=0, max_side=3, min_side=0))
def test_random_draws_equal_numpys_generator(n: int, seed: int, low: int, span: int, shape: tuple[int, ...]) -> None:
    assert_same(tt.random.permutation(n, rng=seed), np.random.default_rng(seed).permutation(n))
    assert_same(tt.random.integers(low, low + span, shape, rng=seed), np.asarray(np.random.default_rng(seed).integers(low, low + span, shape)))
    with pytest.raises(ValueError, match='"integers": low must be below high'):
        tt.random.integers(low, low, shape)


@pytest.mark.parametrize("library", ["numpy", "torch", "jax", "dask"])
def test_pad_refuses_a_value_its_dtype_cannot_hold(library: str) -> None:
    """As ``full_like``: jax wrapped 300 into int8 as 44 and torch and jax -1 into uint8 as 255,
    where numpy raised its own OverflowError without the op; a complex value would lose its imaginary part."""
    convert = {
        "numpy": np.asarray,
        "torch": lambda a: pytest.importorskip("torch", reason="torch is not installed").from_numpy(a),
        "jax": lambda a: pytest.importorskip("jax.numpy", reason="jax is not installed").asarray(a),
        "dask": lambda a: pytest.importorskip("dask.array", reason="dask is not installed").from_array(a),
    }[library]
    with pytest.raises(ValueError, match=r'^"pad": value 300 is out of range for int8 \(-128 to 127\)'):
        tt.pad(tt.Tensor(convert(np.ones(2, np.int8))), 1, value=300)
    with pytest.raises(ValueError, match=r'^"pad": value -1 is out of range for uint8 \(0 to 255\)'):
        tt.pad(tt.Tensor(convert(np.ones(2, np.uint8))), 1, value=-1)
    with pytest.raises(TypeError, match=r'^"pad": a complex value'):
        tt.pad(tt.Tensor(convert(np.ones(2, np.float32))), 1, value=1j)
    assert tt.pad(tt.Tensor(convert(np.ones(2, np.uint8))), 1, value=255).numpy().tolist() == [255, 1, 1, 255]
