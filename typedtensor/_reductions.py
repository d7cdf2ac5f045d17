"""What the reduction functions ``reduce_sum`` ... ``reduce_all`` run (numpy's arrays through the
reducer, other libraries' through their own); their declared signatures, generated, are in
``_generated/reductions.py``.

``axis`` follows TensorFlow: ``None`` reduces every dim; an int (negative counts from the end)
or a tuple or list of them (any order, repeats count once, ``()`` reduces nothing) reduces those
dims; a Selection string has one character per dim, ``^`` to reduce it and ``v`` to keep it.
With ``keepdims=True`` every reduced dim stays with size 1. Bad axes raise ``AxisError`` naming
every one of them, and a bad Selection ``SelectionError``.
"""

from __future__ import annotations

import numpy as np

from typedtensor._ops.reductions import reduce_array
from typedtensor._reducer import planner as _reducer
from typedtensor._tensor import AnyTensor, Tensor, tensor_fix, wrap


def reduce_tensor(op: str, x: object, axis: object, keepdims: bool, caller: str) -> AnyTensor:
    """``reduce_<op>`` of ``x``: its array reduced by the reducer, wrapped; ``caller`` names the function in errors."""
    if not isinstance(x, Tensor):
        raise TypeError(f'"{caller}": expected a typedtensor.Tensor, got {type(x).__name__}; {tensor_fix(x)}')
    array = x._array
    return wrap((_reducer.reduce_array if type(array) is np.ndarray else reduce_array)(op, array, axis, keepdims, caller))
