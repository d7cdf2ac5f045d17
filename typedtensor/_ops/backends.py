"""The array libraries a Tensor may hold, each found by the type of its arrays (SPEC 10).

numpy is the default and the only required dependency. torch, jax, dask and any library whose
arrays have an array API namespace (array-api-strict) are used when one of their arrays
appears: their modules are then imported already, and typedtensor never imports one first.
What differs between them is here, once per array type: the namespace the ops call
(array-api-compat's for torch and dask, which have none of their own), how a dtype marker is
spelled in the library, how its arrays become numpy arrays, and where they live.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

import numpy as np

from typedtensor._dtypes import bool_, generic, int64, marker_of, uint64
from typedtensor._shape_rules import UNKNOWN, Shape, Unknown, format_tensor, join_operands

#: The libraries whose arrays have no array API namespace of their own: array-api-compat's has one for them.
_COMPAT_LIBRARIES: Final = frozenset({"torch", "dask"})
#: A library's top-level module as its arrays' types name it, when that is not the library's name.
_LIBRARY_OF_MODULE: Final = {"jaxlib": "jax"}
#: The 64-bit dtypes, which jax holds only in its 64-bit mode.
_WIDE: Final = frozenset({"int64", "uint64", "float64", "complex128"})


#: An array of any library (statically numpy's, as the ops' ``Array``).
ArrayT = TypeVar("ArrayT")


@dataclass(frozen=True, eq=False)
class Backend:
    """One array library: its name in messages and its array API namespace."""

    name: str  # numpy, torch, jax, dask, or the top-level module of an array API library
    xp: Any
    #: The library's dtype of each marker asked for, where it holds for good (``lasting``): an op
    #: on small arrays asks several times a call, and finding one costs about 0.2 us.
    dtypes: dict[type[generic], Any] = field(default_factory=dict, repr=False)

    def dtype(self, marker: type[generic]) -> Any:
        """The library's dtype for a concrete marker; jax without 64-bit mode refuses a 64-bit one."""
        found = self.dtypes.get(marker)
        if found is None:
            found = self._find_dtype(marker)
            if self.lasting(marker):
                self.dtypes[marker] = found
        return found

    def cast(self, array: ArrayT, marker: type[generic]) -> ArrayT:
        """``array`` (one of this library's) in the dtype of ``marker``: itself if it is in it already."""
        wanted = self.dtype(marker)  # compared as the library's own dtype: torch.compile traces torch's, not numpy's
        return array if array.dtype == wanted else self.xp.astype(array, wanted)  # type: ignore[attr-defined]

    def _find_dtype(self, marker: type[generic]) -> Any:
        if self.name == "jax" and marker.__name__ in _WIDE and not sys.modules["jax"].config.jax_enable_x64:
            raise TypeError(
                f"jax without 64-bit mode cannot hold {marker.__name__}, which the rules ask for here; "
                'enable it with jax.config.update("jax_enable_x64", True), or cast to a narrower dtype first'
            )
        if self.name in ("numpy", "jax", "dask"):  # numpy's dtypes
            return marker.numpy_dtype
        found = getattr(self.xp, "bool" if marker is bool_ else marker.__name__, None)
        if found is None:  # array-api-strict has no float16
            raise TypeError(f"{self.name} has no {marker.__name__}, which the rules ask for here; cast to a wider dtype first")
        return found

    def lasting(self, *markers: type[generic] | None) -> bool:
        """Whether the library's dtypes for ``markers`` hold for good: not jax's 64-bit ones,
        which its 64-bit mode, switched at any time, makes an error."""
        return self.name != "jax" or not any(marker is not None and marker.__name__ in _WIDE for marker in markers)

    def accumulator(self, marker: type[generic]) -> type[generic]:
        """The dtype a sum or product of result dtype ``marker`` runs in: itself, except torch's
        uint64, which torch does not add up; int64 gives the same bits (both wrap modulo 2**64)."""
        return int64 if self.name == "torch" and marker is uint64 else marker

    def to_numpy(self, array: Any) -> np.ndarray[Any, Any]:
        """``array``'s values in a numpy array (a copy unless the library shares its memory)."""
        if self.name == "torch":
            return array.detach().cpu().numpy()  # type: ignore[no-any-return]
        if self.name == "dask":
            return np.asarray(array.compute())
        return np.asarray(array)

    def copy(self, array: Any) -> Any:
        """A new array of ``array``'s values; torch's stays in the autograd graph, as ``clone`` does."""
        return array.clone() if self.name == "torch" else self.xp.asarray(array, copy=True)

    def eye(self, rows: int, columns: int, k: int, marker: type[generic], device: Any) -> Any:
        """The library's ``eye``; dask's made by numpy (dask's own misplaces the diagonal of a
        rectangular one, and array-api-compat gives it the column count as its ``chunks``)."""
        if self.name == "dask":
            return sys.modules["dask.array"].from_array(np.eye(rows, columns, k, dtype=marker.numpy_dtype))
        return self.xp.eye(rows, columns, k=k, dtype=self.dtype(marker), device=device)

    def device(self, array: Any) -> Any:
        """Where ``array`` lives, as the library's creation functions take it (None: its default)."""
        return None if self.name in ("numpy", "jax", "dask") else array.device


