"""conv2d and the pools against direct loops, layer_norm against its formula; errors before the library runs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

import typedtensor as tt
from tests.support.arrays import Array, strided
from tests.support.windows import conv2d_loops, pool2d_loops

pytestmark = pytest.mark.floors

FLOATS = [np.dtype(name) for name in ("float16", "float32", "float64")]
#: How close a float result must be to the float64 reference, relative to the sum of |terms|.
TOLERANCE = {np.dtype("float16"): 1e-2, np.dtype("float32"): 1e-5, np.dtype("float64"): 1e-12}
values = st.floats(-4, 4, width=16)
pairs = st.tuples(st.integers(1, 3), st.integers(1, 3))


def _pair(draw: st.DrawFn, low: int) -> int | tuple[int, int]:
    """An int for both spatial dims, or a pair: what the layers take."""
    first, second = draw(st.integers(low, 3)), draw(st.integers(low, 3))
    return first if draw(st.booleans()) else (first, second)


def _both(value: int | tuple[int, int]) -> tuple[int, int]:
    return (value, value) if isinstance(value, int) else value


@st.composite
def conv_cases(draw: st.DrawFn) -> tuple[Array, Array, int | tuple[int, int], int | tuple[int, int]]:
    stride, padding = _pair(draw, 1), _pair(draw, 0)
    kh, kw = draw(pairs)
    height = draw(st.integers(max(0, kh - 2 * _both(padding)[0]), 6))
    width = draw(st.integers(max(0, kw - 2 * _both(padding)[1]), 6))
    n, c, o = draw(st.integers(0, 2)), draw(st.integers(0, 3)), draw(st.integers(0, 3))
    x = strided(draw, draw(hnp.arrays(draw(st.sampled_from(FLOATS)), (n, c, height, width), elements=values)))
    w = strided(draw, draw(hnp.arrays(draw(st.sampled_from(FLOATS)), (o, c, kh, kw), elements=values)))
    return x, w, stride, padding


@settings(max_examples=60, deadline=None)
@given(conv_cases())
def test_conv2d_equals_direct_loops(case: tuple[Array, Array, int | tuple[int, int], int | tuple[int, int]]) -> None:
    x, w, stride, padding = case
    result = tt.conv2d(tt.Tensor(x), tt.Tensor(w), stride=stride, padding=padding).numpy()
    expected = conv2d_loops(x, w, _both(stride), _both(padding))
    dtype = np.result_type(x, w)
    assert result.dtype == dtype and result.shape == expected.shape
    scale = conv2d_loops(np.abs(x.astype(np.float64)), np.abs(w.astype(np.float64)), _both(stride), _both(padding))
    assert np.all(np.abs(result - expected) <= TOLERANCE[dtype] * (scale + 1))


@st.composite
def pool_cases(draw: st.DrawFn) -> tuple[Array, tuple[int, int], int | tuple[int, int] | None]:
    size = draw(pairs)
    stride = None if draw(st.booleans()) else _pair(draw, 1)
    shape = (draw(st.integers(0, 2)), draw(st.integers(0, 2)), draw(st.integers(size[0], 6)), draw(st.integers(size[1], 6)))
    return strided(draw, draw(hnp.arrays(draw(st.sampled_from(FLOATS)), shape, elements=values))), size, stride


@settings(max_examples=60, deadline=None)
@given(pool_cases(), st.sampled_from(["max", "avg"]))
def test_pools_equal_direct_loops(case: tuple[Array, tuple[int, int], int | tuple[int, int] | None], kind: str) -> None:
    x, size, stride = case
    pool = tt.max_pool2d if kind == "max" else tt.avg_pool2d
    result = pool(tt.Tensor(x), size, stride).numpy()
    expected = pool2d_loops(kind, x, size, size if stride is None else _both(stride))
    assert result.dtype == x.dtype and result.shape == expected.shape
    np.testing.assert_allclose(result, expected, rtol=TOLERANCE[x.dtype], atol=TOLERANCE[x.dtype])


@settings(max_examples=40, deadline=None)
@given(hnp.arrays(st.sampled_from(FLOATS[1:]), hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=4), elements=values), st.data())
def test_layer_norm_equals_its_formula(x: Array, data: st.DataObject) -> None:
    axis = data.draw(st.integers(-x.ndim, x.ndim - 1))
    result = tt.layer_norm(tt.Tensor(x), axis=axis, eps=1e-3).numpy()
    wide = x.astype(np.float64)
    centered = wide - wide.mean(axis=axis, keepdims=True) if x.size else wide
    expected = centered / np.sqrt((centered**2).mean(axis=axis, keepdims=True) + 1e-3) if x.size else wide
    assert result.dtype == x.dtype and result.shape == x.shape
    np.testing.assert_allclose(result, expected, rtol=TOLERANCE[x.dtype] * 10, atol=TOLERANCE[x.dtype] * 10)


def test_errors_name_the_operands_before_numpy_runs() -> None:
    x = tt.zeros((2, 3, 8, 8))
    with pytest.raises(tt.TensorShapeError, match=r'channels 3 and 4 at axis 1 differ'):
        tt.conv2d(x, tt.zeros((5, 4, 3, 3)))
    with pytest.raises(tt.TensorShapeError, match=r"Tensor\[float32, 2, 3, 8, 8\] and Tensor\[float32, 5, 3, 9, 3\].*window 9 at axis 2 is larger than the input 8"):
        tt.conv2d(x, tt.zeros((5, 3, 9, 3)))
    tt.conv2d(x, tt.zeros((5, 3, 9, 3)), padding=1)  # fits once padded
    with pytest.raises(tt.TensorShapeError, match=r"w has rank 3"):
        tt.conv2d(x, tt.zeros((3, 3, 3)))
    with pytest.raises(tt.TensorDTypeError, match=r"computes in floats, not int64"):
        tt.max_pool2d(tt.zeros((1, 1, 2, 2), tt.int64), 2)
    with pytest.raises(tt.TensorShapeError, match=r"window 3 at axis 3 is larger than the input 2"):
        tt.avg_pool2d(tt.zeros((1, 1, 4, 2)), (1, 3))
    with pytest.raises(tt.AxisError):
        tt.layer_norm(x, axis=4)
    for bad in (0, (1, 0), (1, 2, 3), [1, 1], 1.5, True):
        with pytest.raises(TypeError, match=r'"conv2d": stride must be an int >= 1 or a pair'):
            tt.conv2d(x, tt.zeros((5, 3, 3, 3)), stride=bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r'"conv2d": padding must be an int >= 0'):
        tt.conv2d(x, tt.zeros((5, 3, 3, 3)), padding=-1)
    for bad_eps in (-1.0, float("nan"), "0.1", True):
        with pytest.raises(TypeError, match=r'"layer_norm": eps must be a float >= 0'):
            tt.layer_norm(x, eps=bad_eps)  # type: ignore[arg-type]
    assert tt.layer_norm(x, eps=np.float32(1e-3)).dtype is tt.float32  # a numpy scalar works as a float


def test_dask_is_refused_with_a_fix() -> None:
    da = pytest.importorskip("dask.array", reason="dask is not installed")
    with pytest.raises(TypeError, match=r'"max_pool2d" runs on numpy, torch or jax arrays .*got dask'):
        tt.max_pool2d(tt.Tensor(da.zeros((1, 1, 4, 4), dtype=np.float32)), 2)


@settings(max_examples=25, deadline=None)
@given(conv_cases())
def test_torch_gives_numpy_values(case: tuple[Array, Array, int | tuple[int, int], int | tuple[int, int]]) -> None:
    torch = pytest.importorskip("torch", reason="torch is not installed")
    x, w, stride, padding = case
    x, w = x.astype(np.float64), w.astype(np.float64)  # torch's CPU convolution of float16 is not everywhere
    expected = tt.conv2d(tt.Tensor(x), tt.Tensor(w), stride=stride, padding=padding).numpy()
    result = tt.conv2d(tt.Tensor(torch.from_numpy(x.copy())), tt.Tensor(torch.from_numpy(w.copy())), stride=stride, padding=padding)
    np.testing.assert_allclose(result.numpy(), expected, rtol=1e-12, atol=1e-12)
    if min(x.shape[2:]) >= 2:
        for pool in (tt.max_pool2d, tt.avg_pool2d):
            np.testing.assert_allclose(pool(tt.Tensor(torch.from_numpy(x.copy())), 2, 1).numpy(), pool(tt.Tensor(x), 2, 1).numpy(), rtol=1e-12)


@pytest.mark.parametrize("library", ["numpy", "torch", "jax"])
def test_float16_layers_sum_and_square_in_float32(library: str) -> None:
    """A float16 row deviating by more than 256 squares past float16's 65504 (its variance was inf,
    the row 0s), and a window of four 60000s sums past it (its mean was inf): both are computed in
    float32 and rounded back, as torch's own layer_norm and avg_pool2d do."""
    convert = {"numpy": np.asarray, "torch": lambda a: pytest.importorskip("torch", reason="torch is not installed").from_numpy(a),
               "jax": lambda a: pytest.importorskip("jax.numpy", reason="jax is not installed").asarray(a)}[library]
    row = np.array([[1000, 2000, 3000, 3000]], np.float16)
    wide = row.astype(np.float64)
    expected = (wide - wide.mean()) / np.sqrt(wide.var() + 1e-5)
    normalised = tt.layer_norm(tt.Tensor(convert(row))).numpy()
    assert normalised.dtype == np.float16
    np.testing.assert_allclose(normalised, expected, rtol=1e-3)
    windows = np.full((1, 1, 4, 4), 60000, np.float16)
    averaged = tt.avg_pool2d(tt.Tensor(convert(windows)), 2).numpy()
    assert averaged.dtype == np.float16
    np.testing.assert_array_equal(averaged, np.full((1, 1, 2, 2), 60000, np.float16))
