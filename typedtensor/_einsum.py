"""``einsum(subscripts, *operands)``: numpy's Einstein summation, checked before the library runs
(``typedtensor._ops.einsum``, on the tensors' arrays).

With the mypy plugin a literal subscript string gives the exact result shape; without it the
dims are unknown and the dtype is kept where every operand has one of one category.
"""

from __future__ import annotations

from typing import Any, overload

from typedtensor._generated.type_vars import BoolT, ComplexT, FloatingT, SignedT, UnsignedT
from typedtensor._ops import einsum as _einsum
from typedtensor._tensor import AnyTensor, Tensor, unwrap, wrap

_Unknown = tuple[Any, ...]


@overload
def einsum(subscripts: str, *operands: Tensor[FloatingT, *_Unknown]) -> Tensor[FloatingT, *_Unknown]: ...
@overload
def einsum(subscripts: str, *operands: Tensor[SignedT, *_Unknown]) -> Tensor[SignedT, *_Unknown]: ...
@overload
def einsum(subscripts: str, *operands: Tensor[UnsignedT, *_Unknown]) -> Tensor[UnsignedT, *_Unknown]: ...
@overload
def einsum(subscripts: str, *operands: Tensor[ComplexT, *_Unknown]) -> Tensor[ComplexT, *_Unknown]: ...
@overload
def einsum(subscripts: str, *operands: Tensor[BoolT, *_Unknown]) -> Tensor[BoolT, *_Unknown]: ...
@overload
def einsum(subscripts: str, *operands: AnyTensor) -> AnyTensor: ...
def einsum(subscripts: str, *operands: AnyTensor) -> AnyTensor:
    """The Einstein summation of ``operands`` (numpy's ``einsum``): each operand's term names its
    dims by letters, ``...`` stands for dims that broadcast, and the output is the term after
    ``->`` (without one: the letters that appear once, sorted). A letter's sizes must agree (a
    size 1 broadcasts across operands); the dtype is the operands' promotion.

    >>> import typedtensor as tt
    >>> tt.einsum("ij,jk->ik", tt.ones((2, 3)), tt.ones((3, 4))).shape
    (2, 4)
    >>> tt.einsum("ii", tt.eye(3))
    Tensor[float32](3.)
    """
    return wrap(_einsum.einsum(subscripts, [unwrap("einsum", operand, f"operand {index}") for index, operand in enumerate(operands)]))
