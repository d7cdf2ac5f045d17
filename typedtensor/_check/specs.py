"""What an annotation asks of a value, as a tree of specs translated once per annotation.

The leaves are ``Tensor`` annotations, a ``Tensor`` subclass included (``TensorSpec``), and
jaxtyping's array annotations (``ArraySpec``). ``list[X]``, ``tuple[X, ...]`` and ``tuple[X, Y]``
hold them (``SequenceSpec``); ``Annotated[X, ...]`` is ``X``; ``X | None`` lets ``None`` pass too;
a TypeVar bound to one of them is its bound. Every leaf of a call binds its dims in the call's one
memo, so the items of a list share them.

An annotation that names a tensor in any other way (``dict[str, Tensor[...]]``,
``Callable[..., Tensor[...]]``) cannot be checked: it raises ``AnnotationError`` when the
decorator runs rather than pass unchecked.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Annotated, TypeAlias, TypeVar

from typedtensor._check.annotations import Namespaces, TensorSpec, is_jaxtyping_array, is_unpacked, resolve_annotation, show, tensor_spec
from typedtensor._check.jaxtyping_arrays import ArraySpec, DimNames, array_spec
from typedtensor._errors import AnnotationError
from typedtensor._tensor import Tensor

_CHECKABLE = (
    "typedtensor checks Tensor[...], a Tensor subclass, a jaxtyping array such as Float[np.ndarray, 'N'], "
    "and list[...], tuple[...], Annotated[...] or X | None of those"
)


@dataclass(frozen=True, kw_only=True)
class SequenceSpec:
    """``list[X]``, ``tuple[X, ...]`` (one spec for every item) or ``tuple[X, Y]`` (one per item)."""

    text: str
    kind: type  # list or tuple, or a subclass of them
    items: tuple[Spec | None, ...]  # None: an item of a type that is not ours to check
    repeated: bool  # ``items`` holds the one spec of every item
    optional: bool = False

    def fits_length(self, length: int) -> bool:
        return self.repeated or length == len(self.items)

    def item(self, index: int) -> Spec | None:
        return self.items[0] if self.repeated else self.items[index]


Spec: TypeAlias = TensorSpec | ArraySpec | SequenceSpec


@dataclass(frozen=True)
class FunctionSpecs:
    """The specs of one function's annotations, in order, and what they share."""

    specs: list[Spec | None]
    names: DimNames  # the dims of its Tensor annotations, which its jaxtyping annotations share
    complete: bool  # no string annotation was left unresolved (one may name a class defined later)


def function_specs(annotations: Sequence[tuple[object, str]], namespaces: Namespaces) -> FunctionSpecs:
    """The specs of one function's annotations, each given with where it is."""
    resolved = [(resolve_annotation(annotation, namespaces, where), where) for annotation, where in annotations]
    specs = [annotation_spec(annotation, namespaces, where, ()) for annotation, where in resolved]
    names = _dim_names(specs)
    if any(isinstance(leaf, ArraySpec) for leaf in _leaves(specs)):  # again, now that the names are known
        specs = [annotation_spec(annotation, namespaces, where, names) for annotation, where in resolved]
    return FunctionSpecs(specs, names, complete=not any(isinstance(annotation, str) for annotation, _ in resolved))


def annotation_spec(annotation: object, namespaces: Namespaces, where: str, names: DimNames) -> Spec | None:
    """The spec of a resolved annotation; ``None`` if it names no tensor (not ours to check).

    ``names`` are the dims of the function's ``Tensor`` annotations, which its jaxtyping
    annotations share (see ``jaxtyping_arrays``).
    """
    annotation = _resolved(annotation, namespaces, where)
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        return annotation_spec(typing.get_args(annotation)[0], namespaces, where, names)
    if origin in (typing.Union, types.UnionType):
        return _optional_spec(annotation, namespaces, where, names)
    if isinstance(origin, type) and issubclass(origin, (list, tuple)) and not any(map(is_unpacked, typing.get_args(annotation))):
        return _sequence_spec(annotation, origin, namespaces, where, names)
    if isinstance(annotation, TypeVar) and annotation.__bound__ is not None and not annotation.__constraints__:
        return annotation_spec(annotation.__bound__, namespaces, where, names)
    spec: Spec | None = tensor_spec(annotation, namespaces, where)
    if spec is None and is_jaxtyping_array(annotation):
        spec = array_spec(annotation, names, where)
    if spec is None and _names_a_tensor(annotation, namespaces, where):
        raise AnnotationError(f"{where}: {show(annotation)} cannot be checked: {_CHECKABLE}")
    return spec


