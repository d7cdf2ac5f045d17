/*
 * The reduction loops of integers and bools, and any/all of every dtype (_ckernels.c has the
 * float ones, the walk and the entry point): the second unit of the extension, compiled at the
 * same time as the first (setup.py). int32 and int64 sums, means, max and min, and int32
 * products, are cloned for x86-64-v3 and compiled at -O3, as the float kernels are (int32
 * products at the baseline ran at half the speed; their clone added no measurable compile time,
 * 14.0 s of CPU for this unit against 19.3 for the other); the others (bool, 8- and 16-bit and
 * unsigned integers, 64-bit products, any/all), rarely reduced in bulk, once at the baseline
 * with -O2 and the vectoriser: two x86-64-v3 clones at -O3 of every family took the build to
 * 45-90 s (issue 20 asks for under 30). Those run at 0.5-0.9x the cloned loops' speed in cache
 * in columns, faster in rows of short integers.
 */
/* no row pairs here: int32 sums over (0, 3) gained 1.0-1.04x with them, and over (1, 3) and
 * (0, 1, 3) (calls of 5 rows, never paired) their code beside the rows loop made it 0.88-0.92x */
#define ROW_PAIRS 0
#include "_ckernels_loops.h"

VECTOR_INTEGER_SUM(i32, int32_t, load_u64_int32_t)
VECTOR_INTEGER_SUM(i64, int64_t, load_u64_int64_t)
DOUBLE_SUM(i32, 4) DOUBLE_SUM(i64, 8)
EXTREMES(i32, int32_t, load_int32_t, INT32_MIN, INT32_MAX, MAX_INT, MIN_INT)
EXTREMES(i64, int64_t, load_int64_t, INT64_MIN, INT64_MAX, MAX_INT, MIN_INT)
INTEGER_PROD(i32, int32_t, load_u64_int32_t)

#undef KERNEL_TARGET
#define KERNEL_TARGET /* one version, at the baseline */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("O2", "tree-vectorize", "vect-cost-model=dynamic")
#endif
INTEGER_FAMILY(b, uint8_t, load_u64_bool)
INTEGER_FAMILY(i8, int8_t, load_u64_int8_t)
INTEGER_FAMILY(u8, uint8_t, load_u64_uint8_t)
INTEGER_FAMILY(i16, int16_t, load_u64_int16_t)
INTEGER_FAMILY(u16, uint16_t, load_u64_uint16_t)
VECTOR_INTEGER_SUM(u32, uint32_t, load_u64_uint32_t)
INTEGER_PROD(u32, uint32_t, load_u64_uint32_t)
INTEGER_PROD(i64, int64_t, load_u64_int64_t)
INTEGER_FAMILY(u64, uint64_t, load_u64_uint64_t)
DOUBLE_SUM(b, 1) DOUBLE_SUM(i8, 1) DOUBLE_SUM(u8, 1) DOUBLE_SUM(i16, 2) DOUBLE_SUM(u16, 2) DOUBLE_SUM(u32, 4)
DOUBLE_SUM(u64, 8)
EXTREMES(b, uint8_t, load_flag, 0, 1, MAX_INT, MIN_INT)
EXTREMES(i8, int8_t, load_int8_t, INT8_MIN, INT8_MAX, MAX_INT, MIN_INT)
EXTREMES(u8, uint8_t, load_uint8_t, 0, UINT8_MAX, MAX_INT, MIN_INT)
EXTREMES(i16, int16_t, load_int16_t, INT16_MIN, INT16_MAX, MAX_INT, MIN_INT)
EXTREMES(u16, uint16_t, load_uint16_t, 0, UINT16_MAX, MAX_INT, MIN_INT)
EXTREMES(u32, uint32_t, load_uint32_t, 0, UINT32_MAX, MAX_INT, MIN_INT)
EXTREMES(u64, uint64_t, load_uint64_t, 0, UINT64_MAX, MAX_INT, MIN_INT)
LOGICAL(b, 1) LOGICAL(i8, 1) LOGICAL(u8, 1) LOGICAL(i16, 2) LOGICAL(u16, 2) LOGICAL(i32, 4) LOGICAL(u32, 4)
LOGICAL(i64, 8) LOGICAL(u64, 8) LOGICAL(f16, 2) LOGICAL(f32, 4) LOGICAL(f64, 8)

