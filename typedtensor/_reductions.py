"""The reduction functions ``reduce_sum`` ... ``reduce_all``.

``axis`` follows TensorFlow: ``None`` reduces every dim; an int (negative counts from the end)
or a tuple or list of them (any order, repeats count once, ``()`` reduces nothing) reduces those
dims; a Selection string has one character per dim, ``^`` to reduce it and ``v`` to keep it.
With ``keepdims=True`` every reduced dim stays with size 1. Bad axes raise ``AxisError`` naming
every one of them, and a bad Selection ``SelectionError``.
"""

from __future__ import annotations

from typing import Any, TypeVar, Unpack

import numpy as np

from typedtensor._dtypes import bool_, generic
from typedtensor._reduce import reduce_array
from typedtensor._tensor import Axis, AxisIndexT, Tensor, wrap

DTypeT = TypeVar("DTypeT", bound=generic)
AnyTensor = Tensor[Any, Unpack[tuple[Any, ...]]]


def _reduce(op: str, x: object, axis: object, keepdims: bool, caller: str) -> AnyTensor:
    if not isinstance(x, Tensor):
        fix = "wrap it with typedtensor.Tensor(array)" if isinstance(x, np.ndarray) else "make one with typedtensor.tensor(data)"
        raise TypeError(f'"{caller}": expected a typedtensor.Tensor, got {type(x).__name__}; {fix}')
    return wrap(reduce_array(op, x.numpy(), axis, keepdims, caller))


def reduce_sum(x: Tensor[Any, Unpack[tuple[Any, ...]]], axis: Axis[AxisIndexT] = None, keepdims: bool = False) -> AnyTensor:
    """The sum over ``axis``; ``bool_`` and integers narrower than 64 bits sum in ``int64``/``uint64``.

    >>> import typedtensor as tt
    >>> tt.reduce_sum(tt.ones((2, 3, 4)), axis="^v^")
    Tensor[float32, 3]([8., 8., 8.])
    """
    return _reduce("sum", x, axis, keepdims, "reduce_sum")


def reduce_mean(x: Tensor[Any, Unpack[tuple[Any, ...]]], axis: Axis[AxisIndexT] = None, keepdims: bool = False) -> AnyTensor:
    """The arithmetic mean over ``axis``; integers give ``float64``, an empty extent NaN."""
    return _reduce("mean", x, axis, keepdims, "reduce_mean")


def reduce_prod(x: Tensor[Any, Unpack[tuple[Any, ...]]], axis: Axis[AxisIndexT] = None, keepdims: bool = False) -> AnyTensor:
    """The product over ``axis``; dtypes as for ``reduce_sum``, an empty extent gives 1."""
    return _reduce("prod", x, axis, keepdims, "reduce_prod")


def reduce_max(x: Tensor[DTypeT, Unpack[tuple[Any, ...]]], axis: Axis[AxisIndexT] = None, keepdims: bool = False) -> Tensor[DTypeT, Unpack[tuple[Any, ...]]]:
    """The maximum over ``axis``; NaN propagates; an empty extent raises ``ValueError``."""
    return _reduce("max", x, axis, keepdims, "reduce_max")


def reduce_min(x: Tensor[DTypeT, Unpack[tuple[Any, ...]]], axis: Axis[AxisIndexT] = None, keepdims: bool = False) -> Tensor[DTypeT, Unpack[tuple[Any, ...]]]:
    """The minimum over ``axis``; NaN propagates; an empty extent raises ``ValueError``."""
    return _reduce("min", x, axis, keepdims, "reduce_min")


def reduce_any(x: Tensor[Any, Unpack[tuple[Any, ...]]], axis: Axis[AxisIndexT] = None, keepdims: bool = False) -> Tensor[bool_, Unpack[tuple[Any, ...]]]:
    """Whether any element over ``axis`` is nonzero (NaN counts as nonzero); empty gives False."""
    return _reduce("any", x, axis, keepdims, "reduce_any")


def reduce_all(x: Tensor[Any, Unpack[tuple[Any, ...]]], axis: Axis[AxisIndexT] = None, keepdims: bool = False) -> Tensor[bool_, Unpack[tuple[Any, ...]]]:
    """Whether every element over ``axis`` is nonzero; an empty extent gives True."""
    return _reduce("all", x, axis, keepdims, "reduce_all")
