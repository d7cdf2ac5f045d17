"""One conformance suite on every installed array library (SPEC 10): each op on tensors over the
library's arrays gives what it gives on numpy's, the reference: the same values, dtype marker and
shape, its result on the same library, and the same error, type and text, where numpy's fails.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import typedtensor as tt
from tests.support.backends import LIBRARIES, Library
from typedtensor._ops.backends import backend_of

AnyTensor = tt.Tensor[Any, *tuple[Any, ...]]
Op = Callable[..., AnyTensor]

DTYPES = [tt.bool_, tt.int8, tt.int32, tt.int64, tt.uint8, tt.float32, tt.float64]
SHAPES = [(3, 4), (2, 3, 4)]


def values(dtype: type[tt.generic], shape: tuple[int, ...], seed: int, divisor: bool = False) -> np.ndarray[Any, Any]:
    """Values every op takes: positive and small; a divisor holds no zeros (torch's integer
    division by zero raises, numpy's gives 0)."""
    rng = np.random.default_rng(seed)
    numpy_dtype = tt.zeros((), dtype).numpy().dtype
    if numpy_dtype.kind == "b":
        return rng.random(shape) < (2 if divisor else 0.5)
    if numpy_dtype.kind in "iu":
        return rng.integers(1, 6, shape).astype(numpy_dtype)
    return (rng.random(shape) * 1.5 + 0.5).astype(numpy_dtype)


UNARY: dict[str, Op] = {
    name: getattr(tt, name)
    for name in ["abs", "negative", "exp", "log", "sqrt", "sin", "tanh", "sigmoid", "relu", "square", "floor", "sign", "logical_not"]
}
#: The later unary ops whose runs differ by library (the library's own erf or ours, atan for
#: arctan, rsqrt, booleans' isnan); tan, log2, isinf ... are namespace functions as exp is.
MORE_UNARY: dict[str, Op] = {
    **{name: getattr(tt, name) for name in ["erf", "arctan", "rsqrt", "isnan", "silu", "softplus", "gelu"]},
    "gelu tanh": lambda x: tt.gelu(x, approximate=True),
    "clip": lambda x: tt.clip(x, 1, 3),
    "clip above": lambda x: tt.clip(x, None, 2.5),
}
BINARY: dict[str, Op] = {
    **{name: getattr(tt, name) for name in ["add", "subtract", "multiply", "divide", "floor_divide", "power", "maximum", "minimum", "equal", "less", "logical_and"]},
    "x + 2": lambda x, y: x + 2,
    "x * 2.5": lambda x, y: x * 2.5,
    "3 - x": lambda x, y: 3 - x,
    "x / 2": lambda x, y: x / 2,
    "x ** 2": lambda x, y: x**2,
    "x == 1": lambda x, y: x == 1,
    "where": lambda x, y: tt.where(x > y, x, y),
    "where scalar": lambda x, y: tt.where(x > y, x, 1.5),
    "concat": lambda x, y: tt.concat([x, y], axis=-1),
    "stack": lambda x, y: tt.stack([x, y], axis=0),
    "matmul": lambda x, y: tt.matmul(x, y, transpose_b=True),
    "clip tensors": lambda x, y: tt.clip(x, y, 4),
    "x * np.float32": lambda x, y: x * np.float32(2.5),  # numpy's scalars: rank-0 arrays of the tensor's library
    "np.int16 - x": lambda x, y: np.int16(3) - x,
    "x < np.uint8": lambda x, y: x < np.uint8(2),
}
#: einsum is no array API function: array_api_strict has none, which is an error (below).
EINSUM: dict[str, Op] = {
    "einsum": lambda x, y: tt.einsum("...ij,...kj->...ik", x, y),
    "einsum implicit": lambda x, y: tt.einsum("...j,...j", x, y),
    "einsum letters that differ": lambda x, y: tt.einsum("ij,jk->ik", x, y),
}
REDUCTIONS: dict[str, Op] = {
    f"{op} {axis} {keepdims}": (lambda x, op=op, axis=axis, keepdims=keepdims: getattr(tt, f"reduce_{op}")(x, axis=axis, keepdims=keepdims))
    for op in ["sum", "mean", "max", "min", "prod", "any", "all"]
    for axis, keepdims in [(None, False), (0, False), (-1, True), ((0, 1), False)]
}
SHAPING: dict[str, Op] = {
    "reshape": lambda x: x.reshape(-1),
    "transpose": lambda x: x.T,
    "expand_dims": lambda x: tt.expand_dims(x, axis=1),
    "squeeze": lambda x: tt.squeeze(tt.expand_dims(x, axis=0), axis=0),
    "tile": lambda x: tt.tile(x, (2, 1)),
    "broadcast_to": lambda x: tt.broadcast_to(x, (2, *x.shape)),
    "x[0]": lambda x: x[0],
    "x[:, 1:]": lambda x: x[:, 1:],
    "x[None]": lambda x: x[None],
    "astype": lambda x: x.astype(tt.float32),
    "argmax": lambda x: tt.argmax(x, axis=-1),
    "take": lambda x: tt.take(x, tt.Tensor(_indices(x, [2, 0, 1])), axis=-1),
    "swapaxes": lambda x: tt.swapaxes(x, 0, -1),
    "moveaxis": lambda x: tt.moveaxis(x, 0, -1),
    "flatten": lambda x: tt.flatten(x, 0, 1),
    "split": lambda x: tt.split(x, (1, 2), axis=-2)[1],
    "split equal": lambda x: tt.split(x, 2, axis=-1)[0],
    "pad": lambda x: tt.pad(x, (1, 2), 1),
    "pad each": lambda x: tt.pad(x, [(0, 1)] * (x.ndim - 1) + [(2, 0)]),
    "tril": lambda x: tt.tril(x, -1),
    "triu": lambda x: tt.triu(x, 1),
    "one_hot": lambda x: tt.one_hot(x.astype(tt.int64), 6),
    "zeros_like": lambda x: tt.zeros_like(x),
    "full_like": lambda x: tt.full_like(x, 1, tt.float32),
}
SORTING: dict[str, Op] = {
    "sort": lambda x: tt.sort(x, axis=0),
    "sort descending": lambda x: tt.sort(x, descending=True),
    "argsort": lambda x: tt.argsort(x, axis=-1),
    "argsort descending": lambda x: tt.argsort(x, axis=0, descending=True),
    "top_k values": lambda x: tt.top_k(x, 2)[0],
    "top_k indices": lambda x: tt.top_k(x, 2, axis=0)[1],
}
#: Linear algebra on square matrices made positive definite (``x @ x.T + 4 I``). dask's linalg
#: takes only 2-D arrays in chunks of its own: the matrix ops are an error there (below).
LINALG: dict[str, Op] = {
    "inv": tt.linalg.inv,
    "det": tt.linalg.det,
    "cholesky": tt.linalg.cholesky,
    "eigh": lambda x: tt.linalg.eigh(x)[0],
    "solve": lambda x: tt.linalg.solve(x, x[..., :1]),
    "svd values": lambda x: tt.linalg.svd(x)[1],
    "qr product": lambda x: tt.matmul(*tt.linalg.qr(x)),
}
FLOATING: dict[str, Op] = {
    "softmax": lambda x: tt.softmax(x, axis=-1),
    "log_softmax": lambda x: tt.log_softmax(x, axis=0),
    "logsumexp": lambda x: tt.logsumexp(x, axis=-1),
}


def _indices(like: AnyTensor, indices: list[int]) -> Any:
    """Index values on ``like``'s library."""
    return tt.tensor(indices, tt.int64, like=like).array


def outcome(op: Op, *tensors: AnyTensor) -> AnyTensor | tuple[type[BaseException], str]:
    try:
        return op(*tensors)
    except Exception as error:  # the error is part of what the libraries must agree on
        return type(error), str(error)


def assert_conforms(library: Library, op: Op, *arrays: np.ndarray[Any, Any]) -> None:
    """``op`` on tensors over ``library``'s copies of ``arrays`` does what it does on numpy's."""
    with np.errstate(all="ignore"):  # log(0) is -inf on every library; only numpy warns (dask's chunks too, when computed)
        expected = outcome(op, *map(tt.Tensor, arrays))
        got = outcome(op, *(tt.Tensor(library.array(array)) for array in arrays))
        got_values = None if isinstance(got, tuple) else got.numpy()
    if not isinstance(expected, tuple) and expected.dtype.__name__ in library.lacks:
        expected = TypeError, f"{library.name} has no {expected.dtype.__name__}, which the rules ask for here; cast to a wider dtype first"
    if isinstance(expected, tuple) or isinstance(got, tuple):
        assert got == expected
        return
    assert (got.dtype, got.shape) == (expected.dtype, expected.shape)
    assert backend_of(got.array).name == library.name
    tolerance = {"float16": 1e-3, "float32": 1e-5}.get(got.dtype.__name__, 1e-12)
    np.testing.assert_allclose(got_values, expected.numpy(), rtol=tolerance, atol=tolerance)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda dtype: dtype.__name__)
