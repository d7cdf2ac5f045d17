"""Typed reductions of dask arrays run typedtensor's reducer on every chunk and combine the
partials in dask's graph (SPEC 10): equal to the numpy path on every axis form, lazy until asked
(typed ops and checks compute nothing), and the same on a real cluster of worker processes.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any, TypeVar

import numpy as np
import pytest

import typedtensor as tt
from typedtensor import Tensor, shapechecked

da = pytest.importorskip("dask.array", reason="dask is not installed: the dask backend's tests skip")

Rows = TypeVar("Rows")
Columns = TypeVar("Columns")

AXES = [None, 0, -1, (0, 2), [2, 1], (), "^v^", "vvv"]


def chunked(values: np.ndarray[Any, Any]) -> Any:
    return da.from_array(values, chunks=(2, 3, 2))  # several chunks along every dim, some partial


@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("axis", AXES, ids=repr)
@pytest.mark.parametrize("op", ["sum", "mean", "max", "min", "prod", "any", "all"])
def test_reductions_equal_the_numpy_path_on_every_axis_form(op: str, axis: Any, keepdims: bool) -> None:
    rng = np.random.default_rng(0)
    for values in [rng.integers(-3, 4, (5, 7, 3)).astype(np.int32), rng.standard_normal((5, 7, 3)).astype(np.float32)]:
        reduce = getattr(tt, f"reduce_{op}")
        expected = reduce(Tensor(values), axis=axis, keepdims=keepdims)
        got = reduce(Tensor(chunked(values)), axis=axis, keepdims=keepdims)
        assert (got.dtype, got.shape) == (expected.dtype, expected.shape)
        assert any(layer.startswith(f"typedtensor-{op}") for layer in got.array.__dask_graph__().layers) or axis == ()
        if values.dtype.kind == "i" and op != "mean":  # integers add up exactly in any order
            np.testing.assert_array_equal(got.numpy(), expected.numpy())
        else:  # float64 partials, rounded once as the numpy path's: at most an ulp apart
            np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("op", ["sum", "mean"])
def test_float32_sums_of_many_chunks_keep_the_reducer_s_accuracy(op: str) -> None:
    """The partials are float64 and rounded once at the end, so a float32 sum over 64 chunks is
    within the reducer's bound of one array (16 * 2**-24 of the sum of magnitudes, and the last
    rounding). Dask's own float32 partials are not: each chunk's column sums add 512 rows in
    float32 one by one, and ten thousand dimes lose in the same direction at every step."""
    values = np.tile(np.array([0.1, 0.3, 0.7, 1.1], np.float32), (1 << 15, 1))
    chunks = da.from_array(values, chunks=(1 << 9, 4))
    assert chunks.numblocks == (64, 1)
    exact = np.array([math.fsum(column) for column in values.T]) / (len(values) if op == "mean" else 1)
    bound = (16 * 2.0**-24 + 2.0**-24) * np.abs(exact)  # values of one sign: the magnitudes sum to the sum
    ours = getattr(tt, f"reduce_{op}")(Tensor(chunks), axis=0).numpy()
    dask_s = getattr(chunks, op)(axis=0).compute()
    assert ours.dtype == dask_s.dtype == np.float32
    assert np.all(np.abs(ours - exact) <= bound), (ours - exact) / bound
    assert np.all(np.abs(dask_s - exact) > bound), (dask_s - exact) / bound


@pytest.mark.parametrize(("dtype", "op", "partial"), [("float32", "sum", "float64"), ("float16", "mean", "float64"), ("int32", "sum", "int64"), ("uint8", "prod", "uint64"), ("float32", "max", "float32")])
def test_chunks_and_combined_chunks_are_partials_in_the_accumulating_dtype(dtype: str, op: str, partial: str) -> None:
    """Every task before the last gives partials in the reducer's accumulating dtype; the last rounds to the result's."""
    import dask

    values = np.arange(1, 129).reshape(64, 2).astype(dtype)
    graph = getattr(tt, f"reduce_{op}")(Tensor(da.from_array(values, chunks=(4, 2))), axis=0).array.__dask_graph__()
    steps = {name.rsplit("-", 1)[0]: [dask.get(dict(graph), key).dtype for key in graph.layers[name]] for name in graph.layers if name.startswith("typedtensor-")}
    assert steps.pop(f"typedtensor-{op}-aggregate") == [getattr(tt, f"reduce_{op}")(Tensor(values)).dtype.numpy_dtype]
    assert set(steps) == {f"typedtensor-{op}", f"typedtensor-{op}-partial"}  # the chunks, and a combining level
    assert {found for dtypes in steps.values() for found in dtypes} == {np.dtype(partial)}


@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("op", ["sum", "mean", "max", "prod"])
def test_a_single_chunk_along_the_reduced_axes_is_rounded_as_the_numpy_path(op: str, keepdims: bool) -> None:
    """Each result's one partial (the aggregate has nothing to combine) is still finished: divided, rounded, its dims dropped."""
    rng = np.random.default_rng(6)
    for values in [rng.integers(-3, 4, (6, 5, 4)).astype(np.int32), rng.standard_normal((6, 5, 4)).astype(np.float32)]:
        reduce = getattr(tt, f"reduce_{op}")
        expected = reduce(Tensor(values), axis=(1, 2), keepdims=keepdims)
        got = reduce(Tensor(da.from_array(values, chunks=(2, 5, 4))), axis=(1, 2), keepdims=keepdims)
        assert (got.dtype, got.shape, got.numpy().shape) == (expected.dtype, expected.shape, expected.shape)
        np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-6)


