# pyright: reportUnnecessaryTypeIgnoreComment=true
"""Checked casts and dims as ints, without the plugin (pyright and plain mypy).

``check(x, Tensor[...])`` is typed as its annotation, so a numpy result or a loaded array gets
its type from one line; a ``Dim`` is an ``int``, so a size read from a shape is one.
"""

from typing import Any, Literal as L, TypeVar, assert_type

import numpy as np

import typedtensor as tt
from typedtensor import Dim, Tensor

N = TypeVar("N")


class Batch(Dim): ...


loaded: Any = np.zeros((2, 3), np.float32)  # as from np.load: typed Any
tensor: Tensor[Any, *tuple[Any, ...]] = tt.Tensor(loaded)
cast = tt.check(tt.Tensor(loaded), Tensor[tt.float32, L[2], L[3]])
assert_type(cast, Tensor[tt.float32, L[2], L[3]])
assert_type(tt.check(tensor, Tensor[tt.floating, Any, L[3]]), Tensor[tt.floating, Any, L[3]])
assert_type(tt.check(tensor, Tensor[tt.float32, *tuple[Any, ...]]), Tensor[tt.float32, *tuple[Any, ...]])
assert_type(tt.check(tt.Tensor(np.zeros(3)), Tensor[tt.float64, L[3]]), Tensor[tt.float64, L[3]])
wrong: Tensor[tt.float32, L[3]] = tt.check(tensor, Tensor[tt.float32, L[2], L[3]])  # type: ignore[arg-type]


def optional(maybe: Tensor[tt.float32, L[2], L[3]] | None) -> None:
    """An optional annotation: the value keeps its own type (mypy and pyright spell the union apart)."""
    kept: Tensor[tt.float32, L[2], L[3]] | None = tt.check(maybe, Tensor[tt.float32, L[2], L[3]] | None)


def generic(x: Tensor[tt.float32, Batch, N]) -> None:
    # mypy reads a TypeVar in an expression as Any (Tensor[float32, Batch, Any]), pyright keeps N.
    doubled: Tensor[tt.float32, Batch, N] = tt.check(x.numpy() * 2, Tensor[tt.float32, Batch, N])


def sizes(x: Tensor[tt.float32, Batch, L[3]]) -> None:
    rows: int = x.shape[0]
    columns: int = x.shape[1]
    positions = np.arange(x.shape[0])
    assert_type(positions, np.ndarray[tuple[int], np.dtype[np.int_]])
    assert_type(rows + columns, int)
    literal: Batch = x.shape[1]  # type: ignore[assignment]  # a Literal size is not a Batch
