"""Shape errors: every line must report exactly the code in its ``# type: ignore[...]``.

mypy runs with ``warn_unused_ignores``, so a missing error fails too. The calls sit in a function
that never runs: they would raise at run time. After an error the result's dims are unknown, so
one bug gives one error.
"""

from typing import Any, Final, Literal as L, TypeVarTuple, assert_type

import typedtensor as tt
from typedtensor import Tensor, float32

Ts = TypeVarTuple("Ts")
BAD: Final = 3
BAD_SELECTION: Final = "^^"


def out_of_range(x: Tensor[float32, L[2], L[3], L[4]], scalar: Tensor[float32], k: int) -> None:
    tt.reduce_sum(x, axis=3)  # type: ignore[tensor-axis]
    tt.reduce_sum(x, axis=-4)  # type: ignore[tensor-axis]
    tt.reduce_sum(x, axis=(0, 3))  # type: ignore[tensor-axis]
    tt.reduce_sum(x, axis=(5, -9, 1))  # type: ignore[tensor-axis]
    tt.reduce_sum(x, axis=[0, 3])  # type: ignore[tensor-axis]
    tt.reduce_sum(x, axis=(k, 3))  # type: ignore[tensor-axis]
    tt.reduce_sum(x, axis=BAD)  # type: ignore[tensor-axis]
    tt.reduce_sum(x, axis=10**1000 if False else 99)  # type: ignore[tensor-axis]
    tt.reduce_mean(x, axis=3, keepdims=True)  # type: ignore[tensor-axis]
    tt.reduce_max(x, axis=3)  # type: ignore[tensor-axis]
    tt.reduce_min(x, axis=-5)  # type: ignore[tensor-axis]
    tt.reduce_prod(x, axis=7)  # type: ignore[tensor-axis]
    tt.reduce_any(x, axis=3)  # type: ignore[tensor-axis]
    tt.reduce_all(x, axis=3)  # type: ignore[tensor-axis]
    x.sum(axis=3)  # type: ignore[tensor-axis]
    x.mean(axis=-4)  # type: ignore[tensor-axis]
    x.max(axis=(1, 3))  # type: ignore[tensor-axis]
    x.sum(axis=(0, 1, 3))  # type: ignore[tensor-axis]  # three axes: no overload's but the fallback's
    x.mean(axis=(5, -9, 1), keepdims=True)  # type: ignore[tensor-axis]
    x.min(axis=[4])  # type: ignore[tensor-axis]
    x.prod(3)  # type: ignore[tensor-axis]
    x.any(axis=3, keepdims=True)  # type: ignore[tensor-axis]
    x.all(axis=3)  # type: ignore[tensor-axis]
    scalar.sum(axis=0)  # type: ignore[tensor-axis]
    scalar.sum(axis=-1)  # type: ignore[tensor-axis]
    assert_type(x.sum(axis=3), Tensor[float32, *tuple[Any, ...]])  # type: ignore[tensor-axis]
    assert_type(tt.reduce_sum(x, axis=3), Tensor[float32, *tuple[Any, ...]])  # type: ignore[tensor-axis]
    assert_type(x.any(axis=9), Tensor[tt.bool_, *tuple[Any, ...]])  # type: ignore[tensor-axis]
    assert_type(scalar.mean(axis=0), Tensor[float32, *tuple[Any, ...]])  # type: ignore[tensor-axis]


def bad_selections(x: Tensor[float32, L[2], L[3], L[4]], ints: Tensor[tt.int32, L[2]]) -> None:
    tt.reduce_sum(x, axis="^^")  # type: ignore[tensor-selection]
    tt.reduce_sum(x, axis="^^v^")  # type: ignore[tensor-selection]
    tt.reduce_sum(x, axis="")  # type: ignore[tensor-selection]
    tt.reduce_sum(x, axis="^x^")  # type: ignore[tensor-selection]
    tt.reduce_sum(x, axis="abc")  # type: ignore[tensor-selection]
    tt.reduce_sum(x, axis=BAD_SELECTION)  # type: ignore[tensor-selection]
    x.mean(axis="V^V")  # type: ignore[tensor-selection]
    x.max(axis="^ ^")  # type: ignore[tensor-selection]
    x.all("^^^^^")  # type: ignore[tensor-selection]
    assert_type(ints.sum(axis="^^"), Tensor[tt.int64, *tuple[Any, ...]])  # type: ignore[tensor-selection]
    assert_type(ints.mean(axis="?"), Tensor[tt.float64, *tuple[Any, ...]])  # type: ignore[tensor-selection]


def with_unknown_dims(x: Tensor[float32, L[2], *Ts, L[5]], y: Tensor[float32, *tuple[Any, ...]]) -> None:
    """Only a known rank makes an axis out of range; a Selection still needs one char per known dim."""
    x.sum(axis="^")  # type: ignore[tensor-selection]
    x.sum(axis="^x^")  # type: ignore[tensor-selection]
    y.sum(axis="^b")  # type: ignore[tensor-selection]
    assert_type(x.sum(axis=9), Tensor[float32, L[2], *tuple[Any, ...]])
    assert_type(y.sum(axis=-9), Tensor[float32, *tuple[Any, ...]])


# One mistake, one error: after mypy's own error on a Tensor without a dtype, the plugin cannot
# know the tensor's rank (the first argument is not a dtype), so it keeps the declared type.
def no_dtype(x: Tensor[L[2]], y: Tensor[L[2], L[3]]) -> None:  # type: ignore[type-var]
    assert_type(x.sum(axis=0), Tensor[Any, *tuple[Any, ...]])
    assert_type(tt.reduce_sum(y, axis=1), Tensor[Any, *tuple[Any, ...]])


def no_dtype_one_line(x: Tensor[L[2]]) -> object: return x.sum(axis=0)  # type: ignore[type-var]  # noqa: E704
