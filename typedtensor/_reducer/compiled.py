"""The compiled path: reductions planned here, run by the C loops of ``_ckernels.c``.

A plan describes the folded view to the C loops as dims (size, input byte stride, result element
stride, reduced), outermost in memory first, with every input stride made positive (a dim read
backwards starts at its last element; a kept one then writes its results backwards too). The C
loops read the input in memory order and write each result once, straight into its place in the
result array, so no layout needs a copy or a transpose.

A large view is one call whose units threads share (``_ckernels.units``: the C walk's
sub-problems, its tiles, or row parts combined in order; each unit computes the same bits on
whichever thread), one call on one thread. The threads that share a call are the C loops' own
(``_ckernels.reduce(..., shares, threads)``): a shared call releases the GIL once, and no share
passes through Python. A large view with no units to share whose loop is
compute-bound (``_cost.may_split``) is cut into parts (``_layout.cut``); one for which the C
loops would hold more than ``WHOLE_ACCUMULATORS_MAX`` bytes of accumulators is cut along a kept
dim between reduced ones (``_cut_between``). Cut along a kept dim, each part writes its own
region of the result; cut along a reduced dim, each part writes its partial results (in the
accumulating type: float64 for float sums) into a row of its own, and one more call combines the
rows in order and converts them. The units and parts depend on the view and on the cost model's
constant table, never on the thread count or the machine, so the bits do not depend on how many
threads computed them. How many threads compute them, a plan's own times choose: one thread or
all, by the median of its latest calls on each (``_cost.Timings``).

The extension is built at install when a compiler is there. Without it, or with
``TYPEDTENSOR_KERNELS=numpy`` in the environment, every reduction runs on numpy (``_kernels``);
complex dtypes always do.
"""

from __future__ import annotations

import math
import os
import struct
import time
from dataclasses import dataclass, field
from typing import Any, Final, TypeAlias

import numpy as np

from typedtensor._reducer import cost as _cost, parallel as _parallel
from typedtensor._reducer.layout import SPLIT_MIN_BYTES, Cut, Layout, cut, cut_along, fold, memory_order

try:
    from typedtensor._reducer import _ckernels
except ImportError:  # built without a compiler: the numpy kernels run instead
    _ckernels = None  # type: ignore[assignment]

Array: TypeAlias = np.ndarray[Any, Any]

ENV_VAR: Final = "TYPEDTENSOR_KERNELS"
OP_CODES: Final = {"sum": 0, "prod": 1, "max": 2, "min": 3, "any": 4, "all": 5, "mean": 6}
TYPE_CODES: Final[dict[np.dtype[Any], int]] = {
    np.dtype(name): code
    for code, name in enumerate(
        ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "float16", "float32", "float64"]
    )
}

#: The relative error a float32 sum or mean on the compiled loops is guaranteed to stay within,
#: for data of one sign: rows that share accumulators are added in float32, ``FLUSH_ROWS`` (16)
#: at a time, before each block is added into float64 (at most ``(FLUSH_ROWS - 1) u``, u = 2^-24),
#: and the result rounds once to float32 (``u``): 16 u = 9.5e-7. Rows reduced on their own, and
#: every float64 step, err by far less.
FLOAT32_SUM_BOUND: Final = (_ckernels.FLUSH_ROWS if _ckernels is not None else 1) * 2.0**-24

#: A view not cut into parts for threads (``_cost.may_split``) is one call, unless the C
#: loops would hold more than this many bytes of accumulators for it: kept dims between reduced
#: ones get an accumulator for every result of theirs (a float32 ``[2, 4_000_000, 2, 16]`` summed
#: over (0, 2) whole: 512 MB), so such a view is cut along one of them where it can be. 4 MiB:
#: sixteen times what one pass keeps in L2 (``_ckernels.ACC_BYTES``), a small allocation beside
#: the input such a view reads.
WHOLE_ACCUMULATORS_MAX: Final = 4 << 20
WIDEST_ACCUMULATOR: Final = 8  # bytes: float64 and 64-bit integers
SHARES_PER_THREAD: Final = 4  # a shared call's units go in this many shares per thread, taken as threads free up

#: Whether reductions run on the compiled loops: the extension is there and not switched off.
enabled: bool = _ckernels is not None and os.environ.get(ENV_VAR, "").strip().lower() != "numpy"


def handles(dtype: np.dtype[Any]) -> bool:
    """Whether the compiled path reduces arrays of ``dtype`` (complex ones stay on numpy)."""
    return enabled and dtype in TYPE_CODES


@dataclass(frozen=True, slots=True)
class Call:
    """One call of the C loops: where it starts reading (bytes) and writing (elements), and the view."""

    in_offset: int
    out_offset: int
    layout: bytes


