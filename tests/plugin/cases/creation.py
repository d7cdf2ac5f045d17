"""Creation: ``zeros``/``ones``/``full``/``random.*`` take dims from a literal shape tuple, ``arange``
and ``eye`` from literal sizes (or named dims); the dtype from ``dtype``."""

from typing import Any, Final, Literal as L, assert_type

import numpy as np

import typedtensor as tt
from typedtensor import Dim, Tensor, float32


class Batch(Dim): ...


ROWS: Final = 2
SHAPE: Final = (2, 3)

# Each call is first assigned: inside ``assert_type`` (or as an argument) mypy would infer the
# shape from the expected type and hide what the call gives by itself.
default = tt.zeros((2, 3))
int32s = tt.zeros((2, 3), tt.int32)
by_name = tt.zeros(shape=(4,), dtype=tt.bool_)
scalar = tt.zeros(())
empty = tt.ones((1, 0, 5))
bytes_ = tt.ones((2, 3), tt.uint8)
filled = tt.full((2, 3), 1.0, tt.float64)
filled_by_name = tt.full((7,), 0, dtype=tt.int64)
final_size = tt.zeros((ROWS, 3))
final_shape = tt.ones(SHAPE)
summed = tt.zeros((2, 3)).sum(axis=0)

assert_type(default, Tensor[float32, L[2], L[3]])
assert_type(int32s, Tensor[tt.int32, L[2], L[3]])
assert_type(by_name, Tensor[tt.bool_, L[4]])
assert_type(scalar, Tensor[float32])
assert_type(empty, Tensor[float32, L[1], L[0], L[5]])
assert_type(bytes_, Tensor[tt.uint8, L[2], L[3]])
assert_type(filled, Tensor[tt.float64, L[2], L[3]])
assert_type(filled_by_name, Tensor[tt.int64, L[7]])
assert_type(final_size, Tensor[float32, L[2], L[3]])
assert_type(final_shape, Tensor[float32, L[2], L[3]])
assert_type(summed, Tensor[float32, L[3]])


def takes_two_by_three(x: Tensor[float32, L[2], L[3]]) -> None: ...


takes_two_by_three(default)
takes_two_by_three(default.sum(()))


def not_literal(n: int, shape: tuple[int, int], sizes: tuple[int, ...], batch: Tensor[float32, Batch, L[3]]) -> None:
    """A size known only at run time is an unknown dim (``Any``): the result still fits ``L[2]``."""
    unknown_rows = tt.zeros((n, 3))
    unknown_shape = tt.ones(shape, tt.int8)
    unknown_columns = tt.full((2, n), 1, tt.int32)
    unknown_rank = tt.zeros(sizes)
    named = tt.zeros(batch.shape)
    assert_type(unknown_rows, Tensor[float32, Any, L[3]])
    assert_type(unknown_shape, Tensor[tt.int8, Any, Any])
    assert_type(unknown_columns, Tensor[tt.int32, L[2], Any])
    assert_type(unknown_rank, Tensor[float32, *tuple[Any, ...]])  # the rank is unknown too
    assert_type(named, Tensor[float32, Batch, L[3]])  # a Dim stays a Dim
    takes_two_by_three(unknown_rows)


not_literal(2, (2, 3), (2,), Tensor(np.zeros((1, 3), np.float32)))


class Count(int): ...


def not_a_dim(n: np.int64, count: Count) -> None:
    """A size typed a numpy integer, an ``int`` subclass or ``bool`` is an unknown dim, not a dim
    of that type (which no literal annotation would accept)."""
    numpy_sized = tt.zeros((n, 2))
    subclass_sized = tt.ones((count, True))
    drawn = tt.random.normal((n,))
    assert_type(numpy_sized, Tensor[float32, Any, L[2]])
    assert_type(subclass_sized, Tensor[float32, Any, Any])
    assert_type(drawn, Tensor[float32, Any])


def in_context(n: int, sizes: tuple[int, ...]) -> None:
    """Inferred against a literal annotation, a call with unknown sizes fits it (the code may
    run); literal sizes that differ from it do not."""
    rows: Tensor[float32, L[2], L[3]] = tt.zeros((n, 3))
    anything: Tensor[tt.int8, L[2], L[3]] = tt.full(sizes, 1, tt.int8)
    takes_two_by_three(tt.random.uniform((2, n)))
    takes_two_by_three(tt.ones((n, 4)))  # type: ignore[arg-type]
    wrong: Tensor[float32, L[2], L[3]] = tt.zeros((4, 3))  # type: ignore[assignment]


