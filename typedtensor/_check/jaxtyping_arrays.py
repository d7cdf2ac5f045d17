"""jaxtyping's own array annotations (``Float[np.ndarray, "N 3"]``), checked in a call's bindings.

jaxtyping binds a dim by its name; typedtensor binds each named dim under a symbol of its own,
because two dims called ``N`` (a TypeVar and a ``Dim`` class) are different dims. In a checked
function a name in a jaxtyping annotation means the dim of that name in the function's ``Tensor``
annotations, so the annotation is rebuilt with that dim's symbol; a name no ``Tensor``
annotation uses gets a symbol of its own, the same in every jaxtyping annotation.
"""

from __future__ import annotations

import builtins
import re
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

from typedtensor._check.annotations import ANY_RUN, DimSpec, ShapeSpec, show, symbol_of
from typedtensor._errors import AnnotationError

#: Each dim name of the function's ``Tensor`` annotations with its symbol (one pair per dim:
#: two dims may share a name). A tuple, so that ``check()`` can cache by it.
DimNames: TypeAlias = tuple[tuple[str, str], ...]

#: jaxtyping's prefixes of a dim: broadcastable, a run of dims, anonymous, tree path.
_PREFIXES: Final = "#*_?"
_IDENTIFIER: Final = re.compile(r"[A-Za-z_]\w*")


@dataclass(frozen=True, kw_only=True)
class ArraySpec(ShapeSpec):
    """A jaxtyping array annotation, its dims renamed to the call's symbols (``shape_type``)."""

    renamed: tuple[tuple[str, str], ...]  # each symbol with the name it stands for

    def symbol_names(self) -> Iterable[tuple[str, str]]:
        """Every renamed name, also those of broadcastable and symbolic dims, which bind nothing."""
        return self.renamed


def array_spec(annotation: Any, names: DimNames, where: str) -> ArraySpec:
    """The spec of ``Float[np.ndarray, "N 3"]`` in a function whose ``Tensor`` dims are ``names``."""
    text = show(annotation)
    renamed: dict[str, str] = {}

    def rename(name: str) -> str:
        symbol = _symbol_for(name, names, text, where)
        renamed[symbol] = name
        return symbol

    tokens = [_token(token, rename, where) for token in annotation.dim_str.split()]
    dims = tuple(dim for _, dim in tokens)
    variadic = [index for index, dim in enumerate(dims) if dim.is_run]
    return ArraySpec(
        text=text,
        dims=dims,
        shape_type=annotation.dtype[annotation.array_type, " ".join(token for token, _ in tokens)],
        variadic_index=variadic[0] if variadic else None,
        renamed=tuple(renamed.items()),
    )


def _symbol_for(name: str, names: DimNames, text: str, where: str) -> str:
    """The symbol of the dim ``name`` in the annotation ``text``: that of the ``Tensor`` dim so
    named, else one of its own."""
    symbols = sorted({symbol for dim_name, symbol in names if dim_name == name})
    if len(symbols) > 1:
        raise AnnotationError(
            f"{where}: the dim {name} of {text} could be any of {len(symbols)} dims named {name} in the "
            "function's Tensor annotations; rename one of them"
        )
    return symbols[0] if symbols else symbol_of(_stand_in(name), where)


def _token(token: str, rename: Callable[[str], str], where: str) -> tuple[str, DimSpec]:
    """One dim of a jaxtyping shape string, renamed, and how messages write it."""
    if token == "...":
        return token, ANY_RUN
    core = token.lstrip(_PREFIXES)
    prefix = token[: len(token) - len(core)]
    label, equals, core = core.rpartition("=") if core.count("=") == 1 else ("", "", core)
    if "?" in prefix or "{" in core:
        raise AnnotationError(f"{where}: {token!r}: tree-path and f-string dims need jaxtyping's own decorator")
    if "_" in prefix:  # anonymous: binds nothing
        return token, ANY_RUN if "*" in prefix else DimSpec("_", "_", False)
    if core.isdigit():
        return token, DimSpec(core, core if not prefix else "_", False)
    if core.isidentifier():
        symbol = rename(core)
        run = "*" if "*" in prefix else ""
        return f"{prefix}{label}{equals}{symbol}", DimSpec(run + core, run + symbol, "#" not in prefix)
    # A symbolic size such as N+1: every name in it that is not a builtin is a dim.
    renamed = _IDENTIFIER.sub(lambda match: match[0] if hasattr(builtins, match[0]) else rename(match[0]), core)
    return f"{prefix}{label}{equals}{renamed}", DimSpec(core, "_", False)


#: A stand-in object per name that only jaxtyping annotations use, to give it a symbol of its own.
_stand_ins: dict[str, type] = {}
_stand_ins_lock = threading.Lock()


def _stand_in(name: str) -> type:
    with _stand_ins_lock:
        return _stand_ins.setdefault(name, type(name, (), {}))
