"""reshape, transpose and .T, expand_dims, squeeze, concat, stack, tile, broadcast_to."""

from typing import Any, Final, Literal as L, TypeVar, TypeVarTuple, assert_type

import numpy as np

import typedtensor as tt
from typedtensor import Add, Dim, Mul, Tensor, float32, float64

Ts = TypeVarTuple("Ts")
N = TypeVar("N")
ROWS: Final = 4


class Batch(Dim): ...


def reshape(x: Tensor[float32, L[6], L[4]], images: Tensor[float32, Batch, L[28], L[28]], n: Tensor[float32, N, L[6]], size: int) -> None:
    assert_type(x.reshape((24,)), Tensor[float32, L[24]])
    assert_type(tt.reshape(x, (-1, 8)), Tensor[float32, L[3], L[8]])
    assert_type(tt.reshape(x, [2, -1, 3]), Tensor[float32, L[2], L[4], L[3]])
    assert_type(x.reshape(-1), Tensor[float32, L[24]])
    assert_type(x.reshape((ROWS, -1)), Tensor[float32, L[4], L[6]])
    assert_type(images.reshape((images.shape[0], -1)), Tensor[float32, Batch, L[784]])
    assert_type(tt.reshape(images, (-1, 784)), Tensor[float32, Batch, L[784]])
    assert_type(tt.reshape(images, (-1, 28)), Tensor[float32, Mul[L[28], Batch], L[28]])  # Batch * 28 (SPEC §9)
    assert_type(n.reshape((n.shape[0], 2, -1)), Tensor[float32, N, L[2], L[3]])
    assert_type(x.reshape((size, -1)), Tensor[float32, Any, Any])
    images.reshape((images.shape[0], 700))  # type: ignore[tensor-dim]  # runs only if Batch is 0: named dims are rigid


def reshape_errors(x: Tensor[float32, L[6], L[4]], zero: Tensor[float32, L[0], L[4]]) -> None:
    x.reshape((5, 5))  # type: ignore[tensor-reshape]
    tt.reshape(x, (-1, 5))  # type: ignore[tensor-reshape]
    tt.reshape(x, (-1, -1))  # type: ignore[tensor-reshape]
    x.reshape((-2, 12))  # type: ignore[tensor-reshape]
    zero.reshape((0, -1))  # type: ignore[tensor-reshape]
    bad: Tensor[float32, L[5]] = x.reshape((5,))  # type: ignore[tensor-reshape]


def transpose(x: Tensor[float32, L[2], L[3]], cube: Tensor[float32, Batch, L[3], L[4]], v: Tensor[float32, L[5]], r: Tensor[float32, L[2], *Ts]) -> None:
    assert_type(x.T, Tensor[float32, L[3], L[2]])
    assert_type(cube.T, Tensor[float32, L[4], L[3], Batch])
    assert_type(v.T, Tensor[float32, L[5]])
    assert_type(tt.transpose(x), Tensor[float32, L[3], L[2]])
    assert_type(tt.transpose(cube, (2, 0, 1)), Tensor[float32, L[4], Batch, L[3]])
    assert_type(tt.transpose(cube, [-1, -3, 1]), Tensor[float32, L[4], Batch, L[3]])
    assert_type(r.T, Tensor[float32, *tuple[Any, ...], L[2]])


def transpose_errors(x: Tensor[float32, L[2], L[3]]) -> None:
    tt.transpose(x, (0, 2))  # type: ignore[tensor-axis]
    tt.transpose(x, (1, -1))  # type: ignore[tensor-axis]
    tt.transpose(x, (0,))  # type: ignore[tensor-axis]


