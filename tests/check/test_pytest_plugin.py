"""``--typedtensor-packages``: a test session whose named packages are checked."""

import tomllib

import pytest

from tests.support import PROJECT

pytest_plugins = ["pytester"]

PACKAGE = """
from typing import Literal as L
import typedtensor as tt

def head(x: tt.Tensor[tt.float32, L[2]]) -> tt.Tensor[tt.float32, L[2]]:
    return x
"""

TESTS = """
import pytest
import typedtensor as tt
import {package}

def test_a_wrong_shape_is_caught():
    with pytest.raises(tt.ShapeError):
        {package}.head(tt.zeros((3,), tt.float32))
"""


@pytest.fixture
def session(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    """A project with two packages and a test for each; the plugin is loaded by name, so the run
    does not depend on whether this checkout's entry point is installed."""
    monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    for package in ("models", "others"):
        pytester.mkpydir(package).joinpath("__init__.py").write_text(PACKAGE)
        pytester.makepyfile(**{f"test_{package}": TESTS.format(package=package)})
    return pytester


def run(session: pytest.Pytester, *options: str) -> pytest.RunResult:
    return session.runpytest_subprocess("-p", "typedtensor._check.pytest_plugin", "-p", "no:cacheprovider", *options)


def test_the_named_packages_are_checked_and_no_other(session: pytest.Pytester) -> None:
    result = run(session, "-v", "--typedtensor-packages=models")
    result.stdout.fnmatch_lines(["*test_models.py::test_a_wrong_shape_is_caught PASSED*", "*test_others.py::test_a_wrong_shape_is_caught FAILED*"])
    result = run(session, "--typedtensor-packages=others, models")
    result.assert_outcomes(passed=2)


def test_without_the_option_nothing_is_checked(session: pytest.Pytester) -> None:
    run(session).assert_outcomes(failed=2)


def test_the_option_is_in_pytests_help(session: pytest.Pytester) -> None:
    run(session, "--help").stdout.fnmatch_lines(["*--typedtensor-packages=PACKAGES*"])


def test_pytest_finds_the_plugin_through_its_entry_point() -> None:
    entry_points = tomllib.loads((PROJECT / "pyproject.toml").read_text())["project"]["entry-points"]["pytest11"]
    assert entry_points == {"typedtensor": "typedtensor._check.pytest_plugin"}
