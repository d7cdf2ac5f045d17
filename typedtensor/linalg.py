"""Linear algebra: ``norm``, ``inv``, ``det``, ``solve``, ``cholesky``, ``eigh``, ``svd``, ``qr``.

numpy's ``linalg`` over the last two dims of a tensor (its matrices; the dims before them are a
batch), checked before the library runs (``typedtensor._ops.matrices``): ``inv``, ``det``,
``cholesky`` and ``eigh`` need square matrices, ``solve``'s ``b`` as many rows as ``a``'s
matrices; a tensor of fewer than 2 dims, or matrices of the wrong size, raise
``TensorShapeError`` naming the tensors. Floats keep their dtype, integers and booleans give
``float64``; complex tensors are refused (``TensorDTypeError``). With the mypy plugin every
result's shape is exact (``svd``'s ``min(M, N)`` a literal on literal dims).

>>> import typedtensor as tt
>>> tt.linalg.det(tt.tensor([[2.0, 0.0], [0.0, 3.0]]))
Tensor[float64](6.)
"""

from __future__ import annotations

from typing import Any, Literal, overload

from typedtensor._dtypes import bool_, float64, integer
from typedtensor._generated.type_vars import Batch, FloatingT, K, M, N
from typedtensor._ops import matrices as _matrices
from typedtensor._tensor import AnyTensor, Axis, AxisIndexT, Tensor, unwrap, wrap

__all__ = ["cholesky", "det", "eigh", "inv", "norm", "qr", "solve", "svd"]

#: The dtypes computed in ``float64``.
_Integral = integer | bool_
_Unknown = tuple[Any, ...]


@overload
def norm(x: Tensor[FloatingT, *_Unknown], axis: None = None, keepdims: Literal[False] = False) -> Tensor[FloatingT]: ...
@overload
def norm(x: Tensor[_Integral, *_Unknown], axis: None = None, keepdims: Literal[False] = False) -> Tensor[float64]: ...
@overload
def norm(x: Tensor[FloatingT, *_Unknown], axis: Axis[AxisIndexT] = None, keepdims: bool = False) -> Tensor[FloatingT, *_Unknown]: ...
@overload
def norm(x: Tensor[_Integral, *_Unknown], axis: Axis[AxisIndexT] = None, keepdims: bool = False) -> Tensor[float64, *_Unknown]: ...
def norm(x: AnyTensor, axis: Axis[AxisIndexT] = None, keepdims: bool = False) -> AnyTensor:
    """The 2-norm ``sqrt(sum(x * x))`` over ``axis``, which takes every form the reductions take;
    over all elements by default (of a matrix, its Frobenius norm).

    >>> import typedtensor as tt
    >>> tt.linalg.norm(tt.tensor([[3.0, 4.0], [0.0, 0.0]]), axis=1)
    Tensor[float64, 2]([5., 0.])
    """
    return wrap(_matrices.norm(unwrap("norm", x), axis, keepdims))


@overload
def inv(x: Tensor[FloatingT, *Batch, N, N]) -> Tensor[FloatingT, *Batch, N, N]: ...
@overload
def inv(x: Tensor[_Integral, *Batch, N, N]) -> Tensor[float64, *Batch, N, N]: ...
@overload
def inv(x: Tensor[FloatingT, *_Unknown]) -> Tensor[FloatingT, *_Unknown]: ...
@overload
def inv(x: Tensor[_Integral, *_Unknown]) -> Tensor[float64, *_Unknown]: ...
def inv(x: AnyTensor) -> AnyTensor:
    """The inverse of each matrix (numpy's ``LinAlgError`` for a singular one).

    >>> import typedtensor as tt
    >>> tt.linalg.inv(tt.tensor([[2.0, 0.0], [0.0, 4.0]]))
    Tensor[float64, 2, 2]([[0.5 , 0.  ],
                           [0.  , 0.25]])
    """
    return wrap(_matrices.square("inv", unwrap("inv", x))[0])


@overload
def cholesky(x: Tensor[FloatingT, *Batch, N, N]) -> Tensor[FloatingT, *Batch, N, N]: ...
@overload
def cholesky(x: Tensor[_Integral, *Batch, N, N]) -> Tensor[float64, *Batch, N, N]: ...
@overload
def cholesky(x: Tensor[FloatingT, *_Unknown]) -> Tensor[FloatingT, *_Unknown]: ...
@overload
def cholesky(x: Tensor[_Integral, *_Unknown]) -> Tensor[float64, *_Unknown]: ...
def cholesky(x: AnyTensor) -> AnyTensor:
    """The lower triangular ``L`` with ``L @ L.T == x`` for each symmetric positive-definite matrix."""
    return wrap(_matrices.square("cholesky", unwrap("cholesky", x))[0])


@overload
def det(x: Tensor[FloatingT, *Batch, N, N]) -> Tensor[FloatingT, *Batch]: ...
@overload
def det(x: Tensor[_Integral, *Batch, N, N]) -> Tensor[float64, *Batch]: ...
@overload
def det(x: Tensor[FloatingT, *_Unknown]) -> Tensor[FloatingT, *_Unknown]: ...
@overload
def det(x: Tensor[_Integral, *_Unknown]) -> Tensor[float64, *_Unknown]: ...
def det(x: AnyTensor) -> AnyTensor:
    """The determinant of each matrix: the batch dims remain."""
    return wrap(_matrices.square("det", unwrap("det", x))[0])


