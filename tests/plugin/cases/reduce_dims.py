"""Every kind of dim: ``Dim`` classes, TypeVars, ``Any``, and a variadic ``*Ts`` or ``*tuple[X, ...]``."""

from typing import Any, Literal as L, TypeVar, TypeVarTuple, assert_type

import numpy as np

import typedtensor as tt
from typedtensor import Dim, Tensor, float32


class Batch(Dim): ...


class Time(Dim): ...


N = TypeVar("N")
M = TypeVar("M")
DT = TypeVar("DT", bound=tt.generic)
Ts = TypeVarTuple("Ts")
Rest = TypeVarTuple("Rest")

named: Tensor[float32, Batch, Time, L[8]] = Tensor(np.zeros((4, 6, 8), np.float32))
assert_type(named.sum(axis=0), Tensor[float32, Time, L[8]])
assert_type(named.sum(axis=-1), Tensor[float32, Batch, Time])
assert_type(named.mean(axis=(0, 1)), Tensor[float32, L[8]])
assert_type(named.max(axis=1, keepdims=True), Tensor[float32, Batch, L[1], L[8]])
assert_type(tt.reduce_sum(named, axis="^v^"), Tensor[float32, Time])

unknown_dims: Tensor[float32, Any, L[3], Any] = tt.zeros((1, 3, 2), tt.float32)
assert_type(unknown_dims.sum(axis=0), Tensor[float32, L[3], Any])
assert_type(unknown_dims.sum(axis=(0, 2)), Tensor[float32, L[3]])
assert_type(unknown_dims.sum(axis=1, keepdims=True), Tensor[float32, Any, L[1], Any])

any_rank: Tensor[float32, *tuple[Any, ...]] = tt.zeros((1, 1, 1, 1, 1, 1, 1, 1, 1), tt.float32)
assert_type(any_rank.sum(), Tensor[float32])
assert_type(any_rank.sum(axis=0), Tensor[float32, *tuple[Any, ...]])
assert_type(any_rank.sum(axis=7), Tensor[float32, *tuple[Any, ...]])  # the rank may be 8: no error
assert_type(any_rank.sum(axis="^^^^^^^^^"), Tensor[float32, *tuple[Any, ...]])
assert_type(any_rank.sum(keepdims=True), Tensor[float32, *tuple[Any, ...]])

known_ends: Tensor[float32, L[2], *tuple[Any, ...], L[5]] = tt.zeros((2, 3, 5), tt.float32)
assert_type(known_ends.sum(axis=0), Tensor[float32, *tuple[Any, ...], L[5]])
assert_type(known_ends.sum(axis=-1), Tensor[float32, L[2], *tuple[Any, ...]])
assert_type(known_ends.sum(axis=(0, -1)), Tensor[float32, *tuple[Any, ...]])
assert_type(known_ends.sum(axis=0, keepdims=True), Tensor[float32, L[1], *tuple[Any, ...], L[5]])
assert_type(known_ends.sum(axis=1), Tensor[float32, L[2], *tuple[Any, ...]])  # may be the last dim
assert_type(known_ends.sum(axis=-2), Tensor[float32, *tuple[Any, ...], L[5]])  # may be the first
assert_type(known_ends.sum(axis="^v^"), Tensor[float32, Any])
assert_type(known_ends.sum(axis="vv^"), Tensor[float32, L[2], Any])
assert_type(known_ends.sum(axis="v^v"), Tensor[float32, L[2], L[5]])

no_dtype: Tensor[*tuple[Any, ...]] = tt.zeros((2, 3), tt.float32)  # dtype and dims all in the run
assert_type(no_dtype.sum(axis=0), Tensor[Any, *tuple[Any, ...]])  # not understood: declared type
assert_type(tt.reduce_max(no_dtype, axis=1), Tensor[Any, *tuple[Any, ...]])

threes: Tensor[float32, *tuple[L[3], ...]] = tt.zeros((3, 3), tt.float32)
assert_type(threes.sum(), Tensor[float32])
assert_type(threes.sum(axis=()), Tensor[float32, *tuple[L[3], ...]])
assert_type(threes.sum(axis=0), Tensor[float32, *tuple[Any, ...]])


def generic_sizes(x: Tensor[float32, N, M, L[4]]) -> None:
    assert_type(x.sum(axis=0), Tensor[float32, M, L[4]])
    assert_type(x.sum(axis=-2), Tensor[float32, N, L[4]])
    assert_type(x.mean(axis=(0, 2), keepdims=True), Tensor[float32, L[1], M, L[1]])
    assert_type(tt.reduce_min(x, axis="v^v"), Tensor[float32, N, L[4]])


def generic_dtype(x: Tensor[DT, N, L[4]]) -> None:
    assert_type(x.max(axis=0), Tensor[DT, L[4]])
    assert_type(tt.reduce_min(x, axis=1), Tensor[DT, N])
    assert_type(x.sum(axis=1), Tensor[Any, N])  # the sum's dtype depends on which DT it is
    assert_type(x.any(axis=1), Tensor[tt.bool_, N])


def variadic(x: Tensor[float32, L[2], *Ts, L[5]], y: Tensor[float32, *Rest]) -> None:
    assert_type(x.sum(axis=(0, -1)), Tensor[float32, *Ts])
    assert_type(x.sum(axis=0), Tensor[float32, *Ts, L[5]])
    assert_type(x.sum(axis=-1, keepdims=True), Tensor[float32, L[2], *Ts, L[1]])
    assert_type(x.sum(axis=(0, -1), keepdims=True), Tensor[float32, L[1], *Ts, L[1]])
    assert_type(x.sum(axis=1), Tensor[float32, L[2], *tuple[Any, ...]])
    assert_type(x.sum(axis=()), Tensor[float32, L[2], *Ts, L[5]])
    assert_type(x.sum(), Tensor[float32])
    assert_type(tt.reduce_max(x, axis=-1), Tensor[float32, L[2], *Ts])
    assert_type(y.sum(axis=0), Tensor[float32, *tuple[Any, ...]])
    assert_type(y.sum(axis=()), Tensor[float32, *Rest])


def variadic_selections(x: Tensor[float32, L[2], *Ts, L[5]]) -> None:
    """Not run: each Selection fixes a different rank. Its length says how long the run is."""
    assert_type(x.sum(axis="^^"), Tensor[float32, *Ts])
    assert_type(x.sum(axis="v^^^"), Tensor[float32, L[2]])
    assert_type(x.sum(axis="vv^v^"), Tensor[float32, L[2], Any, Any])
    assert_type(x.sum(axis="v^^^", keepdims=True), Tensor[float32, L[2], L[1], L[1], L[1]])
    assert_type(x.sum(axis="^vvv"), Tensor[float32, *Ts, L[5]])  # the run is kept whole


BoundedByTensor = TypeVar("BoundedByTensor", bound=Tensor[float32, L[3], L[4]])


def bounded_receiver(x: BoundedByTensor) -> None:
    assert_type(tt.reduce_sum(x, axis=0), Tensor[float32, L[4]])
    # mypy calls no method hook for a TypeVar receiver: the generated overloads answer (the function: the plugin)
    assert_type(x.sum(axis=0), Tensor[float32, L[4]])


generic_sizes(tt.zeros((1, 2, 4), tt.float32))
generic_dtype(tt.zeros((1, 4), tt.int32))
variadic(tt.zeros((2, 3, 5), tt.float32), tt.zeros((2,), tt.float32))
bounded_receiver(tt.zeros((3, 4), tt.float32))
