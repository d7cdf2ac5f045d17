"""Building tensors: ``tensor``, ``zeros``, ``ones``, ``full``, ``arange``, ``eye``, ``zeros_like``,
``ones_like``, ``full_like``, ``linspace``.

Each makes a numpy array, or with ``like=x`` an array of ``x``'s library on ``x``'s device (a
torch tensor for a tensor over torch), of the same dtype and shape (SPEC 10).
"""

from __future__ import annotations

import functools
import math
from typing import Any, Final, SupportsIndex, overload

import numpy as np

from typedtensor._arguments import int_argument, is_int
from typedtensor._dtypes import float32, float64, generic, int64, marker_of, numpy_dtype_of
from typedtensor._errors import problem_error
from typedtensor._generated.type_vars import GenericT, NewDT, Shape
from typedtensor._ops.backends import Backend, backend_of, to_dtype
from typedtensor._ops.common import refuse_result
from typedtensor._shape_rules import INT_DIMS, Problem, Shape as RuleShape, arange_shape, counted_shape
from typedtensor._tensor import AnyTensor, Tensor, unwrap, wrap

_CACHE_SIZE: Final = 1024


# The declared types say the dtype passed, and no more: an overload per numpy dtype or rank would be
# wrong under pyright, which picks the first for ``NDArray[Any]`` (``np.array(...)``), and one that
# keeps a Tensor's shape is wrong under pyright for an argument typed ``Any`` (it solves ``*Shape``
# to one dim). The plugin reads a Tensor's type, an ndarray's dtype and rank, and a nested list's
# sizes and dtype.
@overload
def tensor(data: object, dtype: type[NewDT], *, like: AnyTensor | None = None) -> Tensor[NewDT, *tuple[Any, ...]]: ...
@overload
def tensor(data: object, dtype: None = None, *, like: AnyTensor | None = None) -> Tensor[Any, *tuple[Any, ...]]: ...
def tensor(data: object, dtype: type[GenericT] | None = None, *, like: AnyTensor | None = None) -> Tensor[Any, *tuple[Any, ...]]:
    """A tensor holding a copy of ``data`` (nested sequences, a scalar, an array or a Tensor).

    Without ``dtype`` numpy's inference applies (Python floats give ``float64``). Statically the
    result has ``dtype``; with the mypy plugin also a Tensor's type, an ndarray's dtype and rank as
    numpy's stubs type it, and a list display's literal sizes (``tt.tensor([[1.0, 2.0]])`` is
    ``Tensor[float64, L[1], L[2]]``).

    >>> import typedtensor as tt
    >>> tt.tensor([[1, 2], [3, 4]], dtype=tt.int32)
    Tensor[int32, 2, 2]([[1, 2],
                         [3, 4]])
    """
    if like is not None:
        return _tensor_like(data, dtype, like)
    if isinstance(data, Tensor):
        data = data.numpy()
    elif type(data) is not np.ndarray and (library := _library_of(data)) is not None:
        data = library.to_numpy(data)  # a torch tensor detached (one that records gradients too), a dask array computed
    if isinstance(data, np.ma.MaskedArray):
        raise TypeError("tensor: a masked array's mask would be lost; fill it first (data.filled(value))")
    numpy_dtype = None if dtype is None else numpy_dtype_of(dtype)
    try:
        array = np.array(data, dtype=numpy_dtype, copy=True)
    except (TypeError, ValueError, OverflowError) as error:  # an int beyond dtype stays an OverflowError
        kind = OverflowError if isinstance(error, OverflowError) else TypeError
        raise kind(f"tensor: cannot make a tensor of {type(data).__name__} data: {error}") from None
    if array.dtype == object:  # what numpy makes of data it cannot hold in numbers
        raise TypeError(
            f"tensor: cannot make a tensor of {type(data).__name__} data: numpy holds it as Python objects "
            "(ragged lists, None, ints beyond 64 bits ...)"
        )
    if not array.dtype.isnative:  # the copy may as well be in the machine's byte order
        array = array.astype(array.dtype.newbyteorder("="))
    marker_of(array.dtype)  # raises for strings and other dtypes we do not carry
    return Tensor(array)


