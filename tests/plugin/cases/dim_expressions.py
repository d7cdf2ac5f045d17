"""Dim arithmetic in annotations (SPEC §9): one normal form, however an expression is spelled."""

from __future__ import annotations  # the file is imported for doctests too: one wrong-arity annotation is a case

from typing import Any, Final, Literal as L, TypeAlias, TypeVar, assert_type

from typedtensor import Add, Dim, Div, Mul, Sub, Tensor, arange, check, concat, float32, int64, reshape, tile, zeros

A = TypeVar("A")
B = TypeVar("B")
T = TypeVar("T")
C = TypeVar("C")
H = TypeVar("H")
N = TypeVar("N")
M = TypeVar("M")


class Batch(Dim): ...


class Time(Dim): ...


def commuted(x: Tensor[float32, Mul[T, B]], y: Tensor[float32, Add[M, N]], z: Tensor[float32, Mul[Time, Batch]]) -> None:
    assert_type(x, Tensor[float32, Mul[B, T]])
    assert_type(y, Tensor[float32, Add[N, M]])
    assert_type(z, Tensor[float32, Mul[Batch, Time]])


def regrouped(x: Tensor[float32, Mul[Mul[B, T], C]], y: Tensor[float32, Add[N, N]], z: Tensor[float32, Sub[Add[N, M], M]]) -> None:
    assert_type(x, Tensor[float32, Mul[B, Mul[C, T]]])
    assert_type(y, Tensor[float32, Mul[L[2], N]])
    assert_type(z, Tensor[float32, N])


def folded(x: Tensor[float32, Mul[L[2], L[3]]], y: Tensor[float32, Mul[Mul[L[2], B], Mul[L[3], T]]], z: Tensor[float32, Sub[N, L[3]]]) -> None:
    assert_type(x, Tensor[float32, L[6]])
    assert_type(y, Tensor[float32, Mul[Mul[L[6], B], T]])
    assert_type(z, Tensor[float32, Sub[N, L[3]]])


def cancelled(x: Tensor[float32, Div[Mul[A, B], B]], y: Tensor[float32, Div[Mul[L[4], C], L[2]]], z: Tensor[float32, Div[Mul[L[4], C], Mul[L[2], H]]]) -> None:
    assert_type(x, Tensor[float32, A])
    assert_type(y, Tensor[float32, Mul[L[2], C]])
    assert_type(z, Tensor[float32, Div[Mul[L[2], C], H]])


def per_head(x: Tensor[float32, B, H, T, Div[C, H]]) -> Tensor[float32, B, H, T, Div[C, H]]:
    return x


def flattened(x: Tensor[float32, Mul[T, B], C]) -> Tensor[float32, Mul[B, T], C]:
    return x


def kept_apart(x: Tensor[float32, Div[N, L[2]]], y: Tensor[float32, Mul[L[2], Div[N, L[2]]]], z: Tensor[float32, Add[B, T]]) -> None:
    n: Tensor[float32, N] = x  # type: ignore[assignment]  # N//2 is not N
    m: Tensor[float32, N] = y  # type: ignore[assignment]  # 2*(N//2) is N only for an even N
    product: Tensor[float32, Mul[B, T]] = z  # type: ignore[assignment]
    unknown: Tensor[float32, Any] = x
    assert_type(unknown, Tensor[float32, Any])


def with_any(x: Tensor[float32, Mul[Any, B], Add[L[2], Sub[Any, T]]]) -> None:
    assert_type(x, Tensor[float32, Any, Any])  # a size computed from an unknown one is unknown


def ops_see_one_dim(x: Tensor[float32, Mul[T, B], C], y: Tensor[float32, Mul[B, T], C]) -> None:
    assert_type(x + y, Tensor[float32, Mul[B, T], C])
    assert_type(x.sum(axis=0), Tensor[float32, C])
    assert_type(x.T, Tensor[float32, C, Mul[B, T]])


def later(x: "Tensor[float32, Mul[Later, Batch]]", y: "Tensor[float32, Mul[T, B]]") -> None:
    """A Dim class defined below, and a string annotation."""
    assert_type(x, Tensor[float32, Mul[Batch, Later]])
    assert_type(y, Tensor[float32, Mul[B, T]])


class Later(Dim): ...


Tokens: TypeAlias = Mul[Later, Batch]


def aliased(x: Tensor[float32, Tokens]) -> None:
    assert_type(x, Tensor[float32, Mul[Batch, Later]])
    assert_type(check(x, Tensor[float32, Mul[Later, Batch]]), Tensor[float32, Mul[Batch, Later]])


