"""Elementwise ops: binary arithmetic with numpy broadcasting and numpy 2's dtype promotion.

An operand is a Tensor or a Python scalar (``bool``, ``int``, ``float``, ``complex``). Python
scalars promote weakly (NEP 50): ``float32 * 2.0`` stays float32. numpy's ``float64`` and
``complex128`` scalars are Python floats and complexes, so they are taken as the plain Python
value and promote the same way, as their declared type says; other numpy scalars are refused.
Shapes are checked by the shared broadcasting rule before numpy computes, so a mismatch is a
``BroadcastError`` naming the op and both operands.
"""

from __future__ import annotations

import functools
from typing import Any, Final, TypeAlias

import numpy as np

from typedtensor._ops import AnyTensor, Array, fail, namespace, result
from typedtensor._shape_rules import INT_DIMS, BroadcastMismatch, Shape, broadcast_shapes
from typedtensor._tensor import Tensor

#: What a binary op takes: a tensor, or a Python scalar (``complex`` admits bool, int and float).
Operand: TypeAlias = Tensor[Any, *tuple[Any, ...]] | complex

_CACHE_SIZE: Final = 4096


def _operand(op: str, value: object, parameter: str) -> Array | complex:
    """The array of a Tensor, or a Python scalar as its plain Python value."""
    if isinstance(value, Tensor):
        return value.numpy()
    if isinstance(value, bool | int):
        return value if type(value) in (bool, int) else int(value)  # an IntEnum member is its value
    if isinstance(value, float):
        return float(value)  # numpy's float64 is a float: plain, it promotes weakly like one
    if isinstance(value, complex):
        return complex(value)
    raise TypeError(
        f'"{op}": {parameter} must be a typedtensor.Tensor or a Python scalar (bool, int, float, complex), '
        f"got {type(value).__name__}; make a tensor of it with typedtensor.tensor(value)"
    )


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _broadcast_problem(shapes: tuple[tuple[int, ...], ...]) -> BroadcastMismatch | None:
    broadcast = broadcast_shapes([Shape[int, None](shape) for shape in shapes], INT_DIMS)
    return broadcast if isinstance(broadcast, BroadcastMismatch) else None


def binary(op: str, function: str, x1: object, x2: object) -> AnyTensor:
    """``function`` of the namespace on two operands, after the broadcasting rule accepts them."""
    left, right = _operand(op, x1, "x1"), _operand(op, x2, "x2")
    if isinstance(left, np.ndarray):
        array = left
        if isinstance(right, np.ndarray) and left.shape != right.shape:
            problem = _broadcast_problem((left.shape, right.shape))
            if problem is not None:
                fail(problem, op, [x1, x2])
    elif isinstance(right, np.ndarray):
        array = right
    else:
        raise TypeError(f'"{op}": at least one operand must be a typedtensor.Tensor, got {type(x1).__name__} and {type(x2).__name__}')
    return result(getattr(namespace(array), function)(left, right))


def add(x1: Operand, x2: Operand) -> AnyTensor:
    """``x1 + x2``, elementwise with broadcasting.

    >>> import typedtensor as tt
    >>> tt.add(tt.ones((2, 3), tt.float32), 2.0)
    Tensor[float32, 2, 3]([[3., 3., 3.],
                           [3., 3., 3.]])
    """
    return binary("add", "add", x1, x2)
