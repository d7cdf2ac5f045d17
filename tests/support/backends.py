"""The array libraries the backend tests run on, each a pytest parameter that skips, saying so,
when its library is not installed. numpy is always there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest


@dataclass(frozen=True)
class Library:
    """An array library under test: its name as typedtensor reports it, and how to move a numpy array onto it."""

    name: str
    module: str  # what must be importable
    lacks: frozenset[str] = frozenset()  # dtypes the library has not: an op whose rule gives one is an error

    def load(self) -> Any:
        """The library's module, or the test skips (saying which library is missing)."""
        return pytest.importorskip(self.module, reason=f"{self.module} is not installed: the {self.name} backend's tests skip")

    def array(self, values: np.ndarray[Any, Any]) -> Any:
        """``values`` as an array of this library (a copy; numpy's: itself)."""
        module = self.load()
        if self.name == "numpy":
            return values
        if self.name == "torch":
            return module.from_numpy(values.copy())
        if self.name == "jax":
            return module.numpy.asarray(values)
        if self.name == "dask":  # chunks of 2 along every dim: reductions combine partials of several chunks
            return module.from_array(values, chunks=2)
        return module.asarray(values)


LIBRARIES = [Library("numpy", "numpy"), Library("array_api_strict", "array_api_strict", frozenset({"float16"})), Library("torch", "torch"), Library("jax", "jax"), Library("dask", "dask.array")]


def library_params() -> list[Any]:
    return [pytest.param(library, id=library.name) for library in LIBRARIES]
