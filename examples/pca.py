"""Principal component analysis of scikit-learn's 8x8 digits, typed end to end.

The covariance of the centred pixels, its eigenvectors by ``tt.linalg.eigh``, the two of the
largest eigenvalues chosen by ``tt.argsort``: every line keeps its shape in its type, mypy with
typedtensor's plugin checks each one, and ``@shapechecked`` checks the call as it runs.

Run it: ``python examples/pca.py`` (needs the ``examples`` extra: scikit-learn).
"""

from __future__ import annotations

from typing import Literal as L, TypeAlias

from sklearn.datasets import load_digits  # type: ignore[import-untyped]  # scikit-learn ships no types

import typedtensor as tt
from typedtensor import Dim, Tensor, float64

Pixels: TypeAlias = L[64]  # 8x8 pixels


class Samples(Dim):
    """The images."""


@tt.shapechecked
def pca(x: Tensor[float64, Samples, Pixels]) -> tuple[Tensor[float64, Samples, L[2]], Tensor[float64, L[2]]]:
    """The images projected on their two principal components, and the variance along each."""
    centred = x - x.mean(axis=0)  # [Samples, 64]
    covariance = centred.T @ centred / (x.shape[0] - 1)  # [64, 64]
    variances, axes = tt.linalg.eigh(covariance)  # [64] ascending, [64, 64] one axis a column
    largest = tt.argsort(variances, descending=True)[:2]  # [2]
    return centred @ tt.take(axes, largest, axis=1), tt.take(variances, largest)  # [Samples, 2], [2]


def main() -> None:
    images, _ = load_digits(return_X_y=True)  # 1,797 images of 8x8 pixels, bundled
    x = tt.check(tt.tensor(images, dtype=float64), Tensor[float64, Samples, Pixels])
    projected, variances = pca(x)
    total = float(tt.reduce_sum(tt.square(x - x.mean(axis=0))).numpy()) / (x.shape[0] - 1)
    print(f"projected {projected.shape} {projected.dtype.__name__}")
    print(f"variance explained by 2 components: {float(variances.sum().numpy()) / total:.1%}")


if __name__ == "__main__":
    main()
