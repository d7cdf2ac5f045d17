"""Generated programs on symbolic shapes: no checker is wrong about a call that runs.

Hypothesis writes a module of small functions, each taking two tensors ``a`` and ``b`` whose dims
mix every kind (``Literal[n]``, ``Dim`` classes, TypeVars, ``int``, ``Any``, a ``*Ts`` or a run of
unknown dims) and revealing one call of one op on them (elementwise, matmul, reshape, transpose
and ``.T``, expand_dims/squeeze, concat/stack, indexing, reductions, axis ops, nested calls).
Each call runs under every binding of its named dims (``Dim`` classes and TypeVars) to sizes 1
to 4, each binding with a few draws of the other dims (dims for ``*Ts``, any sizes for ``int``,
``Any`` and the unknown run); a call that never runs is left out. Then mypy with the plugin,
plain mypy and pyright check the module once each:
- named dims are rigid (SPEC §7): the plugin reports no error on a call that runs for every
  binding of its named dims (no false positives), and exactly one on a call of literal and named
  dims only that fails for some binding (but by a literal index on a named dim, which the SPEC
  leaves to run time); where other dims may make it run, at most one;
- plain mypy and pyright report no error on a call that runs for some binding;
- every revealed type holds for every run: each literal dim its size, each named dim its
  binding, a ``*Ts`` its dims, the rank the runtime's unless a run of unknown dims stands in.

The declared types (pyright, plain mypy) have gaps the plugin has not, named in
``docs/static-checking.md``; ``declared_must_hold`` leaves exactly those out of their check.
"""

from __future__ import annotations

import itertools
import json
import random
import re
import subprocess
import sys
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from hypothesis import Phase, example, given, settings, strategies as st

import typedtensor as tt
from tests.support.mypy_helpers import PROJECT, Mypy, MypyRun, assert_no_crash
from typedtensor._shape_rules.dtypes import members

HEAD = """from typing import Any, Literal as L, TypeVar, TypeVarTuple
import typedtensor as tt
from typedtensor import Dim, Tensor
class Batch(Dim): ...
class Seq(Dim): ...
N = TypeVar("N")
M = TypeVar("M")
Ts = TypeVarTuple("Ts")
"""
NAMED = ("Batch", "Seq", "N", "M")
UNKNOWN_RUN = "*tuple[Any, ...]"
DTYPES = ("float32", "float64", "float16", "int32", "int64", "bool_")
#: The sizes each named dim takes, in every combination: a clash the rules report (a named dim
#: against a literal of at most 4, another named dim, a count not a multiple) fails for one of them.
NAMED_SIZES = range(1, 5)
DRAWS = 3  # draws of the other dims (``int``, ``Any``, the runs) under each binding of the named ones
CASES_PER_MODULE = 60
_modules = itertools.count()


