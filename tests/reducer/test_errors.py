"""Bad input to a reduction gets an error naming the problem and the shape: one test per message."""

from __future__ import annotations

import re

import numpy as np
import pytest

import typedtensor as tt

X = tt.zeros((32, 256, 5, 128), tt.float32)
SHAPE = re.escape("Tensor[float32, 32, 256, 5, 128]")


def test_one_axis_out_of_range() -> None:
    with pytest.raises(tt.AxisError, match=rf'^Axis 4 is out of range for "reduce_sum" on {SHAPE} \(valid axes are -4 to 3\)$'):
        tt.reduce_sum(X, axis=4)


def test_every_axis_out_of_range_is_named_in_order() -> None:
    with pytest.raises(tt.AxisError, match=rf'^Axes 7, -5 are out of range for "mean" on {SHAPE} \(valid axes are -4 to 3\)$'):
        X.mean(axis=[1, 7, -5, 3])


def test_a_rank_0_tensor_has_no_axes() -> None:
    with pytest.raises(tt.AxisError, match=r'^Axis 0 is out of range for "reduce_max" on Tensor\[float64\] \(a rank-0 tensor has no axes\)$'):
        tt.reduce_max(tt.tensor(1.0), axis=0)


def test_axis_error_is_a_value_error_and_an_index_error() -> None:
    assert issubclass(tt.AxisError, ValueError) and issubclass(tt.AxisError, IndexError)
    assert issubclass(tt.SelectionError, ValueError)


def test_selection_of_the_wrong_length() -> None:
    with pytest.raises(tt.SelectionError, match=rf'^Selection "\^v" for "reduce_sum" has 2 characters but {SHAPE} has rank 4 \(one character per dim\)$'):
        tt.reduce_sum(X, axis="^v")


def test_selection_with_a_foreign_character() -> None:
    with pytest.raises(tt.SelectionError, match=rf'^Selection "\^x\^1" for "sum" on {SHAPE} has invalid characters "1", "x" \(use "\^" to reduce a dim and "v" to keep it\)$'):
        X.sum(axis="^x^1")


@pytest.mark.parametrize("axis", [1.5, True, (0, 1.0), ((0, 1),), {0, 1}, "^v^v".encode(), np.array([0.5])])
def test_an_axis_of_the_wrong_kind(axis: object) -> None:
    message = r'^"reduce_prod": axis must be None, an int, a tuple or list of ints, or a Selection string such as "\^v\^"; got '
    with pytest.raises(TypeError, match=message):
        tt.reduce_prod(X, axis=axis)  # type: ignore[arg-type]


@pytest.mark.parametrize(("axis", "got"), [(True, "bool"), (np.True_, "bool"), ((0, True), "a bool in a tuple"), ([False], "a bool in a list")])
def test_a_bool_axis_is_named_as_the_plugin_names_it(axis: object, got: str) -> None:
    """The plugin sees only types (``tuple[int, bool]``): both say what kind of axis holds a bool."""
    message = '"sum": axis must be None, an int, a tuple or list of ints, or a Selection string such as "^v^"; got ' + got
    with pytest.raises(TypeError) as raised:
        X.sum(axis=axis)  # type: ignore[arg-type]
    assert str(raised.value) == message


def test_numpy_integers_are_axes() -> None:
    assert X.sum(axis=(np.int64(1), np.int8(-1))).shape == (32, 5)
    assert X.sum(axis=np.int32(0)).shape == (256, 5, 128)


def test_keepdims_must_be_a_bool() -> None:
    with pytest.raises(TypeError, match=r'^"max": keepdims must be True or False, got str \'yes\'$'):
        X.max(axis=0, keepdims="yes")  # type: ignore[arg-type]


def test_a_reduction_of_something_else_than_a_tensor() -> None:
    with pytest.raises(TypeError, match=r'^"reduce_sum": expected a typedtensor.Tensor, got ndarray; wrap it with typedtensor.Tensor\(array\)$'):
        tt.reduce_sum(np.zeros(3))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r'^"reduce_max": expected a typedtensor.Tensor, got list; make one with typedtensor.tensor\(data\)$'):
        tt.reduce_max([1, 2])  # type: ignore[arg-type]
