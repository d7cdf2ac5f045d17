"""``matmul`` of arrays: numpy's matmul with TensorFlow's transpose flags, checked before numpy runs.

``[..., N, K] @ [..., K, M] -> [..., N, M]``: batch dims broadcast, a 1-D operand is numpy's (a
1-D left operand has no ``N``, a 1-D right operand no ``M``), ``transpose_a``/``transpose_b``
swap the last two dims of their operand first (and leave a 1-D operand as it is, as ``v.T``
does). Inner dims that differ, batch dims that do not broadcast and rank-0 operands raise
``MatmulError`` naming both operands. The dtype is numpy's promotion of the two.
"""

from __future__ import annotations

import functools
from typing import Final

import numpy as np

from typedtensor._dtypes import bool_, generic, int64, marker_of, numpy_dtype_like
from typedtensor._ops.backends import rule_shape, same_library, to_dtype
from typedtensor._ops.common import Array, as_array, fail, namespace, promoted
from typedtensor._shape_rules import INT_DIMS, Problem, matmul_shape

_CACHE_SIZE: Final = 4096


def matmul(left: Array, right: Array, transpose_a: object, transpose_b: object) -> Array:
    """The matrix product ``left @ right``, after transposing either one's last two dims if asked."""
    plain = transpose_a is False and transpose_b is False
    flag_a, flag_b = (False, False) if plain else (_flag(transpose_a, "transpose_a"), _flag(transpose_b, "transpose_b"))
    problem = _matmul_problem(left.shape, right.shape, flag_a, flag_b)
    if problem is not None:
        fail(problem, "matmul", [left, right])
    result = None
    if type(left) is not np.ndarray or type(right) is not np.ndarray:
        left, right, result = _library_operands(left, right)
    xp = namespace(left)
    if flag_a and left.ndim > 1:
        left = xp.matrix_transpose(left)
    if flag_b and right.ndim > 1:
        right = xp.matrix_transpose(right)
    product = left @ right  # the operator: numpy and torch run it faster than their matmul function
    return as_array(product if result is None else to_dtype(product, result))


def _library_operands(left: Array, right: Array) -> tuple[Array, Array, type[generic]]:
    """Another library's operands and the rule's dtype of their product (dask's of two int32
    matrices is int64). Booleans multiply as int64 (any of the products is a nonzero sum), which
    neither torch nor the array API does."""
    same_library("matmul", (left, right))
    left, right = promoted((left, right))
    dtype = numpy_dtype_like(left.dtype)
    if dtype.kind != "b":
        return left, right, marker_of(dtype)
    return to_dtype(left, int64), to_dtype(right, int64), bool_


def _flag(value: object, parameter: str) -> bool:
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise TypeError(f'"matmul": {parameter} must be True or False, got {type(value).__name__} {value!r}')


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _matmul_problem(a: tuple[int, ...], b: tuple[int, ...], transpose_a: bool, transpose_b: bool) -> Problem | None:
    shape = matmul_shape(rule_shape(a), rule_shape(b), transpose_a, transpose_b, INT_DIMS)
    return shape if isinstance(shape, Problem) else None
