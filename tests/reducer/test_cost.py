"""The cost model's split decisions, the back-off after splits that did not help, and the
thread counts timed plans choose (``Timings``)."""

from __future__ import annotations

import contextlib
import math
import random
import struct
import threading
import time
from collections.abc import Iterator
from typing import Any, Final

import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

from typedtensor._reducer import compiled, cost as _cost, parallel as _parallel
from typedtensor._reducer.compiled import CompiledPlan
from typedtensor._reducer.planner import _plan


@pytest.fixture(autouse=True)
def two_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_parallel, "thread_count", lambda: 2)
    monkeypatch.setitem(_parallel._backoff, "calls_left", 0)
    monkeypatch.setitem(_parallel._backoff, "misses", 0)


@pytest.mark.parametrize(
    ("op", "dtype", "megabytes", "threads"),
    [
        ("sum", "float64", 12, 1),  # memory-bound in cache: two threads read 1.2x one, not 1.3x
        ("max", "float64", 30, 1),
        ("max", "float32", 30, 1),  # 26 GB/s: not 1.3x faster at 36
        ("sum", "float32", 64, 2),  # from DRAM: 42 GB/s against one thread's 28 ...
        ("sum", "float64", 40, 2),
        ("max", "float64", 128, 2),
        ("sum", "float64", 12 << 10, 2),  # ... however large
        ("prod", "float16", 16, 2),  # compute-bound: nearly twice as fast on two cores
        ("sum", "float16", 4, 1),
        ("prod", "int32", 21, 2),
        ("sum", "int8", 8, 2),
        ("prod", "float16", 1, 1),  # too short to pay for waking a worker
    ],
)
def test_splits_only_where_predicted_to_pay(op: str, dtype: str, megabytes: int, threads: int) -> None:
    cost = _cost.compiled_cost(op, np.dtype(dtype), megabytes << 20)
    assert _cost.threads_for(cost, parts=8) == threads


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(["sum", "prod", "max", "min", "any", "all", "mean"]),
    st.sampled_from(["bool", "int8", "uint16", "int32", "uint64", "float16", "float32", "float64"]),
    st.integers(1, 1 << 31),
    st.integers(2, 256),
)
def test_may_split_holds_exactly_where_some_thread_count_would_split_a_compute_bound_loop(
    op: str, dtype: str, nbytes: int, threads: int
) -> None:
    cost = _cost.compiled_cost(op, np.dtype(dtype), nbytes)

    def splits_on(count: int) -> bool:
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(_parallel, "thread_count", lambda: count)
            return _cost.threads_for(cost, parts=count) > 1

    one_thread_bandwidth = _cost.BANDWIDTH[nbytes <= _cost.CACHE_BYTES][0]
    compute_bound = cost.speed * _cost.SPLIT_GAIN <= one_thread_bandwidth
    assert _cost.may_split(cost) == (compute_bound and splits_on(1024))  # more threads never predict less
    assert _cost.may_split(cost) or not compute_bound or not splits_on(threads)  # such a plan left whole is never wanted in parts


def c_strides(shape: tuple[int, ...], dtype: np.dtype[Any]) -> tuple[int, ...]:
    """The strides of a C-order array of ``shape``: plans need no array (some here would be GBs)."""
    return tuple(math.prod(shape[dim + 1 :]) * dtype.itemsize for dim in range(len(shape)))


