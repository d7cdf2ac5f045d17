"""A two-layer perceptron on scikit-learn's 8x8 digits, with backpropagation written out.

``hidden = relu(x @ W1 + b1)``, ``y = softmax(hidden @ W2 + b2)``, trained by gradient descent
on the cross entropy. Every gradient has the shape of what it updates, and the types say so:
mypy with typedtensor's plugin checks each line, ``@shapechecked`` each call.

Run it: ``python examples/mlp.py`` (needs the ``examples`` extra: scikit-learn).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal as L, TypeAlias

import numpy as np
from sklearn.datasets import load_digits  # type: ignore[import-untyped]  # scikit-learn ships no types

import typedtensor as tt
from typedtensor import Dim, Tensor, float32

Features: TypeAlias = L[64]
Hidden: TypeAlias = L[32]
Classes: TypeAlias = L[10]


class Batch(Dim):
    """The images of one pass."""


@dataclass(frozen=True)
class Parameters:
    w1: Tensor[float32, Features, Hidden]
    b1: Tensor[float32, Hidden]
    w2: Tensor[float32, Hidden, Classes]
    b2: Tensor[float32, Classes]


def initial_parameters(seed: int) -> Parameters:
    """Small random weights (scaled by 1/sqrt(fan-in)), zero biases."""
    rng = np.random.default_rng(seed)
    w1: Tensor[float32, Features, Hidden] = tt.random.normal((64, 32), float32, rng)
    w2: Tensor[float32, Hidden, Classes] = tt.random.normal((32, 10), float32, rng)
    return Parameters(w1=w1 * 0.125, b1=tt.zeros((32,), float32), w2=w2 * 0.18, b2=tt.zeros((10,), float32))


@tt.shapechecked
def forward(
    x: Tensor[float32, Batch, Features], p: Parameters
) -> tuple[Tensor[float32, Batch, Hidden], Tensor[float32, Batch, Classes]]:
    """The hidden activations and the class probabilities."""
    hidden = tt.relu(x @ p.w1 + p.b1)
    return hidden, tt.softmax(hidden @ p.w2 + p.b2, axis=-1)


@tt.shapechecked
def loss_and_gradients(
    x: Tensor[float32, Batch, Features], y_: Tensor[float32, Batch, Classes], p: Parameters
) -> tuple[Tensor[float32], Parameters]:
    """The cross entropy and its gradient by every parameter, by the chain rule."""
    hidden, y = forward(x, p)
    loss = tt.reduce_mean(-tt.reduce_sum(y_ * tt.log(y), axis=1))
    d_logits = (y - y_) / x.shape[0]  # [Batch, Classes]
    d_hidden = tt.where(hidden > 0, d_logits @ p.w2.T, 0.0)  # relu passes gradient where it was active
    gradients = Parameters(
        w1=x.T @ d_hidden,
        b1=d_hidden.sum(axis=0),
        w2=hidden.T @ d_logits,
        b2=d_logits.sum(axis=0),
    )
    return loss, gradients


def step(p: Parameters, g: Parameters, rate: float) -> Parameters:
    return Parameters(p.w1 - rate * g.w1, p.b1 - rate * g.b1, p.w2 - rate * g.w2, p.b2 - rate * g.b2)


def load(images: np.ndarray[Any, Any], labels: np.ndarray[Any, Any]) -> tuple[Tensor[float32, Batch, Features], Tensor[tt.int64, Batch]]:
    x = tt.check(tt.tensor(images / 16.0, dtype=float32), Tensor[float32, Batch, Features])
    return x, tt.check(tt.tensor(labels, dtype=tt.int64), Tensor[tt.int64, Batch])


def main() -> None:
    images, labels = load_digits(return_X_y=True)  # 1,797 images of 8x8 pixels, bundled
    order = np.random.default_rng(0).permutation(len(labels))
    x_train, labels_train = load(images[order[:1400]], labels[order[:1400]])
    x_test, labels_test = load(images[order[1400:]], labels[order[1400:]])
    y_train = tt.take(tt.eye(10, dtype=float32), labels_train, axis=0)

    p = initial_parameters(seed=0)
    for epoch in range(401):
        loss, gradients = loss_and_gradients(x_train, y_train, p)
        p = step(p, gradients, rate=0.5)
        if epoch % 100 == 0:
            print(f"epoch {epoch:3d}  loss {float(loss.numpy()):.4f}")
    _, y_test = forward(x_test, p)
    correct = tt.reduce_mean(tt.argmax(y_test, axis=1) == labels_test)
    print(f"test accuracy {float(correct.numpy()):.1%} on {x_test.shape[0]} images")


if __name__ == "__main__":
    main()
