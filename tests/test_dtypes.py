"""The dtype markers (``typedtensor._dtypes``): each concrete marker and its numpy dtype map to each
other both ways, the markers sit where numpy's scalar types do, and ``type_text`` writes a tensor's
type as messages do."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from hypothesis import given, strategies as st
from hypothesis.extra import numpy as hnp

import typedtensor as tt
from typedtensor._dtypes import CONCRETE_DTYPES, marker_named, marker_of, numpy_dtype_of, type_text

#: numpy's names of the dtypes typedtensor carries; each marker is named alike (``bool`` as ``bool_``).
NUMPY_NAMES = [
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128",
]
CATEGORIES = [
    tt.generic, tt.number, tt.integer, tt.signedinteger, tt.unsignedinteger, tt.inexact, tt.floating, tt.complexfloating
]
SUPPORTED = ", ".join(name if name != "bool" else "bool_" for name in NUMPY_NAMES)


def marker_name(dtype: np.dtype[Any]) -> str:
    return "bool_" if dtype == np.bool_ else dtype.name


@pytest.mark.parametrize("name", NUMPY_NAMES)
def test_a_numpy_dtype_and_its_marker_map_to_each_other(name: str) -> None:
    dtype = np.dtype(name)
    marker = marker_of(dtype)
    assert marker.__name__ == marker_name(dtype)
    assert numpy_dtype_of(marker) == dtype and marker_named(marker.__name__) is marker


def test_the_concrete_markers_are_those_of_numpys_dtypes() -> None:
    assert [marker.__name__ for marker in CONCRETE_DTYPES] == [marker_name(np.dtype(name)) for name in NUMPY_NAMES]


@pytest.mark.parametrize("marker", CONCRETE_DTYPES, ids=lambda marker: marker.__name__)
@pytest.mark.parametrize("category", CATEGORIES, ids=lambda category: category.__name__)
def test_a_marker_is_in_a_category_as_its_numpy_type_is(marker: type[tt.generic], category: type[tt.generic]) -> None:
    assert issubclass(marker, category) == issubclass(numpy_dtype_of(marker).type, getattr(np, category.__name__))


@pytest.mark.parametrize(
    ("dtype", "shown"),
    [(np.dtype("O"), "object"), (np.dtype("U3"), "<U3"), (np.dtype("M8[s]"), "datetime64[s]")],
)
def test_a_dtype_typedtensor_does_not_carry_is_refused_with_the_supported_list(dtype: np.dtype[Any], shown: str) -> None:
    message = f"dtype {shown} is not supported by typedtensor (supported: {SUPPORTED})"
    with pytest.raises(TypeError, match=f"^{re.escape(message)}$"):
        marker_of(dtype)


def test_a_byte_swapped_dtype_is_refused_as_such() -> None:
    swapped = np.dtype(np.float32).newbyteorder()
    message = f"dtype {swapped} is in non-native byte order; typedtensor.tensor(data) converts it"
    with pytest.raises(TypeError, match=f"^{re.escape(message)}$"):
        marker_of(swapped)


@pytest.mark.parametrize("marker", [tt.floating, tt.generic, np.float32, "float32"], ids=repr)
def test_only_a_concrete_marker_has_a_numpy_dtype(marker: Any) -> None:
    message = f"{marker!r} is not a concrete typedtensor dtype (one of: {SUPPORTED})"
    with pytest.raises(TypeError, match=f"^{re.escape(message)}$"):
        numpy_dtype_of(marker)


@given(hnp.arrays(st.sampled_from([np.dtype(name) for name in NUMPY_NAMES]), hnp.array_shapes(min_dims=0, max_side=3)))
def test_type_text_writes_the_dtype_then_the_dims(array: np.ndarray[Any, Any]) -> None:
    expected = "Tensor[" + ", ".join([marker_name(array.dtype), *map(str, array.shape)]) + "]"
    assert type_text(array) == expected
