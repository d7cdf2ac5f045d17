"""matmul's rule: ``[..., N, K] @ [..., K, M] -> [..., N, M]``, numpy's, with TensorFlow's transpose flags.

The last two dims of each operand are its matrix, the dims before them its batch. Batch dims
broadcast as the elementwise ops' dims do; a mismatch there is still a matmul error (it is the
matmul that cannot run). 1-D operands are numpy's: a 1-D left operand ``[K]`` is a row whose
``N`` the result drops, a 1-D right operand a column whose ``M`` it drops. A transpose flag swaps
the last two dims of its operand first; on a 1-D operand it changes nothing (numpy's ``v.T`` is
``v``). A flag known only at run time is either value: the rule answers what holds for both.
Named dims are rigid: inner dims ``T`` and ``64``, or batch dims ``B`` and ``4``, may differ
(``DimsMayDiffer``), outranked by a mismatch of two literals in the same call.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import ClassVar

from .broadcast import BroadcastMismatch, broadcast_shapes
from .core import UNKNOWN, D, Dims, DimsMayDiffer, Problem, Shape, Unknown, V, clash, join_operands

#: A transpose flag: ``True``, ``False``, or ``UNKNOWN`` (a ``bool`` known only at run time).
Flag = bool | Unknown


@dataclass(frozen=True)
class InnerDimsDiffer(Problem):
    """The dim ``K`` of ``a`` (its last, or first when transposed) is not that of ``b``."""

    code: ClassVar[str] = "tensor-matmul"
    sizes: tuple[int, int]
    transposed: tuple[bool, bool] = (False, False)  # the flags: the message says which applied

    def message(self, op: str, operands: Sequence[str]) -> str:
        left, right = self.sizes
        flags = [name for name, on in zip(("transpose_a", "transpose_b"), self.transposed) if on]
        after = f" (with {' and '.join(flags)})" if flags else ""
        return f'Cannot matmul {join_operands(operands)} for "{op}": inner dims {left} and {right} differ{after}'


@dataclass(frozen=True)
class BatchDimsDiffer(Problem):
    """Batch dims (before the last two) that do not broadcast: two sizes, neither 1."""

    code: ClassVar[str] = "tensor-matmul"
    sizes: tuple[int, int]
    axis: int  # negative, counted from the end of the operands (the batch ends at -3)

    def message(self, op: str, operands: Sequence[str]) -> str:
        left, right = self.sizes
        return (
            f'Cannot matmul {join_operands(operands)} for "{op}": '
            f"batch sizes {left} and {right} at axis {self.axis} differ and neither is 1"
        )


@dataclass(frozen=True)
class RankZeroOperand(Problem):
    """A rank-0 operand: it has no dim to multiply over (numpy refuses it too)."""

    code: ClassVar[str] = "tensor-matmul"
    position: int  # 0 for ``a``, 1 for ``b``

    def message(self, op: str, operands: Sequence[str]) -> str:
        return f'Cannot matmul {join_operands(operands)} for "{op}": {operands[self.position]} has rank 0, matmul needs at least 1 dim'


def matmul_shape(a: Shape[D, V], b: Shape[D, V], transpose_a: Flag, transpose_b: Flag, dims: Dims[D]) -> Shape[D, V] | Problem:
    """The shape of ``matmul(a, b, transpose_a, transpose_b)``, as exact as the shapes allow.

    >>> from typedtensor._shape_rules import INT_DIMS
    >>> matmul_shape(Shape((5, 32, 784)), Shape((10, 784)), False, True, INT_DIMS)
    Shape(prefix=(5, 32, 10), variadic=None, suffix=())
    """
    outcomes = [
        _matmul_shape(a, b, flag_a, flag_b, dims) for flag_a in _values(transpose_a) for flag_b in _values(transpose_b)
    ]
    shapes = [outcome for outcome in outcomes if isinstance(outcome, Shape)]
    if not shapes:
        return outcomes[0]  # wrong whichever value an unknown flag has
    return _agreement(shapes)


def _values(flag: Flag) -> tuple[bool, ...]:
    return (False, True) if isinstance(flag, Unknown) else (flag,)


def _agreement(shapes: list[Shape[D, V]]) -> Shape[D, V]:
    """What every one of ``shapes`` says: their dims where they agree, else unknown dims."""
    first = shapes[0]
    if all(shape == first for shape in shapes):
        return first
    if first.rank is None or any(shape.rank != first.rank for shape in shapes):
        return Shape((), UNKNOWN)
    columns = zip(*(shape.prefix for shape in shapes))
    return Shape(tuple(column[0] if all(dim == column[0] for dim in column) else UNKNOWN for column in columns))


def _matmul_shape(a: Shape[D, V], b: Shape[D, V], transpose_a: bool, transpose_b: bool, dims: Dims[D]) -> Shape[D, V] | Problem:
    for position, shape in enumerate((a, b)):
        if shape.rank == 0:
            return RankZeroOperand(position)
    left, right = _split(a, inner_last=not transpose_a), _split(b, inner_last=transpose_b)
    if left is None or right is None:
        return Shape((), UNKNOWN)  # where the inner dim sits depends on a rank not known
    (a_rest, a_inner), (b_rest, b_inner) = left, right
    size_a, size_b = dims.size_of(a_inner), dims.size_of(b_inner)
    if size_a is not None and size_b is not None and size_a != size_b:
        return InnerDimsDiffer((size_a, size_b), (transpose_a, transpose_b))
    product = _product_shape(a, b, a_rest, b_rest, dims)
    named = clash(a_inner, b_inner, dims)
    if named is None or (isinstance(product, Problem) and product.code != DimsMayDiffer.code):
        return product  # a mismatch of batch sizes outranks a clash of named inner dims
    return DimsMayDiffer("matmul", named, label="inner dims")


def _product_shape(a: Shape[D, V], b: Shape[D, V], a_rest: Shape[D, V], b_rest: Shape[D, V], dims: Dims[D]) -> Shape[D, V] | Problem:
    """The result from what is left of each operand without its inner dim (batch and N, batch and M)."""
    if a.rank == 1:
        return b_rest
    if b.rank == 1:
        return a_rest
    if b.rank == 2:
        # ``[..., N, K] @ [K, M]``, also when ``a`` may be 1-D (``[*Ts, K]``): its rest, then M.
        return _with_known(a_rest, _known(a_rest) + b_rest.prefix)
    a_last, b_last = _last(a_rest), _last(b_rest)
    if a_last is None or b_last is None:
        return Shape((), UNKNOWN)
    (a_batch, n), (b_batch, m) = a_last, b_last
    batch = broadcast_shapes([a_batch, b_batch], dims)
    if isinstance(batch, BroadcastMismatch):
        return BatchDimsDiffer(batch.sizes, batch.axis - 2)
    if isinstance(batch, DimsMayDiffer):
        return replace(batch, action="matmul", label="batch dims", axis=None if batch.axis is None else batch.axis - 2)
    return _with_known(batch, _known(batch) + (n, m))


def _split(shape: Shape[D, V], inner_last: bool) -> tuple[Shape[D, V], D | Unknown] | None:
    """``shape`` without its inner dim, and the inner dim (last, or second to last); None if unknown."""
    known = _known(shape)
    if shape.rank == 1:
        return Shape(()), known[0]  # 1-D: K whether transposed or not
    position = len(known) - 1 if inner_last else len(known) - 2
    if position < 0:
        return None
    return _with_known(shape, known[:position] + known[position + 1 :]), known[position]


def _last(shape: Shape[D, V]) -> tuple[Shape[D, V], D | Unknown] | None:
    """``shape`` without its last dim, and that dim; None if a run of unknown length ends it."""
    known = _known(shape)
    return (_with_known(shape, known[:-1]), known[-1]) if known else None


def _known(shape: Shape[D, V]) -> tuple[D | Unknown, ...]:
    """The dims whose distance from the end is known: all of a fixed rank, the suffix of a run."""
    return shape.prefix if shape.variadic is None else shape.suffix


def _with_known(shape: Shape[D, V], known: tuple[D | Unknown, ...]) -> Shape[D, V]:
    """``shape`` with ``known`` in place of the dims ``_known`` gives."""
    return Shape(known) if shape.variadic is None else Shape(shape.prefix, shape.variadic, known)
