"""The examples run as the README says, and print what it promises."""

from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pytest

from tests.support import PROJECT

EXAMPLES = PROJECT / "examples"


def _run(name: str) -> str:
    return subprocess.run([sys.executable, str(EXAMPLES / name)], capture_output=True, text=True, check=True).stdout


def test_the_reductions_demo_prints_the_inferred_shapes() -> None:
    output = _run("reductions.py")
    assert 'tt.reduce_sum(x, axis="v^v^")          -> float32 (32, 5), first element 32768.0' in output
    assert "-> int64 (2,), first element 4" in output
    assert 'AxisError: Axes 4, -5 are out of range for "reduce_sum" on Tensor[float32, 32, 256, 5, 128]' in output


def test_the_shapecheck_demo_shows_a_shape_error() -> None:
    assert 'ShapeError: parameter "labels" of accuracy() does not match its annotation' in _run("shapecheck.py")


def _test_accuracy(output: str) -> float:
    match = re.search(r"^test accuracy (\d+\.\d)% on \d+ images$", output, re.MULTILINE)
    assert match is not None, output
    return float(match[1])


def test_softmax_regression_learns_the_digits() -> None:
    """The thesis's model on the 8x8 digits, typed end to end: the loss falls and it generalises."""
    output = _run("softmax_regression.py")
    losses = [float(loss) for loss in re.findall(r"loss (\d+\.\d+)", output)]
    assert len(losses) == 7 and losses == sorted(losses, reverse=True), output
    assert _test_accuracy(output) > 90


def test_the_mlp_learns_the_digits() -> None:
    output = _run("mlp.py")
    assert _test_accuracy(output) > 90


def test_the_transformer_block_runs_on_a_small_batch() -> None:
    """Its numbers are checked against a numpy twin in test_transformer_example.py."""
    match = re.fullmatch(r"output \(2, 8, 64\) float32, checksum (-?\d+\.\d{6})\n", _run("transformer.py"))
    assert match is not None and np.isfinite(float(match[1]))


def test_the_torch_mlp_learns_the_digits_by_autograd() -> None:
    """The same typed model on torch, its gradients by autograd: its loss falls as the
    hand-written gradients' does, to the same accuracy."""
    pytest.importorskip("torch", reason="torch is not installed: the torch example's test skips")
    output = _run("mlp_torch.py")
    losses = [float(loss) for loss in re.findall(r"loss (\d+\.\d+)", output)]
    assert len(losses) == 5 and losses == sorted(losses, reverse=True), output
    assert _test_accuracy(output) > 95


def test_the_cnn_runs_on_the_digits_and_its_readout_learns() -> None:
    """conv2d, relu, max_pool2d, a flatten and a matmul on the 8x8 digits: finite logits of the
    batch's shape, a falling loss, and a readout that generalises."""
    output = _run("cnn.py")
    assert "features (1400, 128) float32, finite True" in output
    assert "logits (397, 10) float32, finite True" in output
    losses = [float(loss) for loss in re.findall(r"loss (\d+\.\d+)", output)]
    assert len(losses) == 5 and losses == sorted(losses, reverse=True), output
    assert _test_accuracy(output) > 85
