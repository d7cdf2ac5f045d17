"""sort/argsort/top_k and typedtensor.linalg: exact shapes, square and size checks, k beyond an axis."""

from typing import Any, Final, Literal as L, TypeVar, TypeVarTuple, assert_type

import typedtensor as tt
from typedtensor import Dim, Tensor, float32, float64, int64

Ts = TypeVarTuple("Ts")
F = TypeVar("F", bound=tt.floating)
K: Final = 3


class Batch(Dim): ...


class Rows(Dim): ...


def sorting(x: Tensor[float32, L[3], L[4]], b: Tensor[tt.int8, Batch, L[10]], r: Tensor[float32, L[2], *Ts, L[5]], k: int, axis: int) -> None:
    assert_type(tt.sort(x), Tensor[float32, L[3], L[4]])
    assert_type(tt.sort(b, axis=0, descending=True), Tensor[tt.int8, Batch, L[10]])
    assert_type(tt.argsort(x, 0), Tensor[int64, L[3], L[4]])
    assert_type(tt.argsort(r, axis=axis), Tensor[int64, L[2], *Ts, L[5]])
    assert_type(tt.top_k(x, 2), tuple[Tensor[float32, L[3], L[2]], Tensor[int64, L[3], L[2]]])
    assert_type(tt.top_k(x, K, axis=0), tuple[Tensor[float32, L[3], L[4]], Tensor[int64, L[3], L[4]]])
    assert_type(tt.top_k(b, 5)[1], Tensor[int64, Batch, L[5]])
    assert_type(tt.top_k(b, 5, axis=0)[0], Tensor[tt.int8, L[5], L[10]])  # a named axis: the run checks k
    assert_type(tt.top_k(r, 4)[0], Tensor[float32, L[2], *Ts, L[4]])
    assert_type(tt.top_k(r, 1, axis=1)[0], Tensor[float32, L[2], *tuple[Any, ...]])  # the axis is in the run
    assert_type(tt.top_k(x, k)[0], Tensor[float32, L[3], Any])
    values, indices = tt.top_k(x, 0)
    assert_type(indices, Tensor[int64, L[3], L[0]])


def sorting_errors(x: Tensor[float32, L[3], L[4]], scalar: Tensor[float32]) -> None:
    tt.sort(x, axis=2)  # type: ignore[tensor-axis]
    tt.argsort(scalar)  # type: ignore[tensor-axis]
    tt.top_k(x, 5)  # type: ignore[tensor-index]
    tt.top_k(x, 4, axis=0)  # type: ignore[tensor-index]
    tt.top_k(x, -1)  # type: ignore[tensor-index]
    assert_type(tt.top_k(x, 9)[0], Tensor[float32, *tuple[Any, ...]])  # type: ignore[tensor-index]


def square(x: Tensor[float32, L[3], L[3]], s: Tensor[tt.int32, Batch, L[4], L[4]], n: Tensor[float64, Rows, Rows], f: Tensor[F, L[2], L[2]]) -> None:
    assert_type(tt.linalg.inv(x), Tensor[float32, L[3], L[3]])
    assert_type(tt.linalg.inv(s), Tensor[float64, Batch, L[4], L[4]])
    assert_type(tt.linalg.det(s), Tensor[float64, Batch])
    assert_type(tt.linalg.det(x), Tensor[float32])
    assert_type(tt.linalg.cholesky(n), Tensor[float64, Rows, Rows])
    assert_type(tt.linalg.eigh(n), tuple[Tensor[float64, Rows], Tensor[float64, Rows, Rows]])
    assert_type(tt.linalg.eigh(s)[0], Tensor[float64, Batch, L[4]])
    assert_type(tt.linalg.inv(f), Tensor[F, L[2], L[2]])


def square_errors(x: Tensor[float32, L[3], L[4]], v: Tensor[float32, L[3]], n: Tensor[float32, Batch, Rows], m: Tensor[float32, Rows, L[3]], c: Tensor[tt.complex64, L[2], L[2]]) -> None:
    tt.linalg.inv(x)  # type: ignore[tensor-shape]
    tt.linalg.det(v)  # type: ignore[tensor-shape]
    tt.linalg.eigh(n)  # type: ignore[tensor-dim]
    tt.linalg.cholesky(m)  # type: ignore[tensor-dim]
    tt.linalg.inv(c)  # type: ignore[tensor-dtype]


def decompositions(x: Tensor[float32, L[5], L[3]], b: Tensor[float64, Batch, L[2], L[6]], n: Tensor[float32, Rows, L[3]], s: Tensor[float32, Rows, Rows], flag: bool) -> None:
    assert_type(tt.linalg.svd(x), tuple[Tensor[float32, L[5], L[3]], Tensor[float32, L[3]], Tensor[float32, L[3], L[3]]])
    assert_type(tt.linalg.svd(x, full_matrices=True)[0], Tensor[float32, L[5], L[5]])
    assert_type(tt.linalg.svd(b)[2], Tensor[float64, Batch, L[2], L[6]])
    assert_type(tt.linalg.svd(n)[1], Tensor[float32, Any])  # min(Rows, 3) is not known
    assert_type(tt.linalg.svd(s)[1], Tensor[float32, Rows])
    assert_type(tt.linalg.svd(x, full_matrices=flag)[0], Tensor[float32, L[5], Any])
    assert_type(tt.linalg.qr(x), tuple[Tensor[float32, L[5], L[3]], Tensor[float32, L[3], L[3]]])
    assert_type(tt.linalg.qr(b)[0], Tensor[float64, Batch, L[2], L[2]])
    tt.linalg.qr(x[0])  # type: ignore[tensor-shape]


def solving(a: Tensor[float32, L[4], L[3], L[3]], b: Tensor[float32, L[3]], m: Tensor[float64, L[3], L[2]], n: Tensor[float32, Rows, Rows], nb: Tensor[float32, Rows]) -> None:
    assert_type(tt.linalg.solve(a, b), Tensor[float32, L[4], L[3]])
    assert_type(tt.linalg.solve(a, m), Tensor[float64, L[4], L[3], L[2]])
    assert_type(tt.linalg.solve(n, nb), Tensor[float32, Rows])
    tt.linalg.solve(a, nb)  # type: ignore[tensor-dim]
    tt.linalg.solve(a, m[:2])  # type: ignore[tensor-shape]
    tt.linalg.solve(a, tt.zeros((2, 3, 1)))  # type: ignore[tensor-broadcast]


def norms(x: Tensor[float32, L[3], L[4]], i: Tensor[tt.int16, Batch, L[4]]) -> None:
    assert_type(tt.linalg.norm(x), Tensor[float32])
    assert_type(tt.linalg.norm(x, axis=-1), Tensor[float32, L[3]])
    assert_type(tt.linalg.norm(i, axis=1, keepdims=True), Tensor[float64, Batch, L[1]])
    assert_type(tt.linalg.norm(x, axis="v^"), Tensor[float32, L[3]])
    tt.linalg.norm(x, axis=2)  # type: ignore[tensor-axis]
