"""Result dtypes by numpy's rules (SPEC §4), also for dtype categories such as ``floating``."""

from typing import Any, Literal as L, assert_type

import typedtensor as tt
from typedtensor import Tensor

b: Tensor[tt.bool_, L[2]] = tt.zeros((2,), tt.bool_)
i8: Tensor[tt.int8, L[2]] = tt.zeros((2,), tt.int8)
i16: Tensor[tt.int16, L[2]] = tt.zeros((2,), tt.int16)
i32: Tensor[tt.int32, L[2]] = tt.zeros((2,), tt.int32)
i64: Tensor[tt.int64, L[2]] = tt.zeros((2,), tt.int64)
u8: Tensor[tt.uint8, L[2]] = tt.zeros((2,), tt.uint8)
u16: Tensor[tt.uint16, L[2]] = tt.zeros((2,), tt.uint16)
u32: Tensor[tt.uint32, L[2]] = tt.zeros((2,), tt.uint32)
u64: Tensor[tt.uint64, L[2]] = tt.zeros((2,), tt.uint64)
f16: Tensor[tt.float16, L[2]] = tt.zeros((2,), tt.float16)
f32: Tensor[tt.float32, L[2]] = tt.zeros((2,), tt.float32)
f64: Tensor[tt.float64, L[2]] = tt.zeros((2,), tt.float64)
c64: Tensor[tt.complex64, L[2]] = tt.zeros((2,), tt.complex64)
c128: Tensor[tt.complex128, L[2]] = tt.zeros((2,), tt.complex128)

# sum and prod widen bool_ and integers narrower than 64 bits
assert_type(b.sum(), Tensor[tt.int64])
assert_type(i8.sum(), Tensor[tt.int64])
assert_type(i16.sum(), Tensor[tt.int64])
assert_type(i32.sum(), Tensor[tt.int64])
assert_type(i64.sum(), Tensor[tt.int64])
assert_type(u8.sum(), Tensor[tt.uint64])
assert_type(u16.sum(), Tensor[tt.uint64])
assert_type(u32.sum(), Tensor[tt.uint64])
assert_type(u64.sum(), Tensor[tt.uint64])
assert_type(f16.sum(), Tensor[tt.float16])
assert_type(f32.sum(), Tensor[tt.float32])
assert_type(f64.sum(), Tensor[tt.float64])
assert_type(c64.sum(), Tensor[tt.complex64])
assert_type(c128.sum(), Tensor[tt.complex128])
assert_type(b.prod(), Tensor[tt.int64])
assert_type(i32.prod(), Tensor[tt.int64])
assert_type(u16.prod(), Tensor[tt.uint64])
assert_type(f32.prod(), Tensor[tt.float32])
assert_type(tt.reduce_sum(i8, axis=0), Tensor[tt.int64])
assert_type(tt.reduce_prod(u8, axis=0), Tensor[tt.uint64])

# mean: bool_ and integers give float64, floats and complex keep theirs
assert_type(b.mean(), Tensor[tt.float64])
assert_type(i8.mean(), Tensor[tt.float64])
assert_type(i64.mean(), Tensor[tt.float64])
assert_type(u32.mean(), Tensor[tt.float64])
assert_type(f16.mean(), Tensor[tt.float16])
assert_type(f32.mean(), Tensor[tt.float32])
assert_type(c64.mean(), Tensor[tt.complex64])
assert_type(tt.reduce_mean(i16, axis=0), Tensor[tt.float64])

# max and min keep, any and all give bool_
assert_type(i8.max(), Tensor[tt.int8])
assert_type(u16.min(), Tensor[tt.uint16])
assert_type(b.max(), Tensor[tt.bool_])
assert_type(f16.min(axis=0), Tensor[tt.float16])
assert_type(tt.reduce_max(i32, axis=0), Tensor[tt.int32])
assert_type(f64.any(), Tensor[tt.bool_])
assert_type(i32.all(), Tensor[tt.bool_])
assert_type(tt.reduce_any(c64, axis=0), Tensor[tt.bool_])


def categories(
    floats: Tensor[tt.floating, L[2]],
    ints: Tensor[tt.integer, L[2]],
    signed: Tensor[tt.signedinteger, L[2]],
    unsigned: Tensor[tt.unsignedinteger, L[2]],
    numbers: Tensor[tt.number, L[2]],
    anything: Tensor[tt.generic, L[2]],
) -> None:
    """A category's result is the narrowest dtype that holds for every member."""
    assert_type(floats.sum(), Tensor[tt.floating])
    assert_type(floats.mean(), Tensor[tt.floating])
    assert_type(ints.sum(), Tensor[tt.integer])
    assert_type(ints.mean(), Tensor[tt.float64])
    assert_type(signed.prod(), Tensor[tt.signedinteger])
    assert_type(signed.mean(), Tensor[tt.float64])
    assert_type(unsigned.sum(), Tensor[tt.unsignedinteger])
    assert_type(unsigned.mean(), Tensor[tt.float64])
    assert_type(numbers.sum(), Tensor[tt.number])
    assert_type(numbers.max(), Tensor[tt.number])
    assert_type(anything.mean(), Tensor[tt.generic])
    assert_type(anything.any(), Tensor[tt.bool_])


categories(f32, i32, i64, u8, c64, b)


def unions(x: Tensor[tt.float32 | tt.float64, L[2], L[3]]) -> None:
    """A union of dtypes is a dtype: the dims stay exact, the dtype is the declared one."""
    assert_type(x.max(axis=0), Tensor[tt.float32 | tt.float64, L[3]])
    assert_type(x.sum(axis=1), Tensor[Any, L[2]])


unions(tt.zeros((2, 3), tt.float32))
