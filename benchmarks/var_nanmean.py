"""``var`` and ``nanmean`` through typedtensor against numpy's ``np.var`` and ``np.nanmean``, as ratios.

typedtensor's ``var`` is two passes on the project's reducer (the mean, then the sum of squared
deviations, squared in place as numpy's), so it is as accurate as numpy's and, where the reducer
is faster than numpy's sum, faster. Shapes: [4, 4] (the per-call cost), [1000, 256] along either
axis, and the TFLite blog's [32, 256, 5, 128] over axes (0, 2).

Both sides run interleaved in this one process, alternating repeats; each figure is the median of
the repeats' per-call times, so a slower moment of a shared machine hits both alike.

    python benchmarks/var_nanmean.py [--rounds 15]
"""

from __future__ import annotations

import argparse
import statistics
import timeit
from collections.abc import Callable
from typing import Any

import numpy as np

import typedtensor as tt

CASES: dict[str, tuple[tuple[int, ...], Any]] = {
    "[4, 4] axis=-1": ((4, 4), -1),
    "[1000, 256] axis=0": ((1000, 256), 0),
    "[1000, 256] axis=-1": ((1000, 256), -1),
    "[32, 256, 5, 128] axis=(0, 2)": ((32, 256, 5, 128), (0, 2)),
}


def medians(calls: dict[str, Callable[[], object]], rounds: int, number: int) -> dict[str, float]:
    """Each call's median time per call over ``rounds`` interleaved repeats."""
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(rounds):
        for name, call in calls.items():
            times[name].append(timeit.timeit(call, number=number) / number)
    return {name: statistics.median(values) for name, values in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=15)
    rounds = parser.parse_args().rounds
    rng = np.random.default_rng(0)
    print(f"{'case':<40} {'op':<8} {'typedtensor':>12} {'numpy':>10} {'numpy/tt':>9}")
    for name, (shape, axis) in CASES.items():
        values = rng.normal(size=shape).astype(np.float32)
        values.flat[::7] = np.nan  # for nanmean; var reads the same values with the NaNs as 0
        finite = np.nan_to_num(values)
        x, with_nans = tt.Tensor(finite), tt.Tensor(values)
        number = 2000 if values.size <= 16 else max(1, 2_000_000 // values.size)
        for op, ours, theirs in [
            ("var", lambda: tt.var(x, axis=axis), lambda: np.var(finite, axis=axis)),
            ("nanmean", lambda: tt.nanmean(with_nans, axis=axis), lambda: np.nanmean(values, axis=axis)),
        ]:
            found = medians({"tt": ours, "np": theirs}, rounds, number)
            print(f"{name:<40} {op:<8} {found['tt'] * 1e6:>10.1f}us {found['np'] * 1e6:>8.1f}us {found['np'] / found['tt']:>8.2f}x")


if __name__ == "__main__":
    main()
