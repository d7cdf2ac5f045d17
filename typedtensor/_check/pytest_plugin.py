"""The pytest option ``--typedtensor-packages=pkg1,pkg2``: the import hook for those packages,
installed before the tests are collected (registered through the ``pytest11`` entry point)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from typedtensor._check.import_hook import install_import_hook

if TYPE_CHECKING:  # pytest is a test dependency, not one of typedtensor's
    import pytest

_OPTION = "--typedtensor-packages"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.getgroup("typedtensor").addoption(
        _OPTION,
        metavar="PACKAGES",
        help="comma-separated packages whose tensor-annotated functions get @typedtensor.shapechecked when imported",
    )


def pytest_configure(config: pytest.Config) -> None:
    packages = config.getoption(_OPTION)
    if packages:
        hook = install_import_hook([name.strip() for name in packages.split(",") if name.strip()])
        config.add_cleanup(hook.uninstall)