def library_of_like(caller: str, like: object) -> tuple[Backend, Any]:
    """The library and the device of ``like``'s array, where a creation function makes its result."""
    array = unwrap(caller, like, "like")
    backend = backend_of(array)
    return backend, backend.device(array)


def _tensor_like(data: object, dtype: type[generic] | None, like: object) -> Tensor[Any, *tuple[Any, ...]]:
    """``tensor(data, dtype, like=like)``: a copy of ``data`` on ``like``'s library and device.
    Data that is no array of that library is read as numpy reads it first, so its dtype is
    the one ``tensor(data)`` gives (Python floats are float64, not torch's float32)."""
    backend, device = library_of_like("tensor", like)
    if isinstance(data, Tensor):
        data = data.array
    if type(data) is not np.ndarray and _library_of(data) is backend:
        copied = backend.copy(data)
        return Tensor(copied if dtype is None else to_dtype(copied, dtype))
    array = tensor(data, dtype).array
    return Tensor(backend.xp.asarray(array, dtype=backend.dtype(marker_of(array.dtype)), device=device, copy=True))


def _library_of(data: object) -> Backend | None:
    """The library of an array of another library than numpy; None for other data (numpy reads it)."""
    if isinstance(data, (np.ndarray, list, tuple, int, float, complex)):
        return None
    try:
        return backend_of(data)
    except TypeError:
        return None


@overload
def zeros(shape: tuple[*Shape], *, like: AnyTensor | None = None) -> Tensor[float32, *Shape]: ...
@overload
def zeros(shape: tuple[*Shape], dtype: type[GenericT], *, like: AnyTensor | None = None) -> Tensor[GenericT, *Shape]: ...
@overload
def zeros(shape: tuple[SupportsIndex, ...], *, like: AnyTensor | None = None) -> Tensor[float32, *tuple[Any, ...]]: ...  # type: ignore[overload-cannot-match]  # pyright: ignore[reportOverlappingOverload]
@overload
def zeros(shape: tuple[SupportsIndex, ...], dtype: type[GenericT], *, like: AnyTensor | None = None) -> Tensor[GenericT, *tuple[Any, ...]]: ...  # type: ignore[overload-cannot-match]  # pyright: ignore[reportOverlappingOverload]
def zeros(shape: tuple[Any, ...], dtype: type[generic] = float32, *, like: AnyTensor | None = None) -> Tensor[Any, *tuple[Any, ...]]:
    """A tensor of zeros; ``dtype`` defaults to ``float32``."""
    return _filled("zeros", shape, 0, dtype, like)


@overload
def ones(shape: tuple[*Shape], *, like: AnyTensor | None = None) -> Tensor[float32, *Shape]: ...
@overload
def ones(shape: tuple[*Shape], dtype: type[GenericT], *, like: AnyTensor | None = None) -> Tensor[GenericT, *Shape]: ...
@overload
def ones(shape: tuple[SupportsIndex, ...], *, like: AnyTensor | None = None) -> Tensor[float32, *tuple[Any, ...]]: ...  # type: ignore[overload-cannot-match]  # pyright: ignore[reportOverlappingOverload]
@overload
def ones(shape: tuple[SupportsIndex, ...], dtype: type[GenericT], *, like: AnyTensor | None = None) -> Tensor[GenericT, *tuple[Any, ...]]: ...  # type: ignore[overload-cannot-match]  # pyright: ignore[reportOverlappingOverload]
def ones(shape: tuple[Any, ...], dtype: type[generic] = float32, *, like: AnyTensor | None = None) -> Tensor[Any, *tuple[Any, ...]]:
    """A tensor of ones; ``dtype`` defaults to ``float32``."""
    return _filled("ones", shape, 1, dtype, like)


