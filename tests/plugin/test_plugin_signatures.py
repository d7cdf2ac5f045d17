"""The signature hooks: one hook per call, what the items share made once, a failure kept to a note."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests.support.mypy_helpers import Mypy, assert_no_crash
from typing_plugins import _signatures

_RANK_4_SUM = """\
from typing import Literal as L
import typedtensor as tt
from typedtensor import Tensor, float32
x: Tensor[float32, L[2], L[3], L[4], L[5]] = tt.zeros((2, 3, 4, 5), tt.float32)
reveal_type(x.sum(axis=(1, 3)))
"""


def test_the_fallback_is_looked_up_once_per_call(mypy_runner: Mypy, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """mypy runs a signature hook on each item of the overload (those of rank 4 and the rank-free
    ones for ``x.sum``); the fallback's ``axis`` they all take is looked up for the first only."""
    calls = {"items": 0, "lookups": 0}

    def counted(name: str, function: Any) -> Any:
        def wrapper(*args: Any) -> Any:
            calls[name] += 1
            return function(*args)

        return wrapper

    monkeypatch.setattr(_signatures._LooseCall, "loosened", counted("items", _signatures._LooseCall.loosened))
    monkeypatch.setattr(_signatures, "_fallback_axis", counted("lookups", _signatures._fallback_axis))
    path = tmp_path / "rank_4_sum.py"
    path.write_text(_RANK_4_SUM)
    run = mypy_runner.run([path])
    assert_no_crash(run)
    assert [message.text for message in run.about(path)] == [
        'Revealed type is "typedtensor._tensor.Tensor[typedtensor._dtypes.float32, Literal[2], Literal[4]]"'
    ]
    assert calls["items"] > 1 and calls["lookups"] == 1, calls


def test_a_failing_hook_keeps_the_declared_signature_and_says_so() -> None:
    notes: list[str] = []
    failing_api = SimpleNamespace(msg=SimpleNamespace(note=lambda text, context: notes.append(text)))  # no named_generic_type
    declared = object()
    hook = _signatures.signature_hook(_signatures.Loosening.TENSORS)
    assert hook is not None
    assert hook(SimpleNamespace(default_signature=declared, api=failing_api, context=None)) is declared  # type: ignore[arg-type]
    assert len(notes) == 1 and notes[0].startswith("typedtensor's mypy plugin failed here and kept the declared type (AttributeError(")
