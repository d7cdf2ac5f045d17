# pyright: reportUnnecessaryTypeIgnoreComment=true
"""What matmul and the shaping ops declare, with no plugin: checked by pyright and plain mypy alike.

Matmul of a matrix or a batch of them by a matrix, ``.T``, ``transpose`` without ``perm`` and joins along axis 0 are exact; the rest has
unknown dims, never wrong ones. (``expand_dims`` and ``squeeze``: ``expand_squeeze_declared.py``.)
"""

from typing import Any, Literal as L, assert_type

import typedtensor as tt
from typedtensor import Tensor


class Batch(tt.Dim): ...


x: Tensor[tt.float32, L[32], L[784]] = tt.zeros((32, 784), tt.float32)
w: Tensor[tt.float32, L[784], L[10]] = tt.zeros((784, 10), tt.float32)
wt: Tensor[tt.float32, L[10], L[784]] = tt.zeros((10, 784), tt.float32)
w64: Tensor[tt.float64, L[784], L[10]] = tt.zeros((784, 10), tt.float64)
i64: Tensor[tt.int64, L[2], L[2]] = tt.zeros((2, 2), tt.int64)
u64: Tensor[tt.uint64, L[2], L[2]] = tt.zeros((2, 2), tt.uint64)
flags: Tensor[tt.bool_, L[2], L[2]] = tt.zeros((2, 2), tt.bool_)
cube: Tensor[tt.float32, L[2], L[3], L[4]] = tt.zeros((2, 3, 4), tt.float32)
w45: Tensor[tt.float32, L[4], L[5]] = tt.zeros((4, 5), tt.float32)
cube_t: Tensor[tt.float32, L[2], L[4], L[3]] = tt.zeros((2, 4, 3), tt.float32)

# Matmul through TypeVars, one per dtype category (a join across categories can be wrong).
assert_type(x @ w, Tensor[tt.float32, L[32], L[10]])
assert_type(tt.matmul(x, w), Tensor[tt.float32, L[32], L[10]])
assert_type(flags @ flags, Tensor[tt.bool_, L[2], L[2]])
mixed: Tensor[tt.floating, L[32], L[10]] = x @ w64  # float32 @ float64 is float64, a floating
assert_type(i64 @ u64, Tensor[Any, *tuple[Any, ...]])  # int64 @ uint64 is float64: no category holds both
assert_type(tt.matmul(x, wt, transpose_b=True), Tensor[Any, *tuple[Any, ...]])
assert_type(cube @ w45, Tensor[tt.float32, L[2], L[3], L[5]])  # a batch by a matrix
assert_type(tt.matmul(cube, w45), Tensor[tt.float32, L[2], L[3], L[5]])
assert_type(cube @ cube_t, Tensor[Any, *tuple[Any, ...]])  # a batch by a batch: the fallback

# .T and transpose reverse the dims: exact on 2-D.
assert_type(x.T, Tensor[tt.float32, L[784], L[32]])
assert_type(cube.T, Tensor[tt.float32, *tuple[Any, ...]])
assert_type(tt.transpose(x), Tensor[tt.float32, L[784], L[32]])
assert_type(tt.transpose(cube, (2, 0, 1)), Tensor[tt.float32, *tuple[Any, ...]])

# Joins along axis 0 keep the other dims.
assert_type(tt.concat((x, x)), Tensor[tt.float32, Any, L[784]])
assert_type(tt.stack([x, x]), Tensor[tt.float32, Any, L[32], L[784]])
assert_type(tt.concat((x, x), axis=1), Tensor[Any, *tuple[Any, ...]])

# The rest keeps the dtype; its dims come from the plugin.
assert_type(x.reshape((-1,)), Tensor[tt.float32, *tuple[Any, ...]])
assert_type(tt.reshape(x, (32, 28, 28)), Tensor[tt.float32, *tuple[Any, ...]])
assert_type(tt.tile(x, 2), Tensor[tt.float32, *tuple[Any, ...]])
spread: Tensor[tt.float32, L[4], L[32], L[784]] = tt.broadcast_to(x, (4, 32, 784))


def named(batch: Tensor[tt.float32, Batch, L[3]], weights: Tensor[tt.float32, L[3], L[4]]) -> None:
    assert_type(batch @ weights, Tensor[tt.float32, Batch, L[4]])
    assert_type(batch.T, Tensor[tt.float32, L[3], Batch])


def never_runs() -> None:
    """Calls that raise at run time: only the declared types are checked, without the plugin."""
    assert_type(x @ wt, Tensor[Any, *tuple[Any, ...]])  # inner dims differ: the fallback, no error