@overload
def eigh(x: Tensor[FloatingT, *Batch, N, N]) -> tuple[Tensor[FloatingT, *Batch, N], Tensor[FloatingT, *Batch, N, N]]: ...
@overload
def eigh(x: Tensor[_Integral, *Batch, N, N]) -> tuple[Tensor[float64, *Batch, N], Tensor[float64, *Batch, N, N]]: ...
@overload
def eigh(x: Tensor[FloatingT, *_Unknown]) -> tuple[Tensor[FloatingT, *_Unknown], Tensor[FloatingT, *_Unknown]]: ...
@overload
def eigh(x: Tensor[_Integral, *_Unknown]) -> tuple[Tensor[float64, *_Unknown], Tensor[float64, *_Unknown]]: ...
def eigh(x: AnyTensor) -> tuple[AnyTensor, AnyTensor]:
    """The eigenvalues (ascending) and eigenvectors (the columns) of each symmetric matrix, read
    from its lower triangle: ``(values [..., N], vectors [..., N, N])``.

    >>> import typedtensor as tt
    >>> values, vectors = tt.linalg.eigh(tt.tensor([[2.0, 0.0], [0.0, 1.0]]))
    >>> values
    Tensor[float64, 2]([1., 2.])
    """
    values, vectors = _matrices.square("eigh", unwrap("eigh", x))
    return wrap(values), wrap(vectors)


@overload
def svd(
    x: Tensor[FloatingT, *Batch, M, N], full_matrices: Literal[False] = False
) -> tuple[Tensor[FloatingT, *Batch, M, Any], Tensor[FloatingT, *Batch, Any], Tensor[FloatingT, *Batch, Any, N]]: ...
@overload
def svd(
    x: Tensor[FloatingT, *Batch, M, N], full_matrices: Literal[True]
) -> tuple[Tensor[FloatingT, *Batch, M, M], Tensor[FloatingT, *Batch, Any], Tensor[FloatingT, *Batch, N, N]]: ...
@overload
def svd(x: Tensor[FloatingT, *_Unknown], full_matrices: bool = False) -> tuple[Tensor[FloatingT, *_Unknown], Tensor[FloatingT, *_Unknown], Tensor[FloatingT, *_Unknown]]: ...
@overload
def svd(x: Tensor[_Integral, *_Unknown], full_matrices: bool = False) -> tuple[Tensor[float64, *_Unknown], Tensor[float64, *_Unknown], Tensor[float64, *_Unknown]]: ...
def svd(x: AnyTensor, full_matrices: bool = False) -> tuple[AnyTensor, AnyTensor, AnyTensor]:
    """``u``, ``s``, ``vh`` with ``x == u @ (s[..., None] * vh)`` for each ``[M, N]`` matrix:
    ``u`` ``[..., M, K]``, ``s`` ``[..., K]`` (descending), ``vh`` ``[..., K, N]``, ``K = min(M, N)``;
    with ``full_matrices`` ``u`` is ``[..., M, M]`` and ``vh`` ``[..., N, N]``."""
    u, s, vh = _matrices.svd(unwrap("svd", x), full_matrices)
    return wrap(u), wrap(s), wrap(vh)


@overload
def qr(x: Tensor[FloatingT, *Batch, M, N]) -> tuple[Tensor[FloatingT, *Batch, M, Any], Tensor[FloatingT, *Batch, Any, N]]: ...
@overload
def qr(x: Tensor[FloatingT, *_Unknown]) -> tuple[Tensor[FloatingT, *_Unknown], Tensor[FloatingT, *_Unknown]]: ...
@overload
def qr(x: Tensor[_Integral, *_Unknown]) -> tuple[Tensor[float64, *_Unknown], Tensor[float64, *_Unknown]]: ...
def qr(x: AnyTensor) -> tuple[AnyTensor, AnyTensor]:
    """``q`` ``[..., M, K]`` with orthonormal columns and the upper triangular ``r`` ``[..., K, N]``,
    ``x == q @ r``, ``K = min(M, N)`` (numpy's reduced mode)."""
    q, r = _matrices.qr(unwrap("qr", x))
    return wrap(q), wrap(r)


@overload
def solve(a: Tensor[FloatingT, *Batch, N, N], b: Tensor[FloatingT, N]) -> Tensor[FloatingT, *Batch, N]: ...
@overload
def solve(a: Tensor[FloatingT, N, N], b: Tensor[FloatingT, *Batch, N, K]) -> Tensor[FloatingT, *Batch, N, K]: ...
@overload
def solve(a: Tensor[FloatingT, *_Unknown], b: Tensor[FloatingT, *_Unknown]) -> Tensor[FloatingT, *_Unknown]: ...
@overload
def solve(a: AnyTensor, b: AnyTensor) -> Tensor[Any, *_Unknown]: ...
def solve(a: AnyTensor, b: AnyTensor) -> AnyTensor:
    """``x`` with ``a @ x == b`` for each matrix of ``a`` (numpy 2's rule): ``b`` ``[M]`` is one
    vector, ``b`` ``[..., M, K]`` a batch of matrices whose batch dims broadcast with ``a``'s.
    The dtype is the operands' promotion, then as the other ops (integers give ``float64``).

    >>> import typedtensor as tt
    >>> tt.linalg.solve(tt.tensor([[2.0, 0.0], [0.0, 4.0]]), tt.tensor([1.0, 1.0]))
    Tensor[float64, 2]([0.5 , 0.25])
    """
    return wrap(_matrices.solve(unwrap("solve", a, "a"), unwrap("solve", b, "b")))
