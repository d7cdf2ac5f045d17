"""The layout's one rule that a test can hold: imports run one way, so no module imports itself
through others (``typedtensor/`` and ``typing_plugins/``, imports under ``TYPE_CHECKING`` and
inside functions included).

Run as a script, it prints each module's imports of the two packages and any circle:
``python -m tests.project.test_layout``.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

from tests.support import PROJECT

PACKAGES = ("typedtensor", "typing_plugins")


def module_files() -> dict[str, Path]:
    """Each module of the packages by its dotted name (a package by its own name)."""
    modules = {}
    for package in PACKAGES:
        for path in sorted((PROJECT / package).rglob("*.py")):
            parts = path.relative_to(PROJECT).with_suffix("").parts
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def _imported_names(module: str, path: Path) -> Iterator[str]:
    """The dotted names ``module`` imports, relative imports resolved; ``from a import b`` gives
    ``a.b`` (a module, or a name of ``a``)."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            yield from (f"{base}.{alias.name}" for alias in node.names)


def import_graph() -> dict[str, set[str]]:
    """Each module with the modules of the packages it imports (a package's ``__init__`` only when
    a name is imported from it, not for importing one of its modules)."""
    modules = module_files()
    graph: dict[str, set[str]] = {}
    for module, path in modules.items():
        targets = set()
        for name in _imported_names(module, path):
            while name and name not in modules:  # a name defined in a module: that module
                name = name.rpartition(".")[0]
            if name and name != module:
                targets.add(name)
        graph[module] = targets
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles: each strongly connected component of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for target in sorted(graph[node]):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while (member := stack.pop()) != node:
                component.append(member)
            component.append(node)
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_packages_have_no_import_circles() -> None:
    assert cycles(import_graph()) == []


def test_the_ops_work_on_arrays_below_tensor() -> None:
    """``typedtensor/_ops/`` takes and returns arrays: nothing there imports ``Tensor``'s module."""
    graph = import_graph()
    ops = {module for module in graph if module.startswith("typedtensor._ops")}
    assert ops and {module: sorted(graph[module] & {"typedtensor._tensor"}) for module in ops} == {module: [] for module in ops}


#: The layers of docs/architecture.md, lowest first: a module imports only from its own layer or below.
#: Each module belongs to the first layer with a prefix of its name.
LAYERS = (
    ("typedtensor._shape_rules",),
    ("typedtensor._dtypes", "typedtensor._dims", "typedtensor._errors", "typedtensor._arguments",
     "typedtensor._generated.type_vars", "typedtensor._generated.reduction_axes"),
    ("typedtensor._ops", "typedtensor._reducer"),
    ("typedtensor._tensor",),
    ("typedtensor._",  "typedtensor.random", "typedtensor.linalg"),  # the public faces and the runtime checks
    ("typedtensor",),
)


def layer(module: str) -> int:
    return next(index for index, prefixes in enumerate(LAYERS) if module.startswith(prefixes))


def test_imports_run_down_the_layers() -> None:
    graph = import_graph()
    library = [module for module in graph if module.startswith("typedtensor") and not module.startswith("typedtensor.lsp")]
    upward = {module: sorted(target for target in graph[module] if layer(target) > layer(module)) for module in library}
    assert {module: targets for module, targets in upward.items() if targets} == {}


def test_the_plugin_reads_only_the_shape_rules_and_the_language_server_nothing() -> None:
    graph = import_graph()
    outside = {
        module: sorted(target for target in targets if not target.startswith(allowed))
        for module, targets in graph.items()
        for allowed in [("typing_plugins", "typedtensor._shape_rules") if module.startswith("typing_plugins") else ("typedtensor.lsp",)]
        if module.startswith(("typing_plugins", "typedtensor.lsp"))
    }
    assert {module: targets for module, targets in outside.items() if targets} == {}


def test_the_shape_rules_import_no_numpy() -> None:
    rules = {module: path for module, path in module_files().items() if module.startswith("typedtensor._shape_rules")}
    assert rules and [module for module, path in rules.items() if any(name.split(".")[0] == "numpy" for name in _imported_names(module, path))] == []


def test_a_circle_is_found() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


if __name__ == "__main__":
    sys.setrecursionlimit(10_000)
    graph = import_graph()
    for module in sorted(graph):
        print(f"{module}: {', '.join(sorted(graph[module])) or '-'}")
    print("circles:", cycles(graph) or "none")
