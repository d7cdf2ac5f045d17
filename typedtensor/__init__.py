"""typedtensor: tensors whose dtype and shape live in their static type.

>>> from typing import Literal as L
>>> import typedtensor as tt
>>> x: tt.Tensor[tt.float32, L[32], L[5]] = tt.zeros((32, 5), tt.float32)
>>> x.mean(axis=0).shape
(5,)
"""

from typedtensor import linalg as linalg, random as random
from typedtensor._axis_ops import (
    argmax as argmax,
    argmin as argmin,
    log_softmax as log_softmax,
    logsumexp as logsumexp,
    softmax as softmax,
    take as take,
    take_along_axis as take_along_axis,
)
from typedtensor._check.decorator import check as check, shapechecked as shapechecked
from typedtensor._check.import_hook import ImportHook as ImportHook, install_import_hook as install_import_hook
from typedtensor._clipping import clip as clip
from typedtensor._creation import (
    arange as arange,
    eye as eye,
    full as full,
    full_like as full_like,
    linspace as linspace,
    ones as ones,
    ones_like as ones_like,
    tensor as tensor,
    zeros as zeros,
    zeros_like as zeros_like,
)
from typedtensor._dims import Add as Add, Dim as Dim, Div as Div, Mul as Mul, Sub as Sub
from typedtensor._dtypes import (
    bool_ as bool_,
    complex64 as complex64,
    complex128 as complex128,
    complexfloating as complexfloating,
    float16 as float16,
    float32 as float32,
    float64 as float64,
    floating as floating,
    generic as generic,
    inexact as inexact,
    int8 as int8,
    int16 as int16,
    int32 as int32,
    int64 as int64,
    integer as integer,
    number as number,
    signedinteger as signedinteger,
    uint8 as uint8,
    uint16 as uint16,
    uint32 as uint32,
    uint64 as uint64,
    unsignedinteger as unsignedinteger,
)
from typedtensor._einsum import einsum as einsum
from typedtensor._errors import (
    AnnotationError as AnnotationError,
    AxisError as AxisError,
    BroadcastError as BroadcastError,
    MatmulError as MatmulError,
    ReshapeError as ReshapeError,
    SelectionError as SelectionError,
    ShapeError as ShapeError,
    TensorDTypeError as TensorDTypeError,
    TensorIndexError as TensorIndexError,
    TensorShapeError as TensorShapeError,
    TypedTensorError as TypedTensorError,
)
from typedtensor._generated.elementwise import (
    abs as abs,
    add as add,
    arctan as arctan,
    cast as cast,
    ceil as ceil,
    cos as cos,
    divide as divide,
    equal as equal,
    erf as erf,
    exp as exp,
    expm1 as expm1,
    floor as floor,
    floor_divide as floor_divide,
    gelu as gelu,
    greater as greater,
    greater_equal as greater_equal,
    isfinite as isfinite,
    isinf as isinf,
    isnan as isnan,
    less as less,
    less_equal as less_equal,
    log as log,
    log1p as log1p,
    log2 as log2,
    log10 as log10,
    logical_and as logical_and,
    logical_not as logical_not,
    logical_or as logical_or,
    maximum as maximum,
    minimum as minimum,
    multiply as multiply,
    negative as negative,
    not_equal as not_equal,
    positive as positive,
    power as power,
    relu as relu,
    rsqrt as rsqrt,
    sigmoid as sigmoid,
    sign as sign,
    silu as silu,
    sin as sin,
    softplus as softplus,
    sqrt as sqrt,
    square as square,
    subtract as subtract,
    tan as tan,
    tanh as tanh,
    where as where,
)
from typedtensor._generated.reductions import (
    reduce_all as reduce_all,
    reduce_any as reduce_any,
    reduce_max as reduce_max,
    reduce_mean as reduce_mean,
    reduce_min as reduce_min,
    reduce_prod as reduce_prod,
    reduce_sum as reduce_sum,
)
from typedtensor._generated.shaping import expand_dims as expand_dims, squeeze as squeeze
from typedtensor._generated.statistics import (
    nanmax as nanmax,
    nanmean as nanmean,
    nanmin as nanmin,
    nansum as nansum,
    std as std,
    var as var,
)
from typedtensor._layers import avg_pool2d as avg_pool2d, conv2d as conv2d, layer_norm as layer_norm, max_pool2d as max_pool2d
from typedtensor._linalg import matmul as matmul
from typedtensor._rearranging import (
    flatten as flatten,
    moveaxis as moveaxis,
    one_hot as one_hot,
    pad as pad,
    split as split,
    swapaxes as swapaxes,
    tril as tril,
    triu as triu,
)
from typedtensor._shaping import (
    broadcast_to as broadcast_to,
    concat as concat,
    reshape as reshape,
    stack as stack,
    tile as tile,
    transpose as transpose,
)
from typedtensor._sorting import argsort as argsort, sort as sort, top_k as top_k
from typedtensor._statistics import cumprod as cumprod, cumsum as cumsum
from typedtensor._tensor import Axis as Axis, Tensor as Tensor

__version__ = "0.1.0"
