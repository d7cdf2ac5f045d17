"""The fullnames of what the plugin hooks on and builds types from, each spelled once.

mypy names a function or a class after the module that defines it, not after the package that
re-exports it: ``tt.reduce_sum(x)`` calls ``typedtensor._generated.reductions.reduce_sum``. So a hook is
keyed on the defining module, and a definition that moves must move here too, or its hook stops
running without a word. ``tests/plugin/test_plugin_names.py`` imports every name of this module
and checks that it is defined where it says, so such a move fails a test instead.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from typing_plugins._rules import shape_rules


def _defined_in(module: str, names: Iterable[str]) -> dict[str, str]:
    """The fullname of each of ``names``, all defined in ``module``, by name."""
    return {name: f"{module}.{name}" for name in names}


#: The package: it re-exports ``Tensor`` and every dtype marker and category, and the plugin
#: builds types by their public names (``typedtensor.float32``), which mypy resolves through it.
PACKAGE: Final = "typedtensor"
TENSOR: Final = "typedtensor._tensor.Tensor"
#: The module of the dtype markers and categories, and the class they all derive from.
DTYPES_MODULE: Final = "typedtensor._dtypes"
GENERIC: Final = f"{DTYPES_MODULE}.generic"
#: The base of named dims, whose instances ``y.shape[i]`` gives.
DIM: Final = "typedtensor._dims.Dim"
#: What ``y.shape`` bounds an unbounded TypeVar dim by, so that ``y.shape[i]`` is an int.
DIM_SIZE: Final = "typedtensor._dims.DimSize"
#: The dim expressions (``Mul[B, T]``), by their operation's name.
DIM_EXPRESSIONS: Final = _defined_in("typedtensor._dims", shape_rules.OPERATION_NAMES)

# The functions the plugin hooks on, by name (a reduction by its op: "sum" for ``reduce_sum``).
REDUCTIONS: Final = {op: f"typedtensor._generated.reductions.reduce_{op}" for op in shape_rules.REDUCTION_OPS}
ELEMENTWISE: Final = _defined_in(
    "typedtensor._generated.elementwise", [*shape_rules.UNARY_RULES, *shape_rules.BINARY_RULES, "where", "cast"]
)
MATMUL: Final = "typedtensor._linalg.matmul"
CLIP: Final = "typedtensor._clipping.clip"
SHAPING: Final = {
    **_defined_in("typedtensor._shaping", ["reshape", "transpose", "tile", "broadcast_to", "concat", "stack"]),
    **_defined_in("typedtensor._generated.shaping", ["expand_dims", "squeeze"]),  # their overloads are generated
}
AXIS_OPS: Final = _defined_in("typedtensor._axis_ops", ["argmax", "argmin", "softmax", "log_softmax", "logsumexp", "take", "take_along_axis"])
CREATION: Final = _defined_in("typedtensor._creation", ["zeros", "ones", "full", "arange", "eye", "tensor"])
LAYERS: Final = _defined_in("typedtensor._layers", ["conv2d", "max_pool2d", "avg_pool2d", "layer_norm"])
RANDOM: Final = _defined_in("typedtensor.random", ["normal", "uniform"])
REARRANGING: Final = _defined_in("typedtensor._rearranging", ["swapaxes", "moveaxis", "flatten", "split", "pad", "tril", "triu", "one_hot"])
CREATION_MORE: Final = _defined_in("typedtensor._creation", ["zeros_like", "ones_like", "full_like", "linspace"])
RANDOM_MORE: Final = _defined_in("typedtensor.random", ["permutation", "integers"])
SORTING: Final = _defined_in("typedtensor._sorting", ["sort", "argsort", "top_k"])
LINALG: Final = _defined_in("typedtensor.linalg", ["norm", "inv", "det", "solve", "cholesky", "eigh", "svd", "qr"])
EINSUM: Final = "typedtensor._einsum.einsum"
STATISTICS: Final = _defined_in("typedtensor._generated.statistics", shape_rules.STATISTIC_OPS)
SCANS: Final = _defined_in("typedtensor._statistics", shape_rules.SCAN_OPS)
#: The builtins that read a tensor's one element (``float(x)`` calls ``Tensor.__float__``), by op name.
SCALAR_READS: Final = {name: f"builtins.{name}" for name in ("float", "int", "bool")}
#: The class of ``x.at[index]``, whose ``set`` and ``add`` are hooked.
UPDATE: Final = "typedtensor._tensor._Update"
