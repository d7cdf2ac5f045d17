"""The scans ``cumsum`` and ``cumprod``: running sums and products along one axis, the shape kept.

(The statistics ``var`` ... ``nanmin`` are generated: ``_generated/statistics.py``.) Each unwraps,
calls the array op (``typedtensor._ops.statistics.scan``), which checks the axis as the reductions
do, and wraps. The dtype is ``sum``'s or ``prod``'s: integers narrower than 64 bits widen.
"""

from __future__ import annotations

from typing import Any, SupportsIndex, overload

from typedtensor._dtypes import bool_, generic, int64, integer, number, signedinteger, uint64, unsignedinteger
from typedtensor._generated.type_vars import InexactT, Shape
from typedtensor._ops import statistics as _statistics
from typedtensor._tensor import AnyTensor, Tensor, unwrap, wrap


@overload
def cumsum(x: Tensor[InexactT, *Shape], axis: SupportsIndex) -> Tensor[InexactT, *Shape]: ...
@overload
def cumsum(x: Tensor[bool_ | signedinteger, *Shape], axis: SupportsIndex) -> Tensor[int64, *Shape]: ...
@overload
def cumsum(x: Tensor[unsignedinteger, *Shape], axis: SupportsIndex) -> Tensor[uint64, *Shape]: ...
@overload
def cumsum(x: Tensor[integer, *Shape], axis: SupportsIndex) -> Tensor[integer, *Shape]: ...
@overload
def cumsum(x: Tensor[generic, *Shape], axis: SupportsIndex) -> Tensor[number, *Shape]: ...
def cumsum(x: AnyTensor, axis: SupportsIndex) -> Tensor[Any, *tuple[Any, ...]]:
    """The running sums along ``axis`` (one int): element ``i`` is the sum of those up to ``i``.

    >>> import typedtensor as tt
    >>> tt.cumsum(tt.tensor([[1, 2, 3], [4, 5, 6]], dtype=tt.int32), axis=1)
    Tensor[int64, 2, 3]([[ 1,  3,  6],
                         [ 4,  9, 15]])
    """
    return wrap(_statistics.scan("cumsum", unwrap("cumsum", x), axis))


@overload
def cumprod(x: Tensor[InexactT, *Shape], axis: SupportsIndex) -> Tensor[InexactT, *Shape]: ...
@overload
def cumprod(x: Tensor[bool_ | signedinteger, *Shape], axis: SupportsIndex) -> Tensor[int64, *Shape]: ...
@overload
def cumprod(x: Tensor[unsignedinteger, *Shape], axis: SupportsIndex) -> Tensor[uint64, *Shape]: ...
@overload
def cumprod(x: Tensor[integer, *Shape], axis: SupportsIndex) -> Tensor[integer, *Shape]: ...
@overload
def cumprod(x: Tensor[generic, *Shape], axis: SupportsIndex) -> Tensor[number, *Shape]: ...
def cumprod(x: AnyTensor, axis: SupportsIndex) -> Tensor[Any, *tuple[Any, ...]]:
    """The running products along ``axis`` (one int): element ``i`` is the product of those up to ``i``."""
    return wrap(_statistics.scan("cumprod", unwrap("cumprod", x), axis))
