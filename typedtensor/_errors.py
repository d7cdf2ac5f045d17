"""The exceptions typedtensor raises. Each is also the builtin a caller would catch without us."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from typedtensor._shape_rules import Problem


class TypedTensorError(Exception):
    """Root of every typedtensor error."""


class AxisError(TypedTensorError, ValueError, IndexError):
    """An axis outside ``-rank <= k < rank``; the message names every such axis and the shape."""


class SelectionError(TypedTensorError, ValueError):
    """A Selection string (``"^v^"``) whose length is not the rank or with a foreign character."""


class ShapeError(TypedTensorError, TypeError):
    """A tensor whose dtype or shape does not match its annotation."""


class AnnotationError(TypedTensorError, TypeError):
    """A ``Tensor[...]`` annotation that cannot be checked: not a valid shape, or unresolvable."""


class BroadcastError(TypedTensorError, ValueError):
    """Operand shapes that do not broadcast: two sizes, neither 1, at the same position."""


class MatmulError(TypedTensorError, ValueError):
    """``a @ b`` whose inner dims differ (or whose batch dims do not broadcast)."""


class ReshapeError(TypedTensorError, ValueError):
    """A reshape that changes the element count, or with more than one ``-1``."""


class TensorShapeError(TypedTensorError, ValueError):
    """Any other shape rule of an op: ``concat`` dims that disagree, ``squeeze`` of a dim not 1."""


class TensorIndexError(TypedTensorError, IndexError):
    """An index out of range for its dim."""


class TensorDTypeError(TypedTensorError, TypeError):
    """An op numpy does not define for its operands' dtypes (``-`` of booleans), or a cast to a category."""


#: The exception of each static error code, so that a rule's problem raises what the plugin reports.
_ERROR_BY_CODE: Final[dict[str, type[TypedTensorError]]] = {
    "tensor-axis": AxisError,
    "tensor-selection": SelectionError,
    "tensor-broadcast": BroadcastError,
    "tensor-matmul": MatmulError,
    "tensor-reshape": ReshapeError,
    "tensor-shape": TensorShapeError,
    "tensor-index": TensorIndexError,
    "tensor-dtype": TensorDTypeError,
}


def problem_error(problem: Problem, op: str, operands: Sequence[str]) -> TypedTensorError:
    """The exception for a rule's ``problem`` in ``op`` on ``operands`` (as ``Tensor[float32, 2]``)."""
    return _ERROR_BY_CODE[problem.code](problem.message(op, operands))
