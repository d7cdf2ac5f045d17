# mypy: enable-error-code="tensor-unknown"
"""``tensor-unknown``, switched on for this file alone: each op whose result gained unknown dims
its inputs did not have, and nowhere else (its wording is in test_mypy_messages.yml).

A line ending in ``# type: ignore[tensor-unknown]`` passes when the code is reported there; a
line without it passes when nothing is (test_no_other_messages), which shows the silences.
"""

from typing import Any, Literal as L, assert_type

import numpy as np

import typedtensor as tt
from typedtensor import Dim, Tensor, float32


class Batch(Dim): ...


def where_dims_became_unknown(x: Tensor[float32, L[2], L[3]], n: int, data: list[list[float]]) -> None:
    x.reshape((n, 3))  # type: ignore[tensor-unknown]
    tt.reshape(x, (n, -1))  # type: ignore[tensor-unknown]
    x[:n]  # type: ignore[tensor-unknown]
    x[1:, n:]  # type: ignore[tensor-unknown]
    tt.tensor(data)  # type: ignore[tensor-unknown]
    x.sum(axis=n)  # type: ignore[tensor-unknown]
    tt.reduce_max(x, axis=n, keepdims=True)  # type: ignore[tensor-unknown]
    tt.zeros((n, 3), tt.float32)  # type: ignore[tensor-unknown]
    tt.arange(n)  # type: ignore[tensor-unknown]
    tt.eye(3, n)  # type: ignore[tensor-unknown]


def index_tensors(x: Tensor[float32, L[2], L[3]], mask: Tensor[tt.bool_, L[2], L[3]], rows: Tensor[tt.bool_, L[2]]) -> None:
    x[mask]  # type: ignore[tensor-unknown]
    x[rows]  # type: ignore[tensor-unknown]


def named_dims(x: Tensor[float32, Batch, L[4]]) -> None:
    """No argument to blame: the rule cannot know ``min(Batch, 3)``."""
    x[:3]  # type: ignore[tensor-unknown]
    tt.squeeze(x)  # type: ignore[tensor-unknown]


def exact_results_say_nothing(x: Tensor[float32, L[2], L[3]], n: int, idx: Tensor[tt.int64, L[5]]) -> None:
    assert_type(x.reshape((3, 2)).sum(axis=0)[1:, None], Tensor[float32, L[1], L[1]])
    assert_type(x[idx], Tensor[float32, L[5], L[3]])
    assert_type(x[n], Tensor[float32, L[3]])  # an int of unknown value still drops the dim
    assert_type(tt.zeros((2, 3)) + x, Tensor[float32, L[2], L[3]])


def losses_reported_earlier_say_nothing(x: Tensor[float32, L[2], L[3]], n: int, u: Tensor[float32, Any, L[3]]) -> None:
    """The loss is reported once, where it happened."""
    x.reshape((n, 3)).sum(axis=0)[0:1]  # type: ignore[tensor-unknown]
    u.reshape((n,))
    u + x
    tt.concat([u, x])


def data_from_numpy_says_nothing(a: np.ndarray[Any, np.dtype[np.float32]], x: Tensor[float32, L[3]]) -> None:
    """numpy's types lost the dims before typedtensor saw them."""
    tt.tensor(a)


def one_mistake_one_error(x: Tensor[float32, L[2], L[3]], n: int, s: str) -> None:
    x.reshape((3, 3))  # type: ignore[tensor-reshape]
    x.sum(axis=5)  # type: ignore[tensor-axis]
    x.reshape(s)  # type: ignore[arg-type]
    tt.zeros((n, 3), s)  # type: ignore[call-overload]


def in_context(n: int) -> None:
    """Against a literal annotation a call with unknown sizes fits it (test_creation's case):
    the report leaves mypy's choice of overload alone, so nothing else is said."""
    rows: Tensor[float32, L[2], L[3]] = tt.zeros((n, 3))  # type: ignore[tensor-unknown]
    assert_type(rows, Tensor[float32, L[2], L[3]])
