"""examples/transformer.py computes what a plain-numpy transformer block computes, and its
runtime checks refuse wrong shapes.

The numpy twin below is written independently of the example: float64, ``einsum`` over the
heads, a mask from ``np.triu``, the variance from ``np.var``.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

import typedtensor as tt
from tests.support import PROJECT

Array = np.ndarray[Any, np.dtype[Any]]


def _load_example() -> ModuleType:
    spec = importlib.util.spec_from_file_location("transformer_example", PROJECT / "examples" / "transformer.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while the class is made
    spec.loader.exec_module(module)
    return module


example_ = _load_example()
WIDTH, HEADS, HIDDEN = 64, 4, 256


def _parameters(rng: np.random.Generator) -> dict[str, Array]:
    """Every weight, gain and bias random (a gain of 1 or a bias of 0 would hide a mistake)."""
    shapes = {
        "norm_1.gain": (WIDTH,), "norm_1.bias": (WIDTH,), "norm_2.gain": (WIDTH,), "norm_2.bias": (WIDTH,),
        "w_q": (WIDTH, WIDTH), "w_k": (WIDTH, WIDTH), "w_v": (WIDTH, WIDTH), "w_out": (WIDTH, WIDTH),
        "w_in": (WIDTH, HIDDEN), "b_in": (HIDDEN,), "w_out_mlp": (HIDDEN, WIDTH), "b_out": (WIDTH,),
    }
    arrays = {name: rng.normal(scale=0.15, size=shape).astype(np.float32) for name, shape in shapes.items()}
    for norm in ("norm_1", "norm_2"):
        arrays[f"{norm}.gain"] += 1
    return arrays


def _block(a: dict[str, Array]) -> Any:
    """The example's ``Block`` holding the arrays ``a``."""
    t = tt.tensor

    def norm(name: str) -> Any:
        return example_.LayerNorm(gain=t(a[f"{name}.gain"]), bias=t(a[f"{name}.bias"]))

    attention = example_.Attention(t(a["w_q"]), t(a["w_k"]), t(a["w_v"]), t(a["w_out"]))
    mlp = example_.FeedForward(t(a["w_in"]), t(a["b_in"]), t(a["w_out_mlp"]), t(a["b_out"]))
    return example_.Block(norm("norm_1"), attention, norm("norm_2"), mlp)


def _numpy_block(x: Array, a: dict[str, Array]) -> Array:
    """The same block in plain numpy, in float64."""
    p = {name: value.astype(np.float64) for name, value in a.items()}
    batch, time, _ = x.shape

    def layer_norm(h: Array, name: str) -> Array:
        normalised = (h - h.mean(axis=-1, keepdims=True)) / np.sqrt(h.var(axis=-1, keepdims=True) + 1e-5)
        return normalised * p[f"{name}.gain"] + p[f"{name}.bias"]

    def heads(h: Array) -> Array:  # [batch, time, heads, head size]
        return h.reshape(batch, time, HEADS, WIDTH // HEADS)

    h = layer_norm(x, "norm_1")
    q, k, v = heads(h @ p["w_q"]), heads(h @ p["w_k"]), heads(h @ p["w_v"])
    scores = np.einsum("bqhd,bkhd->bhqk", q, k) / np.sqrt(WIDTH // HEADS)
    scores[..., np.triu(np.ones((time, time), dtype=bool), k=1)] = -np.inf
    weights = np.exp(scores - scores.max(axis=-1, keepdims=True))
    weights /= weights.sum(axis=-1, keepdims=True)
    attended = np.einsum("bhqk,bkhd->bqhd", weights, v).reshape(batch, time, WIDTH)
    x = x + attended @ p["w_out"]

    h = layer_norm(x, "norm_2") @ p["w_in"] + p["b_in"]
    gelu = 0.5 * h * (1 + np.tanh(np.sqrt(2 / np.pi) * (h + 0.044715 * h**3)))
    return x + gelu @ p["w_out_mlp"] + p["b_out"]


def _run_block(x: Array, a: dict[str, Array]) -> Array:
    tokens = tt.check(tt.tensor(x), tt.Tensor[tt.float32, example_.Batch, example_.Time, example_.Width])
    result: Array = example_.block(tokens, _block(a)).numpy()
    return result


@settings(max_examples=10, deadline=None)
@given(batch=st.integers(1, 4), time=st.integers(1, 9), seed=st.integers(0, 2**32 - 1))
@example(batch=2, time=8, seed=0)
@example(batch=3, time=5, seed=1)
def test_the_block_equals_its_numpy_twin(batch: int, time: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(batch, time, WIDTH)).astype(np.float32)
    a = _parameters(rng)
    actual = _run_block(x, a)
    assert actual.dtype == np.float32 and actual.shape == (batch, time, WIDTH)
    np.testing.assert_allclose(actual, _numpy_block(x.astype(np.float64), a), rtol=1e-5, atol=2e-5)


def test_a_position_sees_nothing_after_it() -> None:
    """Changing the last token changes its own output only: the mask is causal."""
    rng = np.random.default_rng(7)
    x = rng.normal(size=(2, 6, WIDTH)).astype(np.float32)
    a = _parameters(rng)
    changed = x.copy()
    changed[:, -1] = rng.normal(size=(2, WIDTH))
    before, after = _run_block(x, a), _run_block(changed, a)
    np.testing.assert_array_equal(before[:, :-1], after[:, :-1])
    assert np.abs(before[:, -1] - after[:, -1]).min() > 0


def test_the_initial_parameters_are_deterministic() -> None:
    x = tt.check(tt.random.normal((2, 3, WIDTH), rng=5), tt.Tensor[tt.float32, example_.Batch, example_.Time, example_.Width])
    first, second = (example_.block(x, example_.initial_parameters(seed=0)).numpy() for _ in range(2))
    np.testing.assert_array_equal(first, second)
    assert not np.array_equal(first, example_.block(x, example_.initial_parameters(seed=1)).numpy())


def test_a_token_of_the_wrong_width_is_a_shape_error() -> None:
    p = example_.initial_parameters(seed=0)
    with pytest.raises(tt.ShapeError) as error:
        example_.block(tt.zeros((2, 8, 32)), p)
    message = str(error.value)
    assert 'parameter "x" of block() does not match its annotation' in message
    assert "Tensor[float32, Batch, Time, 64]" in message and "Tensor[float32, 2, 8, 32]" in message


def test_keys_of_another_length_are_a_shape_error() -> None:
    """The generic ``causal_attention`` binds ``T`` from the queries and holds the keys to it."""
    q = tt.zeros((2, HEADS, 8, 16))
    with pytest.raises(tt.ShapeError) as error:
        example_.causal_attention(q, tt.zeros((2, HEADS, 7, 16)), q)
    assert 'parameter "k" of causal_attention()' in str(error.value) and "T=8" in str(error.value)


def test_a_width_the_heads_do_not_divide_is_refused() -> None:
    with pytest.raises(tt.ReshapeError, match=r"Cannot reshape Tensor\[float32, 2, 8, 30\] to \(2, 8, 4, 7\)"):
        example_.split_heads(tt.zeros((2, 8, 30)))
