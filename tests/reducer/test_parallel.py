"""Reductions split across threads: right answers at any thread count, a bad thread setting, exit.

Thread counts are set the way users set them, with ``TYPEDTENSOR_NUM_THREADS`` in a fresh process.
"""

from __future__ import annotations

import concurrent.futures
import os
import subprocess
import sys
from typing import Any

import numpy as np
import pytest

from tests.support.kernels import force_threads
from typedtensor._reducer import compiled as _compiled, parallel as _parallel
from typedtensor._reducer.planner import reduce_array


def run_python(code: str, threads: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, _parallel.ENV_VAR: threads}
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300)


# Cut into parts along a reduced dim, a part can get one index of it (the review found IndexError).
SPLIT_SHAPES = """
import numpy as np, typedtensor as tt
for shape in [(24, 12, 12, 12, 12), (5,) + (4,) * 8]:
    array = np.random.default_rng(0).random(shape).T
    assert np.allclose(tt.Tensor(array).sum(axis=-1).numpy(), array.sum(axis=-1), rtol=1e-12), shape
print("ok")
"""


@pytest.mark.parametrize("threads", ["2", "8"])
def test_transposed_sums_are_right_at_any_thread_count(threads: str) -> None:
    result = run_python(SPLIT_SHAPES, threads)
    assert result.stdout.strip() == "ok", result.stderr


LONG_COLUMN = """
import numpy as np, typedtensor as tt
column = np.full((1_000_000, 4), 0.1, np.float32)
exact = 1_000_000 * np.float64(np.float32(0.1))
print(np.max(np.abs(tt.reduce_sum(tt.Tensor(column), axis=0).numpy() - exact)) / exact)
"""


@pytest.mark.parametrize("threads", ["16", "64"])
def test_float32_long_column_is_accurate_at_many_threads(threads: str) -> None:
    result = run_python(LONG_COLUMN, threads)
    assert float(result.stdout) <= 1e-5, result.stderr  # SPEC 8; numpy: about 1e-2


AT_EXIT = """
import atexit, numpy as np, typedtensor as tt
array = np.random.default_rng(0).integers(-100, 100, (4096, 4096), dtype=np.int8)  # slow int8 sums of 16 MiB: split
if {warm}:
    tt.reduce_sum(tt.Tensor(array), axis=1)  # the workers exist before exit
atexit.register(lambda: print(np.array_equal(tt.reduce_sum(tt.Tensor(array), axis=1).numpy(), array.sum(axis=1))))
"""


@pytest.mark.parametrize("warm", [True, False])
def test_a_large_reduction_in_an_atexit_handler(warm: bool) -> None:
    result = run_python(AT_EXIT.format(warm=warm), "2")
    assert result.stdout.strip() == "True" and result.returncode == 0, result.stderr


BAD_SETTING = """
import warnings, numpy as np, typedtensor as tt
small = tt.reduce_sum(tt.ones((3, 3), tt.float32)).numpy()  # never asks for threads
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    array = np.random.default_rng(0).integers(-100, 100, (4096, 4096), dtype=np.int8)  # slow int8 sums: split
    large = np.array_equal(tt.reduce_sum(tt.Tensor(array), axis=0).numpy(), array.sum(axis=0))
print(small, large, *[str(warning.message) for warning in caught], sep="\\n")
"""


@pytest.mark.parametrize("value", ["²", "two", "0", "-1", "1.5"])
def test_a_bad_thread_setting_warns_and_reductions_still_run(value: str) -> None:
    result = run_python(BAD_SETTING, value)
    small, large, *warnings = result.stdout.splitlines()
    assert (small, large) == ("9.0", "True"), result.stderr
    assert warnings == [f"{_parallel.ENV_VAR} must be a positive integer, got {value!r}; using the usable cores"]


def large_inputs() -> list[tuple[str, np.ndarray[Any, Any], tuple[int, ...] | None]]:
    """Inputs of 8 MiB or more (so they are cut into parts), in several layouts and patterns."""
    rng = np.random.default_rng(20)
    blog = rng.random((32, 256, 5, 64)).astype(np.float32)  # 10 MiB
    halves = rng.random((4096, 1024)).astype(np.float16)  # 8 MiB: cut even unforced for products
    long = rng.random((1_000_000, 4)).astype(np.float32)  # 16 MB
    wide = rng.random((1536, 1024))  # 12 MiB of float64
    return [
        ("blog (0, 2)", blog, (0, 2)),
        ("blog (1, 3)", blog, (1, 3)),
        ("blog (0,)", blog, (0,)),
        ("blog all", blog, None),
        ("blog transposed (0, 1)", blog.T, (0, 1)),
        ("long (0,)", long, (0,)),
        ("long (1,)", long, (1,)),
        ("wide reversed (0,)", wide[::-1], (0,)),
        ("wide fortran (1,)", np.asfortranarray(wide), (1,)),
        ("halves (0,)", halves, (0,)),
        ("halves (1,)", halves, (1,)),
    ]