@pytest.mark.parametrize(
    ("dtype", "op", "shape", "axis", "calls", "units"),
    [
        ("float64", "sum", (32, 256, 5, 128), 0, 1, 5),  # 42 MB, memory-bound: whole, its 5 tiles shared by threads
        ("float32", "max", (32, 256, 5, 128), (0, 2), 1, 1),  # one tile of 128 KiB accumulators: no units
        ("float32", "sum", (64, 1_000_000), 0, 1, 31),  # 256 MB: the innermost kept dim in tiles of 256 KiB of accumulators
        ("float32", "sum", (8192, 640), 0, 1, 5),  # one tile: rows in parts of 4 MiB
        ("int8", "sum", (4096, 4096), 0, 1, 4),  # 16 MiB of slow int8 sums: row parts, shared
        ("int8", "sum", (4096, 4096), 1, 1, 16),  # blocks of rows, shared
        ("float16", "prod", (2000, 4000), 0, 1, 3),
        ("float16", "prod", (8192, 1024), None, 1, 4),  # one long row: in parts of 4 MiB too
        ("float16", "prod", (16, 16384, 32), (0, 2), 4, 1),  # 128 KiB of accumulators, no row parts; compute-bound: cut
    ],
)
def test_large_views_are_shared_by_threads_or_else_cut_where_their_loops_gain(
    dtype: str, op: str, shape: tuple[int, ...], axis: int | tuple[int, ...] | None, calls: int, units: int, compiled_kernels: None
) -> None:
    plan = _plan(op, shape, c_strides(shape, np.dtype(dtype)), np.dtype(dtype), axis, False)
    assert isinstance(plan, CompiledPlan) and (len(plan.calls), plan.units) == (calls, units)


@pytest.mark.parametrize(
    ("shape", "axis", "cut_dim"),
    [
        ((2, 4_000_000, 2, 16), (0, 2), 1),  # whole: 64 million results between reduced dims, 512 MB
        ((2, 2, 4_000_000, 2, 16), (1, 3), 2),  # not along the leading kept dim: its parts would hold as many
        ((128, 65536, 2, 16), (0, 2), 1),
    ],
)
def test_a_view_with_too_many_accumulators_is_cut_between_its_reduced_dims(
    shape: tuple[int, ...], axis: tuple[int, ...], cut_dim: int, compiled_kernels: None
) -> None:
    plan = _plan("sum", shape, c_strides(shape, np.dtype(np.float32)), np.dtype(np.float32), axis, False)
    assert isinstance(plan, CompiledPlan) and plan.combine is None and len(plan.calls) > 1
    parts = [struct.unpack(f"={len(call.layout) // 8}q", call.layout)[::4] for call in plan.calls]
    assert sum(part[cut_dim] for part in parts) == shape[cut_dim]  # the dim between, in order
    for part in parts:  # each part's accumulators within the bound, as the C walk holds them
        kept_between = math.prod(size for size, dim in zip(part, range(len(shape))) if 0 < dim < len(shape) - 1 and dim not in axis)
        assert kept_between * shape[-1] * 8 <= compiled.WHOLE_ACCUMULATORS_MAX


def test_never_more_threads_than_parts_or_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    slow = _cost.compiled_cost("prod", np.dtype("float16"), 256 << 20)
    assert _cost.threads_for(slow, parts=1) == 1
    monkeypatch.setattr(_parallel, "thread_count", lambda: 16)
    assert _cost.threads_for(slow, parts=5) == 5
    monkeypatch.setattr(_parallel, "thread_count", lambda: 1)
    assert _cost.threads_for(slow, parts=5) == 1


def test_splits_that_did_not_help_keep_the_next_calls_on_one_thread() -> None:
    slow = _cost.compiled_cost("prod", np.dtype("float16"), 64 << 20)
    _parallel._record(helped=False)
    assert [_cost.threads_for(slow, 8) for _ in range(3)] == [1, 1, 2]  # 2 calls back off
    _parallel._record(helped=False)
    _parallel._record(helped=False)
    assert [_cost.threads_for(slow, 8) for _ in range(9)] == [1] * 8 + [2]  # then 4, then 8
    _parallel._record(helped=True)
    _parallel._record(helped=False)
    assert [_cost.threads_for(slow, 8) for _ in range(3)] == [1, 1, 2]  # a good split starts over


def test_a_split_in_which_the_workers_did_their_share_counts_as_helping() -> None:
    results = _parallel.run_parts(lambda part: part * 2, list(range(64)), threads=2)
    assert results == [part * 2 for part in range(64)]
    assert _parallel._backoff["calls_left"] in (0, 2)  # 2 only if the worker never got a core


