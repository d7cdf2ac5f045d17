"""The layers on arrays: ``conv2d``, ``max_pool2d``, ``avg_pool2d`` over ``[N, C, H, W]``, and ``layer_norm``.

Each call is checked with the shared rules (cached by shape) before the library computes: ranks,
channels, windows larger than the input, float dtypes. numpy's ``conv2d`` is im2col from a
strided window view: one copy of the windows, one matmul with the kernels; its pools
take the elementwise maximum (or sum) of the ``KH * KW`` strided slices, one whole-array operation
per window offset. torch and jax run their own convolution and pooling; other libraries have no
window operation in the array API, and are refused with a ``TypeError``.
"""

from __future__ import annotations

import functools
import sys
from typing import Any, Final

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from typedtensor._arguments import int_argument, is_int
from typedtensor._dtypes import float32, marker_of, numpy_dtype_like
from typedtensor._ops.backends import backend_of, to_dtype
from typedtensor._ops.common import Array, as_array, copy_of, fail, namespace, promoted
from typedtensor._shape_rules import INT_DIMS, Problem, Shape, axis_problem
from typedtensor._shape_rules.layers import conv2d_shape, layer_dtype, pool2d_shape

_CACHE_SIZE: Final = 1024
#: The libraries with a convolution and pooling of their own.
_WINDOWED: Final = ("numpy", "torch", "jax")

Pair = tuple[int, int]


def conv2d(x: Array, w: Array, stride: object, padding: object) -> Array:
    """The cross-correlation of ``x`` ``[N, C, H, W]`` with the kernels ``w`` ``[O, C, KH, KW]``."""
    strides, paddings = _pair_argument("conv2d", "stride", stride, 1), _pair_argument("conv2d", "padding", padding, 0)
    shape = _conv2d_shape(x.shape, w.shape, strides, paddings, _dtype(x), _dtype(w))
    if isinstance(shape, Problem):
        fail(shape, "conv2d", [x, w])
    if type(x) is np.ndarray and type(w) is np.ndarray:
        return _numpy_conv2d(x, w, strides, paddings)  # its matmul promotes the dtypes
    library = _library("conv2d", x, w)
    x, w = promoted((x, w))
    if 0 in x.shape or 0 in w.shape:
        return _zeros(x, shape)  # torch refuses an empty kernel or batch
    if library == "torch":
        return as_array(sys.modules["torch"].nn.functional.conv2d(x, w, stride=strides, padding=paddings))
    lax = sys.modules["jax"].lax
    return as_array(lax.conv_general_dilated(x, w, strides, [(paddings[0],) * 2, (paddings[1],) * 2]))


def max_pool2d(x: Array, size: object, stride: object) -> Array:
    """The largest element of each ``size`` window of ``x`` ``[N, C, H, W]``, moved by ``stride`` (``size`` if None)."""
    window, strides, shape = _pool_arguments("max_pool2d", x, size, stride)
    library = _library("max_pool2d", x)
    if library == "numpy":
        return _numpy_pool(np.maximum, x, window, strides)
    if 0 in x.shape:
        return _zeros(x, shape)
    if library == "torch":
        return as_array(sys.modules["torch"].nn.functional.max_pool2d(x, window, strides))
    jax = sys.modules["jax"]
    return as_array(jax.lax.reduce_window(x, -jax.numpy.inf, jax.lax.max, (1, 1, *window), (1, 1, *strides), "VALID"))


def avg_pool2d(x: Array, size: object, stride: object) -> Array:
    """The mean of each ``size`` window of ``x`` ``[N, C, H, W]``, moved by ``stride`` (``size`` if None)."""
    window, strides, shape = _pool_arguments("avg_pool2d", x, size, stride)
    library = _library("avg_pool2d", x)
    if library == "torch":  # torch sums float16 in float32 itself
        return _zeros(x, shape) if 0 in x.shape else as_array(sys.modules["torch"].nn.functional.avg_pool2d(x, window, strides))
    wide = _in_float32(x)
    if library == "numpy":
        total = _numpy_pool(np.add, wide, window, strides)
        total /= window[0] * window[1]  # a Python int: the float dtype stays
        return to_dtype(total, marker_of(x.dtype))
    if 0 in x.shape:
        return _zeros(x, shape)
    jax = sys.modules["jax"]
    # Python scalars as the initial values: jax differentiates a reduce_window only from constants it knows
    total = jax.lax.reduce_window(wide, 0.0, jax.lax.add, (1, 1, *window), (1, 1, *strides), "VALID")
    return as_array(to_dtype(total / (window[0] * window[1]), marker_of(_dtype(x))))


def layer_norm(x: Array, axis: object, eps: object) -> Array:
    """``(x - mean) / sqrt(var + eps)`` along one ``axis``: no weight or bias (multiply and add them)."""
    index = int_argument("layer_norm", "axis", axis)
    if not isinstance(eps, (int, float, np.integer, np.floating)) or isinstance(eps, bool) or not eps >= 0:
        raise TypeError(f'"layer_norm": eps must be a float >= 0, got {type(eps).__name__} {eps!r}')
    problem = _layer_norm_problem(x.shape, index, _dtype(x))
    if problem is not None:
        fail(problem, "layer_norm", [x])
    if 0 in x.shape:
        return copy_of(x)
    xp, wide = namespace(x), _in_float32(x)
    centered = wide - xp.mean(wide, axis=index, keepdims=True)
    variance = xp.mean(centered * centered, axis=index, keepdims=True)
    return as_array(to_dtype(centered / xp.sqrt(variance + float(eps)), marker_of(_dtype(x))))


