"""The layers' rules: ``conv2d``, ``max_pool2d``, ``avg_pool2d`` over ``[N, C, H, W]``, and ``layer_norm``.

A window of ``K`` moved by ``S`` over a dim ``H`` padded by ``P`` on each side fits
``(H + 2P - K) // S + 1`` times (SPEC §7). On literal sizes that is a literal. On named dims it is
the §9 normal form where the division is exact for every size (a stride of 1 gives ``H-2`` for a
kernel of 3; ``2*N`` with kernel 2 and stride 2 gives ``N``); elsewhere a ``Div`` would claim an
exactness that a floor need not have, and the run checks a ``Div`` to be exact, so the dim is
unknown (as a stepped slice's is). Named dims are rigid: the channels of ``x`` and ``w`` as ``C``
and ``3`` may differ (``tensor-dim``). The layers compute in floats: an integer or bool tensor is
``tensor-dtype`` (cast first), and ``conv2d`` promotes its two dtypes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar, Final

from .core import UNKNOWN, D, Dims, DimsMayDiffer, Problem, Shape, Unknown, V, clash, join_operands
from .dim_arithmetic import constant, floor_divided, plus, times
from .dtypes import CATEGORIES, members, promote
from .elementwise import DTypeRefused

#: A stride or a padding per spatial dim (height, width); ``UNKNOWN`` where not literal.
Pair = tuple[int | Unknown, int | Unknown]

#: The dtypes the layers compute in.
_FLOATS: Final = frozenset({*CATEGORIES["floating"], "floating"})
#: The spatial axes of ``[N, C, H, W]``.
_SPATIAL: Final = (2, 3)


@dataclass(frozen=True)
class RankNotFour(Problem):
    """A layer's operand that is not ``[N, C, H, W]`` (``[O, C, KH, KW]`` for a kernel)."""

    code: ClassVar[str] = "tensor-shape"
    position: int  # which operand
    rank: int
    layout: str = "[N, C, H, W]"

    def message(self, op: str, operands: Sequence[str]) -> str:
        return f'Cannot apply "{op}" to {join_operands(operands)}: {"xw"[self.position]} has rank {self.rank}, "{op}" needs {self.layout}'


@dataclass(frozen=True)
class ChannelsDiffer(Problem):
    """``conv2d``'s input channels (axis 1 of ``x``) are not its kernel's (axis 1 of ``w``)."""

    code: ClassVar[str] = "tensor-shape"
    sizes: tuple[int, int]

    def message(self, op: str, operands: Sequence[str]) -> str:
        left, right = self.sizes
        return f'Cannot convolve {join_operands(operands)} for "{op}": channels {left} and {right} at axis 1 differ'


@dataclass(frozen=True)
class WindowTooLarge(Problem):
    """A kernel or pooling window larger than the (padded) input along one spatial axis."""

    code: ClassVar[str] = "tensor-shape"
    axis: int
    window: int
    size: int
    padding: int

    def message(self, op: str, operands: Sequence[str]) -> str:
        padded = f"{self.size} + 2*{self.padding}" if self.padding else str(self.size)
        return f'Cannot apply "{op}" to {join_operands(operands)}: the window {self.window} at axis {self.axis} is larger than the input {padded}'


def conv2d_shape(x: Shape[D, V], w: Shape[D, V], stride: Pair, padding: Pair, dims: Dims[D]) -> Shape[D, V] | Problem:
    """The shape of ``conv2d(x, w, stride, padding)``: ``[N, O, OH, OW]``.

    >>> from typedtensor._shape_rules import INT_DIMS
    >>> conv2d_shape(Shape((8, 3, 32, 32)), Shape((16, 3, 5, 5)), (1, 1), (2, 2), INT_DIMS)
    Shape(prefix=(8, 16, 32, 32), variadic=None, suffix=())
    """
    for position, shape, layout in ((0, x, "[N, C, H, W]"), (1, w, "[O, C, KH, KW]")):
        if shape.rank is not None and shape.rank != 4:
            return RankNotFour(position, shape.rank, layout)
    if x.rank is None or w.rank is None:
        return Shape((UNKNOWN,) * 4)  # the run needs rank 4: four dims, whatever they are
    (n, channels, *spatial), (out, kernel_channels, *kernel) = x.prefix, w.prefix
    sizes = dims.size_of(channels), dims.size_of(kernel_channels)
    if sizes[0] is not None and sizes[1] is not None and sizes[0] != sizes[1]:
        return ChannelsDiffer((sizes[0], sizes[1]))
    windowed = _windowed(spatial, kernel, stride, padding, dims)
    if isinstance(windowed, Problem):
        return windowed
    named = clash(channels, kernel_channels, dims)
    if named is not None:
        return DimsMayDiffer("convolve", named, axis=1, label="channels")
    return Shape((n, out, *windowed))


