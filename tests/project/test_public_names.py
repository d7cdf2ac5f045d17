"""``typedtensor`` exports exactly these names: a new export or a dropped one fails here.

A new public name also needs its entry in docs/api.md (test_docs_site.py checks that).
"""

from __future__ import annotations

from types import ModuleType

import typedtensor as tt
import typedtensor.linalg
import typedtensor.random

PUBLIC_NAMES = frozenset("""
    Tensor Axis Dim Add Sub Mul Div tensor zeros ones full arange eye
    reduce_sum reduce_mean reduce_max reduce_min reduce_prod reduce_any reduce_all
    argmax argmin softmax log_softmax logsumexp take take_along_axis
    abs negative positive exp log log1p expm1 sqrt square sin cos tanh sigmoid relu floor ceil sign logical_not
    erf tan arctan log2 log10 rsqrt isnan isinf isfinite silu softplus gelu clip
    add subtract multiply divide floor_divide power maximum minimum
    equal not_equal less less_equal greater greater_equal logical_and logical_or where cast
    matmul reshape transpose expand_dims squeeze broadcast_to concat stack tile
    conv2d max_pool2d avg_pool2d layer_norm
    shapechecked check install_import_hook ImportHook
    sort argsort top_k
    einsum
    TypedTensorError ShapeError TensorShapeError AxisError SelectionError BroadcastError MatmulError ReshapeError
    TensorIndexError TensorDTypeError AnnotationError
    bool_ int8 int16 int32 int64 uint8 uint16 uint32 uint64 float16 float32 float64 complex64 complex128
    generic number integer signedinteger unsignedinteger inexact floating complexfloating
    swapaxes moveaxis flatten split pad tril triu one_hot zeros_like ones_like full_like linspace
    var std nansum nanmean nanmax nanmin cumsum cumprod
""".split())


def test_the_public_names_are_exactly_these() -> None:
    # Modules are left out: importing a submodule (typedtensor.lsp) makes it an attribute too.
    public = {name for name, value in vars(tt).items() if not name.startswith("_") and not isinstance(value, ModuleType)}
    assert sorted(public ^ PUBLIC_NAMES) == []


def test_the_random_module_is_exported() -> None:
    assert tt.random is typedtensor.random


def test_the_linalg_module_is_exported_with_its_functions() -> None:
    assert tt.linalg is typedtensor.linalg
    assert sorted(typedtensor.linalg.__all__) == ["cholesky", "det", "eigh", "inv", "norm", "qr", "solve", "svd"]
