"""Every dim read from ``x.shape`` is an ``int`` (SPEC §7 "Checked casts and dims as ints"):
``x.shape[0] // 2``, ``x.shape[0] * x.shape[1]``, ``tt.arange(0, x.shape[0], 2)``, ``np.arange``,
``range`` and ``int`` parameters type-check whatever the dim is (a literal, a ``Dim`` class, a
TypeVar with or without an ``int`` bound, ``Any``, an item of a ``*Ts`` run), while ``x.shape[0]``
passed as a size still carries its dim. Arithmetic gives a plain ``int`` (dim expressions, §9,
are not modelled yet)."""

from typing import Any, Generic, Literal as L, TypeVar, TypeVarTuple, assert_type

import numpy as np

import typedtensor as tt
from typedtensor import Dim, Div, Mul, Tensor, float32


class Batch(Dim): ...


T = TypeVar("T")
U = TypeVar("U")
N = TypeVar("N", bound=int)  # the spelling that needs no plugin (see declared/shape_ints_declared.py)
Ts = TypeVarTuple("Ts")


def rows(n: int) -> int:
    return n


def literal_dims(x: Tensor[float32, L[4], L[6]]) -> None:
    steps = tt.arange(0, x.shape[0], 2)
    flat = x.reshape(x.shape[0] * x.shape[1])
    assert_type(x.shape[0] // 2, L[2])  # literal sizes fold, as Final ints do (SPEC §9)
    assert_type(x.shape[0] * x.shape[1], L[24])
    assert_type(steps, Tensor[tt.int64, L[2]])
    np.arange(x.shape[0])  # an int: no error (the result's type is numpy's, which varies by version)
    assert_type(range(x.shape[1]), range)
    assert_type(rows(x.shape[0]), int)
    assert_type(flat, Tensor[float32, L[24]])


def named_dims(x: Tensor[float32, Batch, L[6]]) -> None:
    steps = tt.arange(0, x.shape[0], 2)
    flat = x.reshape(x.shape[0] * x.shape[1])
    assert_type(x.shape[0] // 2, Div[Batch, L[2]])  # arithmetic on sizes computes dims (SPEC §9)
    assert_type(x.shape[0] * x.shape[1], Mul[L[6], Batch])
    half = x.shape[0] // 2
    assert_type(tt.zeros((half, 2)), Tensor[float32, Div[Batch, L[2]], L[2]])  # through a variable
    assert_type(steps, Tensor[tt.int64, Any])  # Batch // 2 rounded up: a floor, no Div
    np.arange(x.shape[0])  # an int: no error (the result's type is numpy's, which varies by version)
    assert_type(range(x.shape[0]), range)
    assert_type(rows(x.shape[0]), int)
    assert_type(flat, Tensor[float32, Mul[L[6], Batch]])


def generic_dims(x: Tensor[float32, T, U]) -> Tensor[float32, T, L[3]]:
    steps = tt.arange(0, x.shape[0], 2)
    flat = x.reshape(x.shape[0] * x.shape[1])
    assert_type(x.shape[0] // 2, int)  # mypy calls no plugin hook on a TypeVar's operator: an int
    assert_type(x.shape[0] * x.shape[1], int)
    assert_type(x.shape[0] - 1, int)
    assert_type(tt.zeros((x.shape[0] // 2,)), Tensor[float32, Div[T, L[2]]])  # written in the size, read again
    assert_type(steps, Tensor[tt.int64, Any])
    np.arange(x.shape[0])  # an int: no error (the result's type is numpy's, which varies by version)
    assert_type(range(x.shape[1]), range)
    assert_type(rows(x.shape[0]), int)
    assert_type(flat, Tensor[float32, Mul[T, U]])
    batch, width = x.shape
    assert_type(batch * width, int)
    return tt.zeros((x.shape[0], 3))


def generic_dims_stay_dims(x: Tensor[float32, T, U], v: Tensor[float32, U]) -> None:
    """Passed as sizes, the dims read from ``x.shape`` are the annotations' T and U."""
    rows_first = tt.zeros((x.shape[0], 3))
    like = tt.zeros(x.shape)
    positions = tt.arange(x.shape[0])
    square = tt.eye(x.shape[0], x.shape[1])
    batch = x.shape[0]
    from_name = tt.ones((batch, 2))
    assert_type(rows_first, Tensor[float32, T, L[3]])
    assert_type(like, Tensor[float32, T, U])
    assert_type(like + x, Tensor[float32, T, U])  # the same T and U, not two dims that may differ
    assert_type(positions, Tensor[tt.int64, T])
    assert_type(square, Tensor[float32, T, U])
    assert_type(from_name, Tensor[float32, T, L[2]])
    assert_type(x.reshape((x.shape[0], -1)), Tensor[float32, T, U])
    assert_type(tt.broadcast_to(v, (x.shape[0], x.shape[1])), Tensor[float32, T, U])
    assert_type(x[x.shape[0] - 1], Tensor[float32, U])


def int_bounded_dims(x: Tensor[float32, N, L[3]]) -> Tensor[float32, N, L[3]]:
    assert_type(x.shape[0] // 2, int)
    assert_type(x.shape[0] * x.shape[1], int)
    assert_type(tt.arange(0, x.shape[0], 2), Tensor[tt.int64, Any])
    np.arange(x.shape[0])  # an int: no error (the result's type is numpy's, which varies by version)
    assert_type(rows(x.shape[0]), int)
    return tt.zeros((x.shape[0], 3))


def unknown_dims(x: Tensor[float32, Any, Any]) -> None:
    steps = tt.arange(0, x.shape[0], 2)
    flat = x.reshape(x.shape[0] * x.shape[1])
    assert_type(x.shape[0] // 2, Any)
    assert_type(steps, Tensor[tt.int64, Any])
    assert_type(np.arange(x.shape[0]), np.ndarray[Any, Any])
    assert_type(range(x.shape[1]), range)
    assert_type(rows(x.shape[0]), int)
    assert_type(flat, Tensor[float32, Any])


def run_dims(x: Tensor[float32, L[2], *Ts, L[3]]) -> None:
    """An item that may fall in the run is some int; those around it keep their literal."""
    steps = tt.arange(0, x.shape[1], 2)
    assert_type(x.shape[1], int)
    assert_type(x.shape[-2], int)
    assert_type(x.shape[1] // 2, int)
    assert_type(x.shape[0] * x.shape[1], int)
    assert_type(steps, Tensor[tt.int64, Any])
    np.arange(x.shape[1])  # an int: no error (the result's type is numpy's, which varies by version)
    assert_type(range(x.shape[1]), range)
    assert_type(rows(x.shape[-2]), int)
    assert_type(x.shape[0], L[2])
    assert_type(x.shape[-1], L[3])
    assert_type(tt.zeros(x.shape), Tensor[float32, L[2], *Ts, L[3]])  # as declared


class Sequence(Tensor[float32, T, L[4]]):
    """A subclass of Tensor reads its shape the same way."""


class Encoder(Generic[T]):
    """A class's own TypeVar as a dim, kept by what the method builds from it."""

    def __init__(self, x: Sequence[T]) -> None:
        self.half = x.shape[0] // 2
        self.mask = tt.ones((x.shape[0], x.shape[0]), tt.bool_)

    def positions(self) -> Tensor[tt.int64, T]:
        # Not ``self.length = x.shape[0]`` read back here: mypy gives an attribute the class's
        # own ``T`` (see docs/static-checking.md); the shape of what was stored is read anew.
        assert_type(self.half, int)
        assert_type(self.mask, Tensor[tt.bool_, T, T])
        return tt.arange(self.mask.shape[0])
