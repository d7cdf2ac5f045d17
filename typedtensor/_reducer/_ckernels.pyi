FLUSH_ROWS: int  # float16/float32 column sums: rows added in float32 before each flush into float64
F16C: int  # 1 if float16 column sums convert with F16C (the CPU has it and TYPEDTENSOR_F16C is not 0)

def reduce(
    op: int, in_type: int, out_type: int, source: object, in_offset: int, target: object, out_offset: int, layout: bytes, divisor: float, /
) -> None: ...
def error_function(complement: bool, source: object, target: object, /) -> None: ...
