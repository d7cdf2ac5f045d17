"""``matmul`` of arrays: numpy's matmul with TensorFlow's transpose flags, checked before numpy runs.

``[..., N, K] @ [..., K, M] -> [..., N, M]``: batch dims broadcast, a 1-D operand is numpy's (a
1-D left operand has no ``N``, a 1-D right operand no ``M``), ``transpose_a``/``transpose_b``
swap the last two dims of their operand first (and leave a 1-D operand as it is, as ``v.T``
does). Inner dims that differ, batch dims that do not broadcast and rank-0 operands raise
``MatmulError`` naming both operands. The dtype is numpy's promotion of the two.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from typing import Any, Final, TypeAlias

import numpy as np

from typedtensor._dtypes import bool_, int64, numpy_dtype_like
from typedtensor._ops.backends import rule_shape, same_library
from typedtensor._ops.common import Array, as_array, fail, namespace, promotion
from typedtensor._shape_rules import INT_DIMS, Problem, matmul_shape

_CACHE_SIZE: Final = 4096


def matmul(left: Array, right: Array, transpose_a: object, transpose_b: object) -> Array:
    """The matrix product ``left @ right``, after transposing either one's last two dims if asked."""
    plain = transpose_a is False and transpose_b is False
    flag_a, flag_b = (False, False) if plain else (_flag(transpose_a, "transpose_a"), _flag(transpose_b, "transpose_b"))
    problem = _matmul_problem(left.shape, right.shape, flag_a, flag_b)
    if problem is not None:
        fail(problem, "matmul", [left, right])
    result, multiply = None, None  # another library's product dtype and function
    if type(left) is not np.ndarray or type(right) is not np.ndarray:
        left, right, result, multiply = _library_operands(left, right)
    xp = namespace(left)
    if flag_a and left.ndim > 1:
        left = xp.matrix_transpose(left)
    if flag_b and right.ndim > 1:
        right = xp.matrix_transpose(right)
    if multiply is None:
        return as_array(left @ right)  # the operator, which numpy runs faster than its function; may be a scalar
    product = multiply(left, right)
    return product if product.dtype == result else xp.astype(product, result)  # type: ignore[no-any-return]


#: How a product runs on arrays of another library, by each operand's type and dtype: the
#: library's dtypes to cast the operands to first (None: none) and the product's, and the function
#: multiplying them. Found once, so that a call pays a dict lookup, not the promotion rules.
_ProductCasts: TypeAlias = tuple[Any, Any, Any, Callable[[Any, Any], Any]]
_PRODUCT_CASTS: dict[tuple[object, ...], _ProductCasts] = {}


def _library_operands(left: Array, right: Array) -> tuple[Array, Array, Any, Callable[[Any, Any], Any]]:
    """Another library's operands, cast, the library's dtype of their product and the function multiplying them."""
    key = (type(left), left.dtype, type(right), right.dtype)
    first, second, result, multiply = _PRODUCT_CASTS.get(key) or _product_casts(key, left, right)
    xp = namespace(left)
    return left if first is None else xp.astype(left, first), right if second is None else xp.astype(right, second), result, multiply


def _product_casts(key: tuple[object, ...], left: Array, right: Array) -> _ProductCasts:
    """The casts of ``_library_operands``, kept under ``key``: to the operands' promotion, and
    the rule's dtype of the product (dask's of two int32 matrices is int64). Booleans multiply as
    int64 (any of the products is a nonzero sum), which neither torch nor the array API does."""
    backend = same_library("matmul", (left, right))
    dtypes = numpy_dtype_like(left.dtype), numpy_dtype_like(right.dtype)
    result = promotion(dtypes)
    marker = int64 if result is bool_ else result
    first, second = (None if dtype == marker.numpy_dtype else backend.dtype(marker) for dtype in dtypes)
    # The operator, which torch runs faster than its function; jax's checks the other operand and
    # then calls jnp.matmul (0.7 us more on small matrices).
    multiply = backend.xp.matmul if backend.name == "jax" else operator.matmul
    casts = first, second, backend.dtype(result), multiply
    if backend.lasting(marker, result):
        _PRODUCT_CASTS[key] = casts
    return casts


def _flag(value: object, parameter: str) -> bool:
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise TypeError(f'"matmul": {parameter} must be True or False, got {type(value).__name__} {value!r}')


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _matmul_problem(a: tuple[int, ...], b: tuple[int, ...], transpose_a: bool, transpose_b: bool) -> Problem | None:
    shape = matmul_shape(rule_shape(a), rule_shape(b), transpose_a, transpose_b, INT_DIMS)
    return shape if isinstance(shape, Problem) else None