def two_dims_each(x: Tensor[float32, Mul[B]], y: Tensor[float32, Div[B, T, T]]) -> None: ...  # type: ignore[valid-type]


def flatten(x: Tensor[float32, B, T]) -> Tensor[float32, Mul[B, T]]:
    return x.reshape(-1)


class Sequences:
    def halves(self, x: Tensor[float32, N]) -> Tensor[float32, Div[N, L[2]], Add[N, N]]:
        raise NotImplementedError


def substituted(x: Tensor[float32, Time, Batch], six: Tensor[float32, L[3], L[2]], n: Tensor[float32, L[8]], m: Tensor[float32, Any]) -> None:
    """mypy substitutes a call's dims into the declared result; the plugin spells it in its one way."""
    assert_type(flatten(x), Tensor[float32, Mul[Batch, Time]])
    assert_type(flatten(six), Tensor[float32, L[6]])
    assert_type(Sequences().halves(n), Tensor[float32, L[4], L[16]])
    assert_type(Sequences().halves(m), Tensor[float32, Any, Any])
    tokens = flatten(x)
    flat: Tensor[float32, Mul[Batch, Time]] = tokens


def expressions_are_rigid(x: Tensor[float32, Mul[Batch, Time], L[64]], y: Tensor[float32, Mul[Time, Batch], L[64]], row: Tensor[float32, L[64]]) -> None:
    # SPEC §9: two expressions are the same dim only if their normal forms are equal; otherwise named, rigid
    assert_type(x + y, Tensor[float32, Mul[Batch, Time], L[64]])
    assert_type(x + row, Tensor[float32, Mul[Batch, Time], L[64]])
    x.T + row  # type: ignore[tensor-dim]  # Batch*Time against 64


# Where expressions come from (SPEC §9): the ops compute them, in the same normal form.

WIDTH: Final = 64
N_HEAD: Final = 4
HEAD: Final = WIDTH // N_HEAD  # a literal: Final ints fold


def computed_by_reshape(x: Tensor[float32, B, T, C]) -> None:
    b, t, c = x.shape
    assert_type(x.reshape((b, t, N_HEAD, c // N_HEAD)).reshape((b, t, -1)), Tensor[float32, B, T, C])  # the heads merged: the claim
    assert_type(arange(b * 2), Tensor[int64, Mul[L[2], B]])
    assert_type(arange(1, b), Tensor[int64, Sub[B, L[1]]])
    assert_type(x.reshape((-1, c)), Tensor[float32, Mul[B, T], C])
    assert_type(x.reshape((b * t, c)), Tensor[float32, Mul[T, B], C])
    assert_type(reshape(x, (-1,)), Tensor[float32, Mul[Mul[B, C], T]])
    assert_type(x.reshape((-1, c)).reshape((b, t, c)), Tensor[float32, B, T, C])  # back: the counts are one product
    assert_type(x.reshape((b, t, N_HEAD, c // N_HEAD)), Tensor[float32, B, T, L[4], Div[C, L[4]]])  # the code's // is its claim
    x.reshape((b, t, N_HEAD, -1))  # type: ignore[tensor-dim]  # C/4 is not exact for every C: write c // 4
    x.reshape((b, t, 3, c // 4))  # type: ignore[tensor-dim]  # 3*(C//4) is not C
    assert_type(zeros((WIDTH // N_HEAD, 2 * b)), Tensor[float32, L[16], Mul[L[2], B]])
    assert_type(zeros((HEAD, N_HEAD * HEAD)), Tensor[float32, L[16], L[64]])
    count = 3 * 4
    count = b  # a variable computed from literals is still an int


def joined(x: Tensor[float32, N, L[3]], y: Tensor[float32, M, L[3]]) -> None:
    assert_type(concat([x, y]), Tensor[float32, Add[N, M], L[3]])
    assert_type(concat([x, y, x]), Tensor[float32, Add[Mul[L[2], N], M], L[3]])
    assert_type(tile(x, (2, 1)), Tensor[float32, Mul[L[2], N], L[3]])
    assert_type(concat([y, x]), Tensor[float32, Add[N, M], L[3]])  # N+M is M+N


def sliced(x: Tensor[float32, N, L[8]]) -> None:
    assert_type(x[3:], Tensor[float32, Sub[N, L[3]], L[8]])  # a claim the run checks (N >= 3)
    assert_type(x[::2], Tensor[float32, Any, L[8]])  # (N+1)//2 is a floor, not a Div the run checks exact
    assert_type(x[:-1], Tensor[float32, Any, L[8]])  # a negative bound: unknown
    assert_type(x[:, 3:], Tensor[float32, N, L[5]])
