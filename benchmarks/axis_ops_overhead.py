"""What the axis ops, indexing and creation add over numpy on a [4, 4] float32 tensor (SPEC §8: <= 2 µs).

Each op is timed against the numpy code a user would write for the same result, in this one run.
softmax and friends are the same max-shifted computation, written twice: with ndarray methods
(``a.max(...)``, numpy's quickest spelling) and with numpy's functions (``np.max(...)``, the array
API's spelling, which typedtensor's ops use through its reducer). Figures are the best of
several repeats in CPU time, so other processes on the machine count less.

    python benchmarks/axis_ops_overhead.py
"""

from __future__ import annotations

import functools
import time
import timeit
from collections.abc import Callable
from typing import Any

import numpy as np

import typedtensor as tt

BAR_US = 2.0
NUMBER = 20_000
REPEAT = 7


def best_us(fn: Callable[[], Any]) -> float:
    """The best per-call CPU time of ``fn()`` in microseconds (CPU time: other processes on the
    machine do not count, though they still slow the caches)."""
    return min(timeit.repeat(fn, timer=time.process_time, number=NUMBER, repeat=REPEAT)) / NUMBER * 1e6


Reduce = Callable[..., Any]


def method(name: str) -> Reduce:
    """A reduction as the ndarray method ``a.max(...)``: numpy's quickest spelling."""
    return lambda a, **kwargs: getattr(a, name)(**kwargs)


def numpy_softmax(a: np.ndarray[Any, Any], amax: Reduce, total: Reduce) -> Any:
    exps = np.exp(a - amax(a, axis=-1, keepdims=True))
    return exps / total(exps, axis=-1, keepdims=True)


def numpy_log_softmax(a: np.ndarray[Any, Any], amax: Reduce, total: Reduce) -> Any:
    shifted = a - amax(a, axis=-1, keepdims=True)
    return shifted - np.log(total(np.exp(shifted), axis=-1, keepdims=True))


def numpy_logsumexp(a: np.ndarray[Any, Any], amax: Reduce, total: Reduce) -> Any:
    """The stable logsumexp as a numpy user writes it (infinite maxima shifted by 0, like ours)."""
    with np.errstate(divide="ignore", over="ignore"):
        peak = amax(a, axis=-1, keepdims=True)
        peak = np.where(np.isinf(peak), 0.0, peak)
        summed = total(np.exp(a - peak), axis=-1)
        return np.log(summed) + peak.reshape(summed.shape)


def logsumexp_last(x: tt.Tensor[Any, *tuple[Any, ...]]) -> Any:
    return tt.logsumexp(x, axis=-1)


def main() -> None:
    a = np.random.default_rng(0).standard_normal((4, 4)).astype(np.float32)
    x = tt.Tensor(a)
    index, index_tensor = np.array([2, 0, 3]), tt.tensor([2, 0, 3])
    along = np.argmax(a, axis=1, keepdims=True)
    along_tensor = tt.argmax(x, axis=1, keepdims=True)
    cases: list[tuple[str, Callable[[], Any], Callable[[], Any]]] = [
        ("argmax", lambda: np.argmax(a, axis=-1), lambda: tt.argmax(x)),
        ("argmin keepdims", lambda: np.argmin(a, axis=0, keepdims=True), lambda: tt.argmin(x, 0, True)),
        *[
            (f"{fn.__name__[6:]} ({style})", functools.partial(fn, a, *reducers), functools.partial(op, x))
            for fn, op in ((numpy_softmax, tt.softmax), (numpy_log_softmax, tt.log_softmax), (numpy_logsumexp, logsumexp_last))
            for style, reducers in (("methods", (method("max"), method("sum"))), ("functions", (np.max, np.sum)))
        ],
        ("take", lambda: np.take(a, index, axis=1), lambda: tt.take(x, index_tensor, axis=1)),
        ("take_along_axis", lambda: np.take_along_axis(a, along, axis=1), lambda: tt.take_along_axis(x, along_tensor, axis=1)),
        ("x[1]", lambda: a[1], lambda: x[1]),
        ("x[:, 1:3]", lambda: a[:, 1:3], lambda: x[:, 1:3]),
        ("x[None, ..., 0]", lambda: a[None, ..., 0], lambda: x[None, ..., 0]),
        ("x[index]", lambda: a[index], lambda: x[index_tensor]),
        ("arange(16)", lambda: np.arange(16), lambda: tt.arange(16)),
        ("eye(4)", lambda: np.eye(4, dtype=np.float32), lambda: tt.eye(4)),
    ]
    print(f"{'op':<24} {'numpy µs':>9} {'typedtensor µs':>15} {'overhead µs':>12}  bar {BAR_US:.0f} µs")
    for name, numpy_call, tensor_call in cases:
        bare, ours = best_us(numpy_call), best_us(tensor_call)
        verdict = "ok" if ours - bare <= BAR_US else "OVER"
        print(f"{name:<24} {bare:>9.2f} {ours:>15.2f} {ours - bare:>12.2f}  {verdict}")


if __name__ == "__main__":
    main()
