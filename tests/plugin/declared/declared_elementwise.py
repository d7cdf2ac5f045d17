# pyright: reportUnnecessaryTypeIgnoreComment=true
"""The elementwise ops' declared (generated) signatures, without the plugin: pyright and plain mypy.

Same-shape operands keep their dims (``*Shape``); broadcasting ones give unknown dims. Dtypes are
exact where one rule answers for the operands' group of dtypes; two different dtypes of one
category give that category (mypy) or their union (pyright), never a wrong dtype.
"""

from typing import Any, Literal as L, TypeVar, assert_type

import numpy as np

import typedtensor as tt
from typedtensor import Dim, Tensor


class Batch(Dim): ...


F = TypeVar("F", bound=tt.floating)


def unary(x: Tensor[tt.float32, Batch, L[3]], i8: Tensor[tt.int8, L[4]], i64: Tensor[tt.int64, L[4]], c: Tensor[tt.complex128, L[4]], b: Tensor[tt.bool_, L[4]], f: Tensor[F, L[4]]) -> None:
    assert_type(tt.exp(x), Tensor[tt.float32, Batch, L[3]])
    assert_type(tt.exp(i8), Tensor[tt.float16, L[4]])
    assert_type(tt.log(i64), Tensor[tt.float64, L[4]])
    assert_type(tt.sqrt(c), Tensor[tt.complex128, L[4]])
    assert_type(tt.abs(c), Tensor[tt.float64, L[4]])
    assert_type(abs(c), Tensor[tt.float64, L[4]])
    assert_type(-x, Tensor[tt.float32, Batch, L[3]])
    assert_type(+i8, Tensor[tt.int8, L[4]])
    assert_type(tt.floor(i8), Tensor[tt.int8, L[4]])
    assert_type(tt.square(b), Tensor[tt.int8, L[4]])
    assert_type(tt.logical_not(x), Tensor[tt.bool_, Batch, L[3]])
    assert_type(tt.sigmoid(x), Tensor[tt.float32, Batch, L[3]])
    assert_type(tt.relu(i64), Tensor[tt.int64, L[4]])
    assert_type(tt.tanh(f), Tensor[F, L[4]])
    assert_type(-f, Tensor[F, L[4]])


def binary(x: Tensor[tt.float32, Batch, L[3]], y: Tensor[tt.float32, Batch, L[3]], row: Tensor[tt.float32, L[3]], i32: Tensor[tt.int32, Batch, L[3]], b: Tensor[tt.bool_, Batch, L[3]], f: Tensor[F, L[4]]) -> None:
    assert_type(x + y, Tensor[tt.float32, Batch, L[3]])
    assert_type(tt.subtract(x, y), Tensor[tt.float32, Batch, L[3]])
    assert_type(x * 0.5, Tensor[tt.float32, Batch, L[3]])
    assert_type(0.5 * x, Tensor[tt.float32, Batch, L[3]])
    assert_type(tt.multiply(2, x), Tensor[tt.float32, Batch, L[3]])
    assert_type(x / 2, Tensor[tt.float32, Batch, L[3]])
    assert_type(i32 / i32, Tensor[tt.float64, Batch, L[3]])
    assert_type(i32 / 2, Tensor[tt.float64, Batch, L[3]])
    assert_type(i32 + 1, Tensor[tt.int32, Batch, L[3]])
    assert_type(i32 * 1.5, Tensor[tt.float64, Batch, L[3]])
    assert_type(b + b, Tensor[tt.bool_, Batch, L[3]])
    assert_type(b + 1, Tensor[tt.int64, Batch, L[3]])
    assert_type(b**b, Tensor[tt.int8, Batch, L[3]])
    assert_type(tt.maximum(x, 0.0), Tensor[tt.float32, Batch, L[3]])
    assert_type(x * np.float64(2), Tensor[tt.float32, Batch, L[3]])
    assert_type(f + f, Tensor[F, L[4]])
    assert_type(f * 2.0, Tensor[F, L[4]])
    # Broadcasting: the dims are unknown, the dtype of one category is kept.
    assert_type(x + row, Tensor[tt.float32, *tuple[Any, ...]])
    assert_type(tt.add(x, row), Tensor[tt.float32, *tuple[Any, ...]])
    # Dtypes of two categories: unknown, never wrong.
    assert_type(x + i32, Tensor[Any, Batch, L[3]])
    # The functions' overloads are exact for float tensors only (pyright evaluates nested calls once
    # per overload tried); the operators' are exact for every dtype.
    assert_type(tt.divide(i32, i32), Tensor[Any, Batch, L[3]])
    assert_type(tt.subtract(2.0, tt.multiply(tt.add(x, y), 0.5)), Tensor[tt.float32, Batch, L[3]])
    assert_type(x + np.float32(2), Tensor[Any, Batch, L[3]])  # a rank-0 tensor of its dtype: the plugin says float32
    tt.add(1, 2)  # type: ignore[call-overload]  # an op needs a tensor
    x // 1j  # type: ignore[operator]  # complex numbers have no floor, whatever x's dtype


