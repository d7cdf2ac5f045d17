"""Typed reductions of dask arrays run typedtensor's reducer on every chunk and combine the
partials in dask's graph (SPEC 10): equal to the numpy path on every axis form, lazy until asked
(typed ops and checks compute nothing), and the same on a real cluster of worker processes.
"""

from __future__ import annotations

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
        assert any(layer.startswith(f"typedtensor-{'sum' if op == 'mean' else op}") for layer in got.array.__dask_graph__().layers) or axis == ()
        if values.dtype.kind == "i" and op != "mean":  # integers add up exactly in any order
            np.testing.assert_array_equal(got.numpy(), expected.numpy())
        else:  # float32 partials: each chunk's exact to its rounding, a few of them combined
            np.testing.assert_allclose(got.numpy(), expected.numpy(), rtol=1e-6, atol=1e-6)


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


def test_a_cluster_of_worker_processes_reduces_as_this_machine_does() -> None:
    distributed = pytest.importorskip("distributed", reason="distributed is not installed: the cluster test skips")
    values = np.random.default_rng(2).integers(0, 100, (40, 30)).astype(np.int64)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster):
            on_cluster = tt.reduce_sum(Tensor(da.from_array(values, chunks=(7, 9))), axis="^v").numpy()
    np.testing.assert_array_equal(on_cluster, tt.reduce_sum(Tensor(values), axis="^v").numpy())
