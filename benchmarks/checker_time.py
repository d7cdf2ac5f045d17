"""How long the type checkers take on typedtensor code: pyright, and mypy without and with the plugin.

Two targets: the examples (``examples/``, what SPEC §8's bars are about: pyright under 2 s, the
plugin at most 20 % on mypy's time) and the static-typing cases (``tests/plugin/cases`` and
``tests/plugin/declared``: every reduction form, dtype and error the tests check). The case files
are written for the plugin, so mypy without it reports errors there; that is timed all the same.

- pyright keeps no cache between runs: each run is a whole check. It analyses the environment of
  the interpreter running this script (``--pythonpath``), as mypy does: without that it takes the
  first ``python`` on PATH, which may lack scikit-learn (the examples' data) and so skip reading it.
  pyright-python's check for a newer release (a request to PyPI on every run) is turned off.
- mypy "cold" runs without a cache (``--cache-dir=/dev/null``): numpy's stubs, typedtensor and
  the target are all analysed. "warm" is a second run with nothing changed, from a cache warmed
  once per configuration.

typedtensor is found from the working directory (the project root), as user code finds an
installed library, and its own modules are analysed but not reported (``follow_imports = silent``).
Configurations alternate within each round, so load from other processes hits them alike; each
figure is the median of the rounds, measured in this one run. Other load on the machine inflates
wall times (the header prints the load average); the CPU time the checker's processes used
(user + system) is printed too, as it depends much less on that load.

    python benchmarks/checker_time.py [--rounds N]
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Final

PROJECT: Final = Path(__file__).resolve().parents[1]


def _case_files() -> list[Path]:
    """The case and declared files, less those that switch a plugin's error code on for themselves
    (``# mypy: enable-error-code=...``): mypy without the plugin stops at a code it does not know."""
    plugin_tests = PROJECT / "tests" / "plugin"
    files = sorted([*(plugin_tests / "cases").glob("*.py"), *(plugin_tests / "declared").glob("*.py")])
    return [path for path in files if not path.read_text().startswith("# mypy: enable-error-code")]


#: The examples on numpy: those on torch (``*_torch.py``) make the checkers read torch's own
#: annotations too (pyright +1.4 s), a cost of torch's, not of typedtensor's, which the bars are about.
NUMPY_EXAMPLES: Final = sorted(path for path in (PROJECT / "examples").glob("*.py") if not path.stem.endswith("_torch"))
TARGETS: Final = {"examples": NUMPY_EXAMPLES, "typing cases": _case_files()}
#: pyright-python asks PyPI for its latest release on every run unless told not to.
ENVIRONMENT: Final = {**os.environ, "PYRIGHT_PYTHON_IGNORE_WARNINGS": "1"}
PYRIGHT_BAR_SECONDS: Final = 2.0
PLUGIN_BAR_RATIO: Final = 1.20


def seconds(command: Sequence[str]) -> tuple[float, float]:
    """Wall and CPU time of one checker process (and its children, such as pyright's node).

    A crash, unlike a report of errors, stops the benchmark.
    """
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    result = subprocess.run(command, cwd=PROJECT, capture_output=True, text=True, env=ENVIRONMENT)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if result.returncode not in (0, 1) or "Traceback" in result.stdout + result.stderr:
        raise RuntimeError(f"{' '.join(command)} failed:\n{result.stdout}{result.stderr}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def mypy_command(config: Path, cache: Path | None, paths: Sequence[Path]) -> list[str]:
    cache_flag = f"--cache-dir={cache}" if cache is not None else "--cache-dir=/dev/null"
    return [sys.executable, "-m", "mypy", f"--config-file={config}", cache_flag, *map(str, paths)]


def pyright_command(paths: Sequence[Path]) -> list[str]:
    pyright = shutil.which("pyright") or str(Path(sys.executable).parent / "pyright")
    return [pyright, "--pythonpath", sys.executable, *map(str, paths)]


def mypy_config(path: Path, *, plugin: bool) -> Path:
    plugins = "plugins = typing_plugins.mypy_plugin\n" if plugin else ""
    path.write_text(f"[mypy]\nstrict = True\n{plugins}[mypy-typedtensor.*]\nfollow_imports = silent\n")
    return path


def measure(paths: Sequence[Path], root: Path, rounds: int) -> dict[str, tuple[float, float]]:
    """Median wall and CPU seconds of each checker configuration on ``paths``."""
    configs = {"mypy": mypy_config(root / "plain.ini", plugin=False), "mypy+plugin": mypy_config(root / "plugin.ini", plugin=True)}
    commands = {"pyright": pyright_command(paths)}
    for name, config in configs.items():
        commands[f"{name} cold"] = mypy_command(config, None, paths)
        cache = root / f"cache-{name}"
        seconds(mypy_command(config, cache, paths))  # warm the cache
        commands[f"{name} warm"] = mypy_command(config, cache, paths)
    seconds(commands["pyright"])  # the first pyright run may fetch or unpack node
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(rounds):
        for name, command in commands.items():
            times[name].append(seconds(command))
    return {
        name: (statistics.median(wall for wall, _ in values), statistics.median(cpu for _, cpu in values))
        for name, values in times.items()
    }


def version(command: Sequence[str]) -> str:
    return subprocess.run(command, capture_output=True, text=True, env=ENVIRONMENT).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    mypy_version = version([sys.executable, "-m", "mypy", "--version"])
    pyright_version = version([pyright_command([])[0], "--version"])
    print(f"{mypy_version}; {pyright_version}; median of {rounds} rounds; load average {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        results = {}
        for target, paths in TARGETS.items():
            root = Path(tmp) / target.replace(" ", "-")
            root.mkdir()
            results[target] = measure(paths, root, rounds)
    for index, kind in enumerate(("wall", "CPU")):
        print_table(kind, {target: {name: pair[index] for name, pair in result.items()} for target, result in results.items()})
    print_bars({name: wall for name, (wall, _) in results["examples"].items()})


def print_table(kind: str, results: dict[str, dict[str, float]]) -> None:
    columns = ("pyright", "mypy cold", "mypy+plugin cold", "mypy warm", "mypy+plugin warm")
    print(f"\n{kind} seconds")
    print(f"{'target':<14}" + "".join(f"{column:>18}" for column in columns) + f"{'plugin/plain':>15}")
    for target, result in results.items():
        ratios = f"{result['mypy+plugin cold'] / result['mypy cold']:.2f} / {result['mypy+plugin warm'] / result['mypy warm']:.2f}"
        print(f"{target:<14}" + "".join(f"{result[column]:>18.2f}" for column in columns) + f"{ratios:>15}")


def print_bars(examples: dict[str, float]) -> None:
    print("\nplugin/plain is cold / warm. Bars on the examples, wall time (SPEC §8):")
    print(f"  pyright {examples['pyright']:.2f} s (bar: under {PYRIGHT_BAR_SECONDS:.0f} s): "
          f"{'ok' if examples['pyright'] < PYRIGHT_BAR_SECONDS else 'OVER'}")
    for kind in ("cold", "warm"):
        ratio = examples[f"mypy+plugin {kind}"] / examples[f"mypy {kind}"]
        print(f"  the plugin on mypy, {kind}: x{ratio:.2f} (bar: at most x{PLUGIN_BAR_RATIO:.2f}): "
              f"{'ok' if ratio <= PLUGIN_BAR_RATIO else 'OVER'}")


if __name__ == "__main__":
    main()
