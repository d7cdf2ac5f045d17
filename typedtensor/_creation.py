"""Building tensors: ``tensor``, ``zeros``, ``ones``, ``full``."""

from __future__ import annotations

from typing import Any, TypeVar, TypeVarTuple, Unpack, overload

import numpy as np

from typedtensor._dtypes import float32, generic, marker_of, numpy_dtype_of
from typedtensor._tensor import Tensor

DTypeT = TypeVar("DTypeT", bound=generic)
Shape = TypeVarTuple("Shape")


def tensor(data: object, dtype: type[DTypeT] | None = None) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
    """A tensor holding a copy of ``data`` (nested sequences, a scalar, an array or a Tensor).

    Without ``dtype`` numpy's inference applies (Python floats give ``float64``).

    >>> import typedtensor as tt
    >>> tt.tensor([[1, 2], [3, 4]], dtype=tt.int32)
    Tensor[int32, 2, 2]([[1, 2],
                         [3, 4]])
    """
    if isinstance(data, Tensor):
        data = data.numpy()
    if isinstance(data, np.ma.MaskedArray):
        raise TypeError("tensor: a masked array's mask would be lost; fill it first (data.filled(value))")
    numpy_dtype = None if dtype is None else numpy_dtype_of(dtype)
    try:
        array = np.array(data, dtype=numpy_dtype, copy=True)
    except (TypeError, ValueError) as error:
        raise TypeError(f"tensor: cannot make a tensor of {type(data).__name__} data: {error}") from None
    if not array.dtype.isnative:  # the copy may as well be in the machine's byte order
        array = array.astype(array.dtype.newbyteorder("="))
    marker_of(array.dtype)  # raises for object, string and other dtypes we do not carry
    return Tensor(array)


@overload
def zeros(shape: tuple[Unpack[Shape]]) -> Tensor[float32, Unpack[Shape]]: ...
@overload
def zeros(shape: tuple[Unpack[Shape]], dtype: type[DTypeT]) -> Tensor[DTypeT, Unpack[Shape]]: ...
def zeros(shape: tuple[Any, ...], dtype: type[generic] = float32) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
    """A tensor of zeros; ``dtype`` defaults to ``float32``."""
    return _filled("zeros", shape, 0, dtype)


@overload
def ones(shape: tuple[Unpack[Shape]]) -> Tensor[float32, Unpack[Shape]]: ...
@overload
def ones(shape: tuple[Unpack[Shape]], dtype: type[DTypeT]) -> Tensor[DTypeT, Unpack[Shape]]: ...
def ones(shape: tuple[Any, ...], dtype: type[generic] = float32) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
    """A tensor of ones; ``dtype`` defaults to ``float32``."""
    return _filled("ones", shape, 1, dtype)


def full(shape: tuple[Unpack[Shape]], value: complex, dtype: type[DTypeT]) -> Tensor[DTypeT, Unpack[Shape]]:
    """A tensor of ``shape`` with every element ``value``, converted to ``dtype``."""
    return _filled("full", shape, value, dtype)


def _filled(caller: str, shape: tuple[Any, ...], value: complex, dtype: type[generic]) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
    if not isinstance(shape, tuple) or not all(isinstance(n, (int, np.integer)) and not isinstance(n, bool) and n >= 0 for n in shape):
        raise ValueError(f"{caller}: shape must be a tuple of non-negative ints, got {shape!r}")
    return Tensor(np.full(shape, value, dtype=numpy_dtype_of(dtype)))