def _calls(r: random.Random) -> list[str]:
    """Every op's calls on ``a`` and ``b``, with random literal arguments."""
    k, k2 = r.randint(-3, 3), r.randint(-3, 3)
    return [
        "a + b", "tt.add(a, b)", "b - a", "a * 2", "2.5 * a", "a == b", "tt.maximum(a, b)", "tt.where(a > 0, a, b)",
        "a @ b", "tt.matmul(a, b)", f"tt.matmul(a, b, transpose_a={r.random() < 0.5}, transpose_b={r.random() < 0.5})",
        "a.reshape((-1,))", f"a.reshape(({r.randint(1, 4)}, -1))", "tt.reshape(a, (-1, a.shape[-1]))", "a.reshape(a.shape)",
        "tt.reshape(a, (a.shape[0], -1))", "a.reshape((1, -1, 1))", "a.reshape(())",
        "tt.transpose(a)", "a.T", f"tt.transpose(a, {tuple(r.sample(range(3), 3))})", f"tt.transpose(a, {tuple(r.sample(range(2), 2))})",
        "tt.transpose(a)[0]", "a.T.sum(axis=0)",
        f"tt.expand_dims(a, {k})", f"tt.squeeze(a, {k})", "tt.squeeze(a)", f"tt.squeeze(a, ({k}, {k2}))",
        f"tt.concat([a, b], axis={k})", f"tt.concat((a, a), axis={k})", f"tt.stack([a, b], axis={k})", f"tt.stack((a, a, a), axis={k})",
        "a[0]", "a[1:]", "a[None]", "a[..., 0]", "a[:, None]", "a[::-1]", "a[0, ..., None]", f"a[{k}]", "a[..., 1:2]",
        f"a.sum(axis={k})", f"a.mean(axis=({k}, {k2}), keepdims=True)", "a.max()", f"tt.reduce_sum(a, axis={k}, keepdims=True)",
        f"tt.reduce_any(a, axis=[{k}])", f"a.prod(axis=({k},))",
        f"tt.argmax(a, axis={k})", f"tt.argmin(a, {k}, keepdims=True)",
        f"tt.softmax(tt.cast(a, tt.float32), axis={k})", f"tt.logsumexp(tt.cast(a, tt.float32), axis={k})",
        f"tt.tile(a, ({r.randint(1, 3)}, {r.randint(1, 3)}))", "tt.broadcast_to(a, (2, 3))", "tt.broadcast_to(a, b.shape)",
        "tt.exp(a)", "-a", "abs(a)", "a.astype(tt.float64)", f"tt.take(a, tt.zeros((2, 3), tt.int64), axis={k})",
        "(a + b).sum(axis=0)", "tt.exp(a @ b)", "a.reshape((-1,))[::2]",
        # dim expressions (SPEC §9); a // the code writes is a claim, and arithmetic on an unbounded
        # TypeVar's size is refused without the plugin (static-checking.md): not drawn here
        "a[2:]", "a[::2]", "a[1::3]",
        "tt.reshape(a, (a.shape[0], -1)).reshape((-1,))", "tt.concat([a, b, a])", f"tt.tile(a, ({r.randint(1, 3)},))",
        # issue 19's shaping, encoding and creation; a split into n parts is a claim the run checks: drawn where it divides
        f"tt.swapaxes(a, {k}, {k2})", f"tt.moveaxis(a, {k}, {k2})", f"tt.moveaxis(a, ({k}, {k2}), (0, -1))", "tt.flatten(a)",
        f"tt.flatten(a, {k})", f"tt.flatten(a, {k}, {k2})", f"tt.split(a, 1, axis={k})[0]", f"tt.split(tt.concat([a, a], axis={k}), 2, axis={k})[1]",
        f"tt.split(a, (1, 1), axis={k})[0]", f"tt.split(a, ({r.randint(0, 2)}, 1, 1), axis={k})[-1]", f"tt.pad(a, {r.randint(0, 2)})",
        f"tt.pad(a, ({r.randint(0, 2)}, {r.randint(0, 2)}))", "tt.pad(a, ((1, 0), (0, 2)))", f"tt.tril(a, {k})", "tt.triu(a)",
        "tt.one_hot(tt.cast(a, tt.int64), 3)", "tt.one_hot(a, 2, tt.int8)", "tt.zeros_like(a)", "tt.full_like(a, 1, tt.int32)",
        "tt.ones_like(a)", "tt.linspace(0.0, 1.0, 4)", "tt.random.permutation(3, rng=0)", "tt.random.integers(0, 3, (2, 1), rng=0)",
        # sorting and linear algebra (tt.ones: no singular matrices for det, eigh, svd, qr, norm)
        f"tt.sort(a, axis={k})", f"tt.argsort(a, {k}, descending=True)", f"tt.top_k(a, {r.randint(0, 3)})[0]", f"tt.top_k(a, 1, axis={k})[1]",
        "tt.linalg.det(a)", "tt.linalg.eigh(a)[0]", "tt.linalg.eigh(a)[1]", "tt.linalg.svd(a)[0]", "tt.linalg.svd(a, full_matrices=True)[2]",
        "tt.linalg.qr(a)[1]", f"tt.linalg.norm(a, axis={k})", "tt.linalg.norm(a)", "tt.linalg.svd(a @ b)[1]",
        'tt.einsum("ij,jk->ik", a, b)', 'tt.einsum("...i,...i", a, b)', 'tt.einsum("i...->...i", a)', 'tt.einsum("ij->ji", a)',
        'tt.einsum("ii->i", a)', 'tt.einsum("ijk,ik", a, b)', 'tt.einsum("ij,kj", a, b)',
        # the layers, on [N, C, H, W] made by adding leading dims; windows of 1, which fit every size
        # (a window larger than a named dim is a claim the run checks, as a ``//`` is: not drawn)
        f"tt.max_pool2d(tt.cast(a, tt.float32)[None, None], 1, {r.randint(1, 3)})",
        f"tt.avg_pool2d(tt.cast(a, tt.float32)[None, None], (1, 1), ({r.randint(1, 2)}, 1))",
        f"tt.conv2d(tt.cast(a, tt.float32)[None], tt.ones((2, 1, 1, 1)), stride={r.randint(1, 2)}, padding={r.randint(0, 1)})",
        "tt.conv2d(tt.cast(a, tt.float32)[None], tt.cast(b, tt.float32)[None, :, :1, :1])",
        f"tt.layer_norm(tt.cast(a, tt.float32), axis={k})",
        # statistics, scans and updates (a bool value fits every dtype)
        f"tt.var(a, axis={k})", f"a.std(axis=({k}, {k2}), keepdims=True, ddof=1)", f"tt.nansum(a, axis=[{k}])", f"tt.nanmax(a, {k})",
        "tt.nanmean(a)", f"tt.cumsum(a, {k})", f"tt.cumprod(a, axis={k})",
        "a.at[0].set(True)", "a.at[..., 1:].add(True)", "tt.cumsum(a @ b, -1)",
        "tt.erf(a)", "tt.gelu(a, approximate=True)", "tt.isnan(a)", "tt.softplus(a)", "tt.clip(a, b, None)", "tt.clip(a, 0, 1.5)", "tt.clip(a, None, b)",
    ]


