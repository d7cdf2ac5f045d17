"""swapaxes, moveaxis, flatten, split, pad, tril/triu, one_hot, and the creation functions of a count or a shape."""

from typing import Any, Literal as L, TypeVar, TypeVarTuple, assert_type

import typedtensor as tt
from typedtensor import Add, Dim, Div, Mul, Tensor, float32, float64, int8, int64

Ts = TypeVarTuple("Ts")
N = TypeVar("N")


class Batch(Dim): ...


def move(x: Tensor[float32, Batch, L[6], L[4]], r: Tensor[float32, L[2], *Ts, L[3]], n: Tensor[float32, N, L[4]]) -> None:
    assert_type(tt.swapaxes(x, 0, -1), Tensor[float32, L[4], L[6], Batch])
    assert_type(tt.swapaxes(n, 0, 1), Tensor[float32, L[4], N])
    assert_type(tt.swapaxes(r, 0, -1), Tensor[float32, L[3], *Ts, L[2]])
    assert_type(tt.moveaxis(x, 0, -1), Tensor[float32, L[6], L[4], Batch])
    assert_type(tt.moveaxis(x, (0, 1), (-1, 0)), Tensor[float32, L[6], L[4], Batch])
    assert_type(tt.moveaxis(x, [2], [0]), Tensor[float32, L[4], Batch, L[6]])
    assert_type(tt.moveaxis(r, 0, -1), Tensor[float32, *tuple[Any, ...]])  # where it lands depends on the rank


def move_errors(x: Tensor[float32, Batch, L[6], L[4]]) -> None:
    tt.swapaxes(x, 0, 3)  # type: ignore[tensor-axis]
    tt.moveaxis(x, (0, 0), (1, 2))  # type: ignore[tensor-axis]
    tt.moveaxis(x, (0, 1), 2)  # type: ignore[tensor-axis]


def flatten(x: Tensor[float32, Batch, L[6], L[4]], r: Tensor[float32, L[2], *Ts, L[3]], s: Tensor[float32]) -> None:
    assert_type(tt.flatten(x), Tensor[float32, Mul[L[24], Batch]])
    assert_type(tt.flatten(x, 1), Tensor[float32, Batch, L[24]])
    assert_type(tt.flatten(x, 0, 1), Tensor[float32, Mul[L[6], Batch], L[4]])
    assert_type(tt.flatten(r), Tensor[float32, Any])  # the run merged too
    assert_type(tt.flatten(tt.squeeze(r[:1], 0)), Tensor[float32, Any])  # [*Ts, 3]: one dim, whatever Ts holds
    assert_type(tt.flatten(s), Tensor[float32, L[1]])
    tt.flatten(x, 2, 1)  # type: ignore[tensor-axis]


def split(x: Tensor[float32, Batch, L[6], L[4]], n: Tensor[float32, N, L[4]], sizes: tuple[int, ...]) -> None:
    assert_type(tt.split(x, 2), tuple[Tensor[float32, Div[Batch, L[2]], L[6], L[4]], Tensor[float32, Div[Batch, L[2]], L[6], L[4]]])
    assert_type(tt.split(x, 3, axis=1), tuple[Tensor[float32, Batch, L[2], L[4]], Tensor[float32, Batch, L[2], L[4]], Tensor[float32, Batch, L[2], L[4]]])
    assert_type(tt.split(x, (1, 5), axis=1), tuple[Tensor[float32, Batch, L[1], L[4]], Tensor[float32, Batch, L[5], L[4]]])
    assert_type(tt.split(tt.concat([n, n]), 2), tuple[Tensor[float32, N, L[4]], Tensor[float32, N, L[4]]])  # 2*N // 2 is N
    assert_type(tt.split(x, sizes, axis=1), tuple[Tensor[float32, *tuple[Any, ...]], ...])
    tt.split(x, 4, axis=1)  # type: ignore[tensor-shape]
    tt.split(x, (2, 3), axis=1)  # type: ignore[tensor-shape]
    tt.split(x, 0)  # type: ignore[tensor-shape]
    tt.split(x, (1, 2))  # type: ignore[tensor-dim]  # sizes summing to 3 fit only one size of Batch


def pad(x: Tensor[float32, Batch, L[6]], r: Tensor[float32, L[2], *Ts], width: int) -> None:
    assert_type(tt.pad(x, 1), Tensor[float32, Add[Batch, L[2]], L[8]])
    assert_type(tt.pad(x, (0, 3)), Tensor[float32, Add[Batch, L[3]], L[9]])
    assert_type(tt.pad(x, ((0, 0), (1, 2))), Tensor[float32, Batch, L[9]])
    assert_type(tt.pad(x, width), Tensor[float32, Any, Any])
    assert_type(tt.pad(r, 1), Tensor[float32, L[4], *tuple[Any, ...]])
    tt.pad(x, ((1, 1), (1, 1), (1, 1)))  # type: ignore[tensor-shape]
    tt.pad(x, -1)  # type: ignore[tensor-shape]


def triangles(x: Tensor[float32, Batch, L[3], L[3]], v: Tensor[float32, L[3]]) -> None:
    assert_type(tt.tril(x), Tensor[float32, Batch, L[3], L[3]])
    assert_type(tt.triu(x, 1), Tensor[float32, Batch, L[3], L[3]])
    tt.tril(v)  # type: ignore[tensor-shape]


def one_hot(labels: Tensor[int64, Batch], x: Tensor[float32, Batch, L[3]]) -> None:
    assert_type(tt.one_hot(labels, 10), Tensor[float32, Batch, L[10]])
    assert_type(tt.one_hot(labels, 10, tt.int8), Tensor[int8, Batch, L[10]])
    assert_type(tt.one_hot(labels, x.shape[0]), Tensor[float32, Batch, Batch])
    tt.one_hot(x, 3)  # type: ignore[tensor-dtype]
    tt.one_hot(labels, -1)  # type: ignore[tensor-shape]


def creation(x: Tensor[float32, Batch, L[3]], count: int) -> None:
    assert_type(tt.zeros_like(x), Tensor[float32, Batch, L[3]])
    assert_type(tt.ones_like(x, tt.int64), Tensor[int64, Batch, L[3]])
    assert_type(tt.full_like(x, 2.5), Tensor[float32, Batch, L[3]])
    assert_type(tt.linspace(0.0, 1.0, 5), Tensor[float64, L[5]])
    assert_type(tt.linspace(0.0, 1.0, count), Tensor[float64, Any])
    assert_type(tt.random.permutation(10), Tensor[int64, L[10]])
    assert_type(tt.random.permutation(x.shape[0], rng=0), Tensor[int64, Batch])
    assert_type(tt.random.integers(0, 5, (2, x.shape[0])), Tensor[int64, L[2], Batch])
    tt.linspace(0.0, 1.0, -1)  # type: ignore[tensor-shape]
    tt.random.permutation(-2)  # type: ignore[tensor-shape]
