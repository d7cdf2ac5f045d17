"""Shape rules of sorting and selecting along one axis: ``sort`` and ``argsort`` keep the shape,
``top_k`` makes its axis ``Literal[k]``.

``k`` beyond a literal axis is ``KBeyondAxis``, an index out of range (``tensor-index``; at run time
a ``TensorIndexError``, an ``IndexError``): ``top_k`` reads the positions ``0 .. k-1`` of the axis
in order, as torch words it ("selected index k out of range"). So on a named axis it is no error,
as a literal index into a named dim is none (SPEC §7: the checker assumes no size): ``top_k(x, 5)``
on ``[Batch, Vocab]`` claims that there are at least 5, and the run checks the claim before the
backend computes. Reporting it would flag most real calls (``top_k(logits, 5)`` over a named
vocabulary), each fine at every size it is run with.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from .axis_ops import axis_problem
from .core import UNKNOWN, D, Dims, Problem, Shape, Unknown, V


@dataclass(frozen=True)
class KBeyondAxis(Problem):
    """``top_k`` asked for more elements than its (literal) axis holds, or for a negative number."""

    code: ClassVar[str] = "tensor-index"
    k: int
    size: int | None  # None: k is negative, whatever the axis holds
    axis: int

    def message(self, op: str, operands: Sequence[str]) -> str:
        if self.size is None:
            return f'"{op}" on {operands[0]}: k must not be negative, got {self.k}'
        return f'"{op}" on {operands[0]}: k = {self.k} is more than the {self.size} elements of axis {self.axis}'


def sort_shape(shape: Shape[D, V], axis: int | Unknown) -> Shape[D, V] | Problem:
    """``sort``/``argsort`` along ``axis``: the shape kept, once the axis is in range."""
    problem = axis_problem(shape, axis)
    return shape if problem is None else problem


def top_k_shape(shape: Shape[D, V], k: int | Unknown, axis: int | Unknown, dims: Dims[D]) -> Shape[D, V] | Problem:
    """``top_k(x, k, axis)``: the dim at ``axis`` becomes ``Literal[k]`` (unknown for a ``k``
    known only at run time); ``k`` more than a literal dim holds, or negative, is a problem.

    >>> from typedtensor._shape_rules import INT_DIMS
    >>> top_k_shape(Shape((32, 10)), 3, -1, INT_DIMS)
    Shape(prefix=(32, 3), variadic=None, suffix=())
    """
    if isinstance(k, int) and k < 0:
        return KBeyondAxis(k, None, -1 if isinstance(axis, Unknown) else axis)
    problem = axis_problem(shape, axis)
    if problem is not None:
        return problem
    if isinstance(axis, Unknown):
        return Shape((UNKNOWN,) * shape.rank) if shape.rank is not None else Shape((), UNKNOWN)
    place = _place(shape, axis)
    if place is None:  # the axis falls in the run or beyond it: a dim on its far side may be the one replaced
        return Shape(shape.prefix, UNKNOWN) if axis >= 0 else Shape((), UNKNOWN, shape.suffix)
    in_suffix, index = place
    part = shape.suffix if in_suffix else shape.prefix
    size = dims.size_of(part[index])
    if isinstance(k, int) and size is not None and k > size:
        return KBeyondAxis(k, size, axis)
    replaced = part[:index] + (UNKNOWN if isinstance(k, Unknown) else dims.literal(k),) + part[index + 1 :]
    return Shape(shape.prefix, shape.variadic, replaced) if in_suffix else Shape(replaced, shape.variadic, shape.suffix)


def _place(shape: Shape[D, V], axis: int) -> tuple[bool, int] | None:
    """Where the dim at ``axis`` (in range) is: in the suffix or not, and its index there; None
    if a run of unknown length hides it."""
    if shape.variadic is None:
        return False, axis % len(shape.prefix)
    if 0 <= axis < len(shape.prefix):
        return False, axis
    if -len(shape.suffix) <= axis < 0:
        return True, len(shape.suffix) + axis
    return None
