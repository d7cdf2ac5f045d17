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
 *            of them if they fit in L2, else a tile that fits in L1), which are converted and
 *            written once when their reduced dims are done. Short dense rows are regrouped into
 *            wider lanes first.
 *
 * Dims outside the innermost two are walked recursively; leading kept dims split the work into
 * independent sub-problems. Accumulators: float sums, means and products of float16/float32 in
 * double; integer sums and products in 64 bits, wrapping like numpy (unsigned arithmetic, so no
 * undefined behaviour); max/min propagate NaN; any/all test for nonzero (NaN counts). The GIL is
 * released while the loops run. Nothing here allocates Python objects or keeps state.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DIMS 64
#define ROW_BLOCK 256          /* elements per pairwise leaf of a float sum: chains of 16 adds */
#define SHORT_ROW 256          /* shorter rows are reduced in 8 lanes (chains of at most 32) */
#define ACC_BYTES (1 << 18)    /* accumulators of one pass over the input: stay in L2 */
#define TILE_BYTES (1 << 15)   /* else the innermost kept dim is tiled: accumulators stay in L1 */
#define BLOCK_BYTES (1 << 11)  /* accumulators of a block of short sub-problems (32 KiB, all of L1:
                                  the input streaming past evicted them; [8192, 5, 128] 13 -> 21 GB/s) */
#define MIN_TILE 64            /* narrower tiles read too little per row to stream */
#define UNROLL_MIN_BYTES (1 << 13) /* wider accumulator rows leave L1: combine four rows per pass */
#define SMALL_ACC 4096         /* accumulators this small live on the stack */
#define GIL_FREE_BYTES (1 << 16) /* smaller inputs keep the GIL: releasing it costs more */
#define GROUP_LANES 64         /* short dense rows are regrouped into this many lanes */
#define PREFETCH_BYTES 4096    /* columns: read this far ahead ... */
#define PREFETCH_ROW_MAX 1024  /* ... in rows this short (rows of 640 floats: 21-23 GB/s with, 25-30 without) */

/* Wider SIMD only by runtime dispatch: GCC on x86-64 Linux compiles the hot loops twice, at the
 * baseline and for AVX2, and the loader picks one for the CPU it runs on (an ifunc). The lanes
 * are written out in the source and nothing is reassociated or contracted, so both give the
 * same bits. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#define DISPATCH __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define DISPATCH
#endif

/* GCC 9+ and clang: the hot loops' lanes written with vector types (below) */
#if defined(__clang__) || (defined(__GNUC__) && __GNUC__ >= 9)
#define VECTOR_LANES 1
#endif

#if defined(__GNUC__)
#define INLINE static inline __attribute__((always_inline))
#define RESTRICT __restrict__
#elif defined(_MSC_VER)
#define INLINE static __forceinline
#define RESTRICT __restrict
#else
#define INLINE static inline
#define RESTRICT
#endif

enum { OP_SUM, OP_PROD, OP_MAX, OP_MIN, OP_ANY, OP_ALL, OP_MEAN, N_OPS };
enum { T_BOOL, T_I8, T_U8, T_I16, T_U16, T_I32, T_U32, T_I64, T_U64, T_F16, T_F32, T_F64, N_TYPES };
static const int type_size[N_TYPES] = {1, 1, 1, 2, 2, 4, 4, 8, 8, 2, 4, 8};

/* ---- float16 <-> float ------------------------------------------------------------------- */

INLINE float half_to_float(uint16_t h)
{
    /* The exponent and mantissa shifted into a float, rescaled by 2^112: exact for normals,
     * subnormals and zero; infinities and NaNs then get an all-ones exponent. */
    uint32_t magnitude = h & 0x7fffu, bits = magnitude << 13;
    float value;
    memcpy(&value, &bits, sizeof value);
    value *= 5.192296858534828e+33f; /* 2^112 */
    memcpy(&bits, &value, sizeof bits);
    bits |= (magnitude >= 0x7c00u ? 0x7f800000u : 0u) | (uint32_t)(h & 0x8000u) << 16;
    memcpy(&value, &bits, sizeof value);
    return value;
}

#ifndef VECTOR_LANES /* else doubles_to_halves, 4 at a time */
static uint16_t double_to_half(double d)
{
    /* Round to nearest, ties to even, as numpy's float16 conversions do. */
    uint64_t bits;
    memcpy(&bits, &d, sizeof bits);
    uint16_t sign = (uint16_t)((bits >> 48) & 0x8000u);
    uint64_t magnitude = bits & 0x7fffffffffffffffULL;
    if (magnitude > 0x7ff0000000000000ULL) /* NaN: quiet, keeping the top payload bits */
        return (uint16_t)(sign | 0x7e00u | ((magnitude >> 42) & 0x1ffu));
    int biased = (int)(magnitude >> 52);
    int exponent = (biased ? biased : 1) - 1023;
    if (exponent >= 16)
        return (uint16_t)(sign | 0x7c00u);
    uint64_t significand = (magnitude & 0xfffffffffffffULL) | (biased ? 1ULL << 52 : 0);
    int shift = exponent >= -14 ? 42 : 42 + (-14 - exponent); /* to 11 bits, fewer if subnormal */
    if (shift > 63)
        return sign;
    uint64_t kept = significand >> shift, rest = significand & ((1ULL << shift) - 1), half = 1ULL << (shift - 1);
    kept += rest > half || (rest == half && (kept & 1));
    if (exponent < -14)
        return (uint16_t)(sign | kept); /* a carry to 1024 is the smallest normal: right */
    uint32_t result = ((uint32_t)(exponent + 15) << 10) + (uint32_t)(kept - 1024);
    return (uint16_t)(sign | (result >= 0x7c00u ? 0x7c00u : result));
}
#endif

/* ---- loads: an input element as its accumulator type --------------------------------------- */

#define LOAD_AS(TYPE, p) (*(const TYPE *)(p))
#define LOAD_SIGNED(TYPE, p) ((uint64_t)(int64_t)LOAD_AS(TYPE, p))
#define LOAD_UNSIGNED(TYPE, p) ((uint64_t)LOAD_AS(TYPE, p))
#define LOAD_BOOL_U64(p) ((uint64_t)(LOAD_AS(uint8_t, p) != 0))
#define LOAD_BOOL(p) ((uint8_t)(LOAD_AS(uint8_t, p) != 0))
#define LOAD_HALF(p) half_to_float(LOAD_AS(uint16_t, p))
#define LOAD_DOUBLE(TYPE, p) ((double)LOAD_AS(TYPE, p))
#define LOAD_HALF_DOUBLE(p) ((double)LOAD_HALF(p))
#define NONZERO(TYPE, p) ((uint8_t)(LOAD_AS(TYPE, p) != 0))
#define NONZERO_HALF(p) ((uint8_t)((LOAD_AS(uint16_t, p) & 0x7fffu) != 0))

/* ---- combining two values ------------------------------------------------------------------ */

#define ADD(a, b) ((a) + (b))
#define MUL(a, b) ((a) * (b))
#define OR(a, b) ((uint8_t)((a) | (b)))
#define AND(a, b) ((uint8_t)((a) & (b)))
/* The later value wins only if larger (or NaN): NaN sticks, ties keep the first, as TOSA. */
#define MAX_NAN(a, b) (((b) > (a) || (b) != (b)) ? (b) : (a))
#define MIN_NAN(a, b) (((b) < (a) || (b) != (b)) ? (b) : (a))
#define MAX_INT(a, b) ((b) > (a) ? (b) : (a))
#define MIN_INT(a, b) ((b) < (a) ? (b) : (a))
/* Plain max/min (a NaN b keeps a): SSE's maxps/minps, so lanes vectorise; NaN is masked apart. */
#define MAX_PLAIN(a, b) ((b) > (a) ? (b) : (a))
#define MIN_PLAIN(a, b) ((b) < (a) ? (b) : (a))

