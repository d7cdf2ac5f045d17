"""``torch.compile`` of typed code (SPEC 10): typedtensor's ops trace into one graph, no break,
their shape rules and casts running while dynamo traces (once per shape), not in the graph. A
``@shapechecked`` function's checks run there too, from its tensors' classes, shapes and dtypes:
a checked layer is one graph, and a wrong call still raises the eager call's ``ShapeError``.

``fullgraph=True`` makes any graph break an error; ``torch._dynamo.explain`` counts graphs.
"""

from __future__ import annotations

from typing import Any, Literal, TypeVar

import numpy as np
import pytest

import typedtensor as tt
from typedtensor import Tensor, shapechecked
from typedtensor._ops import backends

torch = pytest.importorskip("torch", reason="torch is not installed: the torch.compile tests skip")

# dynamo warns that it traces through the rules' lru_caches: they are pure functions of shapes
# and dtypes, so tracing them gives what the cache holds.
pytestmark = pytest.mark.filterwarnings("ignore:Dynamo detected a call to a `functools.lru_cache`-wrapped function:UserWarning")

Samples = TypeVar("Samples")
Features = TypeVar("Features")
Classes = TypeVar("Classes")


def typed_scores(x: Any, w: Any, b: Any) -> Any:
    """A layer and a loss-like reduction, typed inside, torch tensors at the edges. dynamo traces
    no ``@`` on objects of Python classes, so the product is ``tt.matmul``."""
    logits = tt.matmul(Tensor(x), Tensor(w)) + Tensor(b)
    return tt.reduce_sum(tt.log_softmax(tt.relu(logits) * 2.0, axis=-1), axis=1).array


@shapechecked
def checked_layer(x: Tensor[tt.float32, Samples, Features], w: Tensor[tt.float32, Features, Classes]) -> Tensor[tt.float32, Samples, Classes]:
    return tt.exp(tt.matmul(x, w))


@shapechecked
def checked_sum(xs: list[Tensor[tt.float32, Samples, Features]], bias: Tensor[tt.float32, Features] | None = None) -> Tensor[tt.float32, Samples, Features]:
    """A list and an optional tensor: their items' checks are traced too."""
    total = xs[0]
    for x in xs[1:]:
        total = total + x
    return total if bias is None else total + bias


@shapechecked
def wrongly_annotated(x: Tensor[tt.float32, Samples, Features]) -> Tensor[tt.float32, Features, Samples]:
    return x * 2.0


def arrays(seed: int) -> tuple[Any, Any, Any]:
    rng = np.random.default_rng(seed)
    return tuple(torch.from_numpy(rng.standard_normal(shape).astype(np.float32)) for shape in [(5, 4), (4, 3), (3,)])  # type: ignore[return-value]


def graphs_and_breaks(fn: Any, *args: Any) -> tuple[int, int]:
    torch._dynamo.reset()
    explained = torch._dynamo.explain(fn)(*args)
    assert not explained.break_reasons, [reason.reason for reason in explained.break_reasons]
    return explained.graph_count, explained.graph_break_count


def eager_error(fn: Any, *args: Any) -> str:
    with pytest.raises(tt.ShapeError) as raised:
        fn(*args)
    return str(raised.value)


def test_typed_ops_compile_to_one_graph_without_breaks() -> None:
    x, w, b = arrays(0)
    eager = typed_scores(x, w, b)
    assert graphs_and_breaks(typed_scores, x, w, b) == (1, 0)
    plain = torch.log_softmax(torch.relu(x @ w + b) * 2.0, dim=-1).sum(dim=1)
    compiled = torch.compile(typed_scores, backend="eager", fullgraph=True)  # fullgraph: a break would be an error
    torch.testing.assert_close(compiled(x, w, b), plain)
    torch.testing.assert_close(eager, plain)


def test_the_first_torch_tensor_may_come_inside_a_compiled_function(monkeypatch: pytest.MonkeyPatch) -> None:
    # As in a fresh process: torch's backend not found yet, so the compiled call imports array-api-compat's namespace.
    monkeypatch.setattr(backends, "_BACKENDS", {np.ndarray: backends.NUMPY})
    torch._dynamo.reset()
    x, w, b = arrays(2)
    compiled = torch.compile(typed_scores, backend="eager", fullgraph=True)
    torch.testing.assert_close(compiled(x, w, b), torch.log_softmax(torch.relu(x @ w + b) * 2.0, dim=-1).sum(dim=1))


