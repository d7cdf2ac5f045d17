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
