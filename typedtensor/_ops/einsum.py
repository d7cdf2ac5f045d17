"""``einsum`` of arrays: the subscripts checked by the shared rule (cached by shapes) before the
library runs; numpy's ``einsum``, torch's and jax's their own.

numpy's optimised path (a search, then BLAS through ``tensordot``) costs about 20 us: on two
16x16 operands it is 3x slower than the plain loop, from 32x32 on it pays (3.5x faster at 64x64,
8x at 128x128, measured on this machine). So it is used for more than two operands, or when an
operand holds at least ``_OPTIMISED_FROM`` elements.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Final

import numpy as np

from typedtensor._dtypes import bool_, float32, marker_of, numpy_dtype_like
from typedtensor._ops.backends import same_library, to_dtype
from typedtensor._ops.common import Array, as_array, fail, namespace, promoted
from typedtensor._shape_rules import INT_DIMS, Problem, Shape, einsum_shape

_CACHE_SIZE: Final = 4096
_OPTIMISED_FROM: Final = 1024  # elements of one operand: a 32x32 matrix


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _einsum_problem(subscripts: str, shapes: tuple[tuple[int, ...], ...]) -> Problem | None:
    checked = einsum_shape(subscripts, [Shape[int, None](shape) for shape in shapes], INT_DIMS)
    return checked if isinstance(checked, Problem) else None


def einsum(subscripts: object, arrays: Sequence[Array]) -> Array:
    """``einsum(subscripts, *arrays)``: numpy's semantics, the dtype the operands' promotion."""
    if not isinstance(subscripts, str):
        raise TypeError(f'"einsum": subscripts must be a str such as "ij,jk->ik", got {type(subscripts).__name__} {subscripts!r}')
    problem = _einsum_problem(subscripts, tuple(tuple(array.shape) for array in arrays))
    if problem is not None:
        fail(problem, "einsum", arrays)
    if all(type(array) is np.ndarray for array in arrays):
        optimise = len(arrays) > 2 or any(array.size >= _OPTIMISED_FROM for array in arrays)
        if optimise and len({array.dtype for array in arrays}) > 1:
            # The optimised path contracts pairs in their own dtype: booleans beside int8 would
            # sum as booleans (1 + 1 = 1) before meeting the int8. The plain loop casts first.
            dtype = np.result_type(*arrays)
            arrays = [array.astype(dtype, copy=False) for array in arrays]
        return as_array(np.einsum(subscripts, *arrays, optimize=optimise))
    backend = same_library("einsum", tuple(arrays))
    function = getattr(namespace(arrays[0]), "einsum", None)
    if function is None:
        raise TypeError(f'"einsum": {backend.name} has no einsum; convert the tensors first (x.numpy())')
    operands = promoted(tuple(arrays))
    result = marker_of(numpy_dtype_like(operands[0].dtype))
    if result is bool_:  # torch has no boolean matmul: a float sum of the 0/1 products is 0 just where numpy's or of ands is False
        operands = tuple(to_dtype(operand, float32) for operand in operands)
    # dask sums its chunks' partial integer sums in int64 (of int8 too): the result back in the
    # promoted dtype has numpy's bits, as integer sums wrap modulo the width either way
    return as_array(to_dtype(function(subscripts, *operands), result))