def _dim(r: random.Random) -> str:
    roll = r.random()
    if roll < 0.45:
        return f"L[{r.choice([1, 1, 2, 3, 4])}]"
    return r.choice(NAMED) if roll < 0.8 else "int" if roll < 0.9 else "Any"


def _dims(r: random.Random, most: int) -> list[str]:
    dims = [_dim(r) for _ in range(r.randint(0, most))]
    if r.random() < 0.3:
        dims.insert(r.randint(0, len(dims)), r.choice(["*Ts", UNKNOWN_RUN]))
    return dims


def _like(r: random.Random, dims: list[str]) -> list[str]:
    """The dims of an operand that broadcasts with ``dims`` most of the time."""
    other = [d if d.startswith("*") or r.random() < 0.5 else "L[1]" if r.random() < 0.4 else _dim(r) for d in dims]
    return other[r.randint(0, len(other)) if r.random() < 0.4 else 0 :]


@dataclass(frozen=True)
class Run:
    """One run of a case: the sizes it bound, and the result's dtype and shape."""

    sizes: dict[str, object]
    dtype: str
    shape: tuple[int, ...]


@dataclass(frozen=True)
class Case:
    a: tuple[str, tuple[str, ...]]  # dtype, dims
    b: tuple[str, tuple[str, ...]]
    call: str
    runs: tuple[Run, ...]
    fails: bool  # some binding of the named dims failed in every draw, not by an index out of range

    @property
    def certain(self) -> bool:
        """Whether every dim is literal or named: each binding then either runs or fails."""
        return not any(_drawn(dim) for dim in (*self.a[1], *self.b[1]))

    def errors_allowed(self) -> range:
        """How many errors the plugin may report: none on a call that runs for every binding of
        its named dims, one on a call that fails for some (at most one if other dims decide it)."""
        if not self.fails:
            return range(1)
        return range(1, 2) if self.certain else range(2)

    def source(self, index: int) -> str:
        return f"def case{index}(a: {annotation(*self.a)}, b: {annotation(*self.b)}) -> None:\n    reveal_type({self.call})\n"


