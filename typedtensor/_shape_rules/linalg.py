"""Shape and dtype rules of ``typedtensor.linalg``: numpy's linalg over the last two dims.

The last two dims of a tensor are its matrices, the dims before them its batch. ``inv``, ``det``,
``cholesky`` and ``eigh`` need square matrices: two literal sizes that differ are ``NotSquare``
(``tensor-shape``), a named dim against another dim ``DimsMayDiffer`` (``tensor-dim``, SPEC §7).
``svd`` and ``qr`` take any matrix; the size ``min(M, N)`` is a literal on literal dims, the dim
itself where both are the same dim, and unknown otherwise (never a guess). ``solve(a, b)``: ``b``
is one vector ``[M]`` or a batch of matrices ``[..., M, K]`` whose batch dims broadcast with
``a``'s. The dtype: floats keep theirs, integers and booleans give ``float64``; complex tensors
are refused (``tensor-dtype``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from .broadcast import BroadcastMismatch, broadcast_shapes
from .core import UNKNOWN, Clash, D, Dims, DimsMayDiffer, Problem, Shape, Unknown, V, clash, join_operands
from .dtypes import BOOL, CATEGORIES, COMPLEXES, FLOATS
from .elementwise import DTypeRefused

#: The ops that need square matrices.
SQUARE_OPS = ("inv", "det", "cholesky", "eigh")


@dataclass(frozen=True)
class NotAMatrix(Problem):
    """An operand of fewer dims than the op needs: 2 for a matrix, 1 for ``solve``'s ``b``."""

    code: ClassVar[str] = "tensor-shape"
    rank: int
    needed: int = 2
    position: int = 0  # which operand

    def message(self, op: str, operands: Sequence[str]) -> str:
        what = "matrices (at least 2 dims)" if self.needed == 2 else f"at least {self.needed} dim"
        return f'"{op}" takes {what}: {operands[self.position]} has {self.rank} dim{"" if self.rank == 1 else "s"}'


@dataclass(frozen=True)
class NotSquare(Problem):
    """Matrices of two different literal sizes where the op needs square ones."""

    code: ClassVar[str] = "tensor-shape"
    sizes: tuple[int, int]

    def message(self, op: str, operands: Sequence[str]) -> str:
        rows, columns = self.sizes
        return f'"{op}" needs square matrices: {operands[0]} holds {rows} by {columns} matrices'


@dataclass(frozen=True)
class SolveMismatch(Problem):
    """``solve(a, b)`` where ``b`` has not as many rows as ``a``'s matrices (literal sizes)."""

    code: ClassVar[str] = "tensor-shape"
    sizes: tuple[int, int]

    def message(self, op: str, operands: Sequence[str]) -> str:
        size, rows = self.sizes
        return f'Cannot solve {join_operands(operands)} for "{op}": the matrices are {size}x{size}, b has {rows} rows'


@dataclass(frozen=True)
class MayNotBeSquare(Problem):
    """Matrices whose two dims clash (a named dim in them): square only for some sizes (SPEC §7)."""

    code: ClassVar[str] = "tensor-dim"
    clash: Clash

    def message(self, op: str, operands: Sequence[str]) -> str:
        rows, columns = self.clash.dims
        return f'"{op}" needs square matrices: {operands[0]} holds {rows} by {columns} matrices, and {self.clash.pair()} may differ: {self.clash.reason()}'


def linalg_dtype(dtype: str) -> str | DTypeRefused:
    """The dtype of a linalg result: a float's own, ``float64`` for integers and booleans; complex
    dtypes are refused. A category that may hold either (``inexact``) gives ``floating``: the
    run refuses a complex tensor, but a float one runs.

    >>> linalg_dtype("float32"), linalg_dtype("int8"), linalg_dtype("number")
    ('float32', 'float64', 'floating')
    """
    if dtype in COMPLEXES or dtype == "complexfloating":
        return DTypeRefused("typedtensor.linalg takes real tensors (floats, integers, booleans); complex ones are not supported")
    if dtype in FLOATS or dtype == "floating":
        return dtype
    if dtype == BOOL or dtype in CATEGORIES["integer"] or dtype in ("integer", "signedinteger", "unsignedinteger"):
        return "float64"
    return "floating"


def square_shapes(op: str, shape: Shape[D, V], dims: Dims[D]) -> tuple[Shape[D, V], ...] | Problem:
    """The results of a square op: ``inv`` and ``cholesky`` one of the shape, ``det`` one of the
    batch, ``eigh`` the values ``[..., N]`` and the vectors ``[..., N, N]``."""
    square = _square(shape, dims)
    if isinstance(square, Problem):
        return square
    if square is None:  # a run of unknown length hides the matrix
        unknown: Shape[D, V] = Shape((), UNKNOWN)
        return {"det": (unknown,), "eigh": (unknown, shape)}.get(op, (shape,))
    batch, size = square
    matrices = _with_tail(batch, (size, size))
    return {"det": (batch,), "eigh": (_with_tail(batch, (size,)), matrices)}.get(op, (matrices,))


