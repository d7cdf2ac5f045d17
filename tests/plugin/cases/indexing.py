"""Indexing ``x[...]``: ints drop dims, literal slices of literal dims have literal lengths, ``None``
adds ``Literal[1]``, ``...`` stands for the dims no other item takes, index tensors gather or mask."""

from typing import Any, Final, Literal as L, TypeVar, TypeVarTuple, assert_type

import typedtensor as tt
from typedtensor import Dim, Sub, Tensor, float32

Ts = TypeVarTuple("Ts")
N = TypeVar("N")
ROW: Final = 2
STOP: Final = -1


class Batch(Dim): ...


def ints_and_slices(x: Tensor[float32, L[3], L[4]], n: int) -> None:
    assert_type(x[0], Tensor[float32, L[4]])
    assert_type(x[-3], Tensor[float32, L[4]])
    assert_type(x[ROW], Tensor[float32, L[4]])
    assert_type(x[n], Tensor[float32, L[4]])  # an int of unknown value still drops the dim
    assert_type(x[1, 2], Tensor[float32])
    assert_type(x[-1, 1:3], Tensor[float32, L[2]])
    assert_type(x[:, ::2], Tensor[float32, L[3], L[2]])
    assert_type(x[::-1], Tensor[float32, L[3], L[4]])
    assert_type(x[1:], Tensor[float32, L[2], L[4]])
    assert_type(x[:STOP], Tensor[float32, L[2], L[4]])
    assert_type(x[5:], Tensor[float32, L[0], L[4]])  # slices clip, as numpy's do
    assert_type(x[-100:100], Tensor[float32, L[3], L[4]])
    assert_type(x[3:0:-1, 1], Tensor[float32, L[2]])
    assert_type(x[n:], Tensor[float32, Any, L[4]])
    assert_type(x[:n:2], Tensor[float32, Any, L[4]])


def new_axes_and_ellipses(x: Tensor[float32, L[3], L[4]]) -> None:
    assert_type(x[None], Tensor[float32, L[1], L[3], L[4]])
    assert_type(x[...], Tensor[float32, L[3], L[4]])
    assert_type(x[..., None], Tensor[float32, L[3], L[4], L[1]])
    assert_type(x[None, ..., ::-1], Tensor[float32, L[1], L[3], L[4]])
    assert_type(x[..., 0], Tensor[float32, L[3]])
    assert_type(x[0, ..., 0], Tensor[float32])
    assert_type(x[:, None, 1], Tensor[float32, L[3], L[1]])
    assert_type(x[()], Tensor[float32, L[3], L[4]])


def named_and_generic(b: Tensor[float32, Batch, L[4]], g: Tensor[float32, N, N]) -> None:
    assert_type(b[0], Tensor[float32, L[4]])
    assert_type(b[:], Tensor[float32, Batch, L[4]])  # a full slice keeps the dim itself
    assert_type(b[::-1, 1:], Tensor[float32, Batch, L[3]])
    assert_type(b[2:], Tensor[float32, Sub[Batch, L[2]], L[4]])  # a slice of a named dim (SPEC §9)
    assert_type(b[:2], Tensor[float32, Any, L[4]])  # min(Batch, 2): unknown
    assert_type(b[:, 7:], Tensor[float32, Batch, L[0]])
    assert_type(g[0], Tensor[float32, N])
    assert_type(g[None, :, 5], Tensor[float32, L[1], N])  # no size to check 5 against
    assert_type(b[b.shape[0] - 1], Tensor[float32, L[4]])


def runs(r: Tensor[float32, L[2], *Ts, L[5]], u: Tensor[float32, *tuple[Any, ...]]) -> None:
    assert_type(r[0], Tensor[float32, *Ts, L[5]])
    assert_type(r[..., 0], Tensor[float32, L[2], *Ts])
    assert_type(r[1, ..., 4], Tensor[float32, *Ts])
    assert_type(r[None, :1, ..., None], Tensor[float32, L[1], L[1], *Ts, L[5], L[1]])
    assert_type(r[0, 1], Tensor[float32, *tuple[Any, ...]])  # the 1 may land in Ts or on the 5
    assert_type(r[..., 0, 0], Tensor[float32, *tuple[Any, ...]])
    assert_type(r[0, 0, ..., 0], Tensor[float32, *tuple[Any, ...]])
    assert_type(r[0, 7, ..., 3], Tensor[float32, *tuple[Any, ...]])  # 7 may index a dim of Ts: no error
    assert_type(u[0], Tensor[float32, *tuple[Any, ...]])
    assert_type(u[None, ..., 0], Tensor[float32, L[1], *tuple[Any, ...]])


