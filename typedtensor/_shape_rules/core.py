"""What every shape rule works with: shapes of opaque dims, unknowns, problems.

Dims are opaque values of any type ``D``: the runtime's are ints, the mypy plugin's are mypy
types (``Literal[32]``, a ``Dim`` class, a TypeVar). A rule learns a dim's literal size, and
makes a dim of a size it computed, only through the caller's ``Dims``. A dim the rule cannot
know is ``UNKNOWN``.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, Generic, TypeVar


class Unknown(enum.Enum):
    """A value only known at run time: a dim, an axis, a whole argument, or a run of dims."""

    UNKNOWN = "UNKNOWN"

    def __repr__(self) -> str:
        return self.value


UNKNOWN: Final = Unknown.UNKNOWN

D = TypeVar("D")
V = TypeVar("V")


@dataclass(frozen=True)
class Shape(Generic[D, V]):
    """A shape of known dims around at most one run of unknown length.

    ``variadic`` is ``None`` for a fixed rank, the caller's own value for a run it can name
    (mypy's ``*Ts``), or ``UNKNOWN`` for any number of unknown dims (``*tuple[Any, ...]``).
    """

    prefix: tuple[D | Unknown, ...]
    variadic: V | Unknown | None = None
    suffix: tuple[D | Unknown, ...] = ()

    @property
    def rank(self) -> int | None:
        return len(self.prefix) if self.variadic is None else None


@dataclass(frozen=True)
class Dims(Generic[D]):
    """How the caller's dims are sized: ``size`` reads a dim's literal size (None for a named or
    generic dim), ``literal`` makes the dim of a size."""

    size: Callable[[D], int | None]
    literal: Callable[[int], D]

    def size_of(self, dim: D | Unknown) -> int | None:
        return None if isinstance(dim, Unknown) else self.size(dim)


def _int_identity(size: int) -> int:
    return size


#: The runtime's dims: every dim is its size.
INT_DIMS: Final = Dims[int](_int_identity, _int_identity)


class Problem:
    """Why a call cannot run, found by a rule: the runtime raises it, the plugin reports it.

    ``code`` is the static error code (``tensor-axis``); ``message`` words it for the operation
    ``op`` on operands written as ``format_tensor`` writes them. Both voices use these words.
    """

    code: ClassVar[str]

    def message(self, op: str, operands: Sequence[str]) -> str:
        raise NotImplementedError


def format_tensor(dtype: str, dims: Sequence[str]) -> str:
    """How messages write a tensor type: ``Tensor[float32, 32, Batch, *Rest]``."""
    return f"Tensor[{', '.join([dtype, *dims])}]"


def join_operands(operands: Sequence[str]) -> str:
    """``A``, ``A and B``, ``A, B and C``: operands as a message lists them."""
    return operands[0] if len(operands) == 1 else f"{', '.join(operands[:-1])} and {operands[-1]}"


def join_shapes(parts: Sequence[Shape[D, V]]) -> Shape[D, V]:
    """The dims of ``parts`` one after another, as one shape.

    One run among them stays as it is; between two or more runs nothing is known, so everything
    from the first run to the last becomes one unknown run.
    """
    runs = [index for index, part in enumerate(parts) if part.variadic is not None]
    if not runs:
        return Shape(tuple(dim for part in parts for dim in part.prefix))
    first, last = runs[0], runs[-1]
    before = tuple(dim for part in parts[:first] for dim in part.prefix) + parts[first].prefix
    after = parts[last].suffix + tuple(dim for part in parts[last + 1 :] for dim in part.prefix)
    return Shape(before, parts[first].variadic if first == last else UNKNOWN, after)