/* ---- vector lanes: the main loop of float rows, with GCC/clang vector extensions ------------- */

/* SLP vectorisation of the lanes below is fragile (float max/min over rows of 128 stayed scalar:
 * 6 GB/s); written with vector types they run at the memory's speed. Other compilers use the
 * scalar lanes, which compute the same thing. Each function fills lane[0..L) and nan[0..L) for
 * the full blocks of L elements of a contiguous row and returns how many elements it took. */
#ifdef VECTOR_LANES
#if !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi" /* 32-byte vectors only pass between inlined functions */
#endif
typedef double vdouble __attribute__((vector_size(32)));
typedef int64_t vlong __attribute__((vector_size(32)));
typedef float vfloat __attribute__((vector_size(32)));
typedef float vfloat4 __attribute__((vector_size(16)));
typedef int32_t vint __attribute__((vector_size(32)));

INLINE vdouble load_vdouble(const char *p) { vdouble v; memcpy(&v, p, sizeof v); return v; }
/* Widening loads build the vector from converted scalars: GCC 12 compiles that to one widening
 * instruction (vcvtps2pd, vpmovsxdq) at each target, but __builtin_convertvector to two halves. */
INLINE vdouble load_vfloat_as_double(const char *p) { float f[4]; memcpy(f, p, sizeof f); return (vdouble){f[0], f[1], f[2], f[3]}; }
INLINE vfloat load_vfloat(const char *p) { vfloat v; memcpy(&v, p, sizeof v); return v; }
typedef uint32_t vuint __attribute__((vector_size(32)));
/* half_to_float on 8 or 4 lanes at once */
#define HALVES_TO_FLOATS(VU, VF, h)                                                                   \
    ({                                                                                                \
        VU wide_ = h, magnitude_ = wide_ & 0x7fffu;                                                   \
        VF scaled_ = (VF)(magnitude_ << 13) * 5.192296858534828e+33f;                                 \
        (VF)((VU)scaled_ | ((VU)(magnitude_ >= 0x7c00u) & 0x7f800000u) | (wide_ & 0x8000u) << 16);   \
    })
INLINE vfloat load_vhalf_as_float(const char *p)
{
    uint16_t h[8];
    memcpy(h, p, sizeof h);
    return HALVES_TO_FLOATS(vuint, vfloat, ((vuint){h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]}));
}
#define VADD(a, x) ((a) + (x))
#define VMUL(a, x) ((a) * (x))
#define VSELECT(VM, VA, m, x, a) ((VA)(((VM)(x) & (m)) | ((VM)(a) & ~(m))))

/* NAME, vector type VA of VW accumulators, its mask type VM, the accumulator and mask scalar
 * types A and MASK, the input item size, LOADV(p) -> VA, the identity, the vector op as
 * COMBINE(acc, x, mask type, vector type), and whether NaN is masked. */
#define DEFINE_VECTOR_LANES(NAME, VA, VM, VW, A, MASK, ISZ, LOADV, IDENTITY, COMBINE, NAN_MASK)         \
    INLINE ptrdiff_t NAME##_vmain(const char *p, ptrdiff_t n, const int L, void *lanes, void *nans)   \
    {                                                                                                 \
        VA acc[4];                                                                                    \
        VM nan[4];                                                                                    \
        for (int v = 0; v < L / (VW); v++) {                                                          \
            acc[v] = (VA){0} + (A)(IDENTITY);                                                         \
            nan[v] = (VM){0};                                                                         \
        }                                                                                             \
        ptrdiff_t i = 0;                                                                              \
        for (; i + L <= n; i += L)                                                                    \
            for (int v = 0; v < L / (VW); v++) {                                                      \
                VA x = LOADV(p + (i + v * (VW)) * (ISZ));                                             \
                acc[v] = COMBINE(acc[v], x, VM, VA);                                                  \
                if (NAN_MASK)                                                                         \
                    nan[v] |= (VM)(x != x);                                                           \
            }                                                                                         \
        A *lane = (A *)lanes;                                                                         \
        MASK *flag = (MASK *)nans;                                                                    \
        for (int j = 0; j < L; j++) {                                                                 \
            lane[j] = acc[j / (VW)][j % (VW)];                                                        \
            flag[j] = (MASK)(nan[j / (VW)][j % (VW)] != 0);                                           \
        }                                                                                             \
        return i;                                                                                     \
    }
#define COMBINE_ADD(a, x, VM, VA) ((a) + (x))
#define COMBINE_MUL(a, x, VM, VA) ((a) * (x))
#define COMBINE_MAX(a, x, VM, VA) VSELECT(VM, VA, (VM)((x) > (a)), x, a)
#define COMBINE_MIN(a, x, VM, VA) VSELECT(VM, VA, (VM)((x) < (a)), x, a)
DEFINE_VECTOR_LANES(vsum_f32, vdouble, vlong, 4, double, uint8_t, 4, load_vfloat_as_double, 0.0, COMBINE_ADD, 0)
DEFINE_VECTOR_LANES(vsum_f64, vdouble, vlong, 4, double, uint8_t, 8, load_vdouble, 0.0, COMBINE_ADD, 0)
DEFINE_VECTOR_LANES(vprod_f32, vdouble, vlong, 4, double, uint8_t, 4, load_vfloat_as_double, 1.0, COMBINE_MUL, 0)
DEFINE_VECTOR_LANES(vprod_f64, vdouble, vlong, 4, double, uint8_t, 8, load_vdouble, 1.0, COMBINE_MUL, 0)
/* float16 sums and products: the lanes of DEFINE_VECTOR_LANES in double, but 8 halves widened at
 * once (the integer work of widening them is most of the loop's cost: 4.6 GB/s 4 at a time). */
#define DEFINE_HALF_LANES(NAME, IDENTITY, COMBINE)                                                    \
    INLINE ptrdiff_t NAME##_vmain(const char *p, ptrdiff_t n, const int L, void *lanes, void *nans)   \
    {                                                                                                 \
        vdouble acc[4];                                                                               \
        for (int v = 0; v < L / 4; v++)                                                               \
            acc[v] = (vdouble){0} + (IDENTITY);                                                       \
        ptrdiff_t i = 0;                                                                              \
        for (; i + L <= n; i += L)                                                                    \
            for (int v = 0; v < L / 8; v++) {                                                         \
                vfloat x = load_vhalf_as_float(p + (i + v * 8) * 2);                                  \
                acc[2 * v] = COMBINE(acc[2 * v], ((vdouble){x[0], x[1], x[2], x[3]}), vlong, vdouble); \
                acc[2 * v + 1] = COMBINE(acc[2 * v + 1], ((vdouble){x[4], x[5], x[6], x[7]}), vlong, vdouble); \
            }                                                                                         \
        for (int j = 0; j < L; j++) {                                                                 \
            ((double *)lanes)[j] = acc[j / 4][j % 4];                                                 \
            ((uint8_t *)nans)[j] = 0;                                                                 \
        }                                                                                             \
        return i;                                                                                     \
    }
