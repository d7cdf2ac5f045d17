"""numpy broadcasting, statically: dims align from the right and a size-1 dim stretches.

Two dims broadcast to their common size; ``Literal[1]`` gives way to the other dim; two
different literal sizes, neither 1, cannot broadcast. A named dim is rigid: against a literal
``n`` (not 1) or another named dim it broadcasts only for some of its sizes, a ``DimsMayDiffer``
(outranked by a mismatch of two literals in the same call: one mistake, one error). An unknown
dim (``Any``), or one of no kind the rules know (``int``), is never an error: against a literal
it gives the literal, the only size (not 1) with which both can run; against a named dim an
unknown dim (the named dim may be 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from .core import UNKNOWN, D, Dims, DimsMayDiffer, Problem, Shape, Unknown, V, clash, join_operands


@dataclass(frozen=True)
class BroadcastMismatch(Problem):
    """Two literal sizes, neither 1, at the same position from the right."""

    code: ClassVar[str] = "tensor-broadcast"
    sizes: tuple[int, int]
    axis: int  # negative: counted from the end, where broadcasting aligns dims

    def message(self, op: str, operands: Sequence[str]) -> str:
        left, right = self.sizes
        return (
            f'Cannot broadcast {join_operands(operands)} for "{op}": '
            f"sizes {left} and {right} at axis {self.axis} differ and neither is 1"
        )


def broadcast_dims(left: D | Unknown, right: D | Unknown, dims: Dims[D], axis: int) -> D | Unknown | BroadcastMismatch | DimsMayDiffer:
    """The dim of two dims broadcast together (``axis`` counts from the end, for the message)."""
    size_left, size_right = dims.size_of(left), dims.size_of(right)
    if size_left == 1:
        return right
    if size_right == 1 or (left == right and not isinstance(left, Unknown)):
        return left
    if size_left is not None and size_right is not None:
        return BroadcastMismatch((size_left, size_right), axis)
    named = clash(left, right, dims)
    if named is not None:
        return DimsMayDiffer("broadcast", named, axis)
    if size_left is not None:
        return left
    return right if size_right is not None else UNKNOWN


def _literal_of(left: D | Unknown, right: D | Unknown, dims: Dims[D]) -> D | Unknown:
    """Whichever of two clashing dims is a literal size, else unknown: what later dims meet."""
    return next((dim for dim in (left, right) if dims.size_of(dim) is not None), UNKNOWN)


def broadcast_shapes(shapes: Sequence[Shape[D, V]], dims: Dims[D]) -> Shape[D, V] | BroadcastMismatch | DimsMayDiffer:
    """The shape of ``shapes`` broadcast together, as exact as the shapes allow.

    The trailing dims every shape knows are broadcast exactly (a mismatch there is an error at
    run time too). Dims further left are exact only when no more than one distinct leading
    part reaches them (two with a run of unknown length are never the same); otherwise they are
    an unknown run.
    """
    tails = [shape.prefix if shape.variadic is None else shape.suffix for shape in shapes]
    variadic_tails = [len(tail) for shape, tail in zip(shapes, tails) if shape.variadic is not None]
    known = min(variadic_tails, default=max(len(tail) for tail in tails))
    result: list[D | Unknown] = []
    named_clash: DimsMayDiffer | None = None
    for axis in range(-1, -known - 1, -1):
        dim: D | Unknown = dims.literal(1)
        for tail in tails:
            if len(tail) >= -axis:
                broadcast = broadcast_dims(dim, tail[axis], dims, axis)
                if isinstance(broadcast, BroadcastMismatch):
                    return broadcast
                if isinstance(broadcast, DimsMayDiffer):
                    # Look on: a mismatch of two literals outranks it, so keep a literal to compare.
                    named_clash = named_clash or broadcast
                    broadcast = _literal_of(dim, tail[axis], dims)
                dim = broadcast
        result.insert(0, dim)
    if named_clash is not None:
        return named_clash
    leading: list[Shape[D, V]] = []
    for shape in shapes:
        rest = _leading(shape, known)
        # A shape within the known dims adds nothing; two leading parts spelled alike are one,
        # unless a run of unknown length is in them: ``[N, M, *tuple[Any, ...]]`` twice may be
        # ``(2, 1)`` and ``(2, 1, 1)``, whose result ``(2, 2, 1)`` does not start with ``N, M``.
        if rest != Shape(()) and (rest not in leading or rest.variadic is UNKNOWN):
            leading.append(rest)
    if len(leading) > 1:
        return Shape((), UNKNOWN, tuple(result))
    if not leading:
        return Shape(tuple(result))
    rest = leading[0]
    if rest.variadic is None:
        return Shape(rest.prefix + tuple(result))
    return Shape(rest.prefix, rest.variadic, rest.suffix + tuple(result))


def _leading(shape: Shape[D, V], known: int) -> Shape[D, V]:
    """What is left of ``shape`` after its last ``known`` dims (``()`` if nothing is)."""
    if shape.variadic is None:
        return Shape(shape.prefix[: max(len(shape.prefix) - known, 0)])
    return Shape(shape.prefix, shape.variadic, shape.suffix[: len(shape.suffix) - known])
