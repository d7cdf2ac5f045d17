"""A tour of typedtensor's reductions: the shapes in the comments are what mypy infers."""

from typing import Literal as L

import typedtensor as tt

x: tt.Tensor[tt.float32, L[32], L[256], L[5], L[128]] = tt.ones((32, 256, 5, 128), tt.float32)

m = tt.reduce_mean(x, axis=(1, 3))  # Tensor[float32, 32, 5]
k = x.sum(axis=-1, keepdims=True)  # Tensor[float32, 32, 256, 5, 1]
s = tt.reduce_sum(x, axis="v^v^")  # the Selection form of axis=(1, 3)
r = x.max(axis=(3, 1, 3))  # unordered and repeated axes count once: Tensor[float32, 32, 5]
c = tt.reduce_sum(tt.tensor([[1, 2], [3, 4]], tt.int32), axis=0)  # int32 sums give int64

for call, value in [
    ("tt.reduce_mean(x, axis=(1, 3))", m),
    ("x.sum(axis=-1, keepdims=True)", k),
    ('tt.reduce_sum(x, axis="v^v^")', s),
    ("x.max(axis=(3, 1, 3))", r),
    ("tt.reduce_sum(int32 [2, 2], axis=0)", c),
]:
    print(f"{call:<38} -> {value.dtype.__name__} {value.shape}, first element {value.numpy().flat[0]}")

try:
    tt.reduce_sum(x, axis=(4, -5))  # type: ignore[tensor-axis]  # the plugin reports it before it runs
except tt.AxisError as error:
    print(f"AxisError: {error}")
