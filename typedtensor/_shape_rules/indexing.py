"""Shape rules of indexing: ``x[i]``, ``x[a:b:c]``, ``x[None]``, ``x[...]``, index arrays, and tuples of them.

numpy's basic indexing, item by item: an int drops its dim, a slice keeps it (with a literal
length where the slice's bounds and the dim are literal), ``None`` inserts a ``1``, one ``...``
stands for every dim no other item takes. An index array (a Tensor) is numpy's advanced
indexing: an integer array puts its own dims in place of the dim it indexes, a boolean mask
replaces the dims it covers by one dim of unknown size. An array of unknown dtype (``Any``) may be
either: of rank 1 both take one dim and leave one of unknown size; of another rank, the dims it
takes are unknown. With several advanced indices (an int beside an array counts as one) numpy may
move their dims to the front: the result is unknown.

Items are what a caller knows of each index: an int, ``UNKNOWN`` (an int of unknown value), a
``slice`` whose bounds are ints, ``None`` or ``UNKNOWN``, ``None``, ``...``, or an ``ArrayIndex``.
Where an item's position among the dims is unknown (it lands in a ``*Ts`` run) the dims from
there on are an unknown run, and nothing there is an error.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from types import EllipsisType
from typing import ClassVar, Generic, TypeAlias

from .core import UNKNOWN, D, Dims, Problem, Shape, Unknown, V, join_shapes
from .dim_arithmetic import range_length


def bool_index_message(op: str) -> str:
    """Why a bool is refused as an index: numpy would read it as a 0-d mask, adding a dim."""
    return f'"{op}": a bool is not an index (numpy would read it as a mask); add a dim of 1 with None'


@dataclass(frozen=True)
class ArrayIndex(Generic[D, V]):
    """An index array: its shape, and whether it is a boolean mask (else its values are ints;
    ``UNKNOWN``: either)."""

    shape: Shape[D, V]
    boolean: bool | Unknown


IndexItem: TypeAlias = "int | Unknown | slice | None | EllipsisType | ArrayIndex[D, V]"


@dataclass(frozen=True)
class IndexOutOfRange(Problem):
    """An index outside ``-size <= i < size`` of the dim it indexes (``axis`` None: of the
    flattened tensor)."""

    code: ClassVar[str] = "tensor-index"
    index: int
    axis: int | None
    size: int

    def message(self, op: str, operands: Sequence[str]) -> str:
        where = "the flattened tensor" if self.axis is None else f"axis {self.axis}"
        valid = f"valid indices are {-self.size} to {self.size - 1}" if self.size else "an empty dim has no valid index"
        return f'Index {self.index} is out of range for {where} of size {self.size} in "{op}" on {operands[0]} ({valid})'


@dataclass(frozen=True)
class TooManyIndices(Problem):
    """More dims indexed than the tensor has."""

    code: ClassVar[str] = "tensor-index"
    count: int
    rank: int

    def message(self, op: str, operands: Sequence[str]) -> str:
        dims = "dim" if self.rank == 1 else "dims"
        indices = "index" if self.count == 1 else "indices"
        return f'Too many indices for "{op}" on {operands[0]}: {self.count} {indices} for {self.rank} {dims}'


@dataclass(frozen=True)
class SeveralEllipses(Problem):
    """More than one ``...`` in one index."""

    code: ClassVar[str] = "tensor-index"
    count: int

    def message(self, op: str, operands: Sequence[str]) -> str:
        return f'An index may hold one ellipsis ("..."), got {self.count} in "{op}" on {operands[0]}'


@dataclass(frozen=True)
class MaskMismatch(Problem):
    """A boolean mask whose size differs from the size of a dim it covers."""

    code: ClassVar[str] = "tensor-index"
    axis: int
    size: int
    mask_size: int

    def message(self, op: str, operands: Sequence[str]) -> str:
        return (
            f'Boolean index of size {self.mask_size} does not match axis {self.axis} of size {self.size} '
            f'in "{op}" on {operands[0]}'
        )


def index_problem(index: int, size: int | None, axis: int | None) -> IndexOutOfRange | None:
    """Whether ``index`` is out of range for a dim of ``size`` (None: unknown, never a problem)."""
    if size is None or -size <= index < size:
        return None
    return IndexOutOfRange(index, axis, size)


def slice_dim(dim: D | Unknown, item: slice, dims: Dims[D]) -> D | Unknown:
    """The dim ``dim[item]`` leaves: a full slice keeps the dim itself; literal bounds on a literal
    dim give a literal length; on a named dim ``N``, a literal start ``a >= 0`` with no stop and
    no step gives ``N-a`` (SPEC §9: ``x[3:]`` is ``N-3``, a claim the run checks); anything else
    (a stop, a negative bound, a step, a zero step, which the runtime refuses) is unknown."""
    bounds = (item.start, item.stop, item.step)
    if any(isinstance(bound, Unknown) for bound in bounds) or item.step == 0:
        return UNKNOWN
    if item.start is None and item.stop is None and item.step in (None, 1, -1):
        return dim
    size = dims.size_of(dim)
    if size is not None:
        return dims.literal(len(range(*item.indices(size))))
    return _named_slice(dim, item.start, item.stop, item.step or 1, dims)


def _named_slice(dim: D | Unknown, start: int | None, stop: int | None, step: int, dims: Dims[D]) -> D | Unknown:
    """The length of ``dim[start:]`` on a named dim, from a literal ``start >= 0``: ``N-start``;
    unknown for a stop, a negative start or a step (a stepped length is a floor: ``range_length``)."""
    form = dims.form_of(dim)
    if form is None or stop is not None or step != 1 or start is None or start < 0:
        return UNKNOWN
    return dims.dim_of(range_length(form, start))


def index_shape(shape: Shape[D, V], items: Sequence[IndexItem[D, V]], dims: Dims[D]) -> Shape[D, V] | Problem:
    """The shape of ``x[items]`` for ``x`` of ``shape``, or why it cannot run.

    Items before the ``...`` take dims from the left, items after it from the right (without a
    ``...``, every item is before it and the dims left over are kept).

    >>> from typedtensor._shape_rules import INT_DIMS
    >>> index_shape(Shape((3, 4, 5)), [0, None, slice(1, None), ...], INT_DIMS)
    Shape(prefix=(1, 3, 5), variadic=None, suffix=())
    """
    ellipses = [position for position, item in enumerate(items) if item is Ellipsis]
    if len(ellipses) > 1:
        return SeveralEllipses(len(ellipses))
    cut = ellipses[0] if ellipses else len(items)
    head, tail = items[:cut], items[cut + 1 :]
    width = _total_width(items)
    if shape.variadic is None and width is not None and width > len(shape.prefix):
        return TooManyIndices(width, len(shape.prefix))
    left = _walk(head, shape.prefix, 0, dims)
    if isinstance(left, Problem):
        return left
    right = _walk_from_right(tail, shape, dims)
    if isinstance(right, Problem):
        return right
    if any(isinstance(item, ArrayIndex) for item in items) and sum(map(_is_advanced, items)) > 1:
        return Shape((), UNKNOWN)  # numpy may move the advanced indices' dims to the front
    if not (left.complete and right.complete):
        return join_shapes([*left.pieces, Shape((), UNKNOWN), *(right.pieces if right.complete else ())])
    middle: Shape[D, V]
    if shape.variadic is None:
        middle = Shape(shape.prefix[left.used : len(shape.prefix) - right.used])
    else:
        middle = Shape(shape.prefix[left.used :], shape.variadic, shape.suffix[: len(shape.suffix) - right.used])
    return join_shapes([*left.pieces, middle, *right.pieces])


def indexed_axes(items: Sequence[IndexItem[D, V]], rank: int) -> list[int | None]:
    """The axis of a tensor of ``rank`` dims where each item starts (None for ``...``), for items
    ``index_shape`` accepts."""
    cut = next((position for position, item in enumerate(items) if item is Ellipsis), len(items))
    axes: list[int | None] = []
    axis = 0
    for position, item in enumerate(items):
        if position == cut:
            axes.append(None)
            axis = rank - (_total_width(items[cut + 1 :]) or 0)
            continue
        axes.append(axis)
        axis += _width(item) or 0
    return axes


@dataclass(frozen=True)
class _Walked(Generic[D, V]):
    """What a run of items gave, as far as their positions among the dims are known."""

    pieces: tuple[Shape[D, V], ...]
    used: int  # how many dims the items took
    complete: bool  # False: an item reached past the known dims, and it and those after say nothing


def _width(item: IndexItem[D, V]) -> int | None:
    """How many dims ``item`` takes (None: a mask of unknown rank, or an array that may be one)."""
    if item is None or item is Ellipsis:
        return 0
    if isinstance(item, ArrayIndex) and item.boolean is UNKNOWN:
        return 1 if item.shape.rank == 1 else None  # a mask takes as many dims as it has, an integer array one
    if isinstance(item, ArrayIndex) and item.boolean:
        return item.shape.rank
    return 1


def _total_width(items: Sequence[IndexItem[D, V]]) -> int | None:
    widths = [_width(item) for item in items]
    return None if None in widths else sum(width for width in widths if width is not None)


def _is_advanced(item: IndexItem[D, V]) -> bool:
    """An index array, or an int (numpy treats an int beside an index array as one)."""
    return isinstance(item, (ArrayIndex, int, Unknown))


def _walk(items: Sequence[IndexItem[D, V]], available: Sequence[D | Unknown], first_axis: int, dims: Dims[D]) -> _Walked[D, V] | Problem:
    """Apply ``items`` to ``available`` dims from the left; the first of them is ``first_axis``."""
    pieces: list[Shape[D, V]] = []
    used = 0
    for item in items:
        width = _width(item)
        if width is None or used + width > len(available):
            return _Walked(tuple(pieces), used, False)
        piece = _piece(item, available[used : used + width], first_axis + used, dims)
        if isinstance(piece, Problem):
            return piece
        pieces.append(piece)
        used += width
    return _Walked(tuple(pieces), used, True)


def _walk_from_right(items: Sequence[IndexItem[D, V]], shape: Shape[D, V], dims: Dims[D]) -> _Walked[D, V] | Problem:
    """Apply the items after a ``...`` to the last dims: of a fixed rank, or of the suffix after a run
    (whose axes are then counted from the end)."""
    width = _total_width(items)
    available = shape.prefix if shape.variadic is None else shape.suffix
    if width is None or width > len(available):
        return _Walked((), 0, False)
    first_axis = len(available) - width if shape.variadic is None else -width
    return _walk(items, available[len(available) - width :], first_axis, dims)


def _piece(item: IndexItem[D, V], taken: Sequence[D | Unknown], axis: int, dims: Dims[D]) -> Shape[D, V] | Problem:
    """The dims one item gives in place of the ``taken`` dims (the first of them at ``axis``)."""
    if item is None:
        return Shape((dims.literal(1),))
    if isinstance(item, slice):
        sliced = slice_dim(taken[0], item, dims)  # apart: inside Shape(...) mypy infers D | Unknown for D
        return Shape((sliced,))
    if isinstance(item, ArrayIndex):
        return _array_piece(item, taken, axis, dims)
    if isinstance(item, int):
        return index_problem(item, dims.size_of(taken[0]), axis) or Shape(())
    return Shape(())  # an int of unknown value


def _array_piece(item: ArrayIndex[D, V], taken: Sequence[D | Unknown], axis: int, dims: Dims[D]) -> Shape[D, V] | Problem:
    if item.boolean is UNKNOWN:
        return Shape((UNKNOWN,))  # rank 1: its own dim, or as many as it holds True
    if not item.boolean:
        return item.shape  # the index array's dims replace the dim it indexes
    for offset, (mask_dim, dim) in enumerate(zip(item.shape.prefix, taken)):
        mask_size, size = dims.size_of(mask_dim), dims.size_of(dim)
        if mask_size is not None and size is not None and mask_size not in (size, 0):  # numpy takes an empty mask
            return MaskMismatch(axis + offset, size, mask_size)
    return Shape((UNKNOWN,))  # as many as the mask holds True
