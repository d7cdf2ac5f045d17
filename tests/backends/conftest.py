"""The backend tests' fixtures: ``library``, every array library in turn (skipped, saying so,
where it is not installed), and jax in its default 32-bit mode."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.support.backends import Library, library_params


@pytest.fixture(params=library_params())
def library(request: pytest.FixtureRequest) -> Iterator[Library]:
    """Each library in turn; jax in its 64-bit mode, so that every dtype of the rules exists on it."""
    found: Library = request.param
    module = found.load()
    if found.name != "jax":
        yield found
        return
    enabled = module.config.jax_enable_x64
    module.config.update("jax_enable_x64", True)
    try:
        yield found
    finally:
        module.config.update("jax_enable_x64", enabled)


@pytest.fixture
def jax_without_x64() -> Iterator[Any]:
    """jax in its default 32-bit mode for one test, whatever the others set."""
    jax = pytest.importorskip("jax", reason="jax is not installed: the jax backend's tests skip")
    enabled = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", False)
    try:
        yield jax
    finally:
        jax.config.update("jax_enable_x64", enabled)
