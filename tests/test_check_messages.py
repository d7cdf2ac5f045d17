"""The exact wording of ``ShapeError``: one test per line of each common message."""

import runpy
from pathlib import Path
from typing import Literal as L, TypeVar

import numpy as np
import pytest

import typedtensor as tt
from typedtensor import Dim, ShapeError, Tensor

N = TypeVar("N")


class Batch(Dim): ...


@tt.shapechecked
def linear(
    x: Tensor[tt.float32, Batch, L[784]], w: Tensor[tt.float32, L[784], N]
) -> Tensor[tt.float32, Batch, N]:
    return tt.Tensor(x.numpy() @ w.numpy())


@tt.shapechecked
def buggy(x: Tensor[tt.float32, Batch, L[784]], w: Tensor[tt.float32, L[784], N]) -> Tensor[tt.float32, Batch, N]:
    return tt.Tensor((x.numpy() @ w.numpy())[:, :1])  # the bug: keeps one column of N


def message_of(*args: object, fn: object = linear) -> str:
    with pytest.raises(ShapeError) as caught:
        fn(*args)
    return str(caught.value)


def x(*shape: int, dtype: type[tt.generic] = tt.float32) -> object:
    return tt.zeros(shape, dtype)


# A fixed size that does not match, in the first parameter.
def test_size_line_1_names_the_parameter_and_function() -> None:
    assert message_of(x(32, 783), x(784, 5)).splitlines()[0] == 'parameter "x" of linear() does not match its annotation'


def test_size_line_2_writes_the_annotation() -> None:
    assert message_of(x(32, 783), x(784, 5)).splitlines()[1] == "  expected: Tensor[float32, Batch, 784]"


def test_size_line_3_writes_the_actual_type() -> None:
    assert message_of(x(32, 783), x(784, 5)).splitlines()[2] == "  got:      Tensor[float32, 32, 783]"


def test_size_line_4_gives_jaxtypings_reason() -> None:
    reason = "  reason:   the dimension size 783 does not equal 784 as expected by the type hint"
    assert message_of(x(32, 783), x(784, 5)).splitlines()[3] == reason


def test_size_line_5_says_nothing_is_bound_yet() -> None:
    assert message_of(x(32, 783), x(784, 5)).splitlines()[4] == "  bound:    no dims yet"


# A wrong dtype in the second parameter, after the first bound Batch.
def test_dtype_line_1() -> None:
    lines = message_of(x(32, 784), x(784, 5, dtype=tt.float64)).splitlines()
    assert lines[0] == 'parameter "w" of linear() does not match its annotation'


def test_dtype_line_3_shows_the_actual_dtype() -> None:
    assert message_of(x(32, 784), x(784, 5, dtype=tt.float64)).splitlines()[2] == "  got:      Tensor[float64, 784, 5]"


def test_dtype_line_4_names_both_dtypes() -> None:
    assert message_of(x(32, 784), x(784, 5, dtype=tt.float64)).splitlines()[3] == "  reason:   dtype float64 is not float32"


def test_dtype_line_5_lists_the_dims_bound_so_far() -> None:
    assert message_of(x(32, 784), x(784, 5, dtype=tt.float64)).splitlines()[4] == "  bound:    Batch=32"


# The return value, after both parameters bound Batch and N.
def test_return_line_1_says_return_value() -> None:
    assert message_of(x(3, 784), x(784, 5), fn=buggy).splitlines()[0] == "return value of buggy() does not match its annotation"


def test_return_line_2() -> None:
    assert message_of(x(3, 784), x(784, 5), fn=buggy).splitlines()[1] == "  expected: Tensor[float32, Batch, N]"


def test_return_line_4_names_the_earlier_binding() -> None:
    reason = "  reason:   the size of dimension N is 1 which does not equal the existing value of 5"
    assert message_of(x(3, 784), x(784, 5), fn=buggy).splitlines()[3] == reason


def test_return_line_5_lists_every_binding() -> None:
    assert message_of(x(3, 784), x(784, 5), fn=buggy).splitlines()[4] == "  bound:    Batch=3, N=5"


# The wrong number of dims.
def test_rank_line_4() -> None:
    reason = "  reason:   this array has 1 dimensions, not the 2 expected by the type hint"
    assert message_of(x(784), x(784, 5)).splitlines()[3] == reason


# Not a Tensor at all.
def test_ndarray_line_3_names_the_type() -> None:
    assert message_of(np.zeros((32, 784)), x(784, 5)).splitlines()[2] == "  got:      numpy.ndarray"


def test_ndarray_line_4_says_how_to_wrap_it() -> None:
    reason = "  reason:   a numpy.ndarray is not a Tensor; wrap it with typedtensor.Tensor(array)"
    assert message_of(np.zeros((32, 784)), x(784, 5)).splitlines()[3] == reason


# check() outside any checked call.
def test_check_line_1_outside_a_call() -> None:
    with pytest.raises(ShapeError, match=r"^value passed to check\(\) does not match its annotation\n"):
        tt.check(x(2), Tensor[tt.int64, L[2]])


def test_check_line_4_lists_category_members() -> None:
    reason = "\n  reason:   dtype float32 is not one of the integer dtypes (int8, int16, int32, int64, uint8, uint16, uint32, uint64)\n"
    with pytest.raises(ShapeError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        tt.check(x(2), Tensor[tt.integer, L[2]])


def test_the_example_prints_its_failure(capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(Path(__file__).parents[1] / "examples" / "shapecheck.py"))
    assert capsys.readouterr().out.endswith("  bound:    Batch=32, Classes=10\n")
