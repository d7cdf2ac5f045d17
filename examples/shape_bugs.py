"""The shape bugs typedtensor exists to catch, each caught twice: by mypy and when it runs.

Each function holds one bug that numpy would either reject deep inside a call or, worse, run
with a wrong answer. mypy with typedtensor's plugin reports every one of them before the code
runs; the comment on the line says which error code it gives (a test checks each, and that
mypy reports nothing else here). Run the file to see the runtime's error for each.

The last six are written with named dims, as model code is, four of them a transformer block's
(``examples/transformer.py`` is the block written right). A named dim stands for every size it may
take, so where it must agree with a literal or another named dim the code works only for some
sizes (``tensor-dim``); two literals that clash fail for every size, named dims around them or not,
and get the literal code. The runtime, which sees sizes, reports the failure for the sizes it got.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal as L

import numpy as np

import typedtensor as tt
from typedtensor import Dim, Tensor, float32

Scores = Tensor[float32, L[32], L[10]]


class Batch(Dim): ...


class Time(Dim): ...


class Context(Dim): ...


Tokens = Tensor[float32, Batch, Time, L[64]]
Heads = Tensor[float32, Batch, L[4], Time, L[16]]  # Tokens split into 4 heads of 16 features
OtherKeys = Tensor[float32, Batch, L[4], Context, L[16]]  # the keys of another sequence, in heads


def wrong_axis(scores: Scores) -> object:
    """Summing over the classes of a [batch, classes] tensor, written as if it had three dims."""
    return tt.reduce_sum(scores, axis=2)  # error: tensor-axis


def forgot_keepdims(scores: Scores) -> object:
    """Centering each row: without keepdims the [32] mean aligns with the 10 classes."""
    return scores - scores.mean(axis=1)  # error: tensor-broadcast


def swapped_matmul(x: Tensor[float32, L[32], L[64]], w: Tensor[float32, L[64], L[10]]) -> object:
    """``w @ x`` for ``x @ w``."""
    return w @ x  # error: tensor-matmul


def mismatched_bias(scores: Scores, bias: Tensor[float32, L[32]]) -> object:
    """A bias of the wrong layer: 32 entries where there are 10 classes."""
    return scores + bias  # error: tensor-broadcast


def bad_reshape(images: Tensor[float32, L[32], L[8], L[8]]) -> object:
    """Flattening 8x8 images into 65 features."""
    return images.reshape((32, 65))  # error: tensor-reshape


def squeeze_not_one(scores: Scores) -> object:
    """Squeezing the batch dim, which is 32, not 1."""
    return tt.squeeze(scores, axis=0)  # error: tensor-shape


def index_out_of_range(scores: Scores) -> object:
    """The 11th class of 10."""
    return scores[:, 10]  # error: tensor-index


def forgot_keepdims_named(x: Tokens) -> object:
    """Layer norm's centering on [batch, time, 64]: without keepdims the mean is [batch, time]."""
    return x - x.mean(axis=-1)  # error: tensor-dim


def attention_scores_unpermuted(q: Tokens, k: Tokens) -> object:
    """``q @ k`` where ``q @ k.T`` was meant: the inner dims are 64 and Time."""
    return q @ k  # error: tensor-dim


def split_heads_wrong_count(x: Tokens) -> object:
    """Six heads of a width of 64: each gets 64 // 6 = 10 features, and 6 * 10 is not 64."""
    b, t, c = x.shape
    return x.reshape((b, t, 6, c // 6))  # error: tensor-dim


def scores_transposed_whole(q: Heads, k: Heads) -> object:
    """``q @ k.T`` on [Batch, 4, Time, 16]: ``.T`` reverses all four dims, not the last two."""
    return q @ k.T  # error: tensor-matmul


def unflattened_swapped(x: Tokens, w: Tensor[float32, L[64], L[64]]) -> object:
    """Tokens flattened to [Batch*Time, 64] for a per-token layer, put back as [Time, Batch, 64]."""
    b, t, c = x.shape
    tokens = x.reshape((-1, c)) @ w
    return x + tokens.reshape((t, b, c))  # error: tensor-dim


def causal_mask_on_other_keys(q: Heads, k: OtherKeys) -> object:
    """A [Time, Time] causal mask on [Batch, 4, Time, Context] scores, whose keys are another sequence's."""
    scores = q @ tt.transpose(k, (0, 1, 3, 2))
    positions = tt.arange(q.shape[2])
    return tt.where(positions[None, :] > positions[:, None], -np.inf, scores)  # error: tensor-dim


BUGS: list[Callable[[], object]] = [
    lambda: wrong_axis(tt.zeros((32, 10))),
    lambda: forgot_keepdims(tt.zeros((32, 10))),
    lambda: swapped_matmul(tt.zeros((32, 64)), tt.zeros((64, 10))),
    lambda: mismatched_bias(tt.zeros((32, 10)), tt.zeros((32,))),
    lambda: bad_reshape(tt.zeros((32, 8, 8))),
    lambda: squeeze_not_one(tt.zeros((32, 10))),
    lambda: index_out_of_range(tt.zeros((32, 10))),
    lambda: forgot_keepdims_named(tt.check(tt.zeros((2, 5, 64)), Tokens)),  # literal data made Batch and Time
    lambda: attention_scores_unpermuted(tt.check(tt.zeros((2, 5, 64)), Tokens), tt.check(tt.zeros((2, 5, 64)), Tokens)),
    lambda: split_heads_wrong_count(tt.check(tt.zeros((2, 5, 64)), Tokens)),
    lambda: scores_transposed_whole(tt.check(tt.zeros((2, 4, 5, 16)), Heads), tt.check(tt.zeros((2, 4, 5, 16)), Heads)),
    lambda: unflattened_swapped(tt.check(tt.zeros((2, 5, 64)), Tokens), tt.zeros((64, 64))),
    lambda: causal_mask_on_other_keys(tt.check(tt.zeros((2, 4, 5, 16)), Heads), tt.check(tt.zeros((2, 4, 7, 16)), OtherKeys)),
]

if __name__ == "__main__":
    for bug in BUGS:
        try:
            bug()
        except tt.TypedTensorError as error:
            print(f"{type(error).__name__}: {error}")