def test_a_split_that_left_the_caller_waiting_for_a_slow_worker_counts_as_not_helping() -> None:
    caller = threading.get_ident()

    def part(index: int) -> int:
        # the caller's part lasts long enough for the worker to take the other: each does its share
        time.sleep(0.01 if threading.get_ident() == caller else 0.1)  # the worker is on a busy core
        return index

    assert _parallel.run_parts(part, [0, 1], threads=2) == [0, 1]
    assert _parallel._backoff["calls_left"] == 2  # the next 2 calls stay on one thread


def test_a_split_slower_than_one_thread_is_predicted_to_be_counts_as_not_helping() -> None:
    # both threads do their share and neither waits, but together they took longer than one
    # thread alone should (the other core is busy)
    def part(index: int) -> int:
        time.sleep(0.005)
        return index

    assert _parallel.run_parts(part, [0, 1], threads=2, alone=0.001) == [0, 1]
    assert _parallel._backoff["calls_left"] == 2


@contextlib.contextmanager
def seeded(seed: int) -> Iterator[None]:
    """The random learning order and retries of ``Timings``, seeded."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_cost, "_chance", random.Random(seed))
        yield


# the model predicts one thread for the first (in cache) and all of them for the second (from DRAM)
MODEL_COSTS: Final = {1: _cost.compiled_cost("sum", np.dtype("float32"), 21 << 20), 2: _cost.compiled_cost("sum", np.dtype("float32"), 64 << 20)}


def timings_of(threads: int = 2, predicted: int = 1) -> _cost.Timings:
    """The ``Timings`` of a plan of ``threads`` pieces whose cost the model predicts ``predicted``
    threads for (2: all of them)."""
    cost = MODEL_COSTS[predicted]
    assert _cost.model_count(cost, threads) == (1 if predicted == 1 else threads)
    return _cost.Timings(cost, threads)


def chosen(timings: _cost.Timings, calls: int, seconds: dict[int, float], cores: int = 64) -> list[int]:
    """The thread counts ``timings`` chooses for ``calls`` calls that each take ``seconds[count]``
    (by default on a machine with more cores than its plan has pieces)."""
    counts = []
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_parallel, "thread_count", lambda: cores)
        for _ in range(calls):
            count, timed = timings.choose()
            if timed:
                timings.record(count, seconds[count])
            counts.append(count)
    return counts


class Scripted:
    """A stand-in for ``Timings``' random draws: these, in turn."""

    def __init__(self, draws: list[float]) -> None:
        self.draws = iter(draws)

    def random(self) -> float:
        return next(self.draws)


