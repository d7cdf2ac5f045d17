/*
 * Compiled reduction loops over a folded view (typedtensor._reducer._ckernels).
 *
 * Python plans the reduction (typedtensor/_reducer/compiled.py): it puts the dims in memory order, folds
 * neighbours of a kind, and passes the view as a list of dims (size, input byte stride, output
 * element stride, reduced flag), outermost first. This file only runs loops, in memory order:
 *
 * - rows:    the innermost dim is reduced. Each row is reduced in 8 to 32 independent lanes
 *            (so the compiler vectorises at its baseline and the adds overlap), and float sums
 *            add blocks of ROW_BLOCK elements pairwise, as numpy does.
 * - columns: the innermost dim is kept. Rows are combined elementwise into accumulators (all
 *            of them if they fit in L2, else a tile of the innermost kept dim that does), which
 *            are converted and written once when their reduced dims are done. Short dense rows
 *            are regrouped into wider lanes first. On x86-64-v3/v4, rows that fit in registers
 *            are combined there down blocks of rows (the column strips), so the input is read
 *            as one stream.
 *
 * Dims outside the innermost two are walked recursively; leading kept dims split the work into
 * independent sub-problems. Accumulators: float sums, means and products of float16/float32 in
 * double; integer sums and products in 64 bits, wrapping like numpy (unsigned arithmetic, so no
 * undefined behaviour); max/min propagate NaN; any/all test for nonzero (NaN counts). The GIL is
 * released while the loops run. Nothing here allocates Python objects; the only state is the pool
 * of threads that share a call's units (run_shared).
 */
#include "_ckernels_loops.h"

static const int type_size[N_TYPES] = {1, 1, 1, 2, 2, 4, 4, 8, 8, 2, 4, 8};



/* float16/float32 summed in float64: a chain of even 10^7 adds errs far below their rounding */
DEFINE_VECTOR_KERNEL(dsum_f16, 2, double, load_d_f16, 0.0, ADD, IN_ORDER, vsum_f16)
DEFINE_VECTOR_KERNEL(dsum_f32, 4, double, load_d_f32, 0.0, ADD, IN_ORDER, vsum_f32)

DEFINE_VECTOR_KERNEL(dsum_f64, 8, double, load_d_f64, 0.0, ADD, PAIRWISE_ROWS | PAIRED_COLUMNS, vsum_f64)
DEFINE_VECTOR_KERNEL(dprod_f16, 2, double, load_d_f16, 1.0, MUL, IN_ORDER, vprod_f16)
DEFINE_VECTOR_KERNEL(dprod_f32, 4, double, load_d_f32, 1.0, MUL, PAIRED_COLUMNS, vprod_f32)
DEFINE_VECTOR_KERNEL(dprod_f64, 8, double, load_d_f64, 1.0, MUL, PAIRED_COLUMNS, vprod_f64)


DEFINE_FLOAT_EXTREME(max_f16, 2, float, load_half, -INFINITY, MAX_NAN, MAX_PLAIN, int32_t, vmax_f16)
DEFINE_FLOAT_EXTREME(min_f16, 2, float, load_half, INFINITY, MIN_NAN, MIN_PLAIN, int32_t, vmin_f16)
DEFINE_FLOAT_EXTREME(max_f32, 4, float, load_float, -INFINITY, MAX_NAN, MAX_PLAIN, int32_t, vmax_f32)
DEFINE_FLOAT_EXTREME(min_f32, 4, float, load_float, INFINITY, MIN_NAN, MIN_PLAIN, int32_t, vmin_f32)
DEFINE_FLOAT_EXTREME(max_f64, 8, double, load_double, -INFINITY, MAX_NAN, MAX_PLAIN, int64_t, vmax_f64)
DEFINE_FLOAT_EXTREME(min_f64, 8, double, load_double, INFINITY, MIN_NAN, MIN_PLAIN, int64_t, vmin_f64)

/* float16/float32 column sums flushed: rows that share accumulators are added in float32, a block
 * of FLUSH_ROWS rows at a time, and each block's float32 sums are added into the float64
 * accumulators. Half the accumulator traffic of adding every row into float64 (numpy's float32
 * speed), and still a guaranteed bound: for data of one sign, a block of k rows errs by at most
 * (k - 1) u relative (u = 2^-24), the float64 adds by far less, and the float32 result rounds
 * once more: k u = 16 * 2^-24 = 9.5e-7 <= 1e-6. The order of the adds is fixed by the source,
 * so every clone gives the same bits. */
#define FLUSH_CHUNK 4096 /* floats of a block's sums (16 KiB: stay in L1); wider rows go in chunks */

/* A block's rows into its float32 sums: the first copied (ROWS_first), the later ones added one
 * (ROWS_add) or, over wide rows, four at a time (ROWS_add4: one pass over the sums; the same
 * order of adds per element, so the same bits). */
#define DEFINE_BLOCK_ROWS(ROWS, LOADF)                                                                \
    INLINE void ROWS##_first(float *RESTRICT block, const char *q, ptrdiff_t w, ptrdiff_t s)          \
    {                                                                                                 \
        for (ptrdiff_t j = 0; j < w; j++)                                                             \
            block[j] = LOADF(q + j * s);                                                              \
    }                                                                                                 \
    INLINE void ROWS##_add(float *RESTRICT block, const char *q, ptrdiff_t w, ptrdiff_t s)            \
    {                                                                                                 \
        for (ptrdiff_t j = 0; j < w; j++)                                                             \
            block[j] += LOADF(q + j * s);                                                             \
    }                                                                                                 \
    INLINE void ROWS##_add4(float *RESTRICT block, const char *q, ptrdiff_t row_stride, ptrdiff_t w, ptrdiff_t s) \
    {                                                                                                 \
        for (ptrdiff_t j = 0; j < w; j++) {                                                           \
            float v = block[j] + LOADF(q + j * s);                                                    \
            v += LOADF(q + row_stride + j * s);                                                       \
            v += LOADF(q + 2 * row_stride + j * s);                                                   \
            block[j] = v + LOADF(q + 3 * row_stride + j * s);                                         \
        }                                                                                             \
    }
INLINE float load_f(const char *p) { return LOAD_AS(float, p); }
INLINE float load_h(const char *p) { return LOAD_HALF(p); }
DEFINE_BLOCK_ROWS(f32_rows, load_f)
DEFINE_BLOCK_ROWS(f16_rows, load_h)

/* NAME_flushed_of: the float64 accumulators acc[0..m) plus the `count` rows at p, in blocks of
 * FLUSH_ROWS rows added in float32 by the helpers ROWS, in chunks of FLUSH_CHUNK columns. */
#define DEFINE_FLUSHED_OF(NAME, ISZ, ROWS, TARGET)                                                    \
    TARGET INLINE void NAME##_flushed_of(double *RESTRICT acc, const char *p, ptrdiff_t count,        \
                                         ptrdiff_t row_stride, ptrdiff_t m, ptrdiff_t s)              \
    {                                                                                                 \
        float block[FLUSH_CHUNK];                                                                     \
        for (ptrdiff_t j0 = 0; j0 < m; j0 += FLUSH_CHUNK) {                                           \
            ptrdiff_t w = m - j0 < FLUSH_CHUNK ? m - j0 : FLUSH_CHUNK, span = (w - 1) * s + (ISZ);    \
            ptrdiff_t ahead = span <= PREFETCH_ROW_MAX ? (PREFETCH_BYTES + span - 1) / span * row_stride : 0; \
            for (ptrdiff_t r0 = 0; r0 < count; r0 += FLUSH_ROWS) {                                    \
                ptrdiff_t rows = count - r0 < FLUSH_ROWS ? count - r0 : FLUSH_ROWS, r = 1;            \
                const char *q = p + j0 * s + r0 * row_stride;                                         \
                if (ahead)                                                                            \
                    prefetch_span(q, ahead, span);                                                    \
                ROWS##_first(block, q, w, s);                                                         \
                if (w * (ptrdiff_t)sizeof(double) > UNROLL_MIN_BYTES)                                 \
                    for (; r + 4 <= rows; r += 4)                                                     \
                        ROWS##_add4(block, q + r * row_stride, row_stride, w, s);                     \
                for (; r < rows; r++) {                                                               \
                    if (ahead)                                                                        \
                        prefetch_span(q + r * row_stride, ahead, span);                               \
                    ROWS##_add(block, q + r * row_stride, w, s);                                      \
                }                                                                                     \
                for (ptrdiff_t j = 0; j < w; j++)                                                     \
                    acc[j0 + j] += (double)block[j];                                                  \
            }                                                                                         \
        }                                                                                             \
    }
DEFINE_FLUSHED_OF(dsum_f32, 4, f32_rows, )
DEFINE_FLUSHED_OF(dsum_f16, 2, f16_rows, )

/* The column loops of float32/float16 sums and means: flushed where MIN_ROWS or more rows share
 * accumulators, or the rows are short enough for the x86-64-v3/v4 strips (FLUSHED_SHAPE), which
 * flush any count. Fewer, longer float32 rows add into float64 at once for less; float16 rows
 * always go through the blocks, where F16C converts them. */
#define DEFINE_FLUSHED_COLS(NAME, ISZ, MIN_ROWS)                                                      \
    KERNEL_TARGET static void NAME##_flushed_cols(char *acc, ptrdiff_t acc_step, const char *p, ptrdiff_t count, \
                                                  ptrdiff_t row_stride, ptrdiff_t m, ptrdiff_t s)     \
    {                                                                                                 \
        if (acc_step != 0 || (count < (MIN_ROWS) && !FLUSHED_SHAPE(m, s, ISZ))) /* own accumulators, or few */ \
            NAME##_cols(acc, acc_step, p, count, row_stride, m, s);                                   \
        else if (s == (ISZ))                                                                          \
            NAME##_flushed_of((double *)acc, p, count, row_stride, m, (ISZ));                         \
        else                                                                                          \
            NAME##_flushed_of((double *)acc, p, count, row_stride, m, s);                             \
    }
#define F32_FLUSH_MIN_ROWS (FLUSH_ROWS / 2) /* float32 calls of fewer, longer rows add into float64 */
DEFINE_FLUSHED_COLS(dsum_f32, 4, F32_FLUSH_MIN_ROWS)
DEFINE_FLUSHED_COLS(dsum_f16, 2, 2)

/* Writes m contiguous results of `rows` rows of m contiguous elements q, row_stride bytes apart */
typedef void (*ResultsFn)(char *out, const char *q, ptrdiff_t rows, ptrdiff_t row_stride, ptrdiff_t m, double divisor);

/* Loops compiled for x86-64-v3 (and v4) only, with the same floats as the baseline's in the same
 * order, so the same bits: float16 sums, means, max and min with F16C (vcvtph2ps widens 8 halves
 * at once; the baseline's conversion is integer work that costs more than the reading), and column
 * strips in registers. Chosen when the module loads, if the CPU has x86-64-v3 (v4) and
 * TYPEDTENSOR_V3_LOOPS is not 0 (which a test uses to compare both). */
#ifdef V3_LOOPS
#pragma GCC push_options
#pragma GCC target("arch=x86-64-v3")
#undef KERNEL_TARGET
#define KERNEL_TARGET /* x86-64-v3 only: called only where the CPU has it */
INLINE float f16c_load(const char *p) { return _cvtsh_ss(LOAD_AS(uint16_t, p)); }
INLINE __m256 f16c_load8(const char *p) { return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)p)); }
/* a + x on the multiply pipes, for converted halves: vfmadd (x * 1 + a) rounds once as vaddps does,
 * and x * 1 is exact, so the same bits (a NaN's sign and payload aside, as everywhere; checked
 * against a + x for every half and 265,536 accumulators). vcvtph2ps takes the add pipes (Zen 4, the
 * only CPU measured), so a conversion and an add per 8 halves held every float16 sum there:
 * standalone over 10 MB of halves (of a pure read, 84 GB/s), converting and adding 57 GB/s,
 * converting and this 79. */
INLINE __m256 f16c_add(__m256 a, __m256 x) { return _mm256_fmadd_ps(x, _mm256_set1_ps(1.0f), a); }
INLINE vfloat f16c_vadd(vfloat a, vfloat x) { return (vfloat)f16c_add((__m256)a, (__m256)x); }
INLINE vfloat f16c_load_vfloat(const char *p)
{
    __m256 wide = f16c_load8(p);
    vfloat v;
    memcpy(&v, &wide, sizeof v);
    return v;
}
INLINE void f16c_rows_first(float *RESTRICT block, const char *q, ptrdiff_t w, ptrdiff_t s)
{
    ptrdiff_t j = 0;
    if (s == 2)
        for (; j + 8 <= w; j += 8)
            _mm256_storeu_ps(block + j, f16c_load8(q + 2 * j));
    for (; j < w; j++)
        block[j] = f16c_load(q + j * s);
}
INLINE void f16c_rows_add(float *RESTRICT block, const char *q, ptrdiff_t w, ptrdiff_t s)
{
    ptrdiff_t j = 0;
    if (s == 2)
        for (; j + 8 <= w; j += 8)
            _mm256_storeu_ps(block + j, f16c_add(_mm256_loadu_ps(block + j), f16c_load8(q + 2 * j)));
    for (; j < w; j++)
        block[j] += f16c_load(q + j * s);
}
INLINE void f16c_rows_add4(float *RESTRICT block, const char *q, ptrdiff_t row_stride, ptrdiff_t w, ptrdiff_t s)
{
    for (int r = 0; r < 4; r++)
        f16c_rows_add(block, q + r * row_stride, w, s);
}
DEFINE_FLUSHED_SUM_LANES(vsum_f16c, 2, f16c_load_vfloat, f16c_vadd)
DEFINE_VECTOR_KERNEL(dsum_f16c, 2, double, load_d_f16, 0.0, ADD, IN_ORDER, vsum_f16c)
DEFINE_FLUSHED_OF(dsum_f16c, 2, f16c_rows, )
DEFINE_FLUSHED_COLS(dsum_f16c, 2, 2)
/* float16, float32 and float64 max and min with vmaxps/vminps (pd): max_ps(x, a) is x > a ? x : a,
 * the generic lanes' select (a compare and a blend there) in one instruction, so the same bits.
 * A/B: the blog tensor's rows of 128 floats ((3,), (0, 3), (1, 3)) 1.07-1.15x (session 25); float16
 * (session 32, either build loaded first) over rows of 128 halves 1.27-1.46x, of 640 ((2, 3), (0,
 * 2, 3)) 1.28-1.30x, the whole tensor and (1, 2, 3) 1.15-1.17x. */
#define COMBINE_VMAX(a, x, VM, VA) ((VA)VMAX_OF(VA)(x, a))
#define COMBINE_VMIN(a, x, VM, VA) ((VA)VMIN_OF(VA)(x, a))
#define VMAX_OF(VA) _Generic((VA){0}, vfloat: _mm256_max_ps, default: _mm256_max_pd)
#define VMIN_OF(VA) _Generic((VA){0}, vfloat: _mm256_min_ps, default: _mm256_min_pd)
DEFINE_VECTOR_LANES(vmax_f16c, vfloat, vint, 8, float, int32_t, 2, f16c_load_vfloat, -INFINITY, COMBINE_VMAX, 1)
DEFINE_VECTOR_LANES(vmin_f16c, vfloat, vint, 8, float, int32_t, 2, f16c_load_vfloat, INFINITY, COMBINE_VMIN, 1)
DEFINE_FLOAT_EXTREME(max_f16c, 2, float, load_half, -INFINITY, MAX_NAN, MAX_PLAIN, int32_t, vmax_f16c)
DEFINE_FLOAT_EXTREME(min_f16c, 2, float, load_half, INFINITY, MIN_NAN, MIN_PLAIN, int32_t, vmin_f16c)
DEFINE_VECTOR_LANES(vmax_f32_v3, vfloat, vint, 8, float, int32_t, 4, load_vfloat, -INFINITY, COMBINE_VMAX, 1)
DEFINE_VECTOR_LANES(vmin_f32_v3, vfloat, vint, 8, float, int32_t, 4, load_vfloat, INFINITY, COMBINE_VMIN, 1)
DEFINE_VECTOR_LANES(vmax_f64_v3, vdouble, vlong, 4, double, int64_t, 8, load_vdouble, -INFINITY, COMBINE_VMAX, 1)
DEFINE_VECTOR_LANES(vmin_f64_v3, vdouble, vlong, 4, double, int64_t, 8, load_vdouble, INFINITY, COMBINE_VMIN, 1)
DEFINE_FLOAT_EXTREME(max_f32_v3, 4, float, load_float, -INFINITY, MAX_NAN, MAX_PLAIN, int32_t, vmax_f32_v3)
DEFINE_FLOAT_EXTREME(min_f32_v3, 4, float, load_float, INFINITY, MIN_NAN, MIN_PLAIN, int32_t, vmin_f32_v3)
DEFINE_FLOAT_EXTREME(max_f64_v3, 8, double, load_double, -INFINITY, MAX_NAN, MAX_PLAIN, int64_t, vmax_f64_v3)
DEFINE_FLOAT_EXTREME(min_f64_v3, 8, double, load_double, INFINITY, MIN_NAN, MIN_PLAIN, int64_t, vmin_f64_v3)

