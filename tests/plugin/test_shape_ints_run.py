"""The dims-as-ints snippets of ``cases/shape_ints.py`` and ``declared/shape_ints_declared.py`` run.

The static cases say these lines type-check; here the same functions run on tensors of every
size their dims may take, under ``@shapechecked`` (so a result's dims are checked against the
annotations too), and the ints read from ``x.shape`` are compared with numpy's.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, strategies as st

import typedtensor as tt

CASES = importlib.import_module("tests.plugin.cases.shape_ints")
DECLARED = importlib.import_module("tests.plugin.declared.shape_ints_declared")

pytestmark = pytest.mark.floors

SIZES = st.integers(0, 9)


def _tensor(*shape: int) -> tt.Tensor[tt.float32, *tuple[Any, ...]]:
    return tt.Tensor(np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape))


@given(SIZES, SIZES)
def test_every_dim_kind_runs_checked(rows: int, columns: int) -> None:
    """Each case function runs checked, for any rows (a Batch, T, N or Any) and columns."""
    wide = _tensor(rows, columns)
    for function, argument in [
        (CASES.named_dims, _tensor(rows, 6)),
        (CASES.generic_dims, wide),
        (CASES.int_bounded_dims, _tensor(rows, 3)),
        (CASES.unknown_dims, wide),
        (DECLARED.named_dims, _tensor(rows, 6)),
        (DECLARED.int_bounded_dims, wide),
        (DECLARED.unknown_dims, wide),
        (DECLARED.unbounded_dims, _tensor(rows)),
    ]:
        tt.shapechecked(function)(argument)
    CASES.literal_dims(_tensor(4, 6))
    DECLARED.literal_dims(_tensor(4, 6))


@given(SIZES.filter(bool), SIZES)
def test_dims_passed_as_sizes_keep_their_dims(rows: int, columns: int) -> None:
    """``generic_dims_stay_dims`` broadcasts to ``(x.shape[0], x.shape[1])`` and indexes row -1."""
    tt.shapechecked(CASES.generic_dims_stay_dims)(_tensor(rows, columns), _tensor(columns))
    assert tt.shapechecked(CASES.generic_dims)(_tensor(rows, columns)).shape == (rows, 3)
    encoder = CASES.Encoder(CASES.Sequence(_tensor(rows, 4).numpy()))
    np.testing.assert_array_equal(encoder.positions().numpy(), np.arange(rows))
    assert encoder.half == rows // 2


@given(st.lists(SIZES, max_size=3))
def test_an_item_of_a_run_is_an_int(run: list[int]) -> None:
    shape = (2, *run, 3)
    tt.shapechecked(CASES.run_dims)(_tensor(*shape))
    tt.shapechecked(DECLARED.run_dims)(_tensor(*shape))
    assert all(type(size) is int for size in _tensor(*shape).shape)


@pytest.mark.parametrize(
    ("snippet", "reference"),
    [
        (lambda x: x.shape[0] // 2, lambda a: a.shape[0] // 2),
        (lambda x: x.shape[0] * x.shape[1], lambda a: a.shape[0] * a.shape[1]),
        (lambda x: tt.arange(0, x.shape[0], 2).numpy(), lambda a: np.arange(0, a.shape[0], 2)),
        (lambda x: np.arange(x.shape[0]), lambda a: np.arange(a.shape[0])),
        (lambda x: list(range(x.shape[1])), lambda a: list(range(a.shape[1]))),
        (lambda x: x.reshape(x.shape[0] * x.shape[1]).numpy(), lambda a: a.reshape(a.shape[0] * a.shape[1])),
        (lambda x: tt.zeros((x.shape[0], 3)).numpy(), lambda a: np.zeros((a.shape[0], 3), np.float32)),
    ],
)
@given(rows=SIZES, columns=SIZES)
def test_snippets_agree_with_numpy(snippet: Callable[[Any], object], reference: Callable[[Any], object], rows: int, columns: int) -> None:
    x = _tensor(rows, columns)
    np.testing.assert_array_equal(np.asarray(snippet(x)), np.asarray(reference(x.numpy())))