def _combining_levels(array: Any) -> list[int]:
    """How many tasks each combining level of a reduction's graph has, the first level first."""
    return sorted((len(layer) for name, layer in array.__dask_graph__().layers.items() if "-partial-" in name), reverse=True)


@pytest.mark.parametrize(
    ("chunks", "axis", "levels"),
    [
        ((64, 4), 0, [4]),  # 32 bytes of partials from a chunk of 1 KB: 16 a task, 64 -> 4 -> 1 (dask's own: 64 -> 16 -> 4 -> 1)
        ((64, 4), None, [4]),  # the axis of one chunk takes no share (dask's own: 2 a task, five levels)
        ((2, 1000), 0, [16, 4]),  # partials as large as a chunk: dask's 4 a task
    ],
)
def test_a_combining_task_takes_as_many_partials_as_one_chunk_holds(chunks: tuple[int, int], axis: int | None, levels: list[int]) -> None:
    values = np.random.default_rng(5).random((64 * chunks[0], chunks[1]), dtype=np.float32)
    got = tt.reduce_sum(Tensor(da.from_array(values, chunks=chunks)), axis=axis)
    assert _combining_levels(got.array) == levels
    np.testing.assert_allclose(got.numpy(), tt.reduce_sum(Tensor(values), axis=axis).numpy(), rtol=1e-6)


def test_a_configured_split_every_is_honoured() -> None:
    import dask

    lazy = da.from_array(np.ones((4096, 4), np.float32), chunks=(64, 4))
    with dask.config.set(split_every=4):
        assert _combining_levels(tt.reduce_sum(Tensor(lazy), axis=0).array) == _combining_levels(lazy.sum(axis=0)) == [16, 4]


class _Computes:
    """Counts the graphs dask computes (a dask callback)."""

    def __init__(self) -> None:
        self.count = 0

    def _start(self, dsk: object) -> None:
        self.count += 1


@pytest.fixture
def computes() -> Iterator[_Computes]:
    from dask.callbacks import Callback

    counter = _Computes()
    with Callback(start=counter._start):
        yield counter


@shapechecked
def normalised(x: Tensor[tt.float64, Rows, Columns]) -> Tensor[tt.float64, Rows]:
    return tt.logsumexp(tt.log_softmax(x * 2.0 - tt.reduce_mean(x, axis=0, keepdims=True), axis=1), axis=1)


def test_typed_code_and_its_checks_compute_nothing_until_asked(computes: _Computes) -> None:
    values = np.random.default_rng(1).standard_normal((6, 4))
    lazy = normalised(Tensor(da.from_array(values, chunks=2)))
    assert computes.count == 0 and lazy.shape == (6,) and lazy.dtype is tt.float64
    with pytest.raises(tt.ShapeError):
        normalised(Tensor(da.from_array(values.astype(np.float32), chunks=2)))  # type: ignore[arg-type]
    assert computes.count == 0
    np.testing.assert_allclose(lazy.numpy(), normalised(Tensor(values)).numpy(), rtol=1e-12)
    assert computes.count == 1