/* Column strips (x86-64-v3): the accumulators of a strip of columns held in registers down a
 * block of FLUSH_ROWS rows, so only the loads and the ops touch memory. Each column sees the same
 * ops in the same order as the block loops, so the same bits (a NaN's payload aside). Measured
 * (session 25, A/B in one process): where the strip is the whole row the input is read as one
 * stream, and float32 sums over the blog tensor's rows of 128 floats ((0, 1, 2), (1, 2)) ran
 * 1.3-1.4x, max and products 1.3-1.9x; rows of 64 KiB or more ((0,)): sums 1.1-1.2x. Rows of 640
 * floats ran at 0.8-1.0x (strips of 8 or 16 vectors), and every float64 strip at 0.3-0.5x (rows
 * of 1 KiB or more in two strips or more), so those keep the block loops here (float32 sums of
 * such rows take AVX-512 strips of 4 vectors where the CPU has them: below). float16 (conversions
 * bound, F16C): strips of 64 columns on every contiguous layout, 1.6-3.7x. */
INLINE void flush8(double *acc, __m256 sums)
{
    _mm256_storeu_pd(acc, _mm256_add_pd(_mm256_loadu_pd(acc), _mm256_cvtps_pd(_mm256_castps256_ps128(sums))));
    _mm256_storeu_pd(acc + 4, _mm256_add_pd(_mm256_loadu_pd(acc + 4), _mm256_cvtps_pd(_mm256_extractf128_ps(sums, 1))));
}
/* Flushed sums (float16, float32): NAME_column adds the float32 sum of column j of `rows` rows into
 * acc[j], as one block of dsum_*_flushed_of (past the vectors of the strips below) */
#define DEFINE_SUM_COLUMN(NAME, ISZ, LOAD1)                                                           \
    INLINE void NAME##_column(double *acc, const char *q, ptrdiff_t rows, ptrdiff_t row_stride, ptrdiff_t j) \
    {                                                                                                 \
        float sum = LOAD1(q + (ISZ) * j);                                                             \
        for (ptrdiff_t r = 1; r < rows; r++)                                                          \
            sum += LOAD1(q + r * row_stride + (ISZ) * j);                                             \
        acc[j] += (double)sum;                                                                        \
    }                                                                                                 \
    DEFINE_GROUP_COLUMN(NAME, double)
/* NAME_group_strip of the AVX2 sum strips: of each group in turn, the float32 sums of its `rows`
 * rows added into acc[j .. j + LANES * vectors) in memory (vectors V of LANES floats, FLUSH adds one
 * into LANES doubles; the doubles of a strip of 8 vectors would need 16 more registers) */
#define DEFINE_SUM_STRIP(NAME, V, LANES, ISZ, LOADV, ADDV, FLUSH, LOAD1)                              \
    INLINE void NAME##_group_strip(double *acc, const char *q, ptrdiff_t groups, ptrdiff_t group_stride, \
                                   ptrdiff_t rows, ptrdiff_t row_stride, ptrdiff_t j, const int vectors) \
    {                                                                                                 \
        for (ptrdiff_t g = 0; g < groups; g++) {                                                      \
            V sums[STRIP_VECTORS];                                                                    \
            const char *row = q + g * group_stride + (ISZ) * j;                                       \
            UNROLLED for (int k = 0; k < vectors; k++)                                                \
                sums[k] = LOADV(row + (LANES) * (ISZ) * k);                                           \
            for (ptrdiff_t r = 1; r < rows; r++) {                                                    \
                row += row_stride;                                                                    \
                UNROLLED for (int k = 0; k < vectors; k++)                                            \
                    sums[k] = ADDV(sums[k], LOADV(row + (LANES) * (ISZ) * k));                        \
            }                                                                                         \
            UNROLLED for (int k = 0; k < vectors; k++)                                                \
                FLUSH(acc + j + (LANES) * k, sums[k]);                                                \
        }                                                                                             \
    }                                                                                                 \
    DEFINE_SUM_COLUMN(NAME, ISZ, LOAD1)
INLINE __m256 f32_load8(const char *p) { return _mm256_loadu_ps((const float *)p); }
DEFINE_SUM_STRIP(f16c_sum, __m256, 8, 2, f16c_load8, f16c_add, flush8, f16c_load)
DEFINE_SUM_STRIP(f32_sum, __m256, 8, 4, f32_load8, _mm256_add_ps, flush8, load_f)
/* the later value wins if it compares greater (less) or is NaN, as MAX_NAN (MIN_NAN): vmaxps (x, a)
 * is x > a ? x : a (a NaN a sticks), then x where it is NaN (as the AVX-512 strips, below) */
INLINE __m256 strip_max(__m256 a, __m256 x) { return _mm256_blendv_ps(_mm256_max_ps(x, a), x, _mm256_cmp_ps(x, x, _CMP_UNORD_Q)); }
INLINE __m256 strip_min(__m256 a, __m256 x) { return _mm256_blendv_ps(_mm256_min_ps(x, a), x, _mm256_cmp_ps(x, x, _CMP_UNORD_Q)); }
/* the vector, accumulator, lanes, and accumulator load and store of a strip */
#define DOUBLE_YMM __m256d, double, 4, _mm256_loadu_pd, _mm256_storeu_pd
#define FLOAT_YMM __m256, float, 8, _mm256_loadu_ps, _mm256_storeu_ps
KEPT_STRIP(f32_prod, DOUBLE_YMM, 4, load_vfloat_as_double, load_d_f32, STRIP_MUL, MUL)
KEPT_STRIP(f32_max, FLOAT_YMM, 4, f32_load8, load_float, strip_max, MAX_NAN)
KEPT_STRIP(f32_min, FLOAT_YMM, 4, f32_load8, load_float, strip_min, MIN_NAN)
KEPT_STRIP(f16c_max, FLOAT_YMM, 2, f16c_load8, f16c_load, strip_max, MAX_NAN)
KEPT_STRIP(f16c_min, FLOAT_YMM, 2, f16c_load8, f16c_load, strip_min, MIN_NAN)
/* float16 sums flush from 2 rows on (the block loops' MIN_ROWS), float32 ones from 8 or, on rows
 * of up to STRIP_ROW_BYTES, from the first (FLUSHED_SHAPE). Products, max and min in AVX2 strips
 * on calls of fewer than 16 rows (the blog tensor over (0, 2) and (2,): 5) measured 0.77-0.98x,
 * with or without the block loops' prefetching: they keep the block loops there. */
DEFINE_STRIP_COLS(f16c_sum, double, SMALL_STRIP_VECTORS, 8, 2, count >= 2, dsum_f16c_flushed_cols)
DEFINE_STRIP_COLS(f16c_max, float, SMALL_STRIP_VECTORS, 8, 2, 1, max_f16c_cols)
DEFINE_STRIP_COLS(f16c_min, float, SMALL_STRIP_VECTORS, 8, 2, 1, min_f16c_cols)
#define SHORT_F32_ROWS(m) ((m) * 4 <= STRIP_ROW_BYTES)
/* float32 sums: on rows of up to STRIP_ROW_BYTES the block loops flush from the first row on too
 * (FLUSHED_SHAPE), so every build gives the same bits */
#define F32_SUM_STRIPS(count, m) (SHORT_F32_ROWS(m) || ((count) >= F32_FLUSH_MIN_ROWS && (m) * 4 >= STRIP_WIDE_BYTES))
#define MANY_SHORT_F32_ROWS(count, m) ((count) >= FLUSH_ROWS && SHORT_F32_ROWS(m))
DEFINE_STRIP_COLS(f32_sum, double, STRIP_VECTORS, 8, 4, F32_SUM_STRIPS(count, m), dsum_f32_flushed_cols)
/* float32 products of paired calls (PAIRED_CALL), in their order, 4 floats a step converted as they
 * load: the generic loop there widens 8 a step through extracts (16 instructions per 8 floats, this
 * loop 10). A/B, each build first in turn, over the blog tensor's (1,) and (0, 1): 1.01-1.10x. */
KERNEL_TARGET static void f32_prod_paired_cols(char *acc, ptrdiff_t acc_step, const char *p, ptrdiff_t count,
                                               ptrdiff_t row_stride, ptrdiff_t m, ptrdiff_t s)
{
    if (acc_step != 0 || s != (ptrdiff_t)sizeof(float) || !PAIRED_CALL(count, m * (ptrdiff_t)sizeof(double))) {
        dprod_f32_cols(acc, acc_step, p, count, row_stride, m, s);
        return;
    }
    double *a = (double *)acc;
    ptrdiff_t half = count / 2;
    for (ptrdiff_t r = 0; r < half; r++) {
        const char *q = p + r * row_stride, *partner = q + half * row_stride;
        ptrdiff_t j = 0;
        for (; j + 4 <= m; j += 4) {
            ptrdiff_t at = (ptrdiff_t)sizeof(float) * j;
            __m256d pair = _mm256_mul_pd(load_vfloat_as_double(q + at), load_vfloat_as_double(partner + at));
            _mm256_storeu_pd(a + j, _mm256_mul_pd(_mm256_loadu_pd(a + j), pair));
        }
        for (ptrdiff_t at = (ptrdiff_t)sizeof(float) * j; j < m; j++, at += (ptrdiff_t)sizeof(float))
            a[j] = MUL(a[j], MUL(load_d_f32(q + at), load_d_f32(partner + at)));
    }
    if (count % 2) /* the last row */
        dprod_f32_cols(acc, 0, p + (count - 1) * row_stride, 1, row_stride, m, s);
}
DEFINE_STRIP_COLS(f32_prod, double, STRIP_VECTORS, 4, 4, MANY_SHORT_F32_ROWS(count, m), f32_prod_paired_cols)
DEFINE_STRIP_COLS(f32_max, float, SMALL_STRIP_VECTORS, 8, 4, MANY_SHORT_F32_ROWS(count, m), max_f32_v3_cols)
DEFINE_STRIP_COLS(f32_min, float, SMALL_STRIP_VECTORS, 8, 4, MANY_SHORT_F32_ROWS(count, m), min_f32_v3_cols)
/* Float32 and float16 sums of rows of SAME_SETS_BYTES or more, a multiple of it apart (the blog
 * tensor over (0,): 32 rows of 640 KiB; [256, 4096] over axis 0: rows of 16 KiB), more than
 * SPLIT_ROWS to a call: each block of FLUSH_ROWS rows in two passes of at most SPLIT_ROWS rows, in
 * strips of SPLIT_VECTORS vectors across the columns, the first pass's float32 sums kept in
 * `partial` between the two (a store and a load: the same bits as the strips or block loops of the
 * whole block, a NaN's sign and payload aside; at most a tile of them, 128 KiB, in L2). Sixteen
 * rows read at once at such a stride fall in the same L1 sets (at a multiple of 64 KiB, as (0,)'s,
 * in the same L2 sets too); eight at once measured far faster. Standalone ([32, 163840] float32 in
 * one process, of a pure read): the strips of 16 rows 0.44, these 0.73 (partial sums of 32 KiB),
 * 0.78-0.81 (64-128 KiB); one row at a time into the partial sums 0.33. A/B, the same bits: the
 * blog tensor over (0,), AVX-512, float32 1.58-1.64x, float16 1.11-1.14x (strips of 8 vectors
 * 1.04-1.05x those of 4; of 16: 0.99x for float16; partial sums of 32 KiB, chunks of columns on the
 * stack, 0.94-0.95x those of 64 KiB, 0.92-0.93x a tile's); float32 [256, 4096], [64, 8192], [1024,
 * 1024] and [4096, 4096] over axis 0: AVX-512 1.24-1.65x, AVX2 1.18-1.30x ([128, 2048], [2048,
 * 1024]: 0.99-1.05x and 1.13-1.35x); float16 1.12-1.26x on rows of 4 KiB or more (since session
 * 34 AVX-512 float16 sums take these AVX2 split blocks: a zmm vcvtph2ps runs at half the rate of two
 * ymm ones on Zen 4; over (0,) 1.06-1.07x). Other strides
 * keep the strips: the split measured 0.89-0.92x on 32 rows of 80000 bytes and 12 of 160000; [256,
 * 4000] 1.0x with the condition.
 * NAME_split_pass: one pass over the LANES * SPLIT_VECTORS columns at `row` (of ISZ bytes, vectors
 * V of LANES floats, LOADV loading them, ADDV adding, LOADP and STOREP the partial sums, FLUSH
 * adding a vector into LANES doubles): `rows` rows added to the partial sums at `part` (first: from
 * the first row instead), then flushed into acc (last) or kept at part. NAME_split_cols: the calls
 * that take them, else FALLBACK. */
#define SPLIT_ROWS (FLUSH_ROWS / 2)
#define SPLIT_VECTORS 8
#define DEFINE_SPLIT_COLS(NAME, V, LANES, ISZ, LOADV, ADDV, LOADP, STOREP, FLUSH, FALLBACK)          \
    INLINE void NAME##_split_pass(double *acc, float *part, const char *row, ptrdiff_t rows, ptrdiff_t row_stride, \
                                  int first, int last)                                                \
    {                                                                                                 \
        V sums[SPLIT_VECTORS];                                                                        \
        UNROLLED for (int k = 0; k < SPLIT_VECTORS; k++)                                              \
            sums[k] = first ? LOADV(row + (LANES) * (ISZ) * k) : ADDV(LOADP(part + (LANES) * k), LOADV(row + (LANES) * (ISZ) * k)); \
        for (ptrdiff_t r = 1; r < rows; r++) {                                                        \
            row += row_stride;                                                                        \
            UNROLLED for (int k = 0; k < SPLIT_VECTORS; k++)                                          \
                sums[k] = ADDV(sums[k], LOADV(row + (LANES) * (ISZ) * k));                            \
        }                                                                                             \
        UNROLLED for (int k = 0; k < SPLIT_VECTORS; k++) {                                            \
            if (last)                                                                                 \
                FLUSH(acc + (LANES) * k, sums[k]);                                                    \
            else                                                                                      \
                STOREP(part + (LANES) * k, sums[k]);                                                  \
        }                                                                                             \
    }                                                                                                 \
    KERNEL_TARGET static void NAME##_split_cols(char *acc, ptrdiff_t acc_step, const char *p, ptrdiff_t count, \
                                                ptrdiff_t row_stride, ptrdiff_t m, ptrdiff_t s)       \
    {                                                                                                 \
        if (acc_step != 0 || s != (ISZ) || count <= SPLIT_ROWS || m * (ISZ) < SAME_SETS_BYTES ||        \
            !SAME_SETS(row_stride)) {                                                                 \
            FALLBACK(acc, acc_step, p, count, row_stride, m, s);                                      \
            return;                                                                                   \
        }                                                                                             \
        ptrdiff_t step = (LANES) * SPLIT_VECTORS, strips_end = m - m % step; /* m: a tile at most */  \
        float *partial = aligned_alloc(64, (size_t)strips_end * sizeof(float)); /* a multiple of 64 bytes */ \
        if (!partial) { /* the strips or block loops of whole blocks: the same bits */                \
            FALLBACK(acc, acc_step, p, count, row_stride, m, s);                                      \
            return;                                                                                   \
        }                                                                                             \
        double *a = (double *)acc;                                                                    \
        for (ptrdiff_t r0 = 0; r0 < count; r0 += FLUSH_ROWS) {                                        \
            ptrdiff_t rows = count - r0 < FLUSH_ROWS ? count - r0 : FLUSH_ROWS;                       \
            ptrdiff_t first_rows = rows < SPLIT_ROWS ? rows : SPLIT_ROWS;                             \
            const char *q = p + r0 * row_stride;                                                      \
            for (ptrdiff_t j = 0; j < strips_end; j += step)                                          \
                NAME##_split_pass(a + j, partial + j, q + (ISZ) * j, first_rows, row_stride, 1, rows == first_rows); \
            for (ptrdiff_t j = 0; j < strips_end && rows > first_rows; j += step)                     \
                NAME##_split_pass(a + j, partial + j, q + SPLIT_ROWS * row_stride + (ISZ) * j, rows - SPLIT_ROWS, row_stride, 0, 1); \
            if (strips_end < m) /* the last columns, as the whole block */                            \
                FALLBACK((char *)(a + strips_end), 0, q + (ISZ) * strips_end, rows, row_stride, m - strips_end, s); \
        }                                                                                             \
        free(partial);                                                                                \
    }
