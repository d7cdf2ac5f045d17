"""A transformer block with causal self-attention (GPT-2's), typed end to end.

``x + attention(layer_norm(x))``, then ``x + mlp(layer_norm(x))``, on a batch of token sequences
``[Batch, Time, 64]``. The sizes model code computes are dims like any other: the head split is
``Div[C, L[4]]`` (the width ``C`` cut into 4 heads), the tokens flattened for the MLP are
``Mul[B, T]``. mypy with typedtensor's plugin checks each line, ``@shapechecked`` each call.

Run it: ``python examples/transformer.py``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final, Literal as L, TypeAlias, TypeVar

import numpy as np

import typedtensor as tt
from typedtensor import Dim, Div, Mul, Tensor, float32

WIDTH: Final = 64  # the model's width: the features of one token
N_HEAD: Final = 4  # attention heads, WIDTH // N_HEAD = 16 features each
HIDDEN: Final = 4 * WIDTH  # the MLP's width
EPS: Final = 1e-5  # layer norm's guard against a zero variance

Width: TypeAlias = L[64]
Heads: TypeAlias = L[4]
Hidden: TypeAlias = L[256]

B = TypeVar("B", bound=int)
T = TypeVar("T", bound=int)
C = TypeVar("C", bound=int)
D = TypeVar("D", bound=int)


class Batch(Dim):
    """The sequences of one pass."""


class Time(Dim):
    """The positions of a sequence."""


@dataclass(frozen=True)
class LayerNorm:
    gain: Tensor[float32, Width]
    bias: Tensor[float32, Width]


@dataclass(frozen=True)
class Attention:
    w_q: Tensor[float32, Width, Width]
    w_k: Tensor[float32, Width, Width]
    w_v: Tensor[float32, Width, Width]
    w_out: Tensor[float32, Width, Width]


@dataclass(frozen=True)
class FeedForward:
    w_in: Tensor[float32, Width, Hidden]
    b_in: Tensor[float32, Hidden]
    w_out: Tensor[float32, Hidden, Width]
    b_out: Tensor[float32, Width]


@dataclass(frozen=True)
class Block:
    norm_1: LayerNorm
    attention: Attention
    norm_2: LayerNorm
    mlp: FeedForward


def initial_parameters(seed: int) -> Block:
    """GPT-2's initialisation: weights drawn with a standard deviation of 0.02, gains 1, biases 0."""
    rng = np.random.default_rng(seed)
    attention = Attention(
        w_q=tt.random.normal((WIDTH, WIDTH), float32, rng, stddev=0.02),
        w_k=tt.random.normal((WIDTH, WIDTH), float32, rng, stddev=0.02),
        w_v=tt.random.normal((WIDTH, WIDTH), float32, rng, stddev=0.02),
        w_out=tt.random.normal((WIDTH, WIDTH), float32, rng, stddev=0.02),
    )
    mlp = FeedForward(
        w_in=tt.random.normal((WIDTH, HIDDEN), float32, rng, stddev=0.02),
        b_in=tt.zeros((HIDDEN,), float32),
        w_out=tt.random.normal((HIDDEN, WIDTH), float32, rng, stddev=0.02),
        b_out=tt.zeros((WIDTH,), float32),
    )
    norm_1, norm_2 = (LayerNorm(gain=tt.ones((WIDTH,), float32), bias=tt.zeros((WIDTH,), float32)) for _ in range(2))
    return Block(norm_1, attention, norm_2, mlp)


@tt.shapechecked
def layer_norm(x: Tensor[float32, B, T, Width], p: LayerNorm) -> Tensor[float32, B, T, Width]:
    """Each token's features scaled to mean 0 and variance 1, then by the learned gain and bias."""
    return tt.layer_norm(x, axis=-1, eps=EPS) * p.gain + p.bias


@tt.shapechecked
def split_heads(x: Tensor[float32, B, T, C]) -> Tensor[float32, B, Heads, T, Div[C, Heads]]:
    """The width cut into N_HEAD heads of C // N_HEAD features, heads before positions."""
    b, t, c = x.shape
    return tt.transpose(x.reshape((b, t, N_HEAD, c // N_HEAD)), (0, 2, 1, 3))


@tt.shapechecked
def causal_attention(
    q: Tensor[float32, B, Heads, T, D], k: Tensor[float32, B, Heads, T, D], v: Tensor[float32, B, Heads, T, D]
) -> Tensor[float32, B, Heads, T, D]:
    """Each position's mix of the values at it and before it, weighted by its query's match with their keys."""
    t, d = q.shape[2], q.shape[3]
    scores = q @ tt.transpose(k, (0, 1, 3, 2)) / math.sqrt(d)  # [B, Heads, T (queries), T (keys)]
    positions = tt.arange(t)
    future = positions[None, :] > positions[:, None]  # [T, T]: the key comes after the query
    return tt.softmax(tt.where(future, -np.inf, scores), axis=-1) @ v


@tt.shapechecked
def self_attention(x: Tensor[float32, Batch, Time, Width], p: Attention) -> Tensor[float32, Batch, Time, Width]:
    """Causal attention in every head, the heads' results side by side again, then projected."""
    b, t, c = x.shape
    heads = causal_attention(split_heads(x @ p.w_q), split_heads(x @ p.w_k), split_heads(x @ p.w_v))
    return tt.transpose(heads, (0, 2, 1, 3)).reshape((b, t, c)) @ p.w_out


@tt.shapechecked
def feed_forward(x: Tensor[float32, Batch, Time, Width], p: FeedForward) -> Tensor[float32, Batch, Time, Width]:
    """The MLP sees each token alone: the tokens are flattened into one batch of Batch*Time rows."""
    b, t, c = x.shape
    tokens: Tensor[float32, Mul[Batch, Time], Width] = x.reshape((-1, c))
    hidden = tt.gelu(tokens @ p.w_in + p.b_in, approximate=True)  # GPT-2's tanh form
    return (hidden @ p.w_out + p.b_out).reshape((b, t, c))


@tt.shapechecked
def block(x: Tensor[float32, Batch, Time, Width], p: Block) -> Tensor[float32, Batch, Time, Width]:
    """A pre-norm transformer block: attention, then the MLP, each added to the residual stream."""
    x = x + self_attention(layer_norm(x, p.norm_1), p.attention)
    return x + feed_forward(layer_norm(x, p.norm_2), p.mlp)


def main() -> None:
    p = initial_parameters(seed=0)
    x = tt.check(tt.random.normal((2, 8, WIDTH), float32, np.random.default_rng(1)), Tensor[float32, Batch, Time, Width])
    y = block(x, p)
    print(f"output {y.shape} {y.dtype.__name__}, checksum {float(y.sum().numpy()):.6f}")


if __name__ == "__main__":
    main()
