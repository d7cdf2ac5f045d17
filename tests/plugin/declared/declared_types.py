# pyright: reportUnnecessaryTypeIgnoreComment=true
"""What the declared types say with no plugin: checked by pyright and by plain mypy alike.

Each line holds without typedtensor's mypy plugin, so editors on pyright/Pylance see the same.
Lines that must fail carry ``# type: ignore[code]``; both checkers report an unused one.
"""

from typing import Any, Literal as L, assert_type

import numpy as np

import typedtensor as tt
from typedtensor import Dim, Tensor


class Batch(Dim): ...


x: Tensor[tt.float32, L[32], L[256]] = tt.zeros((32, 256), tt.float32)
ones: Tensor[tt.int32, L[2], L[3]] = tt.ones((2, 3), tt.int32)
filled: Tensor[tt.float64, L[4]] = tt.full((4,), 0.5, tt.float64)
default_dtype: Tensor[tt.float32, L[5]] = tt.zeros((5,))

assert_type(x.shape, tuple[L[32], L[256]])
assert_type(x.shape[0], L[32])
assert_type(x.dtype, type[tt.float32])
assert_type(x.ndim, int)
assert_type(x.size, int)
assert_type(x.numpy(), np.ndarray[Any, Any])

# dtype is covariant: a float32 tensor is a floating one, and a number one.
as_floating: Tensor[tt.floating, L[32], L[256]] = x
as_number: Tensor[tt.number, L[32], L[256]] = x
as_integer: Tensor[tt.integer, L[32], L[256]] = x  # type: ignore[assignment]

# Dims are exact: a Literal size is not another size, and a named Dim is nominal.
wrong_size: Tensor[tt.float32, L[32], L[255]] = x  # type: ignore[assignment]
as_batch: Tensor[tt.float32, Batch, L[256]] = x  # type: ignore[assignment]
as_any: Tensor[tt.float32, Any, L[256]] = x
as_unknown_rank: Tensor[tt.float32, *tuple[Any, ...]] = x

# max/min keep the dtype and any/all give bool_ (more in reductions_declared.py).
assert_type(x.max(axis=0), Tensor[tt.float32, L[256]])
assert_type(tt.reduce_min(x), Tensor[tt.float32])
assert_type(x.any(), Tensor[tt.bool_])