@pytest.mark.parametrize("name", UNARY)
def test_unary_ops_conform(library: Library, name: str, dtype: type[tt.generic]) -> None:
    for shape in SHAPES:
        assert_conforms(library, UNARY[name], values(dtype, shape, 0))


@pytest.mark.parametrize("dtype", [tt.bool_, tt.int32, tt.float32, tt.float64], ids=lambda dtype: dtype.__name__)
@pytest.mark.parametrize("name", MORE_UNARY)
def test_more_unary_ops_conform(library: Library, name: str, dtype: type[tt.generic]) -> None:
    assert_conforms(library, MORE_UNARY[name], values(dtype, SHAPES[0], 0))


@pytest.mark.parametrize("dtypes", [(tt.float32, tt.float32), (tt.int32, tt.float32), (tt.int64, tt.int8), (tt.bool_, tt.bool_), (tt.uint8, tt.int32), (tt.float64, tt.bool_)], ids=str)
@pytest.mark.parametrize("name", BINARY)
def test_binary_ops_conform(library: Library, name: str, dtypes: tuple[type[tt.generic], type[tt.generic]]) -> None:
    for shape in SHAPES:
        assert_conforms(library, BINARY[name], values(dtypes[0], shape, 1), values(dtypes[1], shape, 2, divisor=True))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda dtype: dtype.__name__)
