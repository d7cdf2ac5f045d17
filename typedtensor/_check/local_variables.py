"""Checks of annotated local variables, for the modules the import hook loads.

``y: Tensor[tt.float32, Batch, L[10]] = f(x)`` inside a function becomes, in the compiled code,
``y: ... = check_local(f(x), lambda: Tensor[...], SITE)``: the annotation is evaluated lazily (a
string annotation, or one naming what only ``TYPE_CHECKING`` imports, must not fail where it never
ran before), once per site, and checked with the bindings of the checked call the line runs in,
as ``check()`` is. Only the annotated assignments are rewritten: every other line compiles to the
bytecode it had, so it costs nothing. A site whose annotation names no tensor costs a dict lookup.
"""

from __future__ import annotations

import ast
import copy
import warnings
from collections.abc import Callable
from typing import Final, TypeVar

from typedtensor._check.bindings import CallRecord
from typedtensor._check.decorator import calls_running, check_in_call, tensor_spec
from typedtensor._errors import AnnotationError

T = TypeVar("T")
Site = tuple[str, int, str]  # file, line, variable

#: The name the rewritten lines call, set in the module's namespace before its code runs.
CHECK_LOCAL: Final = "__typedtensor_check_local__"

#: Per site, the annotation to check, or ``_NO_TENSOR`` for one that names no tensor or cannot
#: be evaluated (warned about once).
_annotations: dict[Site, object] = {}
_NO_TENSOR: Final = object()


def check_local(value: T, annotation: Callable[[], object], site: Site) -> T:
    """``value`` if it matches the annotation the thunk returns, else raise ``ShapeError``."""
    found = _annotations.get(site)
    if found is None:
        found = _annotations[site] = _site_annotation(annotation, site)
    if found is _NO_TENSOR:
        return value
    stack = calls_running()
    call = stack[-1] if stack else CallRecord(None, ())
    spec = tensor_spec(found, call.names)
    assert spec is not None  # _site_annotation kept only annotations that name a tensor
    filename, line, name = site
    where = f'local variable "{name}"' + (f" of {call.name}" if call.name else "") + f" ({filename}:{line})"
    if error := check_in_call(call, value, spec, where, standalone=not stack):
        raise error
    return value


def _site_annotation(annotation: Callable[[], object], site: Site) -> object:
    """The site's annotation if it names a tensor, else ``_NO_TENSOR``, with a warning if it names
    one that cannot be checked or cannot be evaluated (a name only ``TYPE_CHECKING`` imports)."""
    filename, line, name = site
    try:
        evaluated = annotation()
        return evaluated if tensor_spec(evaluated, ()) is not None else _NO_TENSOR
    except AnnotationError as error:
        reason = str(error)
    except Exception as error:  # NameError, or anything else the annotation's code raises
        reason = f"its annotation raised {type(error).__name__}: {error}"
    warnings.warn(f'typedtensor left local variable "{name}" ({filename}:{line}) unchecked: {reason}', stacklevel=3)
    return _NO_TENSOR


def with_local_checks(tree: ast.Module, filename: str) -> bool:
    """Rewrite in place the annotated assignments inside the functions of ``tree``; whether any was."""
    rewriter = _Rewriter(filename)
    rewriter.visit(tree)
    if rewriter.rewritten:
        ast.fix_missing_locations(tree)
    return rewriter.rewritten > 0


#: Annotations that name no tensor whatever the module defines (unless it shadows a builtin).
_BUILTIN_SCALARS: Final = frozenset({"int", "float", "complex", "bool", "str", "bytes", "object"})


class _Rewriter(ast.NodeTransformer):
    """``name: A = value`` inside a function to ``name: A = CHECK_LOCAL(value, lambda: A, SITE)``."""

    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.depth = 0  # functions entered
        self.rewritten = 0

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.AST:
        self.depth += 1
        self.generic_visit(node)
        self.depth -= 1
        return node

    visit_FunctionDef = visit_AsyncFunctionDef = _function

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        # A class body's annotated names are fields (a dataclass's defaults), not local variables.
        depth, self.depth = self.depth, 0
        self.generic_visit(node)
        self.depth = depth
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        if self.depth == 0 or node.value is None or not isinstance(node.target, ast.Name):
            return node
        if isinstance(node.annotation, ast.Name) and node.annotation.id in _BUILTIN_SCALARS:
            return node  # ``n: int = 3``: known to hold no tensor, so not even a lookup
        annotation = copy.deepcopy(node.annotation)
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):  # a forward reference
            try:
                annotation = ast.increment_lineno(ast.parse(annotation.value, mode="eval").body, node.lineno - 1)
            except SyntaxError:
                return node  # not an expression: no annotation of a tensor either
        site = ast.Tuple([ast.Constant(self.filename), ast.Constant(node.lineno), ast.Constant(node.target.id)], ast.Load())
        no_arguments = ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[])
        thunk = ast.Lambda(no_arguments, annotation)
        call = ast.Call(ast.Name(CHECK_LOCAL, ast.Load()), [node.value, thunk, site], [])
        node.value = ast.copy_location(call, node.value)
        self.rewritten += 1
        return node
