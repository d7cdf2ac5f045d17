"""A small convolutional network on scikit-learn's 8x8 digits, every shape in its types.

``conv2d`` (8 filters of 3x3, padded), ``relu``, ``max_pool2d`` (2x2), a flatten by ``reshape`` to
a size computed from the dims, and a ``matmul`` to the 10 classes. The filters stay random (a
random convolutional layer is a fair feature extractor); the readout is trained by gradient
descent on the cross entropy, its gradient written out. mypy with typedtensor's plugin knows
every shape below (``[Batch, 8, 8, 8]`` after the convolution, ``[Batch, 8, 4, 4]`` after the
pool, ``[Batch, 128]`` flat), ``@shapechecked`` checks each call.

Run it: ``python examples/cnn.py`` (needs the ``examples`` extra: scikit-learn).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal as L, TypeAlias

import numpy as np
from sklearn.datasets import load_digits  # type: ignore[import-untyped]  # scikit-learn ships no types

import typedtensor as tt
from typedtensor import Dim, Tensor, float32

Filters: TypeAlias = L[8]
Flat: TypeAlias = L[128]  # 8 filters of 4x4 pooled pixels
Classes: TypeAlias = L[10]


class Batch(Dim):
    """The images of one pass."""


@dataclass(frozen=True)
class Parameters:
    filters: Tensor[float32, Filters, L[1], L[3], L[3]]
    filter_bias: Tensor[float32, Filters, L[1], L[1]]
    readout: Tensor[float32, Flat, Classes]
    readout_bias: Tensor[float32, Classes]


def initial_parameters(seed: int) -> Parameters:
    """Random filters (scaled by 1/sqrt(fan-in)), a zero readout."""
    rng = np.random.default_rng(seed)
    filters: Tensor[float32, Filters, L[1], L[3], L[3]] = tt.random.normal((8, 1, 3, 3), float32, rng)
    filter_bias: Tensor[float32, Filters, L[1], L[1]] = tt.random.normal((8, 1, 1), float32, rng)
    return Parameters(filters / 3.0, filter_bias * 0.1, tt.zeros((128, 10), float32), tt.zeros((10,), float32))


@tt.shapechecked
def features(images: Tensor[float32, Batch, L[1], L[8], L[8]], p: Parameters) -> Tensor[float32, Batch, Flat]:
    """Convolution, relu, 2x2 max pooling, flattened."""
    maps = tt.relu(tt.conv2d(images, p.filters, padding=1) + p.filter_bias)  # [Batch, 8, 8, 8]
    pooled = tt.max_pool2d(maps, 2)  # [Batch, 8, 4, 4]
    return pooled.reshape((pooled.shape[0], pooled.shape[1] * pooled.shape[2] * pooled.shape[3]))


@tt.shapechecked
def logits(flat: Tensor[float32, Batch, Flat], p: Parameters) -> Tensor[float32, Batch, Classes]:
    return flat @ p.readout + p.readout_bias


@tt.shapechecked
def loss_and_readout_gradients(
    flat: Tensor[float32, Batch, Flat], y_: Tensor[float32, Batch, Classes], p: Parameters
) -> tuple[Tensor[float32], Tensor[float32, Flat, Classes], Tensor[float32, Classes]]:
    """The cross entropy, and its gradient by the readout's weights and bias."""
    y = tt.softmax(logits(flat, p), axis=-1)
    loss = tt.reduce_mean(-tt.reduce_sum(y_ * tt.log(y), axis=1))
    d_logits = (y - y_) / flat.shape[0]
    return loss, flat.T @ d_logits, d_logits.sum(axis=0)


def load(images: np.ndarray[Any, Any], labels: np.ndarray[Any, Any]) -> tuple[Tensor[float32, Batch, L[1], L[8], L[8]], Tensor[tt.int64, Batch]]:
    x = tt.check(tt.tensor(images.reshape(-1, 1, 8, 8) / 16.0, dtype=float32), Tensor[float32, Batch, L[1], L[8], L[8]])
    return x, tt.check(tt.tensor(labels, dtype=tt.int64), Tensor[tt.int64, Batch])


def main() -> None:
    images, labels = load_digits(return_X_y=True)  # 1,797 images of 8x8 pixels, bundled
    order = np.random.default_rng(0).permutation(len(labels))
    x_train, labels_train = load(images[order[:1400]], labels[order[:1400]])
    x_test, labels_test = load(images[order[1400:]], labels[order[1400:]])
    y_train = tt.take(tt.eye(10, dtype=float32), labels_train, axis=0)

    p = initial_parameters(seed=0)
    flat_train, flat_test = features(x_train, p), features(x_test, p)  # the filters stay as drawn
    print(f"features {flat_train.shape} {flat_train.dtype.__name__}, finite {bool(np.isfinite(flat_train.numpy()).all())}")
    for epoch in range(201):
        loss, d_readout, d_bias = loss_and_readout_gradients(flat_train, y_train, p)
        p = Parameters(p.filters, p.filter_bias, p.readout - 0.5 * d_readout, p.readout_bias - 0.5 * d_bias)
        if epoch % 50 == 0:
            print(f"epoch {epoch:3d}  loss {float(loss.numpy()):.4f}")
    test_logits = logits(flat_test, p)
    print(f"logits {test_logits.shape} {test_logits.dtype.__name__}, finite {bool(np.isfinite(test_logits.numpy()).all())}")
    correct = tt.reduce_mean(tt.argmax(test_logits, axis=1) == labels_test)
    print(f"test accuracy {float(correct.numpy()):.1%} on {x_test.shape[0]} images")


if __name__ == "__main__":
    main()
