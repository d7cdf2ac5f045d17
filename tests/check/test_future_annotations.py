"""Checks under ``from __future__ import annotations``: every annotation is a string."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Literal as L, Optional, TypeVar

import numpy as np
import pytest
from jaxtyping import Float

import typedtensor as tt
from typedtensor import AnnotationError, Dim, ShapeError, Tensor

if TYPE_CHECKING:
    from decimal import Decimal  # never imported at run time

pytestmark = pytest.mark.floors

N = TypeVar("N")


@tt.shapechecked
def before_its_dim(x: Tensor[tt.float32, Late], y: Tensor[tt.float32, Late]) -> Tensor[tt.float32, Late]:
    return x


class Late(Dim): ...  # defined after the function that names it: resolved at the first call


@tt.shapechecked
def undefined_dim(x: Tensor[tt.float32, Missing]) -> None: ...  # noqa: F821


def test_string_annotations_are_checked() -> None:
    @tt.shapechecked
    def f(x: Tensor[tt.float32, N, L[2]]) -> Tensor[tt.float32, N]:
        return x.sum(axis=1)

    assert f(tt.zeros((3, 2), tt.float32)).shape == (3,)
    with pytest.raises(ShapeError, match='^parameter "x" of f'):
        f(tt.zeros((3, 3), tt.float32))


def test_a_dim_defined_after_the_function_resolves_at_the_first_call() -> None:
    before_its_dim(tt.zeros((2,), tt.float32), tt.zeros((2,), tt.float32))
    with pytest.raises(ShapeError, match="size of dimension Late is 3"):
        before_its_dim(tt.zeros((2,), tt.float32), tt.zeros((3,), tt.float32))


def test_an_undefined_dim_is_a_clear_error_at_the_first_call() -> None:
    with pytest.raises(
        AnnotationError,
        match=r"""^parameter "x" of undefined_dim\(\): cannot resolve the forward reference 'Tensor\[tt.float32, Missing\]': name 'Missing' is not defined \(define or import it at module level before the first call\)$""",
    ):
        undefined_dim(tt.zeros((2,), tt.float32))


def test_a_dim_local_to_the_decorating_function_resolves() -> None:
    class Local(Dim): ...

    @tt.shapechecked
    def f(x: Tensor[tt.float32, Local], y: Tensor[tt.float32, Local]) -> None: ...

    with pytest.raises(ShapeError, match="size of dimension Local is 3"):
        f(tt.zeros((2,), tt.float32), tt.zeros((3,), tt.float32))


def test_a_non_tensor_annotation_that_cannot_resolve_is_ignored() -> None:
    @tt.shapechecked
    def f(x: Tensor[tt.float32, N], price: Decimal) -> str:
        return str(price)

    assert f(tt.zeros((2,), tt.float32), "not resolved, not checked") == "not resolved, not checked"


class Model:
    class Hidden(Dim): ...

    @tt.shapechecked
    def forward(self, x: Tensor[tt.float32, Hidden]) -> Tensor[tt.float32, Hidden]:
        return x


def test_a_method_sees_names_of_its_class_body() -> None:
    assert Model().forward(tt.zeros((4,), tt.float32)).shape == (4,)


@tt.shapechecked
def optional_before_its_dim(x: Tensor[tt.float32, Later] | None, y: Optional[Tensor[tt.float32, Later]] = None) -> None: ...


class Later(Dim): ...  # named inside unions above: resolved at the first call, like Late


@tt.shapechecked
def optional_undefined_dim(x: Tensor[tt.float32, Missing] | None) -> None: ...  # noqa: F821


def test_a_later_dim_inside_an_optional_resolves_at_the_first_call() -> None:
    optional_before_its_dim(None)
    with pytest.raises(ShapeError, match=r"expected: Tensor\[float32, Later\] \| None\n  got:      Tensor\[float64, 2\]"):
        optional_before_its_dim(tt.zeros((2,), tt.float64))
    with pytest.raises(ShapeError, match="size of dimension Later is 3"):
        optional_before_its_dim(tt.zeros((2,), tt.float32), tt.zeros((3,), tt.float32))


def test_an_undefined_dim_inside_an_optional_is_a_clear_error_at_the_first_call() -> None:
    with pytest.raises(AnnotationError, match="cannot resolve the forward reference .*name 'Missing' is not defined"):
        optional_undefined_dim(None)


@tt.shapechecked
@functools.cache  # of a dtype: tensors are unhashable (== is elementwise)
def cached(dtype: type[tt.generic]) -> Tensor[tt.float32, Late]:
    return tt.zeros((2,), dtype)


def test_a_wrapped_function_resolves_names_in_its_own_module() -> None:
    assert cached(tt.float32).shape == (2,)
    with pytest.raises(ShapeError, match="expected: Tensor\\[float32, Late\\]"):
        cached(tt.float64)


@tt.shapechecked
def before_its_subclass(x: LateImages, y: list[LateImages] | None = None) -> None: ...


@tt.shapechecked
def beside_an_unresolvable_name(x: LateImages, price: Decimal) -> None: ...


class LateImages(Tensor[tt.uint8, Late]): ...  # a Tensor subclass defined after the functions above


def test_a_tensor_subclass_defined_after_the_function_is_checked_from_the_first_call() -> None:
    before_its_subclass(LateImages(np.zeros(2, np.uint8)))
    with pytest.raises(ShapeError, match=r"expected: LateImages \(a Tensor\[uint8, Late\]\)\n  got:      Tensor\[uint8, 2\]\n"):
        before_its_subclass(tt.Tensor(np.zeros(2, np.uint8)))
    with pytest.raises(ShapeError, match=r"^item 0 of parameter \"y\""):
        before_its_subclass(LateImages(np.zeros(2, np.uint8)), [LateImages(np.zeros(2, np.float32))])
    with pytest.raises(ShapeError, match=r"reason:   a Tensor is not a LateImages"):
        beside_an_unresolvable_name(tt.zeros((2,), tt.uint8), "never resolved, never checked")


def test_an_unresolvable_name_beside_a_bad_annotation_does_not_delay_its_error() -> None:
    def f(price: Decimal, x: Tensor[tt.float32, 3]) -> None: ...

    with pytest.raises(AnnotationError, match=r'^parameter "x" of f\(\): 3 is not a valid dim'):
        tt.shapechecked(f)


@tt.shapechecked
def jaxtyping_beside_an_unresolvable_name(x: Float[np.ndarray, "N"], y: Tensor[tt.float32, N], price: Decimal) -> None: ...


def test_a_jaxtyping_annotation_is_checked_under_future_annotations() -> None:
    jaxtyping_beside_an_unresolvable_name(np.zeros(2), tt.zeros((2,), tt.float32), "unchecked")
    with pytest.raises(ShapeError, match="the size of dimension N is 3 which does not equal the existing value of 2"):
        jaxtyping_beside_an_unresolvable_name(np.zeros(2), tt.zeros((3,), tt.float32), "unchecked")

