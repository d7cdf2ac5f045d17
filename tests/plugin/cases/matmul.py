"""matmul and ``@``: batch dims broadcast, 1-D operands as numpy, transpose flags, dtypes promoted."""

from typing import Any, Literal as L, TypeVar, TypeVarTuple, assert_type

import typedtensor as tt
from typedtensor import Dim, Tensor, float32, float64

Ts = TypeVarTuple("Ts")
N = TypeVar("N")
K = TypeVar("K")


class Batch(Dim): ...


def two_d(x: Tensor[float32, L[32], L[784]], w: Tensor[float32, L[784], L[10]], wt: Tensor[float32, L[10], L[784]]) -> None:
    assert_type(x @ w, Tensor[float32, L[32], L[10]])
    assert_type(tt.matmul(x, w), Tensor[float32, L[32], L[10]])
    assert_type(tt.matmul(x, wt, transpose_b=True), Tensor[float32, L[32], L[10]])
    assert_type(tt.matmul(wt, x, transpose_b=True), Tensor[float32, L[10], L[32]])
    assert_type(tt.matmul(w, x, transpose_a=True, transpose_b=True), Tensor[float32, L[10], L[32]])
    assert_type(tt.matmul(x, x, False, True), Tensor[float32, L[32], L[32]])
    assert_type(w.__rmatmul__(x), Tensor[float32, L[32], L[10]])


def vectors(v: Tensor[float32, L[784]], x: Tensor[float32, L[32], L[784]], w: Tensor[float32, L[784], L[10]]) -> None:
    assert_type(v @ w, Tensor[float32, L[10]])
    assert_type(x @ v, Tensor[float32, L[32]])
    assert_type(v @ v, Tensor[float32])
    assert_type(tt.matmul(v, w, transpose_a=True), Tensor[float32, L[10]])  # a 1-D operand: no dims to swap


def batches(b: Tensor[float32, L[5], L[32], L[784]], one: Tensor[float32, L[1], L[784], L[10]], w: Tensor[float32, L[784], L[10]], seven: Tensor[float32, L[7], L[1], L[784], L[10]]) -> None:
    assert_type(b @ w, Tensor[float32, L[5], L[32], L[10]])
    assert_type(b @ one, Tensor[float32, L[5], L[32], L[10]])
    assert_type(b @ seven, Tensor[float32, L[7], L[5], L[32], L[10]])


def symbolic(x: Tensor[float32, Batch, L[784]], w: Tensor[float32, L[784], N], k: Tensor[float32, N, K], y: Tensor[float32, Batch, K]) -> None:
    assert_type(x @ w, Tensor[float32, Batch, N])
    assert_type(w @ k, Tensor[float32, L[784], K])
    x @ k  # type: ignore[tensor-dim]  # runs only if N is 784: named dims are rigid (rigid_dims.py)
    assert_type(tt.matmul(x, y, transpose_a=True), Tensor[float32, L[784], K])


def runs(x: Tensor[float32, *Ts, L[784]], w: Tensor[float32, L[784], L[10]], z: Tensor[float32, *tuple[Any, ...]]) -> None:
    assert_type(x @ w, Tensor[float32, *Ts, L[10]])  # x may be 1-D: the same answer
    assert_type(z @ w, Tensor[float32, *tuple[Any, ...]])
    assert_type(w @ z, Tensor[float32, *tuple[Any, ...]])


def flags(x: Tensor[float32, L[3], L[4]], square: Tensor[float32, L[3], L[3]], n: Tensor[float32, N, L[3]], flag: bool) -> None:
    assert_type(tt.matmul(square, square, transpose_a=flag), Tensor[float32, L[3], L[3]])
    assert_type(tt.matmul(x, square, transpose_a=flag), Tensor[float32, L[4], L[3]])  # only True can run
    assert_type(tt.matmul(square, n, transpose_b=flag), Tensor[float32, L[3], N])  # only True runs for every N


def dtypes(f32: Tensor[float32, L[2], L[2]], f64: Tensor[float64, L[2], L[2]], i64: Tensor[tt.int64, L[2], L[2]], u64: Tensor[tt.uint64, L[2], L[2]], b: Tensor[tt.bool_, L[2], L[2]], i8: Tensor[tt.int8, L[2], L[2]], u8: Tensor[tt.uint8, L[2], L[2]]) -> None:
    assert_type(f32 @ f64, Tensor[float64, L[2], L[2]])
    assert_type(i64 @ u64, Tensor[float64, L[2], L[2]])
    assert_type(i8 @ u8, Tensor[tt.int16, L[2], L[2]])
    assert_type(b @ b, Tensor[tt.bool_, L[2], L[2]])
    assert_type(i64 @ f32, Tensor[float64, L[2], L[2]])


def categories(x: Tensor[tt.floating, L[2], L[3]], y: Tensor[float32, L[3], L[4]], i: Tensor[tt.integer, L[3], L[3]]) -> None:
    assert_type(x @ y, Tensor[tt.floating, L[2], L[4]])
    assert_type(i @ i, Tensor[tt.number, L[3], L[3]])  # int64 @ uint64 is float64


DT = TypeVar("DT", bound=tt.generic)


def generic_dtype(x: Tensor[DT, L[2], L[3]], y: Tensor[DT, L[3], L[4]]) -> None:
    assert_type(x @ y, Tensor[Any, L[2], L[4]])  # DT may be a category whose members promote out of it


def errors(x: Tensor[float32, L[32], L[784]], wt: Tensor[float32, L[10], L[784]], b: Tensor[float32, L[2], L[3], L[4]], c: Tensor[float32, L[5], L[4], L[6]], s: Tensor[float32]) -> None:
    x @ wt  # type: ignore[tensor-matmul]
    tt.matmul(x, wt)  # type: ignore[tensor-matmul]
    tt.matmul(x, wt, transpose_a=True)  # type: ignore[tensor-matmul]
    tt.matmul(x, wt, transpose_a=True, transpose_b=True)  # type: ignore[tensor-matmul]
    b @ c  # type: ignore[tensor-matmul]
    s @ x  # type: ignore[tensor-matmul]
    bad: Tensor[float32, L[3]] = x @ wt  # type: ignore[tensor-matmul]
    also_bad: Tensor[float32, L[3]] = tt.matmul(x, wt)  # type: ignore[tensor-matmul]
    assert_type(tt.matmul(x, wt, transpose_b=True), Tensor[float32, L[32], L[10]])