DEFINE_HALF_LANES(vsum_f16, 0.0, COMBINE_ADD)
DEFINE_HALF_LANES(vprod_f16, 1.0, COMBINE_MUL)
DEFINE_VECTOR_LANES(vmax_f16, vfloat, vint, 8, float, int32_t, 2, load_vhalf_as_float, -INFINITY, COMBINE_MAX, 1)
DEFINE_VECTOR_LANES(vmin_f16, vfloat, vint, 8, float, int32_t, 2, load_vhalf_as_float, INFINITY, COMBINE_MIN, 1)
DEFINE_VECTOR_LANES(vmax_f32, vfloat, vint, 8, float, int32_t, 4, load_vfloat, -INFINITY, COMBINE_MAX, 1)
DEFINE_VECTOR_LANES(vmin_f32, vfloat, vint, 8, float, int32_t, 4, load_vfloat, INFINITY, COMBINE_MIN, 1)
DEFINE_VECTOR_LANES(vmax_f64, vdouble, vlong, 4, double, int64_t, 8, load_vdouble, -INFINITY, COMBINE_MAX, 1)
DEFINE_VECTOR_LANES(vmin_f64, vdouble, vlong, 4, double, int64_t, 8, load_vdouble, INFINITY, COMBINE_MIN, 1)

INLINE vlong load_vint_as_long(const char *p) { int32_t v[4]; memcpy(v, p, sizeof v); return (vlong){v[0], v[1], v[2], v[3]}; }
INLINE vlong load_vuint_as_long(const char *p) { uint32_t v[4]; memcpy(v, p, sizeof v); return (vlong){v[0], v[1], v[2], v[3]}; }
INLINE vlong load_vlong(const char *p) { vlong v; memcpy(&v, p, sizeof v); return v; }
DEFINE_VECTOR_LANES(vsum_i32, vlong, vlong, 4, int64_t, uint8_t, 4, load_vint_as_long, 0, COMBINE_ADD, 0)
DEFINE_VECTOR_LANES(vsum_u32, vlong, vlong, 4, int64_t, uint8_t, 4, load_vuint_as_long, 0, COMBINE_ADD, 0)
DEFINE_VECTOR_LANES(vsum_i64, vlong, vlong, 4, int64_t, uint8_t, 8, load_vlong, 0, COMBINE_ADD, 0)

/* double -> float16 on 4 lanes, rounding to nearest even like double_to_half, without branches
 * (the scalar one costs more than the whole reduction where there are many outputs: the blog
 * tensor over axis 2 has a million). Normal halves: the magnitude rounded to 10 fraction bits,
 * rebiased, capped at infinity; subnormal ones: |d| in units of 2^-24 rounded by adding 2^52. */
INLINE vlong doubles_to_halves(vdouble d)
{
    vlong bits = (vlong)d, magnitude = bits & 0x7fffffffffffffffLL, sign = (bits >> 48) & 0x8000;
    vlong normal = ((magnitude + 0x1ffffffffffLL + ((magnitude >> 42) & 1)) >> 42) - ((1023 - 15) << 10);
    vlong overflow = normal > 0x7c00;
    normal = (normal & ~overflow) | (0x7c00 & overflow);
    vdouble shifted = (vdouble)magnitude * 16777216.0 + 4503599627370496.0; /* casts reinterpret: |d| */
    vlong subnormal = (vlong)shifted - 0x4330000000000000LL;
    vlong nan = 0x7e00 | ((magnitude >> 42) & 0x1ff), is_nan = magnitude > 0x7ff0000000000000LL;
    vlong is_normal = magnitude >= 0x3f10000000000000LL; /* 2^-14, the smallest normal half */
    vlong result = (nan & is_nan) | (~is_nan & ((normal & is_normal) | (subnormal & ~is_normal)));
    return result | sign;
}
/* A store of halves from accumulators of type A, VALUE(a, i, divisor) giving element i in double. */
#define DEFINE_HALF_STORE(NAME, A, VALUE)                                                             \
    DISPATCH static void NAME(char *out, ptrdiff_t out_stride, const char *acc, ptrdiff_t n, double divisor) \
    {                                                                                                 \
        const A *a = (const A *)acc;                                                                  \
        (void)divisor;                                                                                \
        for (ptrdiff_t start = 0; start < n; start += 4) {                                            \
            double value[4] = {0.0, 0.0, 0.0, 0.0};                                                   \
            int count = n - start < 4 ? (int)(n - start) : 4;                                         \
            for (int k = 0; k < count; k++)                                                           \
                value[k] = VALUE(a, start + k, divisor);                                              \
            vlong halves = doubles_to_halves((vdouble){value[0], value[1], value[2], value[3]});      \
            for (int k = 0; k < count; k++)                                                           \
                *(uint16_t *)(out + (start + k) * out_stride) = (uint16_t)halves[k];                  \
        }                                                                                             \
    }
#define VMAIN(NAME) NAME##_vmain
#else
#define VMAIN(NAME) scalar_vmain
#define DEFINE_HALF_STORE(NAME, A, VALUE) DEFINE_STORE(NAME, A, uint16_t, double_to_half(VALUE(a, i, divisor)))
#endif

/* No vector lanes: the scalar main loop takes every block. */
INLINE ptrdiff_t scalar_vmain(const char *p, ptrdiff_t n, const int L, void *lanes, void *nans)
{
    (void)p, (void)n, (void)L, (void)lanes, (void)nans;
    return 0;
}

/* Column loops store an accumulator for each vector they load, which keeps the core from running
 * far enough ahead to hide the memory's latency where rows are short and the hardware prefetcher
 * restarts at each (the blog tensor's [8192, 5, 128] over axis 1: 10 GB/s, 14 with this; its
 * [32, 256, 5, 128] over (0, 2): 14, 24). So each row first asks for the lines of the row about
 * PREFETCH_BYTES further on. */
#if defined(__GNUC__) || defined(__clang__)
INLINE void prefetch_span(const char *p, ptrdiff_t offset, ptrdiff_t bytes)
{
    /* in integers: the lines may lie past the buffer (the last rows), where a prefetch does nothing */
    uintptr_t start = (uintptr_t)p + (uintptr_t)offset;
    for (uintptr_t line = start & ~(uintptr_t)63; line < start + (uintptr_t)bytes; line += 64)
        __builtin_prefetch((const void *)line);
}
#else
INLINE void prefetch_span(const char *p, ptrdiff_t offset, ptrdiff_t bytes) { (void)p, (void)offset, (void)bytes; }
#endif

typedef void (*InitFn)(char *acc, ptrdiff_t n);
/* acc[r * acc_step] op= reduce(row r), rows of n elements n_stride apart, row_stride apart */
typedef void (*RowsFn)(char *acc, ptrdiff_t acc_step, const char *p, ptrdiff_t count, ptrdiff_t row_stride,
                       ptrdiff_t n, ptrdiff_t n_stride);
/* acc[r * acc_step + j] op= x[r][j] for j < m */
typedef void (*ColsFn)(char *acc, ptrdiff_t acc_step, const char *p, ptrdiff_t count, ptrdiff_t row_stride,
                       ptrdiff_t m, ptrdiff_t m_stride);
typedef void (*MergeFn)(char *acc, const char *other, ptrdiff_t n);

enum { ACC_U64, ACC_DOUBLE, ACC_FLOAT, ACC_NATIVE, ACC_FLAG };

typedef struct {
    int acc_size, acc_kind;
    InitFn init;
    RowsFn rows;
    ColsFn cols;
    MergeFn merge;
} Ops;

/* One kernel family: NAME, input size ISZ, accumulator A, LOAD(p) -> A, the identity, OP(a, b)
 * (NaN-sticky for float max/min), whether rows add pairwise (float sums), the number of lanes a
 * row is reduced in, and for float max/min LANE_OP (plain, so it vectorises) with a NaN mask of
 * integer type MASK (same width as A) that makes the row's result NaN. */