def expand_and_squeeze(x: Tensor[float32, L[2], L[3]], ones: Tensor[float32, L[1], L[3], L[1]], named: Tensor[float32, L[1], Batch, L[3]], r: Tensor[float32, *Ts, L[1]]) -> None:
    assert_type(tt.expand_dims(x, 0), Tensor[float32, L[1], L[2], L[3]])
    assert_type(tt.expand_dims(x, 1), Tensor[float32, L[2], L[1], L[3]])
    assert_type(tt.expand_dims(x, -1), Tensor[float32, L[2], L[3], L[1]])
    assert_type(tt.expand_dims(r, -2), Tensor[float32, *Ts, L[1], L[1]])
    assert_type(tt.squeeze(ones), Tensor[float32, L[3]])
    assert_type(tt.squeeze(ones, 0), Tensor[float32, L[3], L[1]])
    assert_type(tt.squeeze(ones, (0, -1)), Tensor[float32, L[3]])
    assert_type(tt.squeeze(ones, "^vv"), Tensor[float32, L[3], L[1]])
    assert_type(tt.squeeze(named), Tensor[float32, *tuple[Any, ...], L[3]])  # Batch may be 1
    assert_type(tt.squeeze(named, 0), Tensor[float32, Batch, L[3]])
    assert_type(tt.squeeze(r, -1), Tensor[float32, *Ts])


def expand_and_squeeze_errors(x: Tensor[float32, L[2], L[3]]) -> None:
    tt.expand_dims(x, 3)  # type: ignore[tensor-axis]
    tt.squeeze(x, 0)  # type: ignore[tensor-shape]
    tt.squeeze(x, (0, 1))  # type: ignore[tensor-shape]
    tt.squeeze(x, 2)  # type: ignore[tensor-axis]
    bad: Tensor[float32, L[3]] = tt.squeeze(x, 0)  # type: ignore[tensor-shape]


def joins(a: Tensor[float32, Batch, L[3]], b: Tensor[float32, Batch, L[5]], c: Tensor[float64, L[2], L[3]], many: list[Tensor[float32, Batch, L[3]]]) -> None:
    assert_type(tt.concat((a, b), axis=1), Tensor[float32, Batch, L[8]])
    assert_type(tt.concat([a, b], axis=-1), Tensor[float32, Batch, L[8]])
    assert_type(tt.concat((a, c)), Tensor[float64, Add[Batch, L[2]], L[3]])
    assert_type(tt.concat((c, c)), Tensor[float64, L[4], L[3]])
    assert_type(tt.concat(many, axis=0), Tensor[float32, Any, L[3]])
    assert_type(tt.concat(many, axis=1), Tensor[float32, Batch, Any])
    assert_type(tt.stack((a, a)), Tensor[float32, L[2], Batch, L[3]])
    assert_type(tt.stack([a, a, a], axis=-1), Tensor[float32, Batch, L[3], L[3]])
    tt.stack((a, c), axis=1)  # type: ignore[tensor-dim]  # runs only if Batch is 2: named dims are rigid
    assert_type(tt.stack(many), Tensor[float32, Any, Batch, L[3]])


def join_errors(a: Tensor[float32, Batch, L[3]], b: Tensor[float32, Batch, L[5]], v: Tensor[float32, L[3]]) -> None:
    tt.concat((a, b))  # type: ignore[tensor-shape]
    tt.concat([a, v])  # type: ignore[tensor-shape]
    tt.stack((a, b))  # type: ignore[tensor-shape]
    tt.concat((a, a), axis=2)  # type: ignore[tensor-axis]
    tt.stack((a, a), axis=3)  # type: ignore[tensor-axis]
    tt.stack(())  # type: ignore[tensor-shape]
    bad: Tensor[float32, L[1]] = tt.concat((a, b))  # type: ignore[tensor-shape]


