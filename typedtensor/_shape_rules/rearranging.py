"""Rules of the ops that move, merge, cut or grow one tensor's dims: ``swapaxes``, ``moveaxis``,
``flatten``, ``split``, ``pad``, ``tril``/``triu``.

Dims that move stay the dims they are; a merged dim is the product of the dims merged, a split
part a quotient, a padded dim a sum (SPEC §9: a literal on literals, a normal form on named
dims, a ``Div`` a claim the run checks). Where a dim's place in a run of unknown length is not
known, the rule says less (a run of unknown dims), never something wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeAlias

from .core import UNKNOWN, Clash, D, Dims, Problem, Shape, Unknown, V
from .dim_arithmetic import constant, floor_divided, plus
from .reductions import AxisOutOfRange

#: One axis as the rules read it: a literal int, or ``UNKNOWN`` for an int known at run time.
AxisArg: TypeAlias = "int | Unknown"


def _located(shape: Shape[D, V], axis: int) -> tuple[bool, int] | None:
    """Where ``axis`` is among the known dims: (in the prefix?, index there); None where its place
    in a run is not known. A fixed rank's axes must be in range (checked by the caller)."""
    if shape.variadic is None:
        return True, axis % len(shape.prefix)
    if 0 <= axis < len(shape.prefix):
        return True, axis
    if -len(shape.suffix) <= axis < 0:
        return False, len(shape.suffix) + axis
    return None


def _out_of_range(shape: Shape[D, V], axes: Sequence[AxisArg]) -> Problem | None:
    """``AxisOutOfRange`` for the literal axes outside a fixed rank."""
    if shape.variadic is not None:
        return None
    rank = len(shape.prefix)
    wrong = tuple(axis for axis in axes if isinstance(axis, int) and not -rank <= axis < rank)
    return AxisOutOfRange(wrong, rank) if wrong else None


def _unknown_like(shape: Shape[D, V]) -> Shape[D, V]:
    """Unknown dims of ``shape``'s rank, or an unknown run where the rank is not known."""
    return Shape((UNKNOWN,) * shape.rank) if shape.rank is not None else Shape((), UNKNOWN)


def swapaxes_shape(shape: Shape[D, V], axis1: AxisArg, axis2: AxisArg) -> Shape[D, V] | Problem:
    """The shape of ``swapaxes(x, a, b)``: dims ``a`` and ``b`` exchanged.

    >>> swapaxes_shape(Shape((2, 3, 4)), 0, -1)
    Shape(prefix=(4, 3, 2), variadic=None, suffix=())
    """
    problem = _out_of_range(shape, (axis1, axis2))
    if problem is not None:
        return problem
    if isinstance(axis1, Unknown) or isinstance(axis2, Unknown):
        return _unknown_like(shape)
    first, second = _located(shape, axis1), _located(shape, axis2)
    if first is None or second is None:
        return Shape((), UNKNOWN)  # a dim inside the run (or past it) may be any of them
    parts = [list(shape.prefix), list(shape.suffix)]
    (in_prefix1, index1), (in_prefix2, index2) = first, second
    side1, side2 = parts[0 if in_prefix1 else 1], parts[0 if in_prefix2 else 1]
    side1[index1], side2[index2] = side2[index2], side1[index1]
    return Shape(tuple(parts[0]), shape.variadic, tuple(parts[1]))


@dataclass(frozen=True)
class MoveAxesMismatch(Problem):
    """``moveaxis`` with as many sources as destinations, each named once: not so."""

    code: ClassVar[str] = "tensor-axis"
    source: tuple[int, ...]
    destination: tuple[int, ...]
    reason: str

    def message(self, op: str, operands: Sequence[str]) -> str:
        return f'Cannot move axes {self.source} to {self.destination} for "{op}" on {operands[0]}: {self.reason}'


