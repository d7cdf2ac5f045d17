"""Binary elementwise ops: broadcast shapes, promoted dtypes, Python scalars weak (NEP 50)."""

from typing import Any, Literal as L, TypeVar, TypeVarTuple, assert_type

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
    assert_type(b + five, Tensor[float32, L[5], L[10]])  # Batch must be 1 or 5 for this to run
    assert_type(b + n, Tensor[float32, Any, L[10]])  # Batch and N may be equal: never an error
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