def annotation(dtype: str, dims: Sequence[str]) -> str:
    return f"Tensor[tt.{dtype}{''.join(', ' + dim for dim in dims)}]"


def _concrete(r: random.Random, dims: Sequence[str], sizes: dict[str, object]) -> tuple[int, ...]:
    shape: list[int] = []
    for dim in dims:
        if literal := re.fullmatch(r"L\[(\d+)\]", dim):
            shape.append(int(literal[1]))
        elif dim == "*Ts":
            shape += sizes["*Ts"]  # type: ignore[arg-type]
        elif dim == UNKNOWN_RUN:
            shape += [r.randint(1, 3) for _ in range(r.randint(0, 2))]
        else:
            shape.append(sizes[dim] if dim in NAMED else r.randint(1, 3))  # type: ignore[arg-type]
    return tuple(shape)


def _drawn(dim: str) -> bool:
    """Whether a run draws the dim's size anew (it is neither literal nor named)."""
    return dim in ("int", "Any", "*Ts", UNKNOWN_RUN)


def runs(r: random.Random, a: tuple[str, tuple[str, ...]], b: tuple[str, tuple[str, ...]], call: str) -> tuple[tuple[Run, ...], bool]:
    """The call's results under every binding of its named dims, where it ran, and whether some
    binding failed in every draw of the other dims, at least once not by an index out of range
    (``tt.squeeze(a, (2, 0))`` on ``[Batch, L[1], *Ts]`` with Batch 2: out of range where Ts is
    empty, a dim of 2 squeezed where it is not: no draw runs)."""
    named = sorted({dim for dim in (*a[1], *b[1]) if dim in NAMED})
    draws = DRAWS if any(_drawn(dim) for dim in (*a[1], *b[1])) else 1
    results, fails = [], False
    for values in itertools.product(NAMED_SIZES, repeat=len(named)):
        outcomes = set()
        for _ in range(draws):
            sizes: dict[str, object] = dict(zip(named, values))
            sizes["*Ts"] = [r.randint(1, 3) for _ in range(r.randint(0, 2))]
            tensors = {name: tt.ones(_concrete(r, dims, sizes), getattr(tt, dtype)) for name, (dtype, dims) in (("a", a), ("b", b))}
            try:
                with np.errstate(all="ignore"), warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    result = eval(call, {"tt": tt, **tensors})  # our own generated source
            except IndexError:  # also numpy's AxisError: an index or axis out of range
                outcomes.add("index")
                continue
            except (tt.TypedTensorError, TypeError, ValueError):
                outcomes.add("error")
                continue
            outcomes.add("ran")
            results.append(Run(sizes, result.dtype.__name__, result.shape))
        fails = fails or ("error" in outcomes and "ran" not in outcomes)
    return tuple(results), fails


def new_case(r: random.Random) -> Case:
    """A call that ran under at least one binding."""
    while True:
        a = (r.choice(DTYPES), tuple(_dims(r, 3)))
        b = (r.choice(DTYPES), tuple(_like(r, list(a[1])) if r.random() < 0.8 else _dims(r, 3)))
        if r.random() < 0.3:  # operands that matmul
            inner = r.choice(["L[3]", "Batch", "N", "int"])
            a = (a[0], (*_dims(r, 2), inner))
            b = (b[0], (inner, _dim(r)) if r.random() < 0.7 else (inner,))
        call = r.choice(_calls(r))
        if "a.shape[" in call and "*Ts" in a[1]:
            continue  # mypy itself: "Tuple index out of range" on ``tuple[*Ts][0]`` (see the docs)
        found, fails = runs(r, a, b, call)
        if found:
            return Case(a, b, call, found, fails)


# --- reading revealed types ----------------------------------------------------------------


