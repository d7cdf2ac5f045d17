"""Elementwise ops: shapes kept or broadcast, dtypes by numpy's rules, Python scalars weak (NEP 50)."""

from typing import Any, Literal as L, TypeVar, TypeVarTuple, assert_type

import numpy as np

import typedtensor as tt
from typedtensor import Dim, Tensor, float32, float64, int32

Ts = TypeVarTuple("Ts")
N = TypeVar("N")


class Batch(Dim): ...


def shapes(x: Tensor[float32, L[32], L[10]], row: Tensor[float32, L[10]], col: Tensor[float32, L[32], L[1]]) -> None:
    assert_type(x + row, Tensor[float32, L[32], L[10]])
    assert_type(row + x, Tensor[float32, L[32], L[10]])
    assert_type(tt.add(x, col), Tensor[float32, L[32], L[10]])
    assert_type(tt.add(col, row), Tensor[float32, L[32], L[10]])
    assert_type(x + tt.zeros((10,)), Tensor[float32, L[32], L[10]])


def symbolic(b: Tensor[float32, Batch, L[10]], n: Tensor[float32, N, L[1]], one: Tensor[float32, L[1], L[10]], five: Tensor[float32, L[5], L[10]]) -> None:
    assert_type(b + one, Tensor[float32, Batch, L[10]])
    b + five  # type: ignore[tensor-dim]  # runs only if Batch is 1 or 5: named dims are rigid (rigid_dims.py)
    b + n  # type: ignore[tensor-dim]  # runs only if Batch and N are equal (or one is 1)
    assert_type(n + n, Tensor[float32, N, L[1]])


def runs(x: Tensor[float32, *Ts, L[3]], y: Tensor[float32, L[3]], z: Tensor[float32, *tuple[Any, ...]]) -> None:
    assert_type(x + y, Tensor[float32, *Ts, L[3]])
    assert_type(x + x, Tensor[float32, *Ts, L[3]])
    assert_type(x + z, Tensor[float32, *tuple[Any, ...]])


def dtypes(f32: Tensor[float32, L[2]], f64: Tensor[float64, L[2]], i32: Tensor[int32, L[2]], b: Tensor[tt.bool_, L[2]], u64: Tensor[tt.uint64, L[2]], i64: Tensor[tt.int64, L[2]]) -> None:
    assert_type(f32 + f64, Tensor[float64, L[2]])
    assert_type(f32 + i32, Tensor[float64, L[2]])
    assert_type(i64 + u64, Tensor[float64, L[2]])
    assert_type(f32 + 2.0, Tensor[float32, L[2]])
    assert_type(2 + f32, Tensor[float32, L[2]])
    assert_type(i32 + 2, Tensor[int32, L[2]])
    assert_type(i32 + 2.5, Tensor[float64, L[2]])
    assert_type(b + 1, Tensor[tt.int64, L[2]])
    assert_type(f32 + 1j, Tensor[tt.complex64, L[2]])


def categories(x: Tensor[tt.floating, L[2]], y: Tensor[float32, L[2]], i: Tensor[tt.integer, L[2]]) -> None:
    assert_type(x + y, Tensor[tt.floating, L[2]])
    assert_type(x + 1, Tensor[tt.floating, L[2]])
    assert_type(i + i, Tensor[tt.number, L[2]])  # int64 + uint64 is float64


def errors(x: Tensor[float32, L[32], L[10]], five: Tensor[float32, L[5]]) -> None:
    x + five  # type: ignore[tensor-broadcast]
    tt.add(x, five)  # type: ignore[tensor-broadcast]
    five + x  # type: ignore[tensor-broadcast]
    tt.add(x, tt.zeros((3,)))  # type: ignore[tensor-broadcast]
    bad: Tensor[float32, L[3]] = tt.add(x, five)  # type: ignore[tensor-broadcast]


# --- every op, as a function and as its operator ------------------------------------------

F = TypeVar("F", bound=tt.floating)
I = TypeVar("I", bound=tt.signedinteger)