#: How far a result of the parts may lie from numpy's in float64, relative, by result dtype.
TOLERANCE = {np.dtype(np.float16): 2e-3, np.dtype(np.float32): 1e-5, np.dtype(np.float64): 1e-12}


@pytest.mark.parametrize("op", ["sum", "mean", "prod", "max", "min"])
def test_results_have_the_same_bits_at_any_thread_count(op: str, kernels: str, monkeypatch: pytest.MonkeyPatch) -> None:
    for name, array, axes in large_inputs():
        values = 1 + (array - 0.5) * 1e-3 if op == "prod" else array  # finite products
        results = []
        for threads in (1, 2, 16, 64):
            force_threads(threads, monkeypatch)
            results.append(reduce_array(op, values, axes, False, op))
        assert all(result.tobytes() == results[0].tobytes() for result in results), name
        # ... and right: the parts and their combining, against numpy in float64
        expected = getattr(np, op)(values.astype(np.float64), axis=axes)
        np.testing.assert_allclose(results[0], expected, rtol=TOLERANCE[results[0].dtype], err_msg=name)


def test_concurrent_callers_get_the_same_bits(kernels: str, monkeypatch: pytest.MonkeyPatch) -> None:
    force_threads(16, monkeypatch)
    cases = large_inputs()
    expected = [reduce_array("sum", array, axes, False, "sum").tobytes() for _, array, axes in cases]

    def work(index: int) -> bool:
        _, array, axes = cases[index % len(cases)]
        return all(reduce_array("sum", array, axes, False, "sum").tobytes() == expected[index % len(cases)] for _ in range(3))

    with concurrent.futures.ThreadPoolExecutor(6) as users:
        assert all(users.map(work, range(2 * len(cases)), timeout=300))


THREADS_USED = """
import threading, numpy as np, typedtensor as tt
from typedtensor._reducer import parallel as _parallel
from typedtensor._reducer import compiled as _compiled, cost as _cost
_cost._chance.seed(0)  # the calls that time one thread instead, at random: these, always
x = tt.tensor(np.ones((2000, 4000), np.float16))
for _ in range(4):  # 16 MB of slow float16 products: the model splits them, and most calls follow it
    tt.reduce_prod(x, axis=1)
workers = any(t.name.startswith("typedtensor") for t in threading.enumerate()) or _compiled._ckernels.workers(0)[0] > 0
print(_parallel.thread_count(), workers)
"""


@pytest.mark.parametrize(("value", "expected"), [("1", "1 False"), ("3", "3 True")])
def test_env_var_sets_the_thread_count(value: str, expected: str) -> None:
    assert run_python(THREADS_USED, value).stdout.strip() == expected