def normal(revealed: str) -> str:
    """A type as every checker writes it: no module prefixes or TypeVar scopes, ``Any`` for ``Unknown``."""
    revealed = re.sub(r"`-?\d+|@\w+|\?", "", revealed)
    return re.sub(r"\bUnknown\b", "Any", re.sub(r"\b[\w.]+\.(\w+)", r"\1", revealed))


def split(text: str, separator: str) -> list[str]:
    """``text`` split at ``separator`` outside brackets."""
    items, depth, start = [], 0, 0
    for index, char in enumerate(text):
        depth += {"[": 1, "]": -1}.get(char, 0)
        if depth == 0 and text.startswith(separator, index) and index >= start:
            items.append(text[start:index].strip())
            start = index + len(separator)
    return [*items, text[start:].strip()]


#: The dim expressions (SPEC §9) as the run checks them: a ``Div`` divides exactly; a slice's
#: ``N-3`` is clamped at 0, as the run does.
_OPERATIONS = {"Add": int.__add__, "Sub": int.__sub__, "Mul": int.__mul__, "Div": int.__floordiv__}


def expression_size(dim: str, sizes: dict[str, object]) -> int | None:
    """The size of a literal, a named dim or an expression of them; None for any other dim and
    for a ``Div`` that does not divide exactly (the run's check would fail)."""
    if literal := re.fullmatch(r"Literal\[(-?\d+)\]", dim):
        return int(literal[1])
    if dim in NAMED:
        return sizes[dim]  # type: ignore[return-value]
    operation = re.fullmatch(r"(Add|Sub|Mul|Div)\[(.*)\]", dim)
    if operation is None:
        return None
    left, right = (expression_size(part, sizes) for part in split(operation[2], ","))
    if left is None or right is None or (operation[1] == "Div" and (right == 0 or left % right)):
        return None
    return _OPERATIONS[operation[1]](left, right)


def dim_holds(dim: str, size: int, sizes: dict[str, object]) -> bool:
    if literal := re.fullmatch(r"Literal\[(.*)\]", dim):
        return size in {int(value) for value in literal[1].split(",")}
    if dim in NAMED:
        return sizes[dim] == size
    if (computed := expression_size(dim, sizes)) is not None:
        return max(computed, 0) == size
    if "|" in dim:
        return any(dim_holds(item, size, sizes) for item in split(dim, "|"))
    return dim in ("Any", "int", "object", "Dim")  # say nothing of the size: never wrong


def dims_hold(dims: Sequence[str], shape: tuple[int, ...], sizes: dict[str, object]) -> bool:
    """Whether ``shape`` is a shape of ``dims``."""
    if not dims:
        return not shape
    first, rest = dims[0], dims[1:]
    if first == "*Ts":
        bound = tuple(sizes["*Ts"])  # type: ignore[call-overload]
        return shape[: len(bound)] == bound and dims_hold(rest, shape[len(bound) :], sizes)
    if run := re.fullmatch(r"\*tuple\[(.*), \.\.\.\]", first):
        return any(
            all(dim_holds(run[1], size, sizes) for size in shape[:count]) and dims_hold(rest, shape[count:], sizes)
            for count in range(len(shape) + 1)
        )
    return bool(shape) and dim_holds(first, shape[0], sizes) and dims_hold(rest, shape[1:], sizes)


def dtype_holds(dtype: str, runtime: str) -> bool:
    if dtype == "Any" or re.fullmatch(r"\w+T", dtype):
        return True
    return any(runtime in members(item) for item in split(dtype, "|"))


def holds(revealed: str, run: Run) -> bool:
    """Whether the revealed type (a union: one of its members) holds for what the run gave."""
    typ = normal(revealed)
    if typ == "Any":
        return True
    for member in split(typ, " | ") if not typ.startswith("Tensor[") else [typ]:
        if member.startswith("Tensor[") and member.endswith("]"):
            dtype, *dims = split(member[len("Tensor[") : -1], ",")
            if dtype_holds(dtype, run.dtype) and dims_hold(dims, run.shape, run.sizes):
                return True
    return False


# --- the checkers --------------------------------------------------------------------------

