"""The text of a ``ShapeError``: what was expected, what came, why it fails, what is bound.

Only failing checks reach this module, so it may take its time. The reason for a shape
mismatch is jaxtyping's own (``__instancecheck_str__``, the explanation hook it offers
beartype), asked while the call's memo is still open so that it can name earlier bindings.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from typedtensor._annotations import TensorSpec
from typedtensor._dtypes import CONCRETE_DTYPES, marker_of, type_text
from typedtensor._errors import ShapeError
from typedtensor._tensor import Tensor


def mismatch(where: str, spec: TensorSpec, value: object, checked: list[tuple[TensorSpec, tuple[int, ...]]]) -> ShapeError:
    """The error for ``value`` failing ``spec`` at ``where`` after the ``checked`` tensors passed.

    >>> import typedtensor as tt
    >>> from typedtensor._annotations import tensor_spec
    >>> spec = tensor_spec(tt.Tensor[tt.float32], ({}, {}), "x")
    >>> print(mismatch('parameter "x" of f()', spec, 1.5, []))
    parameter "x" of f() does not match its annotation
      expected: Tensor[float32]
      got:      float
      reason:   a float is not a Tensor
      bound:    no dims yet
    """
    if isinstance(value, Tensor):
        got, reason = type_text(value.numpy()), _tensor_reason(spec, value.numpy())
    else:
        got, reason = _type_name(value), _not_a_tensor_reason(value)
    return ShapeError(
        f"{where} does not match its annotation\n"
        f"  expected: {spec.text}\n"
        f"  got:      {got}\n"
        f"  reason:   {reason}\n"
        f"  bound:    {_bound_text(checked)}"
    )


def _tensor_reason(spec: TensorSpec, array: np.ndarray[Any, Any]) -> str:
    """Why a tensor fails: its dtype in our words, or its shape in jaxtyping's."""
    if array.dtype not in spec.dtypes:
        return _dtype_reason(spec, marker_of(array.dtype).__name__)
    reason: str = spec.shape_type.__instancecheck_str__(array)  # type: ignore[attr-defined]
    return spec.in_dim_names(reason)


def _dtype_reason(spec: TensorSpec, actual: str) -> str:
    """``dtype float64 is not float32``, listing the members when a category was expected."""
    expected = spec.dtype.__name__
    if spec.dtype.numpy_dtype is not None:
        return f"dtype {actual} is not {expected}"
    members = ", ".join(marker.__name__ for marker in CONCRETE_DTYPES if marker.numpy_dtype in spec.dtypes)
    return f"dtype {actual} is not one of the {expected} dtypes ({members})"


def _not_a_tensor_reason(value: object) -> str:
    """Why a non-Tensor fails, with the fix for the common case of a bare ndarray."""
    if isinstance(value, np.ndarray):
        return "a numpy.ndarray is not a Tensor; wrap it with typedtensor.Tensor(array)"
    return f"a {_type_name(value)} is not a Tensor"


def _type_name(value: object) -> str:
    """``float``, ``numpy.ndarray``: builtins bare, others with their top-level module."""
    cls = type(value)
    module = cls.__module__.partition(".")[0]
    return cls.__qualname__ if module == "builtins" else f"{module}.{cls.__qualname__}"


def _bound_text(checked: list[tuple[TensorSpec, tuple[int, ...]]]) -> str:
    """``Batch=32, N=5, *Ts=(3, 4)``: every dim bound by the tensors that passed, first use first."""
    bound: dict[str, str] = {}  # by symbol: two dims may share a name
    for spec, shape in checked:
        for dim, size in spec.bindings(shape):
            bound.setdefault(dim.token, f"{dim.text}={size}")
    return ", ".join(bound.values()) or "no dims yet"
