"""Types mypy only knows on its deferred pass: the plugin runs again then and must agree."""

from typing import Literal as L, assert_type

import numpy as np

import typedtensor as tt
from typedtensor import Dim, Tensor, float32


def uses_later_names() -> None:
    # ``later`` is inferred further down, so mypy defers this function to a second pass.
    assert_type(later.sum(axis=-1), Tensor[float32, L[2]])
    assert_type(tt.reduce_mean(later, axis=0, keepdims=True), Tensor[float32, L[1], "Channels"])
    assert_type(later.max(axis="^v"), Tensor[float32, "Channels"])


def misuses_later_names() -> None:
    """Not run: the error is the point."""
    later.sum(axis=2)  # type: ignore[tensor-axis]


def make() -> Tensor[float32, L[2], "Channels"]:
    return Tensor(np.zeros((2, 3), np.float32))


later = make()


class Channels(Dim): ...


uses_later_names()