@pytest.mark.parametrize("name", REDUCTIONS)
def test_reductions_conform(library: Library, name: str, dtype: type[tt.generic]) -> None:
    for shape in SHAPES:
        assert_conforms(library, REDUCTIONS[name], values(dtype, shape, 3))


@pytest.mark.parametrize("dtype", [tt.bool_, tt.int32, tt.float32], ids=lambda dtype: dtype.__name__)
@pytest.mark.parametrize("name", SHAPING)
def test_shaping_and_indexing_conform(library: Library, name: str, dtype: type[tt.generic]) -> None:
    for shape in SHAPES:
        assert_conforms(library, SHAPING[name], values(dtype, shape, 4))


def test_a_mask_stays_the_sole_index_after_a_basic_key(library: Library) -> None:
    # array-api-strict refuses x[0] of a matrix: the key is retried with a `...`, which its type's
    # basic keys then get first. It refuses a boolean mask beside a `...` too: a mask stays alone.
    matrix = np.arange(12.0).reshape(3, 4)
    assert_conforms(library, lambda x: x[0], matrix)
    assert_conforms(library, lambda x: x.at[x > 5.0].set(0.0), matrix)


@pytest.mark.parametrize("dtype", [tt.float32, tt.float64, tt.int32], ids=lambda dtype: dtype.__name__)
@pytest.mark.parametrize("name", FLOATING)
def test_normalising_ops_conform(library: Library, name: str, dtype: type[tt.generic]) -> None:
    for shape in SHAPES:
        assert_conforms(library, FLOATING[name], values(dtype, shape, 5))


@pytest.mark.parametrize("dtype", [tt.bool_, tt.int32, tt.uint8, tt.float32], ids=lambda dtype: dtype.__name__)
@pytest.mark.parametrize("name", SORTING)
def test_sorting_conforms(library: Library, name: str, dtype: type[tt.generic]) -> None:
    for shape in SHAPES:
        assert_conforms(library, SORTING[name], values(dtype, shape, 12))


def positive_definite(dtype: type[tt.generic], shape: tuple[int, ...]) -> np.ndarray[Any, Any]:
    square = values(tt.float64, shape, 13)
    return (square @ np.swapaxes(square, -1, -2) + 4 * np.eye(shape[-1])).round().astype(tt.zeros((), dtype).numpy().dtype)


@pytest.mark.parametrize("dtype", [tt.int32, tt.float32, tt.float64], ids=lambda dtype: dtype.__name__)
@pytest.mark.parametrize("name", LINALG)
def test_linalg_conforms(library: Library, name: str, dtype: type[tt.generic]) -> None:
    for shape in [(3, 3), (2, 3, 3)]:
        array = positive_definite(dtype, shape)
        if library.name != "dask":
            assert_conforms(library, LINALG[name], array)
            continue
        op = name.split()[0]
        with pytest.raises(TypeError, match=f'^"{op}": dask has no linalg.{op} for typedtensor; convert the tensor first'):
            LINALG[name](tt.Tensor(library.array(array)))


