"""The error codes of typedtensor's static checks (SPEC §5).

Each can be switched off with ``disable_error_code`` and silenced with ``# type: ignore[code]``;
``tensor-unknown`` is off until ``enable_error_code`` switches it on.
Defining an ``ErrorCode`` registers it with mypy, so all of them exist from the start. A rule's
problem names its code (``Problem.code``); ``ERROR_CODES`` finds the mypy code of that name.
"""

from typing import Final

from mypy.errorcodes import ErrorCode

_CATEGORY: Final = "typedtensor"

TENSOR_AXIS: Final = ErrorCode("tensor-axis", "Check that axes are in range", _CATEGORY)
TENSOR_SELECTION: Final = ErrorCode("tensor-selection", "Check that a Selection string fits the rank", _CATEGORY)
TENSOR_BROADCAST: Final = ErrorCode("tensor-broadcast", "Check that operand shapes broadcast", _CATEGORY)
TENSOR_MATMUL: Final = ErrorCode("tensor-matmul", "Check that matmul inner dims agree", _CATEGORY)
TENSOR_RESHAPE: Final = ErrorCode("tensor-reshape", "Check that a reshape keeps the element count", _CATEGORY)
TENSOR_SHAPE: Final = ErrorCode("tensor-shape", "Check other shape rules of tensor ops", _CATEGORY)
TENSOR_INDEX: Final = ErrorCode("tensor-index", "Check that literal indices are in range", _CATEGORY)
TENSOR_DTYPE: Final = ErrorCode("tensor-dtype", "Check that an op is defined for its operands' dtypes", _CATEGORY)
TENSOR_DIM: Final = ErrorCode("tensor-dim", "Check that a named dim meets no other size where dims must agree", _CATEGORY)
#: Off by default: not a bug, a place where precision was lost (enable it to tighten a codebase).
TENSOR_UNKNOWN: Final = ErrorCode("tensor-unknown", "Report each op whose result gained unknown dims", _CATEGORY, default_enabled=False)

ERROR_CODES: Final = {
    code.code: code
    for code in (TENSOR_AXIS, TENSOR_SELECTION, TENSOR_BROADCAST, TENSOR_MATMUL, TENSOR_RESHAPE, TENSOR_SHAPE, TENSOR_INDEX, TENSOR_DTYPE, TENSOR_DIM, TENSOR_UNKNOWN)
}