@shapechecked
def paired(x: Tensor[tt.float64, Rows, Columns], y: Tensor[tt.float64, Rows, Columns]) -> Tensor[tt.float64, Rows, Rows]:
    return (x + y) @ x.T


def test_unknown_sizes_match_a_named_dim_s_every_use_and_compute_nothing(computes: _Computes) -> None:
    """Boolean indexing leaves dask a row count of nan: it may be any size, so each use of
    ``Rows`` matches it (the result's [nan, nan] too); the known ``Columns`` is still checked."""
    values = np.random.default_rng(3).standard_normal((9, 4))
    lazy = da.from_array(values, chunks=(4, 4))
    selected = lazy[lazy[:, 0] > 0]
    assert selected.shape == (math.nan, 4) or math.isnan(selected.shape[0])
    result = paired(Tensor(selected), Tensor(selected * 2.0))
    assert computes.count == 0 and math.isnan(result.shape[0]) and result.dtype is tt.float64
    with pytest.raises(tt.ShapeError) as raised:
        paired(Tensor(selected), Tensor(selected[:, :3]))
    assert computes.count == 0
    assert "the size of dimension Columns is 3 which does not equal the existing value of 4" in str(raised.value)
    assert "bound:    Columns=4" in str(raised.value)  # an unknown size binds nothing
    plain = values[values[:, 0] > 0]
    np.testing.assert_allclose(result.numpy(), (plain * 3.0) @ plain.T, rtol=1e-12)


@shapechecked
def three(x: Tensor[tt.float64, Rows], y: Tensor[tt.float64, Rows], z: Tensor[tt.float64, Rows]) -> None:
    return None


def test_an_unknown_size_first_binds_nothing(computes: _Computes) -> None:
    """Sizes 3 and 4 for one named dim fail whichever argument brings the unknown size: the
    unknown one first bound ``Rows`` to a size that matched every later one."""
    lazy = da.ones(5, chunks=2)
    unknown, three_rows, four_rows = Tensor(lazy[lazy > 0]), Tensor(da.ones(3, chunks=2)), Tensor(da.ones(4, chunks=2))
    three(unknown, three_rows, three_rows)
    for args in [(unknown, three_rows, four_rows), (three_rows, unknown, four_rows), (three_rows, four_rows, unknown)]:
        with pytest.raises(tt.ShapeError, match="the size of dimension Rows is 4 which does not equal the existing value of 3"):
            three(*args)
    assert computes.count == 0


def test_reductions_over_unknown_sizes_stay_lazy_and_a_mean_says_why_it_cannot(computes: _Computes) -> None:
    values = np.random.default_rng(4).integers(-5, 6, (9, 4)).astype(np.int32)
    lazy = da.from_array(values, chunks=(4, 4))
    selected = Tensor(lazy[lazy[:, 0] > 0])
    sums, maxima = tt.reduce_sum(selected, axis=0), tt.reduce_max(selected, axis=1)
    column_means = tt.reduce_mean(selected, axis=1)  # over the known size
    assert computes.count == 0 and sums.shape == (4,) and math.isnan(maxima.shape[0])
    with pytest.raises(ValueError, match=r'^"reduce_mean" on Tensor\[int32, nan, 4\] over axes \(0,\): a dask array of unknown size \(nan\)'):
        tt.reduce_mean(selected, axis=0)
    plain = values[values[:, 0] > 0]
    np.testing.assert_array_equal(sums.numpy(), plain.sum(axis=0))
    np.testing.assert_array_equal(maxima.numpy(), plain.max(axis=1))
    np.testing.assert_allclose(column_means.numpy(), plain.mean(axis=1), rtol=1e-12)


def test_a_cluster_of_worker_processes_reduces_as_this_machine_does() -> None:
    distributed = pytest.importorskip("distributed", reason="distributed is not installed: the cluster test skips")
    values = np.random.default_rng(2).integers(0, 100, (40, 30)).astype(np.int64)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster):
            on_cluster = tt.reduce_sum(Tensor(da.from_array(values, chunks=(7, 9))), axis="^v").numpy()
    np.testing.assert_array_equal(on_cluster, tt.reduce_sum(Tensor(values), axis="^v").numpy())
