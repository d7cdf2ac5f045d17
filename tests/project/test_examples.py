"""The examples run as the README says, and print what it promises."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys

import numpy as np
import pytest

import typedtensor as tt
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


def test_the_jax_mlp_learns_the_digits_by_grad_in_jitted_steps() -> None:
    """The same typed model on jax, its gradients by jax.grad in jit-compiled steps: its loss
    falls as the hand-written gradients' does, to the numpy version's accuracy."""
    pytest.importorskip("jax", reason="jax is not installed: the jax example's test skips")
    output = _run("mlp_jax.py")
    losses = [float(loss) for loss in re.findall(r"loss (\d+\.\d+)", output)]
    assert len(losses) == 5 and losses == sorted(losses, reverse=True), output
    assert _test_accuracy(output) > 95


def test_the_out_of_core_example_reduces_a_lazily_made_array_chunk_by_chunk() -> None:
    """A small size here (the default is larger than the machine's memory): the progress bar runs
    to the end, the throughputs are printed, and the column means are numpy's on the same values."""
    pytest.importorskip("dask.array", reason="dask is not installed: the out-of-core example's test skips")
    output = subprocess.run(
        [sys.executable, str(EXAMPLES / "out_of_core.py"), "--gigabytes", "0.15", "--seed", "3"], capture_output=True, text=True, check=True
    ).stdout
    assert "100% Completed" in output
    assert re.search(r"^array 36621 x 1024 float32: 0\.15 GB in 3 chunks", output, re.MULTILINE), output
    assert float(re.findall(r"^reducer: (\d+\.\d) GB/s on one 67 MB chunk$", output, re.MULTILINE)[0]) > 0
    assert re.search(r"^whole run: 0\.15 GB in \d+\.\d s \(\d+\.\d\d GB/s, making the values included\), peak memory \d+ MB$", output, re.MULTILINE)
    found = re.search(r"^column means: min (\d\.\d{6})  max (\d\.\d{6})  first (\d\.\d{6})$", output, re.MULTILINE)
    assert found is not None, output
    spec = importlib.util.spec_from_file_location("out_of_core", EXAMPLES / "out_of_core.py")
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    means = example.lazy_values(0.15, 3).compute().mean(axis=0, dtype=np.float64)  # the same values, by numpy
    np.testing.assert_allclose([float(value) for value in found.groups()], [means.min(), means.max(), means[0]], atol=1.5e-6)


def test_pca_finds_the_components_scikit_learn_finds() -> None:
    """The example's projection equals scikit-learn's PCA (an SVD, written independently) up to
    each component's sign, and it prints the variance those components explain."""
    decomposition = pytest.importorskip("sklearn.decomposition", reason="scikit-learn is not installed: the PCA example's test skips")
    from sklearn.datasets import load_digits

    spec = importlib.util.spec_from_file_location("pca_example", EXAMPLES / "pca.py")
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    images, _ = load_digits(return_X_y=True)
    projected, variances = example.pca(tt.tensor(images, dtype=tt.float64))
    reference = decomposition.PCA(2).fit(images)
    expected = reference.transform(images)
    signs = np.sign((projected.numpy() * expected).sum(axis=0))
    np.testing.assert_allclose(projected.numpy() * signs, expected, rtol=1e-7, atol=1e-7)
    np.testing.assert_allclose(variances.numpy(), reference.explained_variance_, rtol=1e-9)
    ratio = reference.explained_variance_ratio_.sum()
    assert f"variance explained by 2 components: {ratio:.1%}" in _run("pca.py")


def test_the_cnn_runs_on_the_digits_and_its_readout_learns() -> None:
    """conv2d, relu, max_pool2d, a flatten and a matmul on the 8x8 digits: finite logits of the
    batch's shape, a falling loss, and a readout that generalises."""
    output = _run("cnn.py")
    assert "features (1400, 128) float32, finite True" in output
    assert "logits (397, 10) float32, finite True" in output
    losses = [float(loss) for loss in re.findall(r"loss (\d+\.\d+)", output)]
    assert len(losses) == 5 and losses == sorted(losses, reverse=True), output
    assert _test_accuracy(output) > 85