#define SMALL_INTEGERS(PREFIX, ACC, KIND)                                                             \
    [T_BOOL] = OPS(PREFIX##_b, ACC, KIND), [T_I8] = OPS(PREFIX##_i8, ACC, KIND), [T_U8] = OPS(PREFIX##_u8, ACC, KIND), \
    [T_I16] = OPS(PREFIX##_i16, ACC, KIND), [T_U16] = OPS(PREFIX##_u16, ACC, KIND),                  \
    [T_U32] = OPS(PREFIX##_u32, ACC, KIND), [T_U64] = OPS(PREFIX##_u64, ACC, KIND)
#define SMALL_EXTREMES(OP)                                                                            \
    [T_BOOL] = OPS(OP##_b, uint8_t, ACC_FLAG), [T_I8] = OPS(OP##_i8, int8_t, ACC_NATIVE),            \
    [T_U8] = OPS(OP##_u8, uint8_t, ACC_NATIVE), [T_I16] = OPS(OP##_i16, int16_t, ACC_NATIVE),        \
    [T_U16] = OPS(OP##_u16, uint16_t, ACC_NATIVE), [T_U32] = OPS(OP##_u32, uint32_t, ACC_NATIVE),    \
    [T_U64] = OPS(OP##_u64, uint64_t, ACC_NATIVE)
#define EVERY_TYPE_FLAG(OP)                                                                           \
    [T_BOOL] = OPS(OP##_b, uint8_t, ACC_FLAG), [T_I8] = OPS(OP##_i8, uint8_t, ACC_FLAG),             \
    [T_U8] = OPS(OP##_u8, uint8_t, ACC_FLAG), [T_I16] = OPS(OP##_i16, uint8_t, ACC_FLAG),            \
    [T_U16] = OPS(OP##_u16, uint8_t, ACC_FLAG), [T_I32] = OPS(OP##_i32, uint8_t, ACC_FLAG),          \
    [T_U32] = OPS(OP##_u32, uint8_t, ACC_FLAG), [T_I64] = OPS(OP##_i64, uint8_t, ACC_FLAG),          \
    [T_U64] = OPS(OP##_u64, uint8_t, ACC_FLAG), [T_F16] = OPS(OP##_f16, uint8_t, ACC_FLAG),          \
    [T_F32] = OPS(OP##_f32, uint8_t, ACC_FLAG), [T_F64] = OPS(OP##_f64, uint8_t, ACC_FLAG)
/* int32 means add in int64, exactly, as int32 sums do (their double accumulators were exact too below
 * 2^53, so the same results, at the speed of the sums: 1.5-1.9x, session 29); the sum is converted
 * and divided once (find_store). Where a call combines 2^32 elements or more into each result, an
 * int64 sum could wrap: those add in double (find_ops; each part of a cut plan is its own call). */
const Ops int32_double_mean = OPS(dsum_i32, double, ACC_DOUBLE);
const Ops integer_ops[N_OPS][N_TYPES] = {
    [OP_SUM] = {SMALL_INTEGERS(sum, uint64_t, ACC_U64), [T_I32] = OPS(sum_i32, uint64_t, ACC_U64),
                [T_I64] = OPS(sum_i64, uint64_t, ACC_U64)},
    [OP_MEAN] = {SMALL_INTEGERS(dsum, double, ACC_DOUBLE), [T_I32] = OPS(sum_i32, uint64_t, ACC_U64),
                 [T_I64] = OPS(dsum_i64, double, ACC_DOUBLE)},
    [OP_PROD] = {SMALL_INTEGERS(prod, uint64_t, ACC_U64), [T_I32] = OPS(prod_i32, uint64_t, ACC_U64),
                 [T_I64] = OPS(prod_i64, uint64_t, ACC_U64)},
    [OP_MAX] = {SMALL_EXTREMES(max), [T_I32] = OPS(max_i32, int32_t, ACC_NATIVE), [T_I64] = OPS(max_i64, int64_t, ACC_NATIVE)},
    [OP_MIN] = {SMALL_EXTREMES(min), [T_I32] = OPS(min_i32, int32_t, ACC_NATIVE), [T_I64] = OPS(min_i64, int64_t, ACC_NATIVE)},
    [OP_ANY] = {EVERY_TYPE_FLAG(any)},
    [OP_ALL] = {EVERY_TYPE_FLAG(all)},
};

/* int32 max and min in AVX-512 column strips (x86-64-v4), as the float ones of _ckernels.c: rows of
 * up to 256 elements whole in up to 16 registers of 16 lanes, 16 rows or more per call. A/B (session 25):
 * the blog tensor over (1, 2) and (0, 1, 2) 1.15-1.3x; over (0, 2) and (2,) (5 rows per call)
 * 0.9-1.0x. int32 sums: rows of up to 128 elements whole in 16 registers of 64-bit lanes, any
 * number of rows (exact, so the same bits in any order). A/B (session 29, the strips' vectors
 * unrolled into registers: session 25's 0.7-1.1x had them on the stack): over (0, 1, 2) 1.75-1.8x,
 * (1, 2) 1.6x, (0, 2) (5 rows per call) 1.25-1.3x; over wider rows ((1,), (0, 1), 640 elements)
 * 0.86-0.9x, so those keep the block loops. */
#ifdef V3_LOOPS
#pragma GCC push_options
#pragma GCC target("arch=x86-64-v4")
#undef KERNEL_TARGET
#define KERNEL_TARGET /* x86-64-v4 only: called only where the CPU has it */
INLINE __m512i zmm_load_i32(const char *p) { return _mm512_loadu_si512((const void *)p); }
#define INT_ZMM __m512i, int32_t, 16, _mm512_loadu_si512, _mm512_storeu_si512
KEPT_STRIP(zmm_i32_max, INT_ZMM, 4, zmm_load_i32, load_int32_t, _mm512_max_epi32, MAX_INT)
KEPT_STRIP(zmm_i32_min, INT_ZMM, 4, zmm_load_i32, load_int32_t, _mm512_min_epi32, MIN_INT)
INLINE __m512i zmm_load_i32_as_i64(const char *p) { return _mm512_cvtepi32_epi64(_mm256_loadu_si256((const __m256i *)p)); }
#define LONG_ZMM __m512i, uint64_t, 8, _mm512_loadu_si512, _mm512_storeu_si512
KEPT_STRIP(zmm_i32_sum, LONG_ZMM, 4, zmm_load_i32_as_i64, load_u64_int32_t, _mm512_add_epi64, ADD)
#define MANY_ROWS(count, m) ((count) >= FLUSH_ROWS && WHOLE_ROW_V4(m, 4))
/* int32 sums, max and min on the rows between (16 rows or more, longer than the strips take whole,
 * shorter than 64 KiB): AVX-512 strips across each block of 16 rows, of 4 vectors (max, min) or 2
 * (sums: 16 columns of 64-bit accumulators), as float32 sums there. A/B (session 29): the blog
 * tensor over (1,) and (0, 1) (rows of 640): max and min 1.17-1.22x over (1,), 1.0-1.23x over
 * (0, 1) (bimodal there); sums and means 1.0-1.3x (2 vectors; 4 about the same, 8 0.93-1.07x); on
 * rows of 64 KiB ((0,), tiles of 65536) max and min measured 0.81-0.88x, so those keep the block
 * loops. The same strips of float32 and float64 max, min and products and of float64 sums
 * measured 0.68-1.05x there (session 29, as in session 27): they keep the block loops. Nor do
 * rows a multiple of SAME_SETS_BYTES apart take them (their 16 rows share L1 sets, as the split
 * blocks of float sums say): A/B (session 31) over axis 0 of [256, 4096], [128, 2048], [2048,
 * 1024], [1024, 1024], [4096, 4096], [64, 8192]: sums and means 1.11-2.42x, max and min 1.11-1.75x
 * but 0.93-0.95x on [64, 8192]; [256, 4000] 1.0x. */
#define BETWEEN_ROWS(count, m, row_stride) ((count) >= FLUSH_ROWS && (m) * 4 < STRIP_WIDE_BYTES && !SAME_SETS(row_stride))
/* ... and on wider rows ((0,): tiles of 32768) the AVX-512 block loops, eight rows per pass as the
 * generic ones: 1.06-1.12x (four per pass 0.88x, sixteen 0.65x; max and min 1.0x) */
DEFINE_ZMM_BLOCK_COLS(zmm_i32_sum, __m512i, uint64_t, 8, _mm512_loadu_si512, _mm512_storeu_si512, 4, zmm_load_i32_as_i64,
                      load_u64_int32_t, _mm512_add_epi64, ADD, 1, sum_i32_cols)
DEFINE_STRIP_COLS_OF(zmm_i32_sum_between, zmm_i32_sum, uint64_t, 2, 8, 4, BETWEEN_ROWS(count, m, row_stride), zmm_i32_sum_block_cols)
DEFINE_STRIP_COLS(zmm_i32_sum, uint64_t, STRIP_VECTORS, 8, 4, WHOLE_ROW_V4(m, 8), zmm_i32_sum_between_cols)
DEFINE_STRIP_COLS_OF(zmm_i32_max_between, zmm_i32_max, int32_t, 4, 16, 4, BETWEEN_ROWS(count, m, row_stride), max_i32_cols)
DEFINE_STRIP_COLS_OF(zmm_i32_min_between, zmm_i32_min, int32_t, 4, 16, 4, BETWEEN_ROWS(count, m, row_stride), min_i32_cols)
DEFINE_STRIP_COLS(zmm_i32_max, int32_t, STRIP_VECTORS, 16, 4, MANY_ROWS(count, m), zmm_i32_max_between_cols)
DEFINE_STRIP_COLS(zmm_i32_min, int32_t, STRIP_VECTORS, 16, 4, MANY_ROWS(count, m), zmm_i32_min_between_cols)
#undef KERNEL_TARGET
#define KERNEL_TARGET DISPATCH
#pragma GCC pop_options
const Ops integer_v4_ops[N_OPS][N_TYPES] = {
    [OP_SUM] = {[T_I32] = STRIP_OPS(sum_i32, uint64_t, ACC_U64, zmm_i32_sum)},
    [OP_MEAN] = {[T_I32] = STRIP_OPS(sum_i32, uint64_t, ACC_U64, zmm_i32_sum)},
    [OP_MAX] = {[T_I32] = STRIP_OPS(max_i32, int32_t, ACC_NATIVE, zmm_i32_max)},
    [OP_MIN] = {[T_I32] = STRIP_OPS(min_i32, int32_t, ACC_NATIVE, zmm_i32_min)},
};
#else
const Ops integer_v4_ops[N_OPS][N_TYPES];
#endif
