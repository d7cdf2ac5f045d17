# pyright: reportUnnecessaryTypeIgnoreComment=true
"""The declared types of the statistics, the scans, the element reads and ``.at``, with no plugin
(pyright and plain mypy).

The statistics have the reductions' generated overloads: exact dims for a float tensor and a
literal axis, the dtype for every dtype with ``axis=None``, unknown dims elsewhere. The scans keep
the shape and give ``sum``'s dtype; ``item()`` gives the Python scalar of the dtype's kind; ``.at``
updates keep the tensor's type.
"""

from typing import Any, Literal as L, TypeVarTuple, assert_type

import typedtensor as tt
from typedtensor import Dim, Tensor

Ts = TypeVarTuple("Ts")


class Batch(Dim): ...


def statistics(x: Tensor[tt.float32, L[3], L[4]], b: Tensor[tt.float64, Batch, L[8]], i: Tensor[tt.int16, L[2], L[5]], c: Tensor[tt.complex64, L[2]]) -> None:
    assert_type(tt.var(x), Tensor[tt.float32])
    assert_type(tt.var(x, axis=1), Tensor[tt.float32, L[3]])
    assert_type(tt.std(x, axis=0, keepdims=True, ddof=1), Tensor[tt.float32, L[1], L[4]])
    assert_type(tt.var(x, axis="v^"), Tensor[tt.float32, L[3]])
    assert_type(x.std(-1), Tensor[tt.float32, L[3]])
    assert_type(b.var(axis=(0, 1)), Tensor[tt.float64])
    assert_type(tt.var(i), Tensor[tt.float64])
    assert_type(tt.var(i, axis=0), Tensor[tt.float64, *tuple[Any, ...]])
    assert_type(tt.std(c), Tensor[tt.float32])
    assert_type(tt.nansum(x, axis=0), Tensor[tt.float32, L[4]])
    assert_type(tt.nansum(i), Tensor[tt.int64])
    assert_type(tt.nanmean(i), Tensor[tt.float64])
    assert_type(tt.nanmax(b, axis=-1), Tensor[tt.float64, Batch])
    assert_type(tt.nanmin(i), Tensor[tt.int16])
    tt.var("x")  # type: ignore[call-overload]


def scans(x: Tensor[tt.float32, L[3], Batch], i: Tensor[tt.int8, *Ts], u: Tensor[tt.uint32, L[4]]) -> None:
    assert_type(tt.cumsum(x, 1), Tensor[tt.float32, L[3], Batch])
    assert_type(tt.cumprod(x, axis=0), Tensor[tt.float32, L[3], Batch])
    assert_type(tt.cumsum(i, 0), Tensor[tt.int64, *Ts])
    assert_type(tt.cumprod(u, -1), Tensor[tt.uint64, L[4]])


def element_reads(x: Tensor[tt.float32, L[1]], i: Tensor[tt.int64], f: Tensor[tt.bool_, L[1], L[1]], c: Tensor[tt.complex128], g: Tensor[tt.generic, L[1]]) -> None:
    assert_type(x.item(), float)
    assert_type(i.item(), int)
    assert_type(f.item(), bool)
    assert_type(c.item(), complex)
    assert_type(g.item(), Any)
    assert_type(float(x), float)
    assert_type(int(i), int)
    assert_type(bool(f), bool)


def updates(x: Tensor[tt.float32, L[3], Batch], v: Tensor[tt.float32, Batch]) -> None:
    assert_type(x.at[0].set(v), Tensor[tt.float32, L[3], Batch])
    assert_type(x.at[1:, 0].add(1.0), Tensor[tt.float32, L[3], Batch])
    x.at[0].set("1")  # type: ignore[arg-type]