def moveaxis_shape(shape: Shape[D, V], source: tuple[AxisArg, ...], destination: tuple[AxisArg, ...]) -> Shape[D, V] | Problem:
    """numpy's ``moveaxis``: the dims at ``source`` moved to ``destination``, the others kept in order.

    >>> moveaxis_shape(Shape((2, 3, 4)), (0,), (-1,))
    Shape(prefix=(3, 4, 2), variadic=None, suffix=())
    """
    if len(source) != len(destination):
        return MoveAxesMismatch(_literals(source), _literals(destination), f"{len(source)} sources and {len(destination)} destinations")
    problem = _out_of_range(shape, (*source, *destination))
    if problem is not None:
        return problem
    if shape.variadic is not None or any(isinstance(axis, Unknown) for axis in (*source, *destination)):
        return _unknown_like(shape)  # where dims land depends on the rank, or on axes known at run time
    rank = len(shape.prefix)
    moved, to = [axis % rank for axis in _literals(source)], [axis % rank for axis in _literals(destination)]
    for axes, name in ((moved, "source"), (to, "destination")):
        if len(set(axes)) != len(axes):
            return MoveAxesMismatch(_literals(source), _literals(destination), f"an axis repeats in the {name}")
    return Shape(tuple(shape.prefix[axis] for axis in moveaxis_order(rank, moved, to)))


def moveaxis_order(rank: int, source: Sequence[int], destination: Sequence[int]) -> tuple[int, ...]:
    """The permutation ``moveaxis`` makes of valid axes: numpy's, the unmoved axes in order."""
    moved, to = [axis % rank for axis in source], [axis % rank for axis in destination]
    order = [axis for axis in range(rank) if axis not in moved]
    for target, axis in sorted(zip(to, moved)):
        order.insert(target, axis)
    return tuple(order)


def _literals(axes: tuple[AxisArg, ...]) -> tuple[int, ...]:
    return tuple(axis for axis in axes if isinstance(axis, int))


@dataclass(frozen=True)
class FlattenAxesReversed(Problem):
    """``flatten`` whose start axis comes after its end axis."""

    code: ClassVar[str] = "tensor-axis"
    start: int
    end: int

    def message(self, op: str, operands: Sequence[str]) -> str:
        return f'Cannot flatten {operands[0]} from axis {self.start} to axis {self.end} for "{op}": the start comes after the end'


def flatten_shape(shape: Shape[D, V], start: AxisArg, end: AxisArg, dims: Dims[D]) -> Shape[D, V] | Problem:
    """The shape of ``flatten(x, start, end)``: dims ``start`` to ``end`` (both included) merged
    into one, their product (``B*T`` on named dims); a rank-0 tensor flattens to one dim of 1.

    >>> from typedtensor._shape_rules import INT_DIMS
    >>> flatten_shape(Shape((2, 3, 4)), 1, -1, INT_DIMS)
    Shape(prefix=(2, 12), variadic=None, suffix=())
    """
    if shape.rank == 0:
        edges_valid = all(isinstance(axis, Unknown) or axis in (0, -1) for axis in (start, end))
        return Shape((dims.literal(1),)) if edges_valid else AxisOutOfRange(_literals((start, end)), 0)
    problem = _out_of_range(shape, (start, end))
    if problem is not None:
        return problem
    if isinstance(start, Unknown) or isinstance(end, Unknown):
        return Shape((), UNKNOWN)  # how many dims merge is not known
    first, last = _located(shape, start), _located(shape, end)
    # Axis 0 is the first dim and -1 the last, wherever a run begins or ends: before an empty
    # prefix, or after an empty suffix, they still bound what merges.
    if first is None and start == 0:
        first = True, 0
    if last is None and end == -1:
        last = False, len(shape.suffix) - 1
    if first is None or last is None:
        return Shape((), UNKNOWN)
    (first_in_prefix, begin), (last_in_prefix, stop) = first, last
    prefix, suffix = shape.prefix, shape.suffix
    if first_in_prefix and last_in_prefix:
        if begin > stop:
            return FlattenAxesReversed(start, end)
        merged = _product(prefix[begin : stop + 1], dims)
        return Shape(prefix[:begin] + (merged,) + prefix[stop + 1 :], shape.variadic, suffix)
    if not first_in_prefix and not last_in_prefix:
        if begin > stop:
            return FlattenAxesReversed(start, end)
        merged = _product(suffix[begin : stop + 1], dims)
        return Shape(prefix, shape.variadic, suffix[:begin] + (merged,) + suffix[stop + 1 :])
    if first_in_prefix:  # from the prefix across the run into the suffix: the run is merged too
        return Shape(prefix[:begin] + (UNKNOWN,) + suffix[stop + 1 :])
    return Shape((), UNKNOWN)  # a start in the suffix and an end in the prefix: runs only if they meet


