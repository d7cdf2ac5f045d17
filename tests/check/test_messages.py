"""The exact wording of ``ShapeError``: one test per line of each common message."""

import re
import runpy
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Literal as L, TypeVar

import numpy as np
import pytest

import typedtensor as tt
from tests.support import PROJECT
from typedtensor import Dim, ShapeError, Tensor

N = TypeVar("N")


class Batch(Dim): ...


@tt.shapechecked
def linear(x: Tensor[tt.float32, Batch, L[784]], w: Tensor[tt.float32, L[784], N]) -> Tensor[tt.float32, Batch, N]:
    return tt.Tensor((x.numpy() @ w.numpy())[:, :1])  # the bug the return-value case catches: one column of N


def z(*shape: int, dtype: type[tt.generic] = tt.float32) -> object:
    return tt.zeros(shape, dtype)


#: Each common failure, as a call that raises it.
CALLS: dict[str, Callable[[], object]] = {
    "size": lambda: linear(z(32, 783), z(784, 5)),
    "dtype": lambda: linear(z(32, 784), z(784, 5, dtype=tt.float64)),
    "return": lambda: linear(z(3, 784), z(784, 5)),
    "rank": lambda: linear(z(784), z(784, 5)),
    "ndarray": lambda: linear(np.zeros((32, 784)), z(784, 5)),
    "check": lambda: tt.check(z(2), Tensor[tt.integer, L[2]]),
    "within": lambda: tt.check(z(2, 3), Tensor[tt.float32, Batch, Batch]),
}

LINES = [
    ("size", 'parameter "x" of linear() does not match its annotation'),
    ("size", "  expected: Tensor[float32, Batch, 784]"),
    ("size", "  got:      Tensor[float32, 32, 783]"),
    ("size", "  reason:   the dimension size 783 does not equal 784 as expected by the type hint"),
    ("size", "  bound:    Batch=32"),  # bound by x itself before its 783 failed
    ("dtype", 'parameter "w" of linear() does not match its annotation'),
    ("dtype", "  expected: Tensor[float32, 784, N]"),
    ("dtype", "  got:      Tensor[float64, 784, 5]"),
    ("dtype", "  reason:   dtype float64 is not float32"),
    ("dtype", "  bound:    Batch=32"),
    ("return", "  expected: Tensor[float32, Batch, N]"),
    ("return", "  got:      Tensor[float32, 3, 1]"),
    ("return", "  reason:   the size of dimension N is 1 which does not equal the existing value of 5"),
    ("return", "  bound:    Batch=3, N=5"),
    ("rank", "  reason:   this array has 1 dimensions, not the 2 expected by the type hint"),
    ("ndarray", "  got:      numpy.ndarray"),
    ("ndarray", "  reason:   a numpy.ndarray is not a Tensor; wrap it with typedtensor.Tensor(array)"),
    ("check", "value passed to check() does not match its annotation"),
    ("check", "  expected: Tensor[integer, 2]"),
    ("check", "  reason:   dtype float32 is not one of the integer dtypes (int8, int16, int32, int64, uint8, uint16, uint32, uint64)"),
    ("within", "  reason:   the size of dimension Batch is 3 which does not equal the existing value of 2"),
    ("within", "  bound:    Batch=2"),
]


@pytest.mark.parametrize(("case", "line"), LINES, ids=[f"{case}-{line.split(':')[0].strip()}" for case, line in LINES])
def test_message_line(case: str, line: str) -> None:
    with pytest.raises(ShapeError, match=f"(?m)^{re.escape(line)}$"):
        CALLS[case]()


def test_a_return_value_error_names_where_the_function_is() -> None:
    line = linear.__wrapped__.__code__.co_firstlineno  # type: ignore[attr-defined]
    where = re.escape(f"return value of linear() (defined at {__file__}:{line}) does not match its annotation")
    with pytest.raises(ShapeError, match=f"^{where}\n"):
        CALLS["return"]()


@pytest.mark.parametrize("case", ["size", "return", "check"])
def test_the_traceback_is_the_call_site_and_one_checking_frame(case: str) -> None:
    """The checker's own frames (one per parameter, per check) would bury the call site."""
    with pytest.raises(ShapeError) as caught:
        CALLS[case]()
    frames = [(Path(frame.filename).name, frame.name) for frame in traceback.extract_tb(caught.value.__traceback__)]
    assert frames[1:] == [("test_messages.py", "<lambda>"), ("decorator.py", "checked" if case != "check" else "check")]


def test_a_message_has_five_lines() -> None:
    with pytest.raises(ShapeError) as caught:
        CALLS["size"]()
    assert len(str(caught.value).splitlines()) == 5


def test_the_example_prints_its_failure(capsys: pytest.CaptureFixture[str]) -> None:
    runpy.run_path(str(PROJECT / "examples" / "shapecheck.py"))
    assert capsys.readouterr().out.endswith("  bound:    Batch=32, Classes=10\n")
