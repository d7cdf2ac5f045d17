"""What every op does with its arrays: find their namespace, name them in messages, raise a rule's problem.

The ops below ``Tensor`` take arrays (and Python scalars) and return arrays: ``Tensor``'s methods
and the public functions unwrap their tensors once, call the op, and wrap its result once.

Ops are written against the array API namespace of the arrays they wrap (``xp.add``,
``xp.permute_dims``), not against numpy by name: numpy is the one backend today, and another
array library would then be a matter of tests. Asking an array for its namespace costs about
0.5 us, so the answer is kept per array type.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import Any, Final, NoReturn, TypeAlias

import numpy as np

from typedtensor._dtypes import type_text
from typedtensor._errors import problem_error
from typedtensor._shape_rules import Problem, join_operands

Array: TypeAlias = np.ndarray[Any, Any]

#: The most dims numpy gives an array.
MAX_RANK: Final = 64

_NAMESPACES: dict[type, ModuleType] = {}


def namespace(array: Array) -> Any:
    """The array API namespace of ``array`` (``numpy`` for an ndarray)."""
    kind = type(array)
    found = _NAMESPACES.get(kind)
    if found is None:
        found = _NAMESPACES[kind] = array.__array_namespace__()
    return found


def operand_text(value: object) -> str:
    """An operand as messages write it: an array as the tensor it is (``Tensor[float32, 32, 10]``),
    a scalar as its type (``float``)."""
    return type_text(value) if isinstance(value, np.ndarray) else type(value).__name__


def fail(problem: Problem, op: str, operands: Sequence[object]) -> NoReturn:
    """Raise ``problem`` as its exception, naming ``op`` and every operand."""
    raise problem_error(problem, op, [operand_text(value) for value in operands])


def as_array(value: Any) -> Array:
    """What the namespace returned, as an array (numpy gives a scalar for rank-0 results)."""
    return value if type(value) is np.ndarray else np.asarray(value)


def refuse_result(op: str, operands: Sequence[object], shape: Sequence[int], itemsize: int, error: Exception) -> NoReturn:
    """Raise why numpy could not make ``op``'s result of ``shape`` (called once numpy has refused,
    so the ops pay nothing when it does not): more dims than numpy's limit, or more bytes than
    numpy can count; any other refusal as numpy raised it."""
    where = f'"{op}" on {join_operands([operand_text(value) for value in operands])}' if operands else f'"{op}"'
    if len(shape) > MAX_RANK:
        raise ValueError(f"{where}: the result would have {len(shape)} dims, more than numpy's limit of {MAX_RANK}") from None
    if max(shape, default=0) > sys.maxsize or math.prod(shape) * itemsize > sys.maxsize:
        raise ValueError(f"{where}: the result of shape {tuple(shape)} would take more than numpy's limit of {sys.maxsize} bytes") from None
    raise error
