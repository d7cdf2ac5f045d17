"""Named dims are rigid (SPEC §7): a ``Dim`` class, or a TypeVar inside the function that declares
it, stands for every size it may take. Where two dims must agree, such a dim against a literal
(other than a broadcast 1) or another named dim works only for some sizes: ``tensor-dim``."""

from typing import Any, Generic, Literal as L, TypeVar, assert_type

import typedtensor as tt
from typedtensor import Add, Dim, Div, Mul, Tensor, float32

N = TypeVar("N")
M = TypeVar("M")


class B(Dim): ...


class T(Dim): ...


def broadcasting(x: Tensor[float32, B, T, L[64]], row: Tensor[float32, L[64]], t: Tensor[float32, T], one: Tensor[float32, T, L[1]], u: Tensor[float32, Any, Any]) -> None:
    assert_type(x + row, Tensor[float32, B, T, L[64]])
    assert_type(x + one, Tensor[float32, B, T, L[64]])  # a Literal[1] still gives way
    assert_type(x * x, Tensor[float32, B, T, L[64]])  # the same named dims agree
    assert_type(t + u, Tensor[float32, Any, Any])  # an unknown dim is never an error (T may be 1)
    x - x.mean(axis=-1)  # type: ignore[tensor-dim]  # the forgotten keepdims: T and 64 at axis -1
    assert_type(x - x.mean(axis=-1, keepdims=True), Tensor[float32, B, T, L[64]])
    t + row  # type: ignore[tensor-dim]  # T against 64
    t + x.sum(axis=(1, 2))  # type: ignore[tensor-dim]  # T against B
    tt.where(t > 0, t, row)  # type: ignore[tensor-dim]
    tt.broadcast_to(t, (64,))  # type: ignore[tensor-dim]
    tt.broadcast_to(row, t.shape)  # type: ignore[tensor-dim]
    assert_type(tt.broadcast_to(t, (x.shape[0], x.shape[1])), Tensor[float32, B, T])
    after = t + row  # type: ignore[tensor-dim]
    after * row  # one mistake, one error: the result has unknown dims


def literals_outrank(x: Tensor[float32, L[3], T], y: Tensor[float32, L[4], L[5]], a: Tensor[float32, L[3], L[2], T], b: Tensor[float32, L[4], B, L[5]]) -> None:
    x + y  # type: ignore[tensor-broadcast]  # 3 against 4 fails for every size: that is the error
    a @ b  # type: ignore[tensor-matmul]  # batch sizes 3 and 4, not the named inner dims T and B
    tt.stack([x, y])  # type: ignore[tensor-shape]  # 3 and 4, not T and 5


def matmul(q: Tensor[float32, B, T, L[64]], k: Tensor[float32, B, T, L[64]], w: Tensor[float32, L[64], L[10]], v: Tensor[float32, T, B, L[64]]) -> None:
    assert_type(q @ tt.transpose(k, (0, 2, 1)), Tensor[float32, B, T, T])
    assert_type(q @ w, Tensor[float32, B, T, L[10]])
    assert_type(tt.matmul(q, k, transpose_b=True), Tensor[float32, B, T, T])
    q @ tt.transpose(k, (1, 2, 0))  # type: ignore[tensor-dim]  # the wrong permutation: batch dims B and T
    q @ k  # type: ignore[tensor-dim]  # inner dims 64 and T
    q @ tt.transpose(v, (0, 2, 1))  # type: ignore[tensor-dim]  # batch dims B and T
    scores = q @ k  # type: ignore[tensor-dim]
    assert_type(scores, Tensor[float32, *tuple[Any, ...]])


def joins(a: Tensor[float32, B, L[3]], b: Tensor[float32, T, L[3]], c: Tensor[float32, L[2], L[3]], u: Tensor[float32, Any, L[3]]) -> None:
    assert_type(tt.concat([a, a], axis=1), Tensor[float32, B, L[6]])
    assert_type(tt.concat([a, b], axis=0), Tensor[float32, Add[B, T], L[3]])  # the joined axis may differ
    assert_type(tt.stack([a, u]), Tensor[float32, L[2], B, L[3]])
    tt.stack([a, b])  # type: ignore[tensor-dim]
    tt.stack([a, c], axis=-1)  # type: ignore[tensor-dim]
    joined = tt.concat([a, c], axis=1)  # type: ignore[tensor-dim]
    assert_type(joined, Tensor[float32, *tuple[Any, ...]])


def squeeze(x: Tensor[float32, B, L[1], T], u: Tensor[float32, Any, L[3]]) -> None:
    assert_type(tt.squeeze(x, 1), Tensor[float32, B, T])
    assert_type(tt.squeeze(u, 0), Tensor[float32, L[3]])
    tt.squeeze(x, 0)  # type: ignore[tensor-dim]  # B may be other than 1
    squeezed = tt.squeeze(x, -1)  # type: ignore[tensor-dim]
    assert_type(squeezed, Tensor[float32, *tuple[Any, ...]])


