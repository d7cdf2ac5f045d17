"""Random tensors: ``normal``, ``uniform``, ``integers`` and ``permutation``, drawn from a numpy ``Generator``.

``rng`` is a ``numpy.random.Generator`` (the draw continues its stream), an int seed (the same
seed gives the same tensor, equal to what ``numpy.random.default_rng(seed)`` draws), or None
(fresh entropy from the operating system). ``dtype`` is a floating dtype, ``float32`` by default
as for ``zeros``; ``float16`` values are drawn in ``float32`` and rounded. With ``like=x`` the
values are an array of ``x``'s library on ``x``'s device, as the creation functions make: the
same values as without it (numpy's Generator draws them, whatever the library). With the mypy
plugin a literal ``shape`` gives literal dims, as for ``zeros``.

>>> import typedtensor as tt
>>> tt.random.normal((2, 3), rng=0).shape
(2, 3)
"""

from __future__ import annotations

import operator
from typing import Any, SupportsIndex, TypeAlias, overload

import numpy as np

from typedtensor._arguments import int_argument, is_int
from typedtensor._creation import checked_shape, library_of_like
from typedtensor._dtypes import float32, float64, generic, int64, numpy_dtype_of
from typedtensor._errors import problem_error
from typedtensor._generated.type_vars import FloatingT, Shape
from typedtensor._ops.common import refuse_result
from typedtensor._shape_rules import INT_DIMS, Problem, Shape as RuleShape, counted_shape
from typedtensor._tensor import AnyTensor, Tensor

__all__ = ["Rng", "integers", "normal", "permutation", "uniform"]

#: Where random values come from: a numpy ``Generator``, an int seed, or None for fresh entropy.
Rng: TypeAlias = np.random.Generator | int | None

_DRAWN = {numpy_dtype_of(float32), numpy_dtype_of(float64)}  # the dtypes numpy's Generator draws in


@overload
def normal(shape: tuple[*Shape], *, rng: Rng = None, mean: float = 0.0, stddev: float = 1.0, like: AnyTensor | None = None) -> Tensor[float32, *Shape]: ...
@overload
def normal(
    shape: tuple[*Shape], dtype: type[FloatingT], rng: Rng = None, *, mean: float = 0.0, stddev: float = 1.0, like: AnyTensor | None = None
) -> Tensor[FloatingT, *Shape]: ...
@overload
def normal(shape: tuple[SupportsIndex, ...], *, rng: Rng = None, mean: float = 0.0, stddev: float = 1.0, like: AnyTensor | None = None) -> Tensor[float32, *tuple[Any, ...]]: ...  # type: ignore[overload-cannot-match]  # pyright: ignore[reportOverlappingOverload]
@overload
def normal(  # type: ignore[overload-cannot-match]  # pyright: ignore[reportOverlappingOverload]
    shape: tuple[SupportsIndex, ...], dtype: type[FloatingT], rng: Rng = None, *, mean: float = 0.0, stddev: float = 1.0, like: AnyTensor | None = None
) -> Tensor[FloatingT, *tuple[Any, ...]]: ...
def normal(
    shape: tuple[Any, ...], dtype: type[generic] = float32, rng: Rng = None, *, mean: float = 0.0, stddev: float = 1.0, like: AnyTensor | None = None
) -> Tensor[Any, *tuple[Any, ...]]:
    """Values drawn from the normal distribution of ``mean`` and standard deviation ``stddev``.

    >>> import typedtensor as tt
    >>> tt.random.normal((3,), tt.float64, rng=42)
    Tensor[float64, 3]([ 0.30471708, -1.03998411,  0.7504512 ])
    """
    mean, stddev = _real("normal", "mean", mean), _real("normal", "stddev", stddev)
    if not stddev >= 0:
        raise ValueError(f'"normal": stddev must not be negative, got {stddev!r}')
    return _drawn("normal", "standard_normal", shape, dtype, rng, stddev, mean, like)


@overload
def uniform(shape: tuple[*Shape], *, rng: Rng = None, low: float = 0.0, high: float = 1.0, like: AnyTensor | None = None) -> Tensor[float32, *Shape]: ...
@overload
def uniform(
    shape: tuple[*Shape], dtype: type[FloatingT], rng: Rng = None, *, low: float = 0.0, high: float = 1.0, like: AnyTensor | None = None
) -> Tensor[FloatingT, *Shape]: ...
@overload
def uniform(shape: tuple[SupportsIndex, ...], *, rng: Rng = None, low: float = 0.0, high: float = 1.0, like: AnyTensor | None = None) -> Tensor[float32, *tuple[Any, ...]]: ...  # type: ignore[overload-cannot-match]  # pyright: ignore[reportOverlappingOverload]
@overload
def uniform(  # type: ignore[overload-cannot-match]  # pyright: ignore[reportOverlappingOverload]
    shape: tuple[SupportsIndex, ...], dtype: type[FloatingT], rng: Rng = None, *, low: float = 0.0, high: float = 1.0, like: AnyTensor | None = None
) -> Tensor[FloatingT, *tuple[Any, ...]]: ...
def uniform(
    shape: tuple[Any, ...], dtype: type[generic] = float32, rng: Rng = None, *, low: float = 0.0, high: float = 1.0, like: AnyTensor | None = None
) -> Tensor[Any, *tuple[Any, ...]]:
    """Values drawn uniformly between ``low`` and ``high`` (``[low, high)`` up to rounding in ``dtype``).

    >>> import typedtensor as tt
    >>> tt.random.uniform((2,), rng=0, low=-1.0, high=1.0)
    Tensor[float32, 2]([0.7012484 , 0.27392328])
    """
    low, high = _real("uniform", "low", low), _real("uniform", "high", high)
    return _drawn("uniform", "random", shape, dtype, rng, high - low, low, like)


