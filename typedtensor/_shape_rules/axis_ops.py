"""Shape rules of the ops along one axis: ``argmax``/``argmin``, ``softmax``/``log_softmax``,
``take`` and ``take_along_axis``. (``logsumexp`` reduces as the reductions do: ``reduce_shape``.)

Axes follow the reductions: ``-rank <= axis < rank``, anything else is ``AxisOutOfRange``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from .broadcast import BroadcastMismatch, broadcast_dims
from .core import UNKNOWN, D, Dims, DimsMayDiffer, Problem, Shape, Unknown, V, join_shapes
from .reductions import reduce_shape, reduced_mask


def argextreme_shape(shape: Shape[D, V], axis: int | Unknown, keepdims: bool | Unknown, one: D) -> Shape[D, V] | Problem:
    """``argmax``/``argmin`` over one ``axis``: that dim removed, or kept as ``one`` with ``keepdims``."""
    return reduce_shape(shape, (axis,), keepdims, one)


def axis_problem(shape: Shape[D, V], axis: int | Unknown) -> Problem | None:
    """Whether one ``axis`` is out of range for ``shape`` (knowable only for a fixed rank)."""
    if shape.variadic is not None or isinstance(axis, Unknown):
        return None
    mask = reduced_mask(axis, len(shape.prefix))
    return mask if isinstance(mask, Problem) else None


def take_shape(shape: Shape[D, V], indices: Shape[D, V], axis: int | None | Unknown) -> Shape[D, V] | Problem:
    """numpy's ``take``: the dim at ``axis`` replaced by the dims of ``indices``; with ``axis``
    None the tensor is flattened and the result has the dims of ``indices``."""
    if axis is None:
        return indices
    if isinstance(axis, Unknown):
        rank = None if shape.rank is None or indices.rank is None else shape.rank - 1 + indices.rank
        return Shape((), UNKNOWN) if rank is None else Shape((UNKNOWN,) * rank)
    problem = axis_problem(shape, axis)
    if problem is not None:
        return problem
    around = _around(shape, axis)
    return Shape((), UNKNOWN) if around is None else join_shapes([around[0], indices, around[1]])


def _around(shape: Shape[D, V], axis: int) -> tuple[Shape[D, V], Shape[D, V]] | None:
    """The dims before and after ``axis`` (None where its position in a run is unknown)."""
    prefix, suffix = shape.prefix, shape.suffix
    if shape.variadic is None:
        index = axis % len(prefix)
        return Shape(prefix[:index]), Shape(prefix[index + 1 :])
    if 0 <= axis < len(prefix):
        return Shape(prefix[:axis]), Shape(prefix[axis + 1 :], shape.variadic, suffix)
    if -len(suffix) <= axis < 0:
        return Shape(prefix, shape.variadic, suffix[:axis]), Shape(suffix[len(suffix) + axis + 1 :])
    return None


@dataclass(frozen=True)
class RankMismatch(Problem):
    """``take_along_axis`` with indices whose rank is not the tensor's."""

    code: ClassVar[str] = "tensor-shape"
    rank: int
    indices_rank: int

    def message(self, op: str, operands: Sequence[str]) -> str:
        return (
            f'"{op}" needs indices of the rank of the tensor: {operands[0]} has rank {self.rank}, '
            f"{operands[1]} has rank {self.indices_rank}"
        )


def take_along_axis_shape(shape: Shape[D, V], indices: Shape[D, V], axis: int | Unknown, dims: Dims[D]) -> Shape[D, V] | Problem:
    """numpy's ``take_along_axis``: indices of the same rank; at ``axis`` the dim of ``indices``,
    elsewhere the two dims broadcast."""
    if shape.rank is None or indices.rank is None:
        return indices if shape == indices else Shape((), UNKNOWN)
    if shape.rank != indices.rank:
        return RankMismatch(shape.rank, indices.rank)
    if isinstance(axis, Unknown):
        return Shape((UNKNOWN,) * shape.rank)
    problem = axis_problem(shape, axis)
    if problem is not None:
        return problem
    result: list[D | Unknown] = []
    named_clash: DimsMayDiffer | None = None  # outranked by a mismatch of two literals
    for index, (dim, index_dim) in enumerate(zip(shape.prefix, indices.prefix)):
        if index == axis % shape.rank:
            result.append(index_dim)
            continue
        broadcast = broadcast_dims(dim, index_dim, dims, index - shape.rank)
        if isinstance(broadcast, BroadcastMismatch):
            return broadcast
        if isinstance(broadcast, DimsMayDiffer):
            named_clash = named_clash or broadcast
            broadcast = UNKNOWN
        result.append(broadcast)
    return named_clash or Shape(tuple(result))