def _in_float32(x: Array) -> Array:
    """``x``, float16 in float32: a float16 sum of a window passes 65504 from values of 16384, a
    square from a deviation of 256 (torch's own layers compute float16 in float32 too)."""
    return to_dtype(x, float32) if _dtype(x) == np.float16 else x


def _pair_argument(op: str, name: str, value: object, least: int) -> Pair:
    """A stride, padding or window size: an int for both spatial dims, or a tuple of two (height, width),
    each at least ``least`` (not a list, which the declared types refuse too)."""
    if type(value) is int and value >= least:  # the common case, kept quick
        return value, value
    pair = (value, value) if is_int(value) else value
    if isinstance(pair, tuple) and len(pair) == 2 and all(is_int(item) and item >= least for item in pair):
        return int(pair[0]), int(pair[1])
    raise TypeError(f'"{op}": {name} must be an int >= {least} or a pair of them (height, width), got {type(value).__name__} {value!r}')


def _pool_arguments(op: str, x: Array, size: object, stride: object) -> tuple[Pair, Pair, tuple[int, ...]]:
    """The window and the strides of a pool, and its result's shape, after the rules accept the call."""
    window = _pair_argument(op, "size", size, 1)
    strides = window if stride is None else _pair_argument(op, "stride", stride, 1)
    shape = _pool2d_shape(x.shape, window, strides, _dtype(x))
    if isinstance(shape, Problem):
        fail(shape, op, [x])
    return window, strides, shape


def _zeros(x: Array, shape: tuple[int, ...]) -> Array:
    """An empty result (or one of empty sums, zeros) on ``x``'s library, for shapes its own op refuses."""
    backend = backend_of(x)
    return as_array(backend.xp.zeros(shape, dtype=x.dtype, device=backend.device(x)))


def _dtype(array: Array) -> np.dtype[Any]:
    """An array's dtype as numpy's, the cached rules' key (quicker than its name; another
    library's dtype would be compared with numpy's in the cache)."""
    return array.dtype if type(array) is np.ndarray else numpy_dtype_like(array.dtype)


def _library(op: str, *arrays: Array) -> str:
    """The one library of ``arrays``, if it has a convolution and pooling; else a ``TypeError``."""
    name = backend_of(arrays[0]).name
    if any(backend_of(array).name != name for array in arrays[1:]) or name not in _WINDOWED:
        libraries = " and ".join(sorted({backend_of(array).name for array in arrays}))
        raise TypeError(f'"{op}" runs on numpy, torch or jax arrays (one library), got {libraries}: convert first (x.numpy())')
    return name


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _conv2d_shape(x: tuple[int, ...], w: tuple[int, ...], stride: Pair, padding: Pair, x_dtype: np.dtype[Any], w_dtype: np.dtype[Any]) -> tuple[int, ...] | Problem:
    return _checked(conv2d_shape(Shape[int, None](x), Shape[int, None](w), stride, padding, INT_DIMS), layer_dtype(x_dtype.name, w_dtype.name))


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _pool2d_shape(x: tuple[int, ...], window: Pair, stride: Pair, dtype: np.dtype[Any]) -> tuple[int, ...] | Problem:
    return _checked(pool2d_shape(Shape[int, None](x), window, stride, INT_DIMS), layer_dtype(dtype.name))


def _checked(shape: Shape[int, None] | Problem, dtype: str | Problem) -> tuple[int, ...] | Problem:
    """The result's shape, or the problem of the call: its shape's first, then its dtype's."""
    if isinstance(shape, Problem):
        return shape
    if isinstance(dtype, Problem):
        return dtype
    return tuple(dim for dim in shape.prefix if isinstance(dim, int))


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _layer_norm_problem(x: tuple[int, ...], axis: int, dtype: np.dtype[Any]) -> Problem | None:
    refused = layer_dtype(dtype.name)
    return axis_problem(Shape[int, None](x), axis) or (refused if isinstance(refused, Problem) else None)


def _numpy_conv2d(x: Array, w: Array, stride: Pair, padding: Pair) -> Array:
    """im2col from a strided window view: the windows copied once as columns ``[N, C*KH*KW, OH*OW]``
    (in the view's own order, the output positions innermost: the quickest copy), then one matmul
    of the kernels ``[O, C*KH*KW]`` with each image's columns, which is ``[N, O, OH, OW]`` as it comes."""
    if padding != (0, 0):
        x = np.pad(x, ((0, 0), (0, 0), (padding[0],) * 2, (padding[1],) * 2))
    windows = sliding_window_view(x, w.shape[2:], axis=(2, 3))[:, :, :: stride[0], :: stride[1]]  # [N, C, OH, OW, KH, KW]
    batch, channels, rows, columns, kh, kw = windows.shape
    patches = np.ascontiguousarray(windows.transpose(0, 1, 4, 5, 2, 3)).reshape(batch, channels * kh * kw, rows * columns)
    product: Array = np.matmul(w.reshape(w.shape[0], channels * kh * kw), patches)  # [N, O, OH*OW]
    return product.reshape(batch, w.shape[0], rows, columns)


def _numpy_pool(combine: Any, x: Array, window: Pair, stride: Pair) -> Array:
    """``combine`` (``np.maximum``, ``np.add``) of the ``KH * KW`` strided slices, each a window offset."""
    rows, columns = ((size - reach) // step + 1 for size, reach, step in zip(x.shape[2:], window, stride))
    result: Array | None = None
    for i in range(window[0]):
        for j in range(window[1]):
            part = x[:, :, i : i + stride[0] * (rows - 1) + 1 : stride[0], j : j + stride[1] * (columns - 1) + 1 : stride[1]]
            result = part.copy() if result is None else combine(result, part, out=result)
    assert result is not None  # a window has at least one offset
    return result

