"""The layers' rules: literal sizes against the formula, named dims against every binding (SPEC §7, §9).

Symbolic dims are strings as in test_rigid_dims.py: digits are literal sizes, ``A`` a named dim,
``2*A`` and the like expressions over it. A windowed dim the rule gives on named dims must be the
formula's value under every binding where the window fits; it may be unknown, never wrong.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from typedtensor._shape_rules import (
    INT_DIMS,
    UNKNOWN,
    ChannelsDiffer,
    Dims,
    DimsMayDiffer,
    Polynomial,
    RankNotFour,
    Shape,
    Unknown,
    WindowTooLarge,
    conv2d_shape,
    evaluate,
    expression_text,
    layer_dtype,
    normal_form,
    parse_expression,
    pool2d_shape,
)
from typedtensor._shape_rules.layers import windowed_dim

pytestmark = pytest.mark.floors


def _form(dim: str) -> Polynomial:
    return normal_form(parse_expression(dim))


def _name(dim: str) -> str | None:
    return None if dim.isdigit() else dim


NAMED = Dims[str](lambda dim: int(dim) if dim.isdigit() else None, str, _name, _form, expression_text)
SIZES = range(1, 13)


def _windows(size: int, window: int, stride: int, padding: int) -> int:
    """How many windows fit, counted one start at a time."""
    return sum(1 for start in range(0, size + 2 * padding - window + 1, stride))


@given(st.integers(0, 12), st.integers(1, 6), st.integers(1, 4), st.integers(0, 3))
def test_literal_sizes_give_the_count_of_windows(size: int, window: int, stride: int, padding: int) -> None:
    dim = windowed_dim(size, window, stride, padding, INT_DIMS)
    if window > size + 2 * padding:
        assert isinstance(dim, WindowTooLarge)
    else:
        assert dim == _windows(size, window, stride, padding)


@settings(max_examples=200)
@given(st.sampled_from(["A", "2*A", "3*A", "A+1", "2*A+1", "A*A"]), st.sampled_from(["1", "2", "3", "A"]), st.integers(1, 3), st.integers(0, 2))
def test_named_dims_are_the_count_under_every_binding_or_unknown(size: str, window: str, stride: int, padding: int) -> None:
    dim = windowed_dim(size, window, stride, padding, NAMED)
    assert not isinstance(dim, WindowTooLarge)  # a named dim may fit: the run decides
    if stride == 1:
        assert not isinstance(dim, Unknown)  # exact for every size
    if isinstance(dim, Unknown):
        return
    for value in SIZES:
        sizes = {"A": value}
        height, reach = evaluate(_form(size), sizes), evaluate(_form(window), sizes)
        if reach <= height + 2 * padding:
            assert evaluate(_form(dim), sizes) == _windows(height, reach, stride, padding), (dim, sizes)


@pytest.mark.parametrize(
    ("size", "window", "stride", "padding", "expected"),
    [
        ("A", "3", 1, 0, "A-2"),
        ("A", "3", 1, 1, "A"),
        ("2*A", "2", 2, 0, "A"),
        ("2*A", "4", 2, 1, "A"),
        ("A", "2", 2, 0, UNKNOWN),  # (A-2)//2 + 1 is a floor when A is odd
        ("A", "A", 1, 0, "1"),
    ],
)
def test_the_normal_form_where_it_is_exact(size: str, window: str, stride: int, padding: int, expected: object) -> None:
    dim = windowed_dim(size, window, stride, padding, NAMED)
    assert dim == expected


def test_conv2d_shapes() -> None:
    assert conv2d_shape(Shape((8, 3, 32, 30)), Shape((16, 3, 5, 3)), (1, 1), (2, 1), INT_DIMS) == Shape((8, 16, 32, 30))
    assert conv2d_shape(Shape(("B", "C", "A", "2*A")), Shape(("4", "C", "3", "2")), (1, 2), (0, 0), NAMED) == Shape(("B", "4", "A-2", "A"))
    assert conv2d_shape(Shape(("B", "C", "A", "A")), Shape(("4", "C", "3", "3")), (UNKNOWN, 1), (0, 0), NAMED) == Shape(("B", "4", UNKNOWN, "A-2"))
    assert conv2d_shape(Shape((), UNKNOWN), Shape((4, 3, 3, 3)), (1, 1), (0, 0), INT_DIMS) == Shape((UNKNOWN,) * 4)


def test_conv2d_problems() -> None:
    assert conv2d_shape(Shape((8, 3, 32, 32)), Shape((16, 4, 5, 5)), (1, 1), (0, 0), INT_DIMS) == ChannelsDiffer((3, 4))
    assert conv2d_shape(Shape((8, 3, 4, 32)), Shape((16, 3, 7, 5)), (1, 1), (1, 0), INT_DIMS) == WindowTooLarge(2, 7, 4, 1)
    assert conv2d_shape(Shape((3, 32, 32)), Shape((16, 3, 5, 5)), (1, 1), (0, 0), INT_DIMS) == RankNotFour(0, 3)
    assert conv2d_shape(Shape((8, 3, 32, 32)), Shape((3, 5, 5)), (1, 1), (0, 0), INT_DIMS) == RankNotFour(1, 3, "[O, C, KH, KW]")
    problem = conv2d_shape(Shape(("B", "C", "9", "9")), Shape(("4", "3", "3", "3")), (1, 1), (0, 0), NAMED)
    assert isinstance(problem, DimsMayDiffer)
    message = problem.message("conv2d", ["x", "w"])
    assert problem.code == "tensor-dim" and "channels C and 3 at axis 1 may differ: C is a named dim" in message


def test_a_clash_of_literals_outranks_a_named_one() -> None:
    """One line, one error: a kernel too large on literal dims is reported, not the named channels."""
    problem = conv2d_shape(Shape(("B", "C", "2", "9")), Shape(("4", "3", "3", "3")), (1, 1), (0, 0), NAMED)
    assert isinstance(problem, WindowTooLarge) and problem.code == "tensor-shape"


def test_pool2d_shapes_and_problems() -> None:
    assert pool2d_shape(Shape((8, 3, 7, 6)), (2, 3), (2, 1), INT_DIMS) == Shape((8, 3, 3, 4))
    assert pool2d_shape(Shape(("B", "C", "2*A", "A")), (2, 1), (2, 1), NAMED) == Shape(("B", "C", "A", "A"))
    assert pool2d_shape(Shape((8, 3, 7, 6)), (8, 2), (1, 1), INT_DIMS) == WindowTooLarge(2, 8, 7, 0)
    assert pool2d_shape(Shape((8, 7, 6)), (2, 2), (2, 2), INT_DIMS) == RankNotFour(0, 3)
    message = WindowTooLarge(3, 8, 7, 1).message("max_pool2d", ["Tensor[float32, 8, 3, 7, 7]"])
    assert message == 'Cannot apply "max_pool2d" to Tensor[float32, 8, 3, 7, 7]: the window 8 at axis 3 is larger than the input 7 + 2*1'


def test_layer_dtypes() -> None:
    assert layer_dtype("float32") == "float32"
    assert layer_dtype("float32", "float64") == "float64"
    assert layer_dtype("floating") == "floating"
    for refused in ("int32", "bool", "integer", "complex64", "generic"):
        assert layer_dtype(refused) != refused and layer_dtype("float32", refused) not in ("float32", refused)
