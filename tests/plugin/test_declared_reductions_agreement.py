"""Generated programs: what pyright and plain mypy (no plugin) say of a reduction is never wrong.

Hypothesis writes a module of reductions (every op, method or function; the statistics ``var`` ...
``nanmin`` too, which have the reductions' generated overloads) of tensors of random
rank 1-6, literal dims and dtype, along random axes (None, one axis of either sign, pairs, three
axes, Selection strings) with or without keepdims, each in ``reveal_type``. Each call is run
while the module is written; then pyright and plain mypy check it once each. Every revealed
type must hold for what the call gave at run time: its dtype the runtime's (or a category that
holds it, or Any), each literal dim the runtime's at that place, its rank the runtime's unless
some dims are unknown (``*tuple[Any, ...]``, or the whole type Any). And the calls the generated
overloads cover (see ``docs/static-checking.md``) must be exact.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from pathlib import Path

from hypothesis import HealthCheck, Phase, given, settings, strategies as st

import typedtensor as tt
from tests.support.mypy_helpers import AGREEMENT_HEAD, mypy_revealed, pyright_revealed
from typedtensor._shape_rules import DEVIATION_OPS, REDUCTION_OPS, STATISTIC_OPS
from typedtensor._shape_rules.dtypes import members

DTYPES = ("bool_", "int8", "int32", "int64", "uint8", "uint64", "float16", "float32", "float64", "complex64")
FLOATS = ("float16", "float32", "float64", "complex64")
_modules = itertools.count()


@dataclass(frozen=True)
class Call:
    """One reduction call: its source, what it gave at run time, and whether it must be exact."""

    source: str
    dtype: str
    shape: tuple[int, ...]
    covered: bool


@st.composite
def calls(draw: st.DrawFn) -> tuple[str, Call]:
    """A receiver's declaration and a reduction of it."""
    rank = draw(st.integers(1, 6))
    shape = tuple(draw(st.lists(st.integers(1, 4), min_size=rank, max_size=rank)))
    dtype = draw(st.sampled_from(DTYPES))
    op = draw(st.sampled_from((*REDUCTION_OPS, *STATISTIC_OPS)))  # the statistics have the reductions' overloads
    function = op if op in STATISTIC_OPS else f"reduce_{op}"
    kind = draw(st.sampled_from(("none", "one", "pair", "three", "selection")))
    dims = list(range(rank))
    signed = st.booleans()
    axis: object
    if kind == "none":
        axis, reduced = None, dims
    elif kind == "selection":
        reduced = sorted(draw(st.sets(st.sampled_from(dims))))
        axis = "".join("^" if dim in reduced else "v" for dim in dims)
    else:
        count = {"one": 1, "pair": 2, "three": 3}[kind]
        picked = draw(st.permutations(dims))[: min(count, rank)]
        reduced = sorted(picked)
        axes = tuple(dim - rank if draw(signed) else dim for dim in picked)
        axis = axes[0] if kind == "one" else axes
    keepdims = draw(st.sampled_from((None, False, True)))
    arguments = [] if axis is None and keepdims is None else [f"axis={axis!r}".replace("'", '"')]
    if keepdims is not None:
        arguments.append(f"keepdims={keepdims}")
    receiver = f"Tensor[tt.{dtype}{''.join(f', L[{size}]' for size in shape)}]"
    method = op not in STATISTIC_OPS or op in DEVIATION_OPS
    source = f"x.{op}({', '.join(arguments)})" if method and draw(st.booleans()) else f"tt.{function}({', '.join(['x', *arguments])})"
    result = getattr(tt, function)(tt.ones(shape, getattr(tt, dtype)), axis=axis, keepdims=bool(keepdims))
    # the overloads' first dtype case, which gets every shape form: floats (var: real floats), every dtype for max and min
    exact_dtype = op in ("max", "min", "any", "all", "nanmax", "nanmin") or dtype in (FLOATS[:3] if op in DEVIATION_OPS else FLOATS)
    shape_form = (
        (kind == "one")
        or (kind == "none" and bool(keepdims))
        or (kind == "pair" and 2 <= rank <= 4)
        or (kind == "selection" and rank <= 4 and 1 <= len(reduced) <= 2)
        or (kind == "selection" and rank <= 4 and len(reduced) == rank and bool(keepdims))
    )
    covered = (kind == "none" and not keepdims) or (exact_dtype and shape_form)
    return receiver, Call(source, result.dtype.__name__, result.shape, covered)


def write_module(path: Path, drawn: list[tuple[str, Call]]) -> dict[int, Call]:
    """The module, one function per call (its receiver a parameter); the line of each reveal_type."""
    lines = AGREEMENT_HEAD.splitlines()
    expected = {}
    for index, (receiver, call) in enumerate(drawn):
        lines += [f"def case{index}(x: {receiver}) -> None:", f"    reveal_type({call.source})"]
        expected[len(lines)] = call
    path.write_text("\n".join(lines) + "\n")
    return expected


#: A revealed tensor type, as either checker prints it (mypy with module prefixes).
_TENSOR = re.compile(r"^(?:typedtensor\._tensor\.)?Tensor\[(?P<args>.*)\]$")


def holds(revealed: str, call: Call) -> bool:
    """Whether the revealed type says nothing the runtime result contradicts."""
    if revealed == "Any":
        return True
    match = _TENSOR.match(revealed)
    assert match is not None, revealed
    dtype, *dims = [arg.strip().removeprefix("typedtensor._dtypes.") for arg in match["args"].split(",")]
    if dtype != "Any" and call.dtype not in members(dtype):
        return False
    if "*tuple[Any" in dims:
        run = dims.index("*tuple[Any")  # "*tuple[Any, ...]" split at its comma: the run is two items
        before, after = dims[:run], dims[run + 2 :]
        return len(before) + len(after) <= len(call.shape) and all(
            fits(dim, size) for dim, size in [*zip(before, call.shape), *zip(reversed(after), reversed(call.shape))]
        )
    return len(dims) == len(call.shape) and all(fits(dim, size) for dim, size in zip(dims, call.shape))


def fits(dim: str, size: int) -> bool:
    return dim == "Any" or dim == f"Literal[{size}]"


def exact(revealed: str, call: Call) -> bool:
    dims = "".join(f", Literal[{size}]" for size in call.shape)
    return revealed.replace("typedtensor._tensor.", "").replace("typedtensor._dtypes.", "") == f"Tensor[{call.dtype}{dims}]"


@settings(max_examples=3, deadline=None, phases=[Phase.explicit, Phase.generate], suppress_health_check=[HealthCheck.too_slow])
@given(drawn=st.lists(calls(), min_size=60, max_size=60))
def test_declared_reductions_are_never_wrong(tmp_path_factory: object, drawn: list[tuple[str, Call]]) -> None:
    tmp = tmp_path_factory.mktemp("declared")  # type: ignore[attr-defined]
    path = tmp / f"declared_reductions_{next(_modules)}.py"
    expected = write_module(path, drawn)
    for checker, revealed in (("pyright", pyright_revealed(path)), ("mypy", mypy_revealed(path, tmp))):
        assert sorted(revealed) == sorted(expected), checker
        for line, call in expected.items():
            assert holds(revealed[line], call), (checker, call, revealed[line])
            if call.covered:
                assert exact(revealed[line], call), (checker, call, revealed[line])
