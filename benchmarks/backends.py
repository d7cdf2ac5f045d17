"""What a typed op costs over the library's own call, on every installed array library (SPEC 10).

On a [4, 4] float32 tensor, where the per-call work is all there is: ``x + y``, ``x * 2.0``,
``exp``, ``@``, ``sum(axis=1)``, ``x[0]`` and ``softmax``, through typedtensor and as the
library's own quickest call (numpy, torch, jax eagerly, array-api-strict). typedtensor calls
torch through array-api-compat's namespace, and casts operands where the library's promotion is
not numpy's; the bar (SPEC 8) is at most 2 us more than the library.

Then the thesis's benchmark subgraph at N = 65,536 (``model_overhead.py``'s: matmul, add,
softmax, log, multiply, reduce_sum over no axis, reshape) written once with typedtensor and run on
numpy, torch, jax eagerly and under ``jax.jit``, against the same code on the raw library; the
bars (SPEC 8) are 1.05x, and 1.01x jitted (the checks are gone after tracing).

Last, dask's reductions of a float32 array in 64 chunks: typedtensor's (the reducer per chunk,
float64 partials) against dask's own ``sum``/``mean`` on the same chunks, with each one's
largest error relative to a float64 reference (bars: at least dask's speed, error <= 1e-6).

Both run interleaved in this one process, alternating repeats, and each figure is the median of
the repeats' per-call times, so a slower moment of a shared machine hits both alike.

    python benchmarks/backends.py [--rounds 15] [--ops-only | --subgraph-only | --dask-only]
"""

from __future__ import annotations

import argparse
import importlib
import os
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from model_overhead import subgraph_typed

import typedtensor as tt

Call = Callable[[], object]
OVERHEAD_BAR_US = 2.0
SUBGRAPH_BARS = {"jax (jit)": 1.01}  # the others': 1.05
SUBGRAPH_N = 65_536


def library(name: str) -> tuple[Any, Any] | None:
    """The library's module and its way to make an array of numpy's values, or None if it is not installed."""
    try:
        module = importlib.import_module(name)
    except ImportError:
        return None
    makers: dict[str, Callable[[np.ndarray[Any, Any]], Any]] = {
        "numpy": lambda values: values,
        "torch": lambda values: module.from_numpy(values),
        "jax": lambda values: module.numpy.asarray(values),
        "array_api_strict": lambda values: module.asarray(values),
    }
    return module, makers[name]


def cases(name: str, module: Any, a: Any, b: Any) -> dict[str, tuple[Call, Call]]:
    """Each op: typedtensor's call and the library's own."""
    x: tt.Tensor[Any, *tuple[Any, ...]] = tt.Tensor(a)
    y: tt.Tensor[Any, *tuple[Any, ...]] = tt.Tensor(b)
    xp = {"torch": module, "jax": getattr(module, "numpy", None)}.get(name, module)
    softmax: Call = {
        "torch": lambda: module.softmax(a, dim=1),
        "jax": lambda: module.nn.softmax(a, axis=1),
    }.get(name, lambda: (lambda e: e / xp.sum(e, axis=1, keepdims=True))(xp.exp(a - xp.max(a, axis=1, keepdims=True))))
    return {
        "x + y": (lambda: x + y, lambda: a + b),
        "x * 2.0": (lambda: x * 2.0, lambda: a * 2.0),
        "exp(x)": (lambda: tt.exp(x), lambda: xp.exp(a)),
        "x @ y": (lambda: x @ y, lambda: a @ b),
        "x.sum(axis=1)": (lambda: x.sum(axis=1), lambda: xp.sum(a, axis=1)),
        "x[0]": (lambda: x[0], lambda: a[0, ...]),
        "softmax(x)": (lambda: tt.softmax(x, axis=1), softmax),
    }


def per_call_us(call: Call, number: int) -> float:
    start = time.process_time()
    for _ in range(number):
        call()
    return (time.process_time() - start) / number * 1e6