DEFINE_SPLIT_COLS(f32, __m256, 8, 4, f32_load8, _mm256_add_ps, _mm256_load_ps, _mm256_store_ps, flush8, f32_sum_cols)
DEFINE_SPLIT_COLS(f16c, __m256, 8, 2, f16c_load8, f16c_add, _mm256_load_ps, _mm256_store_ps, flush8, f16c_sum_cols)
/* Float16 and float32 sums of contiguous rows of 16 to 8 * FLUSH_ROWS elements, a multiple of 8
 * (the blog tensor's rows of 128: (3,), (0, 3), (1, 3), (0, 1, 3); rows of up to 8 add in float64
 * in unrolled loops of their own, NAME_short_rows): a row's 8 lanes take one block, so a row is one
 * chain of adds, then its flush and tree as NAME_lanes's, rows in pairs half the call apart where
 * NAME_rows pairs them. The flush adds no zero: a zero's sign is lost where the total is added into
 * its accumulator, which starts at +0.0 (init) and only adds, so never holds -0.0. The same bits
 * (but a NaN's sign: which operand of an add comes first is the compiler's choice, in the generic
 * lanes too), without the generic lanes' bookkeeping per vector and row. A/B (session 32, either
 * build loaded first): float16 calls of 5 rows ((1, 3), (0, 1, 3)) 1.05-1.10x, pairs ((3,), (0, 3))
 * 1.09-1.10x; float32 0.96-1.04x. Four rows at once, next to each other, measured float32
 * 0.45-0.65x (a standalone loop over rows of 128 floats: one row at a time 42-46 GB/s, two or four
 * side by side 18-23, two with a software prefetch 8 rows ahead 49): the prefetcher does not follow
 * streams that close; a quarter of the call apart 0.66-0.91x. Session 34, float16 (whose adds
 * f16c_add puts on the multiply pipes): calls of 2 to 8 rows (the blog tensor's (1, 3) and (0, 1,
 * 3): 5 contiguous rows of 256 bytes) take their rows at once, a chain each, A/B 1.28-1.35x (a
 * standalone loop over that tensor read at 0.58 of a pure read, one row at a time 0.50); pairs
 * take two rows of each half at once, 1.07-1.08x ((3,), (0, 3)). */
INLINE double flushed_tree8(__m256 sums)
{
    __m256d t = _mm256_add_pd(_mm256_cvtps_pd(_mm256_castps256_ps128(sums)), _mm256_cvtps_pd(_mm256_extractf128_ps(sums, 1)));
    t = _mm256_add_pd(t, _mm256_permute4x64_pd(t, 0x4e)); /* lane j with j + 2 */
    t = _mm256_add_pd(t, _mm256_permute_pd(t, 0x5));      /* ... with j + 1 */
    return _mm256_cvtsd_f64(t);
}
/* The rows ROW for k < K where USE, at once: a chain of ADD8 each (vectors of 8 of the n elements
 * of ISZ bytes, LOAD8 loading them), then each one's flush and tree into ACC. ROW, ACC and USE are
 * expressions of the chain's index, which this macro names k. */
#define ROW_CHAINS(K, USE, ROW, ACC, ISZ, LOAD8, ADD8, n)                                             \
    do {                                                                                              \
        __m256 sums_[(K)];                                                                            \
        UNROLLED for (int k = 0; k < (K); k++)                                                        \
            sums_[k] = (USE) ? LOAD8(ROW) : _mm256_setzero_ps();                                      \
        for (ptrdiff_t i_ = 8; i_ < (n); i_ += 8)                                                     \
            UNROLLED for (int k = 0; k < (K); k++)                                                    \
                if (USE)                                                                              \
                    sums_[k] = ADD8(sums_[k], LOAD8((ROW) + (ISZ) * i_));                             \
        UNROLLED for (int k = 0; k < (K); k++)                                                        \
            if (USE)                                                                                  \
                *(double *)(ACC) += flushed_tree8(sums_[k]);                                          \
    } while (0)
/* NAME_rows: the rows of a call of 2 to SIDE rows (0 or at most 8: the sums stay in registers) with
 * accumulators of their own at once, else rows in pairs half the call apart (PAIRED_ROWS_MIN),
 * PAIR_ROWS of each half at once (at least 1), the chains of more than one row added with
 * CHAINS_ADD8, else one at a time (vaddps: a chain alone waits on its adds, and fma's latency is 4
 * cycles to vaddps's 3) */
#define DEFINE_SHORT_ROW_SUMS(NAME, ISZ, LOAD8, SIDE, PAIR_ROWS, CHAINS_ADD8, KERNEL)                 \
    KERNEL_TARGET static void NAME##_rows(char *acc, ptrdiff_t acc_step, const char *p, ptrdiff_t count, \
                                          ptrdiff_t row_stride, ptrdiff_t n, ptrdiff_t s)             \
    {                                                                                                 \
        _Static_assert((SIDE) >= 0 && (SIDE) <= 8 && (PAIR_ROWS) >= 1, "sums in registers, rows in steps");\
        if (s != (ISZ) || n % 8 != 0 || n <= 8 || n > 8 * FLUSH_ROWS) {                               \
            KERNEL##_rows(acc, acc_step, p, count, row_stride, n, s);                                 \
            return;                                                                                   \
        }                                                                                             \
        ptrdiff_t r = 0, half = acc_step != 0 && count >= PAIRED_ROWS_MIN ? count / 2 : 0;            \
        if (count >= 2 && count <= (SIDE) && acc_step != 0) {                                         \
            ROW_CHAINS((SIDE) ? (SIDE) : 1, k < count, p + k * row_stride, acc + k * acc_step, ISZ,   \
                       LOAD8, CHAINS_ADD8, n);                                                        \
            return;                                                                                   \
        }                                                                                             \
        for (; r + (PAIR_ROWS) <= half; r += (PAIR_ROWS)) /* rows r + k / 2, half on for odd k */     \
            ROW_CHAINS(2 * (PAIR_ROWS), 1, p + (r + k / 2 + k % 2 * half) * row_stride,               \
                       acc + (r + k / 2 + k % 2 * half) * acc_step, ISZ, LOAD8, CHAINS_ADD8, n);      \
        for (; r < half; r++)                                                                         \
            ROW_CHAINS(2, 1, p + (r + k * half) * row_stride, acc + (r + k * half) * acc_step, ISZ,   \
                       LOAD8, CHAINS_ADD8, n);                                                        \
        for (r = 2 * half; r < count; r++)                                                            \
            ROW_CHAINS(1, 1, p + r * row_stride, acc + r * acc_step, ISZ, LOAD8, _mm256_add_ps, n);   \
    }
DEFINE_SHORT_ROW_SUMS(f16c_short, 2, f16c_load8, 8, 2, f16c_add, dsum_f16c)
DEFINE_SHORT_ROW_SUMS(f32_short, 4, f32_load8, 0, 1, _mm256_add_ps, dsum_f32)

/* Results written as float16 with F16C, 8 at a time (the baseline's branch-free conversion was
 * half the time of the blog tensor's float16 sum over axis 2, a million results). vcvtps2ph rounds
 * a float once; a double is first rounded to odd at float's precision (its fraction cut to 23
 * bits, the last of them set if a dropped bit was), which has more than 11 + 2 bits, so rounding
 * that to float16 gives the double's correctly rounded float16: the same bits as
 * doubles_to_halves. The cut value converts to float exactly (or to infinity, or to a float far
 * below float16's smallest subnormal: both round alike). */
INLINE __m128 f16c_odd_floats(__m256d d)
{
    __m256i bits = _mm256_castpd_si256(d), dropped = _mm256_set1_epi64x(0x1fffffff);
    __m256i exact = _mm256_cmpeq_epi64(_mm256_and_si256(bits, dropped), _mm256_setzero_si256());
    __m256i sticky = _mm256_andnot_si256(exact, _mm256_set1_epi64x(0x20000000));
    return _mm256_cvtpd_ps(_mm256_castsi256_pd(_mm256_or_si256(_mm256_andnot_si256(dropped, bits), sticky)));
}
INLINE __m256 f16c_floats8(const float *a, double divisor) { (void)divisor; return _mm256_loadu_ps(a); }
INLINE __m256 f16c_doubles8(const double *a, double divisor)
{
    (void)divisor;
    return _mm256_set_m128(f16c_odd_floats(_mm256_loadu_pd(a + 4)), f16c_odd_floats(_mm256_loadu_pd(a)));
}
INLINE __m256 f16c_means8(const double *a, double divisor)
{
    __m256d by = _mm256_set1_pd(divisor);
    return _mm256_set_m128(f16c_odd_floats(_mm256_div_pd(_mm256_loadu_pd(a + 4), by)),
                           f16c_odd_floats(_mm256_div_pd(_mm256_loadu_pd(a), by)));
}
/* `count` (at most 8) floats rounded to float16, out_stride bytes apart */
INLINE void f16c_put(char *out, ptrdiff_t out_stride, __m256 floats, int count)
{
    __m128i halves = _mm256_cvtps_ph(floats, _MM_FROUND_TO_NEAREST_INT);
    if (out_stride == 2 && count == 8) {
        _mm_storeu_si128((__m128i *)out, halves);
        return;
    }
    uint16_t h[8];
    memcpy(h, &halves, sizeof h);
    for (int k = 0; k < count; k++)
        memcpy(out + k * out_stride, &h[k], sizeof h[k]);
}
#define DEFINE_F16C_STORE(NAME, A, FLOATS8)                                                           \
    static void NAME(char *out, ptrdiff_t out_stride, const char *acc, ptrdiff_t n, double divisor)   \
    {                                                                                                 \
        const A *a = (const A *)acc;                                                                  \
        ptrdiff_t i = 0;                                                                              \
        for (; i + 8 <= n; i += 8)                                                                    \
            f16c_put(out + i * out_stride, out_stride, FLOATS8(a + i, divisor), 8);                   \
        if (i < n) { /* the last few, through a full vector */                                        \
            A rest[8] = {0};                                                                          \
            memcpy(rest, a + i, (size_t)(n - i) * sizeof(A));                                         \
            f16c_put(out + i * out_stride, out_stride, FLOATS8(rest, divisor), (int)(n - i));         \
        }                                                                                             \
    }
DEFINE_F16C_STORE(f16c_store_float_half, float, f16c_floats8)
DEFINE_F16C_STORE(f16c_store_double_half, double, f16c_doubles8)
DEFINE_F16C_STORE(f16c_store_mean_half, double, f16c_means8)

/* Results straight from a strip: where every result of a float32 or float16 sum (or mean) adds the
 * few rows of one call (no more than a strip's block: the blog tensor over axis 2 adds 5 rows of
 * 128), the strip's float32 sums are the results. They are rounded as the float64 accumulators
 * (0.0 plus the sums: a -0.0 sum becomes +0.0, x + 0.0f does that) and their store would round
 * them, so the same bits, without the accumulators: zeroing them, flushing into them and the
 * store's pass over them were half the time of that reduction. A/B (session 26, same plans and
 * buffers): the blog tensor over axis 2, float32 sums 1.46x, means 1.22x; float16 sums 2.56x,
 * means 1.22x with float64 division. float16 max and min too (float32 ones accumulate in their
 * results already: their accumulators are floats). */
/* `count` (at most 8) results of the sums, as the accumulators' stores (store_double_float,
 * store_mean_float, f16c_store_double_half, f16c_store_mean_half) write them */
INLINE void put_f32(char *out, __m256 sums, double divisor, int count)
{
    (void)divisor;
    float f[8];
    _mm256_storeu_ps(count == 8 ? (float *)out : f, sums);
    if (count < 8)
        memcpy(out, f, (size_t)count * sizeof(float));
}
/* A float32 sum divided in float32 by its count (a float: takes_results) is the
 * quotient in float64 rounded to float32: double rounding is innocuous for a quotient of floats
 * rounded to 53 bits, more than 2 * 24 + 2 (Figueroa, 1995); vdivps divides 8 at once, where
 * vdivpd and the conversions on either side of it kept these results at the accumulators' speed. */
INLINE void put_f32_mean(char *out, __m256 sums, double divisor, int count)
{
    put_f32(out, _mm256_div_ps(sums, _mm256_set1_ps((float)divisor)), divisor, count);
}
INLINE void put_f16(char *out, __m256 sums, double divisor, int count) { (void)divisor; f16c_put(out, 2, sums, count); }
/* A float16 mean divides in float32 too, then rounds once to float16: the exact quotient's
 * correctly rounded float16, as f16c_means8's float64 quotient rounded to odd gives. No float16
 * midpoint m lies within half a float32 ulp of a quotient s / n of a float32 sum by a count of at
 * most FLUSH_ROWS (takes_results) unless it is the quotient: s - n * m is a multiple of the sum's
 * ulp, so 0 or at least one, and the sum's ulp over n is more than half the quotient's (2^(E+1) >
 * n for the sum's exponent E). Checked near every midpoint (2 to 16, every binade, 3 ulps either
 * side) and on 10^7 random sums per count: the same float16 as through float64. */
INLINE void put_f16_mean(char *out, __m256 sums, double divisor, int count)
{
    f16c_put(out, 2, _mm256_div_ps(sums, _mm256_set1_ps((float)divisor)), count);
}
/* `vectors` vectors V of 8 columns from column j (at most WIDE of them) combined down `rows` rows
 * (COMBINEV), each finished (FINISH) and put at once */
#define RESULTS_STRIP(V, WIDE, ISZ, LOADV, COMBINEV, FINISH, PUT, vectors)                           \
    do {                                                                                              \
        V kept[WIDE];                                                                                 \
        const char *row = q + (ISZ) * j;                                                              \
        UNROLLED for (int k = 0; k < (vectors); k++)                                                  \
            kept[k] = LOADV(row + 8 * (ISZ) * k);                                                     \
        for (ptrdiff_t r = 1; r < rows; r++) {                                                        \
            row += row_stride;                                                                        \
            UNROLLED for (int k = 0; k < (vectors); k++)                                              \
                kept[k] = COMBINEV(kept[k], LOADV(row + 8 * (ISZ) * k));                              \
        }                                                                                             \
        UNROLLED for (int k = 0; k < (vectors); k++)                                                  \
            PUT(out + (ISZ) * (j + 8 * k), FINISH(kept[k]), divisor, 8);                              \
    } while (0)
/* NAME_results: a strip's results from its first row on (as from the accumulators' identity: 0.0
 * plus the first row for sums, the first row for max and min), then the last columns one by one
 * (COMBINE1), in the same order */
#define DEFINE_RESULTS(NAME, ISZ, LOADV, LOAD1, COMBINEV, COMBINE1, FINISH, PUT)                      \
    static void NAME##_results(char *out, const char *q, ptrdiff_t rows, ptrdiff_t row_stride, ptrdiff_t m, double divisor) \
    {                                                                                                 \
        ptrdiff_t j = 0;                                                                              \
        for (; j + 8 * SMALL_STRIP_VECTORS <= m; j += 8 * SMALL_STRIP_VECTORS)                        \
            RESULTS_STRIP(__m256, SMALL_STRIP_VECTORS, ISZ, LOADV, COMBINEV, FINISH, PUT,               \
                          SMALL_STRIP_VECTORS);                                                       \
        for (; j + 8 <= m; j += 8)                                                                    \
            RESULTS_STRIP(__m256, SMALL_STRIP_VECTORS, ISZ, LOADV, COMBINEV, FINISH, PUT, 1);         \
        if (j == m)                                                                                   \
            return;                                                                                   \
        float tail[8] = {0};                                                                          \
        for (ptrdiff_t k = 0; j + k < m; k++) {                                                       \
            tail[k] = LOAD1(q + (ISZ) * (j + k));                                                     \
            for (ptrdiff_t r = 1; r < rows; r++)                                                      \
                tail[k] = COMBINE1(tail[k], LOAD1(q + r * row_stride + (ISZ) * (j + k)));             \
        }                                                                                             \
        PUT(out + (ISZ) * j, FINISH(_mm256_loadu_ps(tail)), divisor, (int)(m - j));                   \
    }
