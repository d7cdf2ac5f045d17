# pyright: reportUnnecessaryTypeIgnoreComment=true
"""Dim arithmetic without the plugin (pyright and plain mypy): ``Add``, ``Sub``, ``Mul`` and
``Div`` are generic classes, valid dims of ``Tensor[...]`` over literals, ``Dim`` classes,
TypeVars and each other; without the plugin an expression is the same dim only as spelled."""

from typing import Literal as L, TypeVar, assert_type

import typedtensor as tt
from typedtensor import Add, Dim, Div, Mul, Sub, Tensor

B = TypeVar("B")
T = TypeVar("T")
C = TypeVar("C")
H = TypeVar("H")
N = TypeVar("N")


class Batch(Dim): ...


def per_head(x: Tensor[tt.float32, B, H, T, Div[C, H]]) -> Tensor[tt.float32, B, H, T, Div[C, H]]:
    return x


def flattened(x: Tensor[tt.float32, Mul[B, T], C], y: Tensor[tt.float32, Add[Sub[N, L[3]], Mul[L[2], Batch]]]) -> None:
    assert_type(x, Tensor[tt.float32, Mul[B, T], C])
    assert_type(y, Tensor[tt.float32, Add[Sub[N, L[3]], Mul[L[2], Batch]]])


def heads(x: Tensor[tt.float32, Batch, L[4], T, Div[C, L[4]]]) -> None:
    assert_type(per_head(x), Tensor[tt.float32, Batch, L[4], T, Div[C, L[4]]])


def sizes(x: Tensor[tt.float32, Mul[B, T], C]) -> int:
    return x.shape[0] + 1  # an expression is an int, like a Dim
