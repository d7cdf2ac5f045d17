"""The later elementwise ops with the plugin: erf ... gelu keep the shape, floats keep their dtype
and integers compute in a float; is* give bool_; clip broadcasts its tensor bounds, promotes with
them (Python scalars weak), and takes None for a missing bound."""

from typing import Any, Literal as L, TypeVar, assert_type

import numpy as np

import typedtensor as tt
from typedtensor import Dim, Tensor, float32, float64

F = TypeVar("F", bound=tt.floating)


class Batch(Dim): ...


def unary(x: Tensor[float32, Batch, L[3]], i8: Tensor[tt.int8, L[4]], i64: Tensor[tt.int64, L[4]], b: Tensor[tt.bool_, L[4]], f: Tensor[F, L[2]], c: Tensor[tt.complex64, L[4]]) -> None:
    assert_type(tt.erf(x), Tensor[float32, Batch, L[3]])
    assert_type(tt.erf(i64), Tensor[float64, L[4]])
    assert_type(tt.tan(i8), Tensor[tt.float16, L[4]])
    assert_type(tt.arctan(x), Tensor[float32, Batch, L[3]])
    assert_type(tt.log2(b), Tensor[tt.float16, L[4]])
    assert_type(tt.log10(c), Tensor[tt.complex64, L[4]])
    assert_type(tt.rsqrt(c), Tensor[tt.complex64, L[4]])
    assert_type(tt.rsqrt(i64), Tensor[float64, L[4]])
    assert_type(tt.isnan(x), Tensor[tt.bool_, Batch, L[3]])
    assert_type(tt.isinf(i8), Tensor[tt.bool_, L[4]])
    assert_type(tt.isfinite(c), Tensor[tt.bool_, L[4]])
    assert_type(tt.silu(x), Tensor[float32, Batch, L[3]])
    assert_type(tt.softplus(f), Tensor[F, L[2]])
    assert_type(tt.gelu(x), Tensor[float32, Batch, L[3]])
    assert_type(tt.gelu(x, approximate=True), Tensor[float32, Batch, L[3]])
    assert_type(tt.gelu(i64, True), Tensor[float64, L[4]])


def refused(c: Tensor[tt.complex64, L[4]], x: Tensor[float32, L[4]]) -> None:
    tt.erf(c)  # type: ignore[tensor-dtype]
    tt.silu(c)  # type: ignore[tensor-dtype]
    tt.softplus(c)  # type: ignore[tensor-dtype]
    tt.gelu(c, approximate=True)  # type: ignore[tensor-dtype]
    tt.clip(c, 0, 1)  # type: ignore[tensor-dtype]
    tt.clip(x, 0, 1j)  # type: ignore[tensor-dtype]


def clip(x: Tensor[float32, Batch, L[3]], row: Tensor[float64, L[3]], col: Tensor[float32, L[2], L[1], L[1]], i8: Tensor[tt.int8, L[4]], u8: Tensor[tt.uint8, L[4]], f16: Tensor[tt.float16, L[4]], b: Tensor[tt.bool_, L[4]], f: Tensor[F, L[2]]) -> None:
    assert_type(tt.clip(x, 0.0, 1.0), Tensor[float32, Batch, L[3]])
    assert_type(tt.clip(x, None, 6), Tensor[float32, Batch, L[3]])
    assert_type(tt.clip(x, None, None), Tensor[float32, Batch, L[3]])
    assert_type(tt.clip(x, row, None), Tensor[float64, Batch, L[3]])
    assert_type(tt.clip(x, col, 1.0), Tensor[float32, L[2], Batch, L[3]])
    assert_type(tt.clip(i8, 0, 5), Tensor[tt.int8, L[4]])
    assert_type(tt.clip(i8, 0.5, None), Tensor[float64, L[4]])
    assert_type(tt.clip(i8, u8, f16), Tensor[tt.float16, L[4]])  # numpy's result_type of the three
    assert_type(tt.clip(b, 0, 1), Tensor[tt.int64, L[4]])
    assert_type(tt.clip(b, 1, i8), Tensor[tt.int8, L[4]])
    assert_type(tt.clip(f, 0.0, 1.0), Tensor[F, L[2]])
    assert_type(tt.clip(f16, np.float32(0), None), Tensor[float32, L[4]])  # a numpy scalar is strong


def clip_errors(x: Tensor[float32, Batch, L[3]], four: Tensor[float32, L[4]], n: Tensor[float32, Batch, L[1]], rest: Tensor[float32, *tuple[Any, ...]]) -> None:
    tt.clip(x, four, None)  # type: ignore[tensor-broadcast]
    tt.clip(x, 0.0, four)  # type: ignore[tensor-broadcast]
    assert_type(tt.clip(x, n, 1.0), Tensor[float32, Batch, L[3]])
    assert_type(tt.clip(x, rest, None), Tensor[float32, *tuple[Any, ...]])
