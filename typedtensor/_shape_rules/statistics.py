"""Rules of the statistics (``var``, ``std``, ``nansum`` ...) and the scans (``cumsum``, ``cumprod``).

The statistics reduce as the reductions of §4 do (``reduce_shape``, every axis form); their dtypes
are in ``dtypes.result_dtype``. A scan keeps the shape and checks its one axis as ``softmax`` does
(``axis_problem``).
"""

from __future__ import annotations

from typing import Final

#: The statistics, each a reduction of every axis form (its function has the op's own name).
STATISTIC_OPS: Final = ("var", "std", "nansum", "nanmean", "nanmax", "nanmin")
#: The statistics that take ``ddof`` and are methods of ``Tensor`` too.
DEVIATION_OPS: Final = ("var", "std")
#: The scans, each by the reduction whose dtype rule it follows.
SCAN_OPS: Final = {"cumsum": "sum", "cumprod": "prod"}
