"""``Tensor[DT, *Shape]``: a numpy array whose dtype and shape live in its static type."""

from __future__ import annotations

from collections.abc import Iterator
from types import EllipsisType
from typing import Any, ClassVar, Generic, Literal, SupportsIndex, TypeAlias, TypeVar, TypeVarTuple, Unpack, overload

import numpy as np

from typedtensor import _reduce
from typedtensor._dtypes import generic, marker_of, type_text

# BEGIN GENERATED imports (tools/generate_signatures.py)
from typedtensor._dtype_vars import GenericT, NumberT, IntegerT, SignedT, UnsignedT, InexactT, FloatingT, ComplexT, NewDT
from typedtensor._dtypes import bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64, complex64, complex128, signedinteger, unsignedinteger, floating, complexfloating, integer, inexact, number, generic
# END GENERATED imports

DT = TypeVar("DT", bound=generic, covariant=True)
Shape = TypeVarTuple("Shape")

#: One axis: a Python or numpy integer (an ``IntEnum`` member too). A ``bool`` is an ``int`` to
#: type checkers but not an axis: the runtime refuses it, and so does the mypy plugin.
AxisIndex: TypeAlias = int | np.integer[Any]
#: The items of a list of axes. A TypeVar because ``list`` is invariant: ``list[int]``,
#: ``list[np.int64]`` and a list of ``IntEnum`` members are all lists of axes.
AxisIndexT = TypeVar("AxisIndexT", bound=AxisIndex)
#: What ``axis`` accepts, exactly what the runtime accepts (``_reduce._axis_key``): ``None``, one
#: axis, a tuple or a list of axes, or a Selection string. Not any ``Sequence``: ``bytes``,
#: ``range`` and ``deque`` are refused. Write ``Axis[int]`` (the type of a list's items) in your
#: own signatures.
Axis: TypeAlias = AxisIndex | tuple[AxisIndex, ...] | list[AxisIndexT] | str | None

# The descriptor behind ``x.T``, and the dtype TypeVar of booleans beside the categories'
# (``_dtype_vars``): bool @ bool is bool.
BoolT = TypeVar("BoolT", bound=bool_)
_N = TypeVar("_N")
_K = TypeVar("_K")
_M = TypeVar("_M")


class _Transpose:
    """``x.T``: the dims reversed, as numpy's ``.T`` (see ``typedtensor.transpose``)."""

    @overload
    def __get__(self, instance: None, owner: type[Any]) -> _Transpose: ...
    @overload
    def __get__(self, instance: Tensor[GenericT, _N, _M], owner: type[Any]) -> Tensor[GenericT, _M, _N]: ...
    @overload
    def __get__(self, instance: Tensor[GenericT, Unpack[Shape]], owner: type[Any]) -> Tensor[GenericT, Unpack[tuple[Any, ...]]]: ...
    def __get__(self, instance: Tensor[Any, Unpack[tuple[Any, ...]]] | None, owner: type[Any]) -> object:
        return self if instance is None else _shaping.transpose(instance)

# Indexing: the receiver of an int or a slice has a first dim (DT2 and Rest name its parts).
DT2 = TypeVar("DT2", bound=generic)
Rest = TypeVarTuple("Rest")
#: One item of an index: an int, a slice, None (a new dim of 1), ``...``, or an index tensor.
IndexItem: TypeAlias = (
    "SupportsIndex | slice | None | EllipsisType | Tensor[integer, Unpack[tuple[Any, ...]]] | Tensor[bool_, Unpack[tuple[Any, ...]]]"
)