def index_tensors(
    x: Tensor[float32, L[3], L[4]],
    idx: Tensor[tt.int64, L[5]],
    pairs: Tensor[tt.uint8, L[2], L[2]],
    mask: Tensor[tt.bool_, L[3]],
    full_mask: Tensor[tt.bool_, L[3], L[4]],
    any_int: Tensor[tt.integer, Batch],
) -> None:
    assert_type(x[idx], Tensor[float32, L[5], L[4]])
    assert_type(x[:, pairs], Tensor[float32, L[3], L[2], L[2]])
    assert_type(x[None, ..., any_int], Tensor[float32, L[1], L[3], Batch])
    assert_type(x[mask], Tensor[float32, Any, L[4]])
    assert_type(x[full_mask], Tensor[float32, Any])
    assert_type(x[mask, 0], Tensor[float32, *tuple[Any, ...]])  # two advanced indices: numpy may move them
    assert_type(x[idx, idx], Tensor[float32, *tuple[Any, ...]])
    assert_type(x[0, idx], Tensor[float32, *tuple[Any, ...]])


def index_tensors_of_unknown_type(
    x: Tensor[float32, L[3], Batch, L[4]],
    loaded: Tensor[Any, *tuple[Any, ...]],
    flat: Tensor[Any, L[5]],
    ints: Tensor[tt.int64, *tuple[Any, ...]],
    mask: Tensor[tt.bool_, *tuple[Any, ...]],
) -> None:
    """An index tensor of unknown dtype (a mask or integers) or rank keeps the dims around it."""
    assert_type(x[:, loaded], Tensor[float32, L[3], *tuple[Any, ...]])
    assert_type(x[1:, loaded, ..., None], Tensor[float32, L[2], *tuple[Any, ...], L[1]])
    assert_type(x[loaded], Tensor[float32, *tuple[Any, ...]])
    assert_type(x[flat], Tensor[float32, Any, Batch, L[4]])  # 5 positions, or the True ones of 3
    assert_type(x[:, :, flat], Tensor[float32, L[3], Batch, Any])
    assert_type(x[ints], Tensor[float32, *tuple[Any, ...], Batch, L[4]])
    assert_type(x[None, ints, :, 1:], Tensor[float32, L[1], *tuple[Any, ...], Batch, L[3]])
    assert_type(x[:, mask], Tensor[float32, L[3], *tuple[Any, ...]])
    assert_type(x[loaded, 0], Tensor[float32, *tuple[Any, ...]])  # two advanced indices: numpy may move them
    assert_type(tt.tensor(x)[flat], Tensor[float32, Any, Batch, L[4]])
    x[0, 0, 0, flat]  # type: ignore[tensor-index]


def dtypes_kept(i: Tensor[tt.int8, L[2], L[2]], c: Tensor[tt.complex64, L[2]], f: Tensor[tt.floating, L[2]]) -> None:
    assert_type(i[0], Tensor[tt.int8, L[2]])
    assert_type(c[1:], Tensor[tt.complex64, L[1]])
    assert_type(f[None], Tensor[tt.floating, L[1], L[2]])


def errors(x: Tensor[float32, L[3], L[4]], scalar: Tensor[float32], r: Tensor[float32, L[2], *Ts, L[5]], mask: Tensor[tt.bool_, L[2]]) -> None:
    x[3]  # type: ignore[tensor-index]
    x[-4]  # type: ignore[tensor-index]
    x[0, 4]  # type: ignore[tensor-index]
    x[..., -5]  # type: ignore[tensor-index]
    x[None, :, 9]  # type: ignore[tensor-index]
    x[0, 0, 0]  # type: ignore[tensor-index]
    x[..., 0, 0, None, 0]  # type: ignore[tensor-index]
    x[..., ...]  # type: ignore[tensor-index]
    x[mask]  # type: ignore[tensor-index]
    scalar[0]  # type: ignore[tensor-index]
    r[2]  # type: ignore[tensor-index]
    r[..., 5]  # type: ignore[tensor-index]
    wrong: Tensor[float32, L[7]] = x[3]  # type: ignore[tensor-index]
    x[True]  # type: ignore[index]  # a bool would be read as a mask: refused at run time
    x[0, False]  # type: ignore[index]


def negative_literal_dims(x: Tensor[float32, L[-2], L[3]]) -> None:
    """No tensor has a dim of -2: the plugin reads it as an unknown dim (neither a size nor a
    crash), and ops on it say no more than ``Any``."""
    assert_type(x[0:1], Tensor[float32, Any, L[3]])
    assert_type(x[-1], Tensor[float32, L[3]])
    assert_type(tt.reshape(x, (-1,)), Tensor[float32, Any])
    assert_type(x.sum(axis=1), Tensor[float32, Any])
