"""What matmul and the shaping ops add to numpy's own call on a [4, 4] tensor (SPEC §8: <= 2 µs).

Each op checks its shapes with the shared rule (a cache hit after the first call), then calls
the array API namespace function. Two numpy baselines are printed: that same namespace function
(``np.matmul``, ``np.reshape`` ...), and the fastest numpy spelling (``a @ b``, ``a.reshape``,
``a.T``), which for some ops skips numpy's function dispatch. Interleaved repeats, best of each,
all in this one run; the machine's load shows in the noise.

    python benchmarks/shaping_overhead.py
"""

from __future__ import annotations

import os
import timeit
from collections.abc import Callable
import numpy as np

import typedtensor as tt

BAR_US = 2.0
NUMBER = 1_000
REPEAT = 200


def best_us(calls: list[Callable[[], object]]) -> list[float]:
    """The best per-call time of each of ``calls`` in µs, their repeats interleaved."""
    best = [float("inf")] * len(calls)
    for _ in range(REPEAT):
        for index, call in enumerate(calls):
            best[index] = min(best[index], timeit.timeit(call, number=NUMBER) / NUMBER * 1e6)
    return best


def cases() -> list[tuple[str, Callable[[], object], Callable[[], object], Callable[[], object]]]:
    """(op, typedtensor call, numpy's namespace function, numpy's fastest spelling)."""
    a = np.ones((4, 4), np.float32)
    b = np.ones((4, 4), np.float32)
    x, y = tt.Tensor(a), tt.Tensor(b)
    both = (a, b)
    tensors = (x, y)
    return [
        ("a @ b", lambda: x @ y, lambda: np.matmul(a, b), lambda: a @ b),
        ("matmul transpose_b", lambda: tt.matmul(x, y, transpose_b=True), lambda: np.matmul(a, np.matrix_transpose(b)), lambda: a @ b.T),
        ("x.reshape((16,))", lambda: x.reshape((16,)), lambda: np.reshape(a, (16,)), lambda: a.reshape((16,))),
        ("reshape (-1, 2)", lambda: tt.reshape(x, (-1, 2)), lambda: np.reshape(a, (-1, 2)), lambda: a.reshape((-1, 2))),
        ("x.T", lambda: x.T, lambda: np.permute_dims(a, (1, 0)), lambda: a.T),
        ("transpose perm", lambda: tt.transpose(x, (1, 0)), lambda: np.permute_dims(a, (1, 0)), lambda: a.transpose((1, 0))),
        ("expand_dims", lambda: tt.expand_dims(x, 0), lambda: np.expand_dims(a, axis=0), lambda: a[None]),
        ("squeeze", lambda: tt.squeeze(x), lambda: np.squeeze(a), lambda: a.squeeze()),
        ("concat", lambda: tt.concat(tensors), lambda: np.concat(both), lambda: np.concatenate(both)),
        ("stack", lambda: tt.stack(tensors), lambda: np.stack(both), lambda: np.stack(both)),
        ("tile", lambda: tt.tile(x, (2, 1)), lambda: np.tile(a, (2, 1)), lambda: np.tile(a, (2, 1))),
        ("broadcast_to", lambda: tt.broadcast_to(x, (2, 4, 4)), lambda: np.broadcast_to(a, (2, 4, 4)), lambda: np.broadcast_to(a, (2, 4, 4))),
    ]


def main() -> None:
    print(f"[4, 4] float32, numpy {np.__version__}, load average {os.getloadavg()[0]:.2f}, bar {BAR_US:.0f} µs over numpy")
    print(f"{'op':<20} {'typedtensor':>11} {'np.function':>11} {'over it':>8} {'np fastest':>10} {'over it':>8}")
    for name, ours, function, fastest in cases():
        mine, theirs, quickest = best_us([ours, function, fastest])
        verdict = "ok" if mine - theirs <= BAR_US else "OVER"
        print(f"{name:<20} {mine:>11.2f} {theirs:>11.2f} {mine - theirs:>8.2f} {quickest:>10.2f} {mine - quickest:>8.2f}  {verdict}")


if __name__ == "__main__":
    main()