AFTER_FORK = """
import os, signal, threading, time, numpy as np, typedtensor as tt
from typedtensor._reducer import compiled as _compiled, cost as _cost
_cost.Timings.choose = lambda timings: (min(2, timings.pieces), False)  # every large call on two threads
array = np.random.default_rng(0).random((32, 256, 5, 128)).astype(np.float32)  # 21 MB, 5 units
expected = np.max(array, axis=(1, 2, 3))
def right():
    return np.array_equal(tt.reduce_max(tt.Tensor(array), (1, 2, 3)).numpy(), expected)
first = right()
stop, wrong = threading.Event(), []
def calls():  # two threads of the parent calling on two threads all along: some forks come mid-call
    while not stop.is_set():
        if not right():
            wrong.append(1)
callers = [threading.Thread(target=calls) for _ in range(2)]
for caller in callers:
    caller.start()
codes = []
for _ in range(200):
    pid = os.fork()
    if pid == 0:  # the child has none of the parent's workers: it starts its own
        before = _compiled._ckernels.workers(0)[0]
        os._exit(0 if (before, right(), right(), _compiled._ckernels.workers(0)[0]) == (0, True, True, 1) else 1)
    deadline = time.monotonic() + 20
    while (status := os.waitpid(pid, os.WNOHANG))[0] == 0 and time.monotonic() < deadline:
        time.sleep(0.001)
    if status[0] == 0:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    codes.append(os.waitstatus_to_exitcode(status[1]) if status[0] else "hung")
stop.set()
for caller in callers:
    caller.join()
print(first and not wrong, _compiled._ckernels.workers(0)[0], sorted(set(codes)))
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
def test_a_forked_child_shares_calls_with_workers_of_its_own() -> None:
    # The C loops' workers are threads of the parent: a child that waited for them, or for a lock
    # one of them held, would hang (the run's timeout fails it); forks come while other threads
    # of the parent are in shared calls.
    result = run_python(AFTER_FORK, "2")
    assert result.stdout.strip() == "True 1 [0]", result.stderr


SHARED = """
import numpy as np
from typedtensor._reducer import compiled as _compiled
array = np.random.default_rng(0).random((32, 256, 5, 128)).astype(np.float32)  # over (2,): 4096 units
plan = _compiled.plan("sum", array.shape, array.strides, array.dtype, (False, False, True, False), (32, 256, 128), array.dtype)
(call,) = plan.calls
expected = array.sum(axis=2, dtype=np.float64).astype(np.float32)
started = _compiled._ckernels.workers(1)
offered, helped = set(), 0
for _ in range(200):  # until a worker has taken shares: it wakes tens of microseconds late
    out = np.empty((32, 256, 128), np.float32)
    offered.add(_compiled._ckernels.reduce(plan.op, plan.in_type, plan.in_type, array, 0, out, 0, call.layout, 0.0, 8, 2))
    assert np.allclose(out, expected, rtol=1e-6)
    helped = _compiled._ckernels.workers(1)[1]
    if helped:
        break
print(started, offered, helped > 0)
"""


def test_the_workers_take_shares_of_a_call() -> None:
    # Two threads offered a call of 8 shares: the worker must take some (a pool that never
    # helped would still give every right answer).
    result = run_python(SHARED, "2")
    assert result.stdout.strip() == "(1, 0) {2} True", result.stderr


def test_a_call_that_finds_the_workers_busy_runs_alone_and_says_so() -> None:
    # Two user threads sharing calls at once: the pool serves one call at a time, so the other
    # takes every share itself (reduce returns 0, and its time is not kept as the count's), with
    # the same bits.
    array = np.random.default_rng(0).random((32, 256, 5, 128)).astype(np.float32)
    mask = (False, False, True, False)
    plan = _compiled.plan("sum", array.shape, array.strides, array.dtype, mask, (32, 256, 128), array.dtype)
    (call,) = plan.calls
    expected = reduce_array("sum", array, 2, False, "sum")

    def offers(_: int) -> set[int]:
        seen = set()
        for _ in range(300):
            out = np.empty_like(expected)
            seen.add(_compiled._ckernels.reduce(plan.op, plan.in_type, plan.in_type, array, 0, out, 0, call.layout, 0.0, 8, 2))
            assert out.tobytes() == expected.tobytes()
            if {0, 2} <= seen:
                break
        return seen

    with concurrent.futures.ThreadPoolExecutor(2) as users:
        assert set().union(*users.map(offers, range(2), timeout=300)) == {0, 2}


@pytest.mark.parametrize(("offered", "kept"), [(0, {}), (1, {2: 1}), (2, {2: 1})])
def test_a_shared_call_is_timed_as_its_count_unless_it_ran_alone_on_a_busy_pool(
    offered: int, kept: dict[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    # reduce() says how many threads a shared call was offered to: 0 where the pool served another
    # call (the caller alone, on a busy machine: neither count's time), 1 where no worker could be
    # started (two threads asked for: that count's time, as it runs now)
    array = np.ones((32, 256, 5, 128), np.float32)
    mask = (False, False, True, False)
    plan = _compiled.plan("sum", array.shape, array.strides, array.dtype, mask, (32, 256, 128), array.dtype)
    assert plan.timings is not None
    monkeypatch.setattr(_compiled._ckernels, "reduce", lambda *arguments: offered)
    monkeypatch.setattr(type(plan.timings), "choose", lambda timings: (2, True))
    plan.run(array)
    assert {count: len(times) for count, times in plan.timings.seconds.items()} == kept


def test_one_limited_entered_inside_itself_restores_each_limit() -> None:
    one = _parallel.limited(1)
    before = _parallel.thread_count()
    with one:
        with one:
            assert _parallel.thread_count() == 1
        assert _parallel.thread_count() == 1
    assert _parallel.thread_count() == before
