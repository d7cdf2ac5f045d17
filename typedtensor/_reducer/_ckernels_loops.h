/*
 * The reduction loops' templates, shared by the two units of typedtensor._reducer._ckernels:
 * _ckernels.c instantiates the float kernels and runs the walk and the Python entry point;
 * _ckernels_integers.c instantiates the integer and bool kernels and any/all. The two units
 * compile in parallel (setup.py).
 */
#ifndef TYPEDTENSOR_CKERNELS_LOOPS_H
#define TYPEDTENSOR_CKERNELS_LOOPS_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_DIMS 64
#define FLUSH_ROWS 16 /* float16/32 sums: rows (or vectors) added in float32 before a flush into float64 */
#define ROW_BLOCK 256          /* elements per pairwise leaf of a float sum: chains of 16 adds */
#define SHORT_ROW 256          /* shorter rows are reduced in 8 lanes (chains of at most 32), or float
                                  max/min ones in 32 or 16 where the vectors take them whole */
#define ACC_BYTES (1 << 18)    /* accumulators of one pass over the input, or of one tile of the innermost
                                  kept dim: stay in L2 (tiles for L1 cut each row into short streams:
                                  the blog tensor over (0,) ran 1.07-1.17x faster in tiles of 128 KiB
                                  than of 32, and up to 1.14x more in tiles of 256, session 27) */
#define BLOCK_BYTES (1 << 11)  /* accumulators of a block of short sub-problems (32 KiB, all of L1:
                                  the input streaming past evicted them; [8192, 5, 128] 13 -> 21 GB/s) */
#define ROWS_BLOCK_BYTES (1 << 14) /* ... and of reductions of rows shorter than ROWS_BLOCK_MAX_ROW (16 KiB, in
                                      L1 too): calls of 2048-4096 rows, which go in pairs (PAIRED_ROWS_MIN);
                                      the blog tensor over (3,): float32/float16 sums 1.08-1.11x against
                                      2 KiB, over (2, 3) 1.05-1.08x; 64 KiB the same as 16 */
#define ROWS_BLOCK_MAX_ROW 1024 /* (longer rows keep the blocks of BLOCK_BYTES, more units for threads) */
#define MIN_TILE 64            /* narrower tiles read too little per row to stream */
#define ROW_PART_BYTES (4 << 20) /* the input of a row part, or block, of a view threads share (parts_of) ... */
#define MAX_ROW_PARTS 8          /* ... at most this many: four per thread on two cores ... */
#define ROW_PART_ACC_MAX (1 << 16) /* ... each with accumulators of at most this many bytes */
#define UNROLL_MIN_BYTES (1 << 13) /* wider accumulator rows leave L1: combine four rows per pass (eight,
                                      then four, where the accumulators are wider than the elements:
                                      over the blog tensor's (0,) int32 sums and means and float32
                                      products 1.07-1.25x, session 27; the AVX-512 block loops eight) */
/* Calls of PAIRED_CALL_MIN_ROWS rows or more into one row of accumulators of more than
 * PAIRED_CALL_MIN_BYTES and at most UNROLL_MIN_BYTES, of the families that pair columns
 * (PAIRED_COLUMNS: float32 and float64 products, float64 sums and means, and since session 34
 * int32, int64 and uint32 sums, VECTOR_INTEGER_SUM, which wrap, so any order gives their bits),
 * combine rows r and half + r first, then that into the accumulators, an odd count's last row
 * alone. The generic column loops take such calls, and float32 products' AVX2 loop in the same
 * order (f32_prod_paired_cols); the strips hold rows of at most PAIRED_CALL_MIN_BYTES of
 * accumulators (int32 sums' AVX-512 strips wider ones, exact in any order), the AVX-512 block
 * loops wider ones, and the groups and results calls of at most 16 rows (64: a margin over that;
 * fewer rows in pairs were not measured), so every build gives the same bits. Why: two streams
 * half the call apart, and one load and store of the accumulators per two rows (session 30's
 * halves, two rows of accumulators each loaded and stored per row, measured 0.94-1.03x). Standalone on numpy's
 * buffer (session 33, of a pure read): [8192, 640] float32 products one row at a time 0.59-0.61,
 * in pairs 0.77-0.85; float64 sums 0.66-0.75 and 0.79-0.94. A/B, each build first in turn: float32
 * products over the blog tensor's (1,) 1.03-1.11x, (0, 1) 1.30-1.33x, [16384, 200-256] over axis 0
 * 1.35-1.54x (their prefetching gone too); float64 products 1.08-1.33x, sums and means 1.10-1.23x;
 * float16 and int32 products 0.96-1.04x, so those keep their order. A product of two float32 is
 * exact in double, so float32 products round about half as often; float64 ones round as often in
 * another order, so they no longer equal numpy's row-at-a-time bits there, and where partial
 * products leave the double range the result depends on the order (numpy's too). */
#define PAIRED_CALL_MIN_ROWS 64
#define PAIRED_CALL_MIN_BYTES 1024
#define PAIRED_CALL(count, acc_bytes)                                                                 \
    ((count) >= PAIRED_CALL_MIN_ROWS && (acc_bytes) > PAIRED_CALL_MIN_BYTES && (acc_bytes) <= UNROLL_MIN_BYTES)
#define SMALL_ACC 4096         /* accumulators this small live on the stack */
#define GIL_FREE_BYTES (1 << 16) /* smaller inputs keep the GIL: releasing it costs more */
#define GROUP_LANES 64         /* short dense rows are regrouped into this many lanes */
#ifndef ROW_PAIRS
#define ROW_PAIRS 1 /* a unit that defines it 0 before including this file has no row pairs */
#endif
#define PAIRED_ROWS_MIN 1024   /* calls of this many rows go in pairs, half of them apart (NAME_rows_of) */
#define SAME_SETS_BYTES 4096   /* rows a multiple of this apart fall in the same L1 sets (64 of 64 bytes) */
#define SAME_SETS(row_stride) ((row_stride) % SAME_SETS_BYTES == 0)
#define PREFETCH_BYTES 4096    /* columns: read this far ahead ... */
#define PREFETCH_ROW_MAX 1024  /* ... in rows this short (rows of 640 floats: 21-23 GB/s with, 25-30 without) */
#define STRIP_ROW_BYTES 512   /* x86-64-v3 column strips: rows this short are held whole in registers */
                              /* (it sets every build's float32 sums' bits too: FLUSHED_SHAPE) */
#define STRIP_WIDE_BYTES (1 << 16) /* ... and float32 sums' rows this long go in strips too */
/* float32 and float16 sums flush even fewer than MIN_ROWS rows that are this short, as the strips
 * do, so every build gives the same bits */
#define FLUSHED_SHAPE(m, s, ISZ) ((s) == (ISZ) && (m) * (ISZ) <= STRIP_ROW_BYTES)

