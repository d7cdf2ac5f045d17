"""The layers under autodiff (SPEC 10): torch's autograd and ``jax.grad`` (under ``jit``) flow
through ``conv2d``, the pools and ``layer_norm``; the references are the same computations in
plain torch and plain jax."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import typedtensor as tt
from typedtensor import Tensor

AnyTensor = Tensor[Any, *tuple[Any, ...]]


def typed_loss(x: AnyTensor, w: AnyTensor) -> AnyTensor:
    maps = tt.relu(tt.conv2d(x, w, stride=1, padding=1))
    pooled = tt.max_pool2d(maps, 2) + tt.avg_pool2d(maps, 2)
    return tt.reduce_sum(tt.square(tt.layer_norm(pooled, axis=-1) * pooled))


def arrays() -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    rng = np.random.default_rng(0)
    return rng.standard_normal((2, 3, 6, 6)).astype(np.float32), rng.standard_normal((4, 3, 3, 3)).astype(np.float32)


def test_torch_autograd_flows_through_the_layers() -> None:
    torch = pytest.importorskip("torch", reason="torch is not installed: the torch backend's tests skip")
    functional = torch.nn.functional
    x, w = (torch.from_numpy(array) for array in arrays())
    typed_w, plain_w = w.clone().requires_grad_(), w.clone().requires_grad_()
    typed = typed_loss(Tensor(x), Tensor(typed_w))
    typed.array.backward()
    maps = torch.relu(functional.conv2d(x, plain_w, padding=1))
    pooled = functional.max_pool2d(maps, 2) + functional.avg_pool2d(maps, 2)
    plain = (functional.layer_norm(pooled, pooled.shape[-1:], eps=1e-5) * pooled).square().sum()
    plain.backward()
    torch.testing.assert_close(typed.array, plain)
    torch.testing.assert_close(typed_w.grad, plain_w.grad, rtol=1e-4, atol=1e-3)  # float32 sums in another order


def test_jax_grad_and_jit_flow_through_the_layers() -> None:
    jax = pytest.importorskip("jax", reason="jax is not installed: the jax backend's tests skip")
    jnp = jax.numpy
    x, w = (jnp.asarray(array) for array in arrays())

    def plain_loss(w: Any) -> Any:
        maps = jax.nn.relu(jax.lax.conv_general_dilated(x, w, (1, 1), [(1, 1), (1, 1)]))
        window = (1, 1, 2, 2)
        pooled = jax.lax.reduce_window(maps, -jnp.inf, jax.lax.max, window, window, "VALID")
        pooled = pooled + jax.lax.reduce_window(maps, 0.0, jax.lax.add, window, window, "VALID") / 4
        centered = pooled - pooled.mean(axis=-1, keepdims=True)
        normed = centered / jnp.sqrt((centered**2).mean(axis=-1, keepdims=True) + 1e-5)
        return jnp.sum((normed * pooled) ** 2)

    typed_grad = jax.jit(jax.grad(lambda w: typed_loss(Tensor(x), w).array))(Tensor(w))
    np.testing.assert_allclose(np.asarray(typed_grad.array), np.asarray(jax.grad(plain_loss)(w)), rtol=1e-4, atol=1e-4)
