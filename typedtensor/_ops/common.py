"""What every op does with its arrays: find their namespace, name them in messages, raise a rule's problem.

The ops below ``Tensor`` take arrays (and Python scalars) and return arrays: ``Tensor``'s methods
and the public functions unwrap their tensors once, call the op, and wrap its result once.

Ops are written against the array API namespace of the arrays they wrap (``xp.add``,
``xp.permute_dims``), not against numpy by name: the same op runs on numpy, torch, jax, dask and
array API arrays (``backends``). Asking an array for its namespace costs about 0.5 us, so the
answer is kept per array type.
"""

from __future__ import annotations

import functools
import math
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any, Final, NoReturn, TypeAlias

import numpy as np

from typedtensor._dtypes import generic, marker_named, marker_of, numpy_dtype_like, type_text
from typedtensor._errors import problem_error
from typedtensor._ops.backends import backend_of, to_dtype
from typedtensor._shape_rules import Problem, join_operands, where_dtype

Array: TypeAlias = np.ndarray[Any, Any]

#: The most dims numpy gives an array.
MAX_RANK: Final = 64

_NAMESPACES: dict[type, ModuleType] = {np.ndarray: np}


def namespace(array: Array) -> Any:
    """The array API namespace of ``array`` (``numpy`` for an ndarray)."""
    found = _NAMESPACES.get(type(array))
    if found is None:
        found = _NAMESPACES[type(array)] = backend_of(array).xp
    return found


def operand_text(value: object) -> str:
    """An operand as messages write it: an array as the tensor it is (``Tensor[float32, 32, 10]``),
    a scalar as its type (``float``)."""
    return type(value).__name__ if isinstance(value, (bool, int, float, complex)) else type_text(value)  # type: ignore[arg-type]


def copy_of(array: Array) -> Array:
    """A new array holding ``array``'s values, on its library."""
    return array.copy() if type(array) is np.ndarray else backend_of(array).copy(array)


def fail(problem: Problem, op: str, operands: Sequence[object]) -> NoReturn:
    """Raise ``problem`` as its exception, naming ``op`` and every operand."""
    raise problem_error(problem, op, [operand_text(value) for value in operands])


def promoted(arrays: tuple[Array, ...]) -> tuple[Array, ...]:
    """Arrays of another library cast to their dtypes' promotion, as numpy's (torch's
    ``int32`` and ``float32`` give ``float32``, numpy's ``float64``)."""
    dtype = arrays[0].dtype
    if all(array.dtype == dtype for array in arrays) and backend_of(arrays[0]).lasting(marker_of(dtype)):
        return arrays  # one dtype, which promotes to itself (jax's 64-bit ones go on: they may be refused)
    marker = promotion(tuple([numpy_dtype_like(array.dtype) for array in arrays]))
    return tuple(to_dtype(array, marker) for array in arrays)


@functools.lru_cache(maxsize=1024)
def promotion(dtypes: tuple[np.dtype[Any], ...]) -> type[generic]:
    """numpy's promotion of ``dtypes`` (numpy's, or standing for another library's), as a marker."""
    return marker_named(functools.reduce(where_dtype, [marker_of(dtype).__name__ for dtype in dtypes]))


def as_array(value: Any) -> Array:
    """What the namespace returned, as an array (numpy gives a scalar for rank-0 results; other
    libraries' arrays stay theirs)."""
    if type(value) is np.ndarray:
        return value
    return np.asarray(value) if isinstance(value, (np.generic, bool, int, float, complex)) else value


def refuse_result(op: str, operands: Sequence[object], shape: Sequence[int], itemsize: int, error: Exception) -> NoReturn:
    """Raise why numpy could not make ``op``'s result of ``shape`` (called once numpy has refused,
    so the ops pay nothing when it does not): more dims than numpy's limit, or more bytes than
    numpy can count; any other refusal as numpy raised it."""
    where = f'"{op}" on {join_operands([operand_text(value) for value in operands])}' if operands else f'"{op}"'
    if len(shape) > MAX_RANK:
        raise ValueError(f"{where}: the result would have {len(shape)} dims, more than numpy's limit of {MAX_RANK}") from None
    if max(shape, default=0) > sys.maxsize or math.prod(shape) * itemsize > sys.maxsize:
        raise ValueError(f"{where}: the result of shape {tuple(shape)} would take more than numpy's limit of {sys.maxsize} bytes") from None
    raise error


def scalar_like(value: np.generic, like: Array) -> Array | None:
    """A numpy scalar (``np.float32(2)``) as a rank-0 array of ``like``'s library in its own dtype,
    so that it promotes as numpy 2 promotes it: strongly, as a rank-0 array does (``float16`` and
    ``np.float32(2)`` give float32). None for a dtype a tensor does not carry (``np.str_``)."""
    try:
        marker = marker_of(value.dtype)
    except TypeError:
        return None
    if type(like) is np.ndarray:
        return np.asarray(value)
    backend = backend_of(like)
    return backend.xp.asarray(value.item(), dtype=backend.dtype(marker), device=backend.device(like))  # type: ignore[no-any-return]
