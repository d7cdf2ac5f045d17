"""Softmax regression on scikit-learn's 8x8 digits, typed end to end.

The model of the TensorFlow-to-Lift thesis (its Listing 30): ``y = softmax(x @ W + b)`` with the
cross entropy ``reduce_mean(-reduce_sum(y_ * log(y), axis=1))``, trained by gradient descent
with the gradients written out. Every tensor keeps its dtype and shape in its type: mypy with
typedtensor's plugin checks each line, and ``@shapechecked`` checks every call as it runs.

Run it: ``python examples/softmax_regression.py`` (needs the ``examples`` extra: scikit-learn).
"""

from __future__ import annotations

from typing import Literal as L, TypeAlias

import numpy as np
from sklearn.datasets import load_digits  # type: ignore[import-untyped]  # scikit-learn ships no types

import typedtensor as tt
from typedtensor import Dim, Tensor, float32

Features: TypeAlias = L[64]  # 8x8 pixels
Classes: TypeAlias = L[10]  # the digits 0-9


class Batch(Dim):
    """The images of one pass: the training set or the test set."""


Images: TypeAlias = Tensor[float32, Batch, Features]
OneHot: TypeAlias = Tensor[float32, Batch, Classes]
Weights: TypeAlias = Tensor[float32, Features, Classes]
Bias: TypeAlias = Tensor[float32, Classes]


@tt.shapechecked
def predict(x: Images, w: Weights, b: Bias) -> Tensor[float32, Batch, Classes]:
    """Class probabilities: ``softmax(x @ W + b)``."""
    return tt.softmax(x @ w + b, axis=-1)


@tt.shapechecked
def cross_entropy(y: Tensor[float32, Batch, Classes], y_: OneHot) -> Tensor[float32]:
    """The mean over the batch of ``-sum(y_ * log(y))``."""
    return tt.reduce_mean(-tt.reduce_sum(y_ * tt.log(y), axis=1))


@tt.shapechecked
def train_step(x: Images, y_: OneHot, w: Weights, b: Bias, rate: float) -> tuple[Weights, Bias, Tensor[float32]]:
    """One step of gradient descent on the cross entropy; returns the new W, b and the loss.

    For softmax with cross entropy the gradient of the loss by the logits is ``(y - y_) / n``.
    """
    y = predict(x, w, b)
    loss = cross_entropy(y, y_)
    d_logits = (y - y_) / x.shape[0]
    d_w = x.T @ d_logits  # [Features, Batch] @ [Batch, Classes]
    d_b = d_logits.sum(axis=0)
    return w - rate * d_w, b - rate * d_b, loss


@tt.shapechecked
def accuracy(y: Tensor[float32, Batch, Classes], labels: Tensor[tt.int64, Batch]) -> Tensor[tt.float64]:
    """The fraction of images whose most probable class is their label."""
    return tt.reduce_mean(tt.argmax(y, axis=1) == labels)


@tt.shapechecked
def one_hot(labels: Tensor[tt.int64, Batch]) -> OneHot:
    """Row ``labels[i]`` of the identity matrix for each image."""
    return tt.take(tt.eye(10, dtype=float32), labels, axis=0)


def load(images: np.ndarray, labels: np.ndarray) -> tuple[Images, Tensor[tt.int64, Batch]]:
    """Pixels scaled to [0, 1] as float32, labels as int64, checked against their annotations."""
    x = tt.check(tt.tensor(images / 16.0, dtype=float32), Images)
    return x, tt.check(tt.tensor(labels, dtype=tt.int64), Tensor[tt.int64, Batch])


def main() -> None:
    images, labels = load_digits(return_X_y=True)  # 1,797 images of 8x8 pixels, bundled
    order = np.random.default_rng(0).permutation(len(labels))
    train, test = order[:1400], order[1400:]
    x_train, labels_train = load(images[train], labels[train])
    x_test, labels_test = load(images[test], labels[test])
    y_train = one_hot(labels_train)

    w: Weights = tt.zeros((64, 10), float32)
    b: Bias = tt.zeros((10,), float32)
    for epoch in range(301):
        w, b, loss = train_step(x_train, y_train, w, b, rate=0.5)
        if epoch % 50 == 0:
            print(f"epoch {epoch:3d}  loss {float(loss.numpy()):.4f}")
    test_accuracy = accuracy(predict(x_test, w, b), labels_test)
    print(f"test accuracy {float(test_accuracy.numpy()):.1%} on {x_test.shape[0]} images")


if __name__ == "__main__":
    main()
