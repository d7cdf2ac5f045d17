# pyright: reportUnnecessaryTypeIgnoreComment=true
"""The declared types of the axis ops, indexing and creation, with no plugin (pyright and plain mypy).

Exact where standard typing can say it: softmax keeps its argument's type, an int index drops the
first dim, ``None`` adds ``Literal[1]``, ``...`` keeps everything, ``take`` without an axis has the
indices' dims, ``random.*`` the literal dims of their shape; elsewhere dims are unknown, never wrong.
"""

from typing import Any, Literal as L, TypeVarTuple, assert_type

import numpy as np

import typedtensor as tt
from typedtensor import Dim, Tensor

Ts = TypeVarTuple("Ts")


class Batch(Dim): ...


def axis_ops(x: Tensor[tt.float32, L[3], L[4]], h: Tensor[tt.float16, Batch, *Ts], idx: Tensor[tt.int64, L[5]]) -> None:
    assert_type(tt.argmax(x), Tensor[tt.int64, *tuple[Any, ...]])
    assert_type(tt.argmin(x, axis=0, keepdims=True), Tensor[tt.int64, *tuple[Any, ...]])
    assert_type(tt.softmax(x), Tensor[tt.float32, L[3], L[4]])
    assert_type(tt.log_softmax(h, axis=0), Tensor[tt.float16, Batch, *Ts])
    assert_type(tt.logsumexp(x), Tensor[tt.float32])
    assert_type(tt.logsumexp(x, axis=1), Tensor[tt.float32, *tuple[Any, ...]])
    assert_type(tt.take(x, idx), Tensor[tt.float32, L[5]])
    assert_type(tt.take(x, idx, axis=1), Tensor[tt.float32, *tuple[Any, ...]])
    assert_type(tt.take(x, 2, axis=0), Tensor[tt.float32, *tuple[Any, ...]])
    assert_type(tt.take_along_axis(x, idx[None]), Tensor[tt.float32, *tuple[Any, ...]])
    tt.softmax(idx)  # type: ignore[type-var]  # floats only
    tt.take(x, x)  # type: ignore[arg-type]  # integer indices only


def indexing(x: Tensor[tt.float32, L[3], L[4]], b: Tensor[tt.int8, Batch, *Ts], s: Tensor[tt.float32], idx: Tensor[tt.int64, L[5]]) -> None:
    assert_type(x[0], Tensor[tt.float32, L[4]])
    assert_type(x[np.int64(1)], Tensor[tt.float32, L[4]])
    assert_type(x[1:], Tensor[tt.float32, Any, L[4]])
    assert_type(x[None], Tensor[tt.float32, L[1], L[3], L[4]])
    assert_type(x[...], Tensor[tt.float32, L[3], L[4]])
    assert_type(x[0, 1], Tensor[tt.float32, *tuple[Any, ...]])
    assert_type(x[idx], Tensor[tt.float32, *tuple[Any, ...]])
    assert_type(b[0], Tensor[tt.int8, *Ts])
    assert_type(b[:], Tensor[tt.int8, Any, *Ts])
    assert_type(s[0], Tensor[tt.float32, *tuple[Any, ...]])  # rank 0: the plugin reports it
    x[x]  # type: ignore[index]
    x["a"]  # type: ignore[call-overload]


def creation(rng: np.random.Generator) -> None:
    assert_type(tt.arange(5), Tensor[tt.int64, Any])
    assert_type(tt.arange(1, 5, 2, dtype=tt.float64), Tensor[tt.float64, Any])
    assert_type(tt.eye(3), Tensor[tt.float32, Any, Any])
    assert_type(tt.eye(3, 4, k=1, dtype=tt.uint8), Tensor[tt.uint8, Any, Any])
    normal: Tensor[tt.float32, L[2], L[3]] = tt.random.normal((2, 3), rng=rng)
    uniform: Tensor[tt.float64, L[4]] = tt.random.uniform((4,), tt.float64, 0, low=-1.0)
    uniform_like: Tensor[tt.float64, L[4]] = tt.random.uniform((4,), tt.float64, 0, low=-1.0, like=normal)
    tt.arange(1.5)  # type: ignore[call-overload]
    tt.random.normal((2,), tt.int32)  # type: ignore[type-var]


def from_data(x: Tensor[tt.int8, Batch], a: np.ndarray[tuple[int, int], np.dtype[np.float32]], loaded: Any) -> None:
    """``tensor`` says the dtype passed; the rest (a tensor's or an ndarray's type) takes the plugin."""
    assert_type(tt.tensor([[1.0, 2.0]], dtype=tt.float32), Tensor[tt.float32, *tuple[Any, ...]])
    assert_type(tt.tensor(a, tt.int64), Tensor[tt.int64, *tuple[Any, ...]])
    assert_type(tt.tensor(loaded, tt.bool_), Tensor[tt.bool_, *tuple[Any, ...]])
    assert_type(tt.tensor(a), Tensor[Any, *tuple[Any, ...]])
    assert_type(tt.tensor(x), Tensor[Any, *tuple[Any, ...]])
    assert_type(tt.tensor(loaded), Tensor[Any, *tuple[Any, ...]])
    assert_type(tt.tensor([1, 2], None), Tensor[Any, *tuple[Any, ...]])