def reshape(x: Tensor[float32, B, L[5]], y: Tensor[float32, B, T], z: Tensor[float32, B, L[6]], u: Tensor[float32, B, Any]) -> None:
    assert_type(y.reshape((y.shape[1], y.shape[0])), Tensor[float32, T, B])  # the same named dims, reordered
    assert_type(x.reshape((x.shape[0], 5, 1)), Tensor[float32, B, L[5], L[1]])
    assert_type(z.reshape((-1, 3)), Tensor[float32, Mul[L[2], B], L[3]])  # B*6 is a multiple of 3 for every B
    assert_type(x.reshape((5, -1)), Tensor[float32, L[5], B])
    assert_type(u.reshape((u.shape[0], 64)), Tensor[float32, B, L[64]])  # an unknown dim may be 64
    x.reshape((-1, 3))  # type: ignore[tensor-dim]  # B*5 is a multiple of 3 only for some B
    x.reshape((10,))  # type: ignore[tensor-dim]
    y.reshape((y.shape[0], 64))  # type: ignore[tensor-dim]  # T against 64
    z.reshape((y.shape[1], -1))  # type: ignore[tensor-dim]  # B*6 need not be a multiple of T
    tt.reshape(x, (3, -1))  # type: ignore[tensor-dim]
    flat = x.reshape((-1, 3))  # type: ignore[tensor-dim]
    assert_type(flat, Tensor[float32, *tuple[Any, ...]])


def indexing(x: Tensor[float32, B, T]) -> None:
    assert_type(x[3], Tensor[float32, T])  # indexing a named dim with a literal assumes no size
    assert_type(x[:, -2], Tensor[float32, B])


def int_dims(x: Tensor[float32, int, L[3]], t: Tensor[float32, T, L[3]]) -> None:
    assert_type(x.shape, tuple[int, L[3]])
    t + x  # no dim of a kind the rules know: never an error


# --- TypeVars: rigid inside their function, solved at a call --------------------------------


def mixed(x: Tensor[float32, N, L[3]], y: Tensor[float32, M, L[3]], four: Tensor[float32, L[4], L[3]]) -> Tensor[float32, N, L[3]]:
    assert_type(x + x, Tensor[float32, N, L[3]])
    x + y  # type: ignore[tensor-dim]  # N and M: both named
    x + four  # type: ignore[tensor-dim]  # N against 4
    tt.matmul(x, x)  # type: ignore[tensor-dim]  # inner dims 3 and N
    return x


def identity(x: Tensor[float32, N]) -> Tensor[float32, N]:
    return x


def calls(three: Tensor[float32, L[3]], four: Tensor[float32, L[4]], b: Tensor[float32, B]) -> None:
    assert_type(identity(three), Tensor[float32, L[3]])  # N = 3: a call is exact
    assert_type(identity(three) + three, Tensor[float32, L[3]])
    identity(three) + four  # type: ignore[tensor-broadcast]  # two literals, not a named dim
    assert_type(identity(b), Tensor[float32, B])
    identity(b) + four  # type: ignore[tensor-dim]  # B is a Dim class wherever it is


class Layer(Generic[N]):
    """A TypeVar of a class is rigid in its methods."""

    def forward(self, x: Tensor[float32, N, L[3]], four: Tensor[float32, L[4], L[3]]) -> Tensor[float32, N, L[3]]:
        x + four  # type: ignore[tensor-dim]
        return x + x


def layer_calls(layer: Layer[L[4]], x: Tensor[float32, L[4], L[3]]) -> None:
    assert_type(layer.forward(x, x), Tensor[float32, L[4], L[3]])


def counts_that_fit_only_if_zero(x: Tensor[float32, B, L[28], L[28]]) -> None:
    x.reshape((x.shape[0], 700))  # type: ignore[tensor-dim]  # B*784 against B*700: only B = 0 fits
    x.reshape((x.shape[0], -1, 5))  # type: ignore[tensor-dim]


def sizes_read_from_shape(x: Tensor[float32, N, M], b: Tensor[float32, B, L[3]]) -> None:
    # x.shape gives ints (SPEC §7), and a dim passed on from it is still the very same named dim
    y = tt.zeros((x.shape[0], x.shape[1]), tt.float32)
    assert_type(x + y, Tensor[float32, N, M])
    w = tt.ones((x.shape[1], 2), tt.float32)
    assert_type(x @ w, Tensor[float32, N, L[2]])
    column = tt.zeros((b.shape[0], 1), tt.float32)
    assert_type(b * column, Tensor[float32, B, L[3]])
    half = tt.zeros((x.shape[0] // 2,), tt.float32)  # N//2 (SPEC §9): not N for every N
    assert_type(half, Tensor[float32, Div[N, L[2]]])
    x.T + half  # type: ignore[tensor-dim]