def as_arguments() -> None:
    """As an argument, a call is inferred in the parameter's context: its own arguments still count."""
    assert_type(tt.add(tt.zeros((2,), tt.int8), tt.ones((2,), tt.int8)), Tensor[tt.int8, L[2]])
    assert_type(tt.zeros((2,)) + tt.full((3, 1), 1, dtype=tt.float64), Tensor[tt.float64, L[3], L[2]])


def ranges(b: Tensor[float32, Batch, L[3]], n: int) -> None:
    counted = tt.arange(5)
    stepped = tt.arange(2, 11, 3)
    backwards = tt.arange(5, 0, -2)
    empty = tt.arange(-3)
    typed = tt.arange(4, dtype=tt.float32)
    by_name = tt.arange(start=1, stop=ROWS)
    named = tt.arange(b.shape[0])
    literal_dim = tt.arange(b.shape[1])
    unknown = tt.arange(n)
    unknown_start = tt.arange(n, 5)
    assert_type(counted, Tensor[tt.int64, L[5]])
    assert_type(stepped, Tensor[tt.int64, L[3]])
    assert_type(backwards, Tensor[tt.int64, L[3]])
    assert_type(empty, Tensor[tt.int64, L[0]])
    assert_type(typed, Tensor[float32, L[4]])
    assert_type(by_name, Tensor[tt.int64, L[1]])
    assert_type(named, Tensor[tt.int64, Batch])  # the dim of x.shape[0]: positions along Batch
    assert_type(literal_dim, Tensor[tt.int64, L[3]])
    assert_type(unknown, Tensor[tt.int64, Any])
    assert_type(unknown_start, Tensor[tt.int64, Any])
    tt.arange(0, 5, 0)  # type: ignore[tensor-shape]
    tt.arange(n, 5, 0)  # type: ignore[tensor-shape]


def identities(b: Tensor[float32, Batch, L[3]], n: int) -> None:
    square = tt.eye(3)
    wide = tt.eye(2, 5, k=1, dtype=tt.int8)
    named = tt.eye(b.shape[0])
    mixed = tt.eye(b.shape[0], b.shape[1])
    unknown = tt.eye(n, None)
    assert_type(square, Tensor[float32, L[3], L[3]])
    assert_type(wide, Tensor[tt.int8, L[2], L[5]])
    assert_type(named, Tensor[float32, Batch, Batch])
    assert_type(mixed, Tensor[float32, Batch, L[3]])
    assert_type(unknown, Tensor[float32, Any, Any])


def random_tensors(rng: np.random.Generator, n: int) -> None:
    normal = tt.random.normal((2, 3))
    normal64 = tt.random.normal((4,), tt.float64, rng, mean=1.0, stddev=0.5)
    uniform = tt.random.uniform((2, n), rng=0)
    uniform16 = tt.random.uniform(SHAPE, dtype=tt.float16, rng=rng, low=-1.0)
    assert_type(normal, Tensor[float32, L[2], L[3]])
    assert_type(normal64, Tensor[tt.float64, L[4]])
    assert_type(uniform, Tensor[float32, L[2], Any])
    assert_type(uniform16, Tensor[tt.float16, L[2], L[3]])
    tt.random.normal((2,), tt.int32)  # type: ignore[type-var]  # floats only
    like_normal = tt.random.normal((2, 3), tt.float64, rng, like=normal)
    like_uniform = tt.random.uniform((n, 4), rng=0, high=2.0, like=normal64)
    assert_type(like_normal, Tensor[tt.float64, L[2], L[3]])
    assert_type(like_uniform, Tensor[float32, Any, L[4]])


SIZE: Final = 3
WIDE: Final = 2**63


