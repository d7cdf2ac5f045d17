"""The folded view a reduction runs over: dims in memory order, neighbours of a kind merged.

Any reduction is one of two patterns once its dims are put in memory order and neighbouring dims
that are both reduced or both kept are merged (the TensorFlow Lite idea): rows (the innermost dim
reduced) or columns (the innermost dim kept), with more dims outside. Putting the dims in memory
order first makes a transposed or Fortran-order input fold as far as a C-order one, and makes
every kernel read memory in order, so it sums neighbours first (accuracy) and streams (speed).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

SPLIT_MIN_BYTES: Final = 8 << 20  # smaller inputs run whole: threads gain nothing below this (measured)
PART_BYTES: Final = 4 << 20  # the input one part reads: its ~0.2-1 ms dwarfs a part's own cost
BAND_MIN_BYTES: Final = 1 << 16  # a kept dim is cut only into slabs this wide, so parts share no cache lines


@dataclass(frozen=True, slots=True)
class Layout:
    """A folded view: its dims' sizes, byte strides and which of them are reduced."""

    shape: tuple[int, ...]
    strides: tuple[int, ...]
    reduced: tuple[bool, ...]
    dtype: np.dtype[Any]
    out_strides: tuple[int, ...] | None = None  # the result's element strides (0 where reduced), if folded too

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
        shape = self.shape[:dim] + (size,) + self.shape[dim + 1 :]
        return Layout(shape, self.strides, self.reduced, self.dtype, self.out_strides)


def memory_order(shape: tuple[int, ...], strides: tuple[int, ...]) -> tuple[int, ...]:
    """The dims from the largest byte stride to the smallest (size-1 dims stay where they are).

    >>> memory_order((4, 3, 2), (8, 32, 96))  # Fortran order
    (2, 1, 0)
    """
    moving = sorted((dim for dim, size in enumerate(shape) if size != 1), key=lambda dim: -abs(strides[dim]))
    order = iter(moving)
    return tuple(dim if shape[dim] == 1 else next(order) for dim in range(len(shape)))


def fold(
    shape: tuple[int, ...],
    strides: tuple[int, ...],
    reduced: tuple[bool, ...],
    dtype: np.dtype[Any],
    out_strides: tuple[int, ...] | None = None,
) -> Layout:
    """Drop size-1 dims and merge neighbours that are both reduced or both kept.

    Two neighbours merge only where the outer stride is the inner stride times the inner size,
    so reshaping to the folded shape is a view, also for transposed or stepped inputs; with
    ``out_strides`` (the result's element strides, 0 for reduced dims), kept neighbours must
    also merge in the result. A view that reduces no dim of size above 1 gets a size-1 reduced
    dim innermost: sums and products still start from their identity, as TOSA and numpy do
    (``-0.0`` sums to ``+0.0``).

    >>> fold((32, 256, 1, 128), (131072, 512, 512, 4), (False, True, True, True), np.dtype(np.float32))
    Layout(shape=(32, 32768), strides=(131072, 4), reduced=(False, True), dtype=dtype('float32'), out_strides=None)
    """
    outs = out_strides or (0,) * len(shape)
    dims: list[tuple[int, int, int, bool]] = []  # (size, byte stride, result stride, reduced)
    for size, stride, out, is_reduced in zip(shape, strides, outs, reduced):
        if size == 1:
            continue
        if dims and dims[-1][3] == is_reduced and dims[-1][1] == stride * size and dims[-1][2] == out * size:
            dims[-1] = (dims[-1][0] * size, stride, out, is_reduced)
        else:
            dims.append((size, stride, out, is_reduced))
    if not any(d[3] for d in dims):
        dims.append((1, dtype.itemsize, 0, True))
    folded_outs = tuple(d[2] for d in dims) if out_strides is not None else None
    return Layout(tuple(d[0] for d in dims), tuple(d[1] for d in dims), tuple(d[3] for d in dims), dtype, folded_outs)


@dataclass(frozen=True, slots=True)
class Cut:
    """Where a view is cut into parts: the dim, and each part's (start, stop) along it."""

    dim: int
    ranges: tuple[tuple[int, int], ...]


def cut(layout: Layout) -> Cut | None:
    """How a large view is cut into parts of about ``PART_BYTES``, or None below ``SPLIT_MIN_BYTES``.

    The parts depend on the data only, never on the thread count, so a reduction gives the
    same bits on any number of threads.
    """
    if layout.nbytes < SPLIT_MIN_BYTES:
        return None
    return cut_into(layout, math.ceil(layout.nbytes / PART_BYTES))


def cut_into(layout: Layout, count: int) -> Cut:
    """``layout`` cut into ``count`` parts (fewer if the dim is shorter), sizes within one.

    The cut dim is the outermost kept dim whose parts are wide slabs of memory (their results
    fill disjoint regions of the output), else the outermost dim (its partial results must be
    combined).
    """
    dim = next(
        (
            dim
            for dim, (size, stride, is_reduced) in enumerate(zip(layout.shape, layout.strides, layout.reduced))
            if not is_reduced and abs(stride) * max(1, size // count) >= BAND_MIN_BYTES
        ),
        0,
    )
    return cut_along(layout, dim, count)


def cut_along(layout: Layout, dim: int, count: int) -> Cut:
    """``layout`` cut along ``dim`` into ``count`` parts (fewer if the dim is shorter), sizes within one."""
    size = layout.shape[dim]
    count = min(count, size)
    return Cut(dim, tuple((size * index // count, size * (index + 1) // count) for index in range(count)))
