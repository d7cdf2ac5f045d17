"""einsum: the result shape from a literal subscript string; letters that disagree; operand counts."""

from typing import Any, Final, Literal as L, TypeVarTuple, assert_type

import typedtensor as tt
from typedtensor import Dim, Tensor, float32, float64

Ts = TypeVarTuple("Ts")
MATMUL: Final = "ij,jk->ik"


class Batch(Dim): ...


class Seq(Dim): ...


def contractions(a: Tensor[float32, L[2], L[3]], b: Tensor[float32, L[3], L[4]], q: Tensor[float32, Batch, Seq, L[8]], k: Tensor[float64, Batch, Seq, L[8]], subscripts: str) -> None:
    assert_type(tt.einsum("ij,jk->ik", a, b), Tensor[float32, L[2], L[4]])
    assert_type(tt.einsum(MATMUL, a, b), Tensor[float32, L[2], L[4]])
    assert_type(tt.einsum("ij,jk", a, b), Tensor[float32, L[2], L[4]])  # implicit: the letters once, sorted
    assert_type(tt.einsum("ba,c", a, b[0]), Tensor[float32, L[3], L[2], L[4]])
    assert_type(tt.einsum("ij->", a), Tensor[float32])
    assert_type(tt.einsum("ij->ji", a), Tensor[float32, L[3], L[2]])
    assert_type(tt.einsum("bsd,btd->bst", q, k), Tensor[float64, Batch, Seq, Seq])  # promoted
    assert_type(tt.einsum("...d,...d->...", q, q), Tensor[float32, Batch, Seq])
    assert_type(tt.einsum("i...->...i", q), Tensor[float32, Seq, L[8], Batch])
    assert_type(tt.einsum("ij,jk", a[:, :1], b), Tensor[float32, L[2], L[4]])  # a size 1 broadcasts, as numpy lets it
    assert_type(tt.einsum(subscripts, a, b), Tensor[float32, *tuple[Any, ...]])


def runs(r: Tensor[float32, L[2], *Ts, L[3]]) -> None:
    assert_type(tt.einsum("i...j->j...i", r), Tensor[float32, L[3], *Ts, L[2]])
    assert_type(tt.einsum("i...j->ij", r), Tensor[float32, L[2], L[3]])  # runs only where Ts is empty


def mistakes(a: Tensor[float32, L[2], L[3]], b: Tensor[float32, L[4], L[5]], q: Tensor[float32, Batch, Seq], s: Tensor[float32, L[3], L[3]]) -> None:
    tt.einsum("ij,jk->ik", a, b)  # type: ignore[tensor-shape]
    tt.einsum("ij,jk->ik", a)  # type: ignore[tensor-shape]
    tt.einsum("ijk", a)  # type: ignore[tensor-shape]
    tt.einsum("ij->ii", a)  # type: ignore[tensor-shape]
    tt.einsum("ij->ik", a)  # type: ignore[tensor-shape]
    tt.einsum("i.j", a)  # type: ignore[tensor-shape]
    tt.einsum("ij,jk->ik", q, a)  # type: ignore[tensor-dim]
    tt.einsum("ii->i", q)  # type: ignore[tensor-dim]
    tt.einsum("ii->i", s)
    assert_type(tt.einsum("ij,jk->ik", a, b), Tensor[float32, *tuple[Any, ...]])  # type: ignore[tensor-shape]