#define SUM_FINISH(sums) _mm256_add_ps(sums, _mm256_setzero_ps()) /* a -0.0 sum as 0.0 + x rounds it */
#define AS_KEPT(kept) (kept)
DEFINE_RESULTS(f32_sum, 4, f32_load8, load_f, _mm256_add_ps, ADD, SUM_FINISH, put_f32)
DEFINE_RESULTS(f32_mean, 4, f32_load8, load_f, _mm256_add_ps, ADD, SUM_FINISH, put_f32_mean)
DEFINE_RESULTS(f16c_sum, 2, f16c_load8, f16c_load, f16c_add, ADD, SUM_FINISH, put_f16)
DEFINE_RESULTS(f16c_mean, 2, f16c_load8, f16c_load, f16c_add, ADD, SUM_FINISH, put_f16_mean)
/* float16 max and min: their floats are halves, put back exactly (over axis 2: 1.40x, A/B) */
DEFINE_RESULTS(f16c_max, 2, f16c_load8, f16c_load, strip_max, MAX_NAN, AS_KEPT, put_f16)
DEFINE_RESULTS(f16c_min, 2, f16c_load8, f16c_load, strip_min, MIN_NAN, AS_KEPT, put_f16)
#undef KERNEL_TARGET
#define KERNEL_TARGET DISPATCH
#pragma GCC pop_options
/* Column strips with AVX-512 (x86-64-v4): rows of up to STRIP_ROW_BYTES_V4 whole in up to 16 of the
 * 32 registers (128 doubles, 128 floats widened to double for products, 256 floats for max and
 * min, 128 floats for sums in 8). In AVX2 such rows take two strips or more, and float64 ones read at 0.3-0.5x the
 * block loops; whole, a standalone loop read [40960, 128] doubles at 0.97-1.03x a pure read (the
 * block loops' way: 0.68-0.73). Even calls of few rows gain: the block loops load and store the
 * accumulators for each row, a strip once per block. A/B (session 25, same plans and buffers):
 * the blog tensor's float64 over (1, 2) and (0, 1, 2) 1.3-1.7x, over (0, 2) and (2,) 1.1-1.4x (max
 * and min over (0, 2): 0.9-1.0x); float32 max, min and products over (0, 2) and (2,) 1.1-1.2x,
 * sums there 1.2-1.4x. Also float32 sums of longer rows, in strips of 4 vectors (zmm_f32_between). */
#pragma GCC push_options
#pragma GCC target("arch=x86-64-v4")
#undef KERNEL_TARGET
#define KERNEL_TARGET /* x86-64-v4 only: called only where the CPU has it */
INLINE __m512d zmm_load_f64(const char *p) { return _mm512_loadu_pd((const void *)p); }
/* float32 max and min of rows in AVX-512 (max_f32_v4, min_f32_v4), and float16's rows of a
 * multiple of 32 (vmax_f16_v4 and vmin_f16_v4 below): the v3 lanes' 32 floats in two vectors, not
 * four, a NaN kept in its lane (below), and the same tree (lane j combined with lane j +
 * width, widths halving), so the same bits; float32's 8 lanes (short rows) take the v3 lanes,
 * float16's other rows the v3 kernel. A/B over the blog tensor's rows of 128 floats ((3,), (0,
 * 3)): 1.06-1.09x (a standalone loop read them at 0.86 of a pure read, the v3 lanes at 0.71);
 * float64 in AVX-512 measured 1.0x; float16 (session 32, either build loaded first) 1.10-1.27x
 * over every pattern of rows. */
typedef float zfloat __attribute__((vector_size(64)));
typedef int32_t zint __attribute__((vector_size(64)));
#define ZMM_TREE16(COMBINE, VM, VA, v) /* j with j + 8, j + 4, j + 2, j + 1 */                        \
    ({                                                                                                \
        VA t_ = COMBINE((v), LANE_SWAP(VM, (v), 8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7), VM, VA); \
        t_ = COMBINE(t_, LANE_SWAP(VM, t_, 4, 5, 6, 7, 0, 1, 2, 3, 12, 13, 14, 15, 8, 9, 10, 11), VM, VA); \
        t_ = COMBINE(t_, LANE_SWAP(VM, t_, 2, 3, 0, 1, 6, 7, 4, 5, 10, 11, 8, 9, 14, 15, 12, 13), VM, VA); \
        COMBINE(t_, LANE_SWAP(VM, t_, 1, 0, 3, 2, 5, 4, 7, 6, 9, 8, 11, 10, 13, 12, 15, 14), VM, VA); \
    })
#define COMBINE_ZMAX(a, x, VM, VA) ((VA)_mm512_max_ps(x, a))
#define COMBINE_ZMIN(a, x, VM, VA) ((VA)_mm512_min_ps(x, a))
/* NAME_vmain, NAME_vtotals and NAME_vpairs as DEFINE_VECTOR_LANES makes them, for L = 16 or 32 lanes
 * (the row's NaN flag set in every lane; NAME_vloop takes one row), else V3's; one row at a time
 * (two rows in one loop measured 1.05-1.08x over (0, 3), 0.87-0.91x over (2, 3)). A NaN sticks in
 * its lane, as numpy's loop keeps it: MASKED (a masked max or min) takes x where x is NaN, and
 * max(x, a) elsewhere, which keeps a NaN a (vmaxps returns its second operand then); the lanes are
 * tested once at the end. Before, a compare per vector was ORed into flags (kmov, or; the lanes
 * dropped a NaN x): the lanes are otherwise the same, and a NaN result is NAN either way, so the
 * same bits. A/B (session 35, Intel Xeon, either build first): float32 max over the blog
 * tensor's (1, 2, 3), (0, 1, 2, 3), (3,) and (0, 3) 1.04-1.11x, min 1.0-1.05x; float16 1.0x (its
 * conversions bound it). */
#define DEFINE_ZMM_EXTREME_LANES(NAME, ISZ, LOADZ, IDENTITY, COMBINE, MASKED, V3)                    \
    INLINE ptrdiff_t NAME##_vloop(const char *p, ptrdiff_t n, const int L, zfloat acc[2], int *nan)  \
    {                                                                                                 \
        __mmask16 any = 0;                                                                            \
        for (int v = 0; v < L / 16; v++)                                                              \
            acc[v] = (zfloat){0} + (IDENTITY);                                                        \
        ptrdiff_t i = 0;                                                                              \
        for (; i + L <= n; i += L)                                                                    \
            for (int v = 0; v < L / 16; v++) {                                                        \
                __m512 x = LOADZ(p + (i + v * 16) * (ISZ));                                           \
                acc[v] = (zfloat)MASKED(x, _mm512_cmp_ps_mask(x, x, _CMP_ORD_Q), x, (__m512)acc[v]);  \
            }                                                                                         \
        for (int v = 0; v < L / 16; v++)                                                              \
            any |= _mm512_cmp_ps_mask((__m512)acc[v], (__m512)acc[v], _CMP_UNORD_Q);                  \
        *nan = any != 0;                                                                              \
        return i;                                                                                     \
    }                                                                                                 \
    INLINE ptrdiff_t NAME##_vmain(const char *p, ptrdiff_t n, const int L, void *lanes, void *nans)   \
    {                                                                                                 \
        zfloat acc[2];                                                                                \
        int nan;                                                                                      \
        if (L != 16 && L != 32)                                                                       \
            return V3##_vmain(p, n, L, lanes, nans);                                                  \
        ptrdiff_t i = NAME##_vloop(p, n, L, acc, &nan);                                               \
        for (int j = 0; j < L; j++) {                                                                 \
            ((float *)lanes)[j] = acc[j / 16][j % 16];                                                \
            ((int32_t *)nans)[j] = nan;                                                               \
        }                                                                                             \
        return i;                                                                                     \
    }                                                                                                 \
    INLINE int NAME##_vtotals(const char *const *ps, const int R, ptrdiff_t n, const int L, void *totals) \
    {                                                                                                 \
        zfloat acc[2];                                                                                \
        int nan;                                                                                      \
        if (L != 16 && L != 32)                                                                       \
            return V3##_vtotals(ps, R, n, L, totals);                                                 \
        if (n % L != 0 || R != 1)                                                                     \
            return 0;                                                                                 \
        NAME##_vloop(ps[0], n, L, acc, &nan);                                                         \
        if (L == 32)                                                                                  \
            acc[0] = COMBINE(acc[0], acc[1], zint, zfloat);                                           \
        zfloat tree = ZMM_TREE16(COMBINE, zint, zfloat, acc[0]);                                      \
        *(float *)totals = nan ? (float)NAN : tree[0];                                                \
        return 1;                                                                                     \
    } \
    INLINE int NAME##_vpairs(const int L) { return (void)L, 0; } /* max and min take no row pairs */
INLINE __m512 zmm_load_f32(const char *p) { return _mm512_loadu_ps((const void *)p); }
INLINE __m512 zmm_load_f16(const char *p) { return _mm512_cvtph_ps(_mm256_loadu_si256((const __m256i *)p)); }
DEFINE_ZMM_EXTREME_LANES(vmax_f32_v4, 4, zmm_load_f32, -INFINITY, COMBINE_ZMAX, _mm512_mask_max_ps, vmax_f32_v3)
DEFINE_ZMM_EXTREME_LANES(vmin_f32_v4, 4, zmm_load_f32, INFINITY, COMBINE_ZMIN, _mm512_mask_min_ps, vmin_f32_v3)
DEFINE_ZMM_EXTREME_LANES(vmax_f16_v4, 2, zmm_load_f16, -INFINITY, COMBINE_ZMAX, _mm512_mask_max_ps, vmax_f16c)
DEFINE_ZMM_EXTREME_LANES(vmin_f16_v4, 2, zmm_load_f16, INFINITY, COMBINE_ZMIN, _mm512_mask_min_ps, vmin_f16c)
#undef KERNEL_TARGET
#define KERNEL_TARGET __attribute__((unused)) /* their column loops go unused: the strips' are taken */
DEFINE_FLOAT_EXTREME(max_f32_v4, 4, float, load_float, -INFINITY, MAX_NAN, MAX_PLAIN, int32_t, vmax_f32_v4)
DEFINE_FLOAT_EXTREME(min_f32_v4, 4, float, load_float, INFINITY, MIN_NAN, MIN_PLAIN, int32_t, vmin_f32_v4)
#undef KERNEL_TARGET
#define KERNEL_TARGET /* x86-64-v4 only: called only where the CPU has it */
/* float16 max and min of contiguous rows of a multiple of 32 halves in the AVX-512 lanes, as
 * NAME_row takes them (the other rows: the v3 kernel's), with no kernel family of their own (two
 * cost 1.2 s of the build) */
#define DEFINE_ZMM_HALF_EXTREME_ROWS(NAME, LANES, OP, V3)                                             \
    KERNEL_TARGET static void NAME##_rows(char *acc, ptrdiff_t acc_step, const char *p, ptrdiff_t count, \
                                          ptrdiff_t row_stride, ptrdiff_t n, ptrdiff_t s)             \
    {                                                                                                 \
        if (s != 2 || n % 32 != 0) {                                                                  \
            V3##_rows(acc, acc_step, p, count, row_stride, n, s);                                     \
            return;                                                                                   \
        }                                                                                             \
        for (ptrdiff_t r = 0; r < count; r++) {                                                       \
            const char *q = p + r * row_stride;                                                       \
            float value, *a = (float *)(acc + r * acc_step);                                          \
            LANES##_vtotals(&q, 1, n, 32, &value);                                                    \
            *a = OP(*a, value);                                                                       \
        }                                                                                             \
    }
DEFINE_ZMM_HALF_EXTREME_ROWS(max_f16_v4, vmax_f16_v4, MAX_NAN, max_f16c)
DEFINE_ZMM_HALF_EXTREME_ROWS(min_f16_v4, vmin_f16_v4, MIN_NAN, min_f16c)
INLINE __m512d zmm_load_f32_as_f64(const char *p) { return _mm512_cvtps_pd(_mm256_loadu_ps((const float *)p)); }
/* the later value x wins where it compares greater (less) or is NaN, as MAX_NAN (MIN_NAN): vmaxps
 * (x, a) is x > a ? x : a (a NaN a sticks), then x where it is NaN. Three instructions, not two
 * compares, an or of the masks and a blend: A/B over the strips' patterns (0, 2), (1, 2), (0, 1, 2)
 * 1.05-1.18x, float64 over (2,) 0.95-0.98x. */
#define DEFINE_ZMM_LATER(NAME, V, SUFFIX, OP)                                                         \
    INLINE V NAME(V a, V x)                                                                           \
    {                                                                                                 \
        return _mm512_mask_mov_##SUFFIX(_mm512_##OP##_##SUFFIX(x, a), _mm512_cmp_##SUFFIX##_mask(x, x, _CMP_UNORD_Q), x); \
    }
DEFINE_ZMM_LATER(zmm_max_f64, __m512d, pd, max)
DEFINE_ZMM_LATER(zmm_min_f64, __m512d, pd, min)
DEFINE_ZMM_LATER(zmm_max_f32, __m512, ps, max)
DEFINE_ZMM_LATER(zmm_min_f32, __m512, ps, min)
#define DOUBLE_ZMM __m512d, double, 8, _mm512_loadu_pd, _mm512_storeu_pd
#define FLOAT_ZMM __m512, float, 16, _mm512_loadu_ps, _mm512_storeu_ps
KEPT_STRIP(zmm_f64_sum, DOUBLE_ZMM, 8, zmm_load_f64, load_double, _mm512_add_pd, ADD)
KEPT_STRIP(zmm_f64_prod, DOUBLE_ZMM, 8, zmm_load_f64, load_double, _mm512_mul_pd, MUL)
KEPT_STRIP(zmm_f64_max, DOUBLE_ZMM, 8, zmm_load_f64, load_double, zmm_max_f64, MAX_NAN)
KEPT_STRIP(zmm_f64_min, DOUBLE_ZMM, 8, zmm_load_f64, load_double, zmm_min_f64, MIN_NAN)
KEPT_STRIP(zmm_f32_prod, DOUBLE_ZMM, 4, zmm_load_f32_as_f64, load_d_f32, _mm512_mul_pd, MUL)
KEPT_STRIP(zmm_f32_max, FLOAT_ZMM, 4, zmm_load_f32, load_float, zmm_max_f32, MAX_NAN)
KEPT_STRIP(zmm_f32_min, FLOAT_ZMM, 4, zmm_load_f32, load_float, zmm_min_f32, MIN_NAN)
/* the first and last 8 floats of a vector, widened to double */
INLINE __m512d zmm_low_doubles(__m512 v) { return _mm512_cvtps_pd(_mm512_castps512_ps256(v)); }
INLINE __m512d zmm_high_doubles(__m512 v) { return _mm512_cvtps_pd(_mm256_castpd_ps(_mm512_extractf64x4_pd(_mm512_castps_pd(v), 1))); }
/* NAME_group_strip of the AVX-512 sum strips: a strip's doubles (up to 16 registers for 8 vectors of
 * floats) stay in registers across the groups, each group's block of floats widened and added into
 * them, as the AVX2 strips' flush8 adds it into memory, so the same bits */
#define DEFINE_ZMM_SUM_GROUPS(NAME, ISZ, LOADV)                                                       \
    INLINE void NAME##_group_strip(double *acc, const char *q, ptrdiff_t groups, ptrdiff_t group_stride, \
                                   ptrdiff_t rows, ptrdiff_t row_stride, ptrdiff_t j, const int vectors) \
    {                                                                                                 \
        __m512d low[SMALL_STRIP_VECTORS], high[SMALL_STRIP_VECTORS];                                  \
        UNROLLED for (int k = 0; k < vectors; k++) {                                                  \
            low[k] = _mm512_loadu_pd(acc + j + 16 * k);                                               \
            high[k] = _mm512_loadu_pd(acc + j + 16 * k + 8);                                          \
        }                                                                                             \
        for (ptrdiff_t g = 0; g < groups; g++) {                                                      \
            __m512 sums[SMALL_STRIP_VECTORS];                                                         \
            const char *row = q + g * group_stride + (ISZ) * j;                                       \
            UNROLLED for (int k = 0; k < vectors; k++)                                                \
                sums[k] = LOADV(row + 16 * (ISZ) * k);                                                \
            for (ptrdiff_t r = 1; r < rows; r++) {                                                    \
                row += row_stride;                                                                    \
                UNROLLED for (int k = 0; k < vectors; k++)                                            \
                    sums[k] = _mm512_add_ps(sums[k], LOADV(row + 16 * (ISZ) * k));                    \
            }                                                                                         \
            UNROLLED for (int k = 0; k < vectors; k++) {                                              \
                low[k] = _mm512_add_pd(low[k], zmm_low_doubles(sums[k]));                             \
                high[k] = _mm512_add_pd(high[k], zmm_high_doubles(sums[k]));                          \
            }                                                                                         \
        }                                                                                             \
        UNROLLED for (int k = 0; k < vectors; k++) {                                                  \
            _mm512_storeu_pd(acc + j + 16 * k, low[k]);                                               \
            _mm512_storeu_pd(acc + j + 16 * k + 8, high[k]);                                          \
        }                                                                                             \
    }
DEFINE_ZMM_SUM_GROUPS(zmm_f32_sum, 4, zmm_load_f32) DEFINE_SUM_COLUMN(zmm_f32_sum, 4, load_f)
/* float32 sums on the rows between (of 8 rows or more, which the block loops flush too): strips of
 * 4 vectors across each block of FLUSH_ROWS rows. A/B (session 27, same plans and buffers, each call
 * after a read of the buffer): the blog tensor over (1,) (rows of 640 floats) 1.05-1.08x, over (0, 1)
 * 1.0-1.12x; strips of 8 vectors there 1.0x, and of 4 on the short rows 0.7x. */
