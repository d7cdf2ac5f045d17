"""``reduce_*`` functions on a tensor of literal sizes: every kind of ``axis``."""

from typing import Literal as L, assert_type

import typedtensor as tt
from typedtensor import Tensor, float32

x: Tensor[float32, L[2], L[3], L[4], L[5]] = tt.zeros((2, 3, 4, 5), tt.float32)

# None reduces every dim
assert_type(tt.reduce_sum(x), Tensor[float32])
assert_type(tt.reduce_sum(x, None), Tensor[float32])
assert_type(tt.reduce_sum(x, axis=None), Tensor[float32])
assert_type(tt.reduce_sum(x, keepdims=True), Tensor[float32, L[1], L[1], L[1], L[1]])

# one axis, positive and negative
assert_type(tt.reduce_sum(x, axis=0), Tensor[float32, L[3], L[4], L[5]])
assert_type(tt.reduce_sum(x, axis=1), Tensor[float32, L[2], L[4], L[5]])
assert_type(tt.reduce_sum(x, axis=2), Tensor[float32, L[2], L[3], L[5]])
assert_type(tt.reduce_sum(x, axis=3), Tensor[float32, L[2], L[3], L[4]])
assert_type(tt.reduce_sum(x, axis=-1), Tensor[float32, L[2], L[3], L[4]])
assert_type(tt.reduce_sum(x, axis=-2), Tensor[float32, L[2], L[3], L[5]])
assert_type(tt.reduce_sum(x, axis=-3), Tensor[float32, L[2], L[4], L[5]])
assert_type(tt.reduce_sum(x, axis=-4), Tensor[float32, L[3], L[4], L[5]])
assert_type(tt.reduce_sum(x, 1), Tensor[float32, L[2], L[4], L[5]])
assert_type(tt.reduce_sum(x, 1, True), Tensor[float32, L[2], L[1], L[4], L[5]])

# tuples: any order, repeats count once, negative and positive names of one dim are one axis
assert_type(tt.reduce_sum(x, axis=(1, 3)), Tensor[float32, L[2], L[4]])
assert_type(tt.reduce_sum(x, axis=(3, 1)), Tensor[float32, L[2], L[4]])
assert_type(tt.reduce_sum(x, axis=(1, 1, 3, 1)), Tensor[float32, L[2], L[4]])
assert_type(tt.reduce_sum(x, axis=(1, -3)), Tensor[float32, L[2], L[4], L[5]])
assert_type(tt.reduce_sum(x, axis=(-1, 0)), Tensor[float32, L[3], L[4]])
assert_type(tt.reduce_sum(x, axis=(0, 1, 2, 3)), Tensor[float32])
assert_type(tt.reduce_sum(x, axis=(0,)), Tensor[float32, L[3], L[4], L[5]])
assert_type(tt.reduce_sum(x, axis=()), Tensor[float32, L[2], L[3], L[4], L[5]])
assert_type(tt.reduce_sum(x, axis=(), keepdims=True), Tensor[float32, L[2], L[3], L[4], L[5]])

# lists, read from their items
assert_type(tt.reduce_sum(x, axis=[0, 2]), Tensor[float32, L[3], L[5]])
assert_type(tt.reduce_sum(x, axis=[2, 0, 2]), Tensor[float32, L[3], L[5]])
assert_type(tt.reduce_sum(x, axis=[-1]), Tensor[float32, L[2], L[3], L[4]])
assert_type(tt.reduce_sum(x, axis=[]), Tensor[float32, L[2], L[3], L[4], L[5]])

# Selection strings
assert_type(tt.reduce_sum(x, axis="v^v^"), Tensor[float32, L[2], L[4]])
assert_type(tt.reduce_sum(x, axis="^^^^"), Tensor[float32])
assert_type(tt.reduce_sum(x, axis="vvvv"), Tensor[float32, L[2], L[3], L[4], L[5]])
assert_type(tt.reduce_sum(x, axis="^vvv", keepdims=True), Tensor[float32, L[1], L[3], L[4], L[5]])

# keepdims
assert_type(tt.reduce_sum(x, axis=(0, 2), keepdims=True), Tensor[float32, L[1], L[3], L[1], L[5]])
assert_type(tt.reduce_sum(x, axis=-1, keepdims=True), Tensor[float32, L[2], L[3], L[4], L[1]])
assert_type(tt.reduce_sum(x, axis=1, keepdims=False), Tensor[float32, L[2], L[4], L[5]])
assert_type(tt.reduce_sum(x, keepdims=True, axis=1), Tensor[float32, L[2], L[1], L[4], L[5]])

# every function follows the same shape rule
assert_type(tt.reduce_mean(x, axis=(1, 3)), Tensor[float32, L[2], L[4]])
assert_type(tt.reduce_max(x, axis=(1, 3)), Tensor[float32, L[2], L[4]])
assert_type(tt.reduce_min(x, axis=(1, 3)), Tensor[float32, L[2], L[4]])
assert_type(tt.reduce_prod(x, axis=(1, 3)), Tensor[float32, L[2], L[4]])
assert_type(tt.reduce_any(x, axis=(1, 3)), Tensor[tt.bool_, L[2], L[4]])
assert_type(tt.reduce_all(x, axis=(1, 3)), Tensor[tt.bool_, L[2], L[4]])
assert_type(tt.reduce_mean(x, axis=-1, keepdims=True), Tensor[float32, L[2], L[3], L[4], L[1]])
assert_type(tt.reduce_max(x), Tensor[float32])
assert_type(tt.reduce_all(x, "^vvv"), Tensor[tt.bool_, L[3], L[4], L[5]])

# the SPEC's own example
big: Tensor[float32, L[32], L[256], L[5], L[128]] = tt.zeros((32, 256, 5, 128), tt.float32)
assert_type(tt.reduce_mean(big, axis=(1, 3)), Tensor[float32, L[32], L[5]])
assert_type(big.sum(axis=-1, keepdims=True), Tensor[float32, L[32], L[256], L[5], L[1]])
assert_type(tt.reduce_sum(big, axis="v^v^"), Tensor[float32, L[32], L[5]])
