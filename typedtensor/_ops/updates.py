"""Reading the one element of an array (``x.item()``, ``float(x)``), and the updates
``x.at[index].set(value)`` / ``.add(value)``, which give a new array and leave the input as it was.

``add`` adds every time an index repeats (``x.at[[0, 0]].add(1)`` adds 2 to ``x[0]``), as jax's
``.at`` and numpy's ``np.add.at`` do, not as ``x[[0, 0]] += 1`` (which adds once).
"""

from __future__ import annotations

from typing import Any, Final, NoReturn

import numpy as np

from typedtensor._dtypes import marker_of, numpy_dtype_like
from typedtensor._ops.backends import backend_of, to_dtype
from typedtensor._ops.common import Array, copy_of, fail
from typedtensor._ops.elementwise import binary
from typedtensor._ops.indexing import BASIC, _whole, getitem
from typedtensor._shape_rules import INT_DIMS, Problem, Shape, one_element_problem, promote, promote_scalar, update_dtype_problem, update_problem

#: The Python scalar kinds an update's value may be, by type (a subclass is looked up by its base).
_SCALAR_KINDS: Final = {bool: "bool", int: "int", float: "float", complex: "complex"}
UPDATES: Final = ("set", "add")


def item(op: str, array: Array) -> Any:
    """The one element of ``array`` as a Python scalar, or a ``TensorShapeError`` naming its shape."""
    if type(array) is np.ndarray and array.size == 1:  # ``if x:`` in a loop: no rule to ask
        return array.item()
    problem = one_element_problem(Shape[int, None](tuple(array.shape)), INT_DIMS)
    if problem is not None:
        fail(problem, op, [array])
    values = array if type(array) is np.ndarray else backend_of(array).to_numpy(array)
    return values.item()


def update(op: str, array: Array, key: Any, value: Array | complex) -> Array:
    """A new array: ``array`` with ``value`` set into (``op`` ``"set"``) or added to (``"add"``)
    the region ``key`` selects. ``value`` broadcasts to the region and keeps ``array``'s dtype."""
    name = f"at[...].{op}"
    dtype = marker_of(numpy_dtype_like(array.dtype)).__name__
    if isinstance(value, (bool, int, float, complex)):
        promoted = promote_scalar(dtype, _scalar_kind(value))  # type: ignore[arg-type]
        value_shape: tuple[int, ...] = ()
    else:
        promoted = promote(dtype, marker_of(numpy_dtype_like(value.dtype)).__name__)
        value_shape = tuple(value.shape)
        if backend_of(value) is not backend_of(array):
            _other_library(name, array, value)
    scalar = isinstance(value, (bool, int, float, complex))
    problem: Problem | None = update_dtype_problem(dtype, promoted)
    if problem is None and not (scalar and _checks_as_it_writes(array, key)):
        region_shape = tuple(getitem(array, key, arrays=True).shape)  # an index out of range raises here, as in x[key]
        sized = all(isinstance(size, int) for size in region_shape)  # dask's mask selects a region of unknown (nan) size
        problem = update_problem(region_shape, value_shape) if sized else None
    if problem is not None:
        fail(problem, name, [array, value])
    if not isinstance(value, (bool, int, float, complex)):
        value = to_dtype(value, marker_of(numpy_dtype_like(array.dtype)))
    try:
        return _updated(op, array, key, value)
    except (IndexError, TypeError, ValueError):
        getitem(array, key, arrays=True)  # numpy's refusal of the index, in indexing's words
        raise


def _checks_as_it_writes(array: Array, key: Any) -> bool:
    """Whether numpy's own write checks ``key`` (a scalar fits any region, so the region need not
    be gathered to learn its shape: ``x.at[rows].add(1.0)`` copied ``x[rows]``); not a uint64
    index array, which numpy may read as negative, nor another library's array (jax clamps)."""
    items = key if type(key) is tuple else (key,)
    return type(array) is np.ndarray and not any(isinstance(item, np.ndarray) and item.dtype.kind == "u" for item in items)


def _scalar_kind(value: complex) -> str:
    return next(kind for kind_type, kind in _SCALAR_KINDS.items() if isinstance(value, kind_type))


def _other_library(name: str, array: Array, value: Array) -> NoReturn:
    raise TypeError(
        f'"{name}": the value is an array of {backend_of(value).name}, the tensor one of {backend_of(array).name}; '
        "convert one first (x.numpy(), or typedtensor.tensor(data, like=other))"
    )


def _updated(op: str, array: Array, key: Any, value: Array | complex) -> Array:
    """The update run by the array's library: jax's own ``.at``; elsewhere a copy written in place."""
    backend = backend_of(array)
    if backend.name == "jax":
        boolean_add = op == "add" and numpy_dtype_like(array.dtype).kind == "b"  # True + True is True, as numpy's: an or, a max
        return getattr(array.at[key], "max" if boolean_add else op)(value)  # type: ignore[attr-defined, no-any-return]
    if isinstance(value, (bool, int, float, complex)) and backend.name != "numpy":  # array-api-strict sets no bool into ints
        value = backend.xp.asarray(value, dtype=array.dtype, device=backend.device(array))
    result = copy_of(array)
    items = key if type(key) is tuple else (key,)
    if BASIC.issuperset(map(type, items)):
        key = _whole(key)  # the array API leaves the dims no item names unspecified (array-api-strict refuses x[0] = v of a matrix)
    gathers = any(type(item) not in BASIC and numpy_dtype_like(item.dtype).kind in "iu" for item in items)
    if op == "set":
        result[key] = value
    elif not gathers:  # no index repeats: adding in place adds once per element
        result[key] = binary("add", result[key], value)  # the op's own add: booleans too (the array API adds none)
    elif backend.name == "numpy":
        np.add.at(result, key, value)
    else:
        raise TypeError(
            f'"at[...].add" with an integer index array on {backend.name}: an index may repeat, and {backend.name} '
            "has no unbuffered add here; index with ints, slices or a boolean mask, or use numpy or jax"
        )
    return result
