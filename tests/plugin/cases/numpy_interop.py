"""numpy beside a tensor, with the plugin: numpy's functions refuse a tensor (it is no array-like
to numpy's stubs), as they do at run time; ``np.asarray(x)`` gives the ndarray; a numpy scalar
operand is a rank-0 tensor of its dtype (numpy 2: strong), numpy's float64 a Python float (weak)."""

from typing import Any, Literal as L, assert_type

import numpy as np
import numpy.typing as npt

import typedtensor as tt
from typedtensor import Dim, Tensor, float16, float32


class Batch(Dim): ...


def functions(x: Tensor[float32, Batch, L[3]]) -> None:
    np.exp(x)  # type: ignore[call-overload]
    np.mean(x)  # type: ignore[call-overload]
    np.clip(x, 0, 1)  # type: ignore[call-overload]
    np.sum(x, axis=0)  # type: ignore[call-overload]
    np.allclose(x, x)  # type: ignore[arg-type]
    np.concatenate((x, x))  # type: ignore[arg-type]
    assert_type(np.asarray(x), npt.NDArray[Any])
    assert_type(x.numpy(), np.ndarray[Any, Any])


def scalars(h: Tensor[float16, Batch, L[3]], i8: Tensor[tt.int8, L[4]], b: Tensor[tt.bool_, L[4]]) -> None:
    assert_type(h * np.float32(2), Tensor[float32, Batch, L[3]])
    assert_type(np.float32(2) * h, Tensor[float32, Batch, L[3]])
    assert_type(h * np.float64(2), Tensor[float16, Batch, L[3]])  # a Python float
    assert_type(i8 + np.int64(1), Tensor[tt.int64, L[4]])
    assert_type(np.uint8(1) - i8, Tensor[tt.int16, L[4]])
    assert_type(i8 ** np.uint8(2), Tensor[tt.int16, L[4]])
    assert_type(b + np.bool_(True), Tensor[tt.bool_, L[4]])
    assert_type(i8 < np.float16(1), Tensor[tt.bool_, L[4]])
    assert_type(i8 == np.int64(1), Tensor[tt.bool_, L[4]])
    assert_type(h / np.complex64(1j), Tensor[tt.complex64, Batch, L[3]])
