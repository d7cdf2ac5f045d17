# pyright: reportUnnecessaryTypeIgnoreComment=true
"""numpy beside a tensor, without the plugin (pyright, plain mypy): numpy's functions refuse a
tensor; a numpy scalar operand keeps the tensor's shape (its dtype Any: numpy's promotion of the
pair; the plugin says which); numpy's float64 is a Python float."""

from typing import Any, Literal as L, assert_type

import numpy as np
import numpy.typing as npt

import typedtensor as tt
from typedtensor import Dim, Tensor


class Batch(Dim): ...


def functions(x: Tensor[tt.float32, Batch, L[3]]) -> None:
    np.exp(x)  # type: ignore[call-overload]
    np.mean(x)  # type: ignore[call-overload]
    np.clip(x, 0, 1)  # type: ignore[call-overload]
    np.allclose(x, x)  # type: ignore[arg-type]
    assert_type(np.asarray(x), npt.NDArray[Any])


def scalars(h: Tensor[tt.float16, Batch, L[3]], i8: Tensor[tt.int8, L[4]]) -> None:
    assert_type(h * np.float32(2), Tensor[Any, Batch, L[3]])
    assert_type(np.float32(2) * h, Tensor[Any, Batch, L[3]])
    assert_type(h * np.float64(2), Tensor[tt.float16, Batch, L[3]])
    assert_type(i8 == np.int64(1), Tensor[tt.bool_, L[4]])
    assert_type(i8 < np.float16(1), Tensor[tt.bool_, L[4]])
    assert_type(tt.add(i8, np.int64(1)), Tensor[Any, L[4]])
