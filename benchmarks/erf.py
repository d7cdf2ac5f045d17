"""numpy's ``erf`` and the exact ``gelu``: the compiled libm loop against ``math.erf`` element by
element (what numpy's arrays got before, and still get without the C extension), as ratios.

Cases: 10**6 float64 and float32 elements, 16 elements (the per-call cost), and the exact GELU of
a BERT-base activation [64, 128, 3072] in float32, beside the tanh form. Both sides run
interleaved in this one process, alternating repeats; each figure is the median of the repeats'
per-call times, so a slower moment of a shared machine hits both alike.

    python benchmarks/erf.py [--rounds 5]
"""

from __future__ import annotations

import argparse
import statistics
import timeit
from collections.abc import Callable

import numpy as np

import typedtensor as tt
from typedtensor._ops import special


def medians(calls: dict[str, Callable[[], object]], rounds: int, number: int) -> dict[str, float]:
    """Each call's median time per call over ``rounds`` interleaved repeats."""
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(rounds):
        for name, call in calls.items():
            times[name].append(timeit.timeit(call, number=number) / number)
    return {name: statistics.median(values) for name, values in times.items()}


def element_by_element(call: Callable[[], object]) -> Callable[[], object]:
    """``call`` run with the extension's loop hidden: ``math.erf`` element by element."""

    def hidden() -> object:
        kernels, special._ckernels = special._ckernels, None
        try:
            return call()
        finally:
            special._ckernels = kernels

    return hidden


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    if special._ckernels is None:
        raise SystemExit("the C extension is not built: python setup.py build_ext --inplace")
    rng = np.random.default_rng(0)
    print(f"{'case':<36} {'compiled':>12} {'math.erf':>12} {'ratio':>7}")
    for name, shape, dtype, op in [
        ("erf 10**6 float64", (10**6,), np.float64, tt.erf),
        ("erf 10**6 float32", (10**6,), np.float32, tt.erf),
        ("erf 16 float32", (16,), np.float32, tt.erf),
        ("gelu [64, 128, 3072] float32", (64, 128, 3072), np.float32, tt.gelu),
    ]:
        x = tt.Tensor(rng.normal(size=shape).astype(dtype))
        number = 2000 if x.size <= 16 else 1
        found = medians({"compiled": lambda: op(x), "math": element_by_element(lambda: op(x))}, rounds, number)
        print(f"{name:<36} {found['compiled'] * 1e3:>10.3f}ms {found['math'] * 1e3:>10.3f}ms {found['math'] / found['compiled']:>6.2f}x")
    big = tt.Tensor(rng.normal(size=(64, 128, 3072)).astype(np.float32))
    tanh_form = medians({"tanh": lambda: tt.gelu(big, approximate=True)}, rounds, 1)["tanh"]
    print(f"{'gelu tanh form [64, 128, 3072]':<36} {tanh_form * 1e3:>10.3f}ms")


if __name__ == "__main__":
    main()
