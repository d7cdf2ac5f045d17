"""Linear algebra of arrays (``typedtensor.linalg``): numpy's ``linalg`` over the last two dims,
checked by the shared rules before the library runs, on the array's namespace.

Integers and booleans are computed in ``float64``; ``float16``, which numpy's linalg refuses, in
``float32`` and rounded back, so floats keep their dtype. Complex tensors are refused.
"""

from __future__ import annotations

import functools
from typing import Any, Final

import numpy as np

from typedtensor._arguments import axis_key
from typedtensor._dtypes import float16, float32, generic, marker_named, marker_of, numpy_dtype_like
from typedtensor._ops.backends import backend_of, same_library, to_dtype
from typedtensor._ops.common import Array, as_array, fail, namespace, promoted
from typedtensor._ops.reductions import reduce_array
from typedtensor._shape_rules import (
    INT_DIMS,
    Problem,
    Shape,
    linalg_dtype,
    qr_shapes,
    reduced_mask,
    solve_shape,
    square_shapes,
    svd_shapes,
)

_CACHE_SIZE: Final = 4096


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _result_dtype(dtype: np.dtype[Any]) -> type[generic] | Problem:
    result = linalg_dtype(marker_of(dtype).__name__)
    return result if isinstance(result, Problem) else marker_named(result)


def _computing(op: str, arrays: tuple[Array, ...]) -> tuple[tuple[Array, ...], type[generic]]:
    """The arrays in the dtype to compute in, and the dtype of the results."""
    result = _result_dtype(numpy_dtype_like(arrays[0].dtype))
    if isinstance(result, Problem):
        fail(result, op, arrays)
    computed = float32 if result is float16 else result
    return tuple(to_dtype(array, computed) for array in arrays), result


def _linalg_function(op: str, array: Array) -> Any:
    """The library's ``linalg.<op>``, or a ``TypeError`` saying that it has none. dask's are left
    out: they take only 2-D arrays in chunks of their own, and it has no ``det`` or ``eigh``."""
    backend = backend_of(array)
    function = None if backend.name == "dask" else getattr(getattr(namespace(array), "linalg", None), op, None)
    if function is None:
        raise TypeError(f'"{op}": {backend.name} has no linalg.{op} for typedtensor; convert the tensor first (x.numpy())')
    return function


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _square_problem(op: str, shape: tuple[int, ...]) -> Problem | None:
    checked = square_shapes(op, Shape[int, None](shape), INT_DIMS)
    return checked if isinstance(checked, Problem) else None


def square(op: str, array: Array) -> tuple[Array, ...]:
    """``inv``, ``det``, ``cholesky`` (one result) or ``eigh`` (values, vectors) of square matrices."""
    problem = _square_problem(op, tuple(array.shape))
    if problem is not None:
        fail(problem, op, [array])
    (computed,), result = _computing(op, (array,))
    outputs = _linalg_function(op, computed)(computed)
    return tuple(to_dtype(as_array(output), result) for output in (outputs if op == "eigh" else (outputs,)))


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _matrix_problem(op: str, shape: tuple[int, ...]) -> Problem | None:
    checked = qr_shapes(Shape[int, None](shape), INT_DIMS) if op == "qr" else svd_shapes(Shape[int, None](shape), False, INT_DIMS)
    return checked if isinstance(checked, Problem) else None


def svd(array: Array, full_matrices: object) -> tuple[Array, Array, Array]:
    """``u``, ``s``, ``vh`` of the matrices of ``array``."""
    if not isinstance(full_matrices, (bool, np.bool_)):
        raise TypeError(f'"svd": full_matrices must be True or False, got {type(full_matrices).__name__} {full_matrices!r}')
    problem = _matrix_problem("svd", tuple(array.shape))
    if problem is not None:
        fail(problem, "svd", [array])
    (computed,), result = _computing("svd", (array,))
    u, s, vh = _linalg_function("svd", computed)(computed, full_matrices=bool(full_matrices))
    return to_dtype(u, result), to_dtype(s, result), to_dtype(vh, result)


def qr(array: Array) -> tuple[Array, Array]:
    """``q``, ``r`` of the matrices of ``array`` (numpy's reduced mode)."""
    problem = _matrix_problem("qr", tuple(array.shape))
    if problem is not None:
        fail(problem, "qr", [array])
    (computed,), result = _computing("qr", (array,))
    q, r = _linalg_function("qr", computed)(computed)
    return to_dtype(q, result), to_dtype(r, result)


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _solve_problem(a: tuple[int, ...], b: tuple[int, ...]) -> Problem | None:
    checked = solve_shape(Shape[int, None](a), Shape[int, None](b), INT_DIMS)
    return checked if isinstance(checked, Problem) else None


def solve(a: Array, b: Array) -> Array:
    """``x`` with ``a @ x == b`` (numpy 2's: ``b`` of one dim is a vector, else a batch of matrices)."""
    problem = _solve_problem(tuple(a.shape), tuple(b.shape))
    if problem is not None:
        fail(problem, "solve", [a, b])
    if type(a) is np.ndarray and type(b) is np.ndarray:
        dtype = np.result_type(a.dtype, b.dtype)
        operands: tuple[Array, ...] = a.astype(dtype, copy=False), b.astype(dtype, copy=False)
    else:
        same_library("solve", (a, b))
        operands = promoted((a, b))
    (left, right), result = _computing("solve", operands)
    return to_dtype(as_array(_linalg_function("solve", left)(left, right)), result)


def norm(array: Array, axis: object, keepdims: bool) -> Array:
    """The 2-norm over ``axis`` (every form the reductions take; None: of all elements, the
    Frobenius norm of a matrix), as ``sqrt(sum(x * x))`` through the reducer."""
    mask = reduced_mask(axis_key(axis, "norm"), array.ndim)
    if isinstance(mask, Problem):
        fail(mask, "norm", [array])
    (computed,), result = _computing("norm", (array,))
    xp = namespace(computed)
    summed = reduce_array("sum", xp.multiply(computed, computed), axis, keepdims, "norm")
    return to_dtype(as_array(xp.sqrt(summed)), result)
