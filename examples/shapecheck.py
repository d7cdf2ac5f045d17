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


def load_batch(size: int) -> tuple[Tensor[tt.float32, Batch, L[784]], Tensor[tt.int64, Batch]]:
    """A stand-in for a data loader: the batch size is known only at run time; the types call it Batch."""
    return tt.tensor(np.ones((size, 784)), tt.float32), tt.tensor(np.zeros(size), tt.int64)


images, labels = load_batch(32)
scores = logits(images, tt.ones((784, 10), tt.float32))
print(f"logits {scores.shape}, accuracy {accuracy(scores, labels)}")

_, half_batch_labels = load_batch(16)  # statically a Batch too: only the run time sees 16 != 32
try:
    accuracy(scores, half_batch_labels)
except tt.ShapeError as error:
    print(f"ShapeError: {error}")