@overload
def full(shape: tuple[*Shape], value: complex | np.number[Any] | np.bool_, dtype: type[GenericT], *, like: AnyTensor | None = None) -> Tensor[GenericT, *Shape]: ...
@overload
def full(shape: tuple[SupportsIndex, ...], value: complex | np.number[Any] | np.bool_, dtype: type[GenericT], *, like: AnyTensor | None = None) -> Tensor[GenericT, *tuple[Any, ...]]: ...  # type: ignore[overload-cannot-match]  # pyright: ignore[reportOverlappingOverload]  # noqa: E501
def full(shape: tuple[Any, ...], value: complex | np.number[Any] | np.bool_, dtype: type[generic], *, like: AnyTensor | None = None) -> Tensor[Any, *tuple[Any, ...]]:
    """A tensor of ``shape`` with every element ``value``, converted to ``dtype``.

    ``value`` is a number that ``dtype`` holds: a complex number for a real dtype, or a value
    beyond the dtype's range, is refused (numpy would drop the imaginary part, or overflow).
    """
    return _filled("full", shape, _fill_value(value, dtype), dtype, like)


def _fill_value(value: object, dtype: type[generic], op: str = "full") -> complex:
    """``value`` if ``dtype`` holds it, else a ``TypeError`` (not a number, or complex for a real
    dtype) or a ``ValueError`` (out of the dtype's range)."""
    if not isinstance(value, (bool, int, float, complex, np.bool_, np.number)):
        got = "None" if value is None else type(value).__name__
        raise TypeError(f'"{op}": value must be a number (bool, int, float or complex), got {got}')
    numpy_dtype = numpy_dtype_of(dtype)
    if isinstance(value, (complex, np.complexfloating)):
        if numpy_dtype.kind != "c":
            raise TypeError(f'"{op}": a complex value ({value!r}) does not fit {dtype.__name__}, a real dtype; pass its .real or a complex dtype')
        parts = [part for part in (value.real, value.imag) if math.isfinite(part)]  # NaN and infinities fit
        if parts:
            _check_in_range(op, f"value {value} is", min(parts), max(parts), dtype)
    elif numpy_dtype.kind not in "fc" or not isinstance(value, (float, np.floating)) or math.isfinite(value):
        _check_in_range(op, f"value {value} is", value, value, dtype)  # NaN and infinities fit a float dtype
    return value  # type: ignore[return-value]  # a numpy number is one too


def _check_in_range(op: str, subject: str, low: Any, high: Any, dtype: type[generic]) -> None:
    """A ``ValueError`` if ``low`` or ``high`` is beyond the finite values of ``dtype`` (numpy
    would wrap an integer around, or round a float to infinity); a complex dtype's are those of
    its parts; bool dtypes pass."""
    bounds = _finite_range(numpy_dtype_of(dtype))
    if bounds is not None and not bounds[0] <= low <= high <= bounds[1]:
        raise ValueError(f'"{op}": {subject} out of range for {dtype.__name__} ({bounds[0]} to {bounds[1]})')


@functools.lru_cache(maxsize=None)
def _finite_range(numpy_dtype: np.dtype[Any]) -> tuple[float, float] | None:
    """The smallest and largest finite values of an integer or float dtype (a complex dtype's
    parts), as Python numbers (no cast in a comparison); None for bool. Cached: ``np.iinfo``
    costs microseconds a call."""
    if numpy_dtype.kind in "iu":
        integers = np.iinfo(numpy_dtype)
        return int(integers.min), int(integers.max)
    if numpy_dtype.kind in "fc":
        floats = np.finfo(numpy_dtype)
        return float(floats.min), float(floats.max)
    return None


def _filled(caller: str, shape: tuple[Any, ...], value: complex, dtype: type[generic], like: object) -> Tensor[Any, *tuple[Any, ...]]:
    sizes, numpy_dtype = checked_shape(caller, shape), numpy_dtype_of(dtype)
    if like is not None:
        backend, device = library_of_like(caller, like)
        return wrap(backend.xp.full(sizes, value, dtype=backend.dtype(dtype), device=device))
    try:
        return Tensor(np.full(sizes, value, dtype=numpy_dtype))
    except (ValueError, OverflowError) as error:
        refusal: Exception = error
    refuse_result(caller, [], sizes, numpy_dtype.itemsize, refusal)


def checked_shape(caller: str, shape: object) -> tuple[int, ...]:
    """``shape`` if it is a tuple of non-negative ints, else a ``ValueError`` naming ``caller``."""
    if not isinstance(shape, tuple) or not all(is_int(n) and n >= 0 for n in shape):
        raise ValueError(f"{caller}: shape must be a tuple of non-negative ints, got {shape!r}")
    return shape


