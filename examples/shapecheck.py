"""Runtime shape checks: the annotations of a ``@shapechecked`` function are checked at every call.

    python examples/shapecheck.py
"""

from typing import Literal as L, TypeVar

import numpy as np

import typedtensor as tt
from typedtensor import Dim, Tensor

Classes = TypeVar("Classes")


class Batch(Dim): ...


@tt.shapechecked
def logits(
    images: Tensor[tt.float32, Batch, L[784]], weights: Tensor[tt.float32, L[784], Classes]
) -> Tensor[tt.float32, Batch, Classes]:
    return tt.Tensor(images.numpy() @ weights.numpy())


@tt.shapechecked
def accuracy(scores: Tensor[tt.float32, Batch, Classes], labels: Tensor[tt.integer, Batch]) -> float:
    return float(np.mean(scores.numpy().argmax(axis=1) == labels.numpy()))


scores = logits(tt.ones((32, 784), tt.float32), tt.ones((784, 10), tt.float32))
print(f"logits {scores.shape}, accuracy {accuracy(scores, tt.zeros((32,), tt.int64))}")

try:
    accuracy(scores, tt.zeros((16,), tt.int64))  # the labels of half a batch
except tt.ShapeError as error:
    print(f"ShapeError: {error}")
