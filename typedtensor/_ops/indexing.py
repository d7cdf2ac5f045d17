"""Indexing an array: ``x[i]``, ``x[a:b:c]``, ``x[None]``, ``x[...]``, index arrays, tuples of them.

``Tensor.__getitem__`` checks what each item of the key is and gives its index tensors' arrays;
this module indexes the array. numpy checks every index before it makes the view or the copy,
so the call goes to numpy first and costs nothing more when it succeeds (indexing is the
cheapest op there is: a tenth of a microsecond). When numpy refuses, the shared rule
(``index_shape``) says why in the words the mypy plugin uses, raising ``TensorIndexError`` (an
``IndexError``) that names the tensor.
"""

from __future__ import annotations

import functools
import operator
from types import EllipsisType
from typing import Any, Final, NoReturn

import numpy as np

from typedtensor._dtypes import numpy_dtype_of, type_text, uint64
from typedtensor._errors import TensorIndexError
from typedtensor._ops.backends import backend_of
from typedtensor._ops.common import Array, as_array, fail
from typedtensor._shape_rules import INT_DIMS, ArrayIndex, IndexItem, IndexOutOfRange, Problem, Shape, index_shape, indexed_axes

OP: Final = "index"
#: Items numpy takes as they are, with nothing to check first; a key of only these is basic.
BASIC: Final = frozenset({int, slice, type(None), EllipsisType})
_UINT64: Final = numpy_dtype_of(uint64)
#: Array types that index only with every dim named (array-api-strict's): ``_whole`` basic keys for them.
_WANTS_WHOLE: Final[set[type]] = set()


def getitem(array: Array, key: Any, arrays: bool = False) -> Array:
    """``array[key]``, as numpy indexes (a view where numpy makes one). ``key`` is an item or a
    tuple of them: ints, slices, None, ``...`` and, if ``arrays``, integer or boolean arrays."""
    if arrays:
        items: tuple[object, ...] = key if type(key) is tuple else (key,)
        for item in items:  # a loop, not any(...): a generator costs more than the check
            if isinstance(item, np.ndarray) and item.dtype == _UINT64:
                _check_values(array, items)  # numpy would read a huge uint64 index as a negative one
                break
    if type(array) is not np.ndarray:
        if backend_of(array).name == "jax":
            _check_ints(array, key)
        if not arrays and type(array) in _WANTS_WHOLE:  # a basic key: a boolean mask must stay the sole index
            key = _whole(key)
    try:
        value = array[key]
    except (IndexError, TypeError, ValueError) as error:
        refusal = error
    else:
        return value if type(value) is np.ndarray else as_array(value)  # one element: a numpy scalar
    if type(array) is not np.ndarray and _whole(key) is not key:
        value = getitem(array, _whole(key), arrays)
        _WANTS_WHOLE.add(type(array))  # the next keys get their `...` first: the refusal cost 8 us a call
        return value
    _explain(array, key if type(key) is tuple else (key,), refusal)  # outside the except block: numpy's error is not the context


def _check_ints(array: Array, key: Any) -> None:
    """Raise for an int index out of range before jax indexes: it clamps one (``x[5]`` of 3 elements
    is ``x[2]``), and its ``.at`` drops an update there, where numpy raises."""
    shape = tuple(array.shape)
    if type(key) is int or (type(key) is tuple and all(type(item) is int for item in key)):
        problem = _cached_key_problem(shape, key)  # the rule costs 6 us; ints only, which no other item hashes as (True, 1.0)
    else:
        problem = _key_problem(shape, key)
    if problem is not None:
        fail(problem, OP, [array])


def _key_problem(shape: tuple[int, ...], key: Any) -> Problem | None:
    """The rule's problem with indexing an array of ``shape`` by ``key``, if it has one."""
    rule_items = _rule_items(key if type(key) is tuple else (key,))
    problem = None if rule_items is None else index_shape(Shape[int, None](shape), rule_items, INT_DIMS)
    return problem if isinstance(problem, Problem) else None


_cached_key_problem = functools.lru_cache(maxsize=1024)(_key_problem)


def _whole(key: Any) -> Any:
    """``key`` with a trailing ``...`` if it has none: numpy takes the dims no item names whole,
    which the array API leaves unspecified (array-api-strict refuses ``x[0]`` of a matrix)."""
    items = key if type(key) is tuple else (key,)
    return key if any(item is Ellipsis for item in items) else (*items, Ellipsis)  # a new tuple: not ``key``


def _explain(array: Array, items: tuple[object, ...], error: Exception) -> NoReturn:
    """Raise why numpy refused ``array[items]``: the rule's problem, an index array's value out
    of range, or numpy's own words prefixed with the op and the tensor."""
    rule_items = _rule_items(items)
    if rule_items is not None:
        problem = index_shape(Shape[int, None](array.shape), rule_items, INT_DIMS)
        if isinstance(problem, Problem):
            fail(problem, OP, [array])
        _check_values(array, items)
    kind = TensorIndexError if isinstance(error, IndexError) else type(error)
    raise kind(f'"{OP}" on {type_text(array)}: {error}') from None


def _check_values(array: Array, items: tuple[object, ...]) -> None:
    """Raise for the first value of an integer index array outside the dim it indexes."""
    rule_items = _rule_items(items)
    if rule_items is None:
        return
    for item, axis in zip(items, indexed_axes(rule_items, array.ndim)):
        if isinstance(item, np.ndarray) and item.dtype.kind in "iu" and axis is not None and axis < array.ndim:
            problem = out_of_range(item, array.shape[axis], axis)
            if problem is not None:
                fail(problem, OP, [array])


def out_of_range(indices: Array | int, size: int, axis: int | None) -> IndexOutOfRange | None:
    """The first of ``indices`` outside a dim of ``size`` (the flattened tensor if ``axis`` is None).

    numpy reads a uint64 index above the largest int64 as a negative one, and may take it:
    compared as unsigned here, it is out of range.
    """
    flat = np.reshape(indices, -1)
    bad = flat[flat >= size] if flat.dtype.kind == "u" else flat[(flat >= size) | (flat < -size)]
    return IndexOutOfRange(int(bad[0]), axis, size) if bad.size else None


def _rule_items(items: tuple[object, ...]) -> list[IndexItem[int, None]] | None:
    """The items as the shared rule reads them; None if one is not an index at all."""
    rule_items: list[IndexItem[int, None]] = []
    for item in items:
        if isinstance(item, np.ndarray):
            rule_items.append(ArrayIndex(Shape(item.shape), item.dtype.kind == "b"))
        elif isinstance(item, slice):
            try:
                rule_items.append(slice(*(None if bound is None else operator.index(bound) for bound in (item.start, item.stop, item.step))))
            except TypeError:
                return None
        elif item is None or item is Ellipsis or type(item) is int:
            rule_items.append(item)
        else:
            return None
    return rule_items
