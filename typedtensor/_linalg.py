"""``matmul`` and ``@``: numpy's matmul with TensorFlow's transpose flags, checked before numpy
runs (``typedtensor._ops.linalg``, on the tensors' arrays).

``[..., N, K] @ [..., K, M] -> [..., N, M]``: batch dims broadcast, a 1-D operand is numpy's (a
1-D left operand has no ``N``, a 1-D right operand no ``M``), ``transpose_a``/``transpose_b``
swap the last two dims of their operand first (and leave a 1-D operand as it is, as ``v.T``
does). Inner dims that differ, batch dims that do not broadcast and rank-0 operands raise
``MatmulError`` naming both operands. The dtype is numpy's promotion of the two.
"""

from __future__ import annotations

from typing import Literal, overload

from typedtensor._generated.type_vars import Batch, BoolT, ComplexT, FloatingT, K, M, N, SignedT, UnsignedT
from typedtensor._ops import linalg as _linalg
from typedtensor._tensor import AnyTensor, Tensor, unwrap, wrap


@overload
def matmul(
    a: Tensor[FloatingT, *Batch, N, K], b: Tensor[FloatingT, K, M], transpose_a: Literal[False] = False, transpose_b: Literal[False] = False
) -> Tensor[FloatingT, *Batch, N, M]: ...
@overload
def matmul(
    a: Tensor[SignedT, *Batch, N, K], b: Tensor[SignedT, K, M], transpose_a: Literal[False] = False, transpose_b: Literal[False] = False
) -> Tensor[SignedT, *Batch, N, M]: ...
@overload
def matmul(
    a: Tensor[UnsignedT, *Batch, N, K], b: Tensor[UnsignedT, K, M], transpose_a: Literal[False] = False, transpose_b: Literal[False] = False
) -> Tensor[UnsignedT, *Batch, N, M]: ...
@overload
def matmul(
    a: Tensor[ComplexT, *Batch, N, K], b: Tensor[ComplexT, K, M], transpose_a: Literal[False] = False, transpose_b: Literal[False] = False
) -> Tensor[ComplexT, *Batch, N, M]: ...
@overload
def matmul(a: Tensor[BoolT, *Batch, N, K], b: Tensor[BoolT, K, M], transpose_a: Literal[False] = False, transpose_b: Literal[False] = False) -> Tensor[BoolT, *Batch, N, M]: ...
@overload
def matmul(a: AnyTensor, b: AnyTensor, transpose_a: bool = False, transpose_b: bool = False) -> AnyTensor: ...
def matmul(a: AnyTensor, b: AnyTensor, transpose_a: bool = False, transpose_b: bool = False) -> AnyTensor:
    """The matrix product ``a @ b``, after transposing either operand's last two dims if asked.

    >>> import typedtensor as tt
    >>> tt.matmul(tt.ones((2, 3)), tt.ones((4, 3)), transpose_b=True)
    Tensor[float32, 2, 4]([[3., 3., 3., 3.],
                           [3., 3., 3., 3.]])
    """
    return wrap(_linalg.matmul(unwrap("matmul", a, "a"), unwrap("matmul", b, "b"), transpose_a, transpose_b))
