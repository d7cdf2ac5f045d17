"""x.at[index].set(value) / .add(value): a value whose dtype the tensor's does not hold is the
run's TensorDTypeError, so it is tensor-dtype statically; a value that fits keeps x's type."""

from typing import Any, Literal as L, TypeVar, assert_type

from typedtensor import Tensor, bool_, float16, float32, float64, int8, int64

DT = TypeVar("DT", bound=float32 | float64)


def fitting(x: Tensor[float32, L[3], L[4]], i: Tensor[int64, L[3]], h: Tensor[float16, L[4]], b: Tensor[bool_, L[4]]) -> None:
    assert_type(x.at[0].set(h), Tensor[float32, L[3], L[4]])
    assert_type(x.at[0].add(b), Tensor[float32, L[3], L[4]])
    assert_type(x.at[0, 0].set(2.5), Tensor[float32, L[3], L[4]])
    assert_type(i.at[0].set(7), Tensor[int64, L[3]])
    assert_type(i.at[1:].add(True), Tensor[int64, L[3]])


def refused(x: Tensor[float32, L[3], L[4]], i: Tensor[int64, L[3]], d: Tensor[float64, L[4]], s: Tensor[int8, L[4]]) -> None:
    x.at[0].set(d)  # type: ignore[tensor-dtype]  # float64 does not fit float32
    i.at[0].set(1.5)  # type: ignore[tensor-dtype]
    i.at[0].add(x[0, 0])  # type: ignore[tensor-dtype]
    s.at[0].set(i[0])  # type: ignore[tensor-dtype]


def unknown(x: Tensor[DT, L[3]], v: Tensor[Any, L[3]], f: Tensor[float64, L[3]], value: Any) -> None:
    assert_type(x.at[0].set(f), Tensor[DT, L[3]])  # DT may be float64: no error
    assert_type(f.at[0].set(v), Tensor[float64, L[3]])
    assert_type(f.at[0].set(value), Tensor[float64, L[3]])
