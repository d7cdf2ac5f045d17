# pyright: reportUnnecessaryTypeIgnoreComment=true
"""What sort/argsort/top_k and typedtensor.linalg declare, with no plugin: pyright and plain mypy.

``sort`` and ``argsort`` keep the shape; ``top_k`` along the last axis keeps the others (its
``Literal[k]`` comes from the plugin); square ops keep ``[..., N, N]``, ``det`` the batch,
``eigh`` gives ``[..., N]`` and ``[..., N, N]``; ``min(M, N)`` of ``svd``/``qr`` is unknown here.
Integers give ``float64``.
"""

from typing import Any, Literal as L, assert_type

import typedtensor as tt
from typedtensor import Tensor


class Batch(tt.Dim): ...


def calls(x: Tensor[tt.float32, L[3], L[4]], sq: Tensor[tt.float32, L[3], L[3]], ints: Tensor[tt.int32, L[2], L[3], L[3]], vector: Tensor[tt.float32, L[3]]) -> None:
    assert_type(tt.sort(x), Tensor[tt.float32, L[3], L[4]])
    assert_type(tt.sort(x, axis=0, descending=True), Tensor[tt.float32, L[3], L[4]])
    assert_type(tt.argsort(x), Tensor[tt.int64, L[3], L[4]])
    assert_type(tt.top_k(x, 2), tuple[Tensor[tt.float32, L[3], Any], Tensor[tt.int64, L[3], Any]])
    assert_type(tt.top_k(x, 2, axis=0), tuple[Tensor[tt.float32, *tuple[Any, ...]], Tensor[tt.int64, *tuple[Any, ...]]])
    assert_type(tt.linalg.inv(sq), Tensor[tt.float32, L[3], L[3]])
    assert_type(tt.linalg.inv(ints), Tensor[tt.float64, L[2], L[3], L[3]])
    assert_type(tt.linalg.cholesky(sq), Tensor[tt.float32, L[3], L[3]])
    assert_type(tt.linalg.det(sq), Tensor[tt.float32])
    assert_type(tt.linalg.det(ints), Tensor[tt.float64, L[2]])
    assert_type(tt.linalg.eigh(sq), tuple[Tensor[tt.float32, L[3]], Tensor[tt.float32, L[3], L[3]]])
    assert_type(tt.linalg.svd(x)[1], Tensor[tt.float32, Any])
    assert_type(tt.linalg.svd(x, full_matrices=True)[0], Tensor[tt.float32, L[3], L[3]])
    assert_type(tt.linalg.qr(x)[1], Tensor[tt.float32, Any, L[4]])
    assert_type(tt.linalg.solve(sq, vector), Tensor[tt.float32, L[3]])
    assert_type(tt.linalg.norm(x), Tensor[tt.float32])
    assert_type(tt.linalg.norm(x, axis=1), Tensor[tt.float32, *tuple[Any, ...]])
    assert_type(tt.linalg.norm(ints), Tensor[tt.float64])


def named(b: Tensor[tt.float64, Batch, L[4], L[4]]) -> None:
    assert_type(tt.linalg.inv(b), Tensor[tt.float64, Batch, L[4], L[4]])
    assert_type(tt.linalg.eigh(b)[0], Tensor[tt.float64, Batch, L[4]])
    assert_type(tt.argsort(b, axis=0), Tensor[tt.int64, Batch, L[4], L[4]])


def contraction(a: Tensor[tt.float32, L[2], L[3]], b: Tensor[tt.float64, L[3], L[4]], i: Tensor[tt.int8, L[3]]) -> None:
    # einsum's dims come from the plugin; the dtype is kept within one category.
    assert_type(tt.einsum("ij,jk->ik", a, a.T), Tensor[tt.float32, *tuple[Any, ...]])
    assert_type(tt.einsum("i,i", i, i), Tensor[tt.int8, *tuple[Any, ...]])
    mixed: Tensor[tt.floating, *tuple[Any, ...]] = tt.einsum("ij,jk->ik", a, b)  # float64: a floating
    assert_type(tt.einsum("ij,j->i", a, i), Tensor[Any, *tuple[Any, ...]])