def measure(typed: Call, raw: Call, rounds: int, number: int) -> tuple[float, float]:
    typed(), raw()  # warm: caches, and jax's compilation of each op
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(rounds):
        times[0].append(per_call_us(typed, number))
        times[1].append(per_call_us(raw, number))
    return statistics.median(times[0]), statistics.median(times[1])


def raw_subgraphs() -> dict[str, Callable[..., Any]]:
    """The subgraph on each raw library, as its user writes it (its own softmax where it has one)."""
    raw: dict[str, Callable[..., Any]] = {}
    if library("numpy") is not None:
        from model_overhead import subgraph_numpy

        raw["numpy"] = subgraph_numpy
    if library("torch") is not None:
        import torch

        def subgraph_torch(in1: Any, in2: Any, in3: Any, in4: Any) -> Any:
            weighted = in1 * torch.log(torch.softmax(torch.matmul(in2, in3) + in4, dim=-1))
            return weighted.clone().reshape(in1.shape[0], 10)  # a sum over no axis copies, as numpy's

        raw["torch"] = subgraph_torch
    if library("jax") is not None:
        import jax

        def subgraph_jax(in1: Any, in2: Any, in3: Any, in4: Any) -> Any:
            weighted = in1 * jax.numpy.log(jax.nn.softmax(jax.numpy.matmul(in2, in3) + in4, axis=-1))
            return jax.numpy.reshape(jax.numpy.sum(weighted, axis=()), (in1.shape[0], 10))

        raw["jax"] = subgraph_jax
        raw["jax (jit)"] = jax.jit(subgraph_jax)
    return raw


def subgraph_calls(name: str, raw: Callable[..., Any], values: list[np.ndarray[Any, Any]]) -> tuple[Call, Call]:
    """The typed subgraph and the raw one on ``name``'s arrays of ``values``, each waiting for its result."""
    library_name = name.split(" ")[0]
    found = library(library_name)
    assert found is not None
    arrays = [found[1](value) for value in values]
    tensors: list[tt.Tensor[Any, *tuple[Any, ...]]] = [tt.Tensor(array) for array in arrays]
    typed = subgraph_typed
    if name == "jax (jit)":
        typed = found[0].jit(subgraph_typed)  # Tensor is a pytree: the checks run while tracing, once
    done: Callable[[Any], object] = (lambda result: result.block_until_ready()) if library_name == "jax" else (lambda result: result)
    np.testing.assert_allclose(tt.Tensor(raw(*arrays)).numpy(), typed(*tensors).numpy(), rtol=2e-4, atol=2e-5)
    return (lambda: done(typed(*tensors).array)), (lambda: done(raw(*arrays)))


