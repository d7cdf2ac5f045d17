"""Rules of the joins: ``concat`` (sizes along ``axis`` added) and ``stack`` (a new dim of the count).

Every tensor must have the same rank and, apart from concat's axis, the same dims. At run time
those dims are then equal, so the result takes a literal size where any tensor has one, else a
named dim where any has one. A named dim is rigid: against a literal or another named dim it
agrees only for some sizes (``DimsMayDiffer``, outranked by two literals that differ).
``count_known=False`` says that the shapes stand for a sequence of unknown length
(``list[Tensor[...]]``): its sizes along the axis cannot be added up.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from .core import UNKNOWN, D, Dims, DimsMayDiffer, Problem, Shape, Unknown, V, clash, join_operands
from .dim_arithmetic import plus
from .reductions import AxisOutOfRange


@dataclass(frozen=True)
class NothingToJoin(Problem):
    code: ClassVar[str] = "tensor-shape"

    def message(self, op: str, operands: Sequence[str]) -> str:
        return f'Cannot join no tensors for "{op}": it needs at least one'


@dataclass(frozen=True)
class RanksDiffer(Problem):
    code: ClassVar[str] = "tensor-shape"
    ranks: tuple[int, int]
    rank_is_minimum: bool = False  # the second rank is that of dims around a run: at least that

    def message(self, op: str, operands: Sequence[str]) -> str:
        left, right = self.ranks
        second = f"at least {right}" if self.rank_is_minimum else str(right)
        return f'Cannot join {join_operands(operands)} for "{op}": ranks {left} and {second} differ'


@dataclass(frozen=True)
class JoinedSizesDiffer(Problem):
    code: ClassVar[str] = "tensor-shape"
    sizes: tuple[int, int]
    axis: int

    def message(self, op: str, operands: Sequence[str]) -> str:
        left, right = self.sizes
        return f'Cannot join {join_operands(operands)} for "{op}": sizes {left} and {right} at axis {self.axis} differ'


def concat_shape(shapes: Sequence[Shape[D, V]], axis: int | Unknown, dims: Dims[D], count_known: bool = True) -> Shape[D, V] | Problem:
    """The shape of ``concat(tensors, axis)``: sizes along ``axis`` added, other dims agreed.

    >>> from typedtensor._shape_rules import INT_DIMS
    >>> concat_shape([Shape((2, 3)), Shape((2, 5))], -1, INT_DIMS)
    Shape(prefix=(2, 8), variadic=None, suffix=())
    """
    columns = _columns(shapes, count_known)
    if not isinstance(columns, list):
        return columns
    if isinstance(axis, Unknown):
        return Shape((UNKNOWN,) * len(columns))  # any dim may be the one whose sizes add up
    rank = len(columns)
    if not -rank <= axis < rank:
        return AxisOutOfRange((axis,), rank)
    joined = axis % rank
    agreed = _agreed_columns(columns, dims, joined)
    if isinstance(agreed, Problem):
        return agreed
    agreed[joined] = _sum(columns[joined], dims, count_known)
    return Shape(tuple(agreed))


def stack_shape(shapes: Sequence[Shape[D, V]], axis: int | Unknown, dims: Dims[D], count_known: bool = True) -> Shape[D, V] | Problem:
    """The shape of ``stack(tensors, axis)``: the agreed dims with the count inserted at ``axis``.

    Valid axes are the result's: ``-rank - 1 <= axis <= rank``.
    """
    columns = _columns(shapes, count_known)
    if not isinstance(columns, list):
        return columns
    agreed = _agreed_columns(columns, dims)
    if isinstance(agreed, Problem):
        return agreed
    rank = len(agreed)
    if isinstance(axis, Unknown):
        return Shape((UNKNOWN,) * (rank + 1))
    if not -rank - 1 <= axis <= rank:
        return AxisOutOfRange((axis,), rank + 1)
    count = dims.literal(len(shapes)) if count_known else UNKNOWN
    at = axis % (rank + 1)
    return Shape((*agreed[:at], count, *agreed[at:]))


def _columns(shapes: Sequence[Shape[D, V]], count_known: bool) -> list[list[D | Unknown]] | Shape[D, V] | Problem:
    """The dims at each axis across ``shapes``; an unknown shape when no rank is known."""
    if not shapes:
        return NothingToJoin() if count_known else Shape((), UNKNOWN)
    ranks = [shape.rank for shape in shapes if shape.rank is not None]
    if not ranks:
        return Shape((), UNKNOWN)
    rank = ranks[0]
    other = next((other for other in ranks if other != rank), None)
    if other is not None:
        return RanksDiffer((rank, other))
    located = []
    for shape in shapes:
        known = len(shape.prefix) + len(shape.suffix)
        if known > rank:
            return RanksDiffer((rank, known), rank_is_minimum=True)
        run = (UNKNOWN,) * (rank - known) if shape.variadic is not None else ()
        located.append(shape.prefix + run + shape.suffix)
    return [list(column) for column in zip(*located)]


def _agreed_columns(columns: list[list[D | Unknown]], dims: Dims[D], joined: int | None = None) -> list[D | Unknown] | Problem:
    """The agreed dim of each column (of ``joined``, concat's axis, ``UNKNOWN``: its sizes add up).

    Two literals that differ outrank a named clash anywhere: one mistake, one error."""
    agreed: list[D | Unknown] = []
    named_clash: Problem | None = None
    for index, column in enumerate(columns):
        if index == joined:
            agreed.append(UNKNOWN)
            continue
        dim = _agreed(column, dims, index)
        if isinstance(dim, JoinedSizesDiffer):
            return dim
        if isinstance(dim, Problem):
            named_clash = named_clash or dim
            dim = UNKNOWN
        agreed.append(dim)
    return named_clash or agreed


def _agreed(column: list[D | Unknown], dims: Dims[D], axis: int) -> D | Unknown | Problem:
    """The one dim every tensor must have here: a literal size if any has one, else a named dim."""
    sizes = {size for dim in column if (size := dims.size_of(dim)) is not None}
    if len(sizes) > 1:
        first, second = sorted(sizes, key=[dims.size_of(dim) for dim in column].index)[:2]
        return JoinedSizesDiffer((first, second), axis)
    known = [dim for dim in column if not isinstance(dim, Unknown)]
    named = next((found for pair in itertools.combinations(known, 2) if (found := clash(*pair, dims)) is not None), None)
    if named is not None:
        return DimsMayDiffer("join", named, axis)
    literal = next((dim for dim in column if dims.size_of(dim) is not None), None)
    return literal if literal is not None else known[0] if known else UNKNOWN


def _sum(column: list[D | Unknown], dims: Dims[D], count_known: bool) -> D | Unknown:
    """The joined size along the axis: the sum of the sizes (``N+M``, SPEC §9; literal if every
    size is), else the one size not 0."""
    if not count_known:
        return UNKNOWN
    forms = [dims.form_of(dim) for dim in column]
    if all(form is not None for form in forms):
        return dims.dim_of(functools.reduce(plus, (form for form in forms if form is not None)))
    others = [dim for dim in column if dims.size_of(dim) != 0]
    return others[0] if len(others) == 1 else UNKNOWN
