"""The layers: ``conv2d``, ``max_pool2d``, ``avg_pool2d`` over ``[N, C, H, W]``, and ``layer_norm``.

Each checks its call with the shared rules before the library computes
(``typedtensor._ops.layers``, on the tensors' arrays). A window of ``K`` moved by ``S`` over a dim
``H`` padded by ``P`` fits ``(H + 2P - K) // S + 1`` times. The declared types know the batch and
channel dims; the spatial dims are unknown to them (standard typing has no arithmetic), and the
mypy plugin computes them (SPEC §7, §9). The layers compute in floats: cast integer tensors first.
"""

from __future__ import annotations

from typing import Any, SupportsIndex, TypeVar, overload

from typedtensor._generated.type_vars import FloatingT, N, Shape
from typedtensor._ops import layers as _layers
from typedtensor._tensor import Tensor, unwrap, wrap

#: The channels of a pool's input, kept. (Not shared by a convolution's input and kernels: a
#: checker could not solve one TypeVar from ``C`` and an ``int`` that may be equal at run time.)
Channels = TypeVar("Channels")
#: The output channels of a convolution: its kernels' count.
OutChannels = TypeVar("OutChannels")
#: A stride, a padding or a window: one int for both spatial dims, or a pair (height, width).
Window = int | tuple[int, int]
#: A tensor whose rank the declared types do not see (``Tensor[DT, *Ts]``): the run needs rank 4,
#: so each layer's last overload takes it and gives four unknown dims, never a false error.
_AnyRank = tuple[Any, ...]


@overload
def conv2d(
    x: Tensor[FloatingT, N, Any, Any, Any], w: Tensor[FloatingT, OutChannels, Any, Any, Any], stride: Window = 1, padding: Window = 0
) -> Tensor[FloatingT, N, OutChannels, Any, Any]: ...
@overload
def conv2d(x: Tensor[FloatingT, *_AnyRank], w: Tensor[FloatingT, *_AnyRank], stride: Window = 1, padding: Window = 0) -> Tensor[FloatingT, Any, Any, Any, Any]: ...
def conv2d(x: Tensor[FloatingT, *_AnyRank], w: Tensor[FloatingT, *_AnyRank], stride: Window = 1, padding: Window = 0) -> Tensor[FloatingT, Any, Any, Any, Any]:
    """The 2-D cross-correlation (a deep-learning convolution) of ``x`` ``[N, C, H, W]`` with the
    kernels ``w`` ``[O, C, KH, KW]``, zero-padded by ``padding`` on each side: ``[N, O, OH, OW]``,
    ``OH = (H + 2*padding - KH) // stride + 1``. The channels must agree; the dtype is the floats' promotion.

    >>> import typedtensor as tt
    >>> tt.conv2d(tt.ones((1, 2, 4, 4)), tt.ones((3, 2, 3, 3)), padding=1)[0, 0]
    Tensor[float32, 4, 4]([[ 8., 12., 12.,  8.],
                           [12., 18., 18., 12.],
                           [12., 18., 18., 12.],
                           [ 8., 12., 12.,  8.]])
    """
    return wrap(_layers.conv2d(unwrap("conv2d", x), unwrap("conv2d", w, "w"), stride, padding))


@overload
def max_pool2d(x: Tensor[FloatingT, N, Channels, Any, Any], size: Window, stride: Window | None = None) -> Tensor[FloatingT, N, Channels, Any, Any]: ...
@overload
def max_pool2d(x: Tensor[FloatingT, *_AnyRank], size: Window, stride: Window | None = None) -> Tensor[FloatingT, Any, Any, Any, Any]: ...
def max_pool2d(x: Tensor[FloatingT, *_AnyRank], size: Window, stride: Window | None = None) -> Tensor[FloatingT, Any, Any, Any, Any]:
    """The largest element of each ``size`` window of ``x`` ``[N, C, H, W]``, the windows ``stride``
    apart (``size`` if None), without padding: ``OH = (H - size) // stride + 1``.

    >>> import typedtensor as tt
    >>> tt.max_pool2d(tt.arange(16).astype(tt.float32).reshape((1, 1, 4, 4)), 2)
    Tensor[float32, 1, 1, 2, 2]([[[[ 5.,  7.],
                                   [13., 15.]]]])
    """
    return wrap(_layers.max_pool2d(unwrap("max_pool2d", x), size, stride))


@overload
def avg_pool2d(x: Tensor[FloatingT, N, Channels, Any, Any], size: Window, stride: Window | None = None) -> Tensor[FloatingT, N, Channels, Any, Any]: ...
@overload
def avg_pool2d(x: Tensor[FloatingT, *_AnyRank], size: Window, stride: Window | None = None) -> Tensor[FloatingT, Any, Any, Any, Any]: ...
def avg_pool2d(x: Tensor[FloatingT, *_AnyRank], size: Window, stride: Window | None = None) -> Tensor[FloatingT, Any, Any, Any, Any]:
    """The mean of each ``size`` window of ``x`` ``[N, C, H, W]``; otherwise as ``max_pool2d``."""
    return wrap(_layers.avg_pool2d(unwrap("avg_pool2d", x), size, stride))


def layer_norm(x: Tensor[FloatingT, *Shape], axis: SupportsIndex = -1, eps: float = 1e-5) -> Tensor[FloatingT, *Shape]:
    """``(x - mean) / sqrt(var + eps)`` along one ``axis``. No weight or bias: multiply and add
    your own (``layer_norm(x) * gamma + beta`` broadcasts), so they stay typed tensors you own.

    >>> import typedtensor as tt
    >>> tt.layer_norm(tt.tensor([[1.0, 3.0]]))
    Tensor[float64, 1, 2]([[-0.999995,  0.999995]])
    """
    return wrap(_layers.layer_norm(unwrap("layer_norm", x), axis, eps))