DEFINE_STRIP_COLS_OF(zmm_f32_between, zmm_f32_sum, double, 4, 16, 4, (count) >= F32_FLUSH_MIN_ROWS, dsum_f32_flushed_cols)
DEFINE_STRIP_COLS(zmm_f32_sum, double, SMALL_STRIP_VECTORS, 16, 4, F32_SUM_STRIPS(count, m), zmm_f32_between_cols)
INLINE void zmm_flush16(double *acc, __m512 sums)
{
    _mm512_storeu_pd(acc, _mm512_add_pd(_mm512_loadu_pd(acc), zmm_low_doubles(sums)));
    _mm512_storeu_pd(acc + 8, _mm512_add_pd(_mm512_loadu_pd(acc + 8), zmm_high_doubles(sums)));
}
DEFINE_SPLIT_COLS(zmm_f32, __m512, 16, 4, zmm_load_f32, _mm512_add_ps, _mm512_load_ps, _mm512_store_ps, zmm_flush16, zmm_f32_sum_cols)
/* Float max and min over narrower accumulators (the rows between: (1,), (0, 1), rows of 640) in two
 * halves at once: rows r and half + r combined into two rows of accumulators in one pass (the
 * second half's starting as a copy of its first row), then joined. One row at a time stalls on the
 * input; two streams far apart do not (rows next to each other confused the prefetcher: 0.3x in a
 * standalone loop). Max and min keep the first of equal values and the last NaN (MAX_NAN), so
 * joining the halves' results gives what combining the rows in order gives: the same bits. */
#define HALVES_MIN_ROWS 64
#define DEFINE_ZMM_HALVES_COLS(NAME, V, A, L, LOADA, STOREA, ISZ, LOADV, LOAD1, COMBINEV, OP1, FALLBACK) \
    KERNEL_TARGET static void NAME##_halves_cols(char *acc, ptrdiff_t acc_step, const char *p, ptrdiff_t count, \
                                                 ptrdiff_t row_stride, ptrdiff_t m, ptrdiff_t s)      \
    {                                                                                                 \
        if (acc_step != 0 || s != (ISZ) || count < HALVES_MIN_ROWS || m * (ptrdiff_t)sizeof(A) > UNROLL_MIN_BYTES) { \
            FALLBACK(acc, acc_step, p, count, row_stride, m, s);                                      \
            return;                                                                                   \
        }                                                                                             \
        A *a = (A *)acc, second[UNROLL_MIN_BYTES / sizeof(A)];                                        \
        ptrdiff_t half = count / 2, later = count - half - 1; /* rows of the second half after its first */ \
        const char *q = p + half * row_stride;                                                        \
        for (ptrdiff_t j = 0; j < m; j++)                                                             \
            second[j] = LOAD1(q + (ISZ) * j);                                                         \
        for (ptrdiff_t r = 0; r < later; r++) {                                                       \
            const char *x = p + r * row_stride, *y = q + (r + 1) * row_stride;                        \
            ptrdiff_t j = 0;                                                                          \
            for (; j + (L) <= m; j += (L)) {                                                          \
                STOREA(a + j, COMBINEV(LOADA(a + j), LOADV(x + (ISZ) * j)));                          \
                STOREA(second + j, COMBINEV(LOADA(second + j), LOADV(y + (ISZ) * j)));               \
            }                                                                                         \
            for (; j < m; j++) {                                                                      \
                a[j] = OP1(a[j], LOAD1(x + (ISZ) * j));                                               \
                second[j] = OP1(second[j], LOAD1(y + (ISZ) * j));                                     \
            }                                                                                         \
        }                                                                                             \
        /* the first half's last row where the count is even */                                       \
        FALLBACK(acc, 0, p + later * row_stride, half - later, row_stride, m, s);                     \
        for (ptrdiff_t j = 0; j < m; j++)                                                             \
            a[j] = OP1(a[j], second[j]);                                                              \
    }
DEFINE_ZMM_HALVES_COLS(zmm_f64_max, __m512d, double, 8, _mm512_loadu_pd, _mm512_storeu_pd, 8, zmm_load_f64, load_double, zmm_max_f64, MAX_NAN, max_f64_v3_cols)
DEFINE_ZMM_HALVES_COLS(zmm_f64_min, __m512d, double, 8, _mm512_loadu_pd, _mm512_storeu_pd, 8, zmm_load_f64, load_double, zmm_min_f64, MIN_NAN, min_f64_v3_cols)
DEFINE_ZMM_HALVES_COLS(zmm_f32_max, __m512, float, 16, _mm512_loadu_ps, _mm512_storeu_ps, 4, zmm_load_f32, load_float, zmm_max_f32, MAX_NAN, f32_max_cols)
DEFINE_ZMM_HALVES_COLS(zmm_f32_min, __m512, float, 16, _mm512_loadu_ps, _mm512_storeu_ps, 4, zmm_load_f32, load_float, zmm_min_f32, MIN_NAN, f32_min_cols)
DEFINE_ZMM_BLOCK_COLS(zmm_f64_sum, __m512d, double, 8, _mm512_loadu_pd, _mm512_storeu_pd, 8, zmm_load_f64, load_double, _mm512_add_pd, ADD, 4, dsum_f64_cols)
DEFINE_ZMM_BLOCK_COLS(zmm_f64_prod, __m512d, double, 8, _mm512_loadu_pd, _mm512_storeu_pd, 8, zmm_load_f64, load_double, _mm512_mul_pd, MUL, 4, dprod_f64_cols)
DEFINE_STRIP_COLS(zmm_f64_sum, double, STRIP_VECTORS, 8, 8, WHOLE_ROW_V4(m, 8), zmm_f64_sum_block_cols)
DEFINE_STRIP_COLS(zmm_f64_prod, double, STRIP_VECTORS, 8, 8, WHOLE_ROW_V4(m, 8), zmm_f64_prod_block_cols)
DEFINE_ZMM_BLOCK_COLS(zmm_f64_max, __m512d, double, 8, _mm512_loadu_pd, _mm512_storeu_pd, 8, zmm_load_f64, load_double, zmm_max_f64, MAX_NAN, 4, zmm_f64_max_halves_cols)
DEFINE_ZMM_BLOCK_COLS(zmm_f64_min, __m512d, double, 8, _mm512_loadu_pd, _mm512_storeu_pd, 8, zmm_load_f64, load_double, zmm_min_f64, MIN_NAN, 4, zmm_f64_min_halves_cols)
DEFINE_ZMM_BLOCK_COLS(zmm_f32_max, __m512, float, 16, _mm512_loadu_ps, _mm512_storeu_ps, 4, zmm_load_f32, load_float, zmm_max_f32, MAX_NAN, 4, zmm_f32_max_halves_cols)
DEFINE_ZMM_BLOCK_COLS(zmm_f32_min, __m512, float, 16, _mm512_loadu_ps, _mm512_storeu_ps, 4, zmm_load_f32, load_float, zmm_min_f32, MIN_NAN, 4, zmm_f32_min_halves_cols)
DEFINE_STRIP_COLS(zmm_f64_max, double, STRIP_VECTORS, 8, 8, WHOLE_ROW_V4(m, 8), zmm_f64_max_block_cols)
DEFINE_STRIP_COLS(zmm_f64_min, double, STRIP_VECTORS, 8, 8, WHOLE_ROW_V4(m, 8), zmm_f64_min_block_cols)
DEFINE_ZMM_BLOCK_COLS(zmm_f32_prod, __m512d, double, 8, _mm512_loadu_pd, _mm512_storeu_pd, 4, zmm_load_f32_as_f64, load_d_f32, _mm512_mul_pd, MUL, 4, f32_prod_cols)
DEFINE_STRIP_COLS(zmm_f32_prod, double, STRIP_VECTORS, 8, 4, WHOLE_ROW_V4(m, 8), zmm_f32_prod_block_cols)
/* float32 products whose every result multiplies the 2 to 16 rows of one call (takes_results: the
 * blog tensor over axis 2 multiplies 5 rows of 128), written by the strip (a ResultsFn): in double
 * from the first row, as the accumulators from 1.0 (exactly the row), rounded once to float32, so
 * the same bits without the accumulators to fill, multiply into and store from. */
INLINE void put_f32_of_doubles(char *out, __m512d products, double divisor, int count)
{
    (void)divisor, (void)count; /* always 8: the tail is scalar */
    _mm256_storeu_ps((float *)out, _mm512_cvtpd_ps(products));
}
static void zmm_f32_prod_results(char *out, const char *q, ptrdiff_t rows, ptrdiff_t row_stride, ptrdiff_t m, double divisor)
{
    (void)divisor;
    ptrdiff_t j = 0;
    for (; j + 8 * STRIP_VECTORS <= m; j += 8 * STRIP_VECTORS)
        RESULTS_STRIP(__m512d, STRIP_VECTORS, 4, zmm_load_f32_as_f64, _mm512_mul_pd, AS_KEPT, put_f32_of_doubles, STRIP_VECTORS);
    for (; j + 8 <= m; j += 8)
        RESULTS_STRIP(__m512d, STRIP_VECTORS, 4, zmm_load_f32_as_f64, _mm512_mul_pd, AS_KEPT, put_f32_of_doubles, 1);
    for (; j < m; j++) {
        double product = load_d_f32(q + 4 * j);
        for (ptrdiff_t r = 1; r < rows; r++)
            product *= load_d_f32(q + r * row_stride + 4 * j);
        ((float *)out)[j] = (float)product;
    }
}
DEFINE_STRIP_COLS(zmm_f32_max, float, STRIP_VECTORS, 16, 4, WHOLE_ROW_V4(m, 4), zmm_f32_max_block_cols)
DEFINE_STRIP_COLS(zmm_f32_min, float, STRIP_VECTORS, 16, 4, WHOLE_ROW_V4(m, 4), zmm_f32_min_block_cols)
#undef KERNEL_TARGET
#define KERNEL_TARGET DISPATCH
#pragma GCC pop_options
/* The kernels whose column loops are the strips above: chosen where the CPU has x86-64-v3 */
#define STRIP_DOUBLES(KERNEL, STRIP) STRIP_OPS(KERNEL, double, ACC_DOUBLE, STRIP)
/* float16 and float32 sums: the short rows' loop, the split blocks' columns, the strips' groups */
#define SPLIT_SUMS(KERNEL, ROWS, NAME) OPS_WITH_ROWS(KERNEL, double, ACC_DOUBLE, ROWS##_rows, NAME##_split_cols, NAME##_sum_groups)
static const Ops v3_ops[N_OPS][N_TYPES] = {
    [OP_SUM] = {[T_F16] = SPLIT_SUMS(dsum_f16c, f16c_short, f16c), [T_F32] = SPLIT_SUMS(dsum_f32, f32_short, f32)},
    [OP_MEAN] = {[T_F16] = SPLIT_SUMS(dsum_f16c, f16c_short, f16c), [T_F32] = SPLIT_SUMS(dsum_f32, f32_short, f32)},
    [OP_PROD] = {[T_F32] = STRIP_DOUBLES(dprod_f32, f32_prod)},
    [OP_MAX] = {[T_F16] = STRIP_OPS(max_f16c, float, ACC_FLOAT, f16c_max), [T_F32] = STRIP_OPS(max_f32_v3, float, ACC_NATIVE, f32_max),
                [T_F64] = OPS(max_f64_v3, double, ACC_NATIVE)},
    [OP_MIN] = {[T_F16] = STRIP_OPS(min_f16c, float, ACC_FLOAT, f16c_min), [T_F32] = STRIP_OPS(min_f32_v3, float, ACC_NATIVE, f32_min),
                [T_F64] = OPS(min_f64_v3, double, ACC_NATIVE)},
};
/* ... and where it has x86-64-v4 (float16 max and min: the v3 kernel's but for the rows above) */
#define HALF_EXTREME_V4(OP) OPS_WITH_ROWS(OP##_f16c, float, ACC_FLOAT, OP##_f16_v4_rows, f16c_##OP##_cols, f16c_##OP##_groups)
static const Ops v4_ops[N_OPS][N_TYPES] = {
    /* float16 sums take the AVX2 loops: a zmm vcvtph2ps ran at half the rate of two ymm ones (Zen 4) */
    [OP_SUM] = {[T_F16] = SPLIT_SUMS(dsum_f16c, f16c_short, f16c), [T_F32] = SPLIT_SUMS(dsum_f32, f32_short, zmm_f32),
                [T_F64] = STRIP_DOUBLES(dsum_f64, zmm_f64_sum)},
    [OP_MEAN] = {[T_F16] = SPLIT_SUMS(dsum_f16c, f16c_short, f16c), [T_F32] = SPLIT_SUMS(dsum_f32, f32_short, zmm_f32),
                 [T_F64] = STRIP_DOUBLES(dsum_f64, zmm_f64_sum)},
    [OP_PROD] = {[T_F32] = STRIP_DOUBLES(dprod_f32, zmm_f32_prod), [T_F64] = STRIP_DOUBLES(dprod_f64, zmm_f64_prod)},
    [OP_MAX] = {[T_F16] = HALF_EXTREME_V4(max), [T_F32] = STRIP_OPS(max_f32_v4, float, ACC_NATIVE, zmm_f32_max),
                [T_F64] = STRIP_OPS(max_f64_v3, double, ACC_NATIVE, zmm_f64_max)},
    [OP_MIN] = {[T_F16] = HALF_EXTREME_V4(min), [T_F32] = STRIP_OPS(min_f32_v4, float, ACC_NATIVE, zmm_f32_min),
                [T_F64] = STRIP_OPS(min_f64_v3, double, ACC_NATIVE, zmm_f64_min)},
};
static int use_v3, use_v4; /* set when the module loads */
static void choose_vector_loops(void)
{
    const char *setting = getenv("TYPEDTENSOR_V3_LOOPS");
    __builtin_cpu_init();
    /* the loops are compiled for all of x86-64-v3, not only AVX2 and F16C */
    use_v3 = __builtin_cpu_supports("x86-64-v3") && !(setting && strcmp(setting, "0") == 0);
    /* 3: x86-64-v3 only, so a test runs the AVX2 loops on an AVX-512 CPU too */
    use_v4 = use_v3 && __builtin_cpu_supports("x86-64-v4") && !(setting && strcmp(setting, "3") == 0);
}
#else
static const int use_v3 = 0, use_v4 = 0;
static void choose_vector_loops(void) {}
#define f16c_store_float_half store_float_half /* never chosen: use_v3 is 0 */
#define f16c_store_double_half store_double_half
#define f16c_store_mean_half store_mean_half
#endif