def test_a_compiled_shapechecked_function_is_one_graph() -> None:
    x, w, b = arrays(1)
    assert graphs_and_breaks(checked_layer, Tensor(x), Tensor(w)) == (1, 0)
    assert graphs_and_breaks(checked_sum, [Tensor(x), Tensor(-x)], Tensor(x[0])) == (1, 0)
    torch._dynamo.reset()
    compiled_layer = torch.compile(checked_layer, backend="eager", fullgraph=True)
    torch.testing.assert_close(compiled_layer(Tensor(x), Tensor(w)).array, torch.exp(x @ w))
    compiled_sum = torch.compile(checked_sum, backend="eager", fullgraph=True)
    torch.testing.assert_close(compiled_sum([Tensor(x), Tensor(x), Tensor(x)]).array, 3 * x)
    torch.testing.assert_close(compiled_sum([Tensor(x)], Tensor(b.repeat(2)[:4])).array, x + b.repeat(2)[:4])


def test_a_compiled_shapechecked_function_raises_the_eager_error() -> None:
    x, w, _ = arrays(3)
    torch._dynamo.reset()
    compiled = torch.compile(checked_layer, backend="eager")
    expected = eager_error(checked_layer, Tensor(x), Tensor(w.T))
    assert 'parameter "w" of checked_layer() does not match its annotation' in expected
    assert eager_error(compiled, Tensor(x), Tensor(w.T)) == expected
    assert eager_error(compiled, Tensor(x), Tensor(w.double())) == eager_error(checked_layer, Tensor(x), Tensor(w.double()))
    checked_list = torch.compile(checked_sum, backend="eager")
    assert eager_error(checked_list, [Tensor(x), Tensor(x.T)]) == eager_error(checked_sum, [Tensor(x), Tensor(x.T)])
    returning = torch.compile(wrongly_annotated, backend="eager")
    assert "return value of wrongly_annotated()" in eager_error(returning, Tensor(x))
    assert eager_error(returning, Tensor(x)) == eager_error(wrongly_annotated, Tensor(x))
    square = Tensor(x[:4])  # the annotation holds for a square matrix
    torch.testing.assert_close(returning(square).array, 2 * x[:4])


@pytest.mark.parametrize("sizes", [(5, 6, 7), (7, 6, 5)])
def test_each_new_shape_is_checked_again(sizes: tuple[int, ...]) -> None:
    """dynamo would trace a size that changes between calls as symbolic; the checks read every
    size, so each shape gets a trace of its own, and its checks."""
    torch._dynamo.reset()
    compiled = torch.compile(checked_layer, backend="eager")
    w = torch.ones(4, 3)
    for size in sizes:
        x = torch.ones(size, 4)
        torch.testing.assert_close(compiled(Tensor(x), Tensor(w)).array, torch.exp(x @ w))
        assert 'parameter "w" of checked_layer()' in eager_error(compiled, Tensor(x), Tensor(torch.ones(size, 3)))


def test_the_matmul_operator_is_not_traced() -> None:
    """The limit docs/backends.md states: dynamo has no rule for ``@`` between objects of a
    Python class; if a torch release adds one, this fails and the docs can drop it."""
    x, w, _ = arrays(4)
    torch._dynamo.reset()
    compiled = torch.compile(lambda a, b: (Tensor(a) @ Tensor(b)).array, backend="eager", fullgraph=True)
    with pytest.raises(torch._dynamo.exc.Unsupported, match="matmul"):
        compiled(x, w)


def test_literal_sizes_are_checked_under_compile() -> None:
    @shapechecked
    def first_row(x: Tensor[tt.float32, Literal[5], Features]) -> Tensor[tt.float32, Features]:
        return x[0]

    x, _, _ = arrays(5)
    torch._dynamo.reset()
    compiled = torch.compile(first_row, backend="eager")
    torch.testing.assert_close(compiled(Tensor(x)).array, x[0])
    assert eager_error(compiled, Tensor(x[:3])) == eager_error(first_row, Tensor(x[:3]))