#define DEFINE_KERNEL_FULL(NAME, ISZ, A, LOAD, IDENTITY, OP, PAIRWISE, NLANES, LANE_OP, NAN_MASK, MASK, VMAIN_FN) \
    static void NAME##_init(char *acc, ptrdiff_t n)                                                   \
    {                                                                                                 \
        A *a = (A *)acc;                                                                              \
        for (ptrdiff_t i = 0; i < n; i++)                                                             \
            a[i] = IDENTITY;                                                                          \
    }                                                                                                 \
    INLINE A NAME##_lanes(const char *p, ptrdiff_t n, ptrdiff_t s, const int L)                       \
    {                                                                                                 \
        A lane[NLANES];                                                                               \
        MASK nan[NLANES];                                                                             \
        for (int j = 0; j < L; j++) {                                                                 \
            lane[j] = IDENTITY;                                                                       \
            nan[j] = 0;                                                                               \
        }                                                                                             \
        ptrdiff_t i = s == (ISZ) ? VMAIN_FN(p, n, L, lane, nan) : 0; /* full blocks, if vectorised */ \
        for (; i + L <= n; i += L)                                                                    \
            for (int j = 0; j < L; j++) {                                                             \
                A x = LOAD(p + (i + j) * s);                                                          \
                lane[j] = LANE_OP(lane[j], x);                                                        \
                if (NAN_MASK)                                                                         \
                    nan[j] |= (MASK)(x != x);                                                         \
            }                                                                                         \
        for (int j = 0; i < n; i++, j++) {                                                            \
            A x = LOAD(p + i * s);                                                                    \
            lane[j] = LANE_OP(lane[j], x);                                                            \
            if (NAN_MASK)                                                                             \
                nan[j] |= (MASK)(x != x);                                                             \
        }                                                                                             \
        for (int width = L / 2; width > 0; width /= 2) /* lanes hold no NaN: the mask does */         \
            for (int j = 0; j < width; j++)                                                           \
                lane[j] = LANE_OP(lane[j], lane[j + width]);                                          \
        if (NAN_MASK) {                                                                               \
            MASK any = 0;                                                                             \
            for (int j = 0; j < L; j++)                                                               \
                any |= nan[j];                                                                        \
            if (any)                                                                                  \
                return (A)NAN;                                                                        \
        }                                                                                             \
        return lane[0];                                                                               \
    }                                                                                                 \
    INLINE A NAME##_row(const char *p, ptrdiff_t n, ptrdiff_t s)                                      \
    {                                                                                                 \
        if (n < SHORT_ROW) /* fewer lanes: their tree costs less than the row */                     \
            return NAME##_lanes(p, n, s, 8);                                                          \
        if (!(PAIRWISE) || n <= ROW_BLOCK)                                                            \
            return NAME##_lanes(p, n, s, NLANES);                                                     \
        A stack[64];                                                                                  \
        int top = 0;                                                                                  \
        ptrdiff_t blocks = 0, i = 0;                                                                  \
        for (; i + ROW_BLOCK <= n; i += ROW_BLOCK) {                                                  \
            A value = NAME##_lanes(p + i * s, ROW_BLOCK, s, NLANES);                                  \
            for (ptrdiff_t b = ++blocks; (b & 1) == 0; b >>= 1)                                       \
                value = OP(stack[--top], value);                                                      \
            stack[top++] = value;                                                                     \
        }                                                                                             \
        A total = NAME##_lanes(p + i * s, n - i, s, NLANES);                                          \
        while (top > 0)                                                                               \
            total = OP(stack[--top], total);                                                          \
        return total;                                                                                 \
    }                                                                                                 \
    INLINE void NAME##_rows_of(char *acc, ptrdiff_t acc_step, const char *p, ptrdiff_t count,         \
                               ptrdiff_t row_stride, ptrdiff_t n, ptrdiff_t s)                        \
    {                                                                                                 \
        for (ptrdiff_t r = 0; r < count; r++) {                                                       \
            A *a = (A *)(acc + r * acc_step);                                                         \
            A value = NAME##_row(p + r * row_stride, n, s);                                           \
            *a = OP(*a, value);                                                                       \
        }                                                                                             \
    }                                                                                                 \
    INLINE void NAME##_short_rows(char *acc, ptrdiff_t acc_step, const char *p, ptrdiff_t count,      \
                                  ptrdiff_t row_stride, const int n)                                  \
    {                                                                                                 \
        for (ptrdiff_t r = 0; r < count; r++) {                                                       \
            const char *q = p + r * row_stride;                                                       \
            A value = LOAD(q);                                                                        \
            for (int j = 1; j < n; j++) {                                                             \
                A x = LOAD(q + j * (ISZ));                                                            \
                value = OP(value, x);                                                                 \
            }                                                                                         \
            A *a = (A *)(acc + r * acc_step);                                                         \
            *a = OP(*a, value);                                                                       \
        }                                                                                             \
    }                                                                                                 \
    DISPATCH static void NAME##_rows(char *acc, ptrdiff_t acc_step, const char *p, ptrdiff_t count,   \
                            ptrdiff_t row_stride, ptrdiff_t n, ptrdiff_t s)                           \
    {                                                                                                 \
        if (s != (ISZ)) {                                                                             \
            NAME##_rows_of(acc, acc_step, p, count, row_stride, n, s);                                \
            return;                                                                                   \
        }                                                                                             \
        switch (n) { /* short dense rows: one unrolled loop each */                                   \
        case 1: NAME##_short_rows(acc, acc_step, p, count, row_stride, 1); break;                     \
        case 2: NAME##_short_rows(acc, acc_step, p, count, row_stride, 2); break;                     \
        case 3: NAME##_short_rows(acc, acc_step, p, count, row_stride, 3); break;                     \
        case 4: NAME##_short_rows(acc, acc_step, p, count, row_stride, 4); break;                     \
        case 5: NAME##_short_rows(acc, acc_step, p, count, row_stride, 5); break;                     \
        case 6: NAME##_short_rows(acc, acc_step, p, count, row_stride, 6); break;                     \
        case 7: NAME##_short_rows(acc, acc_step, p, count, row_stride, 7); break;                     \
        case 8: NAME##_short_rows(acc, acc_step, p, count, row_stride, 8); break;                     \
        default: NAME##_rows_of(acc, acc_step, p, count, row_stride, n, (ISZ));                       \
        }                                                                                             \
    }                                                                                                 \
    INLINE void NAME##_cols_of(char *acc, ptrdiff_t acc_step, const char *p, ptrdiff_t count,         \
                               ptrdiff_t row_stride, ptrdiff_t m, ptrdiff_t s)                        \
    {                                                                                                 \
        ptrdiff_t r = 0;                                                                              \
        if (acc_step == 0 && m * (ptrdiff_t)sizeof(A) > UNROLL_MIN_BYTES) { /* four rows per pass */  \
            A *RESTRICT a = (A *)acc;                                                                 \
            for (; r + 4 <= count; r += 4) {                                                          \
                const char *q = p + r * row_stride;                                                   \
                for (ptrdiff_t j = 0; j < m; j++) {                                                   \
                    A x0 = LOAD(q + j * s), x1 = LOAD(q + row_stride + j * s);                        \
                    A x2 = LOAD(q + 2 * row_stride + j * s), x3 = LOAD(q + 3 * row_stride + j * s);   \
                    A v = OP(a[j], x0);                                                               \
                    v = OP(v, x1);                                                                    \
                    v = OP(v, x2);                                                                    \
                    a[j] = OP(v, x3);                                                                 \
                }                                                                                     \
            }                                                                                         \
        }                                                                                             \
        ptrdiff_t span = (m - 1) * s + (ISZ);                                                         \
        ptrdiff_t ahead = span <= PREFETCH_ROW_MAX ? (PREFETCH_BYTES + span - 1) / span * row_stride : 0; \
        for (; r < count; r++) {                                                                      \
            A *RESTRICT a = (A *)(acc + r * acc_step);                                                \
            const char *q = p + r * row_stride;                                                       \
            if (ahead)                                                                                \
                prefetch_span(q, ahead, span);                                                       \
            for (ptrdiff_t j = 0; j < m; j++) {                                                       \
                A x = LOAD(q + j * s);                                                                \
                a[j] = OP(a[j], x);                                                                   \
            }                                                                                         \
        }                                                                                             \
    }                                                                                                 \
    DISPATCH static void NAME##_cols(char *acc, ptrdiff_t acc_step, const char *p, ptrdiff_t count,   \
                            ptrdiff_t row_stride, ptrdiff_t m, ptrdiff_t s)                           \
    {                                                                                                 \
        if (s == (ISZ))                                                                               \
            NAME##_cols_of(acc, acc_step, p, count, row_stride, m, (ISZ));                            \
        else                                                                                          \
            NAME##_cols_of(acc, acc_step, p, count, row_stride, m, s);                                \
    }                                                                                                 \
    static void NAME##_merge(char *acc, const char *other, ptrdiff_t n)                               \
    {                                                                                                 \
        A *RESTRICT a = (A *)acc;                                                                     \
        const A *o = (const A *)other;                                                                \
        for (ptrdiff_t j = 0; j < n; j++)                                                             \
            a[j] = OP(a[j], o[j]);                                                                    \
    }