@pytest.mark.parametrize("dtype", [tt.int32, tt.float32, tt.float64], ids=lambda dtype: dtype.__name__)
def test_norm_conforms(library: Library, dtype: type[tt.generic]) -> None:
    for shape in SHAPES:
        assert_conforms(library, lambda x: tt.linalg.norm(x, axis=-1), values(dtype, shape, 14))
        assert_conforms(library, tt.linalg.norm, values(dtype, shape, 15))


#: int8, int32 with uint8, and booleans: dask's einsum sums its chunks in int64, and torch's has no boolean matmul.
EINSUM_DTYPES = [(tt.float32, tt.float32), (tt.int32, tt.float32), (tt.int64, tt.int8), (tt.int8, tt.int8), (tt.int32, tt.uint8), (tt.bool_, tt.bool_)]


@pytest.mark.parametrize("dtypes", EINSUM_DTYPES, ids=str)
@pytest.mark.parametrize("name", EINSUM)
def test_einsum_conforms(library: Library, name: str, dtypes: tuple[type[tt.generic], type[tt.generic]]) -> None:
    x, y = values(dtypes[0], (2, 3, 4), 16), values(dtypes[1], (2, 3, 4), 17)
    if library.name != "array_api_strict" or name.endswith("differ"):  # a wrong call fails before any library runs
        assert_conforms(library, EINSUM[name], x, y)
        return
    with pytest.raises(TypeError, match='^"einsum": array_api_strict has no einsum; convert the tensors first'):
        EINSUM[name](tt.Tensor(library.array(x)), tt.Tensor(library.array(y)))


LAYERS: dict[str, Op] = {
    "conv2d": lambda x, w: tt.conv2d(x, w, stride=(2, 1), padding=1),
    "max_pool2d": lambda x, w: tt.max_pool2d(x, 2, 1),
    "avg_pool2d": lambda x, w: tt.avg_pool2d(x, (2, 3)),
    "layer_norm": lambda x, w: tt.layer_norm(x, axis=1),
}
#: The libraries with a convolution and pooling of their own; the others' arrays are refused.
WINDOWED = ("numpy", "torch", "jax")


@pytest.mark.parametrize("dtype", [tt.float32, tt.float64, tt.int32], ids=lambda dtype: dtype.__name__)
@pytest.mark.parametrize("name", LAYERS)
def test_layers_conform(library: Library, name: str, dtype: type[tt.generic]) -> None:
    x, w = values(dtype, (2, 3, 5, 6), 12), values(dtype, (4, 3, 3, 2), 13)
    if library.name in WINDOWED or name == "layer_norm" or dtype is tt.int32:  # an int32 is refused before the library runs
        assert_conforms(library, LAYERS[name], x, w)
        return
    with pytest.raises(TypeError, match=f'^"{name}" runs on numpy, torch or jax arrays \\(one library\\), got {library.name}: '):
        LAYERS[name](tt.Tensor(library.array(x)), tt.Tensor(library.array(w)))


ERRORS: dict[str, Op] = {
    "shapes that do not broadcast": lambda x, y: x + y[:2],
    "a refused dtype": lambda x, y: tt.negative(x > y),
    "an axis out of range": lambda x, y: tt.reduce_sum(x, axis=2),
    "a softmax axis out of range": lambda x, y: tt.softmax(x, axis=2),  # torch's and jax's own softmax would raise their own
    "a bad selection": lambda x, y: tt.reduce_max(x, axis="^^^"),
    "inner dims that differ": lambda x, y: x @ y,
    "a bad reshape": lambda x, y: x.reshape((5, 5)),
    "an int beyond the dtype": lambda x, y: x.astype(tt.uint8) + 300,
    "the max of nothing": lambda x, y: tt.reduce_max(x[:0], axis=0),
    "a split that does not divide": lambda x, y: tt.split(x, 2)[0],
    "an index beyond one_hot's n": lambda x, y: tt.one_hot(x.astype(tt.int64), 1),
    "k beyond the axis": lambda x, y: tt.top_k(x, 5),
    "matrices not square": lambda x, y: tt.linalg.inv(x),
}


@pytest.mark.parametrize("name", ERRORS)
def test_errors_are_numpys(library: Library, name: str) -> None:
    assert_conforms(library, ERRORS[name], values(tt.float32, (3, 4), 6), values(tt.float32, (3, 4), 7))


