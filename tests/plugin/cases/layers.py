"""conv2d and the pools over [N, C, H, W]: ``(H + 2P - K) // S + 1``, a literal on literal sizes, the
normal form where it is exact on named dims, unknown where a floor need not be exact; layer_norm keeps the shape."""

from typing import Any, Final, Literal as L, TypeVar, TypeVarTuple, assert_type

import typedtensor as tt
from typedtensor import Add, Dim, Mul, Sub, Tensor, float32, float64, int32

N = TypeVar("N")
H = TypeVar("H")
FT = TypeVar("FT", bound=tt.floating)

STRIDE: Final = 2


class Batch(Dim): ...


class Channels(Dim): ...


def literal(x: Tensor[float32, L[8], L[3], L[32], L[30]], w: Tensor[float32, L[16], L[3], L[5], L[3]], w64: Tensor[float64, L[16], L[3], L[5], L[3]]) -> None:
    assert_type(tt.conv2d(x, w), Tensor[float32, L[8], L[16], L[28], L[28]])
    assert_type(tt.conv2d(x, w, padding=(2, 1)), Tensor[float32, L[8], L[16], L[32], L[30]])
    assert_type(tt.conv2d(x, w, stride=2), Tensor[float32, L[8], L[16], L[14], L[14]])
    assert_type(tt.conv2d(x, w, STRIDE, 1), Tensor[float32, L[8], L[16], L[15], L[15]])
    assert_type(tt.conv2d(x, w, stride=(3, 1)), Tensor[float32, L[8], L[16], L[10], L[28]])
    assert_type(tt.conv2d(x, w64), Tensor[float64, L[8], L[16], L[28], L[28]])
    assert_type(tt.max_pool2d(x, 2), Tensor[float32, L[8], L[3], L[16], L[15]])
    assert_type(tt.max_pool2d(x, 3, stride=2), Tensor[float32, L[8], L[3], L[15], L[14]])
    assert_type(tt.avg_pool2d(x, (4, 2), stride=(4, 3)), Tensor[float32, L[8], L[3], L[8], L[10]])
    assert_type(tt.layer_norm(x), Tensor[float32, L[8], L[3], L[32], L[30]])
    assert_type(tt.layer_norm(x, axis=1, eps=1e-6), Tensor[float32, L[8], L[3], L[32], L[30]])


def unknown_arguments(x: Tensor[float32, L[8], L[3], L[32], L[30]], w: Tensor[float32, L[16], L[3], L[5], L[3]], s: int) -> None:
    assert_type(tt.conv2d(x, w, stride=s), Tensor[float32, L[8], L[16], Any, Any])
    assert_type(tt.conv2d(x, w, stride=(s, 1)), Tensor[float32, L[8], L[16], Any, L[28]])
    assert_type(tt.max_pool2d(x, s), Tensor[float32, L[8], L[3], Any, Any])


def named(x: Tensor[float32, Batch, Channels, H, Mul[L[2], N]], w: Tensor[float32, L[4], Channels, L[3], L[2]]) -> None:
    assert_type(tt.conv2d(x, w), Tensor[float32, Batch, L[4], Sub[H, L[2]], Sub[Mul[L[2], N], L[1]]])
    assert_type(tt.conv2d(x, w, padding=1), Tensor[float32, Batch, L[4], H, Add[Mul[L[2], N], L[1]]])
    assert_type(tt.conv2d(x, w, stride=2), Tensor[float32, Batch, L[4], Any, N])  # (H-3)//2+1 need not be exact: unknown
    assert_type(tt.max_pool2d(x, 2), Tensor[float32, Batch, Channels, Any, N])
    assert_type(tt.avg_pool2d(x, (1, 2), stride=(1, 2)), Tensor[float32, Batch, Channels, H, N])
    assert_type(tt.layer_norm(x, axis=-2), Tensor[float32, Batch, Channels, H, Mul[L[2], N]])


def generic_dtype(x: Tensor[FT, L[2], L[3], L[4], L[4]], w: Tensor[FT, L[5], L[3], L[3], L[3]], w32: Tensor[float32, L[5], L[3], L[3], L[3]]) -> None:
    assert_type(tt.max_pool2d(x, 2), Tensor[FT, L[2], L[3], L[2], L[2]])
    assert_type(tt.layer_norm(x), Tensor[FT, L[2], L[3], L[4], L[4]])
    assert_type(tt.conv2d(x, w), Tensor[FT, L[2], L[5], L[2], L[2]])
    assert_type(tt.conv2d(x, w32), Tensor[Any, L[2], L[5], L[2], L[2]])  # FT and float32 promote to float32 or float64


def errors(
    x: Tensor[float32, L[8], L[3], L[32], L[30]],
    w4: Tensor[float32, L[16], L[4], L[5], L[3]],
    big: Tensor[float32, L[16], L[3], L[33], L[3]],
    flat: Tensor[float32, L[8], L[96]],
    ints: Tensor[int32, L[8], L[3], L[32], L[30]],
    named: Tensor[float32, Batch, Channels, L[32], L[30]],
    w: Tensor[float32, L[16], L[3], L[5], L[3]],
) -> None:
    tt.conv2d(x, w4)  # type: ignore[tensor-shape]  # channels 3 and 4
    tt.conv2d(x, big)  # type: ignore[tensor-shape]  # the kernel's 33 is larger than 32
    tt.conv2d(named, w)  # type: ignore[tensor-dim]  # Channels and 3 may differ
    tt.max_pool2d(flat, 2)  # type: ignore[tensor-shape]  # rank 2
    tt.max_pool2d(x, 31)  # type: ignore[tensor-shape]  # larger than 30
    tt.avg_pool2d(ints, 2)  # type: ignore[tensor-dtype]
    tt.layer_norm(x, axis=4)  # type: ignore[tensor-axis]
    assert_type(tt.conv2d(named, w, padding=2), Tensor[float32, *tuple[Any, ...]])  # type: ignore[tensor-dim]


LayerShape = TypeVarTuple("LayerShape")


def generic_rank(images: Tensor[float32, *LayerShape]) -> None:
    assert_type(tt.conv2d(images, images, padding=1), Tensor[float32, Any, Any, Any, Any])  # rank 4 for the run to pass
    assert_type(tt.max_pool2d(images, 2), Tensor[float32, Any, Any, Any, Any])


def dims_as_ints(images: Tensor[float32, L[1], L[2], H, H], kernels: Tensor[float32, L[4], L[2], N, N]) -> None:
    """A window, stride or padding read from a shape is an int known at run time: the spatial dims
    are unknown, the rest stays known (SPEC 5)."""
    assert_type(tt.max_pool2d(images, images.shape[2]), Tensor[float32, L[1], L[2], Any, Any])
    assert_type(tt.avg_pool2d(images, 1, stride=(images.shape[3], 1)), Tensor[float32, L[1], L[2], Any, H])
    assert_type(tt.conv2d(images, kernels, padding=kernels.shape[2] // 2), Tensor[float32, L[1], L[4], Any, Any])