#define DEFINE_KERNEL(NAME, ISZ, A, LOAD, IDENTITY, OP, PAIRWISE)                                     \
    DEFINE_KERNEL_FULL(NAME, ISZ, A, LOAD, IDENTITY, OP, PAIRWISE, 16, OP, 0, uint8_t, scalar_vmain)
#define DEFINE_VECTOR_KERNEL(NAME, ISZ, A, LOAD, IDENTITY, OP, PAIRWISE, VNAME)                        \
    DEFINE_KERNEL_FULL(NAME, ISZ, A, LOAD, IDENTITY, OP, PAIRWISE, 16, OP, 0, uint8_t, VMAIN(VNAME))
#define DEFINE_FLOAT_EXTREME(NAME, ISZ, A, LOAD, IDENTITY, OP, LANE_OP, MASK, VNAME)                   \
    DEFINE_KERNEL_FULL(NAME, ISZ, A, LOAD, IDENTITY, OP, 0, 16, LANE_OP, 1, MASK, VMAIN(VNAME))

#define OPS(NAME, A, KIND) {(int)sizeof(A), KIND, NAME##_init, NAME##_rows, NAME##_cols, NAME##_merge}
#define FLUSHED_OPS(NAME) {(int)sizeof(double), ACC_DOUBLE, NAME##_init, NAME##_rows, NAME##_flushed_cols, NAME##_merge}

