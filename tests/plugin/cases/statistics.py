"""Statistics (var, std, nansum ...), scans (cumsum, cumprod), element reads and .at updates."""

from typing import Any, Final, Literal as L, TypeVar, TypeVarTuple, assert_type

import typedtensor as tt
from typedtensor import Dim, Tensor, float32, float64, int64

Ts = TypeVarTuple("Ts")
N = TypeVar("N")
LAST: Final = -1


class Batch(Dim): ...


def statistics(x: Tensor[float32, L[3], L[4], L[5]], b: Tensor[tt.float16, Batch, L[8]], i: Tensor[tt.int8, L[2], N], r: Tensor[float64, L[2], *Ts], k: int) -> None:
    assert_type(tt.var(x), Tensor[float32])
    assert_type(tt.var(x, axis=1), Tensor[float32, L[3], L[5]])
    assert_type(tt.std(x, (0, -1), keepdims=True), Tensor[float32, L[1], L[4], L[1]])
    assert_type(tt.var(x, axis=[2, 2], ddof=1), Tensor[float32, L[3], L[4]])
    assert_type(tt.std(x, axis="^v^"), Tensor[float32, L[4]])
    assert_type(tt.var(x, axis=()), Tensor[float32, L[3], L[4], L[5]])
    assert_type(tt.var(x, axis=k), Tensor[float32, Any, Any])
    assert_type(tt.var(r, axis=0), Tensor[float64, *Ts])
    assert_type(x.var(axis=LAST), Tensor[float32, L[3], L[4]])
    assert_type(b.std(axis=0, keepdims=True, ddof=1), Tensor[tt.float16, L[1], L[8]])
    assert_type(tt.var(i, axis=-1), Tensor[float64, L[2]])
    assert_type(i.std(), Tensor[float64])
    assert_type(tt.var(tt.zeros((2, 3), tt.complex64), axis=0), Tensor[float32, L[3]])
    assert_type(tt.nansum(i, axis=0), Tensor[int64, N])
    assert_type(tt.nansum(x, axis="v^v"), Tensor[float32, L[3], L[5]])
    assert_type(tt.nanmean(i, axis=1, keepdims=True), Tensor[float64, L[2], L[1]])
    assert_type(tt.nanmax(b, axis=-1), Tensor[tt.float16, Batch])
    assert_type(tt.nanmin(i), Tensor[tt.int8])
    tt.var(x, axis=3)  # type: ignore[tensor-axis]
    x.std(axis=(0, -4))  # type: ignore[tensor-axis]
    tt.nanmean(x, axis="^^")  # type: ignore[tensor-selection]
    tt.nanmax(b, 2, True)  # type: ignore[tensor-axis]
    tt.var(x, axis=True)  # type: ignore[arg-type]  # a bool is no axis, as the runtime says
    tt.nansum(x, (0, k, 9))  # type: ignore[tensor-axis]  # the known axis out of range is reported beside an unknown one


def scans(x: Tensor[float32, L[3], Batch], i: Tensor[tt.int16, N], u: Tensor[tt.uint8, L[4]], r: Tensor[tt.bool_, *Ts]) -> None:
    assert_type(tt.cumsum(x, 1), Tensor[float32, L[3], Batch])
    assert_type(tt.cumprod(x, axis=-2), Tensor[float32, L[3], Batch])
    assert_type(tt.cumsum(i, 0), Tensor[int64, N])
    assert_type(tt.cumprod(u, 0), Tensor[tt.uint64, L[4]])
    assert_type(tt.cumsum(r, axis=5), Tensor[int64, *Ts])  # the rank of Ts is unknown: no error
    tt.cumsum(x, 2)  # type: ignore[tensor-axis]
    tt.cumprod(i, axis=-2)  # type: ignore[tensor-axis]


def element_reads(one: Tensor[float32, L[1], L[1]], s: Tensor[int64], n: Tensor[tt.bool_, N], b: Tensor[float32, Batch], x: Tensor[float32, L[3], Batch], c: Tensor[tt.complex64, L[1]]) -> None:
    assert_type(one.item(), float)
    assert_type(s.item(), int)
    assert_type(n[0].item(), bool)
    assert_type(c.item(), complex)
    assert_type(float(b.sum()), float)
    assert_type(int(s), int)
    assert_type(bool(one), bool)
    x.item()  # type: ignore[tensor-shape]
    float(x)  # type: ignore[tensor-shape]
    int(x[:, 0])  # type: ignore[tensor-shape]
    float(b)  # type: ignore[tensor-dim]  # runs only where Batch is 1
    n.item()  # type: ignore[tensor-dim]
    bool(tt.zeros((0,)))  # type: ignore[tensor-shape]


def updates(x: Tensor[float32, L[3], Batch], v: Tensor[float32, Batch]) -> None:
    assert_type(x.at[0].set(v), Tensor[float32, L[3], Batch])
    assert_type(x.at[1:, 0].add(1.0), Tensor[float32, L[3], Batch])
    assert_type(x.at[x > 0].set(0.0), Tensor[float32, L[3], Batch])
