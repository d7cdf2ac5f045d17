"""The reduction methods, also on subclasses of ``Tensor`` (hooks are named after the subclass)."""

from typing import Any, Generic, Literal as L, TypeVar, TypeVarTuple, Unpack, assert_type

import numpy as np

import typedtensor as tt
from typedtensor import Tensor, float32

x: Tensor[float32, L[2], L[3], L[4]] = tt.zeros((2, 3, 4), tt.float32)

assert_type(x.sum(), Tensor[float32])
assert_type(x.sum(0), Tensor[float32, L[3], L[4]])
assert_type(x.sum(axis=1), Tensor[float32, L[2], L[4]])
assert_type(x.sum(axis=-1, keepdims=True), Tensor[float32, L[2], L[3], L[1]])
assert_type(x.mean(axis=(0, 2)), Tensor[float32, L[3]])
assert_type(x.max(axis=[2, 0]), Tensor[float32, L[3]])
assert_type(x.min(axis="^v^"), Tensor[float32, L[3]])
assert_type(x.prod(axis=(), keepdims=True), Tensor[float32, L[2], L[3], L[4]])
assert_type(x.any(axis=1), Tensor[tt.bool_, L[2], L[4]])
assert_type(x.all(keepdims=True), Tensor[tt.bool_, L[1], L[1], L[1]])
assert_type(x.sum(axis=0).sum(axis=0), Tensor[float32, L[4]])
assert_type(x.mean(axis=-1).max(axis=-1).min(), Tensor[float32])

DT = TypeVar("DT", bound=tt.generic, covariant=True)
Shape = TypeVarTuple("Shape")


class Images(Tensor[DT, Unpack[Shape]]):
    """A generic subclass: its methods are hooked as ``reduce_methods.Images.sum``."""


class Batch32(Tensor[float32, L[32], L[10]]):
    """A subclass that fixes dtype and shape."""


class Labelled(Images[tt.int32, L[5], L[6]], Generic[DT]):
    """Two levels down, with a type parameter of its own that is not the dtype."""


class BatchFirst(Tensor[float32, L[4], L[5]]):
    """Overrides ``sum`` with another default: Tensor's rules do not describe it."""

    def sum(self, axis: tt.Axis[Any] = 0, keepdims: bool = False) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        return super().sum(axis, keepdims)


class Overridden(BatchFirst):
    """Inherits the override, not Tensor's ``sum``."""


images: Images[tt.uint8, L[4], L[8], L[8]] = Images(np.zeros((4, 8, 8), np.uint8))
batch = Batch32(np.zeros((32, 10), np.float32))
labelled: Labelled[tt.bool_] = Labelled(np.zeros((5, 6), np.int32))

assert_type(images.sum(axis=0), Tensor[tt.uint64, L[8], L[8]])
assert_type(images.max(axis=(1, 2)), Tensor[tt.uint8, L[4]])
assert_type(images.mean(axis="v^^"), Tensor[tt.float64, L[4]])
assert_type(images.any(), Tensor[tt.bool_])
assert_type(batch.sum(axis=1), Tensor[float32, L[32]])
assert_type(batch.min(axis=0, keepdims=True), Tensor[float32, L[1], L[10]])
assert_type(batch.prod(), Tensor[float32])
assert_type(labelled.sum(axis=1), Tensor[tt.int64, L[5]])
assert_type(labelled.all(axis=-2), Tensor[tt.bool_, L[6]])
assert_type(BatchFirst(np.zeros((4, 5), np.float32)).sum(), Tensor[Any, *tuple[Any, ...]])
assert_type(Overridden(np.zeros((4, 5), np.float32)).sum(axis=1), Tensor[Any, *tuple[Any, ...]])
assert_type(Overridden(np.zeros((4, 5), np.float32)).mean(axis=1), Tensor[float32, L[4]])  # not overridden
assert_type(tt.reduce_sum(images, axis=-1), Tensor[tt.uint64, L[4], L[8]])
assert_type(tt.reduce_max(batch, axis=0), Tensor[float32, L[10]])


def inside_a_subclass_method(receiver: Images[float32, L[7], Unpack[tuple[Any, ...]]]) -> None:
    assert_type(receiver.sum(axis=0), Tensor[float32, Unpack[tuple[Any, ...]]])
    assert_type(receiver.sum(axis=1), Tensor[float32, L[7], Unpack[tuple[Any, ...]]])


inside_a_subclass_method(Images(np.zeros((7, 2), np.float32)))
