"""The text of a ``ShapeError``: what was expected, what came, why it fails, what is bound.

Only failing checks reach this module, so it may take its time. The reason for a shape
mismatch is jaxtyping's own (``__instancecheck_str__``, the explanation hook it offers
beartype), asked while the call's memo is still open so that it can name earlier bindings.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias

import numpy as np

from typedtensor._check.annotations import ShapeSpec, TensorSpec, fitting
from typedtensor._check.bindings import CallRecord, expression_reason
from typedtensor._check.jaxtyping_arrays import ArraySpec
from typedtensor._check.specs import SequenceSpec, Spec
from typedtensor._check.unknown_sizes import for_shape_check, forget_unknown
from typedtensor._dtypes import CONCRETE_DTYPES, generic, marker_of, numpy_dtype_like, type_text
from typedtensor._errors import ShapeError
from typedtensor._ops.backends import is_unknown
from typedtensor._tensor import Tensor


@dataclass(frozen=True, slots=True)
class Item:
    """Where an item of a checked list or tuple is; written out only for a message."""

    index: int
    of: Where

    def __str__(self) -> str:
        return f"item {self.index} of {self.of}"


#: Where a checked value is: ``parameter "x" of f()``, ``item 2 of return value of f() (...)``.
Where: TypeAlias = "str | Item"


def mismatch(where: Where, spec: Spec, value: object, call: CallRecord) -> ShapeError:
    """The error for ``value`` failing ``spec`` at ``where`` in ``call``, after its earlier checks passed.

    >>> import typedtensor as tt
    >>> from typedtensor._check.annotations import tensor_spec
    >>> from typedtensor._check.bindings import CallRecord
    >>> spec = tensor_spec(tt.Tensor[tt.float32], ({}, {}), "x")
    >>> print(mismatch('parameter "x" of f()', spec, 1.5, CallRecord("f()", ())))
    parameter "x" of f() does not match its annotation
      expected: Tensor[float32]
      got:      float
      reason:   a float is not a Tensor
      bound:    no dims yet
    """
    got, reason, failing = _explained(spec, value, call)
    return ShapeError(
        f"{where} does not match its annotation\n"
        f"  expected: {spec.text}\n"
        f"  got:      {got}\n"
        f"  reason:   {reason}\n"
        f"  bound:    {_bound_text(call, failing)}"
    )


#: What came, why it fails, and the value whose shape jaxtyping checked (if it got that far).
_Explained: TypeAlias = tuple[str, str, "tuple[ShapeSpec, tuple[int, ...]] | None"]


def _explained(spec: Spec, value: object, call: CallRecord) -> _Explained:
    if isinstance(spec, SequenceSpec):
        return (*_sequence_reason(spec, value), None)
    if isinstance(spec, ArraySpec):
        return _array_explained(spec, value)
    if not isinstance(value, spec.tensor_class):
        return _got(value), _not_a_tensor_reason(value, spec.tensor_class), None
    array = value.array
    reason = _dtype_reason(spec, numpy_dtype_like(array.dtype), call)
    if reason is not None:
        return _got(value), reason, None
    shape = tuple(array.shape)
    try:
        reason = _shape_reason(spec, for_shape_check(array, shape)) or expression_reason(call, spec, shape, "") or ""
    finally:
        forget_unknown()
    return _got(value), reason, (spec, shape)


def _array_explained(spec: ArraySpec, value: object) -> _Explained:
    """A jaxtyping array annotation: jaxtyping says why, also for the array type and dtype."""
    shape, dtype = getattr(value, "shape", None), getattr(value, "dtype", None)
    if shape is None or dtype is None:
        return _got(value), _shape_reason(spec, value), None
    return f"{_got(value)} of {dtype}, shape {tuple(shape)}", _shape_reason(spec, value), (spec, tuple(shape))


def _got(value: object) -> str:
    """What came: ``Tensor[float32, 32, 10]``, ``numpy.ndarray``, ``list``."""
    return type_text(value.array) if isinstance(value, Tensor) else _type_name(value)


def _dtype_reason(spec: TensorSpec, dtype: np.dtype[Any], call: CallRecord) -> str | None:
    """Why a tensor's dtype (as numpy's) fails, in our words; ``None`` if it fits."""
    actual = marker_of(dtype).__name__
    if dtype not in spec.dtypes:
        return _outside_reason(spec, actual)
    var = spec.dtype_var
    if var is not None and not fitting(dtype, call.dtype_vars.get(var, spec.constraints)):
        return f"dtype {actual} is not {_names(call.dtype_vars[var])}, which {var.__name__} is bound to in this call"
    return None


def _outside_reason(spec: TensorSpec, actual: str) -> str:
    """``dtype float64 is not float32``, listing the members when a category was expected."""
    expected = spec.dtype_text
    if len(spec.dtypes) == 1:
        return f"dtype {actual} is not {expected}"
    members = _names(tuple(marker for marker in CONCRETE_DTYPES if marker.numpy_dtype in spec.dtypes), ", ")
    return f"dtype {actual} is not one of the {expected} dtypes ({members})"


def _names(markers: tuple[type[generic], ...], separator: str = " | ") -> str:
    return separator.join(marker.__name__ for marker in markers)


def _shape_reason(spec: ShapeSpec, value: object) -> str:
    """jaxtyping's reason, in the user's dim names."""
    return spec.in_dim_names(spec.shape_type.__instancecheck_str__(value))  # type: ignore[attr-defined]


def _sequence_reason(spec: SequenceSpec, value: object) -> tuple[str, str]:
    """What came and why it fails, for a list or tuple of the wrong kind or length."""
    if not isinstance(value, (list, tuple)) or not isinstance(value, spec.kind):
        return _got(value), f"{_a(_type_name(value))} is not {_a(spec.kind.__name__)}"
    count = f"{_type_name(value)} of {len(value)} items"
    return count, f"{_a(count)}, not {len(spec.items)}"


def _not_a_tensor_reason(value: object, expected: type) -> str:
    """Why a value that is not of the expected Tensor class fails, with the fix for the common
    case of a bare ndarray."""
    if isinstance(value, np.ndarray) and expected is Tensor:
        return "a numpy.ndarray is not a Tensor; wrap it with typedtensor.Tensor(array)"
    return f"{_a(type(value).__name__ if isinstance(value, Tensor) else _type_name(value))} is not {_a(expected.__name__)}"


def _a(noun: str) -> str:
    """``a list``, ``an Images``."""
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def _type_name(value: object) -> str:
    """``float``, ``numpy.ndarray``: builtins bare, others with their top-level module."""
    cls = type(value)
    module = cls.__module__.partition(".")[0]
    return cls.__qualname__ if module == "builtins" else f"{module}.{cls.__qualname__}"


def _bound_text(call: CallRecord, failing: tuple[ShapeSpec, tuple[int, ...]] | None) -> str:
    """``Batch=32, N=5, *Ts=(3, 4), D=float32``: every dim bound by the tensors that passed, first
    use first, and by the ``failing`` tensor before its first conflict, then each constrained dtype
    TypeVar with the constraints it may still take."""
    bound: dict[str, tuple[str, object]] = {}  # by symbol: two dims may share a name
    for spec, shape in call.checked:
        for dim, size in spec.aligned(shape):
            if dim.binds and not is_unknown(size):  # an unknown size binds nothing
                bound.setdefault(dim.token, (dim.text, size))
    if failing is not None:
        _bind_until_conflict(bound, *failing)
    dims = [f"{name}={size}" for name, size in bound.values()]
    dtypes = [f"{var.__name__}={_names(markers)}" for var, markers in call.dtype_vars.items()]
    return ", ".join([*dims, *dtypes]) or "no dims yet"


def _bind_until_conflict(bound: dict[str, tuple[str, object]], spec: ShapeSpec, shape: tuple[int, ...]) -> None:
    """Add what jaxtyping bound for a failing ``shape`` before the dim that failed (it rolls
    those bindings back, but they explain the reason, as in ``Batch`` then ``Batch``)."""
    for dim, size in spec.aligned(shape):
        if is_unknown(size):  # matches any size
            continue
        if dim.binds:
            if bound.setdefault(dim.token, (dim.text, size))[1] != size:
                return
        elif dim.token.isdigit() and int(dim.token) != size:  # a Literal size; Any and runs pass
            return