def subgraph_table(rounds: int) -> None:
    rng = np.random.default_rng(0)
    n = SUBGRAPH_N
    values = [rng.standard_normal(shape, dtype=np.float32) * scale for shape, scale in (((n, 10), 1.0), ((n, 784), 0.05), ((784, 10), 1.0))]
    values.append(np.zeros(10, np.float32))
    print(f"\nThesis subgraph at N = {n:,}, float32, ms per call (wall time, median of {rounds} interleaved rounds); "
          f"load average {os.getloadavg()[0]:.2f}\n")
    print(f"{'library':18} {'typed':>8} {'library':>8} {'ratio':>6} {'bar':>5}")
    for name, raw in raw_subgraphs().items():
        typed, plain = subgraph_calls(name, raw, values)
        typed(), plain()  # warm: caches, jax's compilation
        times: tuple[list[float], list[float]] = ([], [])
        for round_ in range(rounds):
            pairs = list(zip((typed, plain), times))
            for call, bucket in pairs if round_ % 2 == 0 else pairs[::-1]:  # each first in half the rounds
                start = time.perf_counter()
                call()
                bucket.append(time.perf_counter() - start)
        typed_ms, raw_ms = statistics.median(times[0]) * 1e3, statistics.median(times[1]) * 1e3
        bar = SUBGRAPH_BARS.get(name, 1.05)
        flag = "" if typed_ms / raw_ms <= bar else "  over the bar"
        print(f"{name:18} {typed_ms:8.2f} {raw_ms:8.2f} {typed_ms / raw_ms:6.3f} {bar:5.2f}{flag}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


def dask_table(rounds: int) -> None:
    try:
        da: Any = importlib.import_module("dask.array")  # Any: dask's functions are untyped
    except ImportError:
        print("\ndask not installed")
        return
    values = np.random.default_rng(1).random((8192, 2048), dtype=np.float32)  # 64 MB, one sign: relative error means something
    lazy = da.from_array(values, chunks=(128, 2048))
    print(f"\ndask, float32 [8192, 2048] in {lazy.numblocks[0]} chunks, ms per compute (median of {rounds} interleaved rounds); "
          f"load average {os.getloadavg()[0]:.2f}\n")
    print(f"{'op':18} {'typed':>8} {'dask':>8} {'speed':>6} {'typed error':>12} {'dask error':>11}")
    for op, axis in [("sum", None), ("sum", 0), ("sum", 1), ("mean", 0)]:
        reference = getattr(values.astype(np.float64), op)(axis=axis)
        typed_graph, dask_graph = getattr(tt, f"reduce_{op}")(tt.Tensor(lazy), axis=axis).array, getattr(lazy, op)(axis=axis)
        calls = [typed_graph.compute, dask_graph.compute]
        errors = [float(np.max(np.abs(call() - reference) / np.abs(reference))) for call in calls]
        times: tuple[list[float], list[float]] = ([], [])
        for round_ in range(rounds):
            pairs = list(zip(calls, times))
            for call, bucket in pairs if round_ % 2 == 0 else pairs[::-1]:
                start = time.perf_counter()
                call()
                bucket.append(time.perf_counter() - start)
        typed_ms, dask_ms = statistics.median(times[0]) * 1e3, statistics.median(times[1]) * 1e3
        print(f"{op + f'(axis={axis})':18} {typed_ms:8.2f} {dask_ms:8.2f} {dask_ms / typed_ms:6.2f} {errors[0]:12.1e} {errors[1]:11.1e}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--number", type=int, default=2000)
    parser.add_argument("--subgraph-only", action="store_true", help="only the thesis subgraph's table")
    parser.add_argument("--dask-only", action="store_true", help="only the dask reductions' table")
    parser.add_argument("--ops-only", action="store_true", help="only the per-op overhead table")
    arguments = parser.parse_args()
    if arguments.subgraph_only or arguments.dask_only:
        if arguments.subgraph_only:
            subgraph_table(arguments.rounds)
        if arguments.dask_only:
            dask_table(arguments.rounds)
        return
    values = np.random.default_rng(0).standard_normal((2, 4, 4)).astype(np.float32)
    print(f"[4, 4] float32, per call in us (CPU time, median of {arguments.rounds} rounds); load average {os.getloadavg()[0]:.2f}\n")
    print(f"{'library':18} {'op':15} {'typed':>8} {'library':>8} {'more':>7} {'ratio':>6}")
    for name in ["numpy", "array_api_strict", "torch", "jax"]:
        found = library(name)
        if found is None:
            print(f"{name:18} not installed")
            continue
        module, make = found
        for op, (typed, raw) in cases(name, module, make(values[0].copy()), make(values[1].copy())).items():
            typed_us, raw_us = measure(typed, raw, arguments.rounds, arguments.number)
            flag = "" if typed_us - raw_us <= OVERHEAD_BAR_US else "  over the bar"
            print(f"{name:18} {op:15} {typed_us:8.2f} {raw_us:8.2f} {typed_us - raw_us:+7.2f} {typed_us / raw_us:6.2f}{flag}")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    if arguments.ops_only:
        return
    subgraph_table(arguments.rounds)
    dask_table(arguments.rounds)


if __name__ == "__main__":
    main()