/* Sums and products of integers and bools in 64 bits; sums and means of anything in double. */
#define INTEGER_FAMILY(NAME, TYPE, LOAD)                                                              \
    DEFINE_KERNEL(sum_##NAME, sizeof(TYPE), uint64_t, LOAD, 0, ADD, 0)                                \
    DEFINE_KERNEL(prod_##NAME, sizeof(TYPE), uint64_t, LOAD, 1, MUL, 0)
#define SIGNED_LOAD(TYPE) static inline uint64_t load_u64_##TYPE(const char *p) { return LOAD_SIGNED(TYPE, p); }
#define UNSIGNED_LOAD(TYPE) static inline uint64_t load_u64_##TYPE(const char *p) { return LOAD_UNSIGNED(TYPE, p); }
SIGNED_LOAD(int8_t) SIGNED_LOAD(int16_t) SIGNED_LOAD(int32_t) SIGNED_LOAD(int64_t)
UNSIGNED_LOAD(uint8_t) UNSIGNED_LOAD(uint16_t) UNSIGNED_LOAD(uint32_t) UNSIGNED_LOAD(uint64_t)
static inline uint64_t load_u64_bool(const char *p) { return LOAD_BOOL_U64(p); }

INTEGER_FAMILY(b, uint8_t, load_u64_bool)
INTEGER_FAMILY(i8, int8_t, load_u64_int8_t)
INTEGER_FAMILY(u8, uint8_t, load_u64_uint8_t)
INTEGER_FAMILY(i16, int16_t, load_u64_int16_t)
INTEGER_FAMILY(u16, uint16_t, load_u64_uint16_t)
/* 32- and 64-bit sums in vector lanes of 64 bits (wrapping is the same in any order) */
#define VECTOR_INTEGER_FAMILY(NAME, TYPE, LOAD)                                                       \
    DEFINE_VECTOR_KERNEL(sum_##NAME, sizeof(TYPE), uint64_t, LOAD, 0, ADD, 0, vsum_##NAME)            \
    DEFINE_KERNEL(prod_##NAME, sizeof(TYPE), uint64_t, LOAD, 1, MUL, 0)
VECTOR_INTEGER_FAMILY(i32, int32_t, load_u64_int32_t)
VECTOR_INTEGER_FAMILY(u32, uint32_t, load_u64_uint32_t)
VECTOR_INTEGER_FAMILY(i64, int64_t, load_u64_int64_t)
INTEGER_FAMILY(u64, uint64_t, load_u64_uint64_t)

#define DOUBLE_LOAD(NAME, TYPE) static inline double load_d_##NAME(const char *p) { return LOAD_DOUBLE(TYPE, p); }
DOUBLE_LOAD(i8, int8_t) DOUBLE_LOAD(u8, uint8_t) DOUBLE_LOAD(i16, int16_t) DOUBLE_LOAD(u16, uint16_t)
DOUBLE_LOAD(i32, int32_t) DOUBLE_LOAD(u32, uint32_t) DOUBLE_LOAD(i64, int64_t) DOUBLE_LOAD(u64, uint64_t)
DOUBLE_LOAD(f32, float) DOUBLE_LOAD(f64, double)
static inline double load_d_b(const char *p) { return (double)LOAD_BOOL(p); }
static inline double load_d_f16(const char *p) { return LOAD_HALF_DOUBLE(p); }

#define DOUBLE_SUM(NAME, ISZ) DEFINE_KERNEL(dsum_##NAME, ISZ, double, load_d_##NAME, 0.0, ADD, 1)
DOUBLE_SUM(b, 1) DOUBLE_SUM(i8, 1) DOUBLE_SUM(u8, 1) DOUBLE_SUM(i16, 2) DOUBLE_SUM(u16, 2) DOUBLE_SUM(i32, 4)
DOUBLE_SUM(u32, 4) DOUBLE_SUM(i64, 8) DOUBLE_SUM(u64, 8)
/* float16/float32 summed in float64: a chain of even 10^7 adds errs far below their rounding */
DEFINE_VECTOR_KERNEL(dsum_f16, 2, double, load_d_f16, 0.0, ADD, 0, vsum_f16)
DEFINE_VECTOR_KERNEL(dsum_f32, 4, double, load_d_f32, 0.0, ADD, 0, vsum_f32)

/* float16/float32 column sums flushed: rows that share accumulators are added in float32, a block
 * of FLUSH_ROWS rows at a time, and each block's float32 sums are added into the float64
 * accumulators. Half the accumulator traffic of adding every row into float64 (numpy's float32
 * speed), and still a guaranteed bound: for data of one sign, a block of k rows errs by at most
 * (k - 1) u relative (u = 2^-24), the float64 adds by far less, and the float32 result rounds
 * once more: k u = 16 * 2^-24 = 9.5e-7 <= 1e-6. The order of the adds is fixed by the source,
 * so every clone gives the same bits. */
#define FLUSH_ROWS 16
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
#define DEFINE_FLUSHED_OF(NAME, ISZ, ROWS, TARGET)                                                   \
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

/* float16 with F16C (x86-64-v3: vcvtph2ps widens 8 halves at once; the baseline's conversion is
 * integer work that costs more than the reading). The same floats, so the same bits. Chosen when
 * the module loads, if the CPU has AVX2 and F16C and TYPEDTENSOR_F16C is not 0 (which tests use
 * to compare both). */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__)
#include <immintrin.h>
#define F16C_LOOPS 1
#define V3 __attribute__((target("arch=x86-64-v3")))
V3 INLINE float f16c_load(const char *p) { return _cvtsh_ss(LOAD_AS(uint16_t, p)); }
V3 INLINE __m256 f16c_load8(const char *p) { return _mm256_cvtph_ps(_mm_loadu_si128((const __m128i *)p)); }
V3 INLINE void f16c_rows_first(float *RESTRICT block, const char *q, ptrdiff_t w, ptrdiff_t s)
{
    ptrdiff_t j = 0;
    if (s == 2)
        for (; j + 8 <= w; j += 8)
            _mm256_storeu_ps(block + j, f16c_load8(q + 2 * j));
    for (; j < w; j++)
        block[j] = f16c_load(q + j * s);
}
V3 INLINE void f16c_rows_add(float *RESTRICT block, const char *q, ptrdiff_t w, ptrdiff_t s)
{
    ptrdiff_t j = 0;
    if (s == 2)
        for (; j + 8 <= w; j += 8)
            _mm256_storeu_ps(block + j, _mm256_add_ps(_mm256_loadu_ps(block + j), f16c_load8(q + 2 * j)));
    for (; j < w; j++)
        block[j] += f16c_load(q + j * s);
}
V3 INLINE void f16c_rows_add4(float *RESTRICT block, const char *q, ptrdiff_t row_stride, ptrdiff_t w, ptrdiff_t s)
{
    for (int r = 0; r < 4; r++)
        f16c_rows_add(block, q + r * row_stride, w, s);
}
DEFINE_FLUSHED_OF(dsum_f16c, 2, f16c_rows, V3)
V3 static void dsum_f16c_flushed(double *acc, const char *p, ptrdiff_t count, ptrdiff_t row_stride, ptrdiff_t m,
                                 ptrdiff_t s)
{
    dsum_f16c_flushed_of(acc, p, count, row_stride, m, s);
}
static int use_f16c; /* set when the module loads */
static void choose_f16c(void)
{
    const char *setting = getenv("TYPEDTENSOR_F16C");
    __builtin_cpu_init();
    use_f16c = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("f16c") && !(setting && strcmp(setting, "0") == 0);
}
#define F16C_FLUSHED(acc, p, count, row_stride, m, s) (use_f16c ? (dsum_f16c_flushed(acc, p, count, row_stride, m, s), 1) : 0)
#else
static const int use_f16c = 0;
static void choose_f16c(void) {}
#define F16C_FLUSHED(acc, p, count, row_stride, m, s) 0
#endif

/* The column loops of float32/float16 sums and means: flushed where rows share accumulators. */
#define DEFINE_FLUSHED_COLS(NAME, ISZ, FAST)                                                          \
    DISPATCH static void NAME##_flushed_cols(char *acc, ptrdiff_t acc_step, const char *p, ptrdiff_t count, \
                                             ptrdiff_t row_stride, ptrdiff_t m, ptrdiff_t s)          \
    {                                                                                                 \
        if (acc_step != 0 || count < FLUSH_ROWS / 2) /* rows into their own or few into the same:      \
                                                          float64 at once costs less ([8192, 5, 128] over axis 1) */ \
            NAME##_cols(acc, acc_step, p, count, row_stride, m, s);                                   \
        else if (FAST((double *)acc, p, count, row_stride, m, s))                                     \
            return;                                                                                   \
        else if (s == (ISZ))                                                                          \
            NAME##_flushed_of((double *)acc, p, count, row_stride, m, (ISZ));                         \
        else                                                                                          \
            NAME##_flushed_of((double *)acc, p, count, row_stride, m, s);                             \
    }
#define NO_FAST_PATH(acc, p, count, row_stride, m, s) 0
DEFINE_FLUSHED_COLS(dsum_f32, 4, NO_FAST_PATH)
DEFINE_FLUSHED_COLS(dsum_f16, 2, F16C_FLUSHED)
DEFINE_VECTOR_KERNEL(dsum_f64, 8, double, load_d_f64, 0.0, ADD, 1, vsum_f64)
DEFINE_VECTOR_KERNEL(dprod_f16, 2, double, load_d_f16, 1.0, MUL, 0, vprod_f16)
DEFINE_VECTOR_KERNEL(dprod_f32, 4, double, load_d_f32, 1.0, MUL, 0, vprod_f32)
DEFINE_VECTOR_KERNEL(dprod_f64, 8, double, load_d_f64, 1.0, MUL, 0, vprod_f64)

/* max and min keep the input type (float16 compares as float). */
#define NATIVE_LOAD(TYPE) static inline TYPE load_##TYPE(const char *p) { return LOAD_AS(TYPE, p); }
NATIVE_LOAD(int8_t) NATIVE_LOAD(uint8_t) NATIVE_LOAD(int16_t) NATIVE_LOAD(uint16_t) NATIVE_LOAD(int32_t)
NATIVE_LOAD(uint32_t) NATIVE_LOAD(int64_t) NATIVE_LOAD(uint64_t) NATIVE_LOAD(float) NATIVE_LOAD(double)
static inline uint8_t load_flag(const char *p) { return LOAD_BOOL(p); }
static inline float load_half(const char *p) { return LOAD_HALF(p); }

#define EXTREMES(NAME, TYPE, LOAD, LOW, HIGH, MAX, MIN)                                               \
    DEFINE_KERNEL(max_##NAME, sizeof(TYPE), TYPE, LOAD, LOW, MAX, 0)                                  \
    DEFINE_KERNEL(min_##NAME, sizeof(TYPE), TYPE, LOAD, HIGH, MIN, 0)
EXTREMES(b, uint8_t, load_flag, 0, 1, MAX_INT, MIN_INT)
EXTREMES(i8, int8_t, load_int8_t, INT8_MIN, INT8_MAX, MAX_INT, MIN_INT)
EXTREMES(u8, uint8_t, load_uint8_t, 0, UINT8_MAX, MAX_INT, MIN_INT)
EXTREMES(i16, int16_t, load_int16_t, INT16_MIN, INT16_MAX, MAX_INT, MIN_INT)
EXTREMES(u16, uint16_t, load_uint16_t, 0, UINT16_MAX, MAX_INT, MIN_INT)
EXTREMES(i32, int32_t, load_int32_t, INT32_MIN, INT32_MAX, MAX_INT, MIN_INT)
EXTREMES(u32, uint32_t, load_uint32_t, 0, UINT32_MAX, MAX_INT, MIN_INT)
EXTREMES(i64, int64_t, load_int64_t, INT64_MIN, INT64_MAX, MAX_INT, MIN_INT)
EXTREMES(u64, uint64_t, load_uint64_t, 0, UINT64_MAX, MAX_INT, MIN_INT)
DEFINE_FLOAT_EXTREME(max_f16, 2, float, load_half, -INFINITY, MAX_NAN, MAX_PLAIN, int32_t, vmax_f16)
DEFINE_FLOAT_EXTREME(min_f16, 2, float, load_half, INFINITY, MIN_NAN, MIN_PLAIN, int32_t, vmin_f16)
DEFINE_FLOAT_EXTREME(max_f32, 4, float, load_float, -INFINITY, MAX_NAN, MAX_PLAIN, int32_t, vmax_f32)
DEFINE_FLOAT_EXTREME(min_f32, 4, float, load_float, INFINITY, MIN_NAN, MIN_PLAIN, int32_t, vmin_f32)
DEFINE_FLOAT_EXTREME(max_f64, 8, double, load_double, -INFINITY, MAX_NAN, MAX_PLAIN, int64_t, vmax_f64)
DEFINE_FLOAT_EXTREME(min_f64, 8, double, load_double, INFINITY, MIN_NAN, MIN_PLAIN, int64_t, vmin_f64)

/* any and all: whether elements are nonzero. */
#define NONZERO_LOAD(NAME, TYPE) static inline uint8_t nonzero_##NAME(const char *p) { return NONZERO(TYPE, p); }
NONZERO_LOAD(b, uint8_t) NONZERO_LOAD(i8, int8_t) NONZERO_LOAD(u8, uint8_t) NONZERO_LOAD(i16, int16_t)
NONZERO_LOAD(u16, uint16_t) NONZERO_LOAD(i32, int32_t) NONZERO_LOAD(u32, uint32_t) NONZERO_LOAD(i64, int64_t)
NONZERO_LOAD(u64, uint64_t) NONZERO_LOAD(f32, float) NONZERO_LOAD(f64, double)
static inline uint8_t nonzero_f16(const char *p) { return NONZERO_HALF(p); }
#define LOGICAL(NAME, ISZ)                                                                            \
    DEFINE_KERNEL(any_##NAME, ISZ, uint8_t, nonzero_##NAME, 0, OR, 0)                                 \
    DEFINE_KERNEL(all_##NAME, ISZ, uint8_t, nonzero_##NAME, 1, AND, 0)
LOGICAL(b, 1) LOGICAL(i8, 1) LOGICAL(u8, 1) LOGICAL(i16, 2) LOGICAL(u16, 2) LOGICAL(i32, 4) LOGICAL(u32, 4)
LOGICAL(i64, 8) LOGICAL(u64, 8) LOGICAL(f16, 2) LOGICAL(f32, 4) LOGICAL(f64, 8)

#define ROW_OF(PREFIX, ACC, KIND)                                                                     \
    {OPS(PREFIX##_b, ACC, KIND), OPS(PREFIX##_i8, ACC, KIND), OPS(PREFIX##_u8, ACC, KIND),             \
     OPS(PREFIX##_i16, ACC, KIND), OPS(PREFIX##_u16, ACC, KIND), OPS(PREFIX##_i32, ACC, KIND),         \
     OPS(PREFIX##_u32, ACC, KIND), OPS(PREFIX##_i64, ACC, KIND), OPS(PREFIX##_u64, ACC, KIND)}

static const Ops integer_sum[9] = ROW_OF(sum, uint64_t, ACC_U64);
static const Ops integer_prod[9] = ROW_OF(prod, uint64_t, ACC_U64);
static const Ops double_sum[N_TYPES] = {
    OPS(dsum_b, double, ACC_DOUBLE), OPS(dsum_i8, double, ACC_DOUBLE), OPS(dsum_u8, double, ACC_DOUBLE),
    OPS(dsum_i16, double, ACC_DOUBLE), OPS(dsum_u16, double, ACC_DOUBLE), OPS(dsum_i32, double, ACC_DOUBLE),
    OPS(dsum_u32, double, ACC_DOUBLE), OPS(dsum_i64, double, ACC_DOUBLE), OPS(dsum_u64, double, ACC_DOUBLE),
    FLUSHED_OPS(dsum_f16), FLUSHED_OPS(dsum_f32), OPS(dsum_f64, double, ACC_DOUBLE)};
static const Ops double_prod[3] = {OPS(dprod_f16, double, ACC_DOUBLE), OPS(dprod_f32, double, ACC_DOUBLE),
                                   OPS(dprod_f64, double, ACC_DOUBLE)};
#define EXTREME_ROW(OP)                                                                               \
    {OPS(OP##_b, uint8_t, ACC_FLAG), OPS(OP##_i8, int8_t, ACC_NATIVE), OPS(OP##_u8, uint8_t, ACC_NATIVE),  \
     OPS(OP##_i16, int16_t, ACC_NATIVE), OPS(OP##_u16, uint16_t, ACC_NATIVE),                         \
     OPS(OP##_i32, int32_t, ACC_NATIVE), OPS(OP##_u32, uint32_t, ACC_NATIVE),                         \
     OPS(OP##_i64, int64_t, ACC_NATIVE), OPS(OP##_u64, uint64_t, ACC_NATIVE),                         \
     OPS(OP##_f16, float, ACC_FLOAT), OPS(OP##_f32, float, ACC_NATIVE), OPS(OP##_f64, double, ACC_NATIVE)}
static const Ops extreme_max[N_TYPES] = EXTREME_ROW(max);
static const Ops extreme_min[N_TYPES] = EXTREME_ROW(min);
#define LOGICAL_ROW(OP)                                                                               \
    {OPS(OP##_b, uint8_t, ACC_FLAG), OPS(OP##_i8, uint8_t, ACC_FLAG), OPS(OP##_u8, uint8_t, ACC_FLAG),     \
     OPS(OP##_i16, uint8_t, ACC_FLAG), OPS(OP##_u16, uint8_t, ACC_FLAG), OPS(OP##_i32, uint8_t, ACC_FLAG), \
     OPS(OP##_u32, uint8_t, ACC_FLAG), OPS(OP##_i64, uint8_t, ACC_FLAG), OPS(OP##_u64, uint8_t, ACC_FLAG), \
     OPS(OP##_f16, uint8_t, ACC_FLAG), OPS(OP##_f32, uint8_t, ACC_FLAG), OPS(OP##_f64, uint8_t, ACC_FLAG)}
static const Ops logical_any[N_TYPES] = LOGICAL_ROW(any);
static const Ops logical_all[N_TYPES] = LOGICAL_ROW(all);

static const Ops *find_ops(int op, int type)
{
    int floating = type == T_F16 || type == T_F32 || type == T_F64;
    switch (op) {
    case OP_SUM: return floating ? &double_sum[type] : &integer_sum[type];
    case OP_PROD: return floating ? &double_prod[type - T_F16] : &integer_prod[type];
    case OP_MEAN: return &double_sum[type];
    case OP_MAX: return &extreme_max[type];
    case OP_MIN: return &extreme_min[type];
    case OP_ANY: return &logical_any[type];
    case OP_ALL: return &logical_all[type];
    }
    return NULL;
}

/* ---- writing results: accumulators converted to the output type ----------------------------- */

typedef void (*StoreFn)(char *out, ptrdiff_t out_stride, const char *acc, ptrdiff_t n, double divisor);

#define DEFINE_STORE(NAME, A, OUT, CONVERT)                                                           \
    DISPATCH static void NAME(char *out, ptrdiff_t out_stride, const char *acc, ptrdiff_t n, double divisor)   \
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
#define ELEMENT(a, i, divisor) ((double)(a)[i])
#define ELEMENT_MEAN(a, i, divisor) ((a)[i] / (divisor))
DEFINE_HALF_STORE(store_float_half, float, ELEMENT)
DEFINE_HALF_STORE(store_double_half, double, ELEMENT)
DEFINE_HALF_STORE(store_mean_half, double, ELEMENT_MEAN)

/* The store for this accumulator and output type (a mean's divides), or NULL if the pair makes
 * no sense. */
static StoreFn find_store(const Ops *ops, int in_type, int out_type, int mean)
{
    switch (ops->acc_kind) {
    case ACC_U64:
        return out_type == T_I64 || out_type == T_U64 ? store_copy8 : NULL;
    case ACC_DOUBLE:
        if (out_type == T_F64)
            return mean ? store_mean : store_copy8;
        if (out_type == T_F32)
            return mean ? store_mean_float : store_double_float;
        if (out_type == T_F16)
            return mean ? store_mean_half : store_double_half;
        return NULL;
    case ACC_FLOAT:
        return out_type == T_F16 ? store_float_half : NULL;
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
} Sub;

static void accumulate(const Sub *s, int k, const char *in, char *acc, ptrdiff_t width)
{
    const Dim *d = s->dims;
    int last = s->nd - 1;
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
    int dense = s->acc_stride[k] == 0 && d[last].in_stride == isz && row_stride == width * isz;
    if (dense && group >= 2 && count >= 2 * group) {
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

static void run_sub(const Sub *s, const char *in, char *out)
{
    const Dim *inner = &s->dims[s->nd - 1];
    ptrdiff_t size = s->columns ? inner->size : 1;
    for (ptrdiff_t start = 0; start < size; start += s->tile) {
        ptrdiff_t width = size - start < s->tile ? size - start : s->tile;
        s->ops->init(s->acc, s->outputs);
        accumulate(s, 0, in + (s->columns ? start * inner->in_stride : 0), s->acc, width);
        store_kept(s, 0, out + (s->columns ? start * inner->out_stride : 0), s->acc, width);
    }
}

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
    ptrdiff_t tile = TILE_BYTES / (kept_outside * acc_size);
    tile = tile < MIN_TILE ? MIN_TILE : tile - tile % 16;
    return tile > inner ? inner : tile;
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
}

/* The whole view: leading kept dims are independent sub-problems; the innermost of them is
 * taken in blocks whose accumulators fit in L1, so short sub-problems share one pass. */
typedef struct {
    const Dim *dims;
    int peeled;          /* leading kept dims walked one index at a time */
    ptrdiff_t block;     /* indices of the next dim per sub-problem */
    Sub full, rest;      /* sub-problems of `block` indices and of the remainder */
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
        w->block = per_index >= BLOCK_BYTES ? 1 : BLOCK_BYTES / per_index;
        w->block = w->block > sub[0].size ? sub[0].size : w->block;
    }
    plan_sub(&w->full, sub, sub_nd, w->block);
    plan_sub(&w->rest, sub, sub_nd, sub[0].size % w->block ? sub[0].size % w->block : w->block);
    return w->full.outputs * acc_size;
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

static PyObject *reduce(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError,
                        "reduce(op, in_type, out_type, source, in_offset, target, out_offset, layout, divisor)");
        return NULL;
    }
    int op = (int)PyLong_AsLong(args[0]), in_type = (int)PyLong_AsLong(args[1]), out_type = (int)PyLong_AsLong(args[2]);
    Py_ssize_t in_offset = PyLong_AsSsize_t(args[4]), out_offset = PyLong_AsSsize_t(args[6]);
    double divisor = PyFloat_AsDouble(args[8]);
    if (PyErr_Occurred())
        return NULL;
    if (op < 0 || op >= N_OPS || in_type < 0 || in_type >= N_TYPES || out_type < 0 || out_type >= N_TYPES) {
        PyErr_SetString(PyExc_ValueError, "unknown op or type code");
        return NULL;
    }
    const Ops *ops = find_ops(op, in_type);
    StoreFn store = find_store(ops, in_type, out_type, divisor != 0);
    if (!store || (divisor != 0 && ops->acc_kind != ACC_DOUBLE)) {
        PyErr_SetString(PyExc_ValueError, "this output type does not fit this op and input type");
        return NULL;
    }
    if (!PyBytes_Check(args[7]) || PyBytes_GET_SIZE(args[7]) % (4 * sizeof(int64_t)) != 0) {
        PyErr_SetString(PyExc_TypeError, "layout must be bytes of int64 quadruples");
        return NULL;
    }
    int nd = (int)(PyBytes_GET_SIZE(args[7]) / (4 * sizeof(int64_t)));
    if (nd < 1 || nd > MAX_DIMS) {
        PyErr_SetString(PyExc_ValueError, "layout must have 1 to 64 dims");
        return NULL;
    }
    Dim dims[MAX_DIMS];
    const int64_t *raw = (const int64_t *)PyBytes_AS_STRING(args[7]);
    int out_size = type_size[out_type], first_reduced = -1;
    for (int k = 0; k < nd; k++) {
        dims[k] = (Dim){(ptrdiff_t)raw[4 * k], (ptrdiff_t)raw[4 * k + 1], (ptrdiff_t)raw[4 * k + 2] * out_size,
                        raw[4 * k + 3] != 0};
        if (dims[k].size < 1 || (dims[k].reduced && dims[k].out_stride != 0)) {
            PyErr_SetString(PyExc_ValueError, "layout dims must be non-empty, reduced ones with no output stride");
            return NULL;
        }
        if (dims[k].reduced && first_reduced < 0)
            first_reduced = k;
    }
    if (first_reduced < 0) {
        PyErr_SetString(PyExc_ValueError, "layout must reduce a dim");
        return NULL;
    }
    Py_buffer source, target;
    if (PyObject_GetBuffer(args[3], &source, PyBUF_STRIDES | PyBUF_FORMAT) < 0)
        return NULL;
    if (PyObject_GetBuffer(args[5], &target, PyBUF_STRIDES | PyBUF_FORMAT | PyBUF_WRITABLE) < 0) {
        PyBuffer_Release(&source);
        return NULL;
    }
    PyObject *result = NULL;
    if (!within(&source, in_offset, dims, nd, 0, type_size[in_type]) ||
        !within(&target, out_offset * out_size, dims, nd, 1, out_size)) {
        PyErr_SetString(PyExc_ValueError, "layout reaches outside the source or target buffer");
        goto done;
    }
    Walk walk;
    walk.full = (Sub){.ops = ops, .store = store, .divisor = divisor, .itemsize = type_size[in_type]};
    walk.rest = walk.full;
    ptrdiff_t acc_bytes = plan_walk(&walk, dims, nd, first_reduced);
    double small[SMALL_ACC / sizeof(double)]; /* aligned for any accumulator */
    char *acc = acc_bytes <= SMALL_ACC ? (char *)small : malloc((size_t)acc_bytes);
    if (!acc) {
        PyErr_NoMemory();
        goto done;
    }
    walk.full.acc = walk.rest.acc = acc;
    const char *in = (const char *)source.buf + in_offset;
    char *out = (char *)target.buf + out_offset * out_size;
    if (source.len < GIL_FREE_BYTES) { /* releasing the GIL costs more than such a call */
        run_peeled(&walk, 0, in, out);
    } else {
        Py_BEGIN_ALLOW_THREADS
        run_peeled(&walk, 0, in, out);
        Py_END_ALLOW_THREADS
    }
    if (acc != (char *)small)
        free(acc);
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&target);
    PyBuffer_Release(&source);
    return result;
}

static PyMethodDef methods[] = {
    {"reduce", (PyCFunction)(void (*)(void))reduce, METH_FASTCALL,
     "reduce(op, in_type, out_type, source, in_offset, target, out_offset, layout, divisor)\n"
     "Reduce the folded view `layout` (int64 quadruples: size, input byte stride, output element\n"
     "stride, reduced) of `source` starting `in_offset` bytes in, into `target` starting\n"
     "`out_offset` elements in. A mean divides by `divisor` (0: raw sums). Releases the GIL."},
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
    choose_f16c();
    PyObject *created = PyModule_Create(&module);
    if (created && (PyModule_AddIntConstant(created, "FLUSH_ROWS", FLUSH_ROWS) < 0 ||
                    PyModule_AddIntConstant(created, "F16C", use_f16c) < 0))
        Py_CLEAR(created);
    return created;
}
