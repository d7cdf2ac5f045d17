"""Where pyright's time on the examples goes: its own start-up, numpy's stubs, typedtensor, scikit-learn.

pyright reads a module only when the code it checks uses a name from it, so a ladder of programs,
each using one thing more than the one before, splits its time on ``examples/``:

1. ``x = 1``: pyright's start-up, builtins and typing, which every run pays;
2. a numpy call: numpy's stubs;
3. ``tt.zeros``: typedtensor's ``Tensor`` (all of ``_tensor.py``: the operators' and the reductions'
   overloads) and its dtypes;
4. a reduction, ``x.sum(axis=0)``: one reduction's overloads built and tried;
5. one call of each op the examples use: the rest of typedtensor they need;
6. ``examples/`` with scikit-learn as unknown types (``useLibraryCodeForTypes`` off, as mypy treats
   it): the examples' own code, their many calls of those ops and of numpy;
7. ``examples/`` as ``checker_time.py`` checks them: pyright also infers the types of
   scikit-learn's untyped ``load_digits`` from its source.

Each step runs as ``checker_time.py`` runs pyright (the interpreter's environment, the project's
pyright settings), steps alternating within each round; each figure is the median of the rounds in
CPU seconds (pyright's node process works on more than one thread, so on an idle machine its wall
time is lower), and the increment over the step before.

    python benchmarks/pyright_breakdown.py [--rounds N]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import tomllib
from pathlib import Path
from typing import Final

from checker_time import NUMPY_EXAMPLES, PROJECT, pyright_command, seconds

NUMPY: Final = "import numpy as np\n\nnp.zeros(3).sum()\n"
TENSOR: Final = NUMPY + "\nimport typedtensor as tt\n\nx = tt.zeros((3, 4), tt.float32)\n"
REDUCTION: Final = TENSOR + "x.sum(axis=0)\n"
#: One call of each op the examples call, each from its module (the reduction functions, the
#: elementwise functions and operators, the axis ops, shaping, creation, random, the checks).
OPS: Final = REDUCTION + """tt.reduce_sum(x, axis=0)
tt.relu(x @ x.T + x.sum(axis=1))
tt.softmax(x, axis=-1)
tt.take(tt.eye(3, dtype=tt.float32), tt.argmax(x, axis=1), axis=0)
tt.where(x > 0, tt.log(x), 0.0)
tt.squeeze(tt.ones((1, 3)), axis=0)
tt.check(tt.tensor([1.0]), tt.Tensor[tt.float32, int])
tt.random.normal((3,), tt.float32, 0)
tt.shapechecked(lambda: None)
"""
PROGRAMS: Final = {
    "pyright alone": "x = 1\n",
    "+ numpy": NUMPY,
    "+ a Tensor": TENSOR,
    "+ a reduction": REDUCTION,
    "+ each op the examples use, once": OPS,
}


def config(root: Path, **settings: object) -> Path:
    """A pyright config directory: the project's ``[tool.pyright]`` settings with ``settings``."""
    project = tomllib.loads((PROJECT / "pyproject.toml").read_text())["tool"]["pyright"]
    root.mkdir()
    (root / "pyrightconfig.json").write_text(json.dumps({**project, "extraPaths": [str(PROJECT)], **settings}))
    return root


def steps(root: Path) -> dict[str, list[str]]:
    """Each step's pyright command, in ladder order."""
    project, untyped_unknown = config(root / "project"), config(root / "untyped-unknown", useLibraryCodeForTypes=False)
    commands: dict[str, list[str]] = {}
    for name, program in PROGRAMS.items():
        path = root / f"step{len(commands)}.py"
        path.write_text(program)
        commands[name] = ["-p", str(project), str(path)]
    examples = list(map(str, NUMPY_EXAMPLES))
    commands["+ the examples, scikit-learn unknown"] = ["-p", str(untyped_unknown), *examples]
    commands["+ scikit-learn's inferred types"] = ["-p", str(project), *examples]
    return {name: pyright_command([]) + arguments for name, arguments in commands.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    with tempfile.TemporaryDirectory() as tmp:
        commands = steps(Path(tmp))
        seconds(commands["pyright alone"])  # the first run may unpack node
        times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for _ in range(rounds):
            for name, command in commands.items():
                times[name].append(seconds(command))
    print(f"pyright on the examples, step by step; median of {rounds} rounds; load average {os.getloadavg()[0]:.2f}\n")
    print(f"{'step':<40}{'CPU s':>8}{'increment':>11}{'wall s':>8}")
    previous = 0.0
    for name, values in times.items():
        cpu, wall = statistics.median(c for _, c in values), statistics.median(w for w, _ in values)
        print(f"{name:<40}{cpu:>8.2f}{cpu - previous:>+11.2f}{wall:>8.2f}")
        previous = cpu


if __name__ == "__main__":
    main()
