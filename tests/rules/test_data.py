"""The rules of ``tensor`` on nested lists of Python scalars, against what numpy makes of the data."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, strategies as st

from typedtensor._shape_rules import UNKNOWN, NestedData, ScalarKind, data_dtype, data_shape

pytestmark = pytest.mark.floors

_KINDS: dict[type, ScalarKind] = {bool: "bool", int: "int", float: "float", complex: "complex"}
_SCALARS = st.one_of(st.booleans(), st.integers(-(2**63), 2**63 - 1), st.floats(allow_nan=False), st.complex_numbers(allow_nan=False))


def _filled(shape: tuple[int, ...]) -> st.SearchStrategy[Any]:
    """Nested lists of ``shape``, of any scalars."""
    if not shape:
        return _SCALARS
    return st.lists(_filled(shape[1:]), min_size=shape[0], max_size=shape[0])


_NESTED = st.recursive(st.lists(_SCALARS, max_size=3), lambda inner: st.lists(st.one_of(inner, _SCALARS), max_size=3), max_leaves=12)


def _kinds(data: list[Any]) -> list[NestedData]:
    """``data`` as the rules see it: each scalar by its kind."""
    return [_kinds(item) if isinstance(item, list) else _KINDS[type(item)] for item in data]


def _numpy(data: list[Any]) -> np.ndarray[Any, Any] | None:
    try:
        return np.array(data)
    except ValueError:  # ragged
        return None


@given(st.lists(st.integers(0, 3), min_size=1, max_size=3).map(tuple).flatmap(_filled))
def test_rectangular_data_has_numpys_shape_and_dtype(data: list[Any]) -> None:
    array = np.array(data)
    assert data_shape(_kinds(data)) == array.shape
    assert data_dtype(_kinds(data)) == array.dtype.name.replace("bool", "bool_")


@given(_NESTED)
def test_data_numpy_refuses_is_ragged(data: list[Any]) -> None:
    array = _numpy(data)
    assert data_shape(_kinds(data)) == (None if array is None or array.dtype == object else array.shape)


def test_a_scalar_of_unknown_kind_gives_an_unknown_dtype() -> None:
    assert data_dtype([["float", UNKNOWN]]) is UNKNOWN
    assert data_shape([["float", UNKNOWN]]) == (1, 2)
    assert (data_shape([]), data_dtype([])) == ((0,), "float64")
    assert (data_shape([[], []]), data_dtype([[], []])) == ((2, 0), "float64")
