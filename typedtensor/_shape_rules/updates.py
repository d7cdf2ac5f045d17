"""Rules of reading one element (``x.item()``, ``float(x)``, ``int(x)``, ``bool(x)``) and of the
updates ``x.at[index].set(value)`` / ``.add(value)``, which give a new tensor of ``x``'s type."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from .core import Clash, D, Dims, DimsMayDiffer, Problem, Shape, V
from .reshaping import format_sizes


@dataclass(frozen=True)
class NotOneElement(Problem):
    """A read of one element from a tensor with a dim neither 1 nor unknown: it has several
    elements, or none."""

    code: ClassVar[str] = "tensor-shape"
    size: int  # the first such dim

    def message(self, op: str, operands: Sequence[str]) -> str:
        return (
            f'"{op}" reads the element of a one-element tensor; {operands[0]} has a dim of {self.size}, '
            "so not one element (index it first, or reduce it)"
        )


def one_element_problem(shape: Shape[D, V], dims: Dims[D]) -> NotOneElement | DimsMayDiffer | None:
    """Whether ``shape`` may hold other than one element: surely where a literal dim is not 1; for
    some sizes where a dim is named (rigid, SPEC 7: ``float(x)`` of ``[N]`` runs only for N = 1).
    An unknown dim or a run says nothing."""
    known = [*enumerate(shape.prefix), *((k - len(shape.suffix), dim) for k, dim in enumerate(shape.suffix))]
    sizes = [dims.size_of(dim) for _, dim in known]
    literal = next((NotOneElement(size) for size in sizes if size is not None and size != 1), None)
    named = next(((k, name) for k, dim in known if (name := dims.name_of(dim)) is not None), None)
    if literal is not None or named is None:
        return literal  # a certain failure outranks a possible one
    return DimsMayDiffer("read the element of", Clash((named[1], "1"), (named[1],)), named[0])


@dataclass(frozen=True)
class ValueDoesNotFit(Problem):
    """An update's value that does not broadcast to the region its index selects (the region's
    shape is the result's there: it cannot grow)."""

    code: ClassVar[str] = "tensor-broadcast"
    region: tuple[int, ...]

    def message(self, op: str, operands: Sequence[str]) -> str:
        region = format_sizes([str(size) for size in self.region]) if self.region else "()"
        return f'"{op}": the value {operands[1]} does not broadcast to the region {region} the index selects in {operands[0]}'


def update_problem(region: tuple[int, ...], value: tuple[int, ...]) -> ValueDoesNotFit | None:
    """Whether a value of shape ``value`` broadcasts to ``region`` without changing it: no more
    dims, and each of its dims (from the right) 1 or the region's."""
    fits = len(value) <= len(region) and all(size in (1, target) for size, target in zip(reversed(value), reversed(region)))
    return None if fits else ValueDoesNotFit(region)


@dataclass(frozen=True)
class ValueWouldPromote(Problem):
    """An update's value of a dtype the tensor's does not hold without a lossy cast (a float
    into an int tensor): the result keeps the tensor's dtype, so the value must fit it."""

    code: ClassVar[str] = "tensor-dtype"
    dtype: str
    promoted: str

    def message(self, op: str, operands: Sequence[str]) -> str:
        return (
            f'"{op}": the value {operands[1]} does not fit {operands[0]} (together they promote to '
            f"{self.promoted}, and the result keeps {self.dtype}); cast the value first"
        )


def update_dtype_problem(dtype: str, promoted: str) -> ValueWouldPromote | None:
    """Whether an update's value, promoted with the tensor's ``dtype`` to ``promoted``, needs a cast."""
    return None if promoted == dtype else ValueWouldPromote(dtype, promoted)
