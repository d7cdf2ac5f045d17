"""``matmul`` and ``@``: numpy's matmul with TensorFlow's transpose flags, checked before numpy runs.

``[..., N, K] @ [..., K, M] -> [..., N, M]``: batch dims broadcast, a 1-D operand is numpy's (a
1-D left operand has no ``N``, a 1-D right operand no ``M``), ``transpose_a``/``transpose_b``
swap the last two dims of their operand first (and leave a 1-D operand as it is, as ``v.T``
does). Inner dims that differ, batch dims that do not broadcast and rank-0 operands raise
``MatmulError`` naming both operands. The dtype is numpy's promotion of the two.
"""

from __future__ import annotations

import functools
from typing import Final, Literal, overload

import numpy as np

from typedtensor._ops.common import AnyTensor, array_of, fail, namespace, result
from typedtensor._shape_rules import INT_DIMS, Problem, Shape, matmul_shape
from typedtensor._generated.type_vars import BoolT, ComplexT, FloatingT, K, M, N, SignedT, UnsignedT
from typedtensor._tensor import Tensor

_CACHE_SIZE: Final = 4096


@overload
def matmul(a: Tensor[FloatingT, N, K], b: Tensor[FloatingT, K, M], transpose_a: Literal[False] = False, transpose_b: Literal[False] = False) -> Tensor[FloatingT, N, M]: ...
@overload
def matmul(a: Tensor[SignedT, N, K], b: Tensor[SignedT, K, M], transpose_a: Literal[False] = False, transpose_b: Literal[False] = False) -> Tensor[SignedT, N, M]: ...
@overload
def matmul(a: Tensor[UnsignedT, N, K], b: Tensor[UnsignedT, K, M], transpose_a: Literal[False] = False, transpose_b: Literal[False] = False) -> Tensor[UnsignedT, N, M]: ...
@overload
def matmul(a: Tensor[ComplexT, N, K], b: Tensor[ComplexT, K, M], transpose_a: Literal[False] = False, transpose_b: Literal[False] = False) -> Tensor[ComplexT, N, M]: ...
@overload
def matmul(a: Tensor[BoolT, N, K], b: Tensor[BoolT, K, M], transpose_a: Literal[False] = False, transpose_b: Literal[False] = False) -> Tensor[BoolT, N, M]: ...
@overload
def matmul(a: AnyTensor, b: AnyTensor, transpose_a: bool = False, transpose_b: bool = False) -> AnyTensor: ...
def matmul(a: AnyTensor, b: AnyTensor, transpose_a: bool = False, transpose_b: bool = False) -> AnyTensor:
    """The matrix product ``a @ b``, after transposing either operand's last two dims if asked.

    >>> import typedtensor as tt
    >>> tt.matmul(tt.ones((2, 3)), tt.ones((4, 3)), transpose_b=True)
    Tensor[float32, 2, 4]([[3., 3., 3., 3.],
                           [3., 3., 3., 3.]])
    """
    left, right = array_of("matmul", a, "a"), array_of("matmul", b, "b")
    plain = transpose_a is False and transpose_b is False
    flag_a, flag_b = (False, False) if plain else (_flag(transpose_a, "transpose_a"), _flag(transpose_b, "transpose_b"))
    problem = _matmul_problem(left.shape, right.shape, flag_a, flag_b)
    if problem is not None:
        fail(problem, "matmul", [a, b])
    xp = namespace(left)
    if flag_a and left.ndim > 1:
        left = xp.matrix_transpose(left)
    if flag_b and right.ndim > 1:
        right = xp.matrix_transpose(right)
    return result(xp.matmul(left, right))


def _flag(value: object, parameter: str) -> bool:
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise TypeError(f'"matmul": {parameter} must be True or False, got {type(value).__name__} {value!r}')


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _matmul_problem(a: tuple[int, ...], b: tuple[int, ...], transpose_a: bool, transpose_b: bool) -> Problem | None:
    shape = matmul_shape(Shape[int, None](a), Shape[int, None](b), transpose_a, transpose_b, INT_DIMS)
    return shape if isinstance(shape, Problem) else None
