"""Indexing a Tensor: ``x[i]``, ``x[a:b:c]``, ``x[None]``, ``x[...]``, index tensors, tuples of them.

numpy checks every index before it makes the view or the copy, so the call goes to numpy first
and costs nothing more when it succeeds (indexing is the cheapest op there is: a tenth of a
microsecond). When numpy refuses, the shared rule (``index_shape``) says why in the words the
mypy plugin uses, raising ``TensorIndexError`` (an ``IndexError``) that names the tensor.
"""

from __future__ import annotations

import operator
from types import EllipsisType
from typing import Any, Final, NoReturn

import numpy as np

from typedtensor._dtypes import numpy_dtype_of, type_text, uint64
from typedtensor._errors import TensorIndexError
from typedtensor._ops.common import AnyTensor, Array, fail, result
from typedtensor._shape_rules import INT_DIMS, ArrayIndex, IndexItem, IndexOutOfRange, Problem, Shape, bool_index_message, index_shape, indexed_axes
from typedtensor._tensor import Tensor

_OP: Final = "index"
#: Items numpy takes as they are; anything else is converted or refused first.
_PLAIN: Final = frozenset({int, slice, type(None), EllipsisType})
_UINT64: Final = numpy_dtype_of(uint64)


def getitem(x: Tensor[Any, *tuple[Any, ...]], key: object) -> AnyTensor:
    """``x[key]``, as numpy indexes (a view where numpy makes one)."""
    array = x.numpy()
    items: tuple[object, ...] = key if type(key) is tuple else (key,)
    index: Any = key
    if type(key) is Tensor and (index_array := key.numpy()).dtype.kind in "bi":  # one index tensor (uint64 is checked below)
        index = index_array
        items = (index_array,)
    elif not _PLAIN.issuperset(map(type, items)):  # index tensors, numpy integers, or no index at all
        items = tuple(map(_item, items))
        index = items if type(key) is tuple else items[0]
        for item in items:  # a loop, not any(...): a generator costs more than the check
            if isinstance(item, np.ndarray) and item.dtype == _UINT64:
                _check_values(x, items)  # numpy would read a huge uint64 index as a negative one
                break
    try:
        return result(array[index])
    except (IndexError, TypeError, ValueError) as error:
        refusal = error
    _explain(x, items, refusal)  # outside the except block: numpy's error is not the context


def _item(item: object) -> object:
    """One index as numpy takes it, or a ``TypeError`` saying what an index may be."""
    if type(item) in _PLAIN:
        return item
    if isinstance(item, Tensor):
        array = item.numpy()
        if array.dtype.kind in "biu":
            return array
        raise TypeError(f'"{_OP}": an index tensor holds integers or booleans, got {type_text(array)}')
    if isinstance(item, (bool, np.bool_)):
        raise TypeError(bool_index_message(_OP))
    if isinstance(item, (int, np.integer)):
        return operator.index(item)
    if isinstance(item, slice):
        return item
    raise TypeError(
        f'"{_OP}": {type(item).__name__} is not an index; index with ints, slices, None, ... '
        "or a typedtensor.Tensor of integers or booleans"
    )


def _explain(x: Tensor[Any, *tuple[Any, ...]], items: tuple[object, ...], error: Exception) -> NoReturn:
    """Raise why numpy refused ``x[items]``: the rule's problem, an index array's value out of
    range, or numpy's own words prefixed with the op and the tensor."""
    rule_items = _rule_items(items)
    if rule_items is not None:
        problem = index_shape(Shape[int, None](x.shape), rule_items, INT_DIMS)
        if isinstance(problem, Problem):
            fail(problem, _OP, [x])
        _check_values(x, items)
    kind = TensorIndexError if isinstance(error, IndexError) else type(error)
    raise kind(f'"{_OP}" on {type_text(x.numpy())}: {error}') from None


def _check_values(x: Tensor[Any, *tuple[Any, ...]], items: tuple[object, ...]) -> None:
    """Raise for the first value of an integer index array outside the dim it indexes."""
    rule_items = _rule_items(items)
    if rule_items is None:
        return
    for item, axis in zip(items, indexed_axes(rule_items, x.ndim)):
        if isinstance(item, np.ndarray) and item.dtype.kind in "iu" and axis is not None and axis < x.ndim:
            problem = out_of_range(item, x.shape[axis], axis)
            if problem is not None:
                fail(problem, _OP, [x])


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
