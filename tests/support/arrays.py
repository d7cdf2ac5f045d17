"""The dtypes and array layouts the ops' tests draw their operands from."""

from __future__ import annotations

from typing import Any

import numpy as np
from hypothesis import strategies as st

DTYPES = [np.dtype(name) for name in (
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128",
)]

Array = np.ndarray[Any, Any]


def strided(draw: st.DrawFn, array: Array) -> Array:
    """``array`` itself, or the same values in a view that is not C-contiguous."""
    if array.ndim >= 2 and draw(st.booleans()):
        return np.ascontiguousarray(array.swapaxes(0, 1)).swapaxes(0, 1)
    if array.ndim >= 1 and draw(st.booleans()):
        return np.repeat(array, 2, axis=-1)[..., ::2]
    return array
