"""mypy's time with and without the typedtensor plugin on a generated module of reductions.

SPEC §8: the plugin may add at most 20% to mypy's time. The module (about 2,000 lines) holds
tensors of literal shapes and every kind of reduction call. Each configuration gets its own
cache, warmed first (numpy's stubs, typedtensor), so the timed runs measure what a developer
re-running mypy pays: the generated module checked again, typedtensor and numpy from the cache.
A cold run without any cache is timed too. Importing the typedtensor package (numpy, jaxtyping)
would cost about 0.1 s, most of a re-check, so the plugin loads only the pure-Python shape rules;
both import costs are printed.

Run: python benchmarks/mypy_overhead.py
"""

from __future__ import annotations

import itertools
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Final

from typedtensor._shape_rules import REDUCTION_OPS

PROJECT: Final = Path(__file__).resolve().parents[1]
LINES: Final = 2000
REPEATS: Final = 7

_SHAPES: Final = ((32, 256, 5, 128), (8, 16), (4, 3, 2), (7,), (2, 2, 2, 2, 2))
_AXES: Final = ("", "axis=0", "axis=-1", "axis=(0, -1)", "axis=[1, 0]", "keepdims=True", "axis=()")


def generated_module(lines: int = LINES) -> str:
    """Reductions over tensors of literal shapes, as functions and methods, with every axis form."""
    out = ["from typing import Literal as L", "import typedtensor as tt", "from typedtensor import Tensor, float32", ""]
    for index, shape in enumerate(_SHAPES):
        dims = ", ".join(f"L[{size}]" for size in shape)
        out.append(f"x{index}: Tensor[float32, {dims}] = tt.zeros({shape}, tt.float32)")
    calls = itertools.cycle(itertools.product(range(len(_SHAPES)), REDUCTION_OPS, _AXES, (True, False)))
    for line, (index, op, axis, method) in zip(range(lines - len(out)), calls):
        if len(_SHAPES[index]) < 2 and "1" in axis:
            axis = "axis=0"
        call = f"x{index}.{op}({axis})" if method else f"tt.reduce_{op}(x{index}{', ' if axis else ''}{axis})"
        out.append(f"r{line} = {call}")
    return "\n".join(out) + "\n"


def mypy_seconds(module: Path, config: Path, cache: Path | None) -> float:
    """Wall time of one mypy process checking ``module`` (startup and the plugin's imports included)."""
    cache_args = [f"--cache-dir={cache}"] if cache else ["--cache-dir=/dev/null"]
    command = [sys.executable, "-m", "mypy", f"--config-file={config}", *cache_args, str(module)]
    start = time.perf_counter()
    result = subprocess.run(command, cwd=PROJECT, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if result.returncode not in (0, 1) or "error" in result.stdout:
        raise RuntimeError(f"mypy failed:\n{result.stdout}{result.stderr}")
    return seconds


def import_seconds(module: str, already_imported: str = "sys") -> float:
    """Time to import ``module`` in a fresh interpreter where ``already_imported`` is loaded."""
    def run(code: str) -> float:
        start = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], cwd=PROJECT, check=True)
        return time.perf_counter() - start

    baseline = min(run(f"import {already_imported}") for _ in range(REPEATS))
    return min(run(f"import {already_imported}, {module}") for _ in range(REPEATS)) - baseline


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        module = root / "reductions_bench.py"
        module.write_text(generated_module())
        configs = {
            "without": _config(root / "without.ini", plugin=False),
            "with": _config(root / "with.ini", plugin=True),
        }
        cold = {name: mypy_seconds(module, config, None) for name, config in configs.items()}
        warm: dict[str, list[float]] = {name: [] for name in configs}
        for name, config in configs.items():
            mypy_seconds(module, config, root / f"cache-{name}")  # warm the dependencies
        for repeat in range(REPEATS):
            # Edit the module so that it is checked again; alternate so drift hits both alike.
            module.write_text(generated_module() + f"# edit {repeat}\n")
            for name, config in configs.items():
                warm[name].append(mypy_seconds(module, config, root / f"cache-{name}"))
    lines = len(generated_module().splitlines())
    best = {name: min(times) for name, times in warm.items()}
    print(f"mypy {_mypy_version()} on a generated module of {lines} lines of reductions")
    print(f"  re-check, dependencies cached: without plugin {best['without']:.2f} s, with {best['with']:.2f} s, "
          f"ratio {best['with'] / best['without']:.2f} (bar: <= 1.20)")
    print(f"  cold, no cache:                without plugin {cold['without']:.2f} s, with {cold['with']:.2f} s, "
          f"ratio {cold['with'] / cold['without']:.2f}")
    # The plugin loads the shape rules without the typedtensor package, which imports numpy.
    mypy_modules = "mypy.plugin, mypy.maptype, mypy.messages"
    print(f"  importing the plugin into mypy costs {import_seconds('typing_plugins.mypy_plugin', mypy_modules):.3f} s; "
          f"importing typedtensor (numpy, jaxtyping) would cost {import_seconds('typedtensor'):.3f} s")


def _config(path: Path, *, plugin: bool) -> Path:
    plugins = "plugins = typing_plugins.mypy_plugin\n" if plugin else ""
    # typedtensor is found from the working directory like user code: time it, but as a library.
    path.write_text(f"[mypy]\nstrict = True\n{plugins}[mypy-typedtensor.*]\nfollow_imports = silent\n")
    return path


def _mypy_version() -> str:
    return subprocess.run([sys.executable, "-m", "mypy", "--version"], capture_output=True, text=True).stdout.split()[1]


if __name__ == "__main__":
    main()