/* The float kernels, by op and input type; the others are in _ckernels_integers.c. */
#define FLOAT_EXTREMES(OP)                                                                            \
    {[T_F16] = OPS(OP##_f16, float, ACC_FLOAT), [T_F32] = OPS(OP##_f32, float, ACC_NATIVE),           \
     [T_F64] = OPS(OP##_f64, double, ACC_NATIVE)}
#define FLOAT_SUMS {[T_F16] = FLUSHED_OPS(dsum_f16), [T_F32] = FLUSHED_OPS(dsum_f32), [T_F64] = OPS(dsum_f64, double, ACC_DOUBLE)}
static const Ops float_ops[N_OPS][N_TYPES] = {
    [OP_SUM] = FLOAT_SUMS,
    [OP_MEAN] = FLOAT_SUMS,
    [OP_PROD] = {[T_F16] = OPS(dprod_f16, double, ACC_DOUBLE), [T_F32] = OPS(dprod_f32, double, ACC_DOUBLE),
                 [T_F64] = OPS(dprod_f64, double, ACC_DOUBLE)},
    [OP_MAX] = FLOAT_EXTREMES(max),
    [OP_MIN] = FLOAT_EXTREMES(min),
};

/* The kernels of op over type into out_type, `per_result` input elements combined into each result */
static const Ops *find_ops(int op, int type, int out_type, double per_result)
{
    /* int32 means: in int64 into float64 results (find_store), where the sums cannot wrap */
    if (op == OP_MEAN && type == T_I32 && (out_type != T_F64 || per_result >= 4294967296.0))
        return &int32_double_mean;
#ifdef V3_LOOPS
    if (use_v4 && v4_ops[op][type].init)
        return &v4_ops[op][type];
    if (use_v4 && integer_v4_ops[op][type].init)
        return &integer_v4_ops[op][type];
    if (use_v3 && v3_ops[op][type].init)
        return &v3_ops[op][type];
#endif
    const Ops *floats = &float_ops[op][type];
    return floats->init ? floats : &integer_ops[op][type];
}

/* The strips that write the results of this op and types themselves, or NULL (see ResultsFn);
 * they divide if `mean`, as find_store's stores do (the divisor, not the op, says so) */
static ResultsFn find_results(int op, int in_type, int out_type, int mean)
{
#ifdef V3_LOOPS
    if (use_v3 && in_type == out_type && (op == OP_SUM || op == OP_MEAN)) {
        if (in_type == T_F32)
            return mean ? f32_mean_results : f32_sum_results;
        if (in_type == T_F16)
            return mean ? f16c_mean_results : f16c_sum_results;
    }
    if (use_v3 && in_type == T_F16 && out_type == T_F16 && (op == OP_MAX || op == OP_MIN))
        return op == OP_MAX ? f16c_max_results : f16c_min_results;
    if (use_v4 && op == OP_PROD && in_type == T_F32 && out_type == T_F32 && !mean)
        return zmm_f32_prod_results;
#endif
    (void)op, (void)in_type, (void)out_type, (void)mean;
    return NULL;
}

/* ---- writing results: accumulators converted to the output type ----------------------------- */

typedef void (*StoreFn)(char *out, ptrdiff_t out_stride, const char *acc, ptrdiff_t n, double divisor);

#define DEFINE_STORE(NAME, A, OUT, CONVERT)                                                           \
    DISPATCH static void NAME(char *out, ptrdiff_t out_stride, const char *acc, ptrdiff_t n, double divisor) \
    {                                                                                                 \
        const A *a = (const A *)acc;                                                                  \
        (void)divisor;                                                                                \
        if (out_stride == (ptrdiff_t)sizeof(OUT)) { /* contiguous: vectorises */                      \
            OUT *o = (OUT *)out;                                                                      \
            for (ptrdiff_t i = 0; i < n; i++)                                                         \
                o[i] = CONVERT;                                                                       \
            return;                                                                                   \
        }                                                                                             \
        for (ptrdiff_t i = 0; i < n; i++)                                                             \
            *(OUT *)(out + i * out_stride) = CONVERT;                                                 \
    }
DEFINE_STORE(store_copy8, uint64_t, uint64_t, a[i])
DEFINE_STORE(store_copy4, uint32_t, uint32_t, a[i])
DEFINE_STORE(store_copy2, uint16_t, uint16_t, a[i])
DEFINE_STORE(store_copy1, uint8_t, uint8_t, a[i])
DEFINE_STORE(store_double_float, double, float, (float)a[i])
DEFINE_STORE(store_mean, double, double, a[i] / divisor)
DEFINE_STORE(store_mean_float, double, float, (float)(a[i] / divisor))
/* int32 means: their int64 sums as doubles, divided by divisor (0: undivided, partials). Four at a
 * time where all are below 2^51 in magnitude (sums of fewer than 2^20 int32 always are): 1.5 * 2^52
 * + x, as a double's bits, is that double plus x, which one subtraction leaves exact (AVX2 has no
 * int64 -> double; one at a time, the conversions and divisions of a million results cost more than
 * the reduction); four with a sum past that, one at a time. It may run in place (acc == out:
 * direct). */
INLINE double int64_mean(int64_t sum, double divisor) { return divisor != 0 ? (double)sum / divisor : (double)sum; }
DISPATCH static void store_i64_mean(char *out, ptrdiff_t out_stride, const char *acc, ptrdiff_t n, double divisor)
{
    const int64_t *a = (const int64_t *)acc;
    ptrdiff_t i = 0;
#ifdef VECTOR_LANES
    for (; out_stride == (ptrdiff_t)sizeof(double) && i + 4 <= n; i += 4) {
        vulong x;
        memcpy(&x, a + i, sizeof x);
        vlong outside = (vlong)(x + (1ULL << 51) >= (1ULL << 52)); /* unsigned: no overflow */
        if (outside[0] | outside[1] | outside[2] | outside[3]) {
            for (int k = 0; k < 4; k++)
                ((double *)out)[i + k] = int64_mean(a[i + k], divisor);
            continue;
        }
        vdouble d = (vdouble)(x + 0x4338000000000000ULL) - 6755399441055744.0;
        if (divisor != 0)
            d /= divisor;
        memcpy(out + i * (ptrdiff_t)sizeof(double), &d, sizeof d);
    }
#endif
    for (; i < n; i++)
        *(double *)(out + i * out_stride) = int64_mean(a[i], divisor);
}
#define ELEMENT(a, i, divisor) ((double)(a)[i])
#define ELEMENT_MEAN(a, i, divisor) ((a)[i] / (divisor))
DEFINE_HALF_STORE(store_float_half, float, ELEMENT)
DEFINE_HALF_STORE(store_double_half, double, ELEMENT)
DEFINE_HALF_STORE(store_mean_half, double, ELEMENT_MEAN)

/* The store for this accumulator and output type (a mean's divides), or NULL if the pair makes
 * no sense. */
static StoreFn find_store(const Ops *ops, int op, int in_type, int out_type, int mean)
{
    switch (ops->acc_kind) {
    case ACC_U64:
        if (op == OP_MEAN && in_type == T_I32 && out_type == T_F64) /* and their partials: undivided */
            return store_i64_mean;
        return out_type == T_I64 || out_type == T_U64 ? store_copy8 : NULL;
    case ACC_DOUBLE:
        if (out_type == T_F64)
            return mean ? store_mean : store_copy8;
        if (out_type == T_F32)
            return mean ? store_mean_float : store_double_float;
        if (out_type == T_F16 && use_v3)
            return mean ? f16c_store_mean_half : f16c_store_double_half;
        if (out_type == T_F16)
            return mean ? store_mean_half : store_double_half;
        return NULL;
    case ACC_FLOAT:
        return out_type != T_F16 ? NULL : use_v3 ? f16c_store_float_half : store_float_half;
    case ACC_FLAG:
        return out_type == T_BOOL ? store_copy1 : NULL;
    case ACC_NATIVE:
        if (out_type != in_type)
            return NULL;
        return ops->acc_size == 8 ? store_copy8 : ops->acc_size == 4 ? store_copy4
             : ops->acc_size == 2 ? store_copy2 : store_copy1;
    }
    return NULL;
}

/* ---- the walk over a folded view ------------------------------------------------------------ */

typedef struct {
    ptrdiff_t size, in_stride, out_stride; /* input in bytes, output in bytes (scaled on entry) */
    int reduced;
} Dim;

typedef struct {
    ptrdiff_t size, out_stride, acc_stride; /* bytes */
} Kept;

/* A sub-problem: the dims from the innermost leading kept one (in blocks) or the first reduced
 * one, reduced into accumulators in memory order, then converted and stored. */
typedef struct {
    const Ops *ops;
    StoreFn store;
    double divisor;
    ptrdiff_t itemsize;             /* of the input */
    int nd;
    Dim dims[MAX_DIMS];
    ptrdiff_t acc_stride[MAX_DIMS]; /* bytes between accumulators along each dim (0: reduced) */
    int nk;
    Kept kept[MAX_DIMS];            /* the kept dims, dense in the accumulator, innermost last */
    int columns;                    /* the innermost dim is kept */
    ptrdiff_t tile;                 /* columns: how many of its indices one tile covers */
    ptrdiff_t outputs;              /* accumulators per tile */
    char *acc;
    int copies;                     /* the accumulators have the results' size: the store copies, or
                                       converts in place (converts) */
    int converts;                   /* ... a float64 mean's sums divided, an int32 mean's converted */
    int direct;                     /* ... and their layout: the results are the accumulators */
    ResultsFn strip_results;        /* strips that write the results for this op and types, if any */
    ResultsFn results;              /* ... where this sub-problem's shape lets them: no accumulators */
} Sub;

/* Whether accumulate's call of the d[k].size rows at level k, of `width` columns, would regroup short
 * dense rows into GROUP_LANES lanes (an order of their own) */
static int regroups(const Sub *s, int k, ptrdiff_t width)
{
    const Dim *d = s->dims;
    ptrdiff_t isz = s->itemsize, group = GROUP_LANES / width;
    int dense = s->acc_stride[k] == 0 && d[s->nd - 1].in_stride == isz && d[k].in_stride == width * isz;
    return dense && group >= 2 && d[k].size >= 2 * group;
}

/* The tail R K R K (the blog tensor over (0, 2): [32, 256, 5, 128]), few rows per call: each call
 * takes OUTER_GROUPS indices of the outer reduced dim at once, so the strips load and store an
 * accumulator row once for all of them, not once per 5 rows (a standalone loop over that tensor's
 * int32: 4 at a time read at 1.06 of a pure read, 2 at 0.9, 8 at 1.0, 1 at 0.67) */
#define OUTER_GROUPS 4
static int takes_groups(const Sub *s, int k, ptrdiff_t width)
{
    const Dim *d = s->dims;
    return k == s->nd - 4 && s->columns && s->ops->groups && d[k].reduced && !d[k + 1].reduced && d[k + 2].reduced &&
           d[k + 2].size <= FLUSH_ROWS && !regroups(s, k + 2, width);
}

static void accumulate_groups(const Sub *s, int k, const char *in, char *acc, ptrdiff_t width)
{
    const Dim *d = s->dims;
    for (ptrdiff_t i = 0; i < d[k].size; i += OUTER_GROUPS) {
        ptrdiff_t groups = d[k].size - i < OUTER_GROUPS ? d[k].size - i : OUTER_GROUPS;
        for (ptrdiff_t j = 0; j < d[k + 1].size; j++)
            s->ops->groups(acc + j * s->acc_stride[k + 1], in + i * d[k].in_stride + j * d[k + 1].in_stride, groups,
                           d[k].in_stride, d[k + 2].size, d[k + 2].in_stride, width, d[k + 3].in_stride);
    }
}

static void accumulate(const Sub *s, int k, const char *in, char *acc, ptrdiff_t width)
{
    const Dim *d = s->dims;
    int last = s->nd - 1;
    if (takes_groups(s, k, width)) {
        accumulate_groups(s, k, in, acc, width);
        return;
    }
    if (k < last - 1) {
        for (ptrdiff_t i = 0; i < d[k].size; i++)
            accumulate(s, k + 1, in + i * d[k].in_stride, acc + i * s->acc_stride[k], width);
        return;
    }
    if (!s->columns) {
        if (k == last) /* a single row */
            s->ops->rows(acc, 0, in, 1, 0, d[last].size, d[last].in_stride);
        else
            s->ops->rows(acc, s->acc_stride[k], in, d[k].size, d[k].in_stride, d[last].size, d[last].in_stride);
        return;
    }
    ptrdiff_t isz = s->itemsize, count = d[k].size, row_stride = d[k].in_stride, group = GROUP_LANES / width;
    if (regroups(s, k, width)) {
        /* Short dense rows: `group` rows at a time are one row of width * group lanes. */
        char lanes[GROUP_LANES * sizeof(double)];
        ptrdiff_t wide = width * group, groups = count / group;
        s->ops->init(lanes, wide);
        s->ops->cols(lanes, 0, in, groups, wide * isz, wide, isz);
        s->ops->cols(acc, 0, in + groups * wide * isz, count - groups * group, row_stride, width, isz);
        for (ptrdiff_t g = 0; g < group; g++)
            s->ops->merge(acc, lanes + g * width * s->ops->acc_size, width);
        return;
    }
    s->ops->cols(acc, s->acc_stride[k], in, count, row_stride, width, d[last].in_stride);
}

/* Converts the accumulators of kept dims j onwards and writes them, each output once. */
static void store_kept(const Sub *s, int j, char *out, const char *acc, ptrdiff_t width)
{
    if (s->nk == 0) {
        s->store(out, 0, acc, 1, s->divisor);
        return;
    }
    const Kept *kept = &s->kept[j];
    if (j == s->nk - 1) {
        s->store(out, kept->out_stride, acc, s->columns ? width : kept->size, s->divisor);
        return;
    }
    for (ptrdiff_t i = 0; i < kept->size; i++)
        store_kept(s, j + 1, out + i * kept->out_stride, acc + i * kept->acc_stride, width);
}

/* The kept dims from k on, then each call's rows written as results by the strips */
static void write_results(const Sub *s, int k, const char *in, char *out)
{
    const Dim *d = s->dims;
    if (k < s->nd - 2) {
        for (ptrdiff_t i = 0; i < d[k].size; i++)
            write_results(s, k + 1, in + i * d[k].in_stride, out + i * d[k].out_stride);
        return;
    }
    s->results(out, in, d[k].size, d[k].in_stride, d[k + 1].size, s->divisor);
}

/* The indices of the innermost dim one row of accumulators covers untiled: all of them for
 * columns, 1 for rows */
static ptrdiff_t untiled_width(const Sub *s) { return s->columns ? s->dims[s->nd - 1].size : 1; }

/* How many tiles the innermost kept dim of this sub-problem is walked in (1 for rows) */
static ptrdiff_t tile_count(const Sub *s)
{
    if (s->results || !s->columns)
        return 1;
    return (s->dims[s->nd - 1].size + s->tile - 1) / s->tile;
}

/* Tiles [first, stop) of the sub-problem: each its own outputs, so any of them computes alike
 * whatever else runs, on whichever thread. */
static void run_tiles(const Sub *s, const char *in, char *out, ptrdiff_t first, ptrdiff_t stop)
{
    if (s->results) { /* one tile, the only unit */
        if (first < stop)
            write_results(s, 0, in, out);
        return;
    }
    const Dim *inner = &s->dims[s->nd - 1];
    ptrdiff_t size = untiled_width(s);
    for (ptrdiff_t start = first * s->tile; start < size && start < stop * s->tile; start += s->tile) {
        ptrdiff_t width = size - start < s->tile ? size - start : s->tile;
        char *acc = s->direct ? out : s->acc; /* direct: one tile */
        s->ops->init(acc, s->outputs);
        accumulate(s, 0, in + (s->columns ? start * inner->in_stride : 0), acc, width);
        if (!s->direct)
            store_kept(s, 0, out + (s->columns ? start * inner->out_stride : 0), acc, width);
        else if (s->converts) /* a mean's sums, converted and divided where they lie */
            s->store(acc, (ptrdiff_t)sizeof(double), acc, s->outputs, s->divisor);
    }
}

static void run_sub(const Sub *s, const char *in, char *out) { run_tiles(s, in, out, 0, tile_count(s)); }

/* How many indices of the innermost kept dim one pass covers: all of them if the accumulators
 * of all outputs then fit in L2 (the input is read once, in memory order), else a tile. */
static ptrdiff_t tile_of(const Dim *dims, int nd, ptrdiff_t acc_size)
{
    ptrdiff_t kept_outside = 1, inner = dims[nd - 1].size;
    for (int k = 0; k < nd - 1; k++)
        if (!dims[k].reduced)
            kept_outside *= dims[k].size;
    if (kept_outside * inner * acc_size <= ACC_BYTES)
        return inner;
    ptrdiff_t tile = ACC_BYTES / (kept_outside * acc_size);
    tile = tile < MIN_TILE ? MIN_TILE : tile - tile % 16;
    return tile > inner ? inner : tile;
}

#define DIRECT_MAX_ROWS 8 /* results of at most this many elements are accumulated in place */

/* Whether the strips can write this sub-problem's results (s->strip_results): every result
 * combines the rows of one call, 2 to FLUSH_ROWS of them (one strip block), contiguous rows and
 * results, and the column loops would combine them row by row as the strips do (sums in float32
 * from the first row: float32 rows of up to STRIP_ROW_BYTES, float16 rows of any length; max and
 * min of float16 and products of float32 in the accumulators' type, from its identity), not the
 * regrouped short rows of accumulate; a mean's count at most FLUSH_ROWS (put_f32_mean and
 * put_f16_mean divide by it in float32). */
static int takes_results(const Sub *s)
{
    const Dim *d = s->dims;
    int rows = s->nd - 2;
    if (!s->strip_results || !s->columns || rows < 0 || !d[rows].reduced || s->tile != d[rows + 1].size)
        return 0;
    for (int k = 0; k < rows; k++)
        if (d[k].reduced)
            return 0;
    ptrdiff_t m = d[rows + 1].size, count = d[rows].size, isz = s->itemsize, group = GROUP_LANES / m;
    int regrouped = d[rows].in_stride == m * isz && group >= 2 && count >= 2 * group;
    return count >= 2 && count <= FLUSH_ROWS && d[rows + 1].in_stride == isz && d[rows + 1].out_stride == isz &&
           (isz == 2 || m * isz <= STRIP_ROW_BYTES) && !regrouped && s->divisor <= FLUSH_ROWS;
}

/* Sets up the sub-problem over dims[0..nd) with its first dim cut to `first` indices. */
static void plan_sub(Sub *s, const Dim *dims, int nd, ptrdiff_t first)
{
    memcpy(s->dims, dims, (size_t)nd * sizeof(Dim));
    s->dims[0].size = first;
    s->nd = nd;
    s->columns = !dims[nd - 1].reduced;
    ptrdiff_t acc_size = s->ops->acc_size;
    s->tile = s->columns ? tile_of(s->dims, nd, acc_size) : 1;
    ptrdiff_t stride = s->columns ? s->tile * acc_size : acc_size; /* dense, innermost kept fastest */
    s->acc_stride[nd - 1] = s->columns ? acc_size : 0;
    for (int k = nd - 2; k >= 0; k--) {
        s->acc_stride[k] = s->dims[k].reduced ? 0 : stride;
        if (!s->dims[k].reduced)
            stride *= s->dims[k].size;
    }
    s->outputs = stride / acc_size;
    s->nk = 0;
    for (int k = 0; k < nd; k++)
        if (!s->dims[k].reduced)
            s->kept[s->nk++] = (Kept){k == nd - 1 ? s->tile : s->dims[k].size, s->dims[k].out_stride, s->acc_stride[k]};
    /* Results of few elements each, laid out as the accumulators would be and of their size, in
     * one tile: accumulate in them, no second pass to store but, for means, a conversion in place
     * (converts: float64 sums divided, int32 means' int64 sums converted). The blog tensor over
     * axis 2: a million results of 5 rows; where each result combines many rows, the store costs
     * nothing and the results' addresses measured slower than the one accumulator block. */
    ptrdiff_t per_result = 1;
    for (int k = 0; k < nd; k++)
        per_result *= s->dims[k].reduced ? s->dims[k].size : 1;
    s->direct = s->copies && per_result <= DIRECT_MAX_ROWS && (!s->columns || s->tile == s->dims[nd - 1].size);
    for (int j = 0; j < s->nk && s->direct; j++)
        s->direct = s->kept[j].size == 1 || s->kept[j].out_stride == s->kept[j].acc_stride;
    s->results = takes_results(s) ? s->strip_results : NULL;
}

/* The whole view: leading kept dims are independent sub-problems; the innermost of them is
 * taken in blocks whose accumulators fit in L1, so short sub-problems share one pass. */
typedef struct {
    const Dim *dims;
    int peeled;          /* leading kept dims walked one index at a time */
    ptrdiff_t block;     /* indices of the next dim per sub-problem */
    Sub full, rest;      /* sub-problems of `block` indices and of the remainder */
    ptrdiff_t parts;     /* > 1: the outermost dim, reduced, is cut into this many row parts ... */
    ptrdiff_t part_bytes; /* ... each with accumulators of this many bytes (full: the shorter parts) */
} Walk;

static void run_peeled(const Walk *w, int k, const char *in, char *out)
{
    const Dim *d = &w->dims[k];
    if (k < w->peeled) {
        for (ptrdiff_t i = 0; i < d->size; i++)
            run_peeled(w, k + 1, in + i * d->in_stride, out + i * d->out_stride);
        return;
    }
    for (ptrdiff_t start = 0; start < d->size; start += w->block) {
        const Sub *s = d->size - start < w->block ? &w->rest : &w->full;
        run_sub(s, in + start * d->in_stride, out + start * d->out_stride);
    }
}

/* The walk's sub-problems: one per index of the peeled dims and block of the next one. */
static ptrdiff_t sub_count(const Walk *w)
{
    ptrdiff_t count = 1;
    for (int k = 0; k < w->peeled; k++)
        count *= w->dims[k].size;
    return count * ((w->dims[w->peeled].size + w->block - 1) / w->block);
}

/* The units the walk divides into, so that threads can share them and a unit computes the same
 * bits whichever thread runs it with whichever others: its sub-problems, else the tiles of the
 * only one (each with outputs of their own), else its row parts (see plan_parts). */
static ptrdiff_t unit_count(const Walk *w)
{
    ptrdiff_t subs = sub_count(w), tiles = tile_count(&w->full);
    return subs >= 2 ? subs : tiles >= 2 ? tiles : w->parts;
}

/* Row part p of w->parts: its rows' accumulators at acc, not stored */
static void run_part(const Walk *w, ptrdiff_t p, const char *in, char *acc)
{
    ptrdiff_t size = w->dims[0].size, start = size * p / w->parts, rows = size * (p + 1) / w->parts - start;
    const Sub *s = rows == w->full.dims[0].size ? &w->full : &w->rest;
    s->ops->init(acc, s->outputs);
    accumulate(s, 0, in + start * w->dims[0].in_stride, acc, untiled_width(s));
}

/* The row parts' accumulators (w->parts blocks from acc) combined in order, then stored */
static void store_parts(const Walk *w, char *out, char *acc)
{
    const Sub *s = &w->full;
    for (ptrdiff_t p = 1; p < w->parts; p++)
        s->ops->merge(acc, acc + p * w->part_bytes, s->outputs);
    store_kept(s, 0, out, acc, untiled_width(s));
}

/* Units [first, stop) of the walk: the sub-problems in run_peeled's order, tiles, or row parts
 * (into their blocks of acc: store_parts stores them once all are done) */
static void run_units(const Walk *w, const char *in, char *out, char *acc, ptrdiff_t first, ptrdiff_t stop)
{
    if (w->parts > 1) {
        for (ptrdiff_t p = first; p < stop; p++)
            run_part(w, p, in, acc + p * w->part_bytes);
        return;
    }
    if (sub_count(w) < 2) {
        run_tiles(&w->full, in, out, first, stop);
        return;
    }
    const Dim *d = &w->dims[w->peeled];
    ptrdiff_t blocks = (d->size + w->block - 1) / w->block;
    for (ptrdiff_t unit = first; unit < stop; unit++) {
        ptrdiff_t start = unit % blocks * w->block, rest = unit / blocks;
        const char *p = in + start * d->in_stride;
        char *o = out + start * d->out_stride;
        for (int k = w->peeled - 1; k >= 0; k--) {
            ptrdiff_t size = w->dims[k].size;
            p += rest % size * w->dims[k].in_stride;
            o += rest % size * w->dims[k].out_stride;
            rest /= size;
        }
        run_sub(d->size - start < w->block ? &w->rest : &w->full, p, o);
    }
}

/* The whole walk (row parts: all of them, then stored), or units [first, stop) of it when shared */
static void run_walk(const Walk *w, const char *in, char *out, char *acc, ptrdiff_t shares, ptrdiff_t first, ptrdiff_t stop)
{
    if (shares > 1) {
        run_units(w, in, out, acc, first, stop);
    } else if (w->parts > 1) {
        run_units(w, in, out, acc, 0, w->parts);
        store_parts(w, out, acc);
    } else {
        run_peeled(w, 0, in, out);
    }
}

/* How many parts threads may share a view of dims in: one per ROW_PART_BYTES of it, at most
 * MAX_ROW_PARTS and at most `size` (the indices of the dim cut) */
static ptrdiff_t parts_of(const Dim *dims, int nd, ptrdiff_t itemsize, ptrdiff_t size)
{
    ptrdiff_t bytes = itemsize;
    for (int k = 0; k < nd; k++)
        bytes *= dims[k].size;
    ptrdiff_t parts = bytes / ROW_PART_BYTES;
    return parts > MAX_ROW_PARTS ? MAX_ROW_PARTS : parts > size ? size : parts;
}

/* A large view of one sub-problem and one tile, its outermost dim reduced (the rows of a column
 * sum, the blog tensor over (0, 1), (0, 3) ...; one long row), has no units of its own for
 * threads to share: its rows are cut into parts_of it, each into accumulators of its own,
 * combined in order at the end. The parts depend on the view alone, so the bits are the same on
 * any number of threads; one thread pays only for the combining, of at most ROW_PART_ACC_MAX
 * bytes of accumulators per part (A/B, one thread: the blog tensor over (0, 1), 5 KiB each,
 * 0.97-1.3x; over (0, 2), 256 KiB each, 0.86-0.96x, left whole). */
static void plan_parts(Walk *w, const Dim *dims, int nd)
{
    ptrdiff_t parts = parts_of(dims, nd, w->full.itemsize, dims[0].size), part_bytes = w->full.outputs * w->full.ops->acc_size;
    if (parts < 2 || part_bytes > ROW_PART_ACC_MAX)
        return;
    w->parts = parts;
    w->part_bytes = part_bytes; /* the rows are cut, not the outputs */
    plan_sub(&w->full, dims, nd, dims[0].size / parts);
    plan_sub(&w->rest, dims, nd, dims[0].size / parts + 1);
    for (Sub *s = &w->full; s <= &w->rest; s++) /* accumulators of their own, stored by store_parts */
        s->direct = 0, s->results = NULL;
}

/* Plans the walk; returns the accumulator bytes it needs (set w->full.acc, w->rest.acc after). */
static ptrdiff_t plan_walk(Walk *w, const Dim *dims, int nd, int first_reduced)
{
    w->dims = dims;
    w->peeled = first_reduced > 0 ? first_reduced - 1 : 0;
    const Dim *sub = dims + w->peeled;
    int sub_nd = nd - w->peeled;
    ptrdiff_t acc_size = w->full.ops->acc_size;
    w->block = sub[0].size;
    if (first_reduced > 0) { /* sub[0] is the innermost leading kept dim: take as many as fit */
        plan_sub(&w->full, sub, sub_nd, 1);
        ptrdiff_t per_index = w->full.outputs * acc_size;
        int short_rows = !w->full.columns && sub[sub_nd - 1].size < ROWS_BLOCK_MAX_ROW;
        ptrdiff_t block_bytes = short_rows ? ROWS_BLOCK_BYTES : BLOCK_BYTES;
        w->block = per_index >= block_bytes ? 1 : block_bytes / per_index;
        w->block = w->block > sub[0].size ? sub[0].size : w->block;
        /* A large view in one block (the blog tensor over (1, 3), (1, 2, 3)): in parts_of it
         * instead, units for threads. Each index of a block has accumulators of its own and the
         * whole dim in one tile (a block holds at most block_bytes of them), so its bits do not
         * depend on the block's length: a kept dim reaches the loops as acc_step != 0, and those
         * combine one row at a time (row pairs compute each row alone; the loops that combine
         * several rows per pass, flush blocks or strips need acc_step == 0; one that did not would
         * have to keep this rule). */
        ptrdiff_t parts = parts_of(dims, nd, w->full.itemsize, sub[0].size);
        if (sub_count(w) == 1 && parts >= 2)
            w->block = (sub[0].size + parts - 1) / parts;
    }
    plan_sub(&w->full, sub, sub_nd, w->block);
    plan_sub(&w->rest, sub, sub_nd, sub[0].size % w->block ? sub[0].size % w->block : w->block);
    w->parts = 1;
    if (first_reduced == 0 && tile_count(&w->full) == 1)
        plan_parts(w, dims, nd);
    return w->full.outputs * acc_size * w->parts;
}

/* ---- the threads that share one call's units -------------------------------------------------- */

/* A call shared by threads takes its units in `shares` shares from one counter, the caller and
 * up to threads - 1 workers of a pool that lives as long as the process (at most MAX_WORKERS).
 * All in C, with the GIL released once: the shares no longer pass through Python (a worker
 * waking, taking the GIL, calling in, parsing the layout, one call per share, and the caller
 * waiting for the GIL at each share's end). Each unit computes the same bits on any thread; a
 * row part's accumulators lie in the caller's buffer, stored by the caller once every part is
 * done. The workers called are the ones idle the shortest (a stack), each woken on a condition
 * of its own: after a call on 64 threads, a pool of 63 all woken for each call (a broadcast) made
 * two-thread calls 1.3-1.4x slower than a pool of one, woken in turn 1.15-1.2x. A worker not yet started when the caller has taken the last share is called off, so the
 * caller waits only for shares being computed. A caller that finds the pool serving another
 * call takes every share itself, so no call waits for another's shares (only for the pool's lock,
 * held briefly, and while workers start, once per process). Without POSIX threads (MSVC),
 * every shared call runs on its caller alone. */
#if defined(_WIN32)
#define POOL_THREADS 0
typedef ptrdiff_t ShareCounter;
#define TAKE_SHARE(counter) ((counter)++)
#else
#define POOL_THREADS 1
#include <pthread.h>
#include <stdatomic.h>
typedef _Atomic ptrdiff_t ShareCounter;
#define TAKE_SHARE(counter) atomic_fetch_add(&(counter), 1)
#endif
#define MAX_WORKERS 255

typedef struct Worker Worker;

typedef struct {
    const Walk *walk;
    const char *in;
    char *out;
    char *parts_acc;       /* row parts: all their accumulators (the caller's); else NULL: each thread has its own */
    ptrdiff_t acc_bytes;   /* one thread's accumulators, where it has its own */
    ptrdiff_t units, shares;
    ShareCounter next;     /* the next share to take */
    int called;            /* workers called to it, in calls[] */
    Worker *calls[MAX_WORKERS];
} Job;

/* Shares of the job until none is left, with the accumulators at acc; how many it took */
static ptrdiff_t take_shares(Job *job, char *acc)
{
    Walk w = *job->walk; /* its own copy: the accumulators are this thread's */
    w.full.acc = w.rest.acc = acc;
    ptrdiff_t taken = 0;
    for (ptrdiff_t s; (s = TAKE_SHARE(job->next)) < job->shares; taken++)
        run_walk(&w, job->in, job->out, acc, job->shares, job->units * s / job->shares, job->units * (s + 1) / job->shares);
    return taken;
}

#if POOL_THREADS
struct Worker {
    pthread_cond_t wake; /* signalled when it is called to a job */
    Job *job;            /* the job it is called to, until it starts on it */
    Worker *next_idle;
};

static struct {
    pthread_mutex_t lock; /* guards the members below and the workers' */
    pthread_cond_t left;  /* a worker left its job: the job's caller waits for the last */
    Worker workers[MAX_WORKERS];
    int started, busy;    /* workers started; on a job now */
    int most;             /* no more are started (MAX_WORKERS, or as many as were when a start failed) */
    Worker *idle;         /* the idle workers, the latest first */
    int serving;          /* a caller owns the pool */
    long long shares_helped; /* shares the workers took, ever (for tests: that they take any) */
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER, .left = PTHREAD_COND_INITIALIZER, .most = MAX_WORKERS};

/* A worker helping with a job, with accumulators of its own (row parts: the caller's, a block per
 * part; none to be had: it takes no share); how many shares it took */
static ptrdiff_t help(Job *job)
{
    double small[SMALL_ACC / sizeof(double)]; /* aligned for any accumulator */
    char *acc = job->parts_acc ? job->parts_acc : job->acc_bytes <= SMALL_ACC ? (char *)small : malloc((size_t)job->acc_bytes);
    if (!acc)
        return 0;
    ptrdiff_t taken = take_shares(job, acc);
    if (acc != (char *)small && acc != job->parts_acc)
        free(acc);
    return taken;
}

static void *serve(void *worker)
{
    Worker *self = worker;
    pthread_mutex_lock(&pool.lock);
    for (;;) {
        while (!self->job)
            pthread_cond_wait(&self->wake, &pool.lock);
        Job *job = self->job;
        self->job = NULL; /* started: its caller waits for it */
        pool.busy++;
        pthread_mutex_unlock(&pool.lock);
        ptrdiff_t taken = help(job);
        pthread_mutex_lock(&pool.lock);
        pool.shares_helped += taken;
        self->next_idle = pool.idle;
        pool.idle = self;
        if (--pool.busy == 0)
            pthread_cond_signal(&pool.left);
    }
    return NULL;
}

#define WORKER_STACK_BYTES (1 << 20) /* the loops need a few KiB (a Walk, SMALL_ACC): not the default 8 MiB
                                        of address space each, which 150 workers under a ulimit used up */

/* Starts workers until there are `wanted`, at most MAX_WORKERS (under the pool's lock); how many
 * there are (fewer where no more threads are to be had: then never more, so a call does not
 * try again each time) */
static int start_workers(int wanted)
{
    pthread_attr_t attributes;
    wanted = wanted < pool.most ? wanted : pool.most;
    if (pool.started >= wanted || pthread_attr_init(&attributes) != 0)
        return pool.started;
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attributes, WORKER_STACK_BYTES);
    for (pthread_t thread; pool.started < wanted; pool.started++) {
        Worker *worker = &pool.workers[pool.started];
        if (pthread_cond_init(&worker->wake, NULL) != 0) {
            pool.most = pool.started;
            break;
        }
        worker->job = NULL;
        if (pthread_create(&thread, &attributes, serve, worker) != 0) {
            pthread_cond_destroy(&worker->wake);
            pool.most = pool.started;
            break;
        }
        worker->next_idle = pool.idle; /* idle from now: called before its thread runs, it finds the job set */
        pool.idle = worker;
    }
    pthread_attr_destroy(&attributes);
    return pool.started;
}

/* Calls up to `helpers` idle workers to the job, started as needed (under the pool's lock);
 * whether the pool took it (it serves another caller: not) */
static int post(Job *job, int helpers)
{
    if (pool.serving)
        return 0;
    start_workers(helpers);
    pool.serving = 1;
    for (job->called = 0; job->called < helpers && pool.idle; job->called++) {
        Worker *worker = pool.idle;
        pool.idle = worker->next_idle;
        worker->job = job;
        job->calls[job->called] = worker;
        pthread_cond_signal(&worker->wake);
    }
    return 1;
}

/* Once the caller has taken the last share (under the pool's lock): workers called but not yet
 * started go back to idle, and the caller waits for the others */
static void finish(Job *job)
{
    for (int k = 0; k < job->called; k++) {
        Worker *worker = job->calls[k];
        if (worker->job == job) {
            worker->job = NULL;
            worker->next_idle = pool.idle;
            pool.idle = worker;
        }
    }
    while (pool.busy > 0)
        pthread_cond_wait(&pool.left, &pool.lock);
    pool.serving = 0;
}

/* Around a fork: the forking thread holds the pool's lock, so no other thread holds it when the
 * child is copied; the child, which has none of its parent's workers, starts a pool of its own */
static void lock_pool_before_fork(void) { pthread_mutex_lock(&pool.lock); }
static void unlock_pool_after_fork(void) { pthread_mutex_unlock(&pool.lock); }
static void forget_pool_after_fork(void)
{
    pthread_cond_init(&pool.left, NULL);
    pool.started = pool.busy = pool.serving = 0;
    pool.most = MAX_WORKERS;
    pool.idle = NULL;
    pool.shares_helped = 0;
    pthread_mutex_unlock(&pool.lock);
}
#endif

/* The job's shares on up to `threads` threads, the caller's with the accumulators at acc (called
 * without the GIL); every share is done when it returns. How many threads it was offered to (1:
 * no worker could be started), or 0 where the pool served another caller, so the caller took
 * every share on a busy machine. */
static int run_shared(Job *job, char *acc, int threads)
{
#if POOL_THREADS
    pthread_mutex_lock(&pool.lock);
    int helpers = threads - 1 < job->shares - 1 ? threads - 1 : (int)(job->shares - 1);
    int posted = helpers > 0 && post(job, helpers);
    pthread_mutex_unlock(&pool.lock);
    take_shares(job, acc);
    if (!posted)
        return helpers > 0 ? 0 : 1;
    pthread_mutex_lock(&pool.lock);
    finish(job);
    pthread_mutex_unlock(&pool.lock);
    return 1 + job->called;
#else
    (void)threads;
    take_shares(job, acc);
    return 1;
#endif
}

/* ---- the Python entry point ----------------------------------------------------------------- */

/* The lowest and highest byte offsets a strided walk reaches from its start. */
static void extent(const Py_ssize_t *shape, const Py_ssize_t *strides, Py_ssize_t count, ptrdiff_t step,
                   ptrdiff_t *low, ptrdiff_t *high)
{
    *low = 0;
    *high = 0;
    for (Py_ssize_t k = 0; k < count; k++) {
        ptrdiff_t reach = (ptrdiff_t)(shape[k] - 1) * (ptrdiff_t)(strides ? strides[k] : step);
        if (reach < 0)
            *low += reach;
        else
            *high += reach;
    }
}

static int within(const Py_buffer *buffer, ptrdiff_t offset, const Dim *dims, int nd, int out, int itemsize)
{
    ptrdiff_t buffer_low, buffer_high, low = 0, high = 0;
    extent(buffer->shape, buffer->strides, buffer->ndim, buffer->itemsize, &buffer_low, &buffer_high);
    for (int k = 0; k < nd; k++) {
        ptrdiff_t reach = (dims[k].size - 1) * (out ? dims[k].out_stride : dims[k].in_stride);
        if (reach < 0)
            low += reach;
        else
            high += reach;
    }
    return buffer->itemsize == itemsize && offset + low >= buffer_low &&
           offset + high + itemsize <= buffer_high + buffer->itemsize;
}

/* A parsed view and its planned walk (walk.dims points to dims: a View is never copied) */
typedef struct {
    Dim dims[MAX_DIMS];
    int nd, in_size, out_size; /* dims; the input's and the output's element bytes */
    Walk walk;
} View;

/* Parses the op, types, layout and divisor (args[0..2], layout, divisor) into v and plans its
 * walk; returns the accumulator bytes it needs, or -1 with an error set. */
static ptrdiff_t prepare(PyObject *const *args, PyObject *layout, PyObject *divisor_arg, View *v)
{
    Dim *dims = v->dims;
    int *nd = &v->nd;
    Walk *w = &v->walk;
    int op = (int)PyLong_AsLong(args[0]), in_type = (int)PyLong_AsLong(args[1]), out_type = (int)PyLong_AsLong(args[2]);
    double divisor = PyFloat_AsDouble(divisor_arg);
    if (PyErr_Occurred())
        return -1;
    if (op < 0 || op >= N_OPS || in_type < 0 || in_type >= N_TYPES || out_type < 0 || out_type >= N_TYPES) {
        PyErr_SetString(PyExc_ValueError, "unknown op or type code");
        return -1;
    }
    if (!PyBytes_Check(layout) || PyBytes_GET_SIZE(layout) % (4 * sizeof(int64_t)) != 0) {
        PyErr_SetString(PyExc_TypeError, "layout must be bytes of int64 quadruples");
        return -1;
    }
    *nd = (int)(PyBytes_GET_SIZE(layout) / (4 * sizeof(int64_t)));
    if (*nd < 1 || *nd > MAX_DIMS) {
        PyErr_SetString(PyExc_ValueError, "layout must have 1 to 64 dims");
        return -1;
    }
    const int64_t *raw = (const int64_t *)PyBytes_AS_STRING(layout);
    int out_size = type_size[out_type], first_reduced = -1;
    v->in_size = type_size[in_type], v->out_size = out_size;
    for (int k = 0; k < *nd; k++) {
        dims[k] = (Dim){(ptrdiff_t)raw[4 * k], (ptrdiff_t)raw[4 * k + 1], (ptrdiff_t)raw[4 * k + 2] * out_size,
                        raw[4 * k + 3] != 0};
        if (dims[k].size < 1 || (dims[k].reduced && dims[k].out_stride != 0)) {
            PyErr_SetString(PyExc_ValueError, "layout dims must be non-empty, reduced ones with no output stride");
            return -1;
        }
        if (dims[k].reduced && first_reduced < 0)
            first_reduced = k;
    }
    if (first_reduced < 0) {
        PyErr_SetString(PyExc_ValueError, "layout must reduce a dim");
        return -1;
    }
    double per_result = 1.0;
    for (int k = 0; k < *nd; k++)
        per_result *= dims[k].reduced ? (double)dims[k].size : 1.0;
    const Ops *ops = find_ops(op, in_type, out_type, per_result);
    StoreFn store = find_store(ops, op, in_type, out_type, divisor != 0);
    if (!store || (divisor != 0 && ops->acc_kind != ACC_DOUBLE && store != store_i64_mean)) {
        PyErr_SetString(PyExc_ValueError, "this output type does not fit this op and input type");
        return -1;
    }
    int converts = store == store_mean || store == store_i64_mean; /* float64 means, int32 means */
    int copies = store == store_copy8 || store == store_copy4 || store == store_copy2 || store == store_copy1 ||
                 converts;
    w->full = (Sub){.ops = ops, .store = store, .divisor = divisor, .itemsize = type_size[in_type], .copies = copies,
                    .converts = converts, .strip_results = find_results(op, in_type, out_type, divisor != 0)};
    w->rest = w->full;
    return plan_walk(w, dims, *nd, first_reduced);
}

/* prepare() for an entry point of `count` args (`usage`), the layout and divisor at `layout_at` */
static ptrdiff_t walk_of(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t count, const char *usage, int layout_at, View *v)
{
    if (nargs != count) {
        PyErr_SetString(PyExc_TypeError, usage);
        return -1;
    }
    return prepare(args, args[layout_at], args[layout_at + 1], v);
}

static PyObject *reduce(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 9 && nargs != 11) {
        PyErr_SetString(PyExc_TypeError,
                        "reduce(op, in_type, out_type, source, in_offset, target, out_offset, layout, divisor[, shares, threads])");
        return NULL;
    }
    Py_ssize_t in_offset = PyLong_AsSsize_t(args[4]), out_offset = PyLong_AsSsize_t(args[6]);
    Py_ssize_t shares = nargs == 11 ? PyLong_AsSsize_t(args[9]) : 1, threads = nargs == 11 ? PyLong_AsSsize_t(args[10]) : 1;
    if (PyErr_Occurred())
        return NULL;
    if (shares < 1 || threads < 1) {
        PyErr_SetString(PyExc_ValueError, "shares and threads must be at least 1");
        return NULL;
    }
    View view;
    Walk *walk = &view.walk;
    ptrdiff_t acc_bytes = prepare(args, args[7], args[8], &view);
    if (acc_bytes < 0)
        return NULL;
    int out_size = view.out_size;
    Py_buffer source, target;
    PyObject *result = NULL;
    if (PyObject_GetBuffer(args[3], &source, PyBUF_STRIDES | PyBUF_FORMAT) < 0)
        return NULL;
    if (PyObject_GetBuffer(args[5], &target, PyBUF_STRIDES | PyBUF_FORMAT | PyBUF_WRITABLE) < 0)
        goto no_target;
    if (!within(&source, in_offset, view.dims, view.nd, 0, view.in_size) ||
        !within(&target, out_offset * out_size, view.dims, view.nd, 1, out_size)) {
        PyErr_SetString(PyExc_ValueError, "layout reaches outside the source or target buffer");
        goto done;
    }
    double small[SMALL_ACC / sizeof(double)]; /* aligned for any accumulator */
    char *acc = acc_bytes <= SMALL_ACC ? (char *)small : malloc((size_t)acc_bytes);
    if (!acc) {
        PyErr_NoMemory();
        goto done;
    }
    walk->full.acc = walk->rest.acc = acc;
    const char *in = (const char *)source.buf + in_offset;
    char *out = (char *)target.buf + out_offset * out_size;
    ptrdiff_t units = unit_count(walk);
    shares = shares < units ? shares : units;
    int offered = 1; /* threads the call was offered to; 0: the pool served another call */
    if (source.len < GIL_FREE_BYTES) { /* releasing the GIL costs more than such a call */
        run_walk(walk, in, out, acc, 1, 0, 0);
    } else if (shares < 2) {
        Py_BEGIN_ALLOW_THREADS
        run_walk(walk, in, out, acc, 1, 0, 0);
        Py_END_ALLOW_THREADS
    } else {
        int row_parts = walk->parts > 1;
        Job job = {.walk = walk, .in = in, .out = out, .parts_acc = row_parts ? acc : NULL,
                   .acc_bytes = acc_bytes, .units = units, .shares = shares};
        Py_BEGIN_ALLOW_THREADS
        offered = run_shared(&job, acc, threads > INT_MAX ? INT_MAX : (int)threads);
        if (row_parts)
            store_parts(walk, out, acc);
        Py_END_ALLOW_THREADS
    }
    if (acc != (char *)small)
        free(acc);
    result = PyLong_FromLong(offered);
done:
    PyBuffer_Release(&target);
no_target:
    PyBuffer_Release(&source);
    return result;
}

static PyObject *units(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    View view;
    ptrdiff_t acc_bytes = walk_of(args, nargs, 5, "units(op, in_type, out_type, layout, divisor)", 3, &view);
    if (acc_bytes < 0)
        return NULL;
    return Py_BuildValue("nn", unit_count(&view.walk), view.walk.parts);
}

static PyObject *workers(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 1) {
        PyErr_SetString(PyExc_TypeError, "workers(wanted)");
        return NULL;
    }
    long wanted = PyLong_AsLong(args[0]);
    if (wanted == -1 && PyErr_Occurred())
        return NULL;
#if POOL_THREADS
    pthread_mutex_lock(&pool.lock);
    int started = start_workers(wanted > MAX_WORKERS ? MAX_WORKERS : (int)wanted);
    long long helped = pool.shares_helped;
    pthread_mutex_unlock(&pool.lock);
    return Py_BuildValue("iL", started, helped);
#else
    return Py_BuildValue("iL", 0, 0LL);
#endif
}