def svd_shapes(shape: Shape[D, V], full_matrices: bool | Unknown, dims: Dims[D]) -> tuple[Shape[D, V], Shape[D, V], Shape[D, V]] | Problem:
    """``svd`` of ``[..., M, N]``: ``u`` ``[..., M, K]``, ``s`` ``[..., K]``, ``vh`` ``[..., K, N]``
    with ``K = min(M, N)``; with ``full_matrices`` ``u`` is ``[..., M, M]`` and ``vh`` ``[..., N, N]``."""
    matrix = _matrix(shape)
    if isinstance(matrix, Problem):
        return matrix
    if matrix is None:
        return Shape((), UNKNOWN), Shape((), UNKNOWN), Shape((), UNKNOWN)
    batch, rows, columns = matrix
    smaller = _smaller(rows, columns, dims)
    left: D | Unknown
    right: D | Unknown
    if isinstance(full_matrices, Unknown):
        left, right = UNKNOWN, UNKNOWN
    else:
        left, right = (rows, columns) if full_matrices else (smaller, smaller)
    return _with_tail(batch, (rows, left)), _with_tail(batch, (smaller,)), _with_tail(batch, (right, columns))


def qr_shapes(shape: Shape[D, V], dims: Dims[D]) -> tuple[Shape[D, V], Shape[D, V]] | Problem:
    """``qr`` of ``[..., M, N]`` (numpy's ``reduced`` mode): ``q`` ``[..., M, K]``, ``r`` ``[..., K, N]``."""
    matrix = _matrix(shape)
    if isinstance(matrix, Problem):
        return matrix
    if matrix is None:
        return Shape((), UNKNOWN), Shape((), UNKNOWN)
    batch, rows, columns = matrix
    smaller = _smaller(rows, columns, dims)
    return _with_tail(batch, (rows, smaller)), _with_tail(batch, (smaller, columns))


def solve_shape(a: Shape[D, V], b: Shape[D, V], dims: Dims[D]) -> Shape[D, V] | Problem:
    """``solve(a, b)`` (numpy 2's): ``a`` ``[..., M, M]``; ``b`` ``[M]`` gives ``[..., M]``, ``b``
    ``[..., M, K]`` gives the broadcast batch and ``[M, K]``."""
    square = _square(a, dims)
    if isinstance(square, Problem):
        return square
    if b.rank == 0:
        return NotAMatrix(0, needed=1, position=1)
    if square is None:
        return Shape((), UNKNOWN)
    batch, size = square
    if b.rank == 1:
        rows = b.prefix[0]
        problem = _rows_problem(size, rows, dims)
        return problem or _with_tail(batch, (_either(size, rows),))
    matrix = _matrix(b)
    if matrix is None or isinstance(matrix, Problem):
        return Shape((), UNKNOWN)  # b may have 1 dim or more: where its rows are is not known
    b_batch, rows, columns = matrix
    literal_problem = _rows_problem(size, rows, dims)
    if isinstance(literal_problem, SolveMismatch):
        return literal_problem
    joined = broadcast_shapes([batch, b_batch], dims)
    if isinstance(joined, BroadcastMismatch):
        return BroadcastMismatch(joined.sizes, joined.axis - 2)  # counted from the end of the operands
    if isinstance(joined, DimsMayDiffer):
        return literal_problem or joined
    return literal_problem or _with_tail(joined, (_either(size, rows), columns))


def _rows_problem(size: D | Unknown, rows: D | Unknown, dims: Dims[D]) -> SolveMismatch | DimsMayDiffer | None:
    """Whether ``b``'s rows may not be as many as the size of ``a``'s matrices."""
    sizes = dims.size_of(size), dims.size_of(rows)
    if sizes[0] is not None and sizes[1] is not None and sizes[0] != sizes[1]:
        return SolveMismatch((sizes[0], sizes[1]))
    named = clash(size, rows, dims)
    return None if named is None else DimsMayDiffer("solve", named, label="rows")


def _matrix(shape: Shape[D, V]) -> tuple[Shape[D, V], D | Unknown, D | Unknown] | NotAMatrix | None:
    """The batch, rows and columns of ``shape``; None where a run of unknown length hides them."""
    if shape.rank is not None and shape.rank < 2:
        return NotAMatrix(shape.rank)
    known = shape.prefix if shape.variadic is None else shape.suffix
    if len(known) < 2:
        return None
    batch = Shape(known[:-2]) if shape.variadic is None else Shape(shape.prefix, shape.variadic, known[:-2])
    return batch, known[-2], known[-1]


def _square(shape: Shape[D, V], dims: Dims[D]) -> tuple[Shape[D, V], D | Unknown] | Problem | None:
    """The batch and the size of square matrices, or why they may not be square."""
    matrix = _matrix(shape)
    if matrix is None or isinstance(matrix, Problem):
        return matrix
    batch, rows, columns = matrix
    sizes = dims.size_of(rows), dims.size_of(columns)
    if sizes[0] is not None and sizes[1] is not None and sizes[0] != sizes[1]:
        return NotSquare((sizes[0], sizes[1]))
    named = clash(rows, columns, dims)
    if named is not None:
        return MayNotBeSquare(named)
    return batch, _either(rows, columns)


def _either(first: D | Unknown, second: D | Unknown) -> D | Unknown:
    """Of two dims the run needs equal, the one that is known."""
    return second if isinstance(first, Unknown) else first


def _smaller(rows: D | Unknown, columns: D | Unknown, dims: Dims[D]) -> D | Unknown:
    """``min(rows, columns)``: a literal of two literals, the dim itself of one dim twice, else unknown."""
    sizes = dims.size_of(rows), dims.size_of(columns)
    if sizes[0] is not None and sizes[1] is not None:
        return dims.literal(min(sizes[0], sizes[1]))
    return rows if rows == columns else UNKNOWN


def _with_tail(batch: Shape[D, V], tail: tuple[D | Unknown, ...]) -> Shape[D, V]:
    """``batch`` followed by ``tail``."""
    if batch.variadic is None:
        return Shape(batch.prefix + tail)
    return Shape(batch.prefix, batch.variadic, batch.suffix + tail)
