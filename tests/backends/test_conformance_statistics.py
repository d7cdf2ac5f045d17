"""The conformance suite of the statistics, the scans, the element reads and ``.at`` on every
installed array library: what each gives on numpy's arrays, the reference (SPEC 10)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import typedtensor as tt
from tests.backends.test_conformance import SHAPES, Op, assert_conforms, values
from tests.support.backends import Library

STATISTICS: dict[str, Op] = {
    **{
        f"{op} {axis} {keepdims} ddof={ddof}": (lambda x, op=op, axis=axis, keepdims=keepdims, ddof=ddof: getattr(tt, op)(x, axis, keepdims, ddof))
        for op in ["var", "std"]
        for axis, keepdims, ddof in [(None, False, 0), ((0, -1), True, 1)]
    },
    **{
        f"{op} {axis}": (lambda x, op=op, axis=axis: getattr(tt, op)(x, axis=axis))
        for op, axis in [("nansum", None), ("nanmean", 1), ("nanmax", (0, 1)), ("nanmin", -1)]
    },
    "x.var(axis=-1)": lambda x: x.var(axis=-1),
    "cumsum 0": lambda x: tt.cumsum(x, 0),
    "cumprod -1": lambda x: tt.cumprod(x, axis=-1),
    "at set": lambda x: x.at[0].set(True),
    "at add": lambda x: x.at[:, 1:].add(x[0, 1:]),
    "at set mask": lambda x: x.at[x > 1].set(tt.reduce_max(x)),
}
#: The nan-statistics over NaNs: a whole column of them, and one more.
WITH_NANS: dict[str, Op] = {
    f"{op} {axis}": (lambda x, op=op, axis=axis: getattr(tt, op)(_with_nans(x), axis=axis))
    for op in ["nansum", "nanmean", "nanmax", "nanmin"]
    for axis in [None, -1]
}


def _with_nans(x: tt.Tensor[tt.floating, int, int]) -> tt.Tensor[tt.floating, int, int]:
    column = tt.arange(x.shape[-1], like=x) == 0
    return tt.where(column | (x > 1.9), math.nan, x)


@pytest.mark.parametrize("dtype", [tt.bool_, tt.uint8, tt.float32], ids=lambda dtype: dtype.__name__)
@pytest.mark.parametrize("name", STATISTICS)
def test_statistics_scans_and_updates_conform(library: Library, name: str, dtype: type[tt.generic]) -> None:
    assert_conforms(library, STATISTICS[name], values(dtype, SHAPES[1], 12))  # rank 3: a kept dim beside the reduced ones


@pytest.mark.parametrize("dtype", [tt.float32, tt.float64], ids=lambda dtype: dtype.__name__)
@pytest.mark.parametrize("name", WITH_NANS)
def test_nan_statistics_skip_nans_on_every_library(library: Library, name: str, dtype: type[tt.generic]) -> None:
    assert_conforms(library, WITH_NANS[name], values(dtype, (3, 4), 13))


ERRORS: dict[str, Op] = {
    "var axis out of range": lambda x: tt.var(x, axis=(0, 2)),
    "nanmax of nothing": lambda x: tt.nanmax(x[:0], axis=0),
    "cumsum axis out of range": lambda x: tt.cumsum(x, -3),
    "at value that does not fit": lambda x: x.at[0].set(x),
    "at value of another dtype": lambda x: x.at[0].set(x.astype(tt.float64)[0]),
    # jax clamps an int index out of range (x[5] is x[2]) and drops an update there
    "index out of range": lambda x: x[1:, 4],
    "at set out of range": lambda x: x.at[5].set(1.0),
    "index out of range by a numpy int": lambda x: x[np.int64(1), np.int32(-5)],
    "at add negative out of range": lambda x: x.at[:, -5].add(1.0),
}


@pytest.mark.parametrize("name", ERRORS)
def test_errors_are_numpys(library: Library, name: str) -> None:
    assert_conforms(library, ERRORS[name], values(tt.float32, (3, 4), 14))


@pytest.mark.parametrize("dtype", [tt.bool_, tt.int32, tt.float32], ids=lambda dtype: dtype.__name__)
def test_element_reads_conform(library: Library, dtype: type[tt.generic]) -> None:
    array = values(dtype, (2, 3), 15)
    x = tt.Tensor(library.array(array))
    one = x[1, 2:]
    assert type(one.item()) is type(array[1, 2].item()) and one.item() == array[1, 2].item()
    assert (float(one), int(one), bool(one)) == (float(array[1, 2]), int(array[1, 2]), bool(array[1, 2]))
    with pytest.raises(tt.TensorShapeError, match=r'^"float" reads the element of a one-element tensor; Tensor\[.*, 2, 3\] has a dim of 2'):
        float(x)


def test_float32_statistics_need_no_64_bit_jax(jax_without_x64: object) -> None:
    """jax's default mode holds no int64 nor float64: a float32 statistic needs neither (the count
    of values present is summed in float32)."""
    import jax.numpy as jnp

    x = tt.Tensor(jnp.array([[1.0, math.nan, 3.0], [2.0, 4.0, math.nan]], dtype=jnp.float32))
    assert tt.nanmean(x, axis=1).numpy().tolist() == [2.0, 3.0]
    assert tt.nansum(x).dtype is tt.float32 and float(tt.nansum(x)) == 10.0
    assert tt.std(tt.nanmax(x, axis=0)).numpy() == np.float32(np.std([2.0, 4.0, 3.0]))