NUMPY: Final = Backend("numpy", np)
_BACKENDS: dict[type, Backend] = {np.ndarray: NUMPY}


def backend_of(array: object) -> Backend:
    """The library of ``array`` (kept per array type), or a ``TypeError`` saying what a Tensor holds."""
    kind = type(array)
    found = _BACKENDS.get(kind)
    if found is None:
        found = _find_backend(array)
        # One Backend per library, whatever the type: jax's arrays and its tracers are one library.
        found = _BACKENDS[kind] = next((known for known in _BACKENDS.values() if known.name == found.name), found)
    return found


def _find_backend(array: object) -> Backend:
    module = type(array).__module__.partition(".")[0]
    name = _LIBRARY_OF_MODULE.get(module, module)
    if isinstance(array, np.ndarray) or not (name in _COMPAT_LIBRARIES or hasattr(array, "__array_namespace__")):
        # A subclass changes what reductions mean: np.matrix keeps 2 dims, a masked array
        # skips masked elements. Silently treating either as a plain array gives wrong answers.
        kind = "a subclass" if isinstance(array, np.ndarray) else "not one"
        raise TypeError(
            f"Tensor wraps a plain numpy.ndarray or an array of torch, jax, dask or an array API library, "
            f"got {type(array).__name__} ({kind}); use typedtensor.tensor(data) to copy the data into one"
        )
    if name in _COMPAT_LIBRARIES:
        return Backend(name, _compat_namespace(name))
    return Backend(name, array.__array_namespace__())  # type: ignore[attr-defined]


def _compat_namespace(library: str) -> Any:
    """array-api-compat's namespace for torch's or dask's arrays. Imported by import statements,
    which torch.compile traces (it does not trace a call of ``__import__``), so that a typed
    function's first torch tensor may come inside a compiled function."""
    if library == "torch":
        import array_api_compat.torch

        return array_api_compat.torch
    import array_api_compat.dask.array

    return array_api_compat.dask.array


def same_library(op: str, arrays: tuple[Any, ...]) -> Backend:
    """The one library of ``arrays``, or a ``TypeError`` naming the two libraries an op was given."""
    backend = backend_of(arrays[0])
    for array in arrays[1:]:
        if type(array) is not type(arrays[0]) and backend_of(array) is not backend:  # arrays of one type are of one library
            shown = join_operands([f"{_text(value)} of {backend_of(value).name}" for value in (arrays[0], array)])
            raise TypeError(
                f'"{op}" on {shown}: the operands come from two array libraries; '
                "convert one first (x.numpy(), or typedtensor.tensor(data, like=other))"
            )
    return backend


def _text(array: Any) -> str:
    return format_tensor(marker_of(array.dtype).__name__, [str(dim) for dim in array.shape])


def to_dtype(array: ArrayT, marker: type[generic]) -> ArrayT:
    """``array`` in the dtype of ``marker``: itself if it is in it already."""
    return (NUMPY if type(array) is np.ndarray else backend_of(array)).cast(array, marker)


def is_unknown(size: object) -> bool:
    """Whether ``size`` is one a lazy array does not know yet: dask's ``nan`` (after boolean
    indexing) or the array API's ``None``. It may be any size, and knowing it means computing."""
    return size is None or (isinstance(size, float) and size != size)


def rule_shape(shape: tuple[Any, ...]) -> Shape[int, None]:
    """``shape`` as the rules take it: its unknown sizes as their unknown dim, which no rule faults."""
    sizes: tuple[int | Unknown, ...] = tuple(UNKNOWN if is_unknown(size) else size for size in shape)
    made: Shape[int, None] = Shape(sizes)  # not Shape[int, None](...): torch.compile cannot trace a call of a subscripted class
    return made


def compiling() -> bool:
    """Whether torch.compile is tracing the running code (asked only of a torch imported already)."""
    torch = sys.modules.get("torch")
    return torch is not None and torch.compiler.is_compiling()