@functools.lru_cache(maxsize=_CACHE_SIZE)
def _arange_problem(start: int, stop: int | None, step: int) -> Problem | None:
    shape: RuleShape[int, None] | Problem = arange_shape(start, stop, step, INT_DIMS)
    return shape if isinstance(shape, Problem) else None


@overload
def arange(start: SupportsIndex, stop: SupportsIndex | None = None, step: SupportsIndex = 1, *, like: AnyTensor | None = None) -> Tensor[int64, Any]: ...
@overload
def arange(start: SupportsIndex, stop: SupportsIndex | None = None, step: SupportsIndex = 1, *, dtype: type[GenericT], like: AnyTensor | None = None) -> Tensor[GenericT, Any]: ...
def arange(start: SupportsIndex, stop: SupportsIndex | None = None, step: SupportsIndex = 1, *, dtype: type[generic] = int64, like: AnyTensor | None = None) -> Tensor[Any, Any]:
    """``start, start + step, ...`` up to ``stop`` (excluded), as numpy's ``arange``; ``arange(n)``
    counts from 0 to ``n - 1``. The bounds are ints; ``dtype`` defaults to ``int64``.

    With the mypy plugin ``arange(5)`` is ``Tensor[int64, L[5]]`` and ``arange(x.shape[0])`` has
    the dim of ``x.shape[0]``.

    >>> import typedtensor as tt
    >>> tt.arange(2, 11, 3)
    Tensor[int64, 3]([2, 5, 8])
    """
    bounds = (int_argument("arange", "start", start), None if stop is None else int_argument("arange", "stop", stop), int_argument("arange", "step", step))
    problem = _arange_problem(*bounds)
    if problem is not None:
        raise problem_error(problem, "arange", [])
    first, last_bound, stride = bounds
    begin, end = (0, first) if last_bound is None else (first, last_bound)
    count = len(range(begin, end, stride))
    if count:
        last = begin + (count - 1) * stride
        _check_in_range("arange", f"values {begin} to {last} are", min(begin, last), max(begin, last), dtype)
    if like is not None:
        backend, device = library_of_like("arange", like)
        return wrap(backend.xp.arange(begin, end, stride, dtype=backend.dtype(dtype), device=device))
    try:
        return wrap(np.arange(begin, end, stride, dtype=numpy_dtype_of(dtype)))
    except (OverflowError, ValueError, TypeError) as error:  # a bound that does not fit the dtype
        refusal = f'"arange": {error}'
    raise ValueError(refusal)


@overload
def eye(n: SupportsIndex, m: SupportsIndex | None = None, *, k: SupportsIndex = 0, like: AnyTensor | None = None) -> Tensor[float32, Any, Any]: ...
@overload
def eye(n: SupportsIndex, m: SupportsIndex | None = None, *, k: SupportsIndex = 0, dtype: type[GenericT], like: AnyTensor | None = None) -> Tensor[GenericT, Any, Any]: ...
def eye(n: SupportsIndex, m: SupportsIndex | None = None, *, k: SupportsIndex = 0, dtype: type[generic] = float32, like: AnyTensor | None = None) -> Tensor[Any, Any, Any]:
    """A ``[n, m]`` tensor (``m`` defaults to ``n``) with ones on diagonal ``k`` (0: the main
    one, positive above it) and zeros elsewhere; ``dtype`` defaults to ``float32`` as for ``zeros``.

    >>> import typedtensor as tt
    >>> tt.eye(2, 3, k=1, dtype=tt.int8)
    Tensor[int8, 2, 3]([[0, 1, 0],
                        [0, 0, 1]])
    """
    rows = int_argument("eye", "n", n)
    columns = rows if m is None else int_argument("eye", "m", m)
    if rows < 0 or columns < 0:
        raise ValueError(f'"eye": sizes must not be negative, got n={rows}, m={columns}')
    numpy_dtype = numpy_dtype_of(dtype)
    if like is not None:
        backend, device = library_of_like("eye", like)
        return wrap(backend.eye(rows, columns, int_argument("eye", "k", k), dtype, device))
    try:
        return wrap(np.eye(rows, columns, int_argument("eye", "k", k), dtype=numpy_dtype))
    except (ValueError, OverflowError) as error:
        refusal: Exception = error
    refuse_result("eye", [], (rows, columns), numpy_dtype.itemsize, refusal)


