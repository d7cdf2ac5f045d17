"""The rules of sort/top_k and of typedtensor.linalg: on symbolic dims (rigid named dims), and with
ints against numpy's own shapes."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra import numpy as hnp

from tests.rules.test_rigid_dims import RIGID
from typedtensor._shape_rules import (
    INT_DIMS,
    UNKNOWN,
    AxisOutOfRange,
    BroadcastMismatch,
    DimsMayDiffer,
    KBeyondAxis,
    MayNotBeSquare,
    NotAMatrix,
    NotSquare,
    Problem,
    Shape,
    SolveMismatch,
    linalg_dtype,
    qr_shapes,
    solve_shape,
    sort_shape,
    square_shapes,
    svd_shapes,
    top_k_shape,
)

S = Shape[str, str]


@pytest.mark.parametrize(("shape", "k", "axis", "expected"), [
    (S(("3", "4")), 2, -1, S(("3", "2"))),
    (S(("B", "4")), 5, 0, S(("5", "4"))),  # a named axis: the run checks k (docs/ops.md)
    (S(("3", "4")), UNKNOWN, 0, S((UNKNOWN, "4"))),
    (S(("2",), "Ts", ("5",)), 3, -1, S(("2",), "Ts", ("3",))),
    (S(("2",), "Ts", ("5",)), 1, 1, S(("2",), UNKNOWN)),  # the axis may be in the run
    (S(("2",), "Ts", ("5",)), 1, -2, S((), UNKNOWN, ("5",))),
    (S(("3", "4")), 1, UNKNOWN, S((UNKNOWN, UNKNOWN))),
    (S(("3", "4")), 5, -1, KBeyondAxis(5, 4, -1)),
    (S(("3", "4")), -1, 0, KBeyondAxis(-1, None, 0)),
    (S(("3", "4")), 1, 2, AxisOutOfRange((2,), 2)),
])
def test_top_k_shape(shape: S, k: Any, axis: Any, expected: S | Problem) -> None:
    assert top_k_shape(shape, k, axis, RIGID) == expected


def test_sort_keeps_the_shape_once_the_axis_is_in_range() -> None:
    assert sort_shape(S(("B", "4")), 0) == S(("B", "4"))
    assert sort_shape(S(()), -1) == AxisOutOfRange((-1,), 0)


@pytest.mark.parametrize(("op", "shape", "expected"), [
    ("inv", S(("B", "3", "3")), (S(("B", "3", "3")),)),
    ("det", S(("B", "N", "N")), (S(("B",)),)),
    ("eigh", S(("N", "N")), (S(("N",)), S(("N", "N")))),
    ("eigh", S((), "Ts", ("N",)), (S((), UNKNOWN), S((), "Ts", ("N",)))),  # the matrix is hidden in the run
    ("cholesky", S(("B", UNKNOWN, "N")), (S(("B", "N", "N")),)),
    ("inv", S(("3", "4")), NotSquare((3, 4))),
    ("det", S(("3",)), NotAMatrix(1)),
    ("eigh", S(("N", "M")), None),
])
def test_square_shapes(op: str, shape: S, expected: Any) -> None:
    if expected is None:  # two named dims: tensor-dim
        problem = square_shapes(op, shape, RIGID)
        assert isinstance(problem, MayNotBeSquare) and problem.code == "tensor-dim"
        assert problem.message(op, ["Tensor[float32, N, M]"]).endswith("N and M may differ: N and M are named dims")
        return
    assert square_shapes(op, shape, RIGID) == expected


def test_svd_and_qr_know_min_on_literals_and_on_one_dim_twice() -> None:
    assert svd_shapes(S(("B", "5", "3")), False, RIGID) == (S(("B", "5", "3")), S(("B", "3")), S(("B", "3", "3")))
    assert svd_shapes(S(("N", "N")), False, RIGID) == (S(("N", "N")), S(("N",)), S(("N", "N")))
    assert svd_shapes(S(("N", "3")), False, RIGID) == (S(("N", UNKNOWN)), S((UNKNOWN,)), S((UNKNOWN, "3")))
    assert svd_shapes(S(("N", "3")), True, RIGID) == (S(("N", "N")), S((UNKNOWN,)), S(("3", "3")))
    assert svd_shapes(S(("N", "3")), UNKNOWN, RIGID) == (S(("N", UNKNOWN)), S((UNKNOWN,)), S((UNKNOWN, "3")))
    assert qr_shapes(S(("2", "6")), RIGID) == (S(("2", "2")), S(("2", "6")))
    assert qr_shapes(S(("6",)), RIGID) == NotAMatrix(1)


@pytest.mark.parametrize(("a", "b", "expected"), [
    (S(("4", "3", "3")), S(("3",)), S(("4", "3"))),
    (S(("3", "3")), S(("B", "3", "2")), S(("B", "3", "2"))),
    (S(("4", "3", "3")), S(("1", "3", "2")), S(("4", "3", "2"))),
    (S(("3", "3")), S(("2",)), SolveMismatch((3, 2))),
    (S(("3", "3")), S(()), NotAMatrix(0, needed=1, position=1)),
    (S(("2", "3", "3")), S(("4", "3", "1")), BroadcastMismatch((2, 4), -3)),
    (S(("3", "3")), S((), "Ts", ("3",)), S((), UNKNOWN)),  # b may be a vector or matrices
])
def test_solve_shape(a: S, b: S, expected: S | Problem) -> None:
    assert solve_shape(a, b, RIGID) == expected


def test_solve_with_rows_that_may_differ_is_tensor_dim() -> None:
    problem = solve_shape(S(("3", "3")), S(("N",)), RIGID)
    assert isinstance(problem, DimsMayDiffer) and problem.code == "tensor-dim"


def test_linalg_dtypes() -> None:
    assert [linalg_dtype(name) for name in ("float16", "float32", "floating", "int8", "uint64", "bool_", "integer", "number")] == [
        "float16", "float32", "floating", "float64", "float64", "float64", "float64", "floating"]
    assert isinstance(linalg_dtype("complex64"), Problem) and isinstance(linalg_dtype("complexfloating"), Problem)


@settings(max_examples=40, deadline=None)
@given(hnp.array_shapes(min_dims=2, max_dims=4, min_side=0, max_side=4), st.booleans())
def test_svd_and_qr_shapes_are_numpys(shape: tuple[int, ...], full: bool) -> None:
    array = np.zeros(shape)
    u, s, vh = svd_shapes(Shape[int, None](shape), full, INT_DIMS)  # type: ignore[misc]
    assert (u.prefix, s.prefix, vh.prefix) == tuple(part.shape for part in np.linalg.svd(array, full_matrices=full))
    q, r = qr_shapes(Shape[int, None](shape), INT_DIMS)  # type: ignore[misc]
    assert (q.prefix, r.prefix) == tuple(part.shape for part in np.linalg.qr(array))
