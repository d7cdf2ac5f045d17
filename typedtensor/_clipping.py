"""``clip``: a tensor bounded below and above, each bound a Python scalar, a tensor (broadcast)
or None (no bound); its declared signatures, then "is it a Tensor?", unwrap, the array op, wrap.

The overloads are exact where every bound is a Python scalar or None (the shape kept, the dtype
by the rule: ``float16`` with ``0.5`` stays ``float16``, ``int8`` with ``0.5`` is ``float64``); a
tensor bound gives unknown dims (it may have more dims than ``x``), which the plugin makes exact.
"""

from __future__ import annotations

from typing import Any, TypeAlias, overload

from typedtensor._dtypes import NumpyScalar, bool_, float64, int64, integer
from typedtensor._generated.type_vars import FloatingT, IntegerT, Shape
from typedtensor._ops import elementwise as _elementwise
from typedtensor._tensor import AnyTensor, Tensor, operand, unwrap, wrap

#: A bound: a tensor, a Python scalar, a numpy scalar (a rank-0 tensor of its dtype), or None.
Bound: TypeAlias = AnyTensor | complex | NumpyScalar | None


# A bool is an int and an int a float to the checkers, so mypy finds overlaps (ignored): the first
# overload that matches is the one numpy's dtypes agree with.
@overload
def clip(x: Tensor[FloatingT, *Shape], low: float | None, high: float | None) -> Tensor[FloatingT, *Shape]: ...
@overload
def clip(x: Tensor[IntegerT, *Shape], low: int | None, high: int | None) -> Tensor[IntegerT, *Shape]: ...  # type: ignore[overload-overlap]
@overload
def clip(x: Tensor[bool_, *Shape], low: bool | None, high: bool | None) -> Tensor[bool_, *Shape]: ...  # type: ignore[overload-overlap]
@overload
def clip(x: Tensor[bool_, *Shape], low: int | None, high: int | None) -> Tensor[int64, *Shape]: ...  # type: ignore[overload-overlap]
@overload
def clip(x: Tensor[integer | bool_, *Shape], low: float | None, high: float | None) -> Tensor[float64, *Shape]: ...
@overload
def clip(x: Tensor[Any, *Shape], low: complex | None, high: complex | None) -> Tensor[Any, *Shape]: ...
@overload
def clip(x: AnyTensor, low: Bound, high: Bound) -> AnyTensor: ...
def clip(x: AnyTensor, low: Bound, high: Bound) -> AnyTensor:
    """``x`` bounded below by ``low`` and above by ``high``, elementwise with broadcasting.

    Each bound is a tensor, a Python scalar, a numpy scalar, or None (no bound on that side). As numpy's ``clip``:
    ``minimum(maximum(x, low), high)``, its dtype their promotion (Python scalars weak); NaN
    propagates; where ``low > high`` the result is ``high``. Not for complex numbers.

    >>> import typedtensor as tt
    >>> tt.clip(tt.tensor([-2.0, 0.5, 3.0]), 0.0, 1.0)
    Tensor[float64, 3]([0. , 0.5, 1. ])
    """
    array = unwrap("clip", x)
    bounds = [None if bound is None else operand("clip", bound, name, array) for bound, name in ((low, "low"), (high, "high"))]
    return wrap(_elementwise.clip(array, *bounds))
