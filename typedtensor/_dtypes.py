"""Dtype marker classes: the first parameter of ``Tensor[DT, *Shape]``.

The markers are never instantiated. They mirror numpy's scalar hierarchy so that
``Tensor[floating, N]`` accepts a ``Tensor[float32, N]`` (``DT`` is covariant), but they print
as ``float32`` rather than numpy's ``floating[_32Bit]``.
"""

from __future__ import annotations

from typing import Any, ClassVar, Final, TypeAlias

import numpy as np

from typedtensor._shape_rules import format_tensor


def _numpy_dtype(scalar: type[np.generic]) -> np.dtype[np.generic]:
    """``np.dtype(scalar)`` behind a signature pyright reads at a glance.

    pyright checks whether each call in this module that comes before a name it looks up (a base
    class) never returns, by evaluating what is called: called directly, ``np.dtype``'s 40
    constructor overloads, which cost every pyright run that uses a dtype (docs/performance.md).
    """
    return np.dtype(scalar)


class generic:
    """Any dtype. Concrete markers carry the numpy dtype they stand for."""

    numpy_dtype: ClassVar[np.dtype[np.generic] | None] = None

    def __new__(cls) -> generic:
        raise TypeError(f"dtype marker {cls.__name__} is a type, not a value; use it as Tensor[{cls.__name__}, ...]")


class bool_(generic):
    numpy_dtype = _numpy_dtype(np.bool_)


class number(generic): ...


class integer(number): ...


class signedinteger(integer): ...


class unsignedinteger(integer): ...


class inexact(number): ...


class floating(inexact): ...


class complexfloating(inexact): ...


class int8(signedinteger):
    numpy_dtype = _numpy_dtype(np.int8)


class int16(signedinteger):
    numpy_dtype = _numpy_dtype(np.int16)


class int32(signedinteger):
    numpy_dtype = _numpy_dtype(np.int32)


class int64(signedinteger):
    numpy_dtype = _numpy_dtype(np.int64)


class uint8(unsignedinteger):
    numpy_dtype = _numpy_dtype(np.uint8)


class uint16(unsignedinteger):
    numpy_dtype = _numpy_dtype(np.uint16)


class uint32(unsignedinteger):
    numpy_dtype = _numpy_dtype(np.uint32)


class uint64(unsignedinteger):
    numpy_dtype = _numpy_dtype(np.uint64)


class float16(floating):
    numpy_dtype = _numpy_dtype(np.float16)


class float32(floating):
    numpy_dtype = _numpy_dtype(np.float32)


class float64(floating):
    numpy_dtype = _numpy_dtype(np.float64)


class complex64(complexfloating):
    numpy_dtype = _numpy_dtype(np.complex64)


class complex128(complexfloating):
    numpy_dtype = _numpy_dtype(np.complex128)


CONCRETE_DTYPES: tuple[type[generic], ...] = (
    bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
    float16, float32, float64, complex64, complex128,
)

_MARKER_BY_NAME: dict[str, type[generic]] = {marker.__name__: marker for marker in CONCRETE_DTYPES}
_MARKER_BY_NUMPY: dict[np.dtype[np.generic], type[generic]] = {
    marker.numpy_dtype: marker for marker in CONCRETE_DTYPES if marker.numpy_dtype is not None
}


#: Other libraries' dtypes (``torch.float32``, ``array_api_strict.int8``) as they were met.
_MARKER_BY_LIBRARY: dict[object, type[generic]] = {}


def marker_of(dtype: np.dtype[np.generic]) -> type[generic]:
    """The marker class of a numpy dtype, or of another array library's dtype (found by its name:
    ``torch.float32`` is ``float32``); ``TypeError`` for dtypes typedtensor does not carry."""
    if type(dtype) not in _NUMPY_DTYPE_TYPES:  # first: array-api-strict's dtypes hash as numpy's, and warn compared to one
        return _library_marker(dtype)
    try:
        return _MARKER_BY_NUMPY[dtype]
    except KeyError:
        if not dtype.isnative:
            raise TypeError(f"dtype {dtype} is in non-native byte order; typedtensor.tensor(data) converts it") from None
        raise TypeError(f"dtype {dtype} is not supported by typedtensor (supported: {_SUPPORTED})") from None


_SUPPORTED: Final = ", ".join(_MARKER_BY_NAME)
#: The classes of numpy's dtypes we carry (in either byte order). Not ``isinstance(dtype, np.dtype)``,
#: which costs twice a dict lookup: ``Tensor.dtype`` pays for this test.
_NUMPY_DTYPE_TYPES: Final = frozenset(type(dtype) for dtype in _MARKER_BY_NUMPY)


def _library_marker(dtype: object) -> type[generic]:
    """The marker of a dtype of torch or an array API library, by its name (``torch.bool`` is ``bool_``)."""
    found = _MARKER_BY_LIBRARY.get(dtype)
    if found is None:
        name = str(dtype).rpartition(".")[2]
        found = _MARKER_BY_NAME.get("bool_" if name == "bool" else name)
        if found is None:
            raise TypeError(f"dtype {dtype} is not supported by typedtensor (supported: {_SUPPORTED})") from None
        _MARKER_BY_LIBRARY[dtype] = found
    return found


#: Other libraries' dtypes with the numpy dtype standing for each, as they were met.
_NUMPY_BY_LIBRARY: dict[object, np.dtype[np.generic]] = {}


def numpy_dtype_like(dtype: np.dtype[np.generic]) -> np.dtype[np.generic]:
    """The numpy dtype standing for an array's dtype: itself for numpy (and jax, dask), else its marker's."""
    if type(dtype) in _NUMPY_DTYPE_TYPES:
        return dtype
    found = _NUMPY_BY_LIBRARY.get(dtype)
    if found is None:
        found = _NUMPY_BY_LIBRARY[dtype] = numpy_dtype_of(_library_marker(dtype))
    return found


def marker_named(name: str) -> type[generic]:
    """The marker class called ``name`` (``"float32"`` -> ``float32``)."""
    return _MARKER_BY_NAME[name]


def numpy_dtype_of(marker: type[generic]) -> np.dtype[np.generic]:
    """The numpy dtype of a concrete marker; ``TypeError`` for categories such as ``floating``."""
    if not (isinstance(marker, type) and issubclass(marker, generic)) or marker.numpy_dtype is None:
        concrete = ", ".join(_MARKER_BY_NAME)
        raise TypeError(f"{marker!r} is not a concrete typedtensor dtype (one of: {concrete})")
    return marker.numpy_dtype


def type_text(array: np.ndarray[Any, Any]) -> str:
    """The type of a tensor over ``array`` as messages write it: ``Tensor[float32, 2, 3]``."""
    return format_tensor(marker_of(array.dtype).__name__, [str(dim) for dim in array.shape])


#: The numpy scalars an elementwise operand may be (a rank-0 tensor of their dtype, strong, as in
#: numpy 2): those of the dtypes a tensor carries. ``float64`` and ``complex128`` are Python
#: scalars (weak); ``longdouble``, ``str_`` and the like are refused, statically as at run time.
NumpyScalar: TypeAlias = (
    "np.bool | np.int8 | np.int16 | np.int32 | np.int64 | np.uint8 | np.uint16 | np.uint32 | np.uint64"
    " | np.float16 | np.float32 | np.float64 | np.complex64 | np.complex128"
)
