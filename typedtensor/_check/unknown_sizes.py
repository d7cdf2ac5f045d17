"""Sizes a lazy array does not know yet: dask's ``nan`` after boolean indexing (the array API's
``None``). Such a size may turn out to be any size, so a check can neither fail on it nor bind a
named dim to it; knowing it would mean computing the array, which a check never does (SPEC 10).
"""

from __future__ import annotations

from typing import Any

from jaxtyping._storage import get_shape_memo  # private, pinned by tests/backends/test_dask.py's unknown-size tests

from typedtensor._ops.backends import is_unknown


class _UnknownSize:
    """A size that matches every size: jaxtyping compares it with ``!=`` and ``==`` (both ways)."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        return True

    def __ne__(self, other: object) -> bool:
        return False

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "nan"


UNKNOWN = _UnknownSize()


class ShapeAndDtype:
    """What jaxtyping reads of an array: its shape and dtype (here its unknown sizes as ``UNKNOWN``)."""

    __slots__ = ("dtype", "shape")

    def __init__(self, dtype: Any, shape: tuple[Any, ...]) -> None:
        self.dtype, self.shape = dtype, shape


def for_shape_check(array: Any, shape: tuple[Any, ...]) -> Any:
    """``array`` itself, or if some of its sizes are unknown, a stand-in whose unknown sizes match any size."""
    if all(type(size) is int for size in shape):
        return array
    return ShapeAndDtype(array.dtype, tuple(UNKNOWN if is_unknown(size) else size for size in shape))


def matches(array: Any, shape: tuple[Any, ...], shape_type: type) -> bool:
    """jaxtyping's ``isinstance(array, shape_type)``, its unknown sizes matching any size and
    binding no named dim: bound to one, a dim would match every later size (3, then 4)."""
    checked = for_shape_check(array, shape)
    if checked is array:
        return isinstance(array, shape_type)
    try:
        return isinstance(checked, shape_type)
    finally:
        forget_unknown()


def forget_unknown() -> None:
    """Unbind the named dims the running check bound to an unknown size (one already bound keeps its size)."""
    single_memo: dict[str, object] = get_shape_memo()[0]  # type: ignore[no-untyped-call]  # jaxtyping private, its memo of the running call
    for name in [name for name, size in single_memo.items() if size is UNKNOWN]:
        del single_memo[name]
