"""``arange``, ``eye`` and ``typedtensor.random`` against numpy."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, strategies as st

import typedtensor as tt

pytestmark = pytest.mark.floors

NUMERIC = [tt.int8, tt.int32, tt.int64, tt.uint16, tt.float16, tt.float32, tt.float64, tt.complex64]


@given(st.integers(-30, 30), st.one_of(st.none(), st.integers(-30, 30)), st.integers(-7, 7).filter(bool), st.sampled_from(NUMERIC))
def test_arange_equals_numpy(start: int, stop: int | None, step: int, dtype: type[tt.generic]) -> None:
    values = range(0, start, step) if stop is None else range(start, stop, step)
    if values and dtype.numpy_dtype.kind == "u" and min(values) < 0:  # numpy would wrap them around
        with pytest.raises(ValueError, match=rf'^"arange": values {values[0]} to {values[-1]} are out of range for {dtype.__name__} \(0 to '):
            tt.arange(start, stop, step, dtype=dtype)
        return
    try:
        expected = np.arange(start, stop, step, dtype=dtype.numpy_dtype)
    except OverflowError as error:  # a bound outside an unsigned dtype
        with pytest.raises(ValueError, match=f'^"arange": {error}$'):
            tt.arange(start, stop, step, dtype=dtype)
        return
    got = tt.arange(start, stop, step, dtype=dtype)
    assert got.dtype is dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got.numpy(), expected)


def test_arange_defaults_to_int64_and_counts_from_zero() -> None:
    assert tt.arange(4).dtype is tt.int64
    np.testing.assert_array_equal(tt.arange(np.int32(3)).numpy(), [0, 1, 2])
    assert tt.arange(-2).shape == (0,)


@given(st.integers(0, 6), st.one_of(st.none(), st.integers(0, 6)), st.integers(-7, 7), st.sampled_from([*NUMERIC, tt.bool_]))
def test_eye_equals_numpy(n: int, m: int | None, k: int, dtype: type[tt.generic]) -> None:
    expected = np.eye(n, m, k, dtype=dtype.numpy_dtype)
    got = tt.eye(n, m, k=k, dtype=dtype)
    assert got.dtype is dtype and got.shape == expected.shape
    np.testing.assert_array_equal(got.numpy(), expected)
    assert tt.eye(n).dtype is tt.float32


@pytest.mark.parametrize("dtype", [tt.float16, tt.float32, tt.float64])
@pytest.mark.parametrize("shape", [(), (0,), (3,), (2, 0, 4), (5, 7)])
def test_random_draws_what_numpys_generator_draws(dtype: type[tt.generic], shape: tuple[int, ...]) -> None:
    drawn_in = np.float64 if dtype is tt.float64 else np.float32
    normal = tt.random.normal(shape, dtype, rng=7, mean=2.0, stddev=0.5)
    expected = (np.random.default_rng(7).standard_normal(shape, dtype=drawn_in) * 0.5 + 2.0).astype(dtype.numpy_dtype)
    assert normal.dtype is dtype and normal.shape == shape
    np.testing.assert_array_equal(normal.numpy(), expected)
    uniform = tt.random.uniform(shape, dtype, rng=np.random.default_rng(7), low=-3.0, high=1.0)
    expected = (np.random.default_rng(7).random(shape, dtype=drawn_in) * 4.0 - 3.0).astype(dtype.numpy_dtype)
    assert uniform.dtype is dtype and uniform.shape == shape
    np.testing.assert_array_equal(uniform.numpy(), expected)
    assert ((-3.0 <= uniform.numpy()) & (uniform.numpy() <= 1.0)).all()


def test_a_generator_continues_its_stream_and_a_seed_repeats() -> None:
    rng = np.random.default_rng(0)
    first, second = tt.random.normal((4,), rng=rng), tt.random.normal((4,), rng=rng)
    assert not np.array_equal(first.numpy(), second.numpy())
    np.testing.assert_array_equal(tt.random.uniform((3,), rng=5).numpy(), tt.random.uniform((3,), rng=5).numpy())
    assert tt.random.normal((2, 3)).dtype is tt.float32 and tt.random.uniform((2,)).shape == (2,)


def test_full_keeps_what_its_dtype_holds() -> None:
    np.testing.assert_array_equal(tt.full((2,), float("-inf"), tt.float16).numpy(), [-np.inf, -np.inf])
    np.testing.assert_array_equal(tt.full((1,), 2 + 1j, tt.complex64).numpy(), [2 + 1j])
    np.testing.assert_array_equal(tt.full((2,), -128, tt.int8).numpy(), [-128, -128])
    assert tt.full((1,), np.uint8(255), tt.uint8).numpy()[0] == 255


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: tt.arange(0, 5, 0), tt.TensorShapeError, '"arange" with step 0 never reaches its stop; the step must not be 0'),
        (lambda: tt.arange(1.5), TypeError, '"arange": start must be an int, got float 1.5'),
        (lambda: tt.arange(3, True), TypeError, '"arange": stop must be an int, got bool True'),
        (lambda: tt.arange(-2, 3, dtype=tt.uint8), ValueError, '"arange": values -2 to 2 are out of range for uint8 (0 to 255)'),
        (lambda: tt.arange(0, 300, dtype=tt.int8), ValueError, '"arange": values 0 to 299 are out of range for int8 (-128 to 127)'),
        (lambda: tt.arange(250, 260, dtype=tt.uint8), ValueError, '"arange": values 250 to 259 are out of range for uint8 (0 to 255)'),
        (lambda: tt.arange(0, -70000, -7, dtype=tt.float16), ValueError, '"arange": values 0 to -69993 are out of range for float16 (-65504.0 to 65504.0)'),
        (lambda: tt.full((2,), None, tt.float32), TypeError, '"full": value must be a number (bool, int, float or complex), got None'),
        (lambda: tt.full((2,), "a", tt.float32), TypeError, '"full": value must be a number (bool, int, float or complex), got str'),
        (lambda: tt.full((2,), np.ones((2, 3)), tt.float32), TypeError, '"full": value must be a number (bool, int, float or complex), got ndarray'),
        (lambda: tt.full((2,), 1j, tt.float32), TypeError, '"full": a complex value (1j) does not fit float32, a real dtype; pass its .real or a complex dtype'),
        (lambda: tt.full((2,), 300, tt.int8), ValueError, '"full": value 300 is out of range for int8 (-128 to 127)'),
        (lambda: tt.full((2,), -1, tt.uint64), ValueError, '"full": value -1 is out of range for uint64 (0 to 18446744073709551615)'),
        (lambda: tt.full((2,), float("nan"), tt.int32), ValueError, '"full": value nan is out of range for int32 (-2147483648 to 2147483647)'),
        (lambda: tt.full((2,), 1e5, tt.float16), ValueError, '"full": value 100000.0 is out of range for float16 (-65504.0 to 65504.0)'),
        (lambda: tt.full((2,), 1e300 + 1j, tt.complex64), ValueError, '"full": value (1e+300+1j) is out of range for complex64 (-3.4028234663852886e+38 to 3.4028234663852886e+38)'),
        (lambda: tt.full((2,), -1e300j, tt.complex64), ValueError, '"full": value (-0-1e+300j) is out of range for complex64 (-3.4028234663852886e+38 to 3.4028234663852886e+38)'),
        (lambda: tt.tensor([300], dtype=tt.int8), OverflowError, "tensor: cannot make a tensor of list data: Python integer 300 out of bounds for int8"),
        (lambda: tt.tensor([2**70]), TypeError, "tensor: cannot make a tensor of list data: numpy holds it as Python objects (ragged lists, None, ints beyond 64 bits ...)"),
        (lambda: tt.tensor(x for x in range(3)), TypeError, "tensor: cannot make a tensor of generator data: numpy holds it as Python objects (ragged lists, None, ints beyond 64 bits ...)"),
        (lambda: tt.random.uniform((2,), low=1j), TypeError, '"uniform": low must be a real number (int or float), got complex 1j'),
        (lambda: tt.random.uniform((2,), low=None), TypeError, '"uniform": low must be a real number (int or float), got NoneType None'),
        (lambda: tt.random.normal((2,), mean=1j), TypeError, '"normal": mean must be a real number (int or float), got complex 1j'),
        (lambda: tt.eye(-1), ValueError, '"eye": sizes must not be negative, got n=-1, m=-1'),
        (lambda: tt.eye(2, 2.0), TypeError, '"eye": m must be an int, got float 2.0'),
        (lambda: tt.random.normal((2,), tt.int32), TypeError, '"normal": dtype must be a floating dtype (float16, float32 or float64), got int32'),
        (lambda: tt.random.uniform((2,), tt.complex64), TypeError, '"uniform": dtype must be a floating dtype (float16, float32 or float64), got complex64'),
        (lambda: tt.random.normal((2,), stddev=-1.0), ValueError, '"normal": stddev must not be negative, got -1.0'),
        (lambda: tt.random.normal((-2,)), ValueError, "normal: shape must be a tuple of non-negative ints, got (-2,)"),
        (lambda: tt.random.uniform((2,), rng=-1), TypeError, '"uniform": rng must be a numpy.random.Generator, a non-negative int seed or None, got int -1'),
        (lambda: tt.random.uniform((2,), rng="0"), TypeError, '"uniform": rng must be a numpy.random.Generator, a non-negative int seed or None, got str \'0\''),
    ],
)
def test_bad_arguments_are_clear_errors(call: Any, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as raised:
        call()
    assert str(raised.value) == message
