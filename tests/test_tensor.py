"""The Tensor type, its constructors and the dtype markers."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import typedtensor as tt


def test_attributes_of_a_tensor() -> None:
    x = tt.zeros((2, 3), tt.int16)
    assert (x.shape, x.dtype, x.ndim, x.size) == ((2, 3), tt.int16, 2, 6)
    assert isinstance(x.numpy(), np.ndarray) and x.numpy().dtype == np.int16
    assert np.asarray(x) is x.numpy()
    assert np.asarray(x, dtype=np.float64).dtype == np.float64
    assert not np.shares_memory(np.array(x, copy=True), x.numpy())
    with pytest.raises(ValueError, match=r"^Tensor\[int16, 2, 3\] cannot become float64 without a copy \(copy=False\)$"):
        np.array(x, dtype=np.float64, copy=False)  # numpy 2's protocol: copy=False never copies
    assert np.shares_memory(np.array(x, dtype=np.int16, copy=False), x.numpy())


def test_repr_shows_the_type_and_the_values() -> None:
    assert repr(tt.ones((2,), tt.float32)) == "Tensor[float32, 2]([1., 1.])"
    assert repr(tt.tensor(True)) == "Tensor[bool_](True)"


@pytest.mark.parametrize(
    ("make", "dtype", "value"),
    [(lambda: tt.zeros((2, 3)), np.float32, 0), (lambda: tt.ones((2, 3), tt.uint8), np.uint8, 1),
     (lambda: tt.full((2, 3), 7, tt.int64), np.int64, 7)],
)
def test_filled_constructors(make: object, dtype: type, value: int) -> None:
    x = make()  # type: ignore[operator]
    assert x.shape == (2, 3) and x.numpy().dtype == dtype and (x.numpy() == value).all()


def test_tensor_copies_its_data_and_infers_like_numpy() -> None:
    data = np.arange(3)
    x = tt.tensor(data)
    data[0] = 99
    assert x.numpy()[0] == 0 and x.dtype is tt.int64
    assert tt.tensor([1.5]).dtype is tt.float64
    assert tt.tensor(x, tt.float32).dtype is tt.float32


def test_unsupported_data_is_a_clear_error() -> None:
    with pytest.raises(TypeError, match=r"^dtype <U1 is not supported by typedtensor \(supported: bool_, int8, .*complex128\)$"):
        tt.tensor(["a"])
    with pytest.raises(TypeError, match=r"^Tensor wraps a plain numpy.ndarray or an array of torch, jax, dask or an array API library, got list \(not one\); use typedtensor.tensor\(data\) to copy the data into one$"):
        tt.Tensor([1, 2])


def test_ndarray_subclasses_are_not_wrapped_as_plain_arrays() -> None:
    class Subclass(np.ndarray):  # type: ignore[type-arg]
        pass

    sub = np.ones((2, 2)).view(Subclass)
    with pytest.raises(TypeError, match=r"^Tensor wraps a plain numpy.ndarray or an array of torch, jax, dask or an array API library, got Subclass \(a subclass\); "):
        tt.Tensor(sub)
    with pytest.raises(TypeError, match=r"^Tensor wraps a plain numpy.ndarray or an array of torch, jax, dask or an array API library, got MaskedArray \(a subclass\); "):
        tt.Tensor(np.ma.array([1.0, 2.0], mask=[0, 1]))
    assert type(tt.tensor(sub).numpy()) is np.ndarray  # tensor() copies into a plain array
    with pytest.raises(TypeError, match=r"^tensor: a masked array's mask would be lost; fill it first \(data.filled\(value\)\)$"):
        tt.tensor(np.ma.array([1.0, 2.0], mask=[0, 1]))


def test_byte_swapped_data_is_converted_by_tensor_and_named_by_tensor_init() -> None:
    swapped = np.arange(6, dtype=">i4")
    assert tt.tensor(swapped).dtype is tt.int32 and tt.tensor(swapped).sum().numpy() == 15
    with pytest.raises(TypeError, match=r"^dtype >i4 is in non-native byte order; typedtensor.tensor\(data\) converts it$"):
        tt.Tensor(swapped)


@pytest.mark.parametrize("shape", [(2, -1), [2, 3], (2.0,), (True,)])
def test_a_bad_shape_is_a_clear_error(shape: object) -> None:
    with pytest.raises(ValueError, match=r"^zeros: shape must be a tuple of non-negative ints, got "):
        tt.zeros(shape)  # type: ignore[arg-type]


def test_a_category_is_not_a_dtype_to_build_with() -> None:
    with pytest.raises(TypeError, match=r"is not a concrete typedtensor dtype"):
        tt.zeros((2,), tt.floating)


def test_dtype_markers_follow_numpy_hierarchy() -> None:
    assert issubclass(tt.float32, tt.floating) and issubclass(tt.floating, tt.inexact)
    assert issubclass(tt.int8, tt.signedinteger) and issubclass(tt.uint8, tt.unsignedinteger)
    assert issubclass(tt.complex64, tt.complexfloating) and issubclass(tt.integer, tt.number)
    assert not issubclass(tt.bool_, tt.number)


def test_markers_and_dims_are_types_not_values() -> None:
    class Batch(tt.Dim): ...

    with pytest.raises(TypeError, match=r"^dtype marker float32 is a type, not a value; use it as Tensor\[float32, ...\]$"):
        tt.float32()
    with pytest.raises(TypeError, match=r"^Batch names a dimension; use it in a type such as Tensor\[float32, Batch\]$"):
        Batch()


def test_a_dim_is_an_int_class_and_still_a_named_dim() -> None:
    """Dims are ints (so x.shape[0] is usable as one), and annotations still bind them by name."""

    class Batch(tt.Dim): ...

    @tt.shapechecked
    def pair(x: tt.Tensor[tt.float32, Batch], y: tt.Tensor[tt.float32, Batch]) -> int:
        return x.shape[0]

    assert issubclass(Batch, int) and not isinstance(3, Batch)
    assert pair(tt.zeros((3,)), tt.zeros((3,))) == 3
    with pytest.raises(tt.ShapeError, match="Batch=3"):
        pair(tt.zeros((3,)), tt.zeros((4,)))
    with pytest.raises(tt.AnnotationError, match=r"3 is not a valid dim \(write Literal\[3\]\)"):
        tt.check(tt.zeros((3,)), tt.Tensor[tt.float32, 3])  # an int is not a dim


def test_importing_typedtensor_does_not_import_mypy() -> None:
    code = "import sys, typedtensor; print('mypy' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "False"


def test_iteration_walks_the_first_dim_and_a_rank_0_tensor_refuses() -> None:
    x = tt.tensor([[1, 2], [3, 4], [5, 6]], dtype=tt.int32)
    rows = list(x)
    assert len(x) == 3 and [row.numpy().tolist() for row in rows] == [[1, 2], [3, 4], [5, 6]]
    assert all(isinstance(row, tt.Tensor) and row.dtype is tt.int32 for row in rows)
    elements = list(tt.tensor([1.5, 2.5]))  # rank-0 tensors over ndarrays, not numpy scalars
    assert all(type(element.numpy()) is np.ndarray and element.shape == () for element in elements)
    assert [(element + 1).numpy().tolist() for element in elements] == [2.5, 3.5] and 2.5 in tt.tensor([1.5, 2.5])
    scalar = tt.tensor(1.5)
    with pytest.raises(TypeError, match=r"iteration over Tensor\[float64\]: a rank-0 tensor has no dims"):
        list(scalar)
    with pytest.raises(TypeError, match=r"len\(\) of Tensor\[float64\]: a rank-0 tensor has no dims"):
        len(scalar)


def test_importing_typedtensor_imports_neither_mypy_nor_the_language_server() -> None:
    code = "import sys, typedtensor; print(sorted({'mypy', 'pygls', 'lsprotocol', 'typedtensor.lsp'} & set(sys.modules)))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip() == "[]"
