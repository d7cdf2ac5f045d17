"""The plain arguments the ops share: what an int and an ``axis`` may be.

Each check returns the value as the op uses it, or raises a ``TypeError`` that names the op (or
the name the user called) and what the argument may be; a refused ``axis`` is worded by the
shared rules, as the plugin words it.
"""

from __future__ import annotations

import operator
from typing import Any, TypeGuard

import numpy as np

from typedtensor._shape_rules import AxisKey, bool_axis_kind, wrong_axis_kind


def axis_key(axis: object, caller: str) -> AxisKey:
    """``axis`` as a hashable key, or a ``TypeError`` that says what ``axis`` may be."""
    if axis is None or type(axis) is int or isinstance(axis, str):
        return axis
    # The common case, kept cheap (a tuple is its own tuple; a list through the generator below
    # made a [4, 4] reduction 1.05x np.sum, this 0.71x)
    if (type(axis) is tuple or type(axis) is list) and all(type(k) is int for k in axis):
        return tuple(axis)
    if isinstance(axis, (tuple, list)) and all(is_int(k) for k in axis):
        return tuple(operator.index(k) for k in axis)
    if is_int(axis):
        return operator.index(axis)
    raise TypeError(wrong_axis_kind(caller, _axis_kind(axis)))


def _axis_kind(axis: object) -> str:
    """What a refused ``axis`` is: a bool (alone or in a tuple or list) as the plugin says it."""
    if isinstance(axis, (bool, np.bool_)):
        return bool_axis_kind(None)
    if isinstance(axis, (tuple, list)) and any(isinstance(k, (bool, np.bool_)) for k in axis):
        return bool_axis_kind("tuple" if isinstance(axis, tuple) else "list")
    return f"{type(axis).__name__} {axis!r}"


def is_int(value: object) -> TypeGuard[int | np.integer[Any]]:
    """An int or a numpy integer, not a bool: what an axis, a size or an int argument may be."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def int_argument(op: str, name: str, value: object) -> int:
    """An int argument of ``op`` (a numpy integer too, not a bool), or a ``TypeError`` naming it."""
    if type(value) is int:
        return value
    if is_int(value):
        return operator.index(value)
    raise TypeError(f'"{op}": {name} must be an int, got {type(value).__name__} {value!r}')
