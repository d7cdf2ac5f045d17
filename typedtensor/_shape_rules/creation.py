"""Shape rules of the creation functions that take sizes rather than a shape: ``arange``, ``eye``.

A size is a dim (``Literal[n]``, or a named dim read from ``x.shape[i]``), ``UNKNOWN``, or None
where the argument was left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from .core import UNKNOWN, D, Dims, Problem, Shape, Unknown, V


@dataclass(frozen=True)
class ZeroStep(Problem):
    """``arange`` with a step of 0: it would never reach its stop."""

    code: ClassVar[str] = "tensor-shape"

    def message(self, op: str, operands: Sequence[str]) -> str:
        return f'"{op}" with step 0 never reaches its stop; the step must not be 0'


def arange_shape(
    start: D | Unknown, stop: D | Unknown | None, step: D | Unknown | None, dims: Dims[D]
) -> Shape[D, V] | Problem:
    """numpy's ``arange(start, stop, step)``, ``arange(stop)`` when ``stop`` is None: one dim,
    ``stop`` itself when counting from 0 by 1 (a named dim stays named), else the literal length
    where every bound is literal."""
    if stop is None:
        start, stop = dims.literal(0), start
    step_size = 1 if step is None else dims.size_of(step)
    if step_size == 0:
        return ZeroStep()
    start_size, stop_size = dims.size_of(start), dims.size_of(stop)
    if start_size == 0 and step_size == 1 and (stop_size is None or stop_size >= 0):
        return Shape((stop,))
    if start_size is None or stop_size is None or step_size is None:
        return Shape((UNKNOWN,))
    return Shape((dims.literal(len(range(start_size, stop_size, step_size))),))


def eye_shape(rows: D | Unknown, columns: D | Unknown | None) -> Shape[D, V]:
    """``eye(n, m)``: ``n`` rows and ``m`` columns (``n`` when ``m`` is left out)."""
    return Shape((rows, rows if columns is None else columns))