def pool2d_shape(x: Shape[D, V], size: Pair, stride: Pair, dims: Dims[D]) -> Shape[D, V] | Problem:
    """The shape of ``max_pool2d``/``avg_pool2d(x, size, stride)``: ``[N, C, OH, OW]``, no padding.

    >>> from typedtensor._shape_rules import INT_DIMS
    >>> pool2d_shape(Shape((8, 3, 7, 6)), (2, 2), (2, 2), INT_DIMS)
    Shape(prefix=(8, 3, 3, 3), variadic=None, suffix=())
    """
    if x.rank is not None and x.rank != 4:
        return RankNotFour(0, x.rank)
    if x.rank is None:
        return Shape((UNKNOWN,) * 4)
    n, channels, *spatial = x.prefix
    window = [UNKNOWN if isinstance(k, Unknown) else dims.literal(k) for k in size]
    windowed = _windowed(spatial, window, stride, (0, 0), dims)
    return windowed if isinstance(windowed, Problem) else Shape((n, channels, *windowed))


def _windowed(
    spatial: Sequence[D | Unknown], window: Sequence[D | Unknown], stride: Pair, padding: Pair, dims: Dims[D]
) -> list[D | Unknown] | Problem:
    """The output's height and width, or the problem of a window larger than its input."""
    result: list[D | Unknown] = []
    for axis, size, kernel, step, pad in zip(_SPATIAL, spatial, window, stride, padding):
        dim = windowed_dim(size, kernel, step, pad, dims)
        if isinstance(dim, WindowTooLarge):
            return WindowTooLarge(axis, dim.window, dim.size, dim.padding)
        result.append(dim)
    return result


def windowed_dim(size: D | Unknown, window: D | Unknown, stride: int | Unknown, padding: int | Unknown, dims: Dims[D]) -> D | Unknown | WindowTooLarge:
    """``(size + 2*padding - window) // stride + 1``: a literal on literal sizes, the normal form
    where the division is exact for every size, else unknown."""
    if isinstance(stride, Unknown) or isinstance(padding, Unknown):
        return UNKNOWN
    literal_size, literal_window = dims.size_of(size), dims.size_of(window)
    if literal_size is not None and literal_window is not None:
        if literal_window > literal_size + 2 * padding:
            return WindowTooLarge(0, literal_window, literal_size, padding)
        return dims.literal((literal_size + 2 * padding - literal_window) // stride + 1)
    size_form, window_form = dims.form_of(size), dims.form_of(window)
    if size_form is None or window_form is None:
        return UNKNOWN
    span = plus(plus(size_form, constant(2 * padding)), window_form, -1)
    quotient = floor_divided(span, constant(stride))
    if times(quotient, constant(stride)) != span:
        return UNKNOWN  # a floor that need not be exact: no Div spells it (the run checks a Div)
    return dims.dim_of(plus(quotient, constant(1)))


def layer_dtype(*dtypes: str) -> str | DTypeRefused:
    """The dtype of a layer over tensors of ``dtypes``: their promotion, floats only."""
    refused = [dtype for dtype in dtypes if not set(members(dtype)) <= _FLOATS]
    if refused:
        return DTypeRefused(f"it computes in floats, not {refused[0]}; cast first (x.astype(tt.float32))")
    return promote(*dtypes) if len(dtypes) > 1 else dtypes[0]
