"""The docstrings of the generated functions and methods, by name (``Tensor.sum`` for a method).

``tools/generate_signatures.py`` writes each into its function's implementation in
``typedtensor/_generated/`` and ``typedtensor/_tensor.py`` (indentation removed as ``inspect.cleandoc``
does), so that ``help()``, the API reference and the doctests see them there. Edit them here, then
run the generator. The operators (``__add__`` ...) have none: ``typedtensor.add``'s says what they do.
"""

from __future__ import annotations

from typing import Final

DOCSTRINGS: Final[dict[str, str]] = {
    # The elementwise ops (typedtensor._generated.elementwise), in the order written there.
    "abs": "The absolute value, elementwise; of a complex number its magnitude (complex64 -> float32).",
    "negative": "``-x``, elementwise; booleans have none (use ``logical_not``).",
    "positive": "``+x``, elementwise (a copy); booleans have none.",
    "exp": "The exponential, elementwise; booleans and integers compute in a float (int8 -> float16, int32 -> float64).",
    "log": "The natural logarithm, elementwise; booleans and integers compute in a float, as for ``exp``.",
    "log1p": "``log(1 + x)``, elementwise, exact for small ``x``; dtypes as for ``exp``.",
    "expm1": "``exp(x) - 1``, elementwise, exact for small ``x``; dtypes as for ``exp``.",
    "sqrt": "The square root, elementwise; dtypes as for ``exp``.",
    "square": "``x * x``, elementwise; booleans give int8.",
    "sin": "The sine, elementwise; dtypes as for ``exp``.",
    "cos": "The cosine, elementwise; dtypes as for ``exp``.",
    "tanh": "The hyperbolic tangent, elementwise; dtypes as for ``exp``.",
    "sigmoid": "``1 / (1 + exp(-x))``, elementwise, without overflow for any ``x``; real dtypes, computed as ``exp``.",
    "relu": "``maximum(x, 0)``, elementwise, in ``x``'s dtype (NaN stays NaN); real dtypes.",
    "floor": "The largest integer not above ``x``, elementwise; integers keep their dtype; not for complex numbers.",
    "ceil": "The smallest integer not below ``x``, elementwise; integers keep their dtype; not for complex numbers.",
    "sign": "-1, 0 or 1 by the sign of ``x`` (NaN stays NaN), elementwise; booleans have none.",
    "logical_not": "Whether ``x`` is zero, elementwise: ``bool_``.",
    "erf": "The error function, elementwise; real dtypes, computed as ``exp`` (numpy's arrays: ``math.erf``'s values).",
    "tan": "The tangent, elementwise; dtypes as for ``exp``.",
    "arctan": "The inverse tangent, elementwise, in ``(-pi/2, pi/2)``; dtypes as for ``exp``.",
    "log2": "The base-2 logarithm, elementwise; dtypes as for ``exp``.",
    "log10": "The base-10 logarithm, elementwise; dtypes as for ``exp``.",
    "rsqrt": "``1 / sqrt(x)``, elementwise; dtypes as for ``exp``.",
    "isnan": "Whether ``x`` is NaN, elementwise: ``bool_`` (never for booleans and integers).",
    "isinf": "Whether ``x`` is infinite, elementwise: ``bool_``.",
    "isfinite": "Whether ``x`` is neither infinite nor NaN, elementwise: ``bool_``.",
    "silu": "``x * sigmoid(x)``, elementwise, without overflow; real dtypes, computed as ``exp``.",
    "softplus": "``log(1 + exp(x))``, elementwise, without overflow (``maximum(x, 0) + log1p(exp(-|x|))``); real dtypes.",
    "gelu": """
        ``x * Phi(x)``, Phi the standard normal distribution, elementwise; real dtypes, computed as ``exp``.

        Exactly ``x / 2 * erfc(-x / sqrt(2))``; with ``approximate=True`` the tanh form
        ``x / 2 * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x**3)))``. Neither overflows.
    """,
    "add": "``x1 + x2``, elementwise with broadcasting.",
    "subtract": "``x1 - x2``, elementwise with broadcasting; two booleans have none (use ``not_equal``).",
    "multiply": "``x1 * x2``, elementwise with broadcasting.",
    "divide": "``x1 / x2``, elementwise with broadcasting; booleans and integers divide in float64.",
    "floor_divide": "``x1 // x2``, elementwise with broadcasting; booleans divide in int8; not for complex numbers.",
    "power": "``x1 ** x2``, elementwise with broadcasting; booleans compute in int8.",
    "maximum": "The larger of ``x1`` and ``x2``, elementwise with broadcasting; NaN propagates.",
    "minimum": "The smaller of ``x1`` and ``x2``, elementwise with broadcasting; NaN propagates.",
    "equal": "``x1 == x2``, elementwise with broadcasting: ``bool_``.",
    "not_equal": "``x1 != x2``, elementwise with broadcasting: ``bool_``.",
    "less": "``x1 < x2``, elementwise with broadcasting: ``bool_``.",
    "less_equal": "``x1 <= x2``, elementwise with broadcasting: ``bool_``.",
    "greater": "``x1 > x2``, elementwise with broadcasting: ``bool_``.",
    "greater_equal": "``x1 >= x2``, elementwise with broadcasting: ``bool_``.",
    "logical_and": "Whether both ``x1`` and ``x2`` are nonzero, elementwise with broadcasting: ``bool_``.",
    "logical_or": "Whether ``x1`` or ``x2`` is nonzero, elementwise with broadcasting: ``bool_``.",
    "where": "``x1`` where ``condition`` is nonzero, else ``x2``; all three broadcast, ``x1`` and ``x2`` promote.",
    "cast": "``x`` as ``dtype`` (a dtype marker such as ``typedtensor.float32``; a copy, shape kept).",
    "Tensor.astype": "This tensor as ``dtype`` (see ``typedtensor.cast``).",
    # The reductions (typedtensor._generated.reductions), functions and methods.
    "reduce_sum": """
        The sum over ``axis``; ``bool_`` and integers narrower than 64 bits sum in ``int64``/``uint64``.

        >>> import typedtensor as tt
        >>> tt.reduce_sum(tt.ones((2, 3, 4)), axis="^v^")
        Tensor[float32, 3]([8., 8., 8.])
    """,
    "reduce_mean": "The arithmetic mean over ``axis``; integers give ``float64``, an empty extent NaN.",
    "reduce_max": "The maximum over ``axis``; NaN propagates; an empty extent raises ``ValueError``.",
    "reduce_min": "The minimum over ``axis``; NaN propagates; an empty extent raises ``ValueError``.",
    "reduce_prod": "The product over ``axis``; dtypes as for ``reduce_sum``, an empty extent gives 1.",
    "reduce_any": "Whether any element over ``axis`` is nonzero (NaN counts as nonzero); empty gives False.",
    "reduce_all": "Whether every element over ``axis`` is nonzero; an empty extent gives True.",
    "Tensor.sum": "Sum over ``axis`` (see ``typedtensor.reduce_sum``).",
    "Tensor.mean": "Arithmetic mean over ``axis`` (see ``typedtensor.reduce_mean``).",
    "Tensor.max": "Maximum over ``axis``, NaN-propagating (see ``typedtensor.reduce_max``).",
    "Tensor.min": "Minimum over ``axis``, NaN-propagating (see ``typedtensor.reduce_min``).",
    "Tensor.prod": "Product over ``axis`` (see ``typedtensor.reduce_prod``).",
    "Tensor.any": "Whether any element over ``axis`` is nonzero (see ``typedtensor.reduce_any``).",
    "Tensor.all": "Whether every element over ``axis`` is nonzero (see ``typedtensor.reduce_all``).",
    # The ops of one literal axis (typedtensor._generated.shaping).
    "expand_dims": """
        ``x`` with a dim of size 1 inserted to be dim ``axis`` of the result (``-rank-1 <= axis <= rank``).

        >>> import typedtensor as tt
        >>> tt.expand_dims(tt.zeros((2, 3)), -1).shape
        (2, 3, 1)
    """,
    "squeeze": """
        ``x`` without the dims ``axis`` names, each of size 1; with ``axis=None`` every size-1 dim.

        ``axis`` takes the reductions' forms (an int, a tuple or list, a Selection string).

        >>> import typedtensor as tt
        >>> tt.squeeze(tt.zeros((1, 3, 1)), axis=0).shape
        (3, 1)
    """,
    # The statistics (typedtensor._generated.statistics): the reductions' axis forms.
    "var": """
        The variance over ``axis``: the mean squared deviation from the mean, divided by ``count - ddof``.

        Two passes (accurate); floats keep their dtype, integers give ``float64``, complexes their real
        dtype. ``ddof`` at or beyond the count gives ``inf`` or ``nan`` with a ``RuntimeWarning``, as numpy's.

        >>> import typedtensor as tt
        >>> tt.var(tt.tensor([[1.0, 3.0], [2.0, 2.0]]), axis=1)
        Tensor[float64, 2]([1., 0.])
    """,
    "std": "The standard deviation over ``axis``: the square root of ``var`` (same ``ddof``, same dtypes).",
    "nansum": "The sum over ``axis`` of the elements that are not NaN; dtypes as for ``reduce_sum``.",
    "nanmean": "The mean over ``axis`` of the elements that are not NaN; NaN where every one is NaN.",
    "nanmax": "The maximum over ``axis`` ignoring NaN; NaN where every one is NaN; an empty extent raises ``ValueError``.",
    "nanmin": "The minimum over ``axis`` ignoring NaN; NaN where every one is NaN; an empty extent raises ``ValueError``.",
    "Tensor.var": "Variance over ``axis``, divided by ``count - ddof`` (see ``typedtensor.var``).",
    "Tensor.std": "Standard deviation over ``axis``, divided by ``count - ddof`` (see ``typedtensor.std``).",
}