def repeats(x: Tensor[float32, L[2], L[3]], b: Tensor[float32, Batch, L[1]], v: Tensor[float32, L[3]]) -> None:
    assert_type(tt.tile(x, (2, 2)), Tensor[float32, L[4], L[6]])
    assert_type(tt.tile(x, 2), Tensor[float32, L[2], L[6]])
    assert_type(tt.tile(x, (3, 1, 1)), Tensor[float32, L[3], L[2], L[3]])
    assert_type(tt.tile(b, (1, 4)), Tensor[float32, Batch, L[4]])
    assert_type(tt.broadcast_to(v, (4, 3)), Tensor[float32, L[4], L[3]])
    assert_type(tt.broadcast_to(b, (b.shape[0], 5)), Tensor[float32, Batch, L[5]])
    assert_type(tt.broadcast_to(v, (b.shape[0], 3)), Tensor[float32, Batch, L[3]])
    assert_type(tt.broadcast_to(v, [4, 3]), Tensor[float32, L[4], L[3]])  # a list or an int runs too
    assert_type(tt.broadcast_to(v, 3), Tensor[float32, L[3]])


def repeat_errors(x: Tensor[float32, L[2], L[3]], v: Tensor[float32, L[3]]) -> None:
    tt.tile(x, (2, -1))  # type: ignore[tensor-shape]
    tt.broadcast_to(v, (4, 5))  # type: ignore[tensor-broadcast]
    tt.broadcast_to(x, (3,))  # type: ignore[tensor-broadcast]
    tt.broadcast_to(v, (3, -1))  # type: ignore[tensor-broadcast]
    tt.broadcast_to(v, [4, 5])  # type: ignore[tensor-broadcast]


SHAPE: Final = (4, -1)
AXIS: Final = 1


class Pair(Tensor[float32, L[2], L[3]]): ...


def final_names_keywords_and_subclasses(x: Tensor[float32, L[6], L[4]], p: Pair) -> None:
    assert_type(x.reshape(SHAPE), Tensor[float32, L[4], L[6]])
    assert_type(tt.reshape(x, shape=(2, 12)), Tensor[float32, L[2], L[12]])
    assert_type(tt.expand_dims(x, AXIS), Tensor[float32, L[6], L[1], L[4]])
    assert_type(tt.concat(tensors=[p, p], axis=AXIS), Tensor[float32, L[2], L[6]])
    assert_type(p.T, Tensor[float32, L[3], L[2]])
    assert_type(p @ p.T, Tensor[float32, L[2], L[2]])
    assert_type(p.reshape((3, 2)), Tensor[float32, L[3], L[2]])


def numpy_integers(x: Tensor[float32, L[2], L[3]], n: np.int64) -> None:
    """A numpy integer is an int wherever the runtime takes one (an unknown one, statically)."""
    assert_type(x.reshape(np.int64(6)), Tensor[float32, Any])
    assert_type(tt.tile(x, n), Tensor[float32, L[2], Any])
    assert_type(tt.argmax(x, n), Tensor[tt.int64, Any])
    assert_type(tt.softmax(x, n), Tensor[float32, L[2], L[3]])
    assert_type(tt.concat([x, x], axis=n), Tensor[float32, *tuple[Any, ...]])
    assert_type(tt.stack([x, x], axis=n), Tensor[float32, *tuple[Any, ...]])
    assert_type(tt.transpose(x, (n, 0)), Tensor[float32, Any, L[2]])
    assert_type(tt.arange(np.int64(3)), Tensor[tt.int64, Any])
    assert_type(tt.eye(n), Tensor[float32, Any, Any])
    assert_type(tt.full((2,), np.float32(1.5), tt.float32), Tensor[float32, L[2]])


def unions(u: Tensor[float32, L[2]] | Tensor[float32, L[3]]) -> None:
    """A union of tensors runs through every op: its shape is unknown, never an error."""
    assert_type(tt.softmax(u), Tensor[float32, *tuple[Any, ...]])
    assert_type(tt.log_softmax(u), Tensor[float32, *tuple[Any, ...]])
    assert_type(tt.reshape(u, (-1, 1)), Tensor[float32, *tuple[Any, ...]])
    assert_type(tt.tile(u, 2), Tensor[float32, *tuple[Any, ...]])
    assert_type(u.reshape(-1), Tensor[float32, L[2]] | Tensor[float32, L[3]])  # a method: per item