/* error_function(complement, source, target): libm's erf (or erfc) of each element of the
 * contiguous float32 or float64 buffer `source` into `target` (same format and length), float32
 * through double (rounded once, as math.erf's result would be). Not a
 * reduction: numpy has no erf, and math.erf called element by element costs about 90 ns each,
 * which made an exact GELU of a [64, 128, 3072] activation take seconds. */
static PyObject *error_function(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "error_function(complement, source, target)");
        return NULL;
    }
    int complement = PyObject_IsTrue(args[0]);
    if (complement < 0)
        return NULL;
    Py_buffer source, target;
    if (PyObject_GetBuffer(args[1], &source, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return NULL;
    if (PyObject_GetBuffer(args[2], &target, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(&source);
        return NULL;
    }
    PyObject *result = NULL;
    int wide = source.format && strcmp(source.format, "d") == 0;
    if (!(wide || (source.format && strcmp(source.format, "f") == 0)) || !target.format ||
        strcmp(source.format, target.format) != 0 || source.len != target.len) {
        PyErr_SetString(PyExc_ValueError, "source and target must be float32 or float64 buffers of one format and length");
        goto done;
    }
    Py_ssize_t count = source.len / source.itemsize;
    Py_BEGIN_ALLOW_THREADS
    if (wide) {
        const double *in = source.buf;
        double *out = target.buf;
        for (Py_ssize_t i = 0; i < count; i++)
            out[i] = complement ? erfc(in[i]) : erf(in[i]);
    } else {
        const float *in = source.buf;
        float *out = target.buf;
        for (Py_ssize_t i = 0; i < count; i++)
            out[i] = (float)(complement ? erfc(in[i]) : erf(in[i])); /* erfcf errs by 2 ulp */
    }
    Py_END_ALLOW_THREADS
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&target);
    PyBuffer_Release(&source);
    return result;
}

static PyMethodDef methods[] = {
    {"reduce", (PyCFunction)(void (*)(void))reduce, METH_FASTCALL,
     "reduce(op, in_type, out_type, source, in_offset, target, out_offset, layout, divisor[, shares, threads])\n"
     "Reduce the folded view `layout` (int64 quadruples: size, input byte stride, output element\n"
     "stride, reduced) of `source` starting `in_offset` bytes in, into `target` starting\n"
     "`out_offset` elements in. A mean divides by `divisor` (0: raw sums). With `shares` and\n"
     "`threads`, the walk's units (see `units`) go in that many shares, taken by the caller and\n"
     "up to threads - 1 workers of the module's own: the same bits on any count. Releases the GIL.\n"
     "Returns how many threads the call was offered to, or 0 where the workers served another call\n"
     "(the caller then took every share)."},
    {"units", (PyCFunction)(void (*)(void))units, METH_FASTCALL,
     "units(op, in_type, out_type, layout, divisor)\n"
     "(units, row_parts): how many units the walk of this view divides into, each giving the same\n"
     "bits whichever thread computes it (`reduce`'s shares divide them), and how many of its\n"
     "row parts (1: none, the units are sub-problems or tiles)."},
    {"workers", (PyCFunction)(void (*)(void))workers, METH_FASTCALL,
     "workers(wanted)\n"
     "Starts threads of the module's own to share calls with until there are `wanted` (0: none\n"
     "started); (how many there are, how many shares they have taken in all)."},
    {"error_function", (PyCFunction)(void (*)(void))error_function, METH_FASTCALL,
     "error_function(complement, source, target)\n"
     "libm's erf (erfc if `complement`) of the contiguous float32 or float64 buffer `source` into\n"
     "`target`, of the same format and length. Releases the GIL."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "typedtensor._reducer._ckernels",
    .m_doc = "Compiled reduction loops over folded views.",
    .m_size = 0,
    .m_methods = methods,
};

PyMODINIT_FUNC PyInit__ckernels(void)
{
    choose_vector_loops();
#if POOL_THREADS
    static int registered;
    if (!registered && pthread_atfork(lock_pool_before_fork, unlock_pool_after_fork, forget_pool_after_fork) != 0)
        return PyErr_NoMemory(); /* a child would wait for workers it does not have */
    registered = 1;
#endif
    PyObject *created = PyModule_Create(&module);
    if (created && (PyModule_AddIntConstant(created, "FLUSH_ROWS", FLUSH_ROWS) < 0 ||
                    PyModule_AddIntConstant(created, "ACC_BYTES", ACC_BYTES) < 0 ||
                    PyModule_AddIntConstant(created, "MIN_TILE", MIN_TILE) < 0 ||
                    PyModule_AddIntConstant(created, "V3_LOOPS", use_v3) < 0))
        Py_CLEAR(created);
    return created;
}
