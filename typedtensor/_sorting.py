"""Sorting and selecting along one axis: ``sort``, ``argsort``, ``top_k``.

Each checks its call with the shared rules (cached by shape) before the library runs, on the
tensor's array (``typedtensor._ops.sorting``). Orders are stable: equal elements keep their order,
ascending or descending. Descending is the ascending order reversed, ties kept in place, so NaN
(last ascending, as numpy's) comes first.
"""

from __future__ import annotations

from typing import Any, Literal, SupportsIndex, overload

from typedtensor._dtypes import int64
from typedtensor._generated.type_vars import GenericT, N, Shape
from typedtensor._ops import sorting as _sorting
from typedtensor._tensor import Tensor, unwrap, wrap


def sort(x: Tensor[GenericT, *Shape], axis: SupportsIndex = -1, descending: bool = False) -> Tensor[GenericT, *Shape]:
    """The elements of ``x`` in order along ``axis`` (largest first with ``descending``).

    >>> import typedtensor as tt
    >>> tt.sort(tt.tensor([[3, 1, 2], [0, 5, 4]]), descending=True)
    Tensor[int64, 2, 3]([[3, 2, 1],
                         [5, 4, 0]])
    """
    return wrap(_sorting.sort(unwrap("sort", x), axis, descending))


def argsort(x: Tensor[Any, *Shape], axis: SupportsIndex = -1, descending: bool = False) -> Tensor[int64, *Shape]:
    """The indices that put ``x`` in order along ``axis`` (``int64``); equal elements keep their order.

    >>> import typedtensor as tt
    >>> tt.argsort(tt.tensor([3, 1, 3, 2]), descending=True)
    Tensor[int64, 4]([0, 2, 3, 1])
    """
    return wrap(_sorting.argsort(unwrap("argsort", x), axis, descending))


@overload
def top_k(
    x: Tensor[GenericT, *Shape, N], k: SupportsIndex, axis: Literal[-1] = -1
) -> tuple[Tensor[GenericT, *Shape, Any], Tensor[int64, *Shape, Any]]: ...
@overload
def top_k(
    x: Tensor[GenericT, *tuple[Any, ...]], k: SupportsIndex, axis: SupportsIndex = -1
) -> tuple[Tensor[GenericT, *tuple[Any, ...]], Tensor[int64, *tuple[Any, ...]]]: ...
def top_k(x: Tensor[Any, *tuple[Any, ...]], k: SupportsIndex, axis: SupportsIndex = -1) -> tuple[Tensor[Any, *tuple[Any, ...]], Tensor[int64, *tuple[Any, ...]]]:
    """The ``k`` largest elements of ``x`` along ``axis``, largest first (equal ones in their
    order), and their indices (``int64``): that axis becomes ``k`` long. ``k`` more than the axis
    holds raises ``TensorShapeError`` before anything is computed; with the mypy plugin a literal
    ``k`` gives the axis the dim ``Literal[k]``.

    >>> import typedtensor as tt
    >>> values, indices = tt.top_k(tt.tensor([[1.0, 9.0, 3.0], [8.0, 5.0, 6.0]]), 2)
    >>> values
    Tensor[float64, 2, 2]([[9., 3.],
                           [8., 6.]])
    >>> indices
    Tensor[int64, 2, 2]([[1, 2],
                         [0, 2]])
    """
    values, indices = _sorting.top_k(unwrap("top_k", x), k, axis)
    return wrap(values), wrap(indices)