def _optional_spec(union: object, namespaces: Namespaces, where: str, names: DimNames) -> Spec | None:
    """``X | None`` accepts ``None`` too; a union without a tensor is not ours."""
    members = typing.get_args(union)
    specs = [annotation_spec(member, namespaces, where, names) for member in members if member is not type(None)]
    checked = [spec for spec in specs if spec is not None]
    if not checked:
        return None
    if len(members) != 2 or type(None) not in members:
        shown = " | ".join(map(show, members))
        raise AnnotationError(f"{where}: {shown} cannot be checked: of a union, only X | None is")
    return dataclasses.replace(checked[0], text=f"{checked[0].text} | None", optional=True)


def _sequence_spec(annotation: object, kind: type, namespaces: Namespaces, where: str, names: DimNames) -> Spec | None:
    # ``typing.List["Images"]`` holds a ForwardRef, ``list["Images"]`` the plain string: the same reference
    args = tuple(typing.ForwardRef(arg) if isinstance(arg, str) else arg for arg in typing.get_args(annotation))
    repeated = not issubclass(kind, tuple) or (len(args) == 2 and args[1] is Ellipsis)
    item_annotations = args[:1] if repeated else args
    items = tuple(annotation_spec(item, namespaces, where, names) for item in item_annotations)
    if all(item is None for item in items):
        return None  # ``list[int]``, a bare ``tuple``
    texts = [show(arg) if item is None else item.text for arg, item in zip(item_annotations, items)]
    if repeated and issubclass(kind, tuple):
        texts.append("...")
    return SequenceSpec(text=f"{show(kind)}[{', '.join(texts)}]", kind=kind, items=items, repeated=repeated)


def _resolved(annotation: object, namespaces: Namespaces, where: str) -> object:
    """A forward reference inside an annotation (``list["Images"]``) resolved like the whole."""
    if isinstance(annotation, typing.ForwardRef):
        return resolve_annotation(annotation.__forward_arg__, namespaces, where)
    return annotation


def _names_a_tensor(annotation: object, namespaces: Namespaces, where: str) -> bool:
    """Whether ``annotation`` mentions a tensor anywhere: in its arguments, a TypeVar's bound or
    constraints, or the argument list of a ``Callable``."""
    annotation = _resolved(annotation, namespaces, where)
    if isinstance(annotation, (list, tuple)):
        return any(_names_a_tensor(item, namespaces, where) for item in annotation)
    if isinstance(annotation, TypeVar):
        return _names_a_tensor([annotation.__bound__, *annotation.__constraints__], namespaces, where)
    cls = typing.get_origin(annotation) or annotation
    if (isinstance(cls, type) and issubclass(cls, Tensor)) or is_jaxtyping_array(annotation):
        return True
    return _names_a_tensor(list(typing.get_args(annotation)), namespaces, where)


def _leaves(specs: Iterable[Spec | None]) -> Iterator[TensorSpec | ArraySpec]:
    """The tensor and array specs of ``specs``, inside lists and tuples too."""
    for spec in specs:
        if isinstance(spec, SequenceSpec):
            yield from _leaves(spec.items)
        elif spec is not None:
            yield spec


def _dim_names(specs: Iterable[Spec | None]) -> DimNames:
    """The named dims of the ``Tensor`` annotations among ``specs``, for jaxtyping's to share."""
    named = {
        (dim.text.lstrip("*"), dim.token.lstrip("*"))
        for leaf in _leaves(specs)
        if isinstance(leaf, TensorSpec)
        for dim in leaf.dims
        if dim.binds
    }
    return tuple(sorted(named))


