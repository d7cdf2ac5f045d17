"""Shape rules of the creation functions that take sizes rather than a shape (``arange``, ``eye``),
and of ``tensor`` on nested lists of Python scalars.

A size is a dim (``Literal[n]``, or a named dim read from ``x.shape[i]``), ``UNKNOWN``, or None
where the argument was left out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, TypeAlias, Union

from .core import UNKNOWN, D, Dims, Problem, Shape, Unknown, V
from .dim_arithmetic import range_length
from .dtypes import ScalarKind


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
    ``stop`` itself when counting from 0 by 1 (a named dim stays named), the literal length where
    every bound is literal, and from a literal start ``a >= 0`` by 1 to a named dim ``N``, ``N-a``
    (SPEC §9, as for ``x[a:]``: a claim that ``N >= a``)."""
    if stop is None:
        start, stop = dims.literal(0), start
    step_size = 1 if step is None else dims.size_of(step)
    if step_size == 0:
        return ZeroStep()
    start_size, stop_size = dims.size_of(start), dims.size_of(stop)
    if start_size == 0 and step_size == 1 and (stop_size is None or stop_size >= 0):
        return Shape((stop,))
    if start_size is None or step_size is None:
        return Shape((UNKNOWN,))
    if stop_size is None:
        form = dims.form_of(stop)
        if form is None or start_size < 0 or step_size != 1:
            return Shape((UNKNOWN,))
        return Shape((dims.dim_of(range_length(form, start_size)),))
    return Shape((dims.literal(len(range(start_size, stop_size, step_size))),))


def eye_shape(rows: D | Unknown, columns: D | Unknown | None) -> Shape[D, V]:
    """``eye(n, m)``: ``n`` rows and ``m`` columns (``n`` when ``m`` is left out)."""
    return Shape((rows, rows if columns is None else columns))


#: Nested data as the rules see it: a Python scalar by its kind (``UNKNOWN`` where not known for
#: certain), or a list of nested data (a list or tuple display).
NestedData: TypeAlias = Union[ScalarKind, Unknown, "list[NestedData]"]

#: The dtype numpy gives Python scalars of each kind, from the narrowest kind to the widest: data
#: mixing kinds takes the widest one's (``[True, 2]`` is int64, ``[1, 2.0]`` float64).
_SCALAR_DTYPES: Final[dict[ScalarKind, str]] = {"bool": "bool_", "int": "int64", "float": "float64", "complex": "complex128"}


def data_shape(data: list[NestedData]) -> tuple[int, ...] | None:
    """The shape numpy gives nested lists: the length of each level, as far as every item of a level
    is a list of the same shape; None for ragged data (numpy refuses it). ``[]`` is ``(0,)``."""
    if not any(isinstance(item, list) for item in data):
        return (len(data),)
    shapes = {data_shape(item) if isinstance(item, list) else None for item in data}
    if len(shapes) != 1 or None in shapes:
        return None
    (inner,) = shapes
    assert inner is not None  # excluded above; narrows the type
    return (len(data), *inner)


def data_dtype(data: list[NestedData]) -> str | Unknown:
    """The dtype numpy gives nested lists of Python scalars (ints within int64's range): the widest
    kind's, float64 for no scalar at all (numpy's ``[]``); ``UNKNOWN`` where a scalar's kind is."""
    kinds = set(_scalars(data))
    if UNKNOWN in kinds:
        return UNKNOWN
    widest = [kind for kind in _SCALAR_DTYPES if kind in kinds]
    return _SCALAR_DTYPES[widest[-1]] if widest else _SCALAR_DTYPES["float"]


def _scalars(data: list[NestedData]) -> list[ScalarKind | Unknown]:
    return [kind for item in data for kind in (_scalars(item) if isinstance(item, list) else [item])]
