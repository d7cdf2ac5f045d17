"""The plain arguments the ops share (``typedtensor._arguments``): what passes as an int and as an
``axis``, what each becomes, and the exact message of each refusal."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pytest
from hypothesis import given, strategies as st

from typedtensor._arguments import axis_key, int_argument, is_int

NUMPY_INTEGERS = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]

#: A Python int or a numpy integer of the same value (one that fits the numpy type).
ints = st.integers(0, 127).flatmap(lambda n: st.sampled_from([n, -n, *(t(n) for t in NUMPY_INTEGERS)]))

REPS_MUST_BE = '"tile": reps must be an int, got '
AXIS_MUST_BE = '"sum": axis must be None, an int, a tuple or list of ints, or a Selection string such as "^v^"; got '


@given(st.one_of(st.integers(), ints))
def test_ints_and_numpy_integers_are_ints(value: object) -> None:
    assert is_int(value)


@pytest.mark.parametrize("value", [True, False, np.True_, 1.0, np.float32(1), 1j, "1", None, (1,), np.array(1)])
def test_bools_floats_strings_and_arrays_are_not_ints(value: object) -> None:
    assert not is_int(value)


@given(ints)
def test_an_int_argument_is_a_plain_int_of_the_same_value(value: Any) -> None:
    result = int_argument("tile", "reps", value)
    assert type(result) is int and result == int(value)


@pytest.mark.parametrize(
    ("value", "got"),
    [
        (2.0, "float 2.0"),
        (True, "bool True"),
        (np.True_, "bool np.True_"),
        ("3", "str '3'"),
        (None, "NoneType None"),
        (np.float32(2), "float32 np.float32(2.0)"),
    ],
)
def test_an_int_argument_refuses_anything_else_naming_the_op_and_the_argument(value: object, got: str) -> None:
    with pytest.raises(TypeError, match=f"^{re.escape(REPS_MUST_BE + got)}$"):
        int_argument("tile", "reps", value)


@pytest.mark.parametrize("axis", [None, 0, -3, "^v^", "", "not checked here"])
def test_none_an_int_and_a_string_are_their_own_keys(axis: object) -> None:
    assert axis_key(axis, "sum") == axis


@given(ints)
def test_a_numpy_integer_axis_is_a_plain_int(axis: Any) -> None:
    key = axis_key(axis, "sum")
    assert type(key) is int and key == int(axis)


@given(st.lists(ints, max_size=5), st.sampled_from([tuple, list]))
def test_a_tuple_or_list_of_ints_is_a_tuple_of_plain_ints(axes: list[Any], container: type) -> None:
    key = axis_key(container(axes), "sum")
    assert type(key) is tuple and [type(axis) for axis in key] == [int] * len(axes)
    assert key == tuple(int(axis) for axis in axes)
    hash(key)  # it keys the reducer's plan cache


@pytest.mark.parametrize(
    ("axis", "got"),
    [
        (True, "bool"),
        (np.False_, "bool"),
        ((1, True), "a bool in a tuple"),
        ([np.True_], "a bool in a list"),
        (1.0, "float 1.0"),
        ((1.0,), "tuple (1.0,)"),
        ({0}, "set {0}"),
        (np.float32(1), "float32 np.float32(1.0)"),
    ],
)
def test_a_refused_axis_says_what_axis_may_be_and_what_it_got(axis: object, got: str) -> None:
    with pytest.raises(TypeError, match=f"^{re.escape(AXIS_MUST_BE + got)}$"):
        axis_key(axis, "sum")