/* Wider SIMD only by runtime dispatch: GCC on x86-64 Linux compiles the hot loops twice, at the
 * baseline and for x86-64-v3 (AVX2, FMA, F16C), and the loader picks one for the CPU it runs on
 * (an ifunc). The lanes are written out in the source and nothing is reassociated or contracted,
 * so both give the same bits. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) && \
    !defined(TYPEDTENSOR_BASELINE_ONLY) /* -DTYPEDTENSOR_BASELINE_ONLY: the default clone alone, to test it */
#define DISPATCH __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define DISPATCH
#endif

/* The kernels of the dtypes models reduce in bulk (float16/32/64, int32, int64) are cloned; the
 * others (in _ckernels_integers.c) are compiled once. */
#define KERNEL_TARGET DISPATCH

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
/* The later value wins only if larger (or NaN): NaN sticks, ties keep the first, as TOSA. Written
 * as a NaN test (rarely taken: predicted) around the plain max, which compiles to one maxss: as one
 * condition it compiled to a branch on the comparison, which mispredicts on random rows (each row's
 * max combined into its result: the blog tensor over (0, 3)). */
#define MAX_NAN(a, b) ((b) != (b) ? (b) : MAX_PLAIN(a, b))
#define MIN_NAN(a, b) ((b) != (b) ? (b) : MIN_PLAIN(a, b))
#define MAX_INT(a, b) ((b) > (a) ? (b) : (a))
#define MIN_INT(a, b) ((b) < (a) ? (b) : (a))
/* Plain max/min (a NaN b keeps a): SSE's maxps/minps, so lanes vectorise; NaN is masked apart. */
#define MAX_PLAIN(a, b) ((b) > (a) ? (b) : (a))
#define MIN_PLAIN(a, b) ((b) < (a) ? (b) : (a))

/* ---- vector lanes: the main loop of float rows, with GCC/clang vector extensions ------------- */

/* SLP vectorisation of the lanes below is fragile (float max/min over rows of 128 stayed scalar:
 * 6 GB/s); written with vector types they run at the memory's speed. Other compilers (and
 * strided rows) use the scalar lanes, which compute the same thing, except float16/float32 sums:
 * their vector lanes add 16 vectors in float32 before each flush into float64, the scalar ones
 * add each element in float64 (the last bits may differ; both within the bound). Each function
 * fills lane[0..L) and nan[0..L) for the full blocks of L elements of a contiguous row and
 * returns how many elements it took. */
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

/* The two ends of a lanes loop NAME_vloop(ps, R, n, L, acc, nan), which leaves the L lanes of each
 * of the R rows ps[k] (one or two) in L / VW vectors acc[k] (and NaN flags in nan[k]): NAME_vmain
 * hands a row's lanes to NAME_lanes's scalar tail and tree; NAME_vtotals, when the vectors took
 * every element, combines each row's in registers in the same tree (lane j with lane j + width,
 * widths halving), so the same bits. The tree through memory cost as much as the loop on rows of
 * 128 floats (the blog tensor over axis 3). Two rows in one loop: NAME_row_pairs. */
#if defined(__clang__)
#define LANE_SWAP(VM, v, ...) __builtin_shufflevector(v, v, __VA_ARGS__)
#else
#define LANE_SWAP(VM, v, ...) __builtin_shuffle(v, (VM){__VA_ARGS__})
#endif
#define VECTOR_TREE4(COMBINE, VM, VA, v)                                                              \
    ({                                                                                                \
        VA t_ = COMBINE((v), LANE_SWAP(VM, (v), 2, 3, 0, 1), VM, VA);                                 \
        COMBINE(t_, LANE_SWAP(VM, t_, 1, 0, 3, 2), VM, VA);                                           \
    })
#define VECTOR_TREE4_OF8(COMBINE, VM, VA, v)                                                          \
    ({                                                                                                \
        VA t_ = COMBINE((v), LANE_SWAP(VM, (v), 2, 3, 0, 1, 6, 7, 4, 5), VM, VA);                     \
        COMBINE(t_, LANE_SWAP(VM, t_, 1, 0, 3, 2, 5, 4, 7, 6), VM, VA);                               \
    })
#define VECTOR_TREE8(COMBINE, VM, VA, v)                                                              \
    ({                                                                                                \
        VA u_ = COMBINE((v), LANE_SWAP(VM, (v), 4, 5, 6, 7, 0, 1, 2, 3), VM, VA);                     \
        VECTOR_TREE4_OF8(COMBINE, VM, VA, u_);                                                        \
    })