@dataclass(frozen=True, slots=True)
class CompiledPlan:
    """How to run one reduction on arrays of one shape, strides and dtype."""

    op: int
    in_type: int
    out_shape: tuple[int, ...]
    out_dtype: np.dtype[Any]
    divisor: float  # a mean's element count; 0 for the other ops
    calls: tuple[Call, ...]  # one per part, or a single one
    combine: Call | None  # a reduced cut: combines the parts' rows of partial results
    partial_dtype: np.dtype[Any]  # the dtype of those rows
    units: int  # a single call's units (``_ckernels.units``) threads may share; 1: never shared
    # the frozen plan's one mutable member: its calls' times, which choose their thread count
    timings: _cost.Timings | None = field(default=None, compare=False)  # None: no pieces to share

    def run(self, array: Array) -> Array:
        out = np.empty(self.out_shape, self.out_dtype)
        if self.timings is None:  # written out, not self._into: the call every small tensor pays
            call = self.calls[0]
            _ckernels.reduce(self.op, self.in_type, TYPE_CODES[self.out_dtype], array, call.in_offset, out, call.out_offset, call.layout, self.divisor)
        else:
            threads, timed = self.timings.choose()
            if threads > 1 and len(self.calls) == 1:  # a worker's start is not the count's time
                _ckernels.workers(threads - 1)
            elif threads > 1:
                _parallel.start_workers(threads - 1)
            if timed:
                start = time.perf_counter()
                if self._on(array, out, threads):
                    self.timings.record(threads, time.perf_counter() - start)
            else:
                self._on(array, out, threads)
        return out

    def _on(self, array: Array, out: Array, threads: int) -> bool:
        """The reduction into ``out`` on up to ``threads`` threads (timed by the caller: no
        back-off); whether its time is one of that count: not where the C loops' workers served
        another call, so this one ran on its caller alone, on a busy core."""
        if len(self.calls) == 1 and threads < 2:
            self._into(array, out, self.calls[0])
        elif len(self.calls) == 1:
            return self._shared(array, out, self.calls[0], threads)
        elif self.combine is None:
            _parallel.run_parts(lambda call: self._into(array, out, call), self.calls, threads, alone=None)
        else:
            self._combined(array, out, self.combine, threads)
        return True

    def _into(self, array: Array, out: Array, call: Call) -> None:
        _ckernels.reduce(self.op, self.in_type, TYPE_CODES[self.out_dtype], array, *_fields(call, out), self.divisor)

    def _shared(self, array: Array, out: Array, call: Call, threads: int) -> bool:
        """The call's units shared by ``threads`` threads (the C loops' own), in
        ``SHARES_PER_THREAD`` shares each, taken as threads free up; whether its time is the
        count's: not where the workers served another call and the caller took every share (where
        fewer workers could be started than asked, it ran on those: the count's time still)."""
        shares = min(self.units, SHARES_PER_THREAD * threads)
        out_type = TYPE_CODES[self.out_dtype]
        return _ckernels.reduce(self.op, self.in_type, out_type, array, *_fields(call, out), self.divisor, shares, threads) != 0

    def _combined(self, array: Array, out: Array, combine: Call, threads: int) -> None:
        partials = np.empty((len(self.calls), max(1, out.size)), self.partial_dtype)
        code = TYPE_CODES[self.partial_dtype]
        _parallel.run_parts(
            lambda call: _ckernels.reduce(self.op, self.in_type, code, array, *_fields(call, partials), 0.0),
            self.calls,
            threads,
            alone=None,
        )
        _ckernels.reduce(self.op, code, TYPE_CODES[self.out_dtype], partials, *_fields(combine, out), self.divisor)


def _fields(call: Call, out: Array) -> tuple[int, Array, int, bytes]:
    return call.in_offset, out, call.out_offset, call.layout


def plan(
    op: str, shape: tuple[int, ...], strides: tuple[int, ...], dtype: np.dtype[Any], mask: tuple[bool, ...],
    out_shape: tuple[int, ...], out_dtype: np.dtype[Any],
) -> CompiledPlan:
    """The compiled plan of ``op`` over the dims ``mask`` reduces of a non-empty array."""
    layout, in_offset, out_offset = _canonical(shape, strides, mask, dtype)
    divisor = float(math.prod(size for size, reduced in zip(shape, mask) if reduced)) if op == "mean" else 0.0
    partial_dtype = _partial_dtype(op, dtype, out_dtype)
    common = (OP_CODES[op], TYPE_CODES[dtype], out_shape, out_dtype, divisor)
    cost = _cost.compiled_cost(op, dtype, layout.nbytes)
    whole = Call(in_offset, out_offset, _packed(layout))
    units = _units(op, dtype, out_dtype, whole.layout, divisor) if layout.nbytes >= SPLIT_MIN_BYTES else 1
    if units < 2 and _cost.may_split(cost):
        parts = cut(layout)
    elif (accumulator_bytes := _whole_accumulator_bytes(layout)) > WHOLE_ACCUMULATORS_MAX:
        parts = _cut_between(layout, accumulator_bytes)
    else:
        parts = None
    if parts is None:
        timings = _cost.Timings(cost, units) if units >= 2 else None
        return CompiledPlan(*common, (whole,), None, partial_dtype, units, timings)
    dim, outputs = parts.dim, math.prod(out_shape)
    assert layout.out_strides is not None
    calls = tuple(
        Call(
            in_offset + start * layout.strides[dim],
            out_offset + (index * outputs if layout.reduced[dim] else start * layout.out_strides[dim]),
            _packed(layout.with_dim(dim, stop - start)),
        )
        for index, (start, stop) in enumerate(parts.ranges)
    )
    combine = None if not layout.reduced[dim] else _combining(len(calls), outputs, partial_dtype)
    return CompiledPlan(*common, calls, combine, partial_dtype, 1, _cost.Timings(cost, len(calls)))


