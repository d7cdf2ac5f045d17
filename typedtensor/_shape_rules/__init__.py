"""Shape and dtype rules of every op, written once.

Pure Python with no numpy and no mypy import: the runtime calls the rules with ints, the mypy
plugin with mypy types. A rule returns a result or a ``Problem`` instead of raising, so each
caller reports it in its own voice (an exception, a mypy error) with the same words. One module
per kind of rule; this package re-exports them all.
"""

from .axis_ops import (
    RankMismatch as RankMismatch,
    argextreme_shape as argextreme_shape,
    axis_problem as axis_problem,
    take_along_axis_shape as take_along_axis_shape,
    take_shape as take_shape,
)
from .broadcast import BroadcastMismatch as BroadcastMismatch, broadcast_shapes as broadcast_shapes
from .core import (
    INT_DIMS as INT_DIMS,
    UNKNOWN as UNKNOWN,
    Clash as Clash,
    Dims as Dims,
    DimsMayDiffer as DimsMayDiffer,
    Problem as Problem,
    Shape as Shape,
    Unknown as Unknown,
    format_tensor as format_tensor,
    join_operands as join_operands,
    join_shapes as join_shapes,
)
from .creation import (
    NestedData as NestedData,
    ZeroStep as ZeroStep,
    arange_shape as arange_shape,
    data_dtype as data_dtype,
    data_shape as data_shape,
    eye_shape as eye_shape,
)
from .dim_arithmetic import (
    OPERATION_NAMES as OPERATION_NAMES,
    InexactDivision as InexactDivision,
    Operation as Operation,
    OperationName as OperationName,
    Polynomial as Polynomial,
    Tree as Tree,
    canonical_tree as canonical_tree,
    claimed_equal as claimed_equal,
    evaluate as evaluate,
    exact_quotient as exact_quotient,
    expression_text as expression_text,
    names as names,
    normal_form as normal_form,
    operated as operated,
    parse_expression as parse_expression,
)
from .dtypes import (
    CATEGORIES as CATEGORIES,
    CONCRETE as CONCRETE,
    ScalarKind as ScalarKind,
    promote as promote,
    promote_scalar as promote_scalar,
    result_dtype as result_dtype,
)
from .einsum import EinsumProblem as EinsumProblem, einsum_shape as einsum_shape
from .elementwise import (
    BINARY_METHODS as BINARY_METHODS,
    BINARY_RULES as BINARY_RULES,
    REFLECTED_METHODS as REFLECTED_METHODS,
    SCALAR_KINDS as SCALAR_KINDS,
    SWAPPED_COMPARISONS as SWAPPED_COMPARISONS,
    UNARY_METHODS as UNARY_METHODS,
    UNARY_RULES as UNARY_RULES,
    CategoryNotDType as CategoryNotDType,
    DTypeRefused as DTypeRefused,
    binary_dtype as binary_dtype,
    cast_dtype as cast_dtype,
    clip_dtype as clip_dtype,
    is_scalar_kind as is_scalar_kind,
    unary_dtype as unary_dtype,
    where_dtype as where_dtype,
    wrong_operand as wrong_operand,
)
from .encoding import (
    counted_shape as counted_shape,
    one_hot_dtype_problem as one_hot_dtype_problem,
    one_hot_shape as one_hot_shape,
)
from .indexing import (
    ArrayIndex as ArrayIndex,
    IndexItem as IndexItem,
    IndexOutOfRange as IndexOutOfRange,
    MaskMismatch as MaskMismatch,
    SeveralEllipses as SeveralEllipses,
    TooManyIndices as TooManyIndices,
    bool_index_message as bool_index_message,
    index_problem as index_problem,
    index_shape as index_shape,
    indexed_axes as indexed_axes,
    slice_dim as slice_dim,
)
from .joins import concat_shape as concat_shape, stack_shape as stack_shape
from .layers import (
    ChannelsDiffer as ChannelsDiffer,
    RankNotFour as RankNotFour,
    WindowTooLarge as WindowTooLarge,
    conv2d_shape as conv2d_shape,
    layer_dtype as layer_dtype,
    pool2d_shape as pool2d_shape,
)
from .linalg import (
    SQUARE_OPS as SQUARE_OPS,
    MayNotBeSquare as MayNotBeSquare,
    NotAMatrix as NotAMatrix,
    NotSquare as NotSquare,
    SolveMismatch as SolveMismatch,
    linalg_dtype as linalg_dtype,
    qr_shapes as qr_shapes,
    solve_shape as solve_shape,
    square_shapes as square_shapes,
    svd_shapes as svd_shapes,
)
from .matmul import BatchDimsDiffer as BatchDimsDiffer, Flag as Flag, InnerDimsDiffer as InnerDimsDiffer, matmul_shape as matmul_shape
from .rearranging import (
    AxisArg as AxisArg,
    Sections as Sections,
    Widths as Widths,
    flatten_shape as flatten_shape,
    matrix_kept_shape as matrix_kept_shape,
    moveaxis_order as moveaxis_order,
    moveaxis_shape as moveaxis_shape,
    pad_shape as pad_shape,
    split_shapes as split_shapes,
    swapaxes_shape as swapaxes_shape,
)
from .reductions import (
    REDUCTION_OPS as REDUCTION_OPS,
    SELECTION_KEEP as SELECTION_KEEP,
    SELECTION_REDUCE as SELECTION_REDUCE,
    AxisKey as AxisKey,
    AxisOutOfRange as AxisOutOfRange,
    AxisSpec as AxisSpec,
    InvalidSelection as InvalidSelection,
    apply_mask as apply_mask,
    bool_axis_kind as bool_axis_kind,
    reduce_shape as reduce_shape,
    reduced_mask as reduced_mask,
    selection_problem as selection_problem,
    wrong_axis_kind as wrong_axis_kind,
)
from .reshaping import (
    INFER as INFER,
    CountMayDiffer as CountMayDiffer,
    DimMayNotBroadcast as DimMayNotBroadcast,
    Sizes as Sizes,
    broadcast_to_shape as broadcast_to_shape,
    expand_dims_shape as expand_dims_shape,
    format_sizes as format_sizes,
    permute_shape as permute_shape,
    reshape_shape as reshape_shape,
    squeeze_shape as squeeze_shape,
    tile_shape as tile_shape,
)
from .sorting import KBeyondAxis as KBeyondAxis, sort_shape as sort_shape, top_k_shape as top_k_shape
from .statistics import (
    DEVIATION_OPS as DEVIATION_OPS,
    SCAN_OPS as SCAN_OPS,
    STATISTIC_OPS as STATISTIC_OPS,
)
from .updates import (
    NotOneElement as NotOneElement,
    ValueDoesNotFit as ValueDoesNotFit,
    ValueWouldPromote as ValueWouldPromote,
    one_element_problem as one_element_problem,
    update_dtype_problem as update_dtype_problem,
    update_problem as update_problem,
)