@overload
def zeros_like(x: Tensor[GenericT, *Shape]) -> Tensor[GenericT, *Shape]: ...
@overload
def zeros_like(x: Tensor[Any, *Shape], dtype: type[NewDT]) -> Tensor[NewDT, *Shape]: ...
def zeros_like(x: AnyTensor, dtype: type[generic] | None = None) -> AnyTensor:
    """A tensor of zeros of ``x``'s shape, dtype (or ``dtype``) and library."""
    return _filled_like("zeros_like", x, 0, dtype)


@overload
def ones_like(x: Tensor[GenericT, *Shape]) -> Tensor[GenericT, *Shape]: ...
@overload
def ones_like(x: Tensor[Any, *Shape], dtype: type[NewDT]) -> Tensor[NewDT, *Shape]: ...
def ones_like(x: AnyTensor, dtype: type[generic] | None = None) -> AnyTensor:
    """A tensor of ones of ``x``'s shape, dtype (or ``dtype``) and library."""
    return _filled_like("ones_like", x, 1, dtype)


@overload
def full_like(x: Tensor[GenericT, *Shape], value: complex | np.number[Any] | np.bool_) -> Tensor[GenericT, *Shape]: ...
@overload
def full_like(x: Tensor[Any, *Shape], value: complex | np.number[Any] | np.bool_, dtype: type[NewDT]) -> Tensor[NewDT, *Shape]: ...
def full_like(x: AnyTensor, value: complex | np.number[Any] | np.bool_, dtype: type[generic] | None = None) -> AnyTensor:
    """A tensor of ``x``'s shape and library with every element ``value``, in ``x``'s dtype (or
    ``dtype``); ``value`` must fit that dtype, as for ``full``."""
    return _filled_like("full_like", x, value, dtype)


def _filled_like(caller: str, x: object, value: object, dtype: type[generic] | None) -> AnyTensor:
    """``full`` of ``x``'s shape on ``x``'s library, in ``dtype`` (None: ``x``'s)."""
    array = unwrap(caller, x)
    marker = marker_of(array.dtype) if dtype is None else dtype
    return _filled(caller, tuple(array.shape), _fill_value(value, marker, caller), marker, None if type(array) is np.ndarray else x)


@overload
def linspace(start: float, stop: float, num: SupportsIndex, *, endpoint: bool = True, like: AnyTensor | None = None) -> Tensor[float64, Any]: ...
@overload
def linspace(start: float, stop: float, num: SupportsIndex, *, endpoint: bool = True, dtype: type[GenericT], like: AnyTensor | None = None) -> Tensor[GenericT, Any]: ...
def linspace(start: float, stop: float, num: SupportsIndex, *, endpoint: bool = True, dtype: type[generic] = float64, like: AnyTensor | None = None) -> Tensor[Any, Any]:
    """``num`` values evenly spaced from ``start`` to ``stop`` (included unless ``endpoint`` is
    False), as numpy's ``linspace``; ``dtype`` defaults to ``float64``. With the mypy plugin
    ``linspace(0, 1, 5)`` is ``Tensor[float64, L[5]]``.

    >>> import typedtensor as tt
    >>> tt.linspace(0.0, 1.0, 5)
    Tensor[float64, 5]([0.  , 0.25, 0.5 , 0.75, 1.  ])
    """
    count = int_argument("linspace", "num", num)
    problem: RuleShape[int, None] | Problem = counted_shape(count, "num", INT_DIMS)
    if isinstance(problem, Problem):
        raise problem_error(problem, "linspace", [])
    for name, bound in (("start", start), ("stop", stop)):
        if not isinstance(bound, (int, float, np.integer, np.floating)) or isinstance(bound, (bool, np.bool_)):
            raise TypeError(f'"linspace": {name} must be a real number (int or float), got {type(bound).__name__} {bound!r}')
    values = np.linspace(float(start), float(stop), count, endpoint=bool(endpoint), dtype=numpy_dtype_of(dtype))
    return wrap(values) if like is None else _tensor_like(values, None, like)