def _product(merged: Sequence[D | Unknown], dims: Dims[D]) -> D | Unknown:
    """The dims' product as a dim: a literal, a normal form, 0 beside an unknown dim; one dim itself."""
    if len(merged) == 1:
        return merged[0]
    if any(dims.size_of(dim) == 0 for dim in merged):
        return dims.literal(0)
    form = dims.product(merged)
    return UNKNOWN if form is None else dims.dim_of(form)


class SplitProblem(Problem):
    """A split that cannot run; its operands are the tensor and the sections as written."""

    code: ClassVar[str] = "tensor-shape"

    def message(self, op: str, operands: Sequence[str]) -> str:
        tensor, sections = operands
        return f'Cannot split {tensor} into {sections} for "{op}": {self.reason()}'

    def reason(self) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class NoParts(SplitProblem):
    count: int

    def reason(self) -> str:
        return f"the number of parts must be at least 1, not {self.count}"


@dataclass(frozen=True)
class UnequalParts(SplitProblem):
    size: int
    count: int
    axis: int

    def reason(self) -> str:
        return f"size {self.size} at axis {self.axis} is not a multiple of {self.count}"


@dataclass(frozen=True)
class NegativePart(SplitProblem):
    size: int

    def reason(self) -> str:
        return f"size {self.size} is negative"


@dataclass(frozen=True)
class PartsDoNotSum(SplitProblem):
    total: int
    size: int
    axis: int

    def reason(self) -> str:
        return f"the sizes sum to {self.total}, not to size {self.size} at axis {self.axis}"


@dataclass(frozen=True)
class PartsMayNotSum(SplitProblem):
    """Sizes whose sum is a literal, of a named dim: they fit only one of its sizes."""

    code: ClassVar[str] = "tensor-dim"
    clash: Clash  # the named dim, then the sum
    axis: int

    def reason(self) -> str:
        dim, total = self.clash.dims
        return f"the sizes sum to {total}, and {dim} at axis {self.axis} may differ: {self.clash.reason()}"


#: ``split``'s sections: a number of equal parts, or the parts' sizes (each a dim or unknown).
Sections: TypeAlias = "int | Unknown | tuple[D | Unknown, ...]"


def split_shapes(shape: Shape[D, V], sections: Sections[D], axis: AxisArg, dims: Dims[D]) -> tuple[Shape[D, V], ...] | Shape[D, V] | Problem:
    """The shapes of ``split(x, sections, axis)``: ``n`` equal parts (each ``d//n``, a claim the run
    checks on a named ``d``), or parts of the sizes given (which must sum to ``d``). The parts
    have ``x``'s other dims. A count known only at run time gives one unknown shape for every part.

    >>> from typedtensor._shape_rules import INT_DIMS
    >>> split_shapes(Shape((6, 2)), 3, 0, INT_DIMS)[0]
    Shape(prefix=(2, 2), variadic=None, suffix=())
    """
    if isinstance(sections, int) and sections < 1:
        return NoParts(sections)
    negative = [size for part in sections if (size := dims.size_of(part)) is not None and size < 0] if isinstance(sections, tuple) else []
    if negative:
        return NegativePart(negative[0])
    problem = _out_of_range(shape, (axis,))
    if problem is not None:
        return problem
    located = None if isinstance(axis, Unknown) else _located(shape, axis)
    if isinstance(sections, Unknown) or located is None:
        return Shape((), UNKNOWN) if isinstance(sections, Unknown) or shape.rank is None else _unknown_parts(shape, sections)
    assert not isinstance(axis, Unknown)  # located
    in_prefix, index = located
    dim = (shape.prefix if in_prefix else shape.suffix)[index]
    parts = _parts(dim, sections, axis, dims)
    if isinstance(parts, Problem):
        return parts

    def with_dim(part: D | Unknown) -> Shape[D, V]:
        if in_prefix:
            return Shape(shape.prefix[:index] + (part,) + shape.prefix[index + 1 :], shape.variadic, shape.suffix)
        return Shape(shape.prefix, shape.variadic, shape.suffix[:index] + (part,) + shape.suffix[index + 1 :])

    return tuple(map(with_dim, parts))


