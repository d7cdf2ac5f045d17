"""Rules of the ops that rearrange one tensor's dims: reshape, transpose, expand_dims, squeeze,
tile and broadcast_to.

A target shape (of reshape, broadcast_to) or the repetitions of tile are dims as the caller has
them: literal sizes, dims passed through from another tensor's ``shape`` (a ``Dim``, a TypeVar),
or ``UNKNOWN`` for an int known only at run time; ``UNKNOWN`` for the whole sequence when even
its length is unknown. The problems of these ops name the tensor and the target as written
(``(32, -1)``): the caller passes both as the operands of ``Problem.message``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Final

from .core import UNKNOWN, Clash, D, Dims, DimsMayDiffer, Problem, Shape, Unknown, V, clash
from .dim_arithmetic import Polynomial, claimed_equal, exact_quotient, names, times
from .reductions import SELECTION_REDUCE, AxisOutOfRange, AxisSpec, reduce_shape

#: The size reshape solves from the element count.
INFER: Final = -1

#: A target shape or repetitions: dims, or ``UNKNOWN`` when not even the length is known.
Sizes = Sequence[D | Unknown] | Unknown


def format_sizes(sizes: Sequence[str]) -> str:
    """A target shape or repetitions as messages write them: ``(32, -1)``, ``(5,)``."""
    return f"({sizes[0]},)" if len(sizes) == 1 else f"({', '.join(sizes)})"


class TargetProblem(Problem):
    """A problem of an op that takes sizes (reshape's target, tile's repetitions): its operands
    are the tensor and the sizes as written, and ``reason`` says what is wrong with them."""

    verb: ClassVar[str]
    preposition: ClassVar[str] = "to"

    def message(self, op: str, operands: Sequence[str]) -> str:
        tensor, sizes = operands
        return f'Cannot {self.verb} {tensor} {self.preposition} {sizes} for "{op}": {self.reason()}'

    def reason(self) -> str:
        raise NotImplementedError


class ReshapeProblem(TargetProblem):
    """A reshape that cannot run."""

    code: ClassVar[str] = "tensor-reshape"
    verb: ClassVar[str] = "reshape"


@dataclass(frozen=True)
class CountsDiffer(ReshapeProblem):
    count: int
    target: int

    def reason(self) -> str:
        return f"it has {self.count} elements, the shape holds {self.target}"


@dataclass(frozen=True)
class NotAMultiple(ReshapeProblem):
    count: int
    other: int

    def reason(self) -> str:
        return f"its {self.count} elements are not a multiple of {self.other}, the product of the other sizes"


@dataclass(frozen=True)
class SeveralInferred(ReshapeProblem):
    count: int

    def reason(self) -> str:
        return f"only one size may be -1, not {self.count}"


@dataclass(frozen=True)
class NegativeSize(ReshapeProblem):
    size: int

    def reason(self) -> str:
        return f"size {self.size} is negative (only one -1, solved from the element count, may be)"


@dataclass(frozen=True)
class InferredBesideZero(ReshapeProblem):
    def reason(self) -> str:
        return "-1 cannot be solved when another size is 0"


@dataclass(frozen=True)
class CountMayDiffer(ReshapeProblem):
    """Element counts that fit only for some sizes of the named dims in them."""

    code: ClassVar[str] = "tensor-dim"
    counts: tuple[str, str]  # the tensor's, and the product of the target's sizes (but -1)
    named: tuple[str, ...]  # the named dims for whose sizes they may not fit
    inferred: bool  # the target has a -1: the tensor's count must be a multiple of the other

    def reason(self) -> str:
        count, other = self.counts
        why = Clash(self.counts, self.named).reason()
        if self.inferred:
            return f"its {count} elements may not be a multiple of {other}, the product of the other sizes: {why}"
        return f"its {count} elements and the shape's {other} may differ: {why}"


def reshape_shape(shape: Shape[D, V], target: Sizes[D], dims: Dims[D]) -> Shape[D, V] | Problem:
    """The shape of ``reshape(x, target)``: the target's dims as given, a ``-1`` solved.

    Element counts are compared in normal form (SPEC §9), a ``//`` the code wrote counted as
    exact, its claim: ``[N, M]`` to ``(2, N//2, M)`` fits. ``-1`` is the tensor's count over the
    other sizes' where that division is exact for every size (``[B, T, C]`` to ``(-1, C)`` is
    ``B*T``, ``[B, 28, 28]`` to ``(B, -1)`` is ``784``); otherwise it is unknown. Counts that fit
    only for some sizes of their named dims (``[B, 5]`` to ``(-1, 3)``, ``[B, T, C]`` to
    ``(B, T, 4, -1)``: write ``C // 4`` to claim it) are ``CountMayDiffer``; a dim neither literal
    nor named may be any size, never a problem.

    >>> from typedtensor._shape_rules import INT_DIMS
    >>> reshape_shape(Shape((6, 4)), (-1, 3), INT_DIMS)
    Shape(prefix=(8, 3), variadic=None, suffix=())
    """
    if isinstance(target, Unknown):
        return Shape((), UNKNOWN)
    sizes = [dims.size_of(dim) for dim in target]
    negative = [size for size in sizes if size is not None and size < INFER]
    if negative:
        return NegativeSize(negative[0])
    if sizes.count(INFER) > 1:
        return SeveralInferred(sizes.count(INFER))
    inferred = INFER in sizes
    if inferred and 0 in sizes:
        return InferredBesideZero()
    kept = tuple(dim for dim, size in zip(target, sizes) if size != INFER)
    solved = _solved(shape, kept, inferred, dims)
    if isinstance(solved, Problem):
        return solved
    return Shape(tuple(solved if size == INFER else dim for dim, size in zip(target, sizes)))


def _solved(shape: Shape[D, V], kept: tuple[D | Unknown, ...], inferred: bool, dims: Dims[D]) -> D | Unknown | Problem:
    """The size of ``-1`` (``UNKNOWN`` where there is none or it is not known), or why the
    tensor's element count and the target's sizes ``kept`` (all but -1) do not fit."""
    count = dims.product(shape.prefix) if shape.variadic is None else None
    other = dims.product(kept)
    if count is None or other is None:
        return UNKNOWN
    found: D | Unknown | Problem | _Misfit | None
    if inferred:
        found = _solve(count, other, dims)
    else:
        found = _compare(count, other)
    if not isinstance(found, _Misfit):
        return UNKNOWN if found is None else found
    if not all(dims.size_of(dim) is not None or dims.name_of(dim) is not None for dim in (*shape.prefix, *kept)):
        return UNKNOWN  # a dim neither literal nor named may be any size
    texts = (_count_text(shape.prefix, dims), _count_text(kept, dims))
    return CountMayDiffer(texts, _blamed(count, other, [*shape.prefix, *kept], dims), inferred)


class _Misfit:
    """Counts that fit only for some sizes of their named dims."""


def _compare(count: Polynomial, other: Polynomial) -> Problem | _Misfit | None:
    """Why a tensor's element count and a target's (without -1) may not fit; None if they fit
    for every size."""
    if count.literal is not None and other.literal is not None:
        return None if count == other else CountsDiffer(count.literal, other.literal)
    if claimed_equal(count, other) or count.literal == 0 or other.literal == 0:
        return None  # a zero count fits only zero sizes: nothing more is said of it
    return _Misfit()


def _solve(count: Polynomial, other: Polynomial, dims: Dims[D]) -> D | Unknown | Problem | _Misfit:
    """The size of ``-1``: the tensor's element count over the product of the other sizes."""
    quotient = exact_quotient(count, other)
    if quotient is not None:
        return dims.dim_of(quotient)
    if count.literal is not None and other.literal is not None:
        return NotAMultiple(count.literal, other.literal)
    return _Misfit()


def _blamed(count: Polynomial, other: Polynomial, shown: Sequence[D | Unknown], dims: Dims[D]) -> tuple[str, ...]:
    """The named dims for some of whose sizes two counts may not fit, as messages write them: those
    on one side only, else (``[B, 2]`` to ``(B, 3)``, which only a size 0 fits) all; in the order
    the dims show them."""
    blamed = names(count) ^ names(other) or names(count) | names(other)
    ordered = [atom for dim in shown if (form := dims.form_of(dim)) is not None for atom in sorted(names(form))]
    return tuple(dims.atom_text(atom) for atom in dict.fromkeys(ordered) if atom in blamed)


def _count_text(shape: Sequence[D | Unknown], dims: Dims[D]) -> str:
    """An element count as messages write it, the product of the dims not 1: ``B*5``, ``1``."""
    factors = [_factor_text(dim, dims) for dim in shape if dims.size_of(dim) != 1]
    return "*".join(factors) or "1"


def _factor_text(dim: D | Unknown, dims: Dims[D]) -> str:
    """A dim as a factor of a product: a sum or quotient in parentheses (``B*(C//4)``)."""
    text = dims.name_of(dim) or str(dims.size_of(dim))
    return f"({text})" if any(operator in text for operator in "+-/") else text


@dataclass(frozen=True)
class NotAPermutation(Problem):
    """Axes of a transpose that do not name each axis exactly once."""

    code: ClassVar[str] = "tensor-axis"
    axes: tuple[int | Unknown, ...]
    rank: int
    rank_is_minimum: bool = False

    def message(self, op: str, operands: Sequence[str]) -> str:
        listed = format_sizes(["int" if isinstance(axis, Unknown) else str(axis) for axis in self.axes])
        rank = f"at least {self.rank}" if self.rank_is_minimum else str(self.rank)
        return f'Axes {listed} for "{op}" on {operands[0]} are not a permutation of its {rank} axes (each axis exactly once)'


def permute_shape(shape: Shape[D, V], axes: tuple[int | Unknown, ...] | Unknown | None) -> Shape[D, V] | Problem:
    """The shape of ``transpose(x, axes)``: dim ``i`` of the result is dim ``axes[i]``; None reverses.

    >>> permute_shape(Shape((2, 3, 4)), (-1, 0, 1))
    Shape(prefix=(4, 2, 3), variadic=None, suffix=())
    """
    if axes is None:
        if shape.variadic is None:
            return Shape(shape.prefix[::-1])
        return Shape(shape.suffix[::-1], UNKNOWN, shape.prefix[::-1])
    if isinstance(axes, Unknown):
        return Shape((UNKNOWN,) * shape.rank) if shape.rank is not None else Shape((), UNKNOWN)
    if shape.variadic is None:
        return _permute(shape.prefix, axes)
    # A run: only a permutation of len(axes) dims can run, so that is the rank.
    known = len(shape.prefix) + len(shape.suffix)
    run = (UNKNOWN,) * (len(axes) - known)
    permuted: Shape[D, V] | Problem | None = _permute(shape.prefix + run + shape.suffix, axes) if len(axes) >= known else None
    return permuted if isinstance(permuted, Shape) else NotAPermutation(axes, known, rank_is_minimum=True)


def _permute(dims: tuple[D | Unknown, ...], axes: tuple[int | Unknown, ...]) -> Shape[D, V] | Problem:
    rank = len(dims)
    out_of_range = tuple(axis for axis in axes if isinstance(axis, int) and not -rank <= axis < rank)
    if out_of_range:
        return AxisOutOfRange(out_of_range, rank)
    known = [axis % rank for axis in axes if isinstance(axis, int)]
    if len(axes) != rank or len(set(known)) != len(known):
        return NotAPermutation(axes, rank)
    return Shape(tuple(UNKNOWN if isinstance(axis, Unknown) else dims[axis] for axis in axes))


def expand_dims_shape(shape: Shape[D, V], axis: int | Unknown, dims: Dims[D]) -> Shape[D, V] | Problem:
    """The shape of ``expand_dims(x, axis)``: a size-1 dim inserted to be dim ``axis`` of the result.

    Valid axes are ``-rank - 1 <= axis <= rank`` (the result's axes).
    """
    one = dims.literal(1)
    if isinstance(axis, Unknown):
        return Shape((UNKNOWN,) * (shape.rank + 1)) if shape.rank is not None else Shape((), UNKNOWN)
    if shape.variadic is None:
        rank = len(shape.prefix)
        if not -rank - 1 <= axis <= rank:
            return AxisOutOfRange((axis,), rank + 1)  # the result's rank: its message gives the range
        at = axis if axis >= 0 else axis + rank + 1
        return Shape(shape.prefix[:at] + (one,) + shape.prefix[at:])
    prefix, suffix = shape.prefix, shape.suffix
    if 0 <= axis <= len(prefix):
        return Shape(prefix[:axis] + (one,) + prefix[axis:], shape.variadic, suffix)
    if -len(suffix) - 1 <= axis < 0:
        at = len(suffix) + axis + 1
        return Shape(prefix, shape.variadic, suffix[:at] + (one,) + suffix[at:])
    # Inside the run, or past it into the dims at the other end: those may move.
    return Shape(prefix, UNKNOWN, ()) if axis >= 0 else Shape((), UNKNOWN, suffix)


@dataclass(frozen=True)
class NotSizeOne(Problem):
    """Dims a squeeze names whose literal size is not 1."""

    code: ClassVar[str] = "tensor-shape"
    axes: tuple[int, ...]
    sizes: tuple[int, ...]

    def message(self, op: str, operands: Sequence[str]) -> str:
        axes, sizes = (", ".join(map(str, values)) for values in (self.axes, self.sizes))
        if len(self.axes) == 1:
            return f'Cannot squeeze {operands[0]} for "{op}": axis {axes} has size {sizes}, not 1'
        return f'Cannot squeeze {operands[0]} for "{op}": axes {axes} have sizes {sizes}, not 1'


def squeeze_shape(shape: Shape[D, V], axis: AxisSpec, dims: Dims[D]) -> Shape[D, V] | Problem:
    """The shape of ``squeeze(x, axis)``: the dims ``axis`` names removed, each of which must be 1.

    ``axis`` takes every form a reduction's does; a named dim it names may be other than 1
    (``DimsMayDiffer``). With ``axis=None`` every dim of size 1 goes: exact where all dims are
    literal; a named dim may be 1 at run time, so around one the result has a run of unknown
    length.
    """
    if axis is None:
        return _squeeze_ones(shape, dims)
    squeezed = reduce_shape(shape, axis, False, dims.literal(1))
    if isinstance(squeezed, Problem):
        return squeezed
    named = _named_dims(shape, axis)
    not_one = [(k, size) for k, dim in named if (size := dims.size_of(dim)) is not None and size != 1]
    if not_one:
        return NotSizeOne(tuple(k for k, _ in not_one), tuple(size for _, size in not_one))
    rigid = next(((k, name) for k, dim in named if (name := dims.name_of(dim)) is not None), None)
    if rigid is not None:  # a named dim stands for every size it may take, not only 1
        k, name = rigid
        return DimsMayDiffer("squeeze", Clash((name, "1"), (name,)), k)
    return squeezed


def _squeeze_ones(shape: Shape[D, V], dims: Dims[D]) -> Shape[D, V]:
    def literal(dim: D | Unknown) -> bool:
        return dims.size_of(dim) is not None

    def without_ones(part: tuple[D | Unknown, ...]) -> tuple[D | Unknown, ...]:
        return tuple(dim for dim in part if dims.size_of(dim) != 1)

    prefix, suffix = shape.prefix, shape.suffix
    if shape.variadic is None and all(map(literal, prefix)):
        return Shape(without_ones(prefix))
    if shape.variadic is None:
        prefix, suffix = prefix, prefix  # around the first and the last named dim
    head = next((index for index, dim in enumerate(prefix) if not literal(dim)), len(prefix))
    tail = next((index for index in range(len(suffix), 0, -1) if not literal(suffix[index - 1])), 0)
    return Shape(without_ones(prefix[:head]), UNKNOWN, without_ones(suffix[tail:]))


def _named_dims(shape: Shape[D, V], axis: AxisSpec) -> list[tuple[int, D | Unknown]]:
    """The dims a valid ``axis`` certainly names, each once, with the axis as given."""
    if isinstance(axis, str):  # a Selection's length is the rank
        axes: list[int] = [index - len(axis) if index >= len(shape.prefix) else index for index, char in enumerate(axis) if char == SELECTION_REDUCE]
    elif isinstance(axis, int):
        axes = [axis]
    else:
        axes = [k for k in axis if isinstance(k, int)] if isinstance(axis, tuple) else []
    found: dict[int, tuple[int, D | Unknown]] = {}
    for k in axes:
        if shape.variadic is None:
            found.setdefault(k % len(shape.prefix), (k, shape.prefix[k]))
        elif 0 <= k < len(shape.prefix):
            found.setdefault(k, (k, shape.prefix[k]))
        elif -len(shape.suffix) <= k < 0:
            found.setdefault(k, (k, shape.suffix[k]))
    return list(found.values())


@dataclass(frozen=True)
class NegativeRepetition(TargetProblem):
    """A repetition of tile below 0."""

    code: ClassVar[str] = "tensor-shape"
    verb: ClassVar[str] = "tile"
    preposition: ClassVar[str] = "by"
    repetition: int

    def reason(self) -> str:
        return f"repetition {self.repetition} is negative"


def tile_shape(shape: Shape[D, V], repetitions: Sizes[D], dims: Dims[D]) -> Shape[D, V] | Problem:
    """The shape of ``tile(x, repetitions)``: each dim times its repetition, aligned from the end.

    numpy's (and the array API's) rule: the shorter of the shape and the repetitions is padded
    with 1s in front. Each dim is its size times its repetition (``2*N``, SPEC §9); times 1 the dim stays.

    >>> from typedtensor._shape_rules import INT_DIMS
    >>> tile_shape(Shape((2, 3)), (2, 1, 2), INT_DIMS)
    Shape(prefix=(2, 2, 6), variadic=None, suffix=())
    """
    if isinstance(repetitions, Unknown):
        return Shape((), UNKNOWN)
    negative = [size for repetition in repetitions if (size := dims.size_of(repetition)) is not None and size < 0]
    if negative:
        return NegativeRepetition(negative[0])
    def repeated(dim: D | Unknown, repetition: D | Unknown) -> D | Unknown:
        size, count = dims.size_of(dim), dims.size_of(repetition)
        if count == 1:
            return dim
        if size == 0 or count == 0:
            return dims.literal(0)
        form, count_form = dims.form_of(dim), dims.form_of(repetition)
        return UNKNOWN if form is None or count_form is None else dims.dim_of(times(form, count_form))  # ``2*N``

    one: tuple[D | Unknown] = (dims.literal(1),)
    if shape.variadic is None:
        rank = max(len(shape.prefix), len(repetitions))
        padded = one * (rank - len(shape.prefix)) + shape.prefix
        counts = one * (rank - len(repetitions)) + tuple(repetitions)
        return Shape(tuple(map(repeated, padded, counts)))
    suffix, aligned = shape.suffix, min(len(repetitions), len(shape.suffix))
    tail = tuple(map(repeated, suffix[len(suffix) - aligned :], repetitions[len(repetitions) - aligned :]))
    if len(repetitions) <= len(suffix):
        return Shape(shape.prefix, shape.variadic, suffix[: len(suffix) - aligned] + tail)
    return Shape((), UNKNOWN, tail)  # repetitions reach into the run, maybe past it


class CannotBroadcastTo(TargetProblem):
    """A tensor that does not broadcast to a target shape."""

    code: ClassVar[str] = "tensor-broadcast"
    verb: ClassVar[str] = "broadcast"


@dataclass(frozen=True)
class SizeNotBroadcast(CannotBroadcastTo):
    size: int
    target: int
    axis: int  # negative: counted from the end, where broadcasting aligns dims

    def reason(self) -> str:
        if self.target == 1:
            return f"size {self.size} at axis {self.axis} is not 1"
        return f"size {self.size} at axis {self.axis} is neither 1 nor {self.target}"


@dataclass(frozen=True)
class DimMayNotBroadcast(CannotBroadcastTo):
    """A dim and the target's dim there that agree only for some sizes of the named dims in them."""

    code: ClassVar[str] = "tensor-dim"
    clash: Clash  # the tensor's dim, then the target's
    axis: int

    def reason(self) -> str:
        dim, wanted = self.clash.dims
        sizes = "may not be 1" if wanted == "1" else f"may be neither 1 nor {wanted}"
        return f"{dim} at axis {self.axis} {sizes}: {self.clash.reason()}"


@dataclass(frozen=True)
class MoreDimsThanTarget(CannotBroadcastTo):
    rank: int
    target_rank: int
    rank_is_minimum: bool

    def reason(self) -> str:
        rank = f"at least {self.rank}" if self.rank_is_minimum else str(self.rank)
        return f"it has {rank} dims, the shape {self.target_rank}"


@dataclass(frozen=True)
class NegativeTargetSize(CannotBroadcastTo):
    size: int

    def reason(self) -> str:
        return f"size {self.size} is negative"


def broadcast_to_shape(shape: Shape[D, V], target: Sizes[D], dims: Dims[D]) -> Shape[D, V] | Problem:
    """The shape of ``broadcast_to(x, target)``: the target, where each dim of ``x`` (aligned from
    the end) is 1 or the target's dim. A named dim is rigid: against another size it broadcasts
    only for some of its sizes (``DimMayNotBroadcast``).
    """
    if isinstance(target, Unknown):
        return Shape((), UNKNOWN)
    negative = [size for dim in target if (size := dims.size_of(dim)) is not None and size < 0]
    if negative:
        return NegativeTargetSize(negative[0])
    rank = len(shape.prefix) + len(shape.suffix)
    if rank > len(target):
        return MoreDimsThanTarget(rank, len(target), shape.variadic is not None)
    result = list(target)
    named_clash: DimMayNotBroadcast | None = None  # outranked by a mismatch of two literals
    for axis, dim in zip(range(-1, -rank - 1, -1), reversed(shape.prefix if shape.variadic is None else shape.suffix)):
        size, wanted = dims.size_of(dim), dims.size_of(target[axis])
        if size is not None and size != 1 and wanted is not None and wanted != size:
            return SizeNotBroadcast(size, wanted, axis)
        if size is not None and size != 1 and isinstance(target[axis], Unknown):
            result[axis] = dim  # the only size it can broadcast to
        named = clash(dim, target[axis], dims) if size != 1 else None
        named_clash = named_clash or (DimMayNotBroadcast(named, axis) if named is not None else None)
    return named_clash or Shape(tuple(result))