class Tensor(Generic[DT, Unpack[Shape]]):
    """An immutable-shape wrapper over a numpy array, typed ``Tensor[dtype, *dims]``.

    Build one with ``typedtensor.tensor``, ``zeros``, ``ones`` or ``full``; ``Tensor(array)``
    wraps an existing ndarray without copying it.

    >>> import typedtensor as tt
    >>> tt.zeros((2, 3), tt.float32).sum(axis=1)
    Tensor[float32, 2]([0., 0.])
    """

    __slots__ = ("_array",)
    _array: np.ndarray[Any, Any]
    # numpy defers to our operators (``np.float64(2) + x`` calls ``x.__radd__``) and its ufuncs
    # refuse a Tensor instead of returning an untyped ndarray: ``np.asarray(x)`` says so explicitly.
    __array_ufunc__ = None

    def __init__(self, array: np.ndarray[Any, Any]) -> None:
        if type(array) is not np.ndarray:
            # A subclass changes what reductions mean: np.matrix keeps 2 dims, a masked array
            # skips masked elements. Silently treating either as a plain array gives wrong answers.
            kind = "a subclass" if isinstance(array, np.ndarray) else "not one"
            raise TypeError(
                f"Tensor wraps a plain numpy.ndarray, got {type(array).__name__} ({kind}); "
                "use typedtensor.tensor(data) to copy the data into one"
            )
        marker_of(array.dtype)  # raises for dtypes we do not carry
        self._array = array

    @property
    def shape(self) -> tuple[Unpack[Shape]]:
        """The dims, typed ``tuple[*Shape]`` so that ``x.shape[0]`` keeps its literal size."""
        shape: tuple[Unpack[Shape]] = self._array.shape
        return shape

    @property
    def dtype(self) -> type[DT]:
        """The dtype marker class, such as ``typedtensor.float32``."""
        return marker_of(self._array.dtype)  # type: ignore[return-value]

    @property
    def ndim(self) -> int:
        return self._array.ndim

    @property
    def size(self) -> int:
        return self._array.size

    def numpy(self) -> np.ndarray[Any, Any]:
        """The underlying ndarray (shared, not copied)."""
        return self._array

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray[Any, Any]:
        if copy:
            return np.array(self._array, dtype=dtype, copy=True)
        return self._array if dtype is None else self._array.astype(dtype, copy=False)

    def __len__(self) -> int:
        """The size of the first dim; a rank-0 tensor has none (``TypeError``, as numpy)."""
        if self._array.ndim == 0:
            raise TypeError(f"len() of {type_text(self._array)}: a rank-0 tensor has no dims")
        return len(self._array)

    def __iter__(self) -> Iterator[Tensor[DT, Unpack[tuple[Any, ...]]]]:
        """The tensors along the first dim. Without this, Python would iterate through
        ``__getitem__`` until an ``IndexError``, and a rank-0 tensor would look empty."""
        if self._array.ndim == 0:
            raise TypeError(f"iteration over {type_text(self._array)}: a rank-0 tensor has no dims")
        return (wrap(row) for row in self._array)

    def __repr__(self) -> str:
        head = f"{type_text(self._array)}("
        return f"{head}{np.array2string(self._array, separator=', ', prefix=head)})"

    def sum(self, axis: Axis[AxisIndexT] = None, keepdims: bool = False) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """Sum over ``axis`` (see ``typedtensor.reduce_sum``)."""
        return wrap(_reduce.reduce_array("sum", self._array, axis, keepdims, "sum"))

    def mean(self, axis: Axis[AxisIndexT] = None, keepdims: bool = False) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """Arithmetic mean over ``axis`` (see ``typedtensor.reduce_mean``)."""
        return wrap(_reduce.reduce_array("mean", self._array, axis, keepdims, "mean"))

    def prod(self, axis: Axis[AxisIndexT] = None, keepdims: bool = False) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """Product over ``axis`` (see ``typedtensor.reduce_prod``)."""
        return wrap(_reduce.reduce_array("prod", self._array, axis, keepdims, "prod"))

    def max(self, axis: Axis[AxisIndexT] = None, keepdims: bool = False) -> Tensor[DT, Unpack[tuple[Any, ...]]]:
        """Maximum over ``axis``, NaN-propagating (see ``typedtensor.reduce_max``)."""
        return wrap(_reduce.reduce_array("max", self._array, axis, keepdims, "max"))

    def min(self, axis: Axis[AxisIndexT] = None, keepdims: bool = False) -> Tensor[DT, Unpack[tuple[Any, ...]]]:
        """Minimum over ``axis``, NaN-propagating (see ``typedtensor.reduce_min``)."""
        return wrap(_reduce.reduce_array("min", self._array, axis, keepdims, "min"))

    def any(self, axis: Axis[AxisIndexT] = None, keepdims: bool = False) -> Tensor[bool_, Unpack[tuple[Any, ...]]]:
        """Whether any element over ``axis`` is nonzero (see ``typedtensor.reduce_any``)."""
        return wrap(_reduce.reduce_array("any", self._array, axis, keepdims, "any"))

    def all(self, axis: Axis[AxisIndexT] = None, keepdims: bool = False) -> Tensor[bool_, Unpack[tuple[Any, ...]]]:
        """Whether every element over ``axis`` is nonzero (see ``typedtensor.reduce_all``)."""
        return wrap(_reduce.reduce_array("all", self._array, axis, keepdims, "all"))

    # Elementwise operators: each calls the op of its name (``x + y`` is ``typedtensor.add(x, y)``).
    # ``==`` is elementwise, so a tensor is unhashable, as an ndarray is.
    __hash__: ClassVar[None]  # type: ignore[assignment]

    def __bool__(self) -> bool:
        """The truth of a one-element tensor; more elements are ambiguous (numpy's ``ValueError``)."""
        return bool(self._array)

    # BEGIN GENERATED operators (tools/generate_signatures.py)
    @overload
    def __neg__(self: Tensor[NumberT, *Shape]) -> Tensor[NumberT, *Shape]: ...
    @overload
    def __neg__(self: Tensor[generic, *Shape]) -> Tensor[number, *Shape]: ...
    def __neg__(self) -> Tensor[Any, *tuple[Any, ...]]:
        return _elementwise.unary("negative", self)

    @overload
    def __pos__(self: Tensor[NumberT, *Shape]) -> Tensor[NumberT, *Shape]: ...
    @overload
    def __pos__(self: Tensor[generic, *Shape]) -> Tensor[number, *Shape]: ...
    def __pos__(self) -> Tensor[Any, *tuple[Any, ...]]:
        return _elementwise.unary("positive", self)

    @overload
    def __abs__(self: Tensor[FloatingT, *Shape]) -> Tensor[FloatingT, *Shape]: ...
    @overload
    def __abs__(self: Tensor[IntegerT, *Shape]) -> Tensor[IntegerT, *Shape]: ...
    @overload
    def __abs__(self: Tensor[bool_, *Shape]) -> Tensor[bool_, *Shape]: ...
    @overload
    def __abs__(self: Tensor[complex64, *Shape]) -> Tensor[float32, *Shape]: ...
    @overload
    def __abs__(self: Tensor[complex128, *Shape]) -> Tensor[float64, *Shape]: ...
    @overload
    def __abs__(self: Tensor[inexact, *Shape]) -> Tensor[floating, *Shape]: ...
    @overload
    def __abs__(self: Tensor[number, *Shape]) -> Tensor[number, *Shape]: ...
    @overload
    def __abs__(self: Tensor[generic, *Shape]) -> Tensor[generic, *Shape]: ...
    def __abs__(self) -> Tensor[Any, *tuple[Any, ...]]:
        return _elementwise.unary("abs", self)

    @overload
    def __add__(self: Tensor[FloatingT, *Shape], other: Tensor[FloatingT, *Shape]) -> Tensor[FloatingT, *Shape]: ...
    @overload
    def __add__(self: Tensor[ComplexT, *Shape], other: Tensor[ComplexT, *Shape]) -> Tensor[ComplexT, *Shape]: ...
    @overload
    def __add__(self: Tensor[FloatingT, *tuple[Any, ...]], other: Tensor[FloatingT, *tuple[Any, ...]]) -> Tensor[FloatingT, *tuple[Any, ...]]: ...
    @overload
    def __add__(self: Tensor[ComplexT, *tuple[Any, ...]], other: Tensor[ComplexT, *tuple[Any, ...]]) -> Tensor[ComplexT, *tuple[Any, ...]]: ...
    @overload
    def __add__(self: Tensor[InexactT, *Shape], other: float) -> Tensor[InexactT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __add__(self: Tensor[ComplexT, *Shape], other: complex) -> Tensor[ComplexT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __add__(self: Tensor[float16 | float32, *Shape], other: complex) -> Tensor[complex64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __add__(self: Tensor[SignedT, *Shape], other: Tensor[SignedT, *Shape]) -> Tensor[SignedT, *Shape]: ...
    @overload
    def __add__(self: Tensor[UnsignedT, *Shape], other: Tensor[UnsignedT, *Shape]) -> Tensor[UnsignedT, *Shape]: ...
    @overload
    def __add__(self: Tensor[bool_, *Shape], other: Tensor[bool_, *Shape]) -> Tensor[bool_, *Shape]: ...
    @overload
    def __add__(self: Tensor[generic, *Shape], other: Tensor[generic, *Shape]) -> Tensor[Any, *Shape]: ...
    @overload
    def __add__(self: Tensor[SignedT, *tuple[Any, ...]], other: Tensor[SignedT, *tuple[Any, ...]]) -> Tensor[SignedT, *tuple[Any, ...]]: ...
    @overload
    def __add__(self: Tensor[UnsignedT, *tuple[Any, ...]], other: Tensor[UnsignedT, *tuple[Any, ...]]) -> Tensor[UnsignedT, *tuple[Any, ...]]: ...
    @overload
    def __add__(self: Tensor[bool_, *tuple[Any, ...]], other: Tensor[bool_, *tuple[Any, ...]]) -> Tensor[bool_, *tuple[Any, ...]]: ...
    @overload
    def __add__(self: Tensor[generic, *tuple[Any, ...]], other: Tensor[generic, *tuple[Any, ...]]) -> Tensor[Any, *tuple[Any, ...]]: ...
    @overload
    def __add__(self: Tensor[GenericT, *Shape], other: bool) -> Tensor[GenericT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __add__(self: Tensor[NumberT, *Shape], other: int) -> Tensor[NumberT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __add__(self: Tensor[bool_, *Shape], other: int) -> Tensor[int64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __add__(self: Tensor[generic, *Shape], other: int) -> Tensor[number, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __add__(self: Tensor[bool_ | integer, *Shape], other: float) -> Tensor[float64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __add__(self: Tensor[generic, *Shape], other: float) -> Tensor[inexact, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __add__(self: Tensor[bool_ | float64 | integer, *Shape], other: complex) -> Tensor[complex128, *Shape]: ...
    @overload
    def __add__(self: Tensor[generic, *Shape], other: complex) -> Tensor[complexfloating, *Shape]: ...
    def __add__(self, other: Tensor[Any, *tuple[Any, ...]] | complex) -> Tensor[Any, *tuple[Any, ...]]:
        return _elementwise.binary("add", self, other)

    @overload
    def __sub__(self: Tensor[FloatingT, *Shape], other: Tensor[FloatingT, *Shape]) -> Tensor[FloatingT, *Shape]: ...
    @overload
    def __sub__(self: Tensor[ComplexT, *Shape], other: Tensor[ComplexT, *Shape]) -> Tensor[ComplexT, *Shape]: ...
    @overload
    def __sub__(self: Tensor[FloatingT, *tuple[Any, ...]], other: Tensor[FloatingT, *tuple[Any, ...]]) -> Tensor[FloatingT, *tuple[Any, ...]]: ...
    @overload
    def __sub__(self: Tensor[ComplexT, *tuple[Any, ...]], other: Tensor[ComplexT, *tuple[Any, ...]]) -> Tensor[ComplexT, *tuple[Any, ...]]: ...
    @overload
    def __sub__(self: Tensor[SignedT, *Shape], other: Tensor[SignedT, *Shape]) -> Tensor[SignedT, *Shape]: ...
    @overload
    def __sub__(self: Tensor[UnsignedT, *Shape], other: Tensor[UnsignedT, *Shape]) -> Tensor[UnsignedT, *Shape]: ...
    @overload
    def __sub__(self: Tensor[generic, *Shape], other: Tensor[generic, *Shape]) -> Tensor[Any, *Shape]: ...
    @overload
    def __sub__(self: Tensor[SignedT, *tuple[Any, ...]], other: Tensor[SignedT, *tuple[Any, ...]]) -> Tensor[SignedT, *tuple[Any, ...]]: ...
    @overload
    def __sub__(self: Tensor[UnsignedT, *tuple[Any, ...]], other: Tensor[UnsignedT, *tuple[Any, ...]]) -> Tensor[UnsignedT, *tuple[Any, ...]]: ...
    @overload
    def __sub__(self: Tensor[generic, *tuple[Any, ...]], other: Tensor[generic, *tuple[Any, ...]]) -> Tensor[Any, *tuple[Any, ...]]: ...
    @overload
    def __sub__(self: Tensor[generic, *Shape], other: bool) -> Tensor[number, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __sub__(self: Tensor[InexactT, *Shape], other: float) -> Tensor[InexactT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __sub__(self: Tensor[ComplexT, *Shape], other: complex) -> Tensor[ComplexT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __sub__(self: Tensor[float16 | float32, *Shape], other: complex) -> Tensor[complex64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __sub__(self: Tensor[NumberT, *Shape], other: int) -> Tensor[NumberT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __sub__(self: Tensor[bool_, *Shape], other: int) -> Tensor[int64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __sub__(self: Tensor[generic, *Shape], other: int) -> Tensor[number, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __sub__(self: Tensor[bool_ | integer, *Shape], other: float) -> Tensor[float64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __sub__(self: Tensor[generic, *Shape], other: float) -> Tensor[inexact, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __sub__(self: Tensor[bool_ | float64 | integer, *Shape], other: complex) -> Tensor[complex128, *Shape]: ...
    @overload
    def __sub__(self: Tensor[generic, *Shape], other: complex) -> Tensor[complexfloating, *Shape]: ...
    def __sub__(self, other: Tensor[Any, *tuple[Any, ...]] | complex) -> Tensor[Any, *tuple[Any, ...]]:
        return _elementwise.binary("subtract", self, other)

    @overload
    def __mul__(self: Tensor[FloatingT, *Shape], other: Tensor[FloatingT, *Shape]) -> Tensor[FloatingT, *Shape]: ...
    @overload
    def __mul__(self: Tensor[ComplexT, *Shape], other: Tensor[ComplexT, *Shape]) -> Tensor[ComplexT, *Shape]: ...
    @overload
    def __mul__(self: Tensor[FloatingT, *tuple[Any, ...]], other: Tensor[FloatingT, *tuple[Any, ...]]) -> Tensor[FloatingT, *tuple[Any, ...]]: ...
    @overload
    def __mul__(self: Tensor[ComplexT, *tuple[Any, ...]], other: Tensor[ComplexT, *tuple[Any, ...]]) -> Tensor[ComplexT, *tuple[Any, ...]]: ...
    @overload
    def __mul__(self: Tensor[InexactT, *Shape], other: float) -> Tensor[InexactT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __mul__(self: Tensor[ComplexT, *Shape], other: complex) -> Tensor[ComplexT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __mul__(self: Tensor[float16 | float32, *Shape], other: complex) -> Tensor[complex64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __mul__(self: Tensor[SignedT, *Shape], other: Tensor[SignedT, *Shape]) -> Tensor[SignedT, *Shape]: ...
    @overload
    def __mul__(self: Tensor[UnsignedT, *Shape], other: Tensor[UnsignedT, *Shape]) -> Tensor[UnsignedT, *Shape]: ...
    @overload
    def __mul__(self: Tensor[bool_, *Shape], other: Tensor[bool_, *Shape]) -> Tensor[bool_, *Shape]: ...
    @overload
    def __mul__(self: Tensor[generic, *Shape], other: Tensor[generic, *Shape]) -> Tensor[Any, *Shape]: ...
    @overload
    def __mul__(self: Tensor[SignedT, *tuple[Any, ...]], other: Tensor[SignedT, *tuple[Any, ...]]) -> Tensor[SignedT, *tuple[Any, ...]]: ...
    @overload
    def __mul__(self: Tensor[UnsignedT, *tuple[Any, ...]], other: Tensor[UnsignedT, *tuple[Any, ...]]) -> Tensor[UnsignedT, *tuple[Any, ...]]: ...
    @overload
    def __mul__(self: Tensor[bool_, *tuple[Any, ...]], other: Tensor[bool_, *tuple[Any, ...]]) -> Tensor[bool_, *tuple[Any, ...]]: ...
    @overload
    def __mul__(self: Tensor[generic, *tuple[Any, ...]], other: Tensor[generic, *tuple[Any, ...]]) -> Tensor[Any, *tuple[Any, ...]]: ...
    @overload
    def __mul__(self: Tensor[GenericT, *Shape], other: bool) -> Tensor[GenericT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __mul__(self: Tensor[NumberT, *Shape], other: int) -> Tensor[NumberT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __mul__(self: Tensor[bool_, *Shape], other: int) -> Tensor[int64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __mul__(self: Tensor[generic, *Shape], other: int) -> Tensor[number, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __mul__(self: Tensor[bool_ | integer, *Shape], other: float) -> Tensor[float64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __mul__(self: Tensor[generic, *Shape], other: float) -> Tensor[inexact, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __mul__(self: Tensor[bool_ | float64 | integer, *Shape], other: complex) -> Tensor[complex128, *Shape]: ...
    @overload
    def __mul__(self: Tensor[generic, *Shape], other: complex) -> Tensor[complexfloating, *Shape]: ...
    def __mul__(self, other: Tensor[Any, *tuple[Any, ...]] | complex) -> Tensor[Any, *tuple[Any, ...]]:
        return _elementwise.binary("multiply", self, other)

    @overload
    def __truediv__(self: Tensor[FloatingT, *Shape], other: Tensor[FloatingT, *Shape]) -> Tensor[FloatingT, *Shape]: ...
    @overload
    def __truediv__(self: Tensor[ComplexT, *Shape], other: Tensor[ComplexT, *Shape]) -> Tensor[ComplexT, *Shape]: ...
    @overload
    def __truediv__(self: Tensor[FloatingT, *tuple[Any, ...]], other: Tensor[FloatingT, *tuple[Any, ...]]) -> Tensor[FloatingT, *tuple[Any, ...]]: ...
    @overload
    def __truediv__(self: Tensor[ComplexT, *tuple[Any, ...]], other: Tensor[ComplexT, *tuple[Any, ...]]) -> Tensor[ComplexT, *tuple[Any, ...]]: ...
    @overload
    def __truediv__(self: Tensor[InexactT, *Shape], other: float) -> Tensor[InexactT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __truediv__(self: Tensor[ComplexT, *Shape], other: complex) -> Tensor[ComplexT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __truediv__(self: Tensor[float16 | float32, *Shape], other: complex) -> Tensor[complex64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __truediv__(self: Tensor[bool_ | integer, *Shape], other: Tensor[bool_ | integer, *Shape]) -> Tensor[float64, *Shape]: ...
    @overload
    def __truediv__(self: Tensor[generic, *Shape], other: Tensor[generic, *Shape]) -> Tensor[Any, *Shape]: ...
    @overload
    def __truediv__(self: Tensor[bool_ | integer, *tuple[Any, ...]], other: Tensor[bool_ | integer, *tuple[Any, ...]]) -> Tensor[float64, *tuple[Any, ...]]: ...
    @overload
    def __truediv__(self: Tensor[generic, *tuple[Any, ...]], other: Tensor[generic, *tuple[Any, ...]]) -> Tensor[Any, *tuple[Any, ...]]: ...
    @overload
    def __truediv__(self: Tensor[bool_ | integer, *Shape], other: float) -> Tensor[float64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __truediv__(self: Tensor[generic, *Shape], other: float) -> Tensor[inexact, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __truediv__(self: Tensor[bool_ | float64 | integer, *Shape], other: complex) -> Tensor[complex128, *Shape]: ...
    @overload
    def __truediv__(self: Tensor[generic, *Shape], other: complex) -> Tensor[complexfloating, *Shape]: ...
    def __truediv__(self, other: Tensor[Any, *tuple[Any, ...]] | complex) -> Tensor[Any, *tuple[Any, ...]]:
        return _elementwise.binary("divide", self, other)

    @overload
    def __floordiv__(self: Tensor[FloatingT, *Shape], other: Tensor[FloatingT, *Shape]) -> Tensor[FloatingT, *Shape]: ...
    @overload
    def __floordiv__(self: Tensor[FloatingT, *tuple[Any, ...]], other: Tensor[FloatingT, *tuple[Any, ...]]) -> Tensor[FloatingT, *tuple[Any, ...]]: ...
    @overload
    def __floordiv__(self: Tensor[SignedT, *Shape], other: Tensor[SignedT, *Shape]) -> Tensor[SignedT, *Shape]: ...
    @overload
    def __floordiv__(self: Tensor[UnsignedT, *Shape], other: Tensor[UnsignedT, *Shape]) -> Tensor[UnsignedT, *Shape]: ...
    @overload
    def __floordiv__(self: Tensor[bool_, *Shape], other: Tensor[bool_, *Shape]) -> Tensor[int8, *Shape]: ...
    @overload
    def __floordiv__(self: Tensor[generic, *Shape], other: Tensor[generic, *Shape]) -> Tensor[Any, *Shape]: ...
    @overload
    def __floordiv__(self: Tensor[SignedT, *tuple[Any, ...]], other: Tensor[SignedT, *tuple[Any, ...]]) -> Tensor[SignedT, *tuple[Any, ...]]: ...
    @overload
    def __floordiv__(self: Tensor[UnsignedT, *tuple[Any, ...]], other: Tensor[UnsignedT, *tuple[Any, ...]]) -> Tensor[UnsignedT, *tuple[Any, ...]]: ...
    @overload
    def __floordiv__(self: Tensor[bool_, *tuple[Any, ...]], other: Tensor[bool_, *tuple[Any, ...]]) -> Tensor[int8, *tuple[Any, ...]]: ...
    @overload
    def __floordiv__(self: Tensor[generic, *tuple[Any, ...]], other: Tensor[generic, *tuple[Any, ...]]) -> Tensor[Any, *tuple[Any, ...]]: ...
    @overload
    def __floordiv__(self: Tensor[bool_, *Shape], other: bool) -> Tensor[int8, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __floordiv__(self: Tensor[generic, *Shape], other: bool) -> Tensor[number, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __floordiv__(self: Tensor[IntegerT, *Shape], other: int) -> Tensor[IntegerT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __floordiv__(self: Tensor[bool_, *Shape], other: int) -> Tensor[int64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __floordiv__(self: Tensor[generic, *Shape], other: int) -> Tensor[number, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __floordiv__(self: Tensor[FloatingT, *Shape], other: float) -> Tensor[FloatingT, *Shape]: ...
    @overload
    def __floordiv__(self: Tensor[bool_ | integer, *Shape], other: float) -> Tensor[float64, *Shape]: ...
    @overload
    def __floordiv__(self: Tensor[generic, *Shape], other: float) -> Tensor[floating, *Shape]: ...
    def __floordiv__(self, other: Tensor[Any, *tuple[Any, ...]] | complex) -> Tensor[Any, *tuple[Any, ...]]:
        return _elementwise.binary("floor_divide", self, other)

    @overload
    def __pow__(self: Tensor[FloatingT, *Shape], other: Tensor[FloatingT, *Shape]) -> Tensor[FloatingT, *Shape]: ...
    @overload
    def __pow__(self: Tensor[ComplexT, *Shape], other: Tensor[ComplexT, *Shape]) -> Tensor[ComplexT, *Shape]: ...
    @overload
    def __pow__(self: Tensor[FloatingT, *tuple[Any, ...]], other: Tensor[FloatingT, *tuple[Any, ...]]) -> Tensor[FloatingT, *tuple[Any, ...]]: ...
    @overload
    def __pow__(self: Tensor[ComplexT, *tuple[Any, ...]], other: Tensor[ComplexT, *tuple[Any, ...]]) -> Tensor[ComplexT, *tuple[Any, ...]]: ...
    @overload
    def __pow__(self: Tensor[SignedT, *Shape], other: Tensor[SignedT, *Shape]) -> Tensor[SignedT, *Shape]: ...
    @overload
    def __pow__(self: Tensor[UnsignedT, *Shape], other: Tensor[UnsignedT, *Shape]) -> Tensor[UnsignedT, *Shape]: ...
    @overload
    def __pow__(self: Tensor[bool_, *Shape], other: Tensor[bool_, *Shape]) -> Tensor[int8, *Shape]: ...
    @overload
    def __pow__(self: Tensor[generic, *Shape], other: Tensor[generic, *Shape]) -> Tensor[Any, *Shape]: ...
    @overload
    def __pow__(self: Tensor[SignedT, *tuple[Any, ...]], other: Tensor[SignedT, *tuple[Any, ...]]) -> Tensor[SignedT, *tuple[Any, ...]]: ...
    @overload
    def __pow__(self: Tensor[UnsignedT, *tuple[Any, ...]], other: Tensor[UnsignedT, *tuple[Any, ...]]) -> Tensor[UnsignedT, *tuple[Any, ...]]: ...
    @overload
    def __pow__(self: Tensor[bool_, *tuple[Any, ...]], other: Tensor[bool_, *tuple[Any, ...]]) -> Tensor[int8, *tuple[Any, ...]]: ...
    @overload
    def __pow__(self: Tensor[generic, *tuple[Any, ...]], other: Tensor[generic, *tuple[Any, ...]]) -> Tensor[Any, *tuple[Any, ...]]: ...
    @overload
    def __pow__(self: Tensor[bool_, *Shape], other: bool) -> Tensor[int8, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __pow__(self: Tensor[generic, *Shape], other: bool) -> Tensor[number, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __pow__(self: Tensor[InexactT, *Shape], other: float) -> Tensor[InexactT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __pow__(self: Tensor[ComplexT, *Shape], other: complex) -> Tensor[ComplexT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __pow__(self: Tensor[float16 | float32, *Shape], other: complex) -> Tensor[complex64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __pow__(self: Tensor[NumberT, *Shape], other: int) -> Tensor[NumberT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __pow__(self: Tensor[bool_, *Shape], other: int) -> Tensor[int64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __pow__(self: Tensor[generic, *Shape], other: int) -> Tensor[number, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __pow__(self: Tensor[bool_ | integer, *Shape], other: float) -> Tensor[float64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __pow__(self: Tensor[generic, *Shape], other: float) -> Tensor[inexact, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __pow__(self: Tensor[bool_ | float64 | integer, *Shape], other: complex) -> Tensor[complex128, *Shape]: ...
    @overload
    def __pow__(self: Tensor[generic, *Shape], other: complex) -> Tensor[complexfloating, *Shape]: ...
    def __pow__(self, other: Tensor[Any, *tuple[Any, ...]] | complex) -> Tensor[Any, *tuple[Any, ...]]:
        return _elementwise.binary("power", self, other)

    @overload  # type: ignore[override]
    def __eq__(self: Tensor[generic, *Shape], other: Tensor[generic, *Shape]) -> Tensor[bool_, *Shape]: ...
    @overload
    def __eq__(self: Tensor[generic, *tuple[Any, ...]], other: Tensor[generic, *tuple[Any, ...]]) -> Tensor[bool_, *tuple[Any, ...]]: ...
    @overload
    def __eq__(self: Tensor[generic, *Shape], other: complex) -> Tensor[bool_, *Shape]: ...
    def __eq__(self, other: object) -> Any:
        return _elementwise.equality("equal", self, other)

    @overload  # type: ignore[override]
    def __ne__(self: Tensor[generic, *Shape], other: Tensor[generic, *Shape]) -> Tensor[bool_, *Shape]: ...
    @overload
    def __ne__(self: Tensor[generic, *tuple[Any, ...]], other: Tensor[generic, *tuple[Any, ...]]) -> Tensor[bool_, *tuple[Any, ...]]: ...
    @overload
    def __ne__(self: Tensor[generic, *Shape], other: complex) -> Tensor[bool_, *Shape]: ...
    def __ne__(self, other: object) -> Any:
        return _elementwise.equality("not_equal", self, other)

    @overload
    def __lt__(self: Tensor[generic, *Shape], other: Tensor[generic, *Shape]) -> Tensor[bool_, *Shape]: ...
    @overload
    def __lt__(self: Tensor[generic, *tuple[Any, ...]], other: Tensor[generic, *tuple[Any, ...]]) -> Tensor[bool_, *tuple[Any, ...]]: ...
    @overload
    def __lt__(self: Tensor[generic, *Shape], other: complex) -> Tensor[bool_, *Shape]: ...
    def __lt__(self, other: Tensor[Any, *tuple[Any, ...]] | complex) -> Tensor[Any, *tuple[Any, ...]]:
        return _elementwise.binary("less", self, other)

    @overload
    def __le__(self: Tensor[generic, *Shape], other: Tensor[generic, *Shape]) -> Tensor[bool_, *Shape]: ...
    @overload
    def __le__(self: Tensor[generic, *tuple[Any, ...]], other: Tensor[generic, *tuple[Any, ...]]) -> Tensor[bool_, *tuple[Any, ...]]: ...
    @overload
    def __le__(self: Tensor[generic, *Shape], other: complex) -> Tensor[bool_, *Shape]: ...
    def __le__(self, other: Tensor[Any, *tuple[Any, ...]] | complex) -> Tensor[Any, *tuple[Any, ...]]:
        return _elementwise.binary("less_equal", self, other)

    @overload
    def __gt__(self: Tensor[generic, *Shape], other: Tensor[generic, *Shape]) -> Tensor[bool_, *Shape]: ...
    @overload
    def __gt__(self: Tensor[generic, *tuple[Any, ...]], other: Tensor[generic, *tuple[Any, ...]]) -> Tensor[bool_, *tuple[Any, ...]]: ...
    @overload
    def __gt__(self: Tensor[generic, *Shape], other: complex) -> Tensor[bool_, *Shape]: ...
    def __gt__(self, other: Tensor[Any, *tuple[Any, ...]] | complex) -> Tensor[Any, *tuple[Any, ...]]:
        return _elementwise.binary("greater", self, other)

    @overload
    def __ge__(self: Tensor[generic, *Shape], other: Tensor[generic, *Shape]) -> Tensor[bool_, *Shape]: ...
    @overload
    def __ge__(self: Tensor[generic, *tuple[Any, ...]], other: Tensor[generic, *tuple[Any, ...]]) -> Tensor[bool_, *tuple[Any, ...]]: ...
    @overload
    def __ge__(self: Tensor[generic, *Shape], other: complex) -> Tensor[bool_, *Shape]: ...
    def __ge__(self, other: Tensor[Any, *tuple[Any, ...]] | complex) -> Tensor[Any, *tuple[Any, ...]]:
        return _elementwise.binary("greater_equal", self, other)

    @overload
    def __radd__(self: Tensor[InexactT, *Shape], other: float) -> Tensor[InexactT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __radd__(self: Tensor[ComplexT, *Shape], other: complex) -> Tensor[ComplexT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __radd__(self: Tensor[float16 | float32, *Shape], other: complex) -> Tensor[complex64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __radd__(self: Tensor[GenericT, *Shape], other: bool) -> Tensor[GenericT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __radd__(self: Tensor[NumberT, *Shape], other: int) -> Tensor[NumberT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __radd__(self: Tensor[bool_, *Shape], other: int) -> Tensor[int64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __radd__(self: Tensor[generic, *Shape], other: int) -> Tensor[number, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __radd__(self: Tensor[bool_ | integer, *Shape], other: float) -> Tensor[float64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __radd__(self: Tensor[generic, *Shape], other: float) -> Tensor[inexact, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __radd__(self: Tensor[bool_ | float64 | integer, *Shape], other: complex) -> Tensor[complex128, *Shape]: ...
    @overload
    def __radd__(self: Tensor[generic, *Shape], other: complex) -> Tensor[complexfloating, *Shape]: ...
    def __radd__(self, other: complex) -> Tensor[Any, *tuple[Any, ...]]:
        return _elementwise.binary("add", other, self)

    @overload
    def __rsub__(self: Tensor[generic, *Shape], other: bool) -> Tensor[number, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rsub__(self: Tensor[InexactT, *Shape], other: float) -> Tensor[InexactT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rsub__(self: Tensor[ComplexT, *Shape], other: complex) -> Tensor[ComplexT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rsub__(self: Tensor[float16 | float32, *Shape], other: complex) -> Tensor[complex64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rsub__(self: Tensor[NumberT, *Shape], other: int) -> Tensor[NumberT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rsub__(self: Tensor[bool_, *Shape], other: int) -> Tensor[int64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rsub__(self: Tensor[generic, *Shape], other: int) -> Tensor[number, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rsub__(self: Tensor[bool_ | integer, *Shape], other: float) -> Tensor[float64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rsub__(self: Tensor[generic, *Shape], other: float) -> Tensor[inexact, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rsub__(self: Tensor[bool_ | float64 | integer, *Shape], other: complex) -> Tensor[complex128, *Shape]: ...
    @overload
    def __rsub__(self: Tensor[generic, *Shape], other: complex) -> Tensor[complexfloating, *Shape]: ...
    def __rsub__(self, other: complex) -> Tensor[Any, *tuple[Any, ...]]:
        return _elementwise.binary("subtract", other, self)

    @overload
    def __rmul__(self: Tensor[InexactT, *Shape], other: float) -> Tensor[InexactT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rmul__(self: Tensor[ComplexT, *Shape], other: complex) -> Tensor[ComplexT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rmul__(self: Tensor[float16 | float32, *Shape], other: complex) -> Tensor[complex64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rmul__(self: Tensor[GenericT, *Shape], other: bool) -> Tensor[GenericT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rmul__(self: Tensor[NumberT, *Shape], other: int) -> Tensor[NumberT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rmul__(self: Tensor[bool_, *Shape], other: int) -> Tensor[int64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rmul__(self: Tensor[generic, *Shape], other: int) -> Tensor[number, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rmul__(self: Tensor[bool_ | integer, *Shape], other: float) -> Tensor[float64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rmul__(self: Tensor[generic, *Shape], other: float) -> Tensor[inexact, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rmul__(self: Tensor[bool_ | float64 | integer, *Shape], other: complex) -> Tensor[complex128, *Shape]: ...
    @overload
    def __rmul__(self: Tensor[generic, *Shape], other: complex) -> Tensor[complexfloating, *Shape]: ...
    def __rmul__(self, other: complex) -> Tensor[Any, *tuple[Any, ...]]:
        return _elementwise.binary("multiply", other, self)

    @overload
    def __rtruediv__(self: Tensor[InexactT, *Shape], other: float) -> Tensor[InexactT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rtruediv__(self: Tensor[ComplexT, *Shape], other: complex) -> Tensor[ComplexT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rtruediv__(self: Tensor[float16 | float32, *Shape], other: complex) -> Tensor[complex64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rtruediv__(self: Tensor[bool_ | integer, *Shape], other: float) -> Tensor[float64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rtruediv__(self: Tensor[generic, *Shape], other: float) -> Tensor[inexact, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rtruediv__(self: Tensor[bool_ | float64 | integer, *Shape], other: complex) -> Tensor[complex128, *Shape]: ...
    @overload
    def __rtruediv__(self: Tensor[generic, *Shape], other: complex) -> Tensor[complexfloating, *Shape]: ...
    def __rtruediv__(self, other: complex) -> Tensor[Any, *tuple[Any, ...]]:
        return _elementwise.binary("divide", other, self)

    @overload
    def __rfloordiv__(self: Tensor[bool_, *Shape], other: bool) -> Tensor[int8, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rfloordiv__(self: Tensor[generic, *Shape], other: bool) -> Tensor[number, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rfloordiv__(self: Tensor[IntegerT, *Shape], other: int) -> Tensor[IntegerT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rfloordiv__(self: Tensor[bool_, *Shape], other: int) -> Tensor[int64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rfloordiv__(self: Tensor[generic, *Shape], other: int) -> Tensor[number, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rfloordiv__(self: Tensor[FloatingT, *Shape], other: float) -> Tensor[FloatingT, *Shape]: ...
    @overload
    def __rfloordiv__(self: Tensor[bool_ | integer, *Shape], other: float) -> Tensor[float64, *Shape]: ...
    @overload
    def __rfloordiv__(self: Tensor[generic, *Shape], other: float) -> Tensor[floating, *Shape]: ...
    def __rfloordiv__(self, other: complex) -> Tensor[Any, *tuple[Any, ...]]:
        return _elementwise.binary("floor_divide", other, self)

    @overload
    def __rpow__(self: Tensor[bool_, *Shape], other: bool) -> Tensor[int8, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rpow__(self: Tensor[generic, *Shape], other: bool) -> Tensor[number, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rpow__(self: Tensor[InexactT, *Shape], other: float) -> Tensor[InexactT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rpow__(self: Tensor[ComplexT, *Shape], other: complex) -> Tensor[ComplexT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rpow__(self: Tensor[float16 | float32, *Shape], other: complex) -> Tensor[complex64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rpow__(self: Tensor[NumberT, *Shape], other: int) -> Tensor[NumberT, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rpow__(self: Tensor[bool_, *Shape], other: int) -> Tensor[int64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rpow__(self: Tensor[generic, *Shape], other: int) -> Tensor[number, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rpow__(self: Tensor[bool_ | integer, *Shape], other: float) -> Tensor[float64, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rpow__(self: Tensor[generic, *Shape], other: float) -> Tensor[inexact, *Shape]: ...  # type: ignore[overload-overlap, unused-ignore]
    @overload
    def __rpow__(self: Tensor[bool_ | float64 | integer, *Shape], other: complex) -> Tensor[complex128, *Shape]: ...
    @overload
    def __rpow__(self: Tensor[generic, *Shape], other: complex) -> Tensor[complexfloating, *Shape]: ...
    def __rpow__(self, other: complex) -> Tensor[Any, *tuple[Any, ...]]:
        return _elementwise.binary("power", other, self)

    def astype(self, dtype: type[NewDT]) -> Tensor[NewDT, Unpack[Shape]]:
        """This tensor as ``dtype`` (see ``typedtensor.cast``)."""
        return _elementwise.convert("astype", self, dtype)
    # END GENERATED operators

    # Shaping and linalg: ``x.T``, ``x.reshape``, ``@`` (see ``typedtensor.matmul``).

    T = _Transpose()

    def reshape(self, shape: SupportsIndex | tuple[Any, ...] | list[Any]) -> Tensor[DT, Unpack[tuple[Any, ...]]]:
        """``typedtensor.reshape(self, shape)``: the same elements in ``shape``; one size may be -1."""
        return _shaping.reshape(self, shape)

    @overload
    def __matmul__(self: Tensor[FloatingT, _N, _K], other: Tensor[FloatingT, _K, _M]) -> Tensor[FloatingT, _N, _M]: ...
    @overload
    def __matmul__(self: Tensor[SignedT, _N, _K], other: Tensor[SignedT, _K, _M]) -> Tensor[SignedT, _N, _M]: ...
    @overload
    def __matmul__(self: Tensor[UnsignedT, _N, _K], other: Tensor[UnsignedT, _K, _M]) -> Tensor[UnsignedT, _N, _M]: ...
    @overload
    def __matmul__(self: Tensor[ComplexT, _N, _K], other: Tensor[ComplexT, _K, _M]) -> Tensor[ComplexT, _N, _M]: ...
    @overload
    def __matmul__(self: Tensor[BoolT, _N, _K], other: Tensor[BoolT, _K, _M]) -> Tensor[BoolT, _N, _M]: ...
    @overload
    def __matmul__(self, other: Tensor[Any, Unpack[tuple[Any, ...]]]) -> Tensor[Any, Unpack[tuple[Any, ...]]]: ...
    def __matmul__(self, other: Tensor[Any, Unpack[tuple[Any, ...]]]) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        return _linalg.matmul(self, other)

    def __rmatmul__(self, other: Tensor[Any, Unpack[tuple[Any, ...]]]) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        return _linalg.matmul(other, self)  # reached with a left operand that is no Tensor: refused clearly

    # Indexing (typedtensor._indexing): exact where standard typing can say it; the plugin says more.

    @overload
    def __getitem__(self, key: EllipsisType) -> Tensor[DT, Unpack[Shape]]: ...
    @overload
    def __getitem__(self, key: None) -> Tensor[DT, Literal[1], Unpack[Shape]]: ...
    @overload
    def __getitem__(self: Tensor[DT2, Any, Unpack[Rest]], key: SupportsIndex) -> Tensor[DT2, Unpack[Rest]]: ...
    @overload
    def __getitem__(self: Tensor[DT2, Any, Unpack[Rest]], key: slice) -> Tensor[DT2, Any, Unpack[Rest]]: ...
    @overload
    def __getitem__(self, key: IndexItem | tuple[IndexItem, ...]) -> Tensor[DT, Unpack[tuple[Any, ...]]]: ...
    def __getitem__(self, key: object) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
        """``x[i]`` drops a dim, ``x[a:b:c]`` slices one, ``x[None]`` adds a dim of 1, ``x[...]``
        stands for the dims no other item takes; an integer tensor gathers, a boolean one masks.

        >>> import typedtensor as tt
        >>> x = tt.eye(3)
        >>> x[1], x[None, :2, -1].shape
        (Tensor[float32, 3]([0., 1., 0.]), (1, 2))
        """
        return _indexing.getitem(self, key)


def wrap(array: np.ndarray[Any, Any]) -> Tensor[Any, Unpack[tuple[Any, ...]]]:
    """A Tensor over ``array`` without ``__init__``'s checks: for arrays our own code made."""
    result: Tensor[Any, Unpack[tuple[Any, ...]]] = object.__new__(Tensor)
    result._array = array
    return result


# The ops wrap their results in Tensor, defined above: imported last, they find it.
from typedtensor import _elementwise  # noqa: E402
from typedtensor import _indexing, _linalg, _shaping  # noqa: E402
