from typing import overload

FLUSH_ROWS: int  # float16/float32 column sums: rows added in float32 before each flush into float64
ACC_BYTES: int  # the accumulators of one pass, or of one tile of the innermost kept dim
MIN_TILE: int  # the narrowest tile
V3_LOOPS: int  # 1 if the loops for x86-64-v3 (and v4) run (the CPU has it and TYPEDTENSOR_V3_LOOPS is not 0)

@overload
def reduce(
    op: int, in_type: int, out_type: int, source: object, in_offset: int, target: object, out_offset: int, layout: bytes, divisor: float, /
) -> int: ...
@overload
def reduce(
    op: int, in_type: int, out_type: int, source: object, in_offset: int, target: object, out_offset: int, layout: bytes, divisor: float,
    shares: int, threads: int, /,
) -> int: ...
def units(op: int, in_type: int, out_type: int, layout: bytes, divisor: float, /) -> tuple[int, int]: ...
def workers(wanted: int, /) -> tuple[int, int]: ...
def error_function(complement: bool, source: object, target: object, /) -> None: ...