def unary(x: Tensor[float32, L[2], L[3]], i8: Tensor[tt.int8, L[4]], i32: Tensor[int32, L[4]], c: Tensor[tt.complex64, Batch], b: Tensor[tt.bool_, L[4]], u16: Tensor[tt.uint16, L[4]]) -> None:
    assert_type(tt.exp(x), Tensor[float32, L[2], L[3]])
    assert_type(tt.exp(i8), Tensor[tt.float16, L[4]])
    assert_type(tt.log(i32), Tensor[float64, L[4]])
    assert_type(tt.sqrt(u16), Tensor[float32, L[4]])
    assert_type(tt.log1p(b), Tensor[tt.float16, L[4]])
    assert_type(tt.expm1(x), Tensor[float32, L[2], L[3]])
    assert_type(tt.sin(c), Tensor[tt.complex64, Batch])
    assert_type(tt.cos(i8), Tensor[tt.float16, L[4]])
    assert_type(tt.tanh(x), Tensor[float32, L[2], L[3]])
    assert_type(tt.abs(c), Tensor[float32, Batch])
    assert_type(abs(c), Tensor[float32, Batch])
    assert_type(tt.abs(b), Tensor[tt.bool_, L[4]])
    assert_type(tt.negative(i8), Tensor[tt.int8, L[4]])
    assert_type(-x, Tensor[float32, L[2], L[3]])
    assert_type(+i32, Tensor[int32, L[4]])
    assert_type(tt.positive(x), Tensor[float32, L[2], L[3]])
    assert_type(tt.square(b), Tensor[tt.int8, L[4]])
    assert_type(tt.square(x), Tensor[float32, L[2], L[3]])
    assert_type(tt.floor(i32), Tensor[int32, L[4]])
    assert_type(tt.ceil(x), Tensor[float32, L[2], L[3]])
    assert_type(tt.sign(c), Tensor[tt.complex64, Batch])
    assert_type(tt.logical_not(x), Tensor[tt.bool_, L[2], L[3]])
    assert_type(tt.sigmoid(x), Tensor[float32, L[2], L[3]])
    assert_type(tt.sigmoid(u16), Tensor[float32, L[4]])
    assert_type(tt.relu(i8), Tensor[tt.int8, L[4]])
    assert_type(tt.relu(b), Tensor[tt.bool_, L[4]])


