"""The two-layer perceptron of ``mlp.py`` on jax: the same typed model, its gradients by
``jax.grad`` and each training step compiled by ``jax.jit``.

The tensors wrap jax arrays (``Tensor(jax_array)``, no copy), and ``Tensor`` is a jax pytree, so
``jax.value_and_grad`` differentiates the typed loss by a dataclass of typed parameters and
returns the gradients as that dataclass. ``@shapechecked`` checks the shapes while jax traces a
step (once per shape, reading no values); the compiled step runs without them. The loss is
``cross_entropy(relu(x @ W1 + b1) @ W2 + b2)``.

Run it: ``python examples/mlp_jax.py`` (needs the ``examples`` and ``jax`` extras).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal as L, TypeAlias

import jax
import jax.numpy as jnp
import numpy as np
from sklearn.datasets import load_digits  # type: ignore[import-untyped]  # scikit-learn ships no types

import typedtensor as tt
from typedtensor import Dim, Tensor, float32

Features: TypeAlias = L[64]
Hidden: TypeAlias = L[32]
Classes: TypeAlias = L[10]


class Batch(Dim):
    """The images of one pass."""


@jax.tree_util.register_dataclass  # its fields are the leaves jax differentiates and traces
@dataclass(frozen=True)
class Parameters:
    w1: Tensor[float32, Features, Hidden]
    b1: Tensor[float32, Hidden]
    w2: Tensor[float32, Hidden, Classes]
    b2: Tensor[float32, Classes]


def initial_parameters(seed: int) -> Parameters:
    """Small random weights (scaled by 1/sqrt(fan-in)), zero biases, as jax arrays."""
    keys = jax.random.split(jax.random.key(seed))

    def normal(key: Any, shape: tuple[int, int], scale: float) -> Any:
        return Tensor(jax.random.normal(key, shape, dtype=jnp.float32) * scale)

    return Parameters(
        w1=tt.check(normal(keys[0], (64, 32), 0.125), Tensor[float32, Features, Hidden]),
        b1=tt.check(Tensor(jnp.zeros(32, dtype=jnp.float32)), Tensor[float32, Hidden]),
        w2=tt.check(normal(keys[1], (32, 10), 0.18), Tensor[float32, Hidden, Classes]),
        b2=tt.check(Tensor(jnp.zeros(10, dtype=jnp.float32)), Tensor[float32, Classes]),
    )


@tt.shapechecked
def logits(x: Tensor[float32, Batch, Features], p: Parameters) -> Tensor[float32, Batch, Classes]:
    return tt.relu(x @ p.w1 + p.b1) @ p.w2 + p.b2


@tt.shapechecked
def cross_entropy(p: Parameters, x: Tensor[float32, Batch, Features], y_: Tensor[float32, Batch, Classes]) -> Tensor[float32]:
    return tt.reduce_mean(-tt.reduce_sum(y_ * tt.log_softmax(logits(x, p), axis=-1), axis=1))


def loss_array(p: Parameters, x: Tensor[float32, Batch, Features], y_: Tensor[float32, Batch, Classes]) -> Any:
    """The loss as jax's own 0-d array: ``jax.grad`` differentiates functions that return one."""
    return cross_entropy(p, x, y_).array


@jax.jit
def train_step(p: Parameters, x: Tensor[float32, Batch, Features], y_: Tensor[float32, Batch, Classes]) -> tuple[Tensor[float32], Parameters]:
    """One step of gradient descent, compiled once: the loss before it and the new parameters."""
    g: Parameters  # jax.grad by a dataclass of tensors gives one of their gradients
    loss, g = jax.value_and_grad(loss_array)(p, x, y_)
    rate = 0.5
    updated = Parameters(p.w1 - rate * g.w1, p.b1 - rate * g.b1, p.w2 - rate * g.w2, p.b2 - rate * g.b2)
    return tt.check(Tensor(loss), Tensor[float32]), updated


def load(images: np.ndarray[Any, Any], labels: np.ndarray[Any, Any]) -> tuple[Tensor[float32, Batch, Features], Tensor[tt.int64, Batch]]:
    x = tt.check(Tensor(jnp.asarray(images / 16.0, dtype=jnp.float32)), Tensor[float32, Batch, Features])
    return x, tt.check(Tensor(jnp.asarray(labels, dtype=jnp.int64)), Tensor[tt.int64, Batch])


def main() -> None:
    # argmax's indices are int64 by the rules (as numpy's), which jax holds only in its 64-bit
    # mode; the model's arrays stay float32, as their types say.
    jax.config.update("jax_enable_x64", True)  # type: ignore[no-untyped-call]  # jax leaves Config.update untyped
    images, labels = load_digits(return_X_y=True)  # 1,797 images of 8x8 pixels, bundled
    order = np.random.default_rng(0).permutation(len(labels))
    x_train, labels_train = load(images[order[:1400]], labels[order[:1400]])
    x_test, labels_test = load(images[order[1400:]], labels[order[1400:]])
    y_train = tt.take(tt.eye(10, dtype=float32, like=x_train), labels_train, axis=0)  # on jax, as x_train

    p = initial_parameters(seed=0)
    for epoch in range(401):
        loss, p = train_step(p, x_train, y_train)
        if epoch % 100 == 0:
            print(f"epoch {epoch:3d}  loss {float(loss.numpy()):.4f}")
    correct = tt.reduce_mean(tt.argmax(logits(x_test, p), axis=1) == labels_test)
    print(f"test accuracy {float(correct.numpy()):.1%} on {x_test.shape[0]} images")


if __name__ == "__main__":
    main()
