# pyright: reportUnnecessaryTypeIgnoreComment=true
"""What the layers declare, with no plugin: checked by pyright and plain mypy alike.

The batch and channel dims are exact; the spatial dims are unknown (standard typing has no
arithmetic), never wrong. An integer tensor is refused: the layers compute in floats.
"""

from typing import Any, Literal as L, TypeVarTuple, assert_type

import typedtensor as tt
from typedtensor import Tensor


class Batch(tt.Dim): ...


Shape = TypeVarTuple("Shape")


x: Tensor[tt.float32, L[8], L[3], L[32], L[32]] = tt.zeros((8, 3, 32, 32), tt.float32)
w: Tensor[tt.float32, L[16], L[3], L[5], L[5]] = tt.zeros((16, 3, 5, 5), tt.float32)
ints: Tensor[tt.int32, L[8], L[3], L[32], L[32]] = tt.zeros((8, 3, 32, 32), tt.int32)
flat: Tensor[tt.float32, L[8], L[96]] = tt.zeros((8, 96), tt.float32)

assert_type(tt.conv2d(x, w), Tensor[tt.float32, L[8], L[16], Any, Any])
assert_type(tt.max_pool2d(x, 2), Tensor[tt.float32, L[8], L[3], Any, Any])
assert_type(tt.layer_norm(x), Tensor[tt.float32, L[8], L[3], L[32], L[32]])
assert_type(tt.layer_norm(flat, axis=0, eps=1e-3), Tensor[tt.float32, L[8], L[96]])


def refused() -> None:  # never called: each line raises when run (doctest collection imports this file)
    tt.max_pool2d(ints, 2)  # type: ignore[type-var]  # floats only
    # Rank 2: no declared error (refusing it would refuse a Tensor[DT, *Ts] of rank 4); the plugin
    # reports it (tensor-shape) and the run refuses it.
    assert_type(tt.max_pool2d(flat, 2), Tensor[tt.float32, Any, Any, Any, Any])
    tt.layer_norm(ints)  # type: ignore[type-var]


def named(images: Tensor[tt.float32, Batch, L[3], L[32], L[32]]) -> None:
    assert_type(tt.conv2d(images, w, stride=(2, 1), padding=2), Tensor[tt.float32, Batch, L[16], Any, Any])
    assert_type(tt.avg_pool2d(images, (2, 3), stride=1), Tensor[tt.float32, Batch, L[3], Any, Any])


def generic(images: Tensor[tt.float32, *Shape]) -> None:
    """A shape generic over a TypeVarTuple runs for every binding of rank 4: no error, four unknown dims."""
    assert_type(tt.conv2d(images, images), Tensor[tt.float32, Any, Any, Any, Any])
    assert_type(tt.max_pool2d(images, 2), Tensor[tt.float32, Any, Any, Any, Any])
    assert_type(tt.avg_pool2d(images, (2, 2), stride=1), Tensor[tt.float32, Any, Any, Any, Any])