def binary(x: Tensor[float32, L[2], L[3]], row: Tensor[float32, L[3]], i32: Tensor[int32, L[2], L[3]], b: Tensor[tt.bool_, L[2], L[1]], u8: Tensor[tt.uint8, L[3]]) -> None:
    assert_type(tt.subtract(x, row), Tensor[float32, L[2], L[3]])
    assert_type(x - row, Tensor[float32, L[2], L[3]])
    assert_type(tt.multiply(row, x), Tensor[float32, L[2], L[3]])
    assert_type(x * i32, Tensor[float64, L[2], L[3]])
    assert_type(tt.divide(i32, i32), Tensor[float64, L[2], L[3]])
    assert_type(i32 / 2, Tensor[float64, L[2], L[3]])
    assert_type(x / 2, Tensor[float32, L[2], L[3]])
    assert_type(tt.floor_divide(b, b), Tensor[tt.int8, L[2], L[1]])
    assert_type(i32 // u8, Tensor[int32, L[2], L[3]])
    assert_type(tt.power(x, 2), Tensor[float32, L[2], L[3]])
    assert_type(b**b, Tensor[tt.int8, L[2], L[1]])
    assert_type(x**i32, Tensor[float64, L[2], L[3]])
    assert_type(tt.maximum(x, 0.0), Tensor[float32, L[2], L[3]])
    assert_type(tt.minimum(u8, i32), Tensor[tt.int32, L[2], L[3]])
    assert_type(x - b, Tensor[float32, L[2], L[3]])


def reflected_and_scalars(x: Tensor[float32, L[2], L[3]], i8: Tensor[tt.int8, L[4]], b: Tensor[tt.bool_, L[4]], seven: L[7]) -> None:
    assert_type(2 - x, Tensor[float32, L[2], L[3]])
    assert_type(1.5 / i8, Tensor[float64, L[4]])
    assert_type(2 ** i8, Tensor[tt.int8, L[4]])
    assert_type(2.0 * x, Tensor[float32, L[2], L[3]])
    assert_type(3 // i8, Tensor[tt.int8, L[4]])
    assert_type(tt.subtract(1, b), Tensor[tt.int64, L[4]])
    assert_type(True + b, Tensor[tt.bool_, L[4]])
    assert_type(b * 1.0, Tensor[float64, L[4]])
    assert_type(i8 + 1j, Tensor[tt.complex128, L[4]])
    assert_type(i8 + seven, Tensor[tt.int8, L[4]])
    assert_type(x * np.float64(0.5), Tensor[float32, L[2], L[3]])  # numpy's float64 is a float: weak
    assert_type(np.float64(0.5) * x, Tensor[float32, L[2], L[3]])
    assert_type(x * np.float32(0.5), Tensor[float32, L[2], L[3]])  # a numpy scalar is strong: numpy_interop.py


def comparisons(x: Tensor[float32, L[2], L[3]], row: Tensor[float32, L[3]], n: Tensor[int32, N, L[1]], b: Tensor[tt.bool_, L[3]]) -> None:
    assert_type(x == row, Tensor[tt.bool_, L[2], L[3]])
    assert_type(x != 0, Tensor[tt.bool_, L[2], L[3]])
    assert_type(x < row, Tensor[tt.bool_, L[2], L[3]])
    assert_type(row <= x, Tensor[tt.bool_, L[2], L[3]])
    assert_type(0 < x, Tensor[tt.bool_, L[2], L[3]])
    assert_type(x >= 1.5, Tensor[tt.bool_, L[2], L[3]])
    assert_type(tt.greater(n, row), Tensor[tt.bool_, N, L[3]])
    assert_type(tt.equal(x, x), Tensor[tt.bool_, L[2], L[3]])
    assert_type(tt.less_equal(1, x), Tensor[tt.bool_, L[2], L[3]])
    assert_type(tt.greater_equal(row, 2.0), Tensor[tt.bool_, L[3]])
    assert_type(tt.not_equal(n, n), Tensor[tt.bool_, N, L[1]])
    assert_type(tt.logical_and(x > 0, b), Tensor[tt.bool_, L[2], L[3]])
    assert_type(tt.logical_or(b, True), Tensor[tt.bool_, L[3]])
    assert_type(x == "zero", bool)  # not an operand: Python's identity comparison, False


def select(x: Tensor[float32, L[2], L[3]], row: Tensor[float64, L[3]], mask: Tensor[tt.bool_, L[2], L[1]], i8: Tensor[tt.int8, L[3]]) -> None:
    assert_type(tt.where(x > 0, x, 0.0), Tensor[float32, L[2], L[3]])
    assert_type(tt.where(mask, x, row), Tensor[float64, L[2], L[3]])
    assert_type(tt.where(mask, 1, i8), Tensor[tt.int8, L[2], L[3]])
    assert_type(tt.where(mask, 1, 2.5), Tensor[float64, L[2], L[1]])
    assert_type(tt.where(mask, True, False), Tensor[tt.bool_, L[2], L[1]])


class Heads(Dim): ...


class Time(Dim): ...


def causal_mask(mask: Tensor[tt.bool_, Time, Time], scores: Tensor[float32, Batch, Heads, Time, Time]) -> None:
    # The condition broadcasts too: the result has the larger rank, whichever operand has it.
    assert_type(tt.where(mask, scores, -1e9), Tensor[float32, Batch, Heads, Time, Time])
    assert_type(tt.where(mask, -1e9, scores), Tensor[float32, Batch, Heads, Time, Time])
    assert_type(tt.where(mask[None], scores[0], scores[0, 0]), Tensor[float32, Heads, Time, Time])


def casts(x: Tensor[float32, Batch, L[3]], v: Tensor[float32, *Ts], some_float: type[tt.floating]) -> None:
    assert_type(tt.cast(x, tt.int8), Tensor[tt.int8, Batch, L[3]])
    assert_type(tt.cast(x, some_float), Tensor[tt.floating, Batch, L[3]])  # may be float32: no error
    assert_type(x.astype(tt.complex128), Tensor[tt.complex128, Batch, L[3]])
    assert_type(v.astype(float64), Tensor[float64, *Ts])


def typevar_dtypes(x: Tensor[F, L[2]], y: Tensor[F, L[2]], i: Tensor[I, L[2]], g: Tensor[float32, L[2]]) -> None:
    assert_type(x + y, Tensor[F, L[2]])  # the same dtype, whatever it is
    assert_type(x * 2.0, Tensor[F, L[2]])
    assert_type(tt.exp(x), Tensor[F, L[2]])
    assert_type(-x, Tensor[F, L[2]])
    assert_type(tt.exp(i), Tensor[tt.floating, L[2]])  # int8 -> float16 ... int64 -> float64
    assert_type(i / i, Tensor[float64, L[2]])
    assert_type(x + g, Tensor[tt.floating, L[2]])  # F may be float64, or float16
    assert_type(x < 0, Tensor[tt.bool_, L[2]])


def dtype_errors(b: Tensor[tt.bool_, L[2]], c: Tensor[tt.complex64, L[2]], x: Tensor[float32, L[2]]) -> None:
    -b  # type: ignore[tensor-dtype]
    tt.negative(b)  # type: ignore[tensor-dtype]
    b - b  # type: ignore[tensor-dtype]
    b - True  # type: ignore[tensor-dtype]
    tt.subtract(b, False)  # type: ignore[tensor-dtype]
    True - b  # type: ignore[operator]  # the scalar's own __sub__ is tried first: mypy's words
    tt.floor(c)  # type: ignore[tensor-dtype]
    tt.ceil(c)  # type: ignore[tensor-dtype]
    c // c  # type: ignore[tensor-dtype]
    tt.sign(b)  # type: ignore[tensor-dtype]
    tt.sigmoid(c)  # type: ignore[tensor-dtype]
    tt.relu(c)  # type: ignore[tensor-dtype]
    tt.cast(x, tt.floating)  # type: ignore[tensor-dtype]
    x.astype(tt.number)  # type: ignore[tensor-dtype]
    wrong: Tensor[tt.bool_, L[2]] = -b  # type: ignore[tensor-dtype]
    after: Tensor[float32, L[9]] = tt.cast(x, tt.inexact)  # type: ignore[tensor-dtype]


def broadcast_errors(x: Tensor[float32, L[2], L[3]], four: Tensor[float32, L[4]], mask: Tensor[tt.bool_, L[5], L[1]]) -> None:
    x * four  # type: ignore[tensor-broadcast]
    four - x  # type: ignore[tensor-broadcast]
    x / four  # type: ignore[tensor-broadcast]
    x // four  # type: ignore[tensor-broadcast]
    x**four  # type: ignore[tensor-broadcast]
    x < four  # type: ignore[tensor-broadcast]
    x == four  # type: ignore[tensor-broadcast]
    tt.maximum(x, four)  # type: ignore[tensor-broadcast]
    tt.logical_and(x, four)  # type: ignore[tensor-broadcast]
    tt.where(mask, x, 0.0)  # type: ignore[tensor-broadcast]
    tt.where(x > 0, x, four)  # type: ignore[tensor-broadcast]
    tt.subtract(mask, mask)  # type: ignore[tensor-dtype]
    y: Tensor[float32, L[4]] = x - four  # type: ignore[tensor-broadcast]


def after_errors(x: Tensor[float32, L[2], L[3]], four: Tensor[tt.int8, L[4]], b: Tensor[tt.bool_, L[4]], i: Tensor[tt.int16, L[5]]) -> None:
    """After a shape error the dims are unknown and the dtype is the rules' (one bug, one error);
    after a dtype error the dtype is unknown too."""
    added = tt.add(x, four)  # type: ignore[tensor-broadcast]
    divided = tt.floor_divide(i, four)  # type: ignore[tensor-broadcast]
    compared = tt.less(x, four)  # type: ignore[tensor-broadcast]
    selected = tt.where(b, x, four)  # type: ignore[tensor-broadcast]
    exp = tt.exp(tt.add(i, four))  # type: ignore[tensor-broadcast]
    both = tt.subtract(b, tt.zeros((3,), tt.bool_))  # type: ignore[tensor-broadcast]
    refused = tt.subtract(b, b)  # type: ignore[tensor-dtype]
    assert_type(added, Tensor[float32, *tuple[Any, ...]])
    assert_type(divided, Tensor[tt.int16, *tuple[Any, ...]])
    assert_type(compared, Tensor[tt.bool_, *tuple[Any, ...]])
    assert_type(selected, Tensor[float32, *tuple[Any, ...]])
    assert_type(exp, Tensor[float32, *tuple[Any, ...]])  # no second error
    assert_type(both, Tensor[Any, *tuple[Any, ...]])  # the shapes' error, and no dtype
    assert_type(refused, Tensor[Any, *tuple[Any, ...]])


def ndarray_operands(x: Tensor[float32, L[3]], a: np.ndarray[Any, np.dtype[np.float64]]) -> None:
    """An ndarray beside a tensor is refused at run time (the tensor asks for a Tensor or a
    Python scalar), whichever side it is on; numpy's stubs would take it."""
    a + x  # type: ignore[operator]
    x + a  # type: ignore[operator]
    a < x  # type: ignore[operator]
    x >= a  # type: ignore[operator]
    a == x  # type: ignore[operator]
    x != a  # type: ignore[operator]
    a**x  # type: ignore[operator]
    x / a  # type: ignore[operator]