def test_results_stay_on_their_library_and_creation_follows_like(library: Library) -> None:
    x = tt.Tensor(library.array(values(tt.float32, (2, 3), 8)))
    for made in [tt.zeros((2, 3), like=x), tt.ones((2,), tt.int32, like=x), tt.full((2,), 7, tt.int8, like=x), tt.arange(4, like=x),
                 tt.eye(2, 3, k=1, like=x), tt.tensor([[1.0, 2.0]], like=x), tt.tensor(x, tt.float64, like=x)]:
        assert backend_of(made.array).name == library.name
    np.testing.assert_array_equal(tt.zeros((2, 3), like=x).numpy(), np.zeros((2, 3), np.float32))
    np.testing.assert_array_equal(tt.eye(2, 3, k=1, dtype=tt.int8, like=x).numpy(), np.eye(2, 3, 1, dtype=np.int8))
    np.testing.assert_array_equal(tt.arange(1, 9, 3, like=x).numpy(), np.arange(1, 9, 3))
    assert tt.tensor([[1.0, 2.0]], like=x).dtype is tt.float64  # numpy's inference, not torch's float32
    assert tt.full((2,), 7, tt.int8, like=x).dtype is tt.int8


def test_random_tensors_follow_like_with_numpy_s_values(library: Library) -> None:
    """The same seed draws the same values on every library: numpy's Generator draws them, and
    ``like=`` puts them on that library, in the dtype asked for."""
    x = tt.Tensor(library.array(values(tt.float32, (2, 3), 9)))
    for draw, keywords in [(tt.random.normal, {"mean": 1.0, "stddev": 0.5}), (tt.random.uniform, {"low": -2.0, "high": 2.0})]:
        for dtype in [tt.float32, tt.float64]:
            made = draw((3, 4), dtype, 11, like=x, **keywords)
            on_numpy = draw((3, 4), dtype, 11, **keywords)
            assert backend_of(made.array).name == library.name and made.dtype is dtype and made.shape == (3, 4)
            np.testing.assert_array_equal(made.numpy(), on_numpy.numpy())
    with pytest.raises(TypeError, match=r'^"normal": like must be a typedtensor.Tensor, got '):
        tt.random.normal((2,), like=x.array)  # type: ignore[arg-type]


@pytest.mark.parametrize("other", [library for library in LIBRARIES if library.name != "numpy"], ids=lambda library: library.name)
def test_two_libraries_in_one_op_are_an_error_naming_both(other: Library) -> None:
    other.load()
    x, y = tt.Tensor(values(tt.float32, (2, 3), 9)), tt.Tensor(other.array(values(tt.float32, (2, 3), 9)))
    expected = (
        f'"add" on Tensor[float32, 2, 3] of numpy and Tensor[float32, 2, 3] of {other.name}: the operands come from two array libraries; '
        "convert one first (x.numpy(), or typedtensor.tensor(data, like=other))"
    )
    with pytest.raises(TypeError) as raised:
        x + y
    assert str(raised.value) == expected
    with pytest.raises(TypeError, match=f"^\"concat\" on Tensor\\[float32, 2, 3\\] of {other.name} and Tensor\\[float32, 2, 3\\] of numpy: "):
        tt.concat([y, x], axis=0)


def test_tensor_copies_any_librarys_array_into_numpy_without_like(library: Library) -> None:
    values_ = values(tt.float32, (2, 3), 11)
    array = library.array(values_)
    if library.name == "torch":
        array.requires_grad_()  # a tensor that records gradients is copied as its values
    copied = tt.tensor(array, tt.float64)
    assert type(copied.array) is np.ndarray and copied.dtype is tt.float64
    np.testing.assert_array_equal(copied.numpy(), values_.astype(np.float64))


def test_tensor_wraps_without_copying_and_numpy_converts(library: Library) -> None:
    array = library.array(values(tt.int32, (2, 3), 10))
    x = tt.Tensor(array)
    assert x.array is array
    assert x.shape == (2, 3) and x.size == 6 and x.dtype is tt.int32
    np.testing.assert_array_equal(x.numpy(), values(tt.int32, (2, 3), 10))
    assert type(x.numpy()) is np.ndarray


def test_linspace_and_the_like_functions_follow_their_library(library: Library) -> None:
    x = tt.Tensor(library.array(values(tt.float32, (2, 3), 12)))
    for made, expected in [
        (tt.zeros_like(x), np.zeros((2, 3), np.float32)),
        (tt.ones_like(x, tt.int32), np.ones((2, 3), np.int32)),
        (tt.full_like(x, 7), np.full((2, 3), 7, np.float32)),
        (tt.linspace(0.0, 1.0, 5, dtype=tt.float32, like=x), np.linspace(0.0, 1.0, 5, dtype=np.float32)),
    ]:
        assert backend_of(made.array).name == library.name
        assert made.dtype.__name__ == expected.dtype.name
        np.testing.assert_array_equal(made.numpy(), expected)