#: What a checker said on each line: its errors and its revealed types.
Said = dict[int, tuple[list[str], list[str]]]


def mypy_said(run: MypyRun, path: Path) -> Said:
    assert_no_crash(run)
    said: Said = {}
    for message in run.about(path):
        errors, revealed = said.setdefault(message.line, ([], []))
        if message.severity == "error":
            errors.append(message.text)
        else:
            revealed.append(message.text.removeprefix('Revealed type is "').removesuffix('"'))
    return said


def pyright_said(path: Path) -> Said:
    command = [sys.executable, "-m", "pyright", "--outputjson", str(path)]
    report = json.loads(subprocess.run(command, cwd=PROJECT, capture_output=True, text=True, timeout=600).stdout)
    said: Said = {}
    for diagnostic in report["generalDiagnostics"]:
        errors, revealed = said.setdefault(diagnostic["range"]["start"]["line"] + 1, ([], []))
        if diagnostic["severity"] == "information":
            revealed.append(re.sub(r'^Type of ".*" is "(.*)"$', r"\1", diagnostic["message"], flags=re.DOTALL))
        else:
            errors.append(diagnostic["message"])
    return said


def declared_must_hold(checker: str, call: Case) -> bool:
    """Whether the declared types must hold for this case: all but the gaps the docs name.

    - pyright matches a ``*Ts`` against one dim of a fixed-rank overload (``Union[*Ts]``), in
      ``.T``, the reductions, indexing and the joins;
    - a run of unknown dims matches a fixed-rank overload's dims in indexing (both checkers) and,
      under pyright, the same-shape overloads of the elementwise functions and ``broadcast_to``;
    - under pyright an ``Any`` dim of one operand of a same-shape overload takes the other's dim.
    """
    dims = call.a[1] + call.b[1]
    transposes = call.call in ("tt.transpose(a)", "a.T")
    if checker == "pyright" and "*Ts" in dims and not (transposes and "tt." in call.call):
        return False
    if UNKNOWN_RUN in dims or "*Ts" in dims:
        return transposes
    return not (checker == "pyright" and "Any" in dims)


CHECKERS = ("plugin", "mypy", "pyright")


# No shrinking: each step runs three checkers, and the failing call is named in the assertion.
@settings(max_examples=4, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(st.integers(0, 2**32))
@example(1047)  # a binding that fails by an index out of range in some draws, by its shape in the others
def test_no_checker_is_wrong_about_a_call_that_runs(mypy_runner: Mypy, tmp_path_factory: pytest.TempPathFactory, seed: int) -> None:
    # One seed writes a module: drawing each choice from hypothesis makes its inputs too large to shrink anyway.
    r = random.Random(seed)
    batch = [new_case(r) for _ in range(CASES_PER_MODULE)]
    tmp = tmp_path_factory.mktemp("symbolic")
    path = tmp / f"symbolic_{next(_modules)}.py"
    path.write_text(HEAD + "".join(one.source(index) for index, one in enumerate(batch)))
    plain = tmp / "plain.ini"
    plain.write_text("[mypy]\nstrict = True\n")
    said = {
        "plugin": mypy_said(mypy_runner.run([path]), path),
        "mypy": mypy_said(Mypy(tmp / "cache", plain).run([path]), path),
        "pyright": pyright_said(path),
    }
    head_lines = HEAD.count("\n")
    wrong = []
    for checker in CHECKERS:
        assert set(said[checker]) == {head_lines + 2 * index + 2 for index in range(len(batch))}, (checker, said[checker])
        for index, one in enumerate(batch):
            errors, revealed = said[checker][head_lines + 2 * index + 2]
            if checker != "plugin" and not declared_must_hold(checker, one):
                continue
            allowed = one.errors_allowed() if checker == "plugin" else range(1)
            if len(errors) not in allowed or len(revealed) != 1 or not all(holds(revealed[0], run) for run in one.runs):
                wrong.append((checker, one.source(index), errors, revealed, one.fails, one.runs[:3]))
    assert wrong == []