def _real(op: str, name: str, value: object) -> float:
    """A real-number parameter of ``op``, or a ``TypeError`` naming it (a complex one would lose
    its imaginary part)."""
    if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_)):
        return float(value)
    raise TypeError(f'"{op}": {name} must be a real number (int or float), got {type(value).__name__} {value!r}')


def _drawn(
    op: str, method: str, shape: tuple[Any, ...], dtype: type[generic], rng: object, scale: float, offset: float, like: object
) -> Tensor[Any, *tuple[Any, ...]]:
    """Values of the Generator's ``method`` (standard normal, or uniform in [0, 1)), scaled and
    shifted; on ``like``'s library and device if given (the same values: numpy draws them)."""
    if like is not None:
        backend, device = library_of_like(op, like)
        values = _drawn(op, method, shape, dtype, rng, scale, offset, None).array
        return Tensor(backend.xp.asarray(values, dtype=backend.dtype(dtype), device=device))
    sizes, drawn_in = checked_shape(op, shape), _float_dtype(op, dtype)
    generator = _generator(op, rng)
    try:
        values = getattr(generator, method)(sizes, dtype=drawn_in)
    except (ValueError, OverflowError) as error:  # more dims or bytes than numpy's limits
        refusal: Exception = error
    else:
        if scale != 1.0 or offset != 0.0:
            values = values * scale + offset  # Python floats: computed in the drawn dtype
        return Tensor(np.asarray(values, dtype=numpy_dtype_of(dtype)))  # a shape of () draws a numpy scalar
    refuse_result(op, [], sizes, drawn_in.itemsize, refusal)  # outside the except block: numpy's error is not the context


def _float_dtype(op: str, dtype: type[generic]) -> np.dtype[Any]:
    """The dtype to draw ``dtype``'s values in, or a ``TypeError`` if ``dtype`` is not floating."""
    numpy_dtype = numpy_dtype_of(dtype)
    if numpy_dtype.kind != "f":
        raise TypeError(f'"{op}": dtype must be a floating dtype (float16, float32 or float64), got {dtype.__name__}')
    return numpy_dtype if numpy_dtype in _DRAWN else np.dtype(np.float32)


def _generator(op: str, rng: object) -> np.random.Generator:
    """The Generator ``rng`` is, or one seeded by it (None: by the operating system)."""
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None:
        return np.random.default_rng()
    if is_int(rng) and rng >= 0:
        return np.random.default_rng(operator.index(rng))
    raise TypeError(
        f'"{op}": rng must be a numpy.random.Generator, a non-negative int seed or None, got {type(rng).__name__} {rng!r}'
    )


def permutation(n: SupportsIndex, rng: Rng = None) -> Tensor[int64, Any]:
    """The ints ``0`` to ``n - 1`` in a random order, ``int64`` (the order numpy's
    ``Generator.permutation(n)`` draws). With the mypy plugin ``permutation(5)`` is
    ``Tensor[int64, L[5]]`` and ``permutation(x.shape[0])`` has the dim of ``x.shape[0]``.

    >>> import typedtensor as tt
    >>> tt.random.permutation(4, rng=0).shape
    (4,)
    """
    count = int_argument("permutation", "n", n)
    problem: RuleShape[int, None] | Problem = counted_shape(count, "n", INT_DIMS)
    if isinstance(problem, Problem):
        raise problem_error(problem, "permutation", [])
    return Tensor(_generator("permutation", rng).permutation(count).astype(np.int64, copy=False))


@overload
def integers(low: int, high: int, shape: tuple[*Shape], rng: Rng = None) -> Tensor[int64, *Shape]: ...
@overload
def integers(low: int, high: int, shape: tuple[SupportsIndex, ...], rng: Rng = None) -> Tensor[int64, *tuple[Any, ...]]: ...  # type: ignore[overload-cannot-match]  # pyright: ignore[reportOverlappingOverload]
def integers(low: int, high: int, shape: tuple[Any, ...], rng: Rng = None) -> Tensor[int64, *tuple[Any, ...]]:
    """``int64`` values drawn uniformly from ``low`` to ``high`` (excluded), as numpy's
    ``Generator.integers``; ``low < high``.

    >>> import typedtensor as tt
    >>> tt.random.integers(0, 10, (2, 3), rng=0).shape
    (2, 3)
    """
    bottom, top = int_argument("integers", "low", low), int_argument("integers", "high", high)
    if not bottom < top:
        raise ValueError(f'"integers": low must be below high, got low={bottom}, high={top}')
    sizes, generator = checked_shape("integers", shape), _generator("integers", rng)
    try:
        return Tensor(np.asarray(generator.integers(bottom, top, sizes, dtype=np.int64)))
    except (ValueError, OverflowError) as error:  # beyond int64, or more than numpy's limits
        refusal: Exception = error
    refuse_result("integers", [], sizes, 8, refusal)