def _unknown_parts(shape: Shape[D, V], sections: int | tuple[D | Unknown, ...]) -> tuple[Shape[D, V], ...]:
    """As many parts as the sections say, each of the rank with unknown dims."""
    count = sections if isinstance(sections, int) else len(sections)
    return (_unknown_like(shape),) * count


def _parts(dim: D | Unknown, sections: int | tuple[D | Unknown, ...], axis: int, dims: Dims[D]) -> tuple[D | Unknown, ...] | Problem:
    """The split dim's size in each part."""
    size, form = dims.size_of(dim), dims.form_of(dim)
    if isinstance(sections, int):
        if size is not None and size % sections:
            return UnequalParts(size, sections, axis)
        if sections == 1:
            return (dim,)
        part = UNKNOWN if form is None else dims.dim_of(floor_divided(form, constant(sections)))
        return (part,) * sections
    sizes = [dims.size_of(part) for part in sections]
    if None in sizes or form is None:
        return sections  # a size known at run time, or an unknown dim: nothing to check
    total = sum(size for size in sizes if size is not None)
    if size is not None:
        return sections if total == size else PartsDoNotSum(total, size, axis)
    name = dims.name_of(dim)
    if name is None:
        return sections  # a dim of no kind the rules know
    return PartsMayNotSum(Clash((name, str(total)), (name,)), axis)  # named dims are rigid (SPEC §7)


@dataclass(frozen=True)
class PadProblem(Problem):
    code: ClassVar[str] = "tensor-shape"
    reason: str

    def message(self, op: str, operands: Sequence[str]) -> str:
        return f'Cannot pad {operands[0]} for "{op}": {self.reason}'


#: ``pad``'s widths: ``(before, after)`` for each dim, or one pair for every dim.
Widths: TypeAlias = "tuple[tuple[int | Unknown, int | Unknown], ...] | Unknown"


def pad_shape(shape: Shape[D, V], widths: Widths, dims: Dims[D]) -> Shape[D, V] | Problem:
    """The shape of ``pad(x, widths)``: each dim ``d`` grows to ``d + before + after``.

    >>> from typedtensor._shape_rules import INT_DIMS
    >>> pad_shape(Shape((2, 3)), ((1, 1), (0, 2)), INT_DIMS)
    Shape(prefix=(4, 5), variadic=None, suffix=())
    """
    if isinstance(widths, Unknown):
        return _unknown_like(shape)
    negative = [width for pair in widths for width in pair if isinstance(width, int) and width < 0]
    if negative:
        return PadProblem(f"width {negative[0]} is negative")

    def grown(dim: D | Unknown, pair: tuple[int | Unknown, int | Unknown]) -> D | Unknown:
        before, after = pair
        form = dims.form_of(dim)
        if isinstance(before, Unknown) or isinstance(after, Unknown) or form is None:
            return UNKNOWN
        return dim if before + after == 0 else dims.dim_of(plus(form, constant(before + after)))

    if len(widths) == 1:  # one pair for every dim
        (pair,) = widths
        run = None if shape.variadic is None else UNKNOWN  # the run's dims grow too
        return Shape(tuple(grown(dim, pair) for dim in shape.prefix), run, tuple(grown(dim, pair) for dim in shape.suffix))
    if shape.variadic is None:
        if len(widths) != len(shape.prefix):
            return PadProblem(f"{len(widths)} pairs of widths for its {len(shape.prefix)} dims")
        return Shape(tuple(grown(dim, pair) for dim, pair in zip(shape.prefix, widths)))
    known = len(shape.prefix) + len(shape.suffix)
    if len(widths) < known:
        return PadProblem(f"{len(widths)} pairs of widths for its at least {known} dims")
    return Shape((UNKNOWN,) * len(widths))


@dataclass(frozen=True)
class BelowMatrix(Problem):
    """An op of the last two dims on a tensor of fewer."""

    code: ClassVar[str] = "tensor-shape"
    rank: int

    def message(self, op: str, operands: Sequence[str]) -> str:
        return f'"{op}" needs at least 2 dims, {operands[0]} has {self.rank}'


def matrix_kept_shape(shape: Shape[D, V]) -> Shape[D, V] | Problem:
    """``tril``/``triu``: the shape kept, of at least two dims."""
    known = len(shape.prefix) + len(shape.suffix)
    return BelowMatrix(known) if shape.variadic is None and known < 2 else shape
