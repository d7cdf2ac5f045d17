"""The elementwise ops' faces: the public functions (``typedtensor._generated.elementwise``, with
their declared signatures) call these, which unwrap the tensors once, run the op on arrays
(``typedtensor._ops.elementwise``) and wrap its array once.

An operand is a Tensor or a Python scalar (``bool``, ``int``, ``float``, ``complex``); anything
else, an ndarray or a numpy scalar other than ``float64`` and ``complex128``, is refused here.
"""

from __future__ import annotations

from typedtensor._ops import elementwise as _elementwise
from typedtensor._ops.common import Array
from typedtensor._tensor import AnyTensor, Tensor, operand, unwrap, wrap


def unary(op: str, x: object, *options: object) -> AnyTensor:
    """Unary ``op`` (``exp``, ``negative`` ...) of a tensor; ``options``: its further arguments."""
    return wrap(_elementwise.unary(op, x._array if type(x) is Tensor else unwrap(op, x), *options))


def binary(op: str, x1: object, x2: object) -> AnyTensor:
    """Binary ``op`` (``add``, ``less`` ...) of two operands, one at least a tensor."""
    left = x1._array if type(x1) is Tensor else operand(op, x1, "x1", _array_of(x2))
    right = x2._array if type(x2) is Tensor else operand(op, x2, "x2", _array_of(x1))
    if type(x1) is not Tensor and type(x2) is not Tensor and not isinstance(x1, Tensor) and not isinstance(x2, Tensor):
        raise TypeError(f'"{op}": at least one operand must be a typedtensor.Tensor, got {type(x1).__name__} and {type(x2).__name__}')
    return wrap(_elementwise.binary(op, left, right))


def select(condition: object, x1: object, x2: object) -> AnyTensor:
    """``where(condition, x1, x2)``: ``x1`` where ``condition`` is nonzero, else ``x2``, broadcast."""
    mask = unwrap("where", condition, "condition")
    return wrap(_elementwise.select(mask, operand("where", x1, "x1", mask), operand("where", x2, "x2", mask)))


def _array_of(value: object) -> Array | None:
    """The array of a tensor operand, which a numpy scalar beside it is made like; else None."""
    return value._array if isinstance(value, Tensor) else None


def convert(op: str, x: object, dtype: object) -> AnyTensor:
    """``x`` cast to the dtype marker ``dtype`` (a copy, shape kept); a category is refused."""
    return wrap(_elementwise.convert(op, unwrap(op, x), dtype))
