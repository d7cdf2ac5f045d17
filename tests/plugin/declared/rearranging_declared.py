# pyright: reportUnnecessaryTypeIgnoreComment=true
"""What swapaxes, moveaxis, flatten, split, pad, tril/triu, one_hot and the new creation functions
declare, with no plugin: checked by pyright and plain mypy alike.

``swapaxes`` of a matrix, ``flatten`` to one dim, ``tril``/``triu``, ``one_hot`` and the ``*_like``
functions are exact; the rest keeps the dtype with unknown dims, never wrong ones.
"""

from typing import Any, Literal as L, assert_type

import typedtensor as tt
from typedtensor import Tensor


class Batch(tt.Dim): ...


x: Tensor[tt.float32, L[2], L[3]] = tt.zeros((2, 3), tt.float32)
cube: Tensor[tt.float32, L[2], L[3], L[4]] = tt.zeros((2, 3, 4), tt.float32)
labels: Tensor[tt.int64, L[4]] = tt.zeros((4,), tt.int64)

assert_type(tt.swapaxes(x, 0, 1), Tensor[tt.float32, L[3], L[2]])
assert_type(tt.swapaxes(x, -1, 0), Tensor[tt.float32, L[3], L[2]])
assert_type(tt.swapaxes(cube, 0, 2), Tensor[tt.float32, *tuple[Any, ...]])
assert_type(tt.moveaxis(cube, 0, -1), Tensor[tt.float32, *tuple[Any, ...]])
assert_type(tt.flatten(cube), Tensor[tt.float32, Any])
assert_type(tt.flatten(cube, 1), Tensor[tt.float32, *tuple[Any, ...]])
assert_type(tt.split(cube, 2, axis=0), tuple[Tensor[tt.float32, *tuple[Any, ...]], ...])
assert_type(tt.pad(x, ((1, 1), (0, 2))), Tensor[tt.float32, *tuple[Any, ...]])
assert_type(tt.tril(cube), Tensor[tt.float32, L[2], L[3], L[4]])
assert_type(tt.triu(x, 1), Tensor[tt.float32, L[2], L[3]])
assert_type(tt.one_hot(labels, 3), Tensor[tt.float32, L[4], Any])
assert_type(tt.one_hot(labels, 3, tt.int8), Tensor[tt.int8, L[4], Any])
assert_type(tt.zeros_like(cube), Tensor[tt.float32, L[2], L[3], L[4]])
assert_type(tt.ones_like(x, tt.int64), Tensor[tt.int64, L[2], L[3]])
assert_type(tt.full_like(x, 2), Tensor[tt.float32, L[2], L[3]])
assert_type(tt.linspace(0.0, 1.0, 5), Tensor[tt.float64, Any])
assert_type(tt.random.permutation(5), Tensor[tt.int64, Any])
assert_type(tt.random.integers(0, 5, (2, 3)), Tensor[tt.int64, int, int])


def named(batch: Tensor[tt.float32, Batch, L[3]], ids: Tensor[tt.int64, Batch]) -> None:
    assert_type(tt.swapaxes(batch, 0, 1), Tensor[tt.float32, L[3], Batch])
    assert_type(tt.tril(batch), Tensor[tt.float32, Batch, L[3]])
    assert_type(tt.one_hot(ids, 10), Tensor[tt.float32, Batch, Any])
    assert_type(tt.zeros_like(batch), Tensor[tt.float32, Batch, L[3]])


def never_runs() -> None:
    """Calls that raise at run time: the declared types refuse what they can."""
    tt.one_hot(x, 3)  # type: ignore[arg-type]