@pytest.mark.parametrize("predicted", [1, 2])
def test_a_timed_plan_runs_the_models_count_until_it_has_times_of_both(predicted: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # 0.4 draws the other count while learning (one call in LEARN_ODDS = 2), not once learnt (one in
    # RETRY_ODDS = 16), which 0.05 draws; 0.9 draws neither
    assert (_cost.LEARN_ODDS, _cost.RETRY_ODDS, _cost.KEPT_TIMED_ODDS, _cost.TIMED_KEPT, _cost.TIMED_GAIN) == (2, 16, 4, 5, 1.05)  # as documented
    kept = _cost.TIMED_KEPT
    monkeypatch.setattr(_cost, "_chance", Scripted([0.9] * kept + [0.4] * kept + [0.4, 0.9, 0.05, 0.9]))
    p, o = predicted, 3 - predicted
    counts = chosen(timings_of(predicted=predicted), 2 * kept + 4, {1: 1.0, 2: 0.5})
    assert counts == [p] * kept + [o] * kept + [2, 2, 1, 2]  # each count's times end the learning: then the faster


@pytest.mark.parametrize(("faster", "timed"), [(1, [True, True, False, False]), (2, [True, True, True, True])])
def test_a_learnt_plan_times_one_thread_on_one_call_in_four_several_on_every_call_and_every_retry(
    faster: int, timed: list[bool], monkeypatch: pytest.MonkeyPatch
) -> None:
    kept, timings = _cost.TIMED_KEPT, timings_of()
    # after the learning, 0.05 draws a retry of the other count, 0.2 a timed call of one thread, 0.3 and 0.9 neither
    monkeypatch.setattr(_cost, "_chance", Scripted([0.9] * kept + [0.4] * kept + [0.05, 0.2, 0.3, 0.9]))
    seconds = {faster: 0.5, 3 - faster: 1.0}
    assert chosen(timings, 2 * kept, seconds) == [1] * kept + [2] * kept  # learning: every call timed
    monkeypatch.setattr(_parallel, "thread_count", lambda: 2)
    other = 3 - faster
    assert [timings.choose() for _ in range(4)] == list(zip([other, faster, faster, faster], timed))


@settings(max_examples=100, deadline=None)
@given(st.floats(0.3, 3.0), st.integers(2, 64), st.sampled_from([1, 2]), st.integers(0, 2**32))
@example(speedup=1.03, threads=2, predicted=2, seed=0)  # faster, but not by TIMED_GAIN: one thread
def test_a_timed_plan_keeps_the_faster_count_and_times_the_other_at_random(
    speedup: float, threads: int, predicted: int, seed: int
) -> None:
    timings, calls = timings_of(threads, predicted), 800
    with seeded(seed):
        counts = chosen(timings, 400 + calls, {1: 1.0, threads: 1.0 / speedup})[-calls:]
    faster = threads if speedup >= _cost.TIMED_GAIN else 1  # several threads only where they gain enough
    retries = len(counts) - counts.count(faster)
    assert set(counts) == {1, threads} and 15 <= retries <= 110  # 800 / RETRY_ODDS = 50 expected: 5 sd below, 9 above


@pytest.mark.parametrize(("retry_seconds", "counts"), [(0.5, [2, 2, 2, 2, 2]), (1.2, [2, 1, 1, 1, 1])])
def test_a_retry_faster_than_the_kept_count_runs_that_count_again_at_once(
    retry_seconds: float, counts: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Learnt on one thread (two were slow then). A retry on two threads at 0.5 s, against one
    # thread's 1.0, asks for RETRY_AGAIN = 2 more at once: three of the latest five then decide
    # (waiting for the retries, one in 16, took 52 calls at the median); one at 1.2 s asks for none.
    assert _cost.RETRY_AGAIN == 2  # as documented
    timings = timings_of()
    with seeded(1):
        chosen(timings, 30, {1: 1.0, 2: 1.5})
    assert timings.faster == {2: 1}
    monkeypatch.setattr(_cost, "_chance", Scripted([0.05] + [0.9] * 4))  # a retry, then none drawn
    assert chosen(timings, 5, {1: 1.0, 2: retry_seconds}) == counts


@seeded(3)
def test_a_timed_plan_follows_a_change_of_load() -> None:
    timings = timings_of()
    chosen(timings, 20, {1: 1.0, 2: 0.6})
    # the other core gets busy: the kept count's own times show it once most of its latest are slow
    busy = chosen(timings, 100, {1: 1.0, 2: 1.5})
    assert busy[10:].count(2) <= 18  # retries: 90 / RETRY_ODDS = 5.6 expected, 18 is 5 sd above
    # ... and freed again: the retries on two threads bring it back once most of their latest are fast
    freed = chosen(timings, 300, {1: 1.0, 2: 0.6})
    assert freed[200:].count(1) <= 18


@seeded(7)
def test_a_timed_plan_learns_each_thread_count_it_may_use() -> None:
    timings, seconds = timings_of(threads=4), {1: 1.0, 2: 0.5, 4: 2.0}
    chosen(timings, 40, seconds, cores=2)
    assert timings.faster == {2: 2}  # two threads, where two may run ...
    counts = chosen(timings, 60, seconds, cores=4)
    assert timings.faster == {2: 2, 4: 1} and counts[-20:].count(1) >= 15  # ... one, where four may


def test_a_time_recorded_while_another_thread_records_a_new_count_does_not_raise(monkeypatch: pytest.MonkeyPatch) -> None:
    timings = timings_of()
    chosen(timings, 30, {1: 1.0, 2: 0.5})
    median = _cost._median

    def another_thread_between(times: list[float]) -> float:
        if 4 not in timings.seconds:  # a thread allowed four threads records its first time meanwhile
            timings.record(4, 0.3)
        return median(times)

    monkeypatch.setattr(_cost, "_median", another_thread_between)
    timings.record(1, 1.0)
    assert timings.seconds[4] == [0.3]


@seeded(4)
def test_a_count_fast_only_now_and_then_is_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    # two threads take 0.6 while the other core is free, 2.0 while it is busy (half the time): 1.3
    # on average, against one thread's 1.0 (the fastest recent time would keep two, 2/3 of calls)
    monkeypatch.setattr(_parallel, "thread_count", lambda: 2)
    timings, load, counts = timings_of(), random.Random(5), []
    for _ in range(2000):
        count, timed = timings.choose()
        if timed:
            timings.record(count, 1.0 if count == 1 else 2.0 if load.random() < 0.5 else 0.6)
        counts.append(count)
    assert counts.count(2) < 800


def test_timings_choose_nothing_on_one_core_and_leave_the_back_off_to_the_other_plans(monkeypatch: pytest.MonkeyPatch) -> None:
    timings = timings_of(threads=8, predicted=2)
    monkeypatch.setattr(_cost, "_chance", Scripted([0.9] * 3))  # three draws, none for the other count
    monkeypatch.setattr(_parallel, "thread_count", lambda: 1)
    assert timings.choose() == (1, False)  # one thread, untimed: not even a draw
    monkeypatch.setattr(_parallel, "thread_count", lambda: 2)
    _parallel._record(helped=False)  # another plan's split did not help: its next 2 calls stay on one thread ...
    assert [timings.choose() for _ in range(3)] == [(2, True)] * 3  # ... this one's times (the model's, learning) decide
    assert _parallel._backoff["calls_left"] == 2
    caller = threading.get_ident()

    def part(index: int) -> int:
        time.sleep(0.01 if threading.get_ident() == caller else 0.1)  # the worker is on a busy core
        return index

    _parallel.run_parts(part, [0, 1], threads=2, alone=None)  # a timed split: its time tells its plan
    assert _parallel._backoff == {"calls_left": 2, "misses": 1}


@pytest.mark.parametrize(
    ("dtype", "op", "shape", "axis", "timed"),
    [
        ("float32", "sum", (32, 256, 5, 128), 0, True),  # 21 MB: its 5 tiles shared by threads
        ("float16", "prod", (16, 16384, 32), (0, 2), True),  # cut into parts
        ("float32", "sum", (4, 4), 0, False),  # nothing to share
        ("float32", "max", (32, 256, 5, 128), (0, 2), False),  # no units to share
    ],
)
def test_plans_with_pieces_to_share_are_timed(
    dtype: str, op: str, shape: tuple[int, ...], axis: int | tuple[int, ...], timed: bool, compiled_kernels: None
) -> None:
    plan = _plan(op, shape, c_strides(shape, np.dtype(dtype)), np.dtype(dtype), axis, False)
    assert isinstance(plan, CompiledPlan) and (plan.timings is not None) == timed


def test_a_timed_plan_records_its_calls_on_each_thread_count_with_the_same_bits(
    compiled_kernels: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_back_off(helped: bool) -> None:
        raise AssertionError("a timed split counted for the back-off")

    monkeypatch.setattr(_parallel, "_record", no_back_off)
    array = np.random.default_rng(5).random((32, 256, 5, 128), np.float32)
    plan = _plan("sum", array.shape, array.strides, array.dtype, 0, False)
    assert isinstance(plan, CompiledPlan) and plan.timings is not None
    with seeded(6):
        results = {plan.run(array).tobytes() for _ in range(40)}
    assert sorted(plan.timings.seconds) == [1, 2] and min(map(len, plan.timings.seconds.values())) >= _cost.TIMED_KEPT
    assert len(results) == 1
