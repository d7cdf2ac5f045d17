"""Rules of ``one_hot`` and of the creation functions that take one count (``linspace``,
``random.permutation``): a dim of that count.

A count is a dim (``Literal[n]``, or a named dim read from ``x.shape[i]``) or ``UNKNOWN``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from .core import D, Dims, Problem, Shape, Unknown, V
from .dtypes import SIGNED, UNSIGNED, members
from .elementwise import DTypeRefused


@dataclass(frozen=True)
class NegativeCount(Problem):
    """A count below 0: no dim has that size."""

    code: ClassVar[str] = "tensor-shape"
    parameter: str
    count: int

    def message(self, op: str, operands: Sequence[str]) -> str:
        return f'"{op}": {self.parameter} must not be negative, got {self.count}'


def counted_shape(count: D | Unknown, parameter: str, dims: Dims[D]) -> Shape[D, V] | Problem:
    """One dim of ``count`` elements (``linspace``'s ``num``, ``permutation``'s ``n``)."""
    size = dims.size_of(count)
    return NegativeCount(parameter, size) if size is not None and size < 0 else Shape((count,))


def one_hot_shape(shape: Shape[D, V], count: D | Unknown, dims: Dims[D]) -> Shape[D, V] | Problem:
    """The shape of ``one_hot(indices, n)``: the indices' dims and a last dim of ``n``.

    >>> from typedtensor._shape_rules import INT_DIMS
    >>> one_hot_shape(Shape((2, 3)), 4, INT_DIMS)
    Shape(prefix=(2, 3, 4), variadic=None, suffix=())
    """
    counted: Shape[D, V] | Problem = counted_shape(count, "n", dims)
    if isinstance(counted, Problem):
        return counted
    if shape.variadic is None:
        return Shape(shape.prefix + counted.prefix)
    return Shape(shape.prefix, shape.variadic, shape.suffix + counted.prefix)


def one_hot_dtype_problem(dtype: str) -> Problem | None:
    """Why ``one_hot`` refuses indices of ``dtype`` (a dtype or a category): none of its members
    is an integer dtype. A category with an integer member may be one at run time."""
    if any(member in SIGNED or member in UNSIGNED for member in members(dtype)):
        return None
    return DTypeRefused(f"the indices must be of an integer dtype, not {dtype}")
