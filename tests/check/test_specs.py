"""What an annotation asks of a value (``typedtensor._check.specs``), translated without a decorator:
which annotations become which specs, how messages will write them, which are refused (and how),
and what one function's specs share."""

from __future__ import annotations

import re
import typing
from collections.abc import Callable
from typing import Annotated, Literal as L, Optional, TypeVar

import numpy as np
import pytest
from jaxtyping import Float

import typedtensor as tt
from typedtensor._check.annotations import Namespaces, TensorSpec
from typedtensor._check.jaxtyping_arrays import ArraySpec
from typedtensor._check.specs import SequenceSpec, annotation_spec, function_specs


class Batch(tt.Dim): ...


N = TypeVar("N")
Images = tt.Tensor[tt.float32, Batch, L[3]]
IMAGES = "Tensor[float32, Batch, 3]"
NO_NAMES: Namespaces = ({}, {})
CHECKABLE = (
    "typedtensor checks Tensor[...], a Tensor subclass, a jaxtyping array such as Float[np.ndarray, 'N'], "
    "and list[...], tuple[...], Annotated[...] or X | None of those"
)


def spec_of(annotation: object) -> object:
    return annotation_spec(annotation, NO_NAMES, "x of f()", ())


@pytest.mark.parametrize(
    ("annotation", "text", "optional"),
    [
        (Images, IMAGES, False),
        (Annotated[Images, "metadata"], IMAGES, False),
        (TypeVar("Bound", bound=Images), IMAGES, False),
        (Images | None, f"{IMAGES} | None", True),
        (Optional[Images], f"{IMAGES} | None", True),
    ],
)
def test_a_tensor_annotation_however_wrapped_is_a_tensor_spec(annotation: object, text: str, optional: bool) -> None:
    spec = spec_of(annotation)
    assert isinstance(spec, TensorSpec) and (spec.text, spec.optional) == (text, optional)
    assert [(dim.text, dim.binds) for dim in spec.dims] == [("Batch", True), ("3", False)]


@pytest.mark.parametrize(
    ("annotation", "kind", "text", "items", "repeated"),
    [
        (list[Images], list, f"list[{IMAGES}]", [TensorSpec], True),
        (tuple[Images, ...], tuple, f"tuple[{IMAGES}, ...]", [TensorSpec], True),
        (tuple[Images, Images], tuple, f"tuple[{IMAGES}, {IMAGES}]", [TensorSpec, TensorSpec], False),
        (tuple[Images, int], tuple, f"tuple[{IMAGES}, int]", [TensorSpec, type(None)], False),
        (list[list[Images]], list, f"list[list[{IMAGES}]]", [SequenceSpec], True),
    ],
)
def test_lists_and_tuples_of_tensors_are_sequence_specs(
    annotation: object, kind: type, text: str, items: list[type], repeated: bool
) -> None:
    spec = spec_of(annotation)
    assert isinstance(spec, SequenceSpec)
    assert (spec.kind, spec.text, [type(item) for item in spec.items], spec.repeated) == (kind, text, items, repeated)


def test_a_repeated_sequence_fits_any_length_and_a_fixed_tuple_only_its_own() -> None:
    repeated, fixed = spec_of(tuple[Images, ...]), spec_of(tuple[Images, int])
    assert isinstance(repeated, SequenceSpec) and isinstance(fixed, SequenceSpec)
    assert all(repeated.fits_length(length) for length in range(4)) and repeated.item(3) is repeated.items[0]
    assert [fixed.fits_length(length) for length in range(4)] == [False, False, True, False]
    assert fixed.item(0) is fixed.items[0] and fixed.item(1) is None


def test_a_jaxtyping_array_is_an_array_spec() -> None:
    spec = spec_of(Float[np.ndarray, "N 3"])
    assert isinstance(spec, ArraySpec) and spec.text == "Float[ndarray, 'N 3']"


@pytest.mark.parametrize("annotation", [int, str, list[int], tuple, int | str, Optional[int], Annotated[int, "x"]])
def test_an_annotation_that_names_no_tensor_is_not_ours(annotation: object) -> None:
    assert spec_of(annotation) is None


@pytest.mark.parametrize(
    ("annotation", "message"),
    [
        (dict[str, Images], f"dict[str, Tensor[float32, Batch, Literal[3]]] cannot be checked: {CHECKABLE}"),
        (Callable[..., Images], f"Callable[..., Tensor[float32, Batch, Literal[3]]] cannot be checked: {CHECKABLE}"),
        (TypeVar("Either", Images, int), f"Either cannot be checked: {CHECKABLE}"),
        (Images | int, "Tensor[float32, Batch, Literal[3]] | int cannot be checked: of a union, only X | None is"),
        (
            Images | tt.Tensor[tt.int32, L[2]],
            "Tensor[float32, Batch, Literal[3]] | Tensor[int32, Literal[2]] cannot be checked: of a union, only X | None is",
        ),
    ],
)
def test_an_annotation_that_names_a_tensor_it_cannot_check_is_refused(annotation: object, message: str) -> None:
    with pytest.raises(tt.AnnotationError, match=f"^{re.escape(f'x of f(): {message}')}$"):
        spec_of(annotation)


def test_a_forward_reference_inside_an_annotation_resolves_like_the_whole() -> None:
    spec = annotation_spec(typing.List["Images"], ({"Images": Images}, {}), "x of f()", ())
    assert isinstance(spec, SequenceSpec) and spec.text == f"list[{IMAGES}]"


def test_a_string_inside_a_builtin_generic_resolves_like_the_whole() -> None:
    spec = annotation_spec(list["Images"], ({"Images": Images}, {}), "x of f()", ())
    assert isinstance(spec, SequenceSpec) and spec.text == f"list[{IMAGES}]"


def test_a_functions_jaxtyping_arrays_share_the_dims_of_its_tensors() -> None:
    specs = function_specs(
        [(tt.Tensor[tt.float32, N, Batch], "x"), (Float[np.ndarray, "N Batch Other"], "y"), (int, "return")], NO_NAMES
    )
    tensor, array, plain = specs.specs
    assert isinstance(tensor, TensorSpec) and isinstance(array, ArraySpec) and plain is None
    # every named dim of the Tensor annotations, by the name written and the symbol it binds under
    assert specs.names == tuple(sorted((dim.text, dim.token) for dim in tensor.dims))
    symbols = {name: symbol for symbol, name in array.renamed}
    assert [symbols["N"], symbols["Batch"]] == [dim.token for dim in tensor.dims]
    assert symbols["Other"] not in {dim.token for dim in tensor.dims}
    assert specs.complete


def test_a_name_not_defined_yet_leaves_the_specs_incomplete() -> None:
    specs = function_specs([("Later", "x"), (Images, "return")], ({}, {}))
    assert specs.specs[0] is None and isinstance(specs.specs[1], TensorSpec) and not specs.complete