#define DEFINE_LANE_ENDS(NAME, VA, VM, VW, A, MASK, COMBINE)                                          \
    INLINE ptrdiff_t NAME##_vmain(const char *p, ptrdiff_t n, const int L, void *lanes, void *nans)   \
    {                                                                                                 \
        VA acc[1][4];                                                                                 \
        VM nan[1][4];                                                                                 \
        ptrdiff_t i = NAME##_vloop(&p, 1, n, L, acc, nan);                                            \
        for (int j = 0; j < L; j++) {                                                                 \
            ((A *)lanes)[j] = acc[0][j / (VW)][j % (VW)];                                             \
            ((MASK *)nans)[j] = (MASK)(nan[0][j / (VW)][j % (VW)] != 0);                              \
        }                                                                                             \
        return i;                                                                                     \
    }                                                                                                 \
    /* whether NAME_vtotals takes two rows of L lanes: at most 4 vectors a row (8 of the 16 AVX2    \
     * registers for both; two rows of float max lanes, 8 vectors each with their NaN flags, spilled: \
     * 0.87x) */                                                                                      \
    INLINE int NAME##_vpairs(const int L) { return L / (VW) <= 4; }                                   \
    INLINE int NAME##_vtotals(const char *const *ps, const int R, ptrdiff_t n, const int L, void *totals) \
    {                                                                                                 \
        VA acc[2][4]; /* R <= 2 rows of L / VW <= 4 vectors */                                        \
        VM nan[2][4];                                                                                 \
        if (n % L != 0 || (R > 1 && !NAME##_vpairs(L)))                                               \
            return 0;                                                                                 \
        NAME##_vloop(ps, R, n, L, acc, nan);                                                          \
        for (int k = 0; k < R; k++) {                                                                 \
            VM any = nan[k][0];                                                                       \
            for (int v = 1; v < L / (VW); v++)                                                        \
                any |= nan[k][v];                                                                     \
            for (int width = L / (VW) / 2; width > 0; width /= 2)                                     \
                for (int v = 0; v < width; v++)                                                       \
                    acc[k][v] = COMBINE(acc[k][v], acc[k][v + width], VM, VA);                        \
            VA tree = VECTOR_TREE##VW(COMBINE, VM, VA, acc[k][0]);                                    \
            any = VECTOR_TREE##VW(COMBINE_OR, VM, VM, any);                                           \
            ((A *)totals)[k] = any[0] ? (A)NAN : tree[0];                                             \
        }                                                                                             \
        return 1;                                                                                     \
    }

/* NAME, vector type VA of VW accumulators, its mask type VM, the accumulator and mask scalar
 * types A and MASK, the input item size, LOADV(p) -> VA, the identity, the vector op as
 * COMBINE(acc, x, mask type, vector type), and whether NaN is masked. */
#define DEFINE_VECTOR_LANES(NAME, VA, VM, VW, A, MASK, ISZ, LOADV, IDENTITY, COMBINE, NAN_MASK)         \
    INLINE ptrdiff_t NAME##_vloop(const char *const *ps, const int R, ptrdiff_t n, const int L, VA acc[][4], VM nan[][4]) \
    {                                                                                                 \
        for (int k = 0; k < R; k++)                                                                   \
            for (int v = 0; v < L / (VW); v++) {                                                      \
                acc[k][v] = (VA){0} + (A)(IDENTITY);                                                  \
                nan[k][v] = (VM){0};                                                                  \
            }                                                                                         \
        ptrdiff_t i = 0;                                                                              \
        for (; i + L <= n; i += L)                                                                    \
            for (int k = 0; k < R; k++)                                                               \
                for (int v = 0; v < L / (VW); v++) {                                                  \
                    VA x = LOADV(ps[k] + (i + v * (VW)) * (ISZ));                                     \
                    acc[k][v] = COMBINE(acc[k][v], x, VM, VA);                                        \
                    if (NAN_MASK)                                                                     \
                        nan[k][v] |= (VM)(x != x);                                                    \
                }                                                                                     \
        return i;                                                                                     \
    }                                                                                                 \
    DEFINE_LANE_ENDS(NAME, VA, VM, VW, A, MASK, COMBINE)
#define COMBINE_ADD(a, x, VM, VA) ((a) + (x))
#define COMBINE_OR(a, x, VM, VA) ((a) | (x))
#define COMBINE_MUL(a, x, VM, VA) ((a) * (x))
#define COMBINE_MAX(a, x, VM, VA) VSELECT(VM, VA, (VM)((x) > (a)), x, a)
#define COMBINE_MIN(a, x, VM, VA) VSELECT(VM, VA, (VM)((x) < (a)), x, a)
DEFINE_VECTOR_LANES(vsum_f64, vdouble, vlong, 4, double, uint8_t, 8, load_vdouble, 0.0, COMBINE_ADD, 0)
DEFINE_VECTOR_LANES(vprod_f32, vdouble, vlong, 4, double, uint8_t, 4, load_vfloat_as_double, 1.0, COMBINE_MUL, 0)
DEFINE_VECTOR_LANES(vprod_f64, vdouble, vlong, 4, double, uint8_t, 8, load_vdouble, 1.0, COMBINE_MUL, 0)
/* float16 products: the lanes of DEFINE_VECTOR_LANES in double, but 8 halves widened at
 * once (the integer work of widening them is most of the loop's cost: 4.6 GB/s 4 at a time). */
#define DEFINE_HALF_LANES(NAME, IDENTITY, COMBINE, LOADV)                                             \
    INLINE ptrdiff_t NAME##_vloop(const char *const *ps, const int R, ptrdiff_t n, const int L, vdouble acc[][4], vlong nan[][4]) \
    {                                                                                                 \
        for (int k = 0; k < R; k++)                                                                   \
            for (int v = 0; v < L / 4; v++) {                                                         \
                acc[k][v] = (vdouble){0} + (IDENTITY);                                                \
                nan[k][v] = (vlong){0};                                                               \
            }                                                                                         \
        ptrdiff_t i = 0;                                                                              \
        for (; i + L <= n; i += L)                                                                    \
            for (int k = 0; k < R; k++)                                                               \
                for (int v = 0; v < L / 8; v++) {                                                     \
                    vfloat x = LOADV(ps[k] + (i + v * 8) * 2);                                        \
                    acc[k][2 * v] = COMBINE(acc[k][2 * v], ((vdouble){x[0], x[1], x[2], x[3]}), vlong, vdouble); \
                    acc[k][2 * v + 1] = COMBINE(acc[k][2 * v + 1], ((vdouble){x[4], x[5], x[6], x[7]}), vlong, vdouble); \
                }                                                                                     \
        return i;                                                                                     \
    }                                                                                                 \
    DEFINE_LANE_ENDS(NAME, vdouble, vlong, 4, double, uint8_t, COMBINE)
/* float16 and float32 sums: lanes of float32 (8 elements per vector), flushed into float64 lanes
 * every FLUSH_ROWS vectors, as the column loops flush their blocks of rows (the same bound; half
 * the adds and no widening to double per element). */
#define DEFINE_FLUSHED_SUM_LANES(NAME, ISZ, LOADV, ADDV)                                              \
    INLINE ptrdiff_t NAME##_vloop(const char *const *ps, const int R, ptrdiff_t n, const int L, vdouble acc[][4], vlong nan[][4]) \
    {                                                                                                 \
        vfloat block[2][2];                                                                           \
        for (int k = 0; k < R; k++)                                                                   \
            for (int v = 0; v < L / 4; v++) {                                                         \
                acc[k][v] = (vdouble){0};                                                             \
                nan[k][v] = (vlong){0};                                                               \
            }                                                                                         \
        ptrdiff_t i = 0;                                                                              \
        while (i + L <= n) {                                                                          \
            for (int k = 0; k < R; k++)                                                               \
                for (int v = 0; v < L / 8; v++)                                                       \
                    block[k][v] = LOADV(ps[k] + (i + v * 8) * (ISZ));                                 \
            i += L;                                                                                   \
            for (int b = 1; b < FLUSH_ROWS && i + L <= n; b++, i += L)                                \
                for (int k = 0; k < R; k++)                                                           \
                    for (int v = 0; v < L / 8; v++)                                                   \
                        block[k][v] = ADDV(block[k][v], LOADV(ps[k] + (i + v * 8) * (ISZ)));          \
            for (int k = 0; k < R; k++)                                                               \
                for (int v = 0; v < L / 8; v++) {                                                     \
                    acc[k][2 * v] += (vdouble){block[k][v][0], block[k][v][1], block[k][v][2], block[k][v][3]}; \
                    acc[k][2 * v + 1] += (vdouble){block[k][v][4], block[k][v][5], block[k][v][6], block[k][v][7]}; \
                }                                                                                     \
        }                                                                                             \
        return i;                                                                                     \
    }                                                                                                 \
    DEFINE_LANE_ENDS(NAME, vdouble, vlong, 4, double, uint8_t, COMBINE_ADD)
DEFINE_FLUSHED_SUM_LANES(vsum_f16, 2, load_vhalf_as_float, ADD)
DEFINE_FLUSHED_SUM_LANES(vsum_f32, 4, load_vfloat, ADD)
DEFINE_HALF_LANES(vprod_f16, 1.0, COMBINE_MUL, load_vhalf_as_float)
DEFINE_VECTOR_LANES(vmax_f16, vfloat, vint, 8, float, int32_t, 2, load_vhalf_as_float, -INFINITY, COMBINE_MAX, 1)
DEFINE_VECTOR_LANES(vmin_f16, vfloat, vint, 8, float, int32_t, 2, load_vhalf_as_float, INFINITY, COMBINE_MIN, 1)
DEFINE_VECTOR_LANES(vmax_f32, vfloat, vint, 8, float, int32_t, 4, load_vfloat, -INFINITY, COMBINE_MAX, 1)
DEFINE_VECTOR_LANES(vmin_f32, vfloat, vint, 8, float, int32_t, 4, load_vfloat, INFINITY, COMBINE_MIN, 1)
DEFINE_VECTOR_LANES(vmax_f64, vdouble, vlong, 4, double, int64_t, 8, load_vdouble, -INFINITY, COMBINE_MAX, 1)
DEFINE_VECTOR_LANES(vmin_f64, vdouble, vlong, 4, double, int64_t, 8, load_vdouble, INFINITY, COMBINE_MIN, 1)

/* Integer sums in unsigned 64-bit lanes: they wrap like numpy's, with no undefined overflow */
typedef uint64_t vulong __attribute__((vector_size(32)));
INLINE vulong load_vint_as_ulong(const char *p)
{
    int32_t v[4];
    memcpy(v, p, sizeof v);
    return (vulong){(uint64_t)(int64_t)v[0], (uint64_t)(int64_t)v[1], (uint64_t)(int64_t)v[2], (uint64_t)(int64_t)v[3]};
}
INLINE vulong load_vuint_as_ulong(const char *p) { uint32_t v[4]; memcpy(v, p, sizeof v); return (vulong){v[0], v[1], v[2], v[3]}; }
INLINE vulong load_vulong(const char *p) { vulong v; memcpy(&v, p, sizeof v); return v; }
DEFINE_VECTOR_LANES(vsum_i32, vulong, vlong, 4, uint64_t, uint8_t, 4, load_vint_as_ulong, 0, COMBINE_ADD, 0)
DEFINE_VECTOR_LANES(vsum_u32, vulong, vlong, 4, uint64_t, uint8_t, 4, load_vuint_as_ulong, 0, COMBINE_ADD, 0)
DEFINE_VECTOR_LANES(vsum_i64, vulong, vlong, 4, uint64_t, uint8_t, 8, load_vulong, 0, COMBINE_ADD, 0)

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
#define VTOTALS(NAME) NAME##_vtotals
#define VPAIRS(NAME) NAME##_vpairs
#else
#define VMAIN(NAME) scalar_vmain
#define VTOTALS(NAME) scalar_vtotals
#define VPAIRS(NAME) scalar_vpairs
#define DEFINE_HALF_STORE(NAME, A, VALUE) DEFINE_STORE(NAME, A, uint16_t, double_to_half(VALUE(a, i, divisor)))
#endif

/* No vector lanes: the scalar main loop takes every block. */
INLINE ptrdiff_t scalar_vmain(const char *p, ptrdiff_t n, const int L, void *lanes, void *nans)
{
    (void)p, (void)n, (void)L, (void)lanes, (void)nans;
    return 0;
}
INLINE int scalar_vtotals(const char *const *ps, const int R, ptrdiff_t n, const int L, void *totals)
{
    (void)ps, (void)R, (void)n, (void)L, (void)totals;
    return 0;
}
INLINE int scalar_vpairs(const int L)
{
    (void)L;
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
/* acc[j] op= x[g][r][j] for each of `groups` groups of `count` rows (ColsFn per group, acc_step 0) */
typedef void (*GroupsFn)(char *acc, const char *p, ptrdiff_t groups, ptrdiff_t group_stride, ptrdiff_t count,
                         ptrdiff_t row_stride, ptrdiff_t m, ptrdiff_t m_stride);

enum { ACC_U64, ACC_DOUBLE, ACC_FLOAT, ACC_NATIVE, ACC_FLAG };

typedef struct {
    int acc_size, acc_kind;
    InitFn init;
    RowsFn rows;
    ColsFn cols;
    MergeFn merge;
    GroupsFn groups; /* the column strips' (several calls of few rows, one load of the accumulators), or NULL */
} Ops;

/* In NAME_cols_of (whose r, count, p, row_stride, m, s and a it uses): rows r, r + 1, ... of the
 * `count` at p combined K at a time into a[0..m), in row order (one pass over the accumulators per
 * K rows); one `for` statement */
#define ROWS_PER_PASS(K, A, OP, LOAD)                                                                 \
    for (; r + (K) <= count; r += (K)) {                                                              \
        const char *q = p + r * row_stride;                                                           \
        for (ptrdiff_t j = 0; j < m; j++) {                                                           \
            A v = a[j];                                                                               \
            for (int k = 0; k < (K); k++)                                                             \
                v = OP(v, LOAD(q + k * row_stride + j * s));                                          \
            a[j] = v;                                                                                 \
        }                                                                                             \
    }
/* The orders a kernel family combines elements in, where it has a choice (ORDER: IN_ORDER, or either
 * or both of the others) */
#define IN_ORDER 0       /* each row's elements in its lanes, each column's rows in order */
#define PAIRWISE_ROWS 1  /* long rows in pairwise blocks of ROW_BLOCK (float64 sums, means in double) */
#define PAIRED_COLUMNS 2 /* a column's rows r and half + r combined first (PAIRED_CALL) */
/* One kernel family: NAME, input size ISZ, accumulator A, LOAD(p) -> A, the identity, OP(a, b)
 * (NaN-sticky for float max/min), the ORDER its rows and columns combine in, the number of lanes a
 * row is reduced in, and for float max/min LANE_OP (plain, so it vectorises) with a NaN mask of
 * integer type MASK (same width as A) that makes the row's result NaN. */
#define DEFINE_KERNEL_FULL(NAME, ISZ, A, LOAD, IDENTITY, OP, ORDER, NLANES, LANE_OP, NAN_MASK, MASK, VMAIN_FN, VTOTALS_FN, VPAIRS_FN) \
    static void NAME##_init(char *acc, ptrdiff_t n)                                                   \
    {                                                                                                 \
        A *a = (A *)acc;                                                                              \
        for (ptrdiff_t i = 0; i < n; i++)                                                             \
            a[i] = IDENTITY;                                                                          \
    }                                                                                                 \
    INLINE A NAME##_lanes(const char *p, ptrdiff_t n, ptrdiff_t s, const int L)                       \
    {                                                                                                 \
        A total;                                                                                      \
        if (s == (ISZ) && VTOTALS_FN(&p, 1, n, L, &total)) /* all in vectors, combined in registers */ \
            return total;                                                                             \
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
        for (int width = L / 2; width > 0; width /= 2) /* the mask decides NaN, not the lanes */      \
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
        /* Float max and min (NAN_MASK) take all their lanes (four AVX2 vectors, two AVX-512: one \
         * vector's chain of compares was the limit) where the vectors take the whole row and     \
         * combine in registers; the lanes change nothing but the sign of a zero result. Elsewhere \
         * short rows take 8 lanes and long ones 16: their tree goes through memory, and costs less \
         * than the row. (NAME_whole_lanes repeats this choice for the row pairs.) */              \
        if ((NAN_MASK) && s == (ISZ) && n % (NLANES) == 0)                                           \
            return NAME##_lanes(p, n, s, NLANES);                                                     \
        if (n < SHORT_ROW)                                                                            \
            return NAME##_lanes(p, n, s, 8);                                                          \
        if (!((ORDER) & PAIRWISE_ROWS) || n <= ROW_BLOCK)                                             \
            return NAME##_lanes(p, n, s, (NAN_MASK) ? 16 : NLANES);                                   \
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
    /* The lanes NAME_row takes a contiguous row of n elements in, if the vectors take it whole in \
     * one NAME_lanes (the tree in registers), else 0: NAME_row's choice, which it must follow (a pair \
     * of rows in other lanes than one row alone would give other bits) */                            \
    INLINE int NAME##_whole_lanes(ptrdiff_t n)                                                        \
    {                                                                                                 \
        int L = (NAN_MASK) && n % (NLANES) == 0              ? (NLANES)                               \
                : n < SHORT_ROW                                 ? 8                                   \
                : !((ORDER) & PAIRWISE_ROWS) || n <= ROW_BLOCK  ? ((NAN_MASK) ? 16 : (NLANES))        \
                                                                : 0;                                  \
        return L && n % L == 0 ? L : 0;                                                               \
    }                                                                                                 \
    /* Rows into accumulators of their own, in pairs half the rows apart, each pair in one lanes      \
     * loop: a row's lanes are chains of dependent ops (a row of 128 floats: 16 adds in 8 lanes), and \
     * two rows' chains run side by side. Each row's lanes and tree are its own, so the same bits.    \
     * A/B over the blog tensor's (0, 3) (calls of 1280 rows of 128): float32 sums 1.11x, products     \
     * 1.25x, float64 sums 1.07x, float16 sums and means 1.08x. Calls of 256-512 rows ((3,): two      \
     * streams of 64-128 KiB) measured 0.94-0.98x (PAIRED_ROWS_MIN), rows next to each other 0.3x    \
     * (standalone: the prefetcher); float max and min take none (NAME_row_pairs). Returns the rows   \
     * it took: 2 * half, or 0. */                                                                    \
    INLINE ptrdiff_t NAME##_row_pairs_of(char *acc, ptrdiff_t acc_step, const char *p, ptrdiff_t count, \
                                         ptrdiff_t row_stride, ptrdiff_t n, const int L)              \
    {                                                                                                 \
        ptrdiff_t half = count / 2;                                                                   \
        for (ptrdiff_t r = 0; r < half; r++) {                                                        \
            const char *rows[2] = {p + r * row_stride, p + (r + half) * row_stride};                  \
            A value[2];                                                                               \
            /* it declines on n, L and R alone (and NAME_vpairs said yes): at the first pair, or never */ \
            if (!VTOTALS_FN(rows, 2, n, L, value))                                                    \
                return 0;                                                                             \
            A *a = (A *)(acc + r * acc_step), *b = (A *)(acc + (r + half) * acc_step);                \
            *a = OP(*a, value[0]);                                                                    \
            *b = OP(*b, value[1]);                                                                    \
        }                                                                                             \
        return 2 * half;                                                                              \
    }                                                                                                 \
    INLINE ptrdiff_t NAME##_row_pairs(char *acc, ptrdiff_t acc_step, const char *p, ptrdiff_t count,  \
                                      ptrdiff_t row_stride, ptrdiff_t n)                              \
    {                                                                                                 \
        if ((NAN_MASK) || !(ROW_PAIRS) || acc_step == 0 || count < PAIRED_ROWS_MIN)                   \
            return 0; /* float max and min: their lanes with NaN flags declined two rows, or measured \
                       * 0.98-1.0x (float16 over (0, 3)); without them, 2.3 s less to compile */   \
        int L = NAME##_whole_lanes(n); /* as a constant: the vectors stay in registers */            \
        if (L == 8 && VPAIRS_FN(8))                                                                   \
            return NAME##_row_pairs_of(acc, acc_step, p, count, row_stride, n, 8);                    \
        if (L == 16 && VPAIRS_FN(16))                                                                 \
            return NAME##_row_pairs_of(acc, acc_step, p, count, row_stride, n, 16);                   \
        if (L == (NLANES) && VPAIRS_FN(NLANES)) /* 32, or the 16 above */                             \
            return NAME##_row_pairs_of(acc, acc_step, p, count, row_stride, n, (NLANES));             \
        return 0;                                                                                     \
    }                                                                                                 \
    INLINE void NAME##_rows_of(char *acc, ptrdiff_t acc_step, const char *p, ptrdiff_t count,         \
                               ptrdiff_t row_stride, ptrdiff_t n, ptrdiff_t s)                        \
    {                                                                                                 \
        ptrdiff_t paired = s == (ISZ) ? NAME##_row_pairs(acc, acc_step, p, count, row_stride, n) : 0;  \
        acc += paired * acc_step, p += paired * row_stride, count -= paired; /* the rest, if any */   \
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
    KERNEL_TARGET static void NAME##_rows(char *acc, ptrdiff_t acc_step, const char *p, ptrdiff_t count,   \
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
        if (acc_step == 0 && m * (ptrdiff_t)sizeof(A) > UNROLL_MIN_BYTES) { /* several rows per pass */ \
            A *RESTRICT a = (A *)acc;                                                                 \
            if (sizeof(A) > (ISZ)) /* widened: the accumulators cost more per row */                  \
                ROWS_PER_PASS(8, A, OP, LOAD)                                                         \
            ROWS_PER_PASS(4, A, OP, LOAD)                                                             \
        } else if (((ORDER) & PAIRED_COLUMNS) && acc_step == 0 && PAIRED_CALL(count, m * (ptrdiff_t)sizeof(A))) { \
            A *RESTRICT a = (A *)acc;                                                                 \
            ptrdiff_t half = count / 2;                                                               \
            for (; r < half; r++) {                                                                   \
                const char *q = p + r * row_stride, *partner = q + half * row_stride;                 \
                for (ptrdiff_t j = 0; j < m; j++)                                                     \
                    a[j] = OP(a[j], OP(LOAD(q + j * s), LOAD(partner + j * s)));                      \
            }                                                                                         \
            r = 2 * half; /* an odd count's last row: below */                                        \
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
    KERNEL_TARGET static void NAME##_cols(char *acc, ptrdiff_t acc_step, const char *p, ptrdiff_t count,   \
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
#define DEFINE_KERNEL(NAME, ISZ, A, LOAD, IDENTITY, OP, ORDER)                                        \
    DEFINE_KERNEL_FULL(NAME, ISZ, A, LOAD, IDENTITY, OP, ORDER, 16, OP, 0, uint8_t, scalar_vmain, scalar_vtotals, scalar_vpairs)
#define DEFINE_VECTOR_KERNEL(NAME, ISZ, A, LOAD, IDENTITY, OP, ORDER, VNAME)                           \
    DEFINE_KERNEL_FULL(NAME, ISZ, A, LOAD, IDENTITY, OP, ORDER, 16, OP, 0, uint8_t, VMAIN(VNAME), VTOTALS(VNAME), VPAIRS(VNAME))
#define DEFINE_FLOAT_EXTREME(NAME, ISZ, A, LOAD, IDENTITY, OP, LANE_OP, MASK, VNAME)                   \
    DEFINE_KERNEL_FULL(NAME, ISZ, A, LOAD, IDENTITY, OP, IN_ORDER, 128 / (int)sizeof(A), LANE_OP, 1, MASK, VMAIN(VNAME), VTOTALS(VNAME), VPAIRS(VNAME))

#define OPS(NAME, A, KIND) {(int)sizeof(A), KIND, NAME##_init, NAME##_rows, NAME##_cols, NAME##_merge}
/* ... with the column loop of the strips STRIP (x86-64-v3/v4) */
#define OPS_OF(NAME, A, KIND, COLS, GROUPS) OPS_WITH_ROWS(NAME, A, KIND, NAME##_rows, COLS, GROUPS)
/* ... and a row loop of its own, ROWS */
#define OPS_WITH_ROWS(NAME, A, KIND, ROWS, COLS, GROUPS) {(int)sizeof(A), KIND, NAME##_init, ROWS, COLS, NAME##_merge, GROUPS}
#define STRIP_OPS(NAME, A, KIND, STRIP) OPS_OF(NAME, A, KIND, STRIP##_cols, STRIP##_groups)
#define FLUSHED_OPS(NAME) {(int)sizeof(double), ACC_DOUBLE, NAME##_init, NAME##_rows, NAME##_flushed_cols, NAME##_merge}

/* Sums and products of integers and bools in 64 bits; sums and means of anything in double (int32
 * means are int32 sums, _ckernels_integers.c). */
#define INTEGER_FAMILY(NAME, TYPE, LOAD)                                                              \
    DEFINE_KERNEL(sum_##NAME, sizeof(TYPE), uint64_t, LOAD, 0, ADD, IN_ORDER)                         \
    DEFINE_KERNEL(prod_##NAME, sizeof(TYPE), uint64_t, LOAD, 1, MUL, IN_ORDER)
#define SIGNED_LOAD(TYPE) static inline uint64_t load_u64_##TYPE(const char *p) { return LOAD_SIGNED(TYPE, p); }
#define UNSIGNED_LOAD(TYPE) static inline uint64_t load_u64_##TYPE(const char *p) { return LOAD_UNSIGNED(TYPE, p); }
SIGNED_LOAD(int8_t) SIGNED_LOAD(int16_t) SIGNED_LOAD(int32_t) SIGNED_LOAD(int64_t)
UNSIGNED_LOAD(uint8_t) UNSIGNED_LOAD(uint16_t) UNSIGNED_LOAD(uint32_t) UNSIGNED_LOAD(uint64_t)
static inline uint64_t load_u64_bool(const char *p) { return LOAD_BOOL_U64(p); }

/* 32- and 64-bit sums in vector lanes of 64 bits (wrapping is the same in any order) */
#define VECTOR_INTEGER_SUM(NAME, TYPE, LOAD)                                                          \
    DEFINE_VECTOR_KERNEL(sum_##NAME, sizeof(TYPE), uint64_t, LOAD, 0, ADD, PAIRED_COLUMNS, vsum_##NAME)
#define INTEGER_PROD(NAME, TYPE, LOAD) DEFINE_KERNEL(prod_##NAME, sizeof(TYPE), uint64_t, LOAD, 1, MUL, IN_ORDER)

#define DOUBLE_LOAD(NAME, TYPE) static inline double load_d_##NAME(const char *p) { return LOAD_DOUBLE(TYPE, p); }
DOUBLE_LOAD(i8, int8_t) DOUBLE_LOAD(u8, uint8_t) DOUBLE_LOAD(i16, int16_t) DOUBLE_LOAD(u16, uint16_t)
DOUBLE_LOAD(i32, int32_t) DOUBLE_LOAD(u32, uint32_t) DOUBLE_LOAD(i64, int64_t) DOUBLE_LOAD(u64, uint64_t)
DOUBLE_LOAD(f32, float) DOUBLE_LOAD(f64, double)
static inline double load_d_b(const char *p) { return (double)LOAD_BOOL(p); }
static inline double load_d_f16(const char *p) { return LOAD_HALF_DOUBLE(p); }

#define DOUBLE_SUM(NAME, ISZ) DEFINE_KERNEL(dsum_##NAME, ISZ, double, load_d_##NAME, 0.0, ADD, PAIRWISE_ROWS)

/* max and min keep the input type (float16 compares as float). */
#define NATIVE_LOAD(TYPE) static inline TYPE load_##TYPE(const char *p) { return LOAD_AS(TYPE, p); }
NATIVE_LOAD(int8_t) NATIVE_LOAD(uint8_t) NATIVE_LOAD(int16_t) NATIVE_LOAD(uint16_t) NATIVE_LOAD(int32_t)
NATIVE_LOAD(uint32_t) NATIVE_LOAD(int64_t) NATIVE_LOAD(uint64_t) NATIVE_LOAD(float) NATIVE_LOAD(double)
static inline uint8_t load_flag(const char *p) { return LOAD_BOOL(p); }
static inline float load_half(const char *p) { return LOAD_HALF(p); }

#define EXTREMES(NAME, TYPE, LOAD, LOW, HIGH, MAX, MIN)                                               \
    DEFINE_KERNEL(max_##NAME, sizeof(TYPE), TYPE, LOAD, LOW, MAX, IN_ORDER)                           \
    DEFINE_KERNEL(min_##NAME, sizeof(TYPE), TYPE, LOAD, HIGH, MIN, IN_ORDER)

/* any and all: whether elements are nonzero. */
#define NONZERO_LOAD(NAME, TYPE) static inline uint8_t nonzero_##NAME(const char *p) { return NONZERO(TYPE, p); }
NONZERO_LOAD(b, uint8_t) NONZERO_LOAD(i8, int8_t) NONZERO_LOAD(u8, uint8_t) NONZERO_LOAD(i16, int16_t)
NONZERO_LOAD(u16, uint16_t) NONZERO_LOAD(i32, int32_t) NONZERO_LOAD(u32, uint32_t) NONZERO_LOAD(i64, int64_t)
NONZERO_LOAD(u64, uint64_t) NONZERO_LOAD(f32, float) NONZERO_LOAD(f64, double)
static inline uint8_t nonzero_f16(const char *p) { return NONZERO_HALF(p); }
#define LOGICAL(NAME, ISZ)                                                                            \
    DEFINE_KERNEL(any_##NAME, ISZ, uint8_t, nonzero_##NAME, 0, OR, IN_ORDER)                          \
    DEFINE_KERNEL(all_##NAME, ISZ, uint8_t, nonzero_##NAME, 1, AND, IN_ORDER)

/* ---- column strips: macros for the regions compiled for x86-64-v3 and v4 (both units) ---- */

/* Loops compiled for x86-64-v3 and x86-64-v4 only, chosen when the module loads (GCC on x86-64
 * Linux): the column strips of _ckernels.c and _ckernels_integers.c, and the F16C loops. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__linux__) &&          \
    !defined(TYPEDTENSOR_BASELINE_ONLY) && defined(VECTOR_LANES)
#include <immintrin.h>
#define V3_LOOPS 1
#define STRIP_VECTORS 16      /* float32 sums: a row of STRIP_ROW_BYTES in all 16 registers */
#define SMALL_STRIP_VECTORS 8 /* where loads or compares need registers of their own */
#define STRIP_ROW_BYTES_V4 1024 /* AVX-512: rows this short held whole in 16 of the 32 registers */
#define WHOLE_ROW_V4(m, ACC_SIZE) ((m) * (ACC_SIZE) <= STRIP_ROW_BYTES_V4) /* m accumulators of ACC_SIZE */
/* the strips' sizes leave paired calls to the generic loops (their conditions must too: the digest
 * test checks the bits; int32 sums' AVX-512 strips take them, exact in any order) */
_Static_assert(STRIP_ROW_BYTES_V4 <= PAIRED_CALL_MIN_BYTES &&
                   STRIP_ROW_BYTES / sizeof(float) * sizeof(double) <= PAIRED_CALL_MIN_BYTES,
               "the strips (AVX-512, and float32 widened to double in AVX2) hold no paired call's accumulators");
/* Strips loop over their vectors fully unrolled, so the vectors stay in registers (GCC 12 left a
 * 16-vector strip of int64 accumulators on the stack, one load and store per vector and row) */
#define UNROLLED _Pragma("GCC unroll 16")
/* Column j of `groups` groups of `rows` rows, group_stride apart, as NAME_column does one group */
#define DEFINE_GROUP_COLUMN(NAME, A)                                                                  \
    INLINE void NAME##_group_column(A *acc, const char *q, ptrdiff_t groups, ptrdiff_t group_stride,  \
                                    ptrdiff_t rows, ptrdiff_t row_stride, ptrdiff_t j)                \
    {                                                                                                 \
        for (ptrdiff_t g = 0; g < groups; g++)                                                        \
            NAME##_column(acc, q + g * group_stride, rows, row_stride, j);                            \
    }
/* Ops that combine in the accumulators' type (products, max, min, float64 and int32 sums): a
 * strip's accumulators loaded, combined with each row of each group in turn in vectors VA of L
 * lanes, stored back. */
#define DEFINE_KEPT_STRIP(NAME, VA, A, L, LOADA, STOREA, ISZ, LOADV, LOAD1, COMBINEV, OP1)            \
    INLINE void NAME##_group_strip(A *acc, const char *q, ptrdiff_t groups, ptrdiff_t group_stride,   \
                                   ptrdiff_t rows, ptrdiff_t row_stride, ptrdiff_t j, const int vectors) \
    {                                                                                                 \
        VA kept[STRIP_VECTORS];                                                                       \
        UNROLLED for (int k = 0; k < vectors; k++)                                                    \
            kept[k] = LOADA(acc + j + (L) * k);                                                       \
        for (ptrdiff_t g = 0; g < groups; g++) {                                                      \
            const char *row = q + g * group_stride + (ISZ) * j;                                       \
            for (ptrdiff_t r = 0; r < rows; r++, row += row_stride)                                   \
                UNROLLED for (int k = 0; k < vectors; k++)                                            \
                    kept[k] = COMBINEV(kept[k], LOADV(row + (L) * (ISZ) * k));                        \
        }                                                                                             \
        UNROLLED for (int k = 0; k < vectors; k++)                                                    \
            STOREA(acc + j + (L) * k, kept[k]);                                                       \
    }                                                                                                 \
    INLINE void NAME##_column(A *acc, const char *q, ptrdiff_t rows, ptrdiff_t row_stride, ptrdiff_t j) \
    {                                                                                                 \
        for (ptrdiff_t r = 0; r < rows; r++)                                                          \
            acc[j] = OP1(acc[j], LOAD1(q + r * row_stride + (ISZ) * j));                              \
    }                                                                                                 \
    DEFINE_GROUP_COLUMN(NAME, A)
#define STRIP_MUL(a, x) ((a) * (x))
#define KEPT_STRIP(...) DEFINE_KEPT_STRIP(__VA_ARGS__) /* expands packs of arguments first */
/* The `count` rows at p of each of `groups` groups group_stride apart, m contiguous columns of ISZ
 * bytes, in blocks of FLUSH_ROWS rows (so a strip's rows stay close; groups of more rows are not
 * taken), each block in strips of WIDE vectors of LANES columns, then of fewer, then single
 * columns. */
#define STRIPS(NAME, WIDE, LANES, ISZ, a, p, groups, group_stride, count, row_stride, m)              \
    for (ptrdiff_t r0 = 0; r0 < (count); r0 += FLUSH_ROWS) {                                          \
        ptrdiff_t rows = (count) - r0 < FLUSH_ROWS ? (count) - r0 : FLUSH_ROWS, j = 0;                \
        const char *q = (p) + r0 * (row_stride);                                                      \
        for (; j + (LANES) * (WIDE) <= (m); j += (LANES) * (WIDE))                                    \
            NAME##_group_strip(a, q, groups, group_stride, rows, row_stride, j, WIDE);                \
        for (int width = (WIDE) / 2; width >= 1; width /= 2) {                                        \
            if (j + (LANES) * width > (m))                                                            \
                continue;                                                                             \
            switch (width) { /* constant counts: the strips' vectors stay in registers */             \
            case 8: NAME##_group_strip(a, q, groups, group_stride, rows, row_stride, j, 8); break;    \
            case 4: NAME##_group_strip(a, q, groups, group_stride, rows, row_stride, j, 4); break;    \
            case 2: NAME##_group_strip(a, q, groups, group_stride, rows, row_stride, j, 2); break;    \
            case 1: NAME##_group_strip(a, q, groups, group_stride, rows, row_stride, j, 1); break;    \
            default: __builtin_unreachable(); /* widths are powers of two */                          \
            }                                                                                         \
            j += (LANES) * width;                                                                     \
        }                                                                                             \
        for (; j < (m); j++)                                                                          \
            NAME##_group_column(a, q, groups, group_stride, rows, row_stride, j);                     \
    }
/* NAME_cols: the strips of STRIP where the rows go into one row of accumulators, the columns are
 * contiguous and WHEN holds (of count and m), else FALLBACK, the block loops. NAME_groups: the
 * same for `groups` groups of `count` rows, group_stride apart, in one pass (kept strips load and
 * store their accumulators once for all the groups), where NAME_cols would take each group to the
 * strips, else NAME_cols per group: either way each column sees the rows in the same order, so the
 * same bits as a call per group. */
#define DEFINE_STRIP_COLS_OF(NAME, STRIP, A, WIDE, LANES, ISZ, WHEN, FALLBACK)                      \
    KERNEL_TARGET static void NAME##_cols(char *acc, ptrdiff_t acc_step, const char *p, ptrdiff_t count, \
                                          ptrdiff_t row_stride, ptrdiff_t m, ptrdiff_t s)             \
    {                                                                                                 \
        _Static_assert((WIDE) <= STRIP_VECTORS && ((WIDE) & ((WIDE) - 1)) == 0, "strips of 1 to 16 vectors, a power of two"); \
        if (acc_step != 0 || s != (ISZ) || !(WHEN)) {                                                 \
            FALLBACK(acc, acc_step, p, count, row_stride, m, s);                                      \
            return;                                                                                   \
        }                                                                                             \
        A *a = (A *)acc;                                                                              \
        STRIPS(STRIP, WIDE, LANES, ISZ, a, p, 1, 0, count, row_stride, m)                             \
    }                                                                                                 \
    __attribute__((unused)) /* the strips of the rows between: only ever a fallback's cols */        \
    KERNEL_TARGET static void NAME##_groups(char *acc, const char *p, ptrdiff_t groups, ptrdiff_t group_stride, \
                                            ptrdiff_t count, ptrdiff_t row_stride, ptrdiff_t m, ptrdiff_t s) \
    {                                                                                                 \
        if (s != (ISZ) || count > FLUSH_ROWS || !(WHEN)) {                                            \
            for (ptrdiff_t g = 0; g < groups; g++)                                                    \
                NAME##_cols(acc, 0, p + g * group_stride, count, row_stride, m, s);                   \
            return;                                                                                   \
        }                                                                                             \
        A *a = (A *)acc;                                                                              \
        STRIPS(STRIP, WIDE, LANES, ISZ, a, p, groups, group_stride, count, row_stride, m)             \
    }
#define DEFINE_STRIP_COLS(NAME, ...) DEFINE_STRIP_COLS_OF(NAME, NAME, __VA_ARGS__)
/* Block loops in AVX-512 over accumulators wider than UNROLL_MIN_BYTES (one row of them, contiguous
 * columns; narrower ones, or other layouts: FALLBACK): BLOCK_PASS_ROWS rows per pass combined into
 * them in steps of VECTORS vectors, then of one (VECTORS > 1), the last columns one at a time. Each
 * column sees the rows in order, as in the generic loops, so the same bits. Float max and min there
 * compiled to 12 instructions per 8 floats (a select), these to 5 per 16. A/B over the blog
 * tensor's (0,) (UNROLL_MIN_BYTES), four rows per pass and one vector: float max/min 1.09-1.15x,
 * float64 sums, means and products 1.04-1.09x, float32 products 0.92x; then (session 31) steps of
 * four vectors 1.05-1.08x, and eight rows per pass 1.03-1.22x more (float max/min 1.21-1.31x in
 * all, float32 products in the block loops 1.23-1.30x; int32 sums: four vectors 0.72x, two 1.02x,
 * so one). Over rows of 640 ((1,), (0, 1): accumulators of 2.5-5 KiB) four rows per pass measured
 * 0.62-0.68x for float64, one 0.84-0.89x for float32 max: there float max/min take the halves
 * (_ckernels.c), the others the generic loops (float32 products in these: 0.78-0.88x, session 31;
 * float32 and float64 products, float64 sums and means and integer sums there pair their rows,
 * PAIRED_CALL). */
#define BLOCK_PASS_ROWS 8
#define DEFINE_ZMM_BLOCK_COLS(NAME, V, A, L, LOADA, STOREA, ISZ, LOADV, LOAD1, COMBINEV, OP1, VECTORS, FALLBACK) \
    KERNEL_TARGET static void NAME##_block_cols(char *acc, ptrdiff_t acc_step, const char *p, ptrdiff_t count, \
                                                ptrdiff_t row_stride, ptrdiff_t m, ptrdiff_t s)       \
    {                                                                                                 \
        if (acc_step != 0 || s != (ISZ) || m * (ptrdiff_t)sizeof(A) <= UNROLL_MIN_BYTES) {             \
            FALLBACK(acc, acc_step, p, count, row_stride, m, s);                                      \
            return;                                                                                   \
        }                                                                                             \
        A *a = (A *)acc;                                                                              \
        for (ptrdiff_t r = 0; r < count; r += BLOCK_PASS_ROWS) {                                      \
            ptrdiff_t rows = count - r < BLOCK_PASS_ROWS ? count - r : BLOCK_PASS_ROWS, j = 0;        \
            const char *q = p + r * row_stride;                                                       \
            for (; j + (VECTORS) * (L) <= m; j += (VECTORS) * (L)) {                                  \
                V v[VECTORS];                                                                         \
                UNROLLED for (int u = 0; u < (VECTORS); u++)                                          \
                    v[u] = LOADA(a + j + u * (L));                                                    \
                for (ptrdiff_t k = 0; k < rows; k++)                                                  \
                    UNROLLED for (int u = 0; u < (VECTORS); u++)                                      \
                        v[u] = COMBINEV(v[u], LOADV(q + k * row_stride + (ISZ) * (j + u * (L))));     \
                UNROLLED for (int u = 0; u < (VECTORS); u++)                                          \
                    STOREA(a + j + u * (L), v[u]);                                                    \
            }                                                                                         \
            for (; (VECTORS) > 1 && j + (L) <= m; j += (L)) {                                         \
                V v = LOADA(a + j);                                                                   \
                for (ptrdiff_t k = 0; k < rows; k++)                                                  \
                    v = COMBINEV(v, LOADV(q + k * row_stride + (ISZ) * j));                           \
                STOREA(a + j, v);                                                                     \
            }                                                                                         \
            for (; j < m; j++)                                                                        \
                for (ptrdiff_t k = 0; k < rows; k++)                                                  \
                    a[j] = OP1(a[j], LOAD1(q + k * row_stride + (ISZ) * j));                          \
        }                                                                                             \
    }
#endif

/* The kernels of _ckernels_integers.c, by op and input type (zero where _ckernels.c has them), and
 * those whose columns run in AVX-512 strips (zero elsewhere), chosen where the CPU has x86-64-v4. */
extern const Ops integer_ops[N_OPS][N_TYPES];
extern const Ops integer_v4_ops[N_OPS][N_TYPES];
extern const Ops int32_double_mean;

#endif
