"""The ops below ``Tensor`` (``typedtensor._ops``): arrays (and Python scalars) in, plain arrays
out, rank 0 included, and messages that name an array as the tensor it is."""

from __future__ import annotations

import enum
from collections.abc import Callable

import numpy as np
import pytest

from typedtensor._dtypes import int8
from typedtensor._errors import BroadcastError, MatmulError, ReshapeError, TensorIndexError
from typedtensor._ops import axis_ops, elementwise, indexing, linalg, shaping

MATRIX = np.arange(6, dtype=np.float32).reshape(2, 3)
SCALAR = np.full((), 2.0, np.float32)  # a rank-0 array

ARRAY_OPS: dict[str, Callable[[], object]] = {
    "unary": lambda: elementwise.unary("exp", MATRIX),
    "binary": lambda: elementwise.binary("add", MATRIX, 1.5),
    "binary, rank 0": lambda: elementwise.binary("multiply", SCALAR, SCALAR),
    "select": lambda: elementwise.select(MATRIX > 1, MATRIX, 0.0),
    "convert": lambda: elementwise.convert("cast", SCALAR, int8),
    "getitem, one element": lambda: indexing.getitem(MATRIX, (1, 2)),
    "getitem, index array": lambda: indexing.getitem(MATRIX, np.array([1, 0]), True),
    "reshape": lambda: shaping.reshape(MATRIX, (3, 2)),
    "transpose": lambda: shaping.transpose(MATRIX, None),
    "concat": lambda: shaping.concat((MATRIX, MATRIX), 0),
    "matmul": lambda: linalg.matmul(MATRIX, MATRIX, False, True),
    "matmul, vectors": lambda: linalg.matmul(MATRIX[0], MATRIX[0], False, False),
    "argmax": lambda: axis_ops.argextreme("argmax", MATRIX, -1, False),
    "logsumexp": lambda: axis_ops.logsumexp(MATRIX, None, False),
    "take": lambda: axis_ops.take(MATRIX, 4, None),
}


@pytest.mark.parametrize("op", ARRAY_OPS)
def test_an_op_returns_a_plain_array(op: str) -> None:
    assert type(ARRAY_OPS[op]()) is np.ndarray


class Power(enum.IntEnum):
    NEGATIVE = -1


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: elementwise.binary("add", MATRIX, np.ones(4, np.float32)), BroadcastError, r"Cannot broadcast Tensor\[float32, 2, 3\] and Tensor\[float32, 4\]"),
        (lambda: elementwise.binary("power", np.arange(2), Power.NEGATIVE), ValueError, r'"power" on Tensor\[int64, 2\] and Power: integers'),
        (lambda: linalg.matmul(MATRIX, MATRIX, False, False), MatmulError, r"Cannot matmul Tensor\[float32, 2, 3\] and Tensor\[float32, 2, 3\]"),
        (lambda: shaping.reshape(MATRIX, (4,)), ReshapeError, r"Cannot reshape Tensor\[float32, 2, 3\] to \(4,\)"),
        (lambda: indexing.getitem(MATRIX, 7), TensorIndexError, r'"index" on Tensor\[float32, 2, 3\]'),
    ],
)
def test_an_op_names_an_array_as_the_tensor_it_is(call: Callable[[], object], error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        call()
