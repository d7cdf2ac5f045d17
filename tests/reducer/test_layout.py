"""The folded view (``typedtensor._reducer.layout``) against numpy's own strided views.

A folded layout is a promise about memory: the view it describes (``as_strided`` over the same
buffer) holds the input's elements in the same order, its reduction over the folded reduced dims
is the input's over the reduced ones, and with the result's strides it writes each result where
numpy's reduction puts it. Inputs are views numpy makes: stepped slices of a C-order array, with
their dims permuted.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, strategies as st
from numpy.lib.stride_tricks import as_strided

from typedtensor._reducer.layout import BAND_MIN_BYTES, PART_BYTES, SPLIT_MIN_BYTES, Layout, cut, cut_into, fold, memory_order

Array = np.ndarray[Any, Any]


@st.composite
def views(draw: st.DrawFn, min_side: int = 1) -> Array:
    """A view of an int64 array: each dim stepped (1 or 2) and the dims in any order."""
    shape = draw(st.lists(st.integers(min_side, 4), min_size=1, max_size=4))
    steps = [draw(st.sampled_from([1, 2])) for _ in shape]
    base = np.arange(math.prod(size * step for size, step in zip(shape, steps)), dtype=np.int64)
    stepped = base.reshape([size * step for size, step in zip(shape, steps)])[tuple(slice(None, None, step) for step in steps)]
    return stepped.transpose(draw(st.permutations(range(len(shape)))))


def described(view: Array, layout: Layout) -> Array:
    """The view ``layout`` describes over ``view``'s memory, from its first element."""
    return as_strided(view, shape=layout.shape, strides=layout.strides, writeable=False)


@given(st.data())
def test_memory_order_puts_the_dims_of_a_c_order_array_back(data: st.DataObject) -> None:
    shape = data.draw(st.lists(st.integers(2, 4), min_size=1, max_size=5))
    permutation = data.draw(st.permutations(range(len(shape))))
    view = np.zeros(shape, np.int8).transpose(permutation)
    # dim d of the view is dim permutation[d] of the C-order array: memory order sorts them back
    assert memory_order(view.shape, view.strides) == tuple(np.argsort(permutation))


@given(views())
def test_memory_order_is_by_falling_stride_with_size_1_dims_in_place(view: Array) -> None:
    order = memory_order(view.shape, view.strides)
    assert sorted(order) == list(range(view.ndim))
    assert all(order[dim] == dim for dim in range(view.ndim) if view.shape[dim] == 1)
    moving = [abs(view.strides[dim]) for dim in order if view.shape[dim] != 1]
    assert moving == sorted(moving, reverse=True)


@given(views(), st.data())
def test_a_folded_view_holds_the_same_elements_in_the_same_order(view: Array, data: st.DataObject) -> None:
    mask = tuple(data.draw(st.lists(st.booleans(), min_size=view.ndim, max_size=view.ndim)))
    layout = fold(view.shape, view.strides, mask, view.dtype)
    assert list(described(view, layout).ravel()) == list(view.ravel())
    assert math.prod(layout.shape) == view.size and layout.nbytes == view.nbytes


@given(views(), st.data())
def test_reducing_the_folded_view_is_reducing_the_input(view: Array, data: st.DataObject) -> None:
    mask = tuple(data.draw(st.lists(st.booleans(), min_size=view.ndim, max_size=view.ndim)))
    layout = fold(view.shape, view.strides, mask, view.dtype)
    expected = view.sum(axis=tuple(dim for dim, reduced in enumerate(mask) if reduced))
    assert list(described(view, layout).sum(axis=layout.axes).ravel()) == list(expected.ravel())


@given(views(), st.data())
def test_a_fold_leaves_no_size_1_dim_and_no_neighbours_it_could_merge(view: Array, data: st.DataObject) -> None:
    mask = tuple(data.draw(st.lists(st.booleans(), min_size=view.ndim, max_size=view.ndim)))
    layout = fold(view.shape, view.strides, mask, view.dtype)
    reduces = any(reduced and size > 1 for size, reduced in zip(view.shape, mask))
    # a view that reduces nothing gets one size-1 reduced dim innermost, so a reduction starts from its identity
    dims = list(zip(layout.shape, layout.strides, layout.reduced))
    if not reduces:
        assert dims[-1] == (1, view.itemsize, True)
        dims.pop()
    assert all(size > 1 for size, _, _ in dims)
    for (_, outer, outer_reduced), (size, inner, inner_reduced) in zip(dims, dims[1:]):
        assert outer_reduced != inner_reduced or outer != inner * size


