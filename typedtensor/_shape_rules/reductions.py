"""Shape rules of the reductions (``reduce_sum`` ...): which dims an ``axis`` reduces.

The only dim these rules create is the ``one`` the caller passes (the int 1, or ``Literal[1]``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, TypeAlias

from .core import UNKNOWN, D, Problem, Shape, Unknown, V

#: ``axis`` as the rules see it: ``None``, one axis, a tuple of axes (some maybe unknown),
#: a Selection string, or ``UNKNOWN`` (nothing known, not even its kind).
AxisSpec: TypeAlias = None | int | str | tuple[int | Unknown, ...] | Unknown
#: ``axis`` fully known, as the runtime has it (and caches plans by).
AxisKey: TypeAlias = None | int | str | tuple[int, ...]

REDUCTION_OPS: Final = ("sum", "mean", "max", "min", "prod", "any", "all")
SELECTION_REDUCE: Final = "^"
SELECTION_KEEP: Final = "v"

@dataclass(frozen=True)
class AxisOutOfRange(Problem):
    """Axes outside ``-rank <= k < rank``, every one of them, in the order given."""

    code: ClassVar[str] = "tensor-axis"
    axes: tuple[int, ...]
    rank: int

    def message(self, op: str, operands: Sequence[str]) -> str:
        tensor = operands[0]
        noun = "Axis" if len(self.axes) == 1 else "Axes"
        verb = "is" if len(self.axes) == 1 else "are"
        listed = ", ".join(str(axis) for axis in self.axes)
        if self.rank == 0:
            valid = "a rank-0 tensor has no axes"
        else:
            valid = f"valid axes are {-self.rank} to {self.rank - 1}"
        return f'{noun} {listed} {verb} out of range for "{op}" on {tensor} ({valid})'


@dataclass(frozen=True)
class InvalidSelection(Problem):
    """A Selection string whose length is not the rank, or with a character other than ``^``/``v``."""

    code: ClassVar[str] = "tensor-selection"
    selection: str
    rank: int
    rank_is_minimum: bool = False

    def message(self, op: str, operands: Sequence[str]) -> str:
        tensor = operands[0]
        bad = sorted({char for char in self.selection if char not in (SELECTION_REDUCE, SELECTION_KEEP)})
        if bad:
            shown = ", ".join(f'"{char}"' for char in bad)
            noun = "character" if len(bad) == 1 else "characters"
            return (
                f'Selection "{self.selection}" for "{op}" on {tensor} has invalid {noun} {shown} '
                f'(use "{SELECTION_REDUCE}" to reduce a dim and "{SELECTION_KEEP}" to keep it)'
            )
        rank = f"at least {self.rank}" if self.rank_is_minimum else str(self.rank)
        characters = "character" if len(self.selection) == 1 else "characters"
        return (
            f'Selection "{self.selection}" for "{op}" has {len(self.selection)} {characters} '
            f"but {tensor} has rank {rank} (one character per dim)"
        )


def bool_axis_kind(container: str | None) -> str:
    """What ``wrong_axis_kind`` says of a bool axis (``bool``), or of a ``tuple`` or ``list``
    holding one (``a bool in a tuple``): the runtime sees the value, the plugin only its type."""
    return "bool" if container is None else f"a bool in a {container}"


def wrong_axis_kind(op: str, got: str) -> str:
    """The message for an ``axis`` that is none of the kinds ``axis`` takes; ``got`` says what it is."""
    example = SELECTION_REDUCE + SELECTION_KEEP + SELECTION_REDUCE
    return f'"{op}": axis must be None, an int, a tuple or list of ints, or a Selection string such as "{example}"; got {got}'


def selection_problem(selection: str, rank: int, *, rank_is_minimum: bool = False) -> InvalidSelection | None:
    """Whether ``selection`` fits a tensor of ``rank`` dims (at least ``rank`` if ``rank_is_minimum``)."""
    chars_ok = all(char in (SELECTION_REDUCE, SELECTION_KEEP) for char in selection)
    length_ok = len(selection) >= rank if rank_is_minimum else len(selection) == rank
    return None if chars_ok and length_ok else InvalidSelection(selection, rank, rank_is_minimum)


def reduced_mask(axis: AxisKey, rank: int) -> tuple[bool, ...] | Problem:
    """Which of ``rank`` dims ``axis`` reduces, by the tf-dotty nested loop.

    Walk the dims counting the index; remove every occurrence of that index (or its negative
    form) from the axis list. Whatever is left when the walk ends is out of range.

    >>> reduced_mask((2, -4, 2), 4)
    (True, False, True, False)
    """
    if axis is None:
        return (True,) * rank
    if isinstance(axis, str):
        return selection_problem(axis, rank) or tuple(char == SELECTION_REDUCE for char in axis)
    remaining = [axis] if isinstance(axis, int) else list(axis)
    mask = []
    for index in range(rank):
        before = len(remaining)
        remaining = [k for k in remaining if k != index and k != index - rank]
        mask.append(len(remaining) < before)
    return AxisOutOfRange(tuple(remaining), rank) if remaining else tuple(mask)


def apply_mask(dims: Sequence[D], mask: Sequence[bool], keepdims: bool, one: D) -> tuple[D, ...]:
    """The dims left after reducing ``mask``: dropped, or replaced by ``one`` with ``keepdims``."""
    return tuple(one if reduced else dim for dim, reduced in zip(dims, mask) if keepdims or not reduced)


def reduce_shape(shape: Shape[D, V], axis: AxisSpec, keepdims: bool | Unknown, one: D) -> Shape[D, V] | Problem:
    """The shape of a reduction of ``shape`` over ``axis``, as exact as the inputs allow.

    Out-of-range axes and bad Selections are problems only where the rank is known; an unknown
    ``axis`` or ``keepdims`` is never a problem, it only makes dims unknown.
    """
    if shape.variadic is None:
        return _reduce_fixed_rank(shape.prefix, axis, keepdims, one)
    return _reduce_variadic(shape, axis, keepdims, one)


def _reduce_fixed_rank(
    dims: tuple[D | Unknown, ...], axis: AxisSpec, keepdims: bool | Unknown, one: D
) -> Shape[D, V] | Problem:
    rank = len(dims)
    if isinstance(axis, Unknown):
        return Shape((UNKNOWN,) * rank) if keepdims is True else Shape((), UNKNOWN)
    known_axes = tuple(k for k in axis if isinstance(k, int)) if isinstance(axis, tuple) else axis
    mask = reduced_mask(known_axes, rank)
    if not isinstance(mask, tuple):
        return mask
    if isinstance(axis, tuple) and UNKNOWN in axis:
        # Every dim not known to be reduced may be reduced by an unknown axis.
        if keepdims is True:
            return Shape(tuple(one if reduced else UNKNOWN for reduced in mask))
        if keepdims is False and len(axis) == 1 and rank > 0:  # one valid axis: one dim fewer
            return Shape((UNKNOWN,) * (rank - 1))
        return Shape((), UNKNOWN)
    if isinstance(keepdims, Unknown):
        return Shape(dims) if not any(mask) else Shape((), UNKNOWN)
    return Shape(apply_mask(dims, mask, keepdims, one))


def _reduce_variadic(shape: Shape[D, V], axis: AxisSpec, keepdims: bool | Unknown, one: D) -> Shape[D, V] | Problem:
    prefix, suffix = shape.prefix, shape.suffix
    if axis is None and keepdims is False:
        return Shape(())
    if isinstance(axis, str):
        return selection_problem(axis, len(prefix) + len(suffix), rank_is_minimum=True) or _select_variadic(
            shape, axis, keepdims, one
        )
    if axis is None or isinstance(axis, Unknown) or isinstance(keepdims, Unknown):
        return Shape((), UNKNOWN)
    axes = (axis,) if isinstance(axis, int) else axis
    in_prefix = [k for k in axes if isinstance(k, int) and 0 <= k < len(prefix)]
    in_suffix = [k for k in axes if isinstance(k, int) and -len(suffix) <= k < 0]
    # An axis past the known prefix may land anywhere after it (the run's length is unknown),
    # so it hides the suffix; likewise one before the known suffix hides the prefix.
    hides_suffix = any(isinstance(k, Unknown) or k >= len(prefix) for k in axes)
    hides_prefix = any(isinstance(k, Unknown) or k < -len(suffix) for k in axes)
    new_prefix = apply_mask(prefix, [k in in_prefix for k in range(len(prefix))], keepdims, one)
    new_suffix = apply_mask(suffix, [k - len(suffix) in in_suffix for k in range(len(suffix))], keepdims, one)
    if hides_prefix or hides_suffix:
        return Shape(() if hides_prefix else new_prefix, UNKNOWN, () if hides_suffix else new_suffix)
    return Shape(new_prefix, shape.variadic, new_suffix)


def _select_variadic(shape: Shape[D, V], selection: str, keepdims: bool | Unknown, one: D) -> Shape[D, V]:
    """A Selection over ``prefix, *run, suffix``: its length says how many dims the run has."""
    if isinstance(keepdims, Unknown):
        return Shape((), UNKNOWN)
    run_end = len(selection) - len(shape.suffix)
    mask = [char == SELECTION_REDUCE for char in selection]
    prefix = apply_mask(shape.prefix, mask[: len(shape.prefix)], keepdims, one)
    suffix = apply_mask(shape.suffix, mask[run_end:], keepdims, one)
    run_mask = mask[len(shape.prefix) : run_end]
    if not any(run_mask) and shape.variadic is not UNKNOWN:
        return Shape(prefix, shape.variadic, suffix)  # the caller's named run (``*Ts``) says more
    # The run's dims are unknown, but the Selection fixes how many there are.
    return Shape(prefix + apply_mask([UNKNOWN] * len(run_mask), run_mask, keepdims, one) + suffix)