def comparisons(x: Tensor[tt.float32, Batch, L[3]], row: Tensor[tt.float32, L[3]], b: Tensor[tt.bool_, Batch, L[3]]) -> None:
    assert_type(x == x, Tensor[tt.bool_, Batch, L[3]])
    assert_type(x < 0, Tensor[tt.bool_, Batch, L[3]])
    assert_type(0 < x, Tensor[tt.bool_, Batch, L[3]])
    assert_type(x >= row, Tensor[tt.bool_, *tuple[Any, ...]])
    assert_type(tt.logical_and(b, x > 0), Tensor[tt.bool_, Batch, L[3]])
    assert_type(tt.not_equal(x, 1.0), Tensor[tt.bool_, Batch, L[3]])


def select_and_cast(x: Tensor[tt.float32, Batch, L[3]], b: Tensor[tt.bool_, Batch, L[3]]) -> None:
    assert_type(tt.where(b, x, 0.0), Tensor[tt.float32, Batch, L[3]])
    assert_type(tt.where(x > 0, x, x), Tensor[tt.float32, Batch, L[3]])
    assert_type(tt.where(b, 1, 2.5), Tensor[tt.float64, Batch, L[3]])
    assert_type(tt.cast(x, tt.float16), Tensor[tt.float16, Batch, L[3]])
    assert_type(x.astype(tt.int32), Tensor[tt.int32, Batch, L[3]])


class Heads(Dim): ...


class Time(Dim): ...


def causal_mask(mask: Tensor[tt.bool_, Time, Time], scores: Tensor[tt.float32, Batch, Heads, Time, Time], unknown: Tensor[tt.float32, *tuple[Any, ...]]) -> None:
    # The condition's shape is not the result's: unknown dims, never [Time, Time], and no error.
    assert_type(tt.where(mask, scores, -1e9), Tensor[tt.float32, *tuple[Any, ...]])
    assert_type(tt.where(mask, -1e9, scores), Tensor[tt.float32, *tuple[Any, ...]])
    assert_type(tt.where(mask, scores, scores), Tensor[tt.float32, *tuple[Any, ...]])
    assert_type(tt.where(scores > 0, scores, -1e9), Tensor[tt.float32, Batch, Heads, Time, Time])
    assert_type(tt.where(mask, 0.0, -1e9), Tensor[tt.float64, Time, Time])
    # An operand of unknown rank may be of any rank: unknown dims.
    assert_type(tt.where(mask, unknown, -1e9), Tensor[Any, *tuple[Any, ...]])
    assert_type(tt.where(mask, scores[0, 0], unknown), Tensor[Any, *tuple[Any, ...]])


def never_wrong(x: Tensor[tt.float32, Batch, L[3]], d: Tensor[tt.float64, Batch, L[3]], i: Tensor[tt.integer, L[2]]) -> None:
    # float32 with float64: mypy says floating, pyright float32 | float64; float64 fits either.
    wide: Tensor[tt.floating, Batch, L[3]] = tt.add(x, d)
    mean_of_ints: Tensor[tt.floating, L[2]] = tt.exp(i)
    as_float32: Tensor[tt.float32, Batch, L[3]] = tt.exp(d)  # type: ignore[assignment]
