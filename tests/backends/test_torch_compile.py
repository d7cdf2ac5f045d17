"""``torch.compile`` of typed code (SPEC 10): typedtensor's ops trace into one graph, no break,
their shape rules and casts running while dynamo traces (once per shape), not in the graph.
``@shapechecked`` still checks a compiled call; its checks break the graph (they compare numpy
dtypes, which dynamo does not trace), so they run eagerly between the pieces.
"""

from __future__ import annotations

from typing import Any, TypeVar

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


def arrays(seed: int) -> tuple[Any, Any, Any]:
    rng = np.random.default_rng(seed)
    return tuple(torch.from_numpy(rng.standard_normal(shape).astype(np.float32)) for shape in [(5, 4), (4, 3), (3,)])  # type: ignore[return-value]


def test_typed_ops_compile_to_one_graph_without_breaks() -> None:
    x, w, b = arrays(0)
    eager = typed_scores(x, w, b)
    torch._dynamo.reset()
    explained = torch._dynamo.explain(typed_scores)(x, w, b)
    assert (explained.graph_count, explained.graph_break_count) == (1, 0), [reason.reason for reason in explained.break_reasons]
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


def test_a_compiled_shapechecked_function_still_checks() -> None:
    x, w, _ = arrays(1)
    compiled = torch.compile(checked_layer, backend="eager")
    torch.testing.assert_close(compiled(Tensor(x), Tensor(w)).array, torch.exp(x @ w))
    with pytest.raises(tt.ShapeError, match=r'parameter "w" of checked_layer\(\) does not match its annotation'):
        compiled(Tensor(x), Tensor(w.T))
