"""What one checked call has bound so far: the tensors and arrays that passed and the dtypes its
constrained TypeVars may still take. The decorator records them as the call's checks pass; the
report reads them to say what was bound when one fails.
"""

from __future__ import annotations

from typing import Any, TypeVar

import numpy as np

from typedtensor._check.annotations import ShapeSpec, TensorSpec, fitting
from typedtensor._check.jaxtyping_arrays import DimNames
from typedtensor._dtypes import generic
from typedtensor._errors import AnnotationError
from typedtensor._ops.backends import is_unknown
from typedtensor._shape_rules import InexactDivision, evaluate, names


class CallRecord:
    """One checked call: its name, the dim names of its ``Tensor`` annotations (for ``check()``'s
    jaxtyping annotations), the tensors and arrays that passed (to report the dims they bound)
    and the constraints its constrained dtype TypeVars may still take."""

    __slots__ = ("checked", "dtype_vars", "name", "names")

    def __init__(self, name: str | None, names: DimNames) -> None:
        self.name = name
        self.names = names
        self.checked: list[tuple[ShapeSpec, tuple[int, ...]]] = []
        self.dtype_vars: dict[TypeVar, tuple[type[generic], ...]] = {}

    def bind_dtype(self, spec: TensorSpec, var: TypeVar, dtype: np.dtype[Any]) -> bool:
        """Whether ``dtype`` fits a constraint ``var`` may still take in this call; narrows them."""
        still = fitting(dtype, self.dtype_vars.get(var, spec.constraints))
        if still:
            self.dtype_vars[var] = still
        return bool(still)


def expression_reason(call: CallRecord, spec: ShapeSpec, shape: tuple[int, ...], where: object) -> str | None:
    """Why a dim expression (``C//H``) of ``spec`` does not match its size in ``shape``, computed
    from the dims bound by the call so far and by ``shape`` itself; None if every one matches.

    ``AnnotationError`` for an expression whose names are not bound by then: its size is unknown.
    """
    if all(dim.expression is None for dim in spec.dims):
        return None
    sizes = _bound_sizes([*call.checked, (spec, shape)])
    for dim, size in spec.aligned(shape):
        if dim.expression is None or is_unknown(size):  # a lazy array's unknown size may be any
            continue
        missing = names(dim.expression) - sizes.keys()
        if missing:
            raise AnnotationError(
                spec.in_dim_names(
                    f"{where}: the dim {dim.text} of {spec.text} is computed from {', '.join(sorted(missing))}, "
                    "which no earlier parameter nor another dim of this annotation binds"
                )
            )
        try:
            value = evaluate(dim.expression, sizes)
        except InexactDivision as error:
            return spec.in_dim_names(f"the dimension size {size} is {dim.text}, but {error}")
        if value != size:
            return f"the dimension size {size} does not equal {dim.text}={value}"
    return None


def _bound_sizes(checked: list[tuple[ShapeSpec, tuple[int, ...]]]) -> dict[str, int]:
    """The size of each named dim (by its jaxtyping symbol) that ``checked`` shapes bind."""
    sizes: dict[str, int] = {}
    for spec, shape in checked:
        for dim, size in spec.aligned(shape):
            if dim.binds and isinstance(size, int):
                sizes.setdefault(dim.token, size)
    return sizes
