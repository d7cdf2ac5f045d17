"""Runtime checks of dim expressions (SPEC §9): each is computed from the dims the call has bound,
and a ``Div`` that does not divide exactly is a mismatch. The reference is Python's arithmetic on
the sizes hypothesis draws."""

from typing import Any, Literal as L, TypeVar

import numpy as np
import pytest
from hypothesis import given, strategies as st

import typedtensor as tt
from typedtensor import Add, AnnotationError, Dim, Div, Mul, ShapeError, Sub, Tensor

B = TypeVar("B")
T = TypeVar("T")
C = TypeVar("C")
H = TypeVar("H")
N = TypeVar("N")
M = TypeVar("M")

sizes = st.integers(0, 7)
positive = st.integers(1, 7)


class Heads(Dim): ...


def f32(*shape: int) -> Tensor[tt.float32, *tuple[Any, ...]]:
    return Tensor(np.zeros(shape, np.float32))


@tt.shapechecked
def split_heads(x: Tensor[tt.float32, B, T, C], heads: Tensor[tt.float32, H], last: int) -> Tensor[tt.float32, B, H, T, Div[C, H]]:
    return f32(x.shape[0], heads.shape[0], x.shape[1], last)  # type: ignore[return-value]  # claimed, checked


@given(sizes, sizes, positive, st.integers(0, 20), st.integers(0, 8))
def test_a_returned_division_is_checked_not_bound(b: int, t: int, h: int, c: int, last: int) -> None:
    call = lambda: split_heads(f32(b, t, c), f32(h), last)  # noqa: E731
    if c % h == 0 and last == c // h:
        assert call().shape == (b, h, t, last)
    else:
        with pytest.raises(ShapeError, match=r"expected: Tensor\[float32, B, H, T, C//H\]"):
            call()


def test_the_reason_names_the_inexact_division_or_the_size() -> None:
    with pytest.raises(ShapeError, match=r"reason:   the dimension size 3 is C//H, but C//H is 7//2, not exact"):
        split_heads(f32(1, 1, 7), f32(2), 3)
    with pytest.raises(ShapeError, match=r"reason:   the dimension size 3 does not equal C//H=2"):
        split_heads(f32(1, 1, 8), f32(4), 3)


@tt.shapechecked
def tokens(b: Tensor[tt.float32, B], t: Tensor[tt.float32, T], x: Tensor[tt.float32, Mul[T, B], L[2]]) -> None: ...


@given(sizes, sizes, sizes)
def test_a_product_parameter_is_checked_against_the_bound_dims(b: int, t: int, n: int) -> None:
    if n == b * t:
        tokens(f32(b), f32(t), f32(n, 2))
    else:
        with pytest.raises(ShapeError, match=r"does not equal B\*T="):
            tokens(f32(b), f32(t), f32(n, 2))


@tt.shapechecked
def sliced(x: Tensor[tt.float32, N], y: Tensor[tt.float32, M], out: int) -> Tensor[tt.float32, Add[Sub[N, L[3]], Mul[L[2], M]]]:
    return f32(out)  # type: ignore[return-value]  # claimed, checked


@given(sizes, sizes, st.integers(0, 30))
def test_sums_and_differences_are_python_s(n: int, m: int, out: int) -> None:
    if out == n - 3 + 2 * m:
        assert sliced(f32(n), f32(m), out).shape == (out,)
    else:
        with pytest.raises(ShapeError, match=r"N-3\+2\*M|2\*M\+N-3"):
            sliced(f32(n), f32(m), out)


@given(sizes, positive, st.integers(0, 30))
def test_check_binds_the_names_of_its_own_annotation_first(h: int, k: int, c: int) -> None:
    """The dims of the same annotation bind before its expressions are computed, wherever they stand."""
    annotation = Tensor[tt.float32, Div[C, Heads], C, Heads]
    if c % k == 0 and h == c // k:
        assert tt.check(f32(h, c, k), annotation).shape == (h, c, k)
    else:
        with pytest.raises(ShapeError):
            tt.check(f32(h, c, k), annotation)


def test_an_expression_in_normal_form_that_is_a_name_or_a_literal_is_that_dim() -> None:
    """``Div[Mul[B, T], T]`` is ``B``, which binds; ``Mul[L[2], L[3]]`` is ``6``."""
    spec = Tensor[tt.float32, Div[Mul[B, T], T], Mul[L[2], L[3]], B]
    assert tt.check(f32(4, 6, 4), spec).shape == (4, 6, 4)
    with pytest.raises(ShapeError, match=r"expected: Tensor\[float32, B, 6, B\]"):
        tt.check(f32(4, 6, 5), spec)


def test_an_expression_of_names_not_yet_bound_is_an_annotation_error() -> None:
    @tt.shapechecked
    def early(x: Tensor[tt.float32, Mul[B, T]], b: Tensor[tt.float32, B], t: Tensor[tt.float32, T]) -> None: ...

    with pytest.raises(AnnotationError, match=r'parameter "x" of .*early\(\): the dim B\*T of Tensor\[float32, B\*T\] is computed from B, T, which no earlier parameter'):
        early(f32(6), f32(2), f32(3))


def test_an_expression_of_something_other_than_dims_is_an_annotation_error() -> None:
    with pytest.raises(AnnotationError, match=r"str is not a valid dim; a dim is .*Add/Sub/Mul/Div of dims"):
        tt.check(f32(2), Tensor[tt.float32, Mul[str, B]])


def test_an_expression_with_an_unknown_part_is_unknown() -> None:
    """As for mypy: ``Mul[Any, B]`` is some size, and binds nothing."""
    assert tt.check(f32(5, 3), Tensor[tt.float32, Mul[Any, B], B]).shape == (5, 3)
