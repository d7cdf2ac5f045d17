"""Ops along one axis: argmax/argmin, softmax/log_softmax, logsumexp, take, take_along_axis."""

from typing import Any, Final, Literal as L, TypeVar, TypeVarTuple, assert_type

import typedtensor as tt
from typedtensor import Dim, Tensor, float32, int64

Ts = TypeVarTuple("Ts")
N = TypeVar("N")
LAST: Final = -1
KEEP: Final = True


class Batch(Dim): ...


def arg_extremes(x: Tensor[float32, L[3], L[4]], b: Tensor[tt.int8, Batch, L[10]], r: Tensor[float32, L[2], *Ts, L[5]], k: int, flag: bool) -> None:
    assert_type(tt.argmax(x), Tensor[int64, L[3]])
    assert_type(tt.argmax(x, axis=0), Tensor[int64, L[4]])
    assert_type(tt.argmin(x, 0, True), Tensor[int64, L[1], L[4]])
    assert_type(tt.argmax(x, axis=LAST, keepdims=KEEP), Tensor[int64, L[3], L[1]])
    assert_type(tt.argmin(b, axis=-1), Tensor[int64, Batch])
    assert_type(tt.argmax(r), Tensor[int64, L[2], *Ts])
    assert_type(tt.argmax(r, axis=0), Tensor[int64, *Ts, L[5]])
    assert_type(tt.argmax(x, axis=k), Tensor[int64, Any])  # one dim fewer, which one is unknown
    assert_type(tt.argmax(x, keepdims=flag), Tensor[int64, *tuple[Any, ...]])


def normalise(x: Tensor[float32, L[3], L[4]], h: Tensor[tt.float16, Batch], f: Tensor[tt.floating, N, L[2]], r: Tensor[tt.float64, *Ts]) -> None:
    assert_type(tt.softmax(x), Tensor[float32, L[3], L[4]])
    assert_type(tt.softmax(x, axis=0), Tensor[float32, L[3], L[4]])
    assert_type(tt.log_softmax(h), Tensor[tt.float16, Batch])
    assert_type(tt.log_softmax(f, -2), Tensor[tt.floating, N, L[2]])
    assert_type(tt.softmax(r, axis=3), Tensor[tt.float64, *Ts])  # the rank of Ts is unknown: no error


def stable_reduce(x: Tensor[float32, L[3], L[4], L[5]], r: Tensor[tt.float64, L[2], *Ts], k: int) -> None:
    assert_type(tt.logsumexp(x), Tensor[float32])
    assert_type(tt.logsumexp(x, axis=1), Tensor[float32, L[3], L[5]])
    assert_type(tt.logsumexp(x, axis=(0, -1), keepdims=True), Tensor[float32, L[1], L[4], L[1]])
    assert_type(tt.logsumexp(x, axis=[2, 2]), Tensor[float32, L[3], L[4]])
    assert_type(tt.logsumexp(x, axis="^v^"), Tensor[float32, L[4]])
    assert_type(tt.logsumexp(x, axis=()), Tensor[float32, L[3], L[4], L[5]])
    assert_type(tt.logsumexp(x, axis=k), Tensor[float32, Any, Any])
    assert_type(tt.logsumexp(r, axis=0), Tensor[tt.float64, *Ts])


def gathers(x: Tensor[float32, L[3], L[4]], idx: Tensor[int64, L[5]], grid: Tensor[tt.uint16, L[2], L[6]], b: Tensor[tt.int32, Batch, L[4]], k: int) -> None:
    assert_type(tt.take(x, idx, axis=0), Tensor[float32, L[5], L[4]])
    assert_type(tt.take(x, grid, axis=-1), Tensor[float32, L[3], L[2], L[6]])
    assert_type(tt.take(x, idx), Tensor[float32, L[5]])  # no axis: x is flattened
    assert_type(tt.take(x, 2, axis=0), Tensor[float32, L[4]])
    assert_type(tt.take(x, k, axis=1), Tensor[float32, L[3]])
    assert_type(tt.take(x, 11), Tensor[float32])
    assert_type(tt.take(b, idx, axis=1), Tensor[tt.int32, Batch, L[5]])
    assert_type(tt.take(x, idx, axis=k), Tensor[float32, Any, Any])
    picked = tt.argmax(x, axis=1, keepdims=True)
    assert_type(tt.take_along_axis(x, picked, axis=1), Tensor[float32, L[3], L[1]])
    assert_type(tt.take_along_axis(x, tt.argmax(x, axis=0, keepdims=True), axis=0), Tensor[float32, L[1], L[4]])
    assert_type(tt.take_along_axis(b, tt.argmin(b, keepdims=True)), Tensor[tt.int32, Batch, L[1]])
    assert_type(tt.take_along_axis(x, grid[:1, :2]), Tensor[float32, L[3], L[2]])  # 1 broadcasts with 3


def errors(x: Tensor[float32, L[3], L[4]], scalar: Tensor[float32], idx: Tensor[int64, L[5]], wide: Tensor[int64, L[2], L[1]]) -> None:
    tt.argmax(x, axis=2)  # type: ignore[tensor-axis]
    tt.argmin(x, -3, True)  # type: ignore[tensor-axis]
    tt.argmax(scalar)  # type: ignore[tensor-axis]
    tt.softmax(x, axis=2)  # type: ignore[tensor-axis]
    tt.log_softmax(scalar)  # type: ignore[tensor-axis]
    tt.logsumexp(x, axis=(0, 5))  # type: ignore[tensor-axis]
    tt.logsumexp(x, axis="^")  # type: ignore[tensor-selection]
    tt.take(x, idx, axis=2)  # type: ignore[tensor-axis]
    tt.take(x, 3, axis=0)  # type: ignore[tensor-index]
    tt.take(x, -5, axis=-1)  # type: ignore[tensor-index]
    tt.take(x, 12)  # type: ignore[tensor-index]
    tt.take_along_axis(x, idx)  # type: ignore[tensor-shape]
    tt.take_along_axis(x, wide, axis=1)  # type: ignore[tensor-broadcast]
    tt.take_along_axis(x, wide, axis=-3)  # type: ignore[tensor-axis]
    wrong: Tensor[int64, L[9]] = tt.argmax(x, axis=2)  # type: ignore[tensor-axis]
    wrong_too: Tensor[float32, L[9]] = tt.softmax(x, axis=2)  # type: ignore[tensor-axis]
    tt.softmax(tt.zeros((2,), tt.int32))  # type: ignore[type-var]
    tt.logsumexp(tt.zeros((2,), tt.int32))  # type: ignore[type-var]
