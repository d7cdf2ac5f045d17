"""Direct-loop references for the layers: one output element at a time, in float64, no numpy window tricks."""

from __future__ import annotations

import math

import numpy as np

from tests.support.arrays import Array


def _count(size: int, window: int, stride: int, padding: int) -> int:
    return (size + 2 * padding - window) // stride + 1


def conv2d_loops(x: Array, w: Array, stride: tuple[int, int], padding: tuple[int, int]) -> Array:
    """``out[n, o, i, j] = sum over c, a, b of x[n, c, i*S + a - P, j*S + b - P] * w[o, c, a, b]``, zero outside ``x``."""
    batch, channels, height, width = x.shape
    kernels, _, kh, kw = w.shape
    rows, columns = _count(height, kh, stride[0], padding[0]), _count(width, kw, stride[1], padding[1])
    out = np.zeros((batch, kernels, rows, columns))
    for n in range(batch):
        for o in range(kernels):
            for i in range(rows):
                for j in range(columns):
                    total = 0.0
                    for c in range(channels):
                        for a in range(kh):
                            for b in range(kw):
                                row, column = i * stride[0] + a - padding[0], j * stride[1] + b - padding[1]
                                if 0 <= row < height and 0 <= column < width:
                                    total += float(x[n, c, row, column]) * float(w[o, c, a, b])
                    out[n, o, i, j] = total
    return out


def pool2d_loops(kind: str, x: Array, size: tuple[int, int], stride: tuple[int, int]) -> Array:
    """The maximum (``kind`` "max") or the mean ("avg") of each window, one window at a time."""
    batch, channels, height, width = x.shape
    rows, columns = _count(height, size[0], stride[0], 0), _count(width, size[1], stride[1], 0)
    out = np.zeros((batch, channels, rows, columns))
    for n in range(batch):
        for c in range(channels):
            for i in range(rows):
                for j in range(columns):
                    values = [float(x[n, c, i * stride[0] + a, j * stride[1] + b]) for a in range(size[0]) for b in range(size[1])]
                    out[n, c, i, j] = max(values) if kind == "max" else math.fsum(values) / len(values)
    return out