@given(views(), st.data())
def test_folded_result_strides_put_each_result_where_numpy_does(view: Array, data: st.DataObject) -> None:
    """What the compiled plan does: dims in memory order, the result's C-order strides folded too."""
    mask = tuple(data.draw(st.lists(st.booleans(), min_size=view.ndim, max_size=view.ndim)))
    expected = np.ascontiguousarray(view.sum(axis=tuple(dim for dim, reduced in enumerate(mask) if reduced)))
    kept_strides = iter(np.array(expected.strides, dtype=np.int64) // expected.itemsize)
    out_strides = [0 if reduced else int(next(kept_strides)) for reduced in mask]
    order = memory_order(view.shape, view.strides)
    shape, strides = tuple(view.shape[d] for d in order), tuple(view.strides[d] for d in order)
    layout = fold(shape, strides, tuple(mask[d] for d in order), view.dtype, tuple(out_strides[d] for d in order))
    assert layout.out_strides is not None
    sums = described(view, layout).sum(axis=layout.axes, keepdims=True)
    where = sum(index * stride for index, stride in zip(np.indices(sums.shape), layout.out_strides))
    result = np.zeros(expected.size, np.int64)
    result[where.ravel()] = sums.ravel()
    assert list(result) == list(expected.ravel())


@given(views(min_side=2), st.data())
def test_tiles_when_the_dims_reshape_to_one_without_a_copy(view: Array, data: st.DataObject) -> None:
    layout = Layout(view.shape, view.strides, (False,) * view.ndim, view.dtype)
    start = data.draw(st.integers(0, view.ndim - 1))
    inner = as_strided(view, shape=view.shape[start:], strides=view.strides[start:], writeable=False)
    assert layout.tiles(start) == np.shares_memory(inner.reshape(-1), inner)


def test_a_view_below_the_split_size_runs_whole() -> None:
    rows = SPLIT_MIN_BYTES // 8 // 1024
    assert cut(Layout((rows, 1024), (8192, 8), (False, True), np.dtype(np.float64))) is not None
    assert cut(Layout((rows, 1023), (8184, 8), (False, True), np.dtype(np.float64))) is None


@pytest.mark.parametrize("reduced", [(False, True), (True, False)])
@pytest.mark.parametrize("rows", [1024, 4096, 5000])
def test_a_large_view_is_cut_into_parts_of_about_part_bytes(rows: int, reduced: tuple[bool, bool]) -> None:
    layout = Layout((rows, 1024), (8192, 8), reduced, np.dtype(np.float64))
    parts = cut(layout)
    assert parts is not None and len(parts.ranges) == math.ceil(rows * 8192 / PART_BYTES)


@given(
    st.lists(st.tuples(st.integers(1, 64), st.booleans()), min_size=1, max_size=4),
    st.sampled_from([1, 2, 4, 8]),
    st.integers(1, 100),
)
def test_cut_into_covers_one_dim_in_parts_within_one_of_each_other(
    dims: list[tuple[int, bool]], itemsize: int, count: int
) -> None:
    shape = tuple(size for size, _ in dims)
    strides = tuple(itemsize * math.prod(shape[index + 1 :]) for index in range(len(shape)))  # C order
    layout = Layout(shape, strides, tuple(reduced for _, reduced in dims), np.dtype(f"u{itemsize}"))
    parts = cut_into(layout, count)
    size = shape[parts.dim]
    assert len(parts.ranges) == min(count, size) and parts.ranges[0][0] == 0 and parts.ranges[-1][1] == size
    assert all(stop == start for (_, stop), (start, _) in zip(parts.ranges, parts.ranges[1:]))
    lengths = [stop - start for start, stop in parts.ranges]
    assert max(lengths) - min(lengths) <= 1
    # the outermost kept dim whose parts are slabs of at least BAND_MIN_BYTES, else the outermost dim
    slabs = [
        not reduced and stride * max(1, size // count) >= BAND_MIN_BYTES
        for size, stride, reduced in zip(shape, strides, layout.reduced)
    ]
    assert parts.dim == (slabs.index(True) if any(slabs) else 0)
