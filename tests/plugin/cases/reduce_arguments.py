"""``axis`` and ``keepdims`` read from types: ``Final`` names, and what stays known without literals."""

import enum
from collections.abc import Sequence
from typing import Any, Final, Literal as L, assert_type

import numpy as np

import typedtensor as tt
from typedtensor import Tensor, float32

x: Tensor[float32, L[2], L[3], L[4]] = tt.zeros((2, 3, 4), tt.float32)

FIRST: Final = 0
LAST: Final = -1
PAIR: Final = (0, 2)
REPEATED: Final = (2, 2, -1)
NESTED_FINALS: Final = (FIRST, LAST)
SELECTION: Final = "^v^"
KEEP: Final = True
DROP: Final = False
LITERAL_AXIS: L[1] = 1
LITERAL_SELECTION: L["vv^"] = "vv^"

assert_type(x.sum(axis=FIRST), Tensor[float32, L[3], L[4]])
assert_type(x.sum(axis=LAST), Tensor[float32, L[2], L[3]])
assert_type(x.sum(axis=PAIR), Tensor[float32, L[3]])
assert_type(x.sum(axis=REPEATED), Tensor[float32, L[2], L[3]])
assert_type(x.sum(axis=NESTED_FINALS), Tensor[float32, L[3]])
assert_type(x.sum(axis=(FIRST, 1)), Tensor[float32, L[4]])
assert_type(x.sum(axis=[FIRST, LAST]), Tensor[float32, L[3]])
assert_type(x.sum(axis=SELECTION), Tensor[float32, L[3]])
assert_type(tt.reduce_sum(x, axis=SELECTION), Tensor[float32, L[3]])
assert_type(x.sum(axis=1, keepdims=KEEP), Tensor[float32, L[2], L[1], L[4]])
assert_type(x.sum(axis=1, keepdims=DROP), Tensor[float32, L[2], L[4]])
assert_type(x.sum(axis=LITERAL_AXIS), Tensor[float32, L[2], L[4]])
assert_type(x.sum(axis=LITERAL_SELECTION), Tensor[float32, L[2], L[3]])
assert_type(tt.reduce_mean(x, PAIR, KEEP), Tensor[float32, L[1], L[3], L[1]])


def not_literal(
    k: int,
    ks: tuple[int, ...],
    pair: tuple[int, int],
    ints: list[int],
    n: np.int64,
    s: str,
    keep: bool,
    anything: Any,
    any_keep: Any,
) -> None:
    """Arguments only known at run time are never errors; what is still known stays known."""
    assert_type(x.sum(axis=k), Tensor[float32, Any, Any])  # one int axis: the rank drops by one
    assert_type(x.sum(axis=k, keepdims=True), Tensor[float32, Any, Any, Any])  # ... or stays
    assert_type(x.sum(axis=(k,)), Tensor[float32, Any, Any])
    assert_type(x.sum(axis=(0, k), keepdims=True), Tensor[float32, L[1], Any, Any])
    assert_type(x.sum(axis=(0, k)), Tensor[float32, *tuple[Any, ...]])
    assert_type(x.sum(axis=ks), Tensor[float32, *tuple[Any, ...]])
    assert_type(x.sum(axis=ks, keepdims=True), Tensor[float32, Any, Any, Any])
    assert_type(x.sum(axis=pair), Tensor[float32, *tuple[Any, ...]])
    assert_type(x.sum(axis=ints), Tensor[float32, *tuple[Any, ...]])
    assert_type(x.sum(axis=n), Tensor[float32, Any, Any])  # a numpy integer is one axis
    assert_type(x.sum(axis=(0, n), keepdims=True), Tensor[float32, L[1], Any, Any])
    assert_type(x.sum(axis=[n]), Tensor[float32, Any, Any])
    assert_type(x.sum(axis=s), Tensor[float32, *tuple[Any, ...]])
    assert_type(x.sum(axis=anything), Tensor[float32, *tuple[Any, ...]])
    assert_type(x.sum(axis=[0, k]), Tensor[float32, *tuple[Any, ...]])
    assert_type(x.sum(axis=(), keepdims=keep), Tensor[float32, L[2], L[3], L[4]])  # nothing reduced
    assert_type(x.sum(axis=1, keepdims=keep), Tensor[float32, *tuple[Any, ...]])
    assert_type(x.sum(axis=k, keepdims=keep), Tensor[float32, *tuple[Any, ...]])  # rank 2 or 3
    assert_type(x.sum(axis=1, keepdims=any_keep), Tensor[float32, *tuple[Any, ...]])
    assert_type(tt.reduce_max(x, axis=k), Tensor[float32, Any, Any])
    assert_type(tt.reduce_any(x, axis=s), Tensor[tt.bool_, *tuple[Any, ...]])


class Axes(enum.IntEnum):
    vv = 1  # a name that reads as a Selection
    BATCH = 0


class Selections(enum.StrEnum):
    ROWS = "^vv"


FINAL_MEMBER: Final = Axes.vv
LITERAL_MEMBER: L[Selections.ROWS] = Selections.ROWS

# mypy's literal of an enum member holds the member's name, not its value: an IntEnum member is
# some int and a StrEnum member some str, unknown like any other non-literal argument.
assert_type(x.sum(axis=Axes.vv), Tensor[float32, Any, Any])
assert_type(x.sum(axis=Axes.BATCH, keepdims=True), Tensor[float32, Any, Any, Any])
assert_type(x.sum(axis=(Axes.BATCH, 1), keepdims=True), Tensor[float32, Any, L[1], Any])
assert_type(x.sum(axis=[Axes.vv]), Tensor[float32, Any, Any])
assert_type(x.sum(axis=FINAL_MEMBER), Tensor[float32, Any, Any])
assert_type(x.sum(axis=Selections.ROWS), Tensor[float32, *tuple[Any, ...]])
assert_type(x.sum(axis=LITERAL_MEMBER), Tensor[float32, *tuple[Any, ...]])
assert_type(tt.reduce_sum(x, axis=Selections.ROWS), Tensor[float32, *tuple[Any, ...]])


def keyword_unpacking(options: dict[str, Any], axes: tuple[int]) -> None:
    """``**kwargs`` and ``*args`` may fill any parameter: the dims are unknown, the dtype as declared."""
    assert_type(x.sum(**options), Tensor[float32, *tuple[Any, ...]])
    assert_type(x.sum(*axes), Tensor[float32, *tuple[Any, ...]])
    assert_type(tt.reduce_max(x, **options), Tensor[float32, *tuple[Any, ...]])


def not_an_axis(seq: Sequence[int]) -> None:
    """Any ``Sequence`` is not an axis: it may be a ``range`` or ``bytes``, which the runtime refuses."""
    x.sum(axis=seq)  # type: ignore[call-overload]


not_literal(1, (0,), (0, 1), [2], np.int64(1), "^vv", False, 0, True)
keyword_unpacking({"axis": 0}, (1,))