def from_nested_lists(f: float, i: int, b: bool, x: Tensor[float32, Batch, L[3]]) -> None:
    """A list or tuple display has literal sizes, and numpy's dtype for its scalars where each
    scalar's kind is certain: a ``float`` may hold an int, an ``int`` a bool (then the dtype is unknown)."""
    floats = tt.tensor([[1.0, 2.0], [3.0, 4.0]])
    ints = tt.tensor([1, -2, SIZE])
    bools = tt.tensor((True, b))
    mixed = tt.tensor([[True, 2], [3, 4]])
    widened = tt.tensor([1, 2.5, -3])
    complexes = tt.tensor([1.0, 2j])
    empty = tt.tensor([])
    empty_rows = tt.tensor([[], []])
    scalar = tt.tensor(1.5)
    int_scalar = tt.tensor(7)
    uncertain_float = tt.tensor([1.0, f])
    uncertain_int = tt.tensor([[i], [2]])
    beyond_int64 = tt.tensor([WIDE])
    dims = tt.tensor([x.shape[1], x.shape[0]])
    given = tt.tensor([[f, i], [b, 1]], dtype=tt.float32)
    given_none = tt.tensor([1, 2], None)
    assert_type(floats, Tensor[tt.float64, L[2], L[2]])
    assert_type(ints, Tensor[tt.int64, L[3]])
    assert_type(bools, Tensor[tt.bool_, L[2]])
    assert_type(mixed, Tensor[tt.int64, L[2], L[2]])
    assert_type(widened, Tensor[tt.float64, L[3]])
    assert_type(complexes, Tensor[tt.complex128, L[2]])
    assert_type(empty, Tensor[tt.float64, L[0]])
    assert_type(empty_rows, Tensor[tt.float64, L[2], L[0]])
    assert_type(scalar, Tensor[tt.float64])
    assert_type(int_scalar, Tensor[tt.int64])
    assert_type(uncertain_float, Tensor[Any, L[2]])
    assert_type(uncertain_int, Tensor[Any, L[2], L[1]])
    assert_type(beyond_int64, Tensor[Any, L[1]])  # numpy makes it uint64
    assert_type(dims, Tensor[Any, L[2]])  # a Dim may be any int subclass's value
    assert_type(given, Tensor[float32, L[2], L[2]])
    assert_type(given_none, Tensor[tt.int64, L[2]])


def from_names(rows: list[list[float]], ragged: list[object]) -> None:
    """A name holding a list says no rank, and ragged data no shape (numpy refuses it)."""
    named = tt.tensor(rows)
    typed = tt.tensor(rows, tt.float16)
    unequal = tt.tensor([[1.0], [2.0, 3.0]])
    assert_type(named, Tensor[Any, *tuple[Any, ...]])
    assert_type(typed, Tensor[tt.float16, *tuple[Any, ...]])
    assert_type(unequal, Tensor[Any, *tuple[Any, ...]])


def from_arrays(
    square: np.ndarray[tuple[int, int], np.dtype[np.float32]],
    literal: np.ndarray[tuple[L[2], int, L[5]], np.dtype[np.uint8]],
    any_rank: np.ndarray[tuple[Any, ...], np.dtype[np.complex64]],
    any_dtype: np.ndarray[tuple[int], np.dtype[Any]],
    some_float: np.ndarray[tuple[int], np.dtype[np.floating[Any]]],
    flags: np.ndarray[tuple[()], np.dtype[np.bool_]],
    loaded: Any,
) -> None:
    """An ndarray's dtype and rank as numpy's own static type gives them."""
    assert_type(tt.tensor(square), Tensor[float32, Any, Any])
    assert_type(tt.tensor(literal), Tensor[tt.uint8, L[2], Any, L[5]])
    assert_type(tt.tensor(any_rank), Tensor[tt.complex64, *tuple[Any, ...]])
    assert_type(tt.tensor(any_dtype), Tensor[Any, Any])
    assert_type(tt.tensor(some_float), Tensor[Any, Any])  # float16, 32 or 64
    assert_type(tt.tensor(flags), Tensor[tt.bool_])
    assert_type(tt.tensor(square, dtype=tt.int16), Tensor[tt.int16, Any, Any])
    zeros = tt.tensor(np.zeros((2, 3), np.float32))
    doubles = tt.tensor(np.ones(4))
    counted = tt.tensor(np.arange(3, dtype=np.int8))
    made = tt.tensor(np.array([1.0, 2.0]))
    assert_type(zeros, Tensor[float32, Any, Any])
    assert_type(doubles, Tensor[tt.float64, Any])
    assert_type(counted, Tensor[tt.int8, Any])
    assert_type(made, Tensor[Any, *tuple[Any, ...]])  # numpy's stubs say no more
    assert_type(tt.tensor(loaded), Tensor[Any, *tuple[Any, ...]])
    assert_type(tt.tensor(loaded, tt.int64), Tensor[tt.int64, *tuple[Any, ...]])


def from_tensors(x: Tensor[tt.int8, Batch, L[3]], u: Tensor[Any, *tuple[Any, ...]]) -> None:
    """A tensor's copy has its type; ``dtype`` changes the dtype only."""
    assert_type(tt.tensor(x), Tensor[tt.int8, Batch, L[3]])
    assert_type(tt.tensor(x, tt.float32), Tensor[float32, Batch, L[3]])
    assert_type(tt.tensor(u), Tensor[Any, *tuple[Any, ...]])
