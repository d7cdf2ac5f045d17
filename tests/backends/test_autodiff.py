"""Typed code under autodiff and jit (SPEC 10): torch's autograd flows through typedtensor's ops;
``Tensor`` is a jax pytree, so ``jax.grad``, ``jit``, ``vmap`` and ``eval_shape`` take typed
functions, whose checks run once per trace and never read a traced value. The references are
the same computations written in plain torch and plain jax.
"""

from __future__ import annotations

from typing import Any, TypeVar

import numpy as np
import pytest

import typedtensor as tt
from typedtensor import Tensor, shapechecked

Samples = TypeVar("Samples")
Features = TypeVar("Features")
Classes = TypeVar("Classes")


@shapechecked
def layer(x: Tensor[tt.float32, Samples, Features], w: Tensor[tt.float32, Features, Classes], b: Tensor[tt.float32, Classes]) -> Tensor[tt.float32, Samples, Classes]:
    return tt.relu(x @ w + b)


@shapechecked
def loss(x: Tensor[tt.float32, Samples, Features], w: Tensor[tt.float32, Features, Classes], b: Tensor[tt.float32, Classes], targets: Tensor[tt.float32, Samples, Classes]) -> Tensor[tt.float32]:
    log_probabilities = tt.log_softmax(layer(x, w, b) * 2.0, axis=-1)
    return -tt.reduce_mean(tt.reduce_sum(log_probabilities * targets, axis=-1))


def data(seed: int) -> tuple[np.ndarray[Any, Any], ...]:
    rng = np.random.default_rng(seed)
    x, w, b = (rng.standard_normal(shape).astype(np.float32) for shape in [(5, 4), (4, 3), (3,)])
    return x, w, b, np.eye(3, dtype=np.float32)[rng.integers(0, 3, 5)]


def test_torch_autograd_flows_through_typed_code() -> None:
    torch = pytest.importorskip("torch", reason="torch is not installed: the torch backend's tests skip")
    x, w, b, targets = (torch.from_numpy(array) for array in data(0))
    typed_w, typed_b = (array.clone().requires_grad_() for array in (w, b))
    typed = loss(Tensor(x), Tensor(typed_w), Tensor(typed_b), Tensor(targets))
    typed.array.backward()
    plain_w, plain_b = (array.clone().requires_grad_() for array in (w, b))
    logits = torch.relu(x @ plain_w + plain_b) * 2.0
    plain = -(torch.log_softmax(logits, dim=-1) * targets).sum(dim=-1).mean()
    plain.backward()
    assert typed.dtype is tt.float32 and typed.shape == ()
    torch.testing.assert_close(typed.array, plain)
    torch.testing.assert_close(typed_w.grad, plain_w.grad)
    torch.testing.assert_close(typed_b.grad, plain_b.grad)


def test_checks_take_torch_tensors_and_name_what_came() -> None:
    torch = pytest.importorskip("torch", reason="torch is not installed: the torch backend's tests skip")
    x, w, b, _ = (Tensor(torch.from_numpy(array)) for array in data(1))
    assert layer(x, w, b).shape == (5, 3)
    with pytest.raises(tt.ShapeError) as raised:
        layer(x, w.T, b)  # type: ignore[arg-type]  # a [3, 4] weight: mypy says so too
    assert str(raised.value) == numpy_shape_error()


def numpy_shape_error() -> str:
    """What ``layer`` says of a transposed weight on numpy: every library's message."""
    x, w, b, _ = map(Tensor, data(1))
    with pytest.raises(tt.ShapeError) as raised:
        layer(x, w.T, b)  # type: ignore[arg-type]
    assert "got:      Tensor[float32, 3, 4]" in str(raised.value)
    return str(raised.value)


def jax_plain_loss(jnp: Any, x: Any, w: Any, b: Any, targets: Any) -> Any:
    logits = jnp.maximum(x @ w + b, 0) * 2.0
    shifted = logits - logits.max(axis=-1, keepdims=True)
    log_probabilities = shifted - jnp.log(jnp.exp(shifted).sum(axis=-1, keepdims=True))
    return -(log_probabilities * targets).sum(axis=-1).mean()


def test_jax_grad_and_jit_of_typed_functions() -> None:
    jax = pytest.importorskip("jax", reason="jax is not installed: the jax backend's tests skip")
    jnp = jax.numpy
    x, w, b, targets = (jnp.asarray(array) for array in data(2))
    traces = []

    def typed_loss(w: Tensor[tt.float32, Features, Classes]) -> Any:
        traces.append(None)
        return loss(Tensor(x), w, Tensor(b), Tensor(targets)).array

    gradient = jax.jit(jax.grad(typed_loss))
    first, second = gradient(Tensor(w)), gradient(Tensor(w + 1))
    assert len(traces) == 1  # the checks ran once, on the trace; the second call reused it
    assert isinstance(first, Tensor) and first.shape == (4, 3) and first.dtype is tt.float32
    plain = jax.grad(lambda w: jax_plain_loss(jnp, x, w, b, targets))
    np.testing.assert_allclose(first.numpy(), np.asarray(plain(w)), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(second.numpy(), np.asarray(plain(w + 1)), rtol=1e-5, atol=1e-6)


def test_jax_jit_vmap_and_eval_shape_return_tensors() -> None:
    jax = pytest.importorskip("jax", reason="jax is not installed: the jax backend's tests skip")
    x, w, b, _ = (Tensor(jax.numpy.asarray(array)) for array in data(1))
    jitted = jax.jit(layer)(x, w, b)
    assert isinstance(jitted, Tensor) and jitted.shape == (5, 3)
    np.testing.assert_allclose(jitted.numpy(), layer(x, w, b).numpy(), rtol=1e-6)
    batched = jax.vmap(layer, in_axes=(0, None, None))(Tensor(jax.numpy.stack([x.array, 2 * x.array])), w, b)
    assert batched.shape == (2, 5, 3)
    np.testing.assert_allclose(batched.numpy()[1], layer(x * 2.0, w, b).numpy(), rtol=1e-5)
    shape = jax.eval_shape(layer, x, w, b)
    assert isinstance(shape, Tensor) and (shape.shape, shape.dtype) == ((5, 3), tt.float32)
    with pytest.raises(tt.ShapeError) as raised:
        jax.jit(layer)(x, w.T, b)  # type: ignore[arg-type]  # checked on the trace: the shapes are known
    assert str(raised.value) == numpy_shape_error()


def test_jax_without_64_bit_mode_refuses_a_64_bit_result(jax_without_x64: Any) -> None:
    x = Tensor(jax_without_x64.numpy.ones((2, 3), dtype="int32"))
    with pytest.raises(TypeError, match=r"^jax without 64-bit mode cannot hold int64, which the rules ask for here; enable it"):
        tt.reduce_sum(x)  # numpy's rule: integers sum in int64
    assert (x + 1).dtype is tt.int32  # what fits 32 bits runs


def test_jax_64_bit_mode_switched_off_later_is_an_error_not_a_truncation(jax_without_x64: Any) -> None:
    x = Tensor(jax_without_x64.numpy.ones(3, dtype="int32"))
    jax_without_x64.config.update("jax_enable_x64", True)
    assert (x + 2.5).dtype is tt.float64  # numpy's promotion: int32 and a Python float give float64
    jax_without_x64.config.update("jax_enable_x64", False)
    with pytest.raises(TypeError, match=r"^jax without 64-bit mode cannot hold float64, which the rules ask for here"):
        x + 2.5
