"""Dtype rules, numpy 2's, by dtype name: reduction results and promotion.

A dtype is its marker's name (``"float32"``). Where the plugin sees a category (``floating``,
from ``Tensor[floating, N]``) a rule answers for every dtype in it at once: the narrowest name,
concrete or category, that holds every possible result.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Final, Literal, TypeAlias

BOOL: Final = "bool_"
SIGNED: Final = ("int8", "int16", "int32", "int64")
UNSIGNED: Final = ("uint8", "uint16", "uint32", "uint64")
FLOATS: Final = ("float16", "float32", "float64")
COMPLEXES: Final = ("complex64", "complex128")
CONCRETE: Final = (BOOL, *SIGNED, *UNSIGNED, *FLOATS, *COMPLEXES)

#: Every category of numpy's hierarchy with its concrete dtypes, narrowest first.
CATEGORIES: Final[dict[str, tuple[str, ...]]] = {
    "signedinteger": SIGNED,
    "unsignedinteger": UNSIGNED,
    "floating": FLOATS,
    "complexfloating": COMPLEXES,
    "integer": SIGNED + UNSIGNED,
    "inexact": FLOATS + COMPLEXES,
    "number": SIGNED + UNSIGNED + FLOATS + COMPLEXES,
    "generic": CONCRETE,
}

#: The kind of a Python scalar operand, which promotes weakly (NEP 50): ``float32 * 2.0`` is float32.
ScalarKind: TypeAlias = Literal["bool", "int", "float", "complex"]

_NARROW_SIGNED: Final = frozenset({"bool_", "int8", "int16", "int32"})
_NARROW_UNSIGNED: Final = frozenset({"uint8", "uint16", "uint32"})
_INTEGRAL: Final = _NARROW_SIGNED | _NARROW_UNSIGNED | {"int64", "uint64"}
# The plugin also sees categories (``Tensor[integer, N]``); any integer's mean is ``float64``.
_INTEGER_CATEGORIES: Final = frozenset({"integer", "signedinteger", "unsignedinteger"})
#: The reduction whose dtype rule each statistic and scan follows (``nanmean`` as ``mean``).
_FOLLOWS: Final = {"nansum": "sum", "nanmean": "mean", "nanmax": "max", "nanmin": "min", "cumsum": "sum", "cumprod": "prod"}
#: ``var`` and ``std`` of a complex tensor are real, as numpy's (the mean squared modulus).
_REAL_OF_COMPLEX: Final = {"complex64": "float32", "complex128": "float64"}


def result_dtype(op: str, dtype: str) -> str:
    """The dtype name of ``reduce_<op>`` over a tensor of dtype ``dtype`` (numpy's rules).

    ``dtype`` may be a category such as ``floating``: the answer is then the narrowest name
    that holds for every dtype in it (the sum of any ``signedinteger`` is a ``signedinteger``).

    >>> result_dtype("sum", "int32"), result_dtype("mean", "int8"), result_dtype("any", "float32")
    ('int64', 'float64', 'bool_')
    """
    if op in ("var", "std"):  # floats keep, complexes give their real dtype, the rest float64
        return narrowest(m if m in FLOATS else _REAL_OF_COMPLEX.get(m, "float64") for m in members(dtype))
    op = _FOLLOWS.get(op, op)
    if op in ("any", "all"):
        return "bool_"
    if op in ("sum", "prod"):
        if dtype in _NARROW_SIGNED:
            return "int64"
        if dtype in _NARROW_UNSIGNED:
            return "uint64"
    if op == "mean" and (dtype in _INTEGRAL or dtype in _INTEGER_CATEGORIES):
        return "float64"
    return dtype


def members(dtype: str) -> tuple[str, ...]:
    """The concrete dtypes a name stands for: itself, or every dtype of a category."""
    return CATEGORIES.get(dtype, (dtype,))


def narrowest(dtypes: Iterable[str]) -> str:
    """The narrowest name that holds every one of ``dtypes``: the dtype itself, or a category.

    >>> narrowest(["float32", "float64"]), narrowest(["int8"])
    ('floating', 'int8')
    """
    found = set(dtypes)
    if len(found) == 1:
        return found.pop()
    return next(name for name, inside in CATEGORIES.items() if found <= set(inside))


def elementwise(rule: Callable[..., str], *dtypes: str) -> str:
    """``rule`` applied to every combination of the concrete dtypes the names stand for."""
    combinations: list[tuple[str, ...]] = [()]
    for dtype in dtypes:
        combinations = [(*done, member) for done in combinations for member in members(dtype)]
    return narrowest(rule(*combination) for combination in combinations)


def promote(*dtypes: str) -> str:
    """The dtype of an op on tensors of ``dtypes``: numpy's ``result_type``.

    numpy's promotion is not associative: of three dtypes it promotes the kinds first (complex
    over float over signed over unsigned over bool), so the pairs are taken highest kind first
    (uint16, int8 and complex64 give complex64, where pair by pair they would give complex128).
    This matches numpy on every pair and triple; four or more mixed integer kinds beside a float
    can still differ (a known gap, see docs/ops.md).

    >>> promote("int8", "uint8"), promote("int64", "uint64"), promote("uint16", "int8", "complex64")
    ('int16', 'float64', 'complex64')
    """
    return elementwise(_promote_all, *dtypes)


def _promote_all(*dtypes: str) -> str:
    return functools.reduce(_promote_pair, sorted(dtypes, key=_kind_rank, reverse=True))


def _kind_rank(dtype: str) -> tuple[int, int]:
    kind, bits = _kind_bits(dtype)
    return "buifc".index(kind), bits


def promote_scalar(dtype: str, scalar: ScalarKind) -> str:
    """The dtype of a binary op on a tensor of ``dtype`` and a Python scalar (NEP 50: weak).

    A Python scalar takes the tensor's dtype when its kind fits (``float32 * 2.0`` is float32),
    and otherwise numpy's default of its kind (``int32 * 2.0`` is float64).

    >>> promote_scalar("float32", "float"), promote_scalar("int32", "float"), promote_scalar("bool_", "int")
    ('float32', 'float64', 'int64')
    """
    return elementwise(lambda concrete: _promote_weak(concrete, scalar), dtype)


def _kind_bits(dtype: str) -> tuple[str, int]:
    """``("f", 32)`` for float32; bool is ``("b", 8)``."""
    if dtype == BOOL:
        return "b", 8
    for kind, names in (("i", SIGNED), ("u", UNSIGNED), ("f", FLOATS), ("c", COMPLEXES)):
        if dtype in names:
            return kind, int(dtype.removeprefix({"i": "int", "u": "uint", "f": "float", "c": "complex"}[kind]))
    raise ValueError(f"not a concrete dtype: {dtype}")


#: The float width that holds an integer of each width exactly enough for numpy (int8 -> float16).
_FLOAT_FOR_INT: Final = {8: 16, 16: 32, 32: 64, 64: 64}


def _promote_pair(left: str, right: str) -> str:
    (kind_l, bits_l), (kind_r, bits_r) = _kind_bits(left), _kind_bits(right)
    if kind_l == "b":
        return right
    if kind_r == "b":
        return left
    if kind_l == kind_r:
        return left if bits_l >= bits_r else right
    order = "iufc"
    if order.index(kind_l) > order.index(kind_r):
        (kind_l, bits_l), (kind_r, bits_r) = (kind_r, bits_r), (kind_l, bits_l)
    if (kind_l, kind_r) == ("i", "u"):
        if bits_r < bits_l:
            return f"int{bits_l}"
        return f"int{2 * bits_r}" if bits_r < 64 else "float64"
    float_bits = _FLOAT_FOR_INT[bits_l] if kind_l in "iu" else bits_l
    if kind_r == "f":
        return f"float{max(float_bits, bits_r)}"
    return f"complex{max(2 * float_bits, bits_r)}"


def _promote_weak(dtype: str, scalar: ScalarKind) -> str:
    kind, bits = _kind_bits(dtype)
    if scalar == "bool" or (scalar == "int" and kind != "b"):
        return dtype
    if scalar == "int":
        return "int64"
    if scalar == "float":
        return dtype if kind in "fc" else "float64"
    if kind == "c":
        return dtype
    return "complex64" if kind == "f" and bits < 64 else "complex128"
