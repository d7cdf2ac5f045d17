"""``top_k`` on numpy's arrays: the partition it takes where k is small beside the axis, against
the stable sort of the whole axis it took before (and still takes where values equal to the k-th
largest straddle the cut), and numpy's own ``argpartition`` (unordered, ties arbitrary), as ratios.

Cases: logits of a 50,000-word vocabulary for a batch of 64, k from 1 to a quarter of the axis.
All run interleaved in this one process, alternating repeats; each figure is the median.

    python benchmarks/top_k.py [--rounds 7]
"""

from __future__ import annotations

import argparse
import statistics
import timeit
from collections.abc import Callable

import numpy as np

import typedtensor as tt
from typedtensor._ops import sorting


def medians(calls: dict[str, Callable[[], object]], rounds: int) -> dict[str, float]:
    """Each call's median time over ``rounds`` interleaved repeats."""
    times: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(rounds):
        for name, call in calls.items():
            times[name].append(timeit.timeit(call, number=1))
    return {name: statistics.median(values) for name, values in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=7)
    rounds = parser.parse_args().rounds
    logits = np.random.default_rng(0).normal(size=(64, 50_000)).astype(np.float32)
    x = tt.Tensor(logits)
    print(f"{'[64, 50000] float32':<22} {'top_k':>9} {'sorted':>9} {'argpartition':>13} {'sorted/top_k':>13}")
    for k in (1, 5, 50, 1000, 12_500):
        found = medians(
            {
                "top_k": lambda: tt.top_k(x, k),
                "sorted": lambda: sorting._argsort(logits, 1, True)[:, :k],
                "argpartition": lambda: np.argpartition(logits, logits.shape[1] - k, axis=1),
            },
            rounds,
        )
        print(f"{'k = ' + str(k):<22} {found['top_k'] * 1e3:>7.1f}ms {found['sorted'] * 1e3:>7.1f}ms "
              f"{found['argpartition'] * 1e3:>11.1f}ms {found['sorted'] / found['top_k']:>12.2f}x")


if __name__ == "__main__":
    main()
