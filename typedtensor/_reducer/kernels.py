"""Reduction kernels over folded views, and the choice of kernel per pattern.

A kernel takes the input reshaped to a plan's folded shape and returns a new array holding the
result's elements (any shape of that size). ``choose`` runs once per plan, so it may think;
kernels run on every call, so they only call numpy.

numpy is fast at one thing: an elementwise ufunc over long contiguous rows (``out += row``).
Its reductions pay per call of their inner loop, so they are slow when that loop is short
(a reduced or kept run of a few elements), and its sums over an outer dim add one row after
another (an error that grows with the row count). The strategies below regroup the work so the
inner loops run long, and so float sums add in short chains:

* ``columns``: a reduced innermost dim of at most ``COLUMNS_MAX`` elements is ``size - 1``
  elementwise calls on its strided slices, over L2-sized blocks of rows.
* ``rows``: a reduced dim over short kept rows is viewed as ``[q, m * K]`` blocks, reduced
  block-wise (long rows, a chain of ``q``), then the ``[m, K]`` rest is halved pairwise.
* ``einsum``: float sums of any other pattern; numpy's einsum loops beat ``add.reduce`` on
  short runs. Long contiguous runs are split first so each chain stays short.
* ``outer_first``: with several reduced dims, reduce the outermost first while the temporary
  fits in L2, then plan the smaller temporary afresh.
* ``plain``: one ``ufunc.reduce`` where measurement showed nothing better.

Inputs of ``_layout.SPLIT_MIN_BYTES`` or more are cut along one dim into parts (``_layout.cut``;
``_parallel`` runs them on the threads there are), each reduced by the strategy above that
suits it. Their number and shapes depend on the data only, so the result has the same bits at
any thread count: cut along a kept dim, the parts fill disjoint regions of the result; cut along
a reduced dim, their partial results are combined in order by one more ufunc call per part.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, Final, TypeAlias

import numpy as np

from typedtensor._reducer import cost as _cost
from typedtensor._reducer.layout import Cut, Layout, cut, fold

Array: TypeAlias = np.ndarray[Any, Any]
Kernel: TypeAlias = Callable[[Array], Array]

_UFUNCS: Final[dict[str, np.ufunc]] = {
    "sum": np.add,
    "mean": np.add,
    "prod": np.multiply,
    "max": np.maximum,
    "min": np.minimum,
    "any": np.logical_or,
    "all": np.logical_and,
}
# What an empty reduced extent gives; max and min have no identity and never get here.
_EMPTY_VALUES: Final[dict[str, object]] = {"sum": 0, "prod": 1, "any": False, "all": True, "mean": np.nan}

SMALL: Final = 1 << 14  # fewer elements: one ufunc.reduce, since planning extra calls costs more
SHORT_RUN: Final = 128  # a run numpy loops over this short pays its per-call cost on every run
ROWS_INNER_MAX: Final = 32  # rows gain on kept runs up to this; at 128 they tie or lose
COLUMNS_MAX: Final = 8  # above this, size - 1 elementwise calls cost more than one reduce
COLUMN_BLOCK_BYTES: Final = 1 << 19  # input per pass of the columns strategy: fits in L2 (measured 7.5x vs 5x unblocked on [1e6, 4] float64)
ROW_BLOCK_BYTES: Final = 1 << 18  # the rows strategy's block: long enough to amortise a call, in L2
ROW_MIN: Final = 4096  # shortest block row (elements) worth it when several slices share L2
L2_BYTES: Final = 1 << 21  # a larger temporary spills from L2 (measured: 2 MiB still gains)
# einsum adds a run in a few SIMD lanes; numpy's pairwise sum adds leaves of at most 128 in 8
# lanes. Longer runs are cut into numpy's leaf length (``_pairwise_leaf``) so einsum's chains
# are no longer (a 640-run whole: 2.4e-7 float32 error against numpy's 1.4e-7).
EINSUM_RUN_MAX: Final = 128


def choose(op: str, layout: Layout, out_dtype: np.dtype[Any]) -> Kernel:
    """The kernel for ``op`` over the reduced dims of a folded, non-empty view."""
    accumulate = _accumulate_dtype(op, layout.dtype, out_dtype)
    kernel = _threaded(op, layout, accumulate)
    if op == "mean":
        count = math.prod(layout.shape[axis] for axis in layout.axes)
        return partial(divide, kernel=kernel, count=count, dtype=out_dtype)
    if accumulate is not None and accumulate != out_dtype:
        return partial(cast, kernel=kernel, dtype=out_dtype)
    return kernel


def _threaded(op: str, layout: Layout, accumulate: np.dtype[Any] | None) -> Kernel:
    """The single-thread kernel, or, for a large input, parts of it run on the threads there are."""
    parts = cut(layout)
    return _reducer(op, layout, accumulate) if parts is None else split(op, layout, accumulate, parts)


def split(op: str, layout: Layout, accumulate: np.dtype[Any] | None, parts: Cut) -> Kernel:
    """``layout`` cut into ``parts``, each reduced by its own strategy, on the threads there are."""
    kernels = {stop - start: _reducer(op, layout.with_dim(parts.dim, stop - start), accumulate) for start, stop in parts.ranges}
    split_parts = tuple(_part(layout, parts.dim, start, stop, kernels[stop - start]) for start, stop in parts.ranges)
    cost = _cost.numpy_cost(layout.nbytes)
    if layout.reduced[parts.dim]:
        return partial(split_reduced, parts=split_parts, ufunc=_UFUNCS[op], cost=cost)
    kept = tuple(size for size, is_reduced in zip(layout.shape, layout.reduced) if not is_reduced)
    return partial(split_kept, parts=split_parts, shape=kept, dtype=_temporary_dtype(layout, accumulate), cost=cost)


@dataclass(frozen=True, slots=True)
class Part:
    """One part of a split reduction: where it reads, where its result goes, and how."""

    view_index: tuple[slice, ...]  # its slice of the folded view
    out_index: tuple[slice, ...]  # the region of the result it covers: all of it for a reduced cut
    kernel: Kernel


def _part(layout: Layout, dim: int, start: int, stop: int, kernel: Kernel) -> Part:
    view_index = tuple(slice(start, stop) if axis == dim else slice(None) for axis in range(len(layout.shape)))
    out_index = tuple(index for index, is_reduced in zip(view_index, layout.reduced) if not is_reduced)
    return Part(view_index, out_index, kernel)


def pick(op: str, layout: Layout, accumulate: np.dtype[Any] | None) -> str:
    """The name of the strategy for ``op`` over ``layout`` (see the module docstring)."""
    if op in ("any", "all") or math.prod(layout.shape) < SMALL:
        return "plain"
    # einsum casting its input (ints to a float mean, float16 to float32) loses to add.reduce.
    float_sum = op in ("sum", "mean") and _is_float(accumulate) and accumulate == layout.dtype
    if _single_reduced(layout):
        outer, count, inner = _around_reduced(layout)
        if inner == 1 and 2 <= count <= COLUMNS_MAX:
            return "columns"
        # A reduced innermost run is already one long numpy loop, except for multiply (no
        # SIMD); with several outer slices einsum sums faster than blocked rows.
        if _block_rows(layout, accumulate) > 1 and (inner > 1 or op == "prod") and (outer == 1 or not float_sum):
            return "rows"
    if float_sum and _einsum_gains(layout):
        return "einsum"
    if op in ("prod", "max", "min") and len(layout.axes) > 1 and _outer_first_fits(op, layout, accumulate):
        return "outer_first"
    return "plain"


def _einsum_gains(layout: Layout) -> bool:
    """Whether einsum beats ``add.reduce`` on a float sum over ``layout`` (measured)."""
    if all(layout.reduced) or _split_run(layout) is None:
        return False
    if len(layout.shape) == 2 and layout.reduced[0]:
        return False  # R K: numpy's row-by-row adds win
    # K R K over long float32 rows: numpy's row adds are as fast as einsum (0.51 against 0.55 ms
    # on [32, 256, 640]); on float64 rows they are 1.5x slower.
    long_rows = _single_reduced(layout) and _around_reduced(layout)[2] > SHORT_RUN
    return not (long_rows and layout.itemsize < 8)


def _is_float(dtype: np.dtype[Any] | None) -> bool:
    return dtype is not None and dtype.kind == "f"


def _reducer(op: str, layout: Layout, accumulate: np.dtype[Any] | None) -> Kernel:
    """A kernel giving the reduction in ``accumulate`` (the input dtype for max/min)."""
    strategy = pick(op, layout, accumulate)
    ufunc = _UFUNCS[op]
    if strategy == "columns":
        outer, count, inner = _around_reduced(layout)
        block = max(1, COLUMN_BLOCK_BYTES // (count * inner * layout.itemsize))
        return partial(columns, shape=(outer, count, inner), block=block, ufunc=ufunc, dtype=accumulate)
    if strategy == "rows":
        outer, count, inner = _around_reduced(layout)
        block = _block_rows(layout, accumulate)
        return partial(rows, shape=(outer, count, inner), block=block, ufunc=ufunc, dtype=accumulate)
    if strategy == "einsum":
        return _einsum_kernel(layout, accumulate)
    if strategy == "outer_first":
        return _outer_first_kernel(op, layout, accumulate)
    return partial(ufunc_reduce, ufunc=ufunc, axes=layout.axes, dtype=accumulate)


def _single_reduced(layout: Layout) -> bool:
    """Whether one dim is reduced and the dims after it tile, so the view is ``[K1, R, K2]``."""
    return len(layout.axes) == 1 and layout.tiles(layout.axes[0])


def _around_reduced(layout: Layout) -> tuple[int, int, int]:
    """``[K1, R, K2]`` for a view with one reduced dim (a missing kept side has size 1)."""
    (axis,) = layout.axes
    return math.prod(layout.shape[:axis]), layout.shape[axis], math.prod(layout.shape[axis + 1 :])


def _block_rows(layout: Layout, accumulate: np.dtype[Any] | None) -> int:
    """How many rows the rows strategy stacks into one block; 1 means it does not apply.

    A power of two, so the rest halves evenly; at least two blocks must fit in the dim.
    """
    if not _single_reduced(layout):
        return 1
    outer, count, inner = _around_reduced(layout)
    itemsize = _temporary_dtype(layout, accumulate).itemsize
    width = max(ROW_MIN, ROW_BLOCK_BYTES // (itemsize * outer))  # all outer slices' blocks share L2
    block = 1 << max(0, math.ceil(math.log2(max(1, width // inner))))
    return block if count >= 2 * block and block > 1 and inner <= ROWS_INNER_MAX else 1


def _outer_first_fits(op: str, layout: Layout, accumulate: np.dtype[Any] | None) -> bool:
    """Whether reducing the outermost reduced dim first leaves a temporary that fits in L2.

    Only a short reduced tail gains for max and min (numpy's SIMD loops handle long ones);
    numpy's scalar multiply loop is slow on any tail.
    """
    first = layout.axes[0]
    temporary = math.prod(layout.shape) // layout.shape[first] * _temporary_dtype(layout, accumulate).itemsize
    short_tail = op == "prod" or not layout.reduced[-1] or layout.shape[-1] <= SHORT_RUN
    # A cast first pass (int32 products in int64) over a kept tail loses: 0.85 on R K R K.
    cast_kept_tail = _temporary_dtype(layout, accumulate) != layout.dtype and not layout.reduced[-1]
    return layout.tiles(first + 1) and temporary <= L2_BYTES and short_tail and not cast_kept_tail


def _outer_first_kernel(op: str, layout: Layout, accumulate: np.dtype[Any] | None) -> Kernel:
    """Reduce the outermost reduced dim (the dims after it as one kept run), then the rest."""
    first = layout.axes[0]
    rest = layout.shape[first + 1 :]
    merged = Layout(
        layout.shape[: first + 1] + (math.prod(rest),),
        layout.strides[: first + 1] + (layout.strides[-1],),
        layout.reduced[: first + 1] + (False,),
        layout.dtype,
    )
    first_pass = _reducer(op, merged, accumulate)
    shape = layout.shape[:first] + rest
    temporary = _temporary_dtype(layout, accumulate)
    c_strides = tuple(temporary.itemsize * math.prod(shape[index + 1 :]) for index in range(len(shape)))
    reduced = layout.reduced[:first] + layout.reduced[first + 1 :]
    remaining = fold(shape, c_strides, reduced, temporary)
    then = _reducer(op, remaining, accumulate)
    return partial(chain, first=first_pass, shape=merged.shape, then=then, then_shape=remaining.shape)


def _temporary_dtype(layout: Layout, accumulate: np.dtype[Any] | None) -> np.dtype[Any]:
    """The dtype of partial results: the accumulating dtype, else the input's."""
    return accumulate if accumulate is not None else layout.dtype


def _einsum_kernel(layout: Layout, accumulate: np.dtype[Any] | None) -> Kernel:
    """One einsum over the folded view, splitting a long innermost reduced run in two.

    einsum sums a contiguous run in a few SIMD lanes, one chain per lane; a run longer than
    ``EINSUM_RUN_MAX`` is viewed as ``[q, L]`` so einsum keeps ``q`` partial sums, which a
    pairwise ``add.reduce`` then finishes.
    """
    shape = layout.shape
    keep = [index for index in range(len(shape)) if not layout.reduced[index]]
    run = _split_run(layout) or 1  # pick never chooses einsum where it is None
    if run == 1:
        return partial(einsum_sum, shape=shape, subscripts=list(range(len(shape))), keep=keep, dtype=accumulate)
    last = len(shape)
    split_shape = shape[:-1] + (shape[-1] // run, run)
    subscripts = list(range(last + 1))
    return partial(einsum_sum_split, shape=split_shape, subscripts=subscripts, keep=keep + [last - 1], dtype=accumulate)


def _split_run(layout: Layout) -> int | None:
    """The run length to cut a long innermost reduced dim into: 1 leaves it whole, and None
    means no divisor fits (einsum's chains would be longer than numpy's)."""
    size = layout.shape[-1]
    if not layout.reduced[-1] or size <= EINSUM_RUN_MAX:
        return 1
    longest = _pairwise_leaf(size)
    return next((run for run in range(longest, EINSUM_RUN_MAX // 8, -1) if size % run == 0), None)


def _pairwise_leaf(size: int) -> int:
    """The length of the leaves numpy's pairwise sum adds a run of ``size`` in: it halves the run,
    rounding down to a multiple of 8, until a half is at most 128. Runs cut no longer add in
    chains no longer than numpy's (640 cut into 5 x 128: 1.8e-7 float32 error against numpy's
    1.4e-7; into 8 x 80, numpy's own leaves: no worse)."""
    while size > EINSUM_RUN_MAX:
        size = size // 2 - size // 2 % 8
    return size


def _accumulate_dtype(op: str, dtype: np.dtype[Any], out_dtype: np.dtype[Any]) -> np.dtype[Any] | None:
    """The dtype to reduce in: float16 sums run in float32 (numpy's float16 sums drift), and
    float16/float32 products in float64 (float32 products of values near 1 drift: 1.3e-3 off
    on 655 360 of them, numpy's 6.6e-5)."""
    if op in ("max", "min"):
        return None
    if op == "prod" and out_dtype.kind == "f" and out_dtype.itemsize < 8:
        return np.dtype(np.float64)
    if out_dtype == np.float16:
        return np.dtype(np.float32)
    return out_dtype


def filler(op: str, out_dtype: np.dtype[Any], out_shape: tuple[int, ...], extent_is_empty: bool) -> Kernel:
    """The kernel of an input with a zero-size dim: the empty extent's value, or an empty result."""
    value = _EMPTY_VALUES[op] if extent_is_empty else 0
    if op == "mean" and out_dtype.kind == "c":
        value = complex(np.nan, np.nan)  # 0 / 0 in complex arithmetic, as numpy computes it
    return partial(fill, shape=out_shape, value=value, dtype=out_dtype)


def unreduced(op: str, out_dtype: np.dtype[Any]) -> Kernel:
    """The kernel of a reduction whose reduced dims all have size 1 (``axis=()`` among them): one
    elementwise pass that combines each element with the op's identity in the result dtype, as a
    reduction would (a sum turns ``-0.0`` into ``+0.0``, as TOSA and numpy do). Not for complex:
    their products and means need the full complex arithmetic of the reducing kernels."""
    if op in ("sum", "mean"):  # a mean divides by 1: the sum is its value
        return partial(with_identity, ufunc=np.add, identity=0, dtype=out_dtype)
    if op == "prod":
        return partial(with_identity, ufunc=np.multiply, identity=1, dtype=out_dtype)
    return partial(copy_as, dtype=out_dtype)  # max, min; any and all test for nonzero, as bool casts do


# The kernels below run on every call: numpy calls only.


def ufunc_reduce(view: Array, *, ufunc: np.ufunc, axes: tuple[int, ...], dtype: np.dtype[Any] | None) -> Array:
    # keepdims=True so that a full reduction is a 0-d array rather than a numpy scalar.
    return ufunc.reduce(view, axis=axes, dtype=dtype, keepdims=True)  # type: ignore[no-any-return]


def columns(
    view: Array, *, shape: tuple[int, int, int], block: int, ufunc: np.ufunc, dtype: np.dtype[Any] | None
) -> Array:
    """``[K1, R, K2]`` reduced over a short R: one elementwise call per slice of R.

    Every slice touches each cache line of the input, so the calls run over ``block`` rows of K1
    at a time: the block stays in L2 between them and the input streams from memory once. A
    block that needs a cast (int32 summed in int64) is first copied, cast, into a contiguous
    buffer: one SIMD cast pass instead of the ufunc's buffered cast in every call.
    """
    outer, count, inner = shape
    grid = view.reshape(shape).transpose(1, 0, 2)  # [R, K1, K2]: slice ``index`` is grid[index]
    total = np.empty((outer, inner), dtype or view.dtype)
    staging = np.empty((count, min(block, outer), inner), dtype) if total.dtype != view.dtype else None
    for start in range(0, outer, block):
        part, out = grid[:, start : start + block], total[start : start + block]
        if staging is not None:
            np.copyto(staging[:, : len(out)], part)
            part = staging[:, : len(out)]
        ufunc(part[0], part[1], out=out)
        for index in range(2, count):
            ufunc(out, part[index], out=out)
    return total


def rows(
    view: Array, *, shape: tuple[int, int, int], block: int, ufunc: np.ufunc, dtype: np.dtype[Any] | None
) -> Array:
    """``[K1, R, K2]`` reduced over R in blocks of ``block`` rows, then the blocks pairwise.

    The first pass reduces ``[K1, q, block * K2]`` over q: long elementwise rows, a chain of
    ``q``. Leftover rows (R not a multiple of the block, fewer than ``block``) join the first
    partial rows in one elementwise call (reducing them apart is numpy's slow short-row loop:
    0.1 ms on [1e6, 4]). The ``block`` partial rows then halve pairwise.
    """
    outer, count, inner = shape
    grid = view.reshape(shape)
    whole = count // block * block
    partial_rows = ufunc.reduce(grid[:, :whole].reshape(outer, count // block, block * inner), axis=1, dtype=dtype)
    stack = partial_rows.reshape(outer, block, inner)
    leftover = count - whole
    ufunc(stack[:, :leftover], grid[:, whole:], out=stack[:, :leftover])
    while stack.shape[1] > 2:
        half = stack.shape[1] // 2
        ufunc(stack[:, :half], stack[:, half:], out=stack[:, :half])
        stack = stack[:, :half]
    total: Array = ufunc(stack[:, 0], stack[:, 1])
    return total


def einsum_sum(
    view: Array, *, shape: tuple[int, ...], subscripts: list[int], keep: list[int], dtype: np.dtype[Any] | None
) -> Array:
    return np.einsum(view.reshape(shape), subscripts, keep, dtype=dtype)  # type: ignore[no-any-return]


def einsum_sum_split(
    view: Array, *, shape: tuple[int, ...], subscripts: list[int], keep: list[int], dtype: np.dtype[Any] | None
) -> Array:
    partial_sums = np.einsum(view.reshape(shape), subscripts, keep, dtype=dtype)
    return np.add.reduce(partial_sums, axis=-1)  # type: ignore[no-any-return]


def split_kept(
    view: Array, *, parts: tuple[Part, ...], shape: tuple[int, ...], dtype: np.dtype[Any], cost: _cost.Cost
) -> Array:
    """Parts cut along a kept dim, each filling its own region of the result."""
    total = np.empty(shape, dtype)
    tasks = [(part.kernel, view[part.view_index], total[part.out_index]) for part in parts]
    _cost.run_split(_reduce_into, tasks, cost)
    return total


def _reduce_into(task: tuple[Kernel, Array, Array]) -> None:
    kernel, part, region = task
    np.copyto(region, kernel(part).reshape(region.shape))


def split_reduced(view: Array, *, parts: tuple[Part, ...], ufunc: np.ufunc, cost: _cost.Cost) -> Array:
    """Parts cut along a reduced dim, reduced on any thread, then combined in order."""
    tasks = [(part.kernel, view[part.view_index]) for part in parts]
    results = _cost.run_split(_reduce_part, tasks, cost)
    total = results[0]
    for result in results[1:]:
        ufunc(total, result.reshape(total.shape), out=total)
    return total


def _reduce_part(task: tuple[Kernel, Array]) -> Array:
    kernel, part = task
    return kernel(part)


def chain(view: Array, *, first: Kernel, shape: tuple[int, ...], then: Kernel, then_shape: tuple[int, ...]) -> Array:
    return then(first(view.reshape(shape)).reshape(then_shape))


def divide(view: Array, *, kernel: Kernel, count: int, dtype: np.dtype[Any]) -> Array:
    total = kernel(view)
    np.true_divide(total, count, out=total)
    return total if total.dtype == dtype else total.astype(dtype)


def cast(view: Array, *, kernel: Kernel, dtype: np.dtype[Any]) -> Array:
    return kernel(view).astype(dtype)


def fill(view: Array, *, shape: tuple[int, ...], value: object, dtype: np.dtype[Any]) -> Array:
    return np.full(shape, value, dtype=dtype)


def with_identity(view: Array, *, ufunc: np.ufunc, identity: int, dtype: np.dtype[Any]) -> Array:
    # Into a new array: on a rank-0 view a ufunc would return a numpy scalar, not an array.
    return ufunc(view, identity, out=np.empty(view.shape, dtype), dtype=dtype)  # type: ignore[no-any-return]


def copy_as(view: Array, *, dtype: np.dtype[Any]) -> Array:
    return view.astype(dtype, order="C")