def _units(op: str, dtype: np.dtype[Any], out_dtype: np.dtype[Any], layout: bytes, divisor: float) -> int:
    """How many units the C walk of one call divides into (threads share them, same bits)."""
    return _ckernels.units(OP_CODES[op], TYPE_CODES[dtype], TYPE_CODES[out_dtype], layout, divisor)[0]


def _whole_accumulator_bytes(layout: Layout) -> int:
    """An upper bound of the accumulator bytes the C loops hold for ``layout`` in one call (as
    ``plan_walk`` and ``tile_of`` in ``_ckernels.c`` size them, with the widest accumulator and
    tiles not rounded down): one per result of the kept dims after the first reduced dim, the
    innermost kept dim tiled. Leading kept dims are walked one index at a time, or a few for up
    to 2 KiB of accumulators (16 KiB where rows shorter than 1024 elements are reduced), which
    this leaves out: the bound holds above that."""
    first = layout.reduced.index(True)
    inner_dims = zip(layout.shape[first:-1], layout.reduced[first:-1])
    between = math.prod(size for size, reduced in inner_dims if not reduced)
    per_result = between * WIDEST_ACCUMULATOR
    tile = 1 if layout.reduced[-1] else min(layout.shape[-1], max(_ckernels.MIN_TILE, _ckernels.ACC_BYTES // per_result))
    return per_result * tile


def _cut_between(layout: Layout, accumulator_bytes: int) -> Cut | None:
    """Parts that each hold about ``WHOLE_ACCUMULATORS_MAX`` bytes of accumulators, as far as the
    dim allows (no part is narrower than one index of it): cut along the outermost kept dim after
    the first reduced one (cutting a reduced dim or a leading kept one would leave each part as
    many), or None if there is none (then the whole view holds at most ``ACC_BYTES``)."""
    first = layout.reduced.index(True)
    dim = next((dim for dim in range(first + 1, len(layout.shape) - 1) if not layout.reduced[dim]), None)
    return None if dim is None else cut_along(layout, dim, math.ceil(accumulator_bytes / WHOLE_ACCUMULATORS_MAX))


def _canonical(
    shape: tuple[int, ...], strides: tuple[int, ...], mask: tuple[bool, ...], dtype: np.dtype[Any]
) -> tuple[Layout, int, int]:
    """The folded view in memory order with positive strides, and where it starts reading and writing."""
    kept = [size for size, reduced in zip(shape, mask) if not reduced]
    after_each = iter([math.prod(kept[index + 1 :]) for index in range(len(kept))])  # the result in C order
    out_strides = [0 if reduced else next(after_each) for reduced in mask]
    in_offset = out_offset = 0
    in_strides = list(strides)
    for dim, size in enumerate(shape):
        if in_strides[dim] < 0:  # read it forwards: start at its last element
            in_offset += (size - 1) * in_strides[dim]
            out_offset += (size - 1) * out_strides[dim]
            in_strides[dim], out_strides[dim] = -in_strides[dim], -out_strides[dim]
    order = memory_order(shape, tuple(in_strides))
    layout = fold(
        tuple(shape[d] for d in order), tuple(in_strides[d] for d in order), tuple(mask[d] for d in order), dtype,
        tuple(out_strides[d] for d in order),
    )
    return layout, in_offset, out_offset


def _combining(parts: int, outputs: int, partial_dtype: np.dtype[Any]) -> Call:
    """The call that reduces ``parts`` rows of ``outputs`` partial results (C order) into the result."""
    item = partial_dtype.itemsize
    dims = [(parts, outputs * item, 0, True)] + ([(outputs, item, 1, False)] if outputs > 1 else [])
    return Call(0, 0, _pack(dims))


def _partial_dtype(op: str, dtype: np.dtype[Any], out_dtype: np.dtype[Any]) -> np.dtype[Any]:
    """The dtype of a part's partial results: what the C loops accumulate ``op`` of ``dtype`` in."""
    if op in ("max", "min"):
        return dtype
    if op in ("any", "all"):
        return np.dtype(np.bool_)
    if op == "mean" or dtype.kind == "f":
        return np.dtype(np.float64)
    return out_dtype  # int64 or uint64


def _packed(layout: Layout) -> bytes:
    assert layout.out_strides is not None
    return _pack(list(zip(layout.shape, layout.strides, layout.out_strides, layout.reduced)))


def _pack(dims: list[tuple[int, int, int, bool]]) -> bytes:
    return struct.pack(f"={4 * len(dims)}q", *[int(value) for dim in dims for value in dim])
