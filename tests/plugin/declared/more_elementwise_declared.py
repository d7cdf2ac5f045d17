# pyright: reportUnnecessaryTypeIgnoreComment=true
"""The later elementwise ops' declared signatures, without the plugin: pyright and plain mypy.

The unary ops are generated as the others are (the shape kept, the dtype per group of dtypes).
``clip`` is exact with Python-scalar or None bounds; a tensor bound gives unknown dims, since it
may have more dims than ``x`` (the plugin makes that exact).
"""

from typing import Any, Literal as L, TypeVar, assert_type

import numpy as np

import typedtensor as tt
from typedtensor import Dim, Tensor


class Batch(Dim): ...


F = TypeVar("F", bound=tt.floating)


def unary(x: Tensor[tt.float32, Batch, L[3]], i8: Tensor[tt.int8, L[4]], i64: Tensor[tt.int64, L[4]], c: Tensor[tt.complex128, L[4]], b: Tensor[tt.bool_, L[4]], f: Tensor[F, L[4]]) -> None:
    assert_type(tt.erf(x), Tensor[tt.float32, Batch, L[3]])
    assert_type(tt.erf(i64), Tensor[tt.float64, L[4]])
    assert_type(tt.tan(i8), Tensor[tt.float16, L[4]])
    assert_type(tt.arctan(f), Tensor[F, L[4]])
    assert_type(tt.log2(c), Tensor[tt.complex128, L[4]])
    assert_type(tt.log10(x), Tensor[tt.float32, Batch, L[3]])
    assert_type(tt.rsqrt(i64), Tensor[tt.float64, L[4]])
    assert_type(tt.isnan(x), Tensor[tt.bool_, Batch, L[3]])
    assert_type(tt.isinf(c), Tensor[tt.bool_, L[4]])
    assert_type(tt.isfinite(b), Tensor[tt.bool_, L[4]])
    assert_type(tt.silu(x), Tensor[tt.float32, Batch, L[3]])
    assert_type(tt.softplus(b), Tensor[tt.float16, L[4]])
    assert_type(tt.gelu(x), Tensor[tt.float32, Batch, L[3]])
    assert_type(tt.gelu(f, approximate=True), Tensor[F, L[4]])


def clip(x: Tensor[tt.float32, Batch, L[3]], i8: Tensor[tt.int8, L[4]], b: Tensor[tt.bool_, L[4]], f: Tensor[F, L[4]], row: Tensor[tt.float32, L[3]]) -> None:
    assert_type(tt.clip(x, 0.0, 1.0), Tensor[tt.float32, Batch, L[3]])
    assert_type(tt.clip(x, None, 6), Tensor[tt.float32, Batch, L[3]])
    assert_type(tt.clip(f, -1.0, None), Tensor[F, L[4]])
    assert_type(tt.clip(i8, 0, 100), Tensor[tt.int8, L[4]])
    assert_type(tt.clip(i8, 0.5, None), Tensor[tt.float64, L[4]])
    assert_type(tt.clip(b, False, True), Tensor[tt.bool_, L[4]])
    assert_type(tt.clip(b, 0, 2), Tensor[tt.int64, L[4]])
    assert_type(tt.clip(x, row, None), Tensor[Any, *tuple[Any, ...]])
    assert_type(tt.clip(x, np.float32(0), None), Tensor[Any, *tuple[Any, ...]])
