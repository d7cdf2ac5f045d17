# pyright: reportUnnecessaryTypeIgnoreComment=true
"""Dims read from ``x.shape`` as ints, without the plugin (pyright and plain mypy).

A literal size and a ``Dim`` class are ints (``Dim`` subclasses ``int``), and so is a TypeVar dim
bounded by ``int``: ``x.shape[0] // 2``, ``np.arange(x.shape[0])``, ``range(x.shape[1])`` and an
``int`` parameter all type-check. An unbounded TypeVar is some ``object`` to a checker without the
plugin, and so is an item inside a ``*Ts`` run: those two are errors here, on code that runs
(docs/static-checking.md says so; the plugin accepts both, see cases/shape_ints.py).
"""

from typing import Any, Literal as L, TypeVar, TypeVarTuple, assert_type

import numpy as np

import typedtensor as tt
from typedtensor import Dim, Tensor

N = TypeVar("N", bound=int)
M = TypeVar("M", bound=int)
T = TypeVar("T")
Ts = TypeVarTuple("Ts")
Positions = np.ndarray[tuple[int], np.dtype[np.int_]]


class Batch(Dim): ...


def rows(n: int) -> int:
    return n


def literal_dims(x: Tensor[tt.float32, L[4], L[6]]) -> None:
    half: int = x.shape[0] // 2
    count: int = x.shape[0] * x.shape[1]
    steps = tt.arange(0, x.shape[0], 2)
    flat = x.reshape(x.shape[0] * x.shape[1])
    assert_type(np.arange(x.shape[0]), Positions)
    assert_type(range(x.shape[1]), range)
    assert_type(rows(x.shape[0]), int)
    assert_type(steps, Tensor[tt.int64, Any])
    assert_type(flat, Tensor[tt.float32, *tuple[Any, ...]])


def named_dims(x: Tensor[tt.float32, Batch, L[6]]) -> None:
    assert_type(x.shape[0], Batch)
    assert_type(x.shape[0] // 2, int)
    assert_type(x.shape[0] * x.shape[1], int)
    assert_type(tt.arange(0, x.shape[0], 2), Tensor[tt.int64, Any])
    assert_type(np.arange(x.shape[0]), Positions)
    assert_type(range(x.shape[0]), range)
    assert_type(rows(x.shape[0]), int)
    assert_type(x.reshape(x.shape[0] * x.shape[1]), Tensor[tt.float32, *tuple[Any, ...]])


def int_bounded_dims(x: Tensor[tt.float32, N, M]) -> None:
    assert_type(x.shape[0], N)
    assert_type(x.shape[0] // 2, int)
    assert_type(x.shape[0] * x.shape[1], int)
    assert_type(tt.arange(0, x.shape[0], 2), Tensor[tt.int64, Any])
    assert_type(np.arange(x.shape[0]), Positions)
    assert_type(range(x.shape[1]), range)
    assert_type(rows(x.shape[0]), int)
    assert_type(x.reshape(x.shape[0] * x.shape[1]), Tensor[tt.float32, *tuple[Any, ...]])


def int_bounded_calls(x: Tensor[tt.float32, L[3], L[4]], b: Tensor[tt.float32, Batch, L[4]], u: Tensor[tt.float32, Any, Any]) -> None:
    """An ``int`` bound takes every dim a caller has: literals, ``Dim`` classes, ``Any``."""
    int_bounded_dims(x)
    int_bounded_dims(b)
    int_bounded_dims(u)


def unknown_dims(x: Tensor[tt.float32, Any, Any]) -> None:
    assert_type(x.shape[0] // 2, Any)
    assert_type(tt.arange(0, x.shape[0], 2), Tensor[tt.int64, Any])
    assert_type(range(x.shape[1]), range)
    assert_type(rows(x.shape[0]), int)


def unbounded_dims(x: Tensor[tt.float32, T]) -> None:
    """Without the plugin an unbounded TypeVar is no int: bound it, ``TypeVar("T", bound=int)``."""
    rows(x.shape[0])  # type: ignore[arg-type]


def run_dims(x: Tensor[tt.float32, L[2], *Ts, L[3]]) -> None:
    """Around a run the dims are exact; inside it, without the plugin, an item is no int."""
    assert_type(x.shape[0], L[2])
    assert_type(x.shape[-1], L[3])
    rows(x.shape[-1])
    rows(x.shape[1])  # type: ignore[arg-type]
    rows(int(x.numpy().shape[1]))  # the way round it that docs/static-checking.md gives
