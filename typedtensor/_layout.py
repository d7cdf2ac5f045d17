"""The folded view a reduction runs over: dims in memory order, neighbours of a kind merged.

Any reduction is one of two patterns once its dims are put in memory order and neighbouring dims
that are both reduced or both kept are merged (the TensorFlow Lite idea): rows (the innermost dim
reduced) or columns (the innermost dim kept), with more dims outside. Putting the dims in memory
order first makes a transposed or Fortran-order input fold as far as a C-order one, and makes
every kernel read memory in order, so it sums neighbours first (accuracy) and streams (speed).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True, slots=True)
class Layout:
    """A folded view: its dims' sizes, byte strides and which of them are reduced."""

    shape: tuple[int, ...]
    strides: tuple[int, ...]
    reduced: tuple[bool, ...]
    dtype: np.dtype[Any]

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        size = self.itemsize
        for dim in self.shape:
            size *= dim
        return size

    @property
    def axes(self) -> tuple[int, ...]:
        return tuple(index for index, is_reduced in enumerate(self.reduced) if is_reduced)

    def tiles(self, start: int) -> bool:
        """Whether dims ``start`` onwards are one evenly strided run (so they reshape to one dim)."""
        return all(
            self.strides[index] == self.strides[index + 1] * self.shape[index + 1]
            for index in range(start, len(self.shape) - 1)
        )

    def with_dim(self, dim: int, size: int) -> Layout:
        """This layout with dim ``dim`` cut to ``size`` indices (a part of it)."""
        return Layout(self.shape[:dim] + (size,) + self.shape[dim + 1 :], self.strides, self.reduced, self.dtype)


def memory_order(shape: tuple[int, ...], strides: tuple[int, ...]) -> tuple[int, ...]:
    """The dims from the largest byte stride to the smallest (size-1 dims stay where they are).

    >>> memory_order((4, 3, 2), (8, 32, 96))  # Fortran order
    (2, 1, 0)
    """
    moving = sorted((dim for dim, size in enumerate(shape) if size != 1), key=lambda dim: -abs(strides[dim]))
    order = iter(moving)
    return tuple(dim if shape[dim] == 1 else next(order) for dim in range(len(shape)))


def fold(shape: tuple[int, ...], strides: tuple[int, ...], reduced: tuple[bool, ...], dtype: np.dtype[Any]) -> Layout:
    """Drop size-1 dims and merge neighbours that are both reduced or both kept.

    Two neighbours merge only where the outer stride is the inner stride times the inner size,
    so reshaping to the folded shape is a view, also for transposed or stepped inputs. A view
    that reduces no dim of size above 1 gets a size-1 reduced dim innermost: sums and products
    still start from their identity, as TOSA and numpy do (``-0.0`` sums to ``+0.0``).

    >>> fold((32, 256, 1, 128), (131072, 512, 512, 4), (False, True, True, True), np.dtype(np.float32))
    Layout(shape=(32, 32768), strides=(131072, 4), reduced=(False, True), dtype=dtype('float32'))
    """
    dims: list[tuple[int, int, bool]] = []  # (size, byte stride, reduced)
    for size, stride, is_reduced in zip(shape, strides, reduced):
        if size == 1:
            continue
        if dims and dims[-1][2] == is_reduced and dims[-1][1] == stride * size:
            dims[-1] = (dims[-1][0] * size, stride, is_reduced)
        else:
            dims.append((size, stride, is_reduced))
    if not any(is_reduced for _, _, is_reduced in dims):
        dims.append((1, dtype.itemsize, True))
    return Layout(tuple(d[0] for d in dims), tuple(d[1] for d in dims), tuple(d[2] for d in dims), dtype)
