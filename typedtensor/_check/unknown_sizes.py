"""Sizes a lazy array does not know yet: dask's ``nan`` after boolean indexing (the array API's
``None``). Such a size may turn out to be any size, so a check can neither fail on it nor bind a
named dim to it; knowing it would mean computing the array, which a check never does (SPEC 10).
"""

from __future__ import annotations

from typing import Any

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


class _KnownShape:
    """What jaxtyping reads of an array (its shape and dtype), its unknown sizes as ``UNKNOWN``."""

    __slots__ = ("dtype", "shape")

    def __init__(self, dtype: Any, shape: tuple[Any, ...]) -> None:
        self.dtype, self.shape = dtype, shape


def for_shape_check(array: Any, shape: tuple[Any, ...]) -> Any:
    """``array`` itself, or if some of its sizes are unknown, a stand-in whose unknown sizes match any size."""
    if all(type(size) is int for size in shape):
        return array
    return _KnownShape(array.dtype, tuple(UNKNOWN if is_unknown(size) else size for size in shape))
