"""Fixtures of the reducer's tests: which kernels reductions run on."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.kernels import use_kernels
from typedtensor._reducer import planner as _reduce


@pytest.fixture(params=["compiled", "numpy"])
def kernels(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """Runs the test once on the compiled loops and once on the numpy kernels."""
    use_kernels(request.param, monkeypatch)
    yield request.param
    _reduce._plan.cache_clear()


@pytest.fixture
def numpy_kernels(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Runs the test on the numpy kernels only (it tests their strategies)."""
    use_kernels("numpy", monkeypatch)
    yield
    _reduce._plan.cache_clear()


@pytest.fixture
def compiled_kernels(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Runs the test on the compiled loops only (it tests them)."""
    use_kernels("compiled", monkeypatch)
    yield
    _reduce._plan.cache_clear()
