"""The two-layer perceptron of ``mlp.py`` on torch: the same typed model, its gradients by torch's
autograd instead of by hand.

The tensors wrap torch tensors (``Tensor(torch_tensor)``, no copy), so every typed op runs on
torch and records itself for ``backward()``; the types and ``@shapechecked`` check the shapes
exactly as on numpy. The loss is ``cross_entropy(relu(x @ W1 + b1) @ W2 + b2)``.

Run it: ``python examples/mlp_torch.py`` (needs the ``examples`` and ``torch`` extras).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal as L, TypeAlias

import numpy as np
import torch
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

    def arrays(self) -> list[torch.Tensor]:
        """The torch tensors that autograd fills with gradients."""
        return [getattr(self, field.name).array for field in fields(self)]


def initial_parameters(seed: int) -> Parameters:
    """Small random weights (scaled by 1/sqrt(fan-in)), zero biases, each recording its gradient."""
    generator = torch.Generator().manual_seed(seed)

    def learned(shape: tuple[int, ...], scale: float) -> Any:
        return Tensor((torch.randn(shape, generator=generator) * scale).requires_grad_())

    return Parameters(
        w1=tt.check(learned((64, 32), 0.125), Tensor[float32, Features, Hidden]),
        b1=tt.check(learned((32,), 0.0), Tensor[float32, Hidden]),
        w2=tt.check(learned((32, 10), 0.18), Tensor[float32, Hidden, Classes]),
        b2=tt.check(learned((10,), 0.0), Tensor[float32, Classes]),
    )


@tt.shapechecked
def logits(x: Tensor[float32, Batch, Features], p: Parameters) -> Tensor[float32, Batch, Classes]:
    return tt.relu(x @ p.w1 + p.b1) @ p.w2 + p.b2


@tt.shapechecked
def cross_entropy(x: Tensor[float32, Batch, Features], y_: Tensor[float32, Batch, Classes], p: Parameters) -> Tensor[float32]:
    return tt.reduce_mean(-tt.reduce_sum(y_ * tt.log_softmax(logits(x, p), axis=-1), axis=1))


def step(p: Parameters, rate: float) -> None:
    """Gradient descent in place, outside autograd's record; the gradients start again from zero."""
    with torch.no_grad():
        for array in p.arrays():
            gradient = array.grad
            assert gradient is not None  # backward() filled it
            array -= rate * gradient
            gradient.zero_()


def load(images: np.ndarray[Any, Any], labels: np.ndarray[Any, Any]) -> tuple[Tensor[float32, Batch, Features], Tensor[tt.int64, Batch]]:
    x = tt.check(Tensor(torch.from_numpy((images / 16.0).astype(np.float32))), Tensor[float32, Batch, Features])
    return x, tt.check(Tensor(torch.from_numpy(labels.astype(np.int64))), Tensor[tt.int64, Batch])


def main() -> None:
    torch.set_num_threads(1)  # matrices this small run fastest on one thread (more only contend)
    images, labels = load_digits(return_X_y=True)  # 1,797 images of 8x8 pixels, bundled
    order = np.random.default_rng(0).permutation(len(labels))
    x_train, labels_train = load(images[order[:1400]], labels[order[:1400]])
    x_test, labels_test = load(images[order[1400:]], labels[order[1400:]])
    y_train = tt.take(tt.eye(10, dtype=float32, like=x_train), labels_train, axis=0)  # on torch, as x_train

    p = initial_parameters(seed=0)
    for epoch in range(401):
        loss = cross_entropy(x_train, y_train, p)
        loss.array.backward()
        step(p, rate=0.5)
        if epoch % 100 == 0:
            print(f"epoch {epoch:3d}  loss {float(loss.numpy()):.4f}")
    with torch.no_grad():
        correct = tt.reduce_mean(tt.argmax(logits(x_test, p), axis=1) == labels_test)
    print(f"test accuracy {float(correct.numpy()):.1%} on {x_test.shape[0]} images")


if __name__ == "__main__":
    main()
