"""``TYPEDTENSOR_CHECKS=0``: ``@shapechecked`` is the identity and ``check()`` passes its value
through. The switch is read once at import, so each case runs in a fresh interpreter."""

import os
import subprocess
import sys

import pytest

PROGRAM = """
from typing import Literal as L
import typedtensor as tt

def first(x: tt.Tensor[tt.float32, L[2]]) -> tt.Tensor[tt.float32, L[2]]:
    return x

checked = tt.shapechecked(first)
wrong = tt.zeros((3,), tt.float32)
try:
    checked(wrong)
    call = "passed"
except tt.ShapeError:
    call = "raised"
try:
    tt.check(wrong, tt.Tensor[tt.float32, L[2]])
    check = "passed"
except tt.ShapeError:
    check = "raised"
hook = tt.install_import_hook("json")
import sys
print(checked is first, call, check, any(type(finder).__module__ == "typedtensor._check.import_hook" for finder in sys.meta_path))
"""


def run_with(value: str | None) -> str:
    env = {name: text for name, text in os.environ.items() if name != "TYPEDTENSOR_CHECKS"}
    if value is not None:
        env["TYPEDTENSOR_CHECKS"] = value
    result = subprocess.run([sys.executable, "-c", PROGRAM], env=env, capture_output=True, text=True, check=True)
    return result.stdout.strip()


def test_zero_makes_the_decorator_the_identity_and_checks_nothing() -> None:
    assert run_with("0") == "True passed passed False"  # and the import hook installs nothing


@pytest.mark.parametrize("value", [None, "1", "", "false"])
def test_any_other_value_keeps_checks_on(value: str | None) -> None:
    assert run_with(value) == "False raised raised True"
