/* The two loops every UPDATE_PAGE_TABLE spends its time in: the pass over the
 * DXGK_PTE array that validation needs, and the encoding of the entries into GPU
 * PTEs, plus their fusion (one pass that encodes while it summarises, for the DMA
 * path, where a refused call may leave scratch in the unused tail of the buffer).
 * All read 16 bytes per entry (twice what a memcpy of the output reads), so all
 * are vectorised: with SSE2 on x64, which the x64 kernel allows without saving
 * state; with AVX2 when the engine saved the extended state for a large call
 * (pb_pte_ctx.wide); with NEON on arm64; and in plain C with the same results
 * elsewhere (tests run all four, arm64 under qemu). On x64 the payload loops
 * also have a form with non-temporal stores, for paging buffers too large to
 * stay in the cache (pb_pte_ctx.stream; pb_config.stream_min_bytes says why). */
#include "pb_internal.h"

#if (defined(_M_X64) || defined(_M_AMD64) || defined(__x86_64__)) && !defined(_M_ARM64EC) && !defined(PB_NO_SIMD)
#define PB_SSE2 1
#include <emmintrin.h>
#else
#define PB_SSE2 0
#endif

/* arm64 (not ARM64EC, which runs the x64 ABI): NEON, which arm64 kernel code
 * may use without saving state (the compilers themselves emit it there, for
 * structure copies). vld2q_u64 splits two entries into their flag words and
 * their page numbers as it loads them, so no unpack is needed. */
#if (defined(_M_ARM64) || defined(__aarch64__)) && !defined(_M_ARM64EC) && !defined(PB_NO_SIMD)
#define PB_NEON 1
#include <arm_neon.h>
#else
#define PB_NEON 0
#endif

/* AVX2 functions carry a target attribute, so the engine builds without -mavx2
 * (or /arch:AVX2) and runs the 256-bit loops only where the engine chose to:
 * after CPUID said AVX2 is there and the backend saved the extended state. */
#if PB_SSE2 && !defined(PB_NO_AVX2)
#define PB_AVX2 1
#include <immintrin.h>
#if defined(__clang__) && defined(_MSC_VER) && !defined(__AVX2__)
/* clang before 15 in MSVC mode leaves the AVX headers out of immintrin.h
 * unless -mavx is given; MSVC itself always declares them. */
#include <avxintrin.h>
#include <avx2intrin.h>
#endif
#if defined(__GNUC__) || defined(__clang__)
#define PB_TARGET_AVX2 __attribute__((target("avx2")))
#define PB_TARGET_XSAVE __attribute__((target("xsave")))
#else
#define PB_TARGET_AVX2
#define PB_TARGET_XSAVE
#endif
#else
#define PB_AVX2 0
#endif

#if PB_SSE2
/* clang (in MSVC mode too) takes cpuid.h: its intrin.h declares __readcr8 with
 * another type than older kits' wdm.h does (10.0.14393.0), a conflict in any
 * translation unit that includes both. */
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#else
#include <cpuid.h>
#endif
#endif

/* ---- CPU features ------------------------------------------------------------- */

#if PB_SSE2
static void pb_cpuid_sub(int leaf, int sub, int r[4])
{
#if defined(_MSC_VER) && !defined(__clang__)
    __cpuidex(r, leaf, sub);
#else
    unsigned a, b, c, d;
    __cpuid_count((unsigned)leaf, (unsigned)sub, a, b, c, d);
    r[0] = (int)a;
    r[1] = (int)b;
    r[2] = (int)c;
    r[3] = (int)d;
#endif
}

static void pb_cpuid(int leaf, int r[4])
{
    pb_cpuid_sub(leaf, 0, r);
}
#endif

#if PB_AVX2
PB_TARGET_XSAVE static uint64_t pb_xcr0(void)
{
    return (uint64_t)_xgetbv(0);
}
#endif

uint32_t pb_cpu_has_avx2(void)
{
#if PB_AVX2
    int r[4];
    pb_cpuid(0, r);
    if (r[0] < 7)
        return 0;
    pb_cpuid(1, r);
    if (!(r[2] & (1 << 27)) || !(r[2] & (1 << 28))) /* OSXSAVE and AVX */
        return 0;
    if ((pb_xcr0() & 6u) != 6u) /* the OS context-switches XMM and YMM state */
        return 0;
    pb_cpuid(7, r);
    return (uint32_t)((unsigned)r[1] >> 5) & 1u;
#else
    return 0;
#endif
}

#if PB_SSE2
/* Bytes of the data or unified cache at `level` in the deterministic cache
 * parameters of `leaf`: leaf 4 (Intel; zero on AMD) and 0x8000001D (AMD with
 * TOPOEXT) share one layout, one subleaf per cache. 0 when none is listed. */
static uint64_t cache_bytes_in_leaf(int leaf, uint32_t level)
{
    int r[4], sub;
    for (sub = 0; sub < 16; sub++) {
        uint32_t type, ways, parts, line, sets;
        pb_cpuid_sub(leaf, sub, r);
        type = (uint32_t)r[0] & 0x1Fu;
        if (type == 0) /* no more caches */
            break;
        if (type == 2 || (((uint32_t)r[0] >> 5) & 7u) != level) /* instruction cache, or another level */
            continue;
        ways = ((uint32_t)r[1] >> 22) + 1u;
        parts = (((uint32_t)r[1] >> 12) & 0x3FFu) + 1u;
        line = ((uint32_t)r[1] & 0xFFFu) + 1u;
        sets = (uint32_t)r[2] + 1u;
        return (uint64_t)ways * parts * line * sets;
    }
    return 0;
}
#endif

uint64_t pb_cpu_cache_bytes(uint32_t level)
{
#if PB_SSE2
    int r[4];
    uint64_t bytes = 0;
    uint32_t max_ext;
    pb_cpuid(0, r);
    if (r[0] >= 4)
        bytes = cache_bytes_in_leaf(4, level);
    if (bytes)
        return bytes;
    pb_cpuid((int)0x80000000u, r);
    max_ext = (uint32_t)r[0];
    if (max_ext >= 0x8000001Du) {
        pb_cpuid((int)0x80000001u, r);
        if ((uint32_t)r[2] & (1u << 22)) /* TOPOEXT */
            bytes = cache_bytes_in_leaf((int)0x8000001Du, level);
    }
    if (bytes || max_ext < 0x80000006u || level < 2u || level > 3u)
        return bytes;
    /* Older AMD parts: L2 in KiB in ECX[31:16], L3 in 512 KiB units in EDX[31:18]. */
    pb_cpuid((int)0x80000006u, r);
    return level == 2u ? (uint64_t)((uint32_t)r[2] >> 16) << 10 : (uint64_t)((uint32_t)r[3] >> 18) << 19;
#else
    (void)level;
    return 0;
#endif
}

void pb_pte_stream_fence(void)
{
#if PB_SSE2
    _mm_sfence();
#endif
}

/* ---- summary pass -------------------------------------------------------------- */

/* Runs of PB_MIN_GENERATOR_RUN (12) equal-flag, consecutive-page entries are the
 * only ones a PTEGEN takes. Such a run starting at s covers the 8-aligned b =
 * s rounded up to 8 (b <= s + 7) and b + 4 (<= s + 11), whose pages then differ
 * by exactly 4: testing b and b + 4 for every 8-aligned b finds every run (and
 * a few coincidences, which only cost the exact scan later). Every loop below
 * keeps that phase: its blocks start at multiples of 8 from where it started. */
static void summarize_scalar(const DXGK_PTE *p, uint32_t from, uint32_t n, pb_pte_summary *s)
{
    uint64_t any = 0, differ = 0, cand = 0;
    const uint64_t f0 = p[0].Flags;
    uint32_t i;
    for (i = from; i < n; i++) {
        any |= p[i].Flags;
        differ |= p[i].Flags ^ f0;
    }
    for (i = from; i + 4u < n; i += 8u) {
        const uint64_t x = p[i + 4u].PageAddress - p[i].PageAddress - 4u;
        cand |= (x - 1u) & ~x; /* bit 63 set iff x == 0, without a compare */
    }
    s->any |= any;
    s->uniform &= (uint32_t)(differ == 0);
    s->run_candidate |= (uint32_t)(cand >> 63);
}

#if PB_SSE2
/* Eight entries per step, each a {Flags, PageAddress} vector: OR-ing and AND-ing
 * whole entries gives the OR and the AND of the flag words in the low halves
 * (the flags are uniform iff the two are equal), with no shuffle to separate
 * them from the page numbers; the page numbers of entries 0 and 4 are tested
 * for the run filter. Returns how many entries it covered (a multiple of 8). */
static uint32_t summarize_sse2(const DXGK_PTE *p, uint32_t n, pb_pte_summary *s)
{
    const __m128i four = _mm_set_epi32(0, 4, 0, 0);
    __m128i any = _mm_setzero_si128(), all = _mm_set1_epi32(-1), cand = _mm_setzero_si128();
    uint64_t any_lanes[2], all_lanes[2];
    uint32_t i;
    for (i = 0; i + 8u <= n; i += 8u) {
        const __m128i *q = (const __m128i *)(const void *)(p + i);
        const __m128i e0 = _mm_loadu_si128(q), e1 = _mm_loadu_si128(q + 1), e2 = _mm_loadu_si128(q + 2),
                      e3 = _mm_loadu_si128(q + 3), e4 = _mm_loadu_si128(q + 4), e5 = _mm_loadu_si128(q + 5),
                      e6 = _mm_loadu_si128(q + 6), e7 = _mm_loadu_si128(q + 7);
        /* entry 4 minus entry 0: the low dword of the page half is 4 when a run
         * may cover both (the high dword is not compared: a few more coincidences) */
        const __m128i eq = _mm_cmpeq_epi32(_mm_sub_epi32(e4, e0), four);
        any = _mm_or_si128(any, _mm_or_si128(_mm_or_si128(_mm_or_si128(e0, e1), _mm_or_si128(e2, e3)),
                                             _mm_or_si128(_mm_or_si128(e4, e5), _mm_or_si128(e6, e7))));
        all = _mm_and_si128(all, _mm_and_si128(_mm_and_si128(_mm_and_si128(e0, e1), _mm_and_si128(e2, e3)),
                                               _mm_and_si128(_mm_and_si128(e4, e5), _mm_and_si128(e6, e7))));
        cand = _mm_or_si128(cand, eq);
    }
    if (i == 0)
        return 0;
    _mm_storeu_si128((__m128i *)(void *)any_lanes, any);
    _mm_storeu_si128((__m128i *)(void *)all_lanes, all);
    s->any |= any_lanes[0];
    s->uniform &= (uint32_t)(any_lanes[0] == all_lanes[0] && all_lanes[0] == p[0].Flags);
    s->run_candidate |= (uint32_t)((_mm_movemask_epi8(cand) & 0x0F00) != 0); /* low dword of the page half */
    return i;
}
#endif

#if PB_AVX2
/* Two entries per register ({F, P} in each 128-bit lane), eight per step: the
 * same OR/AND reduction, and the run test for entries b, b + 4 (and, in the
 * upper lane, b + 1, b + 5, which only adds coincidences). */
PB_TARGET_AVX2 static uint32_t summarize_avx2(const DXGK_PTE *p, uint32_t n, pb_pte_summary *s)
{
    const __m256i four = _mm256_set1_epi64x(4);
    __m256i any = _mm256_setzero_si256(), all = _mm256_set1_epi32(-1), cand = _mm256_setzero_si256();
    uint64_t any_lanes[4], all_lanes[4];
    uint32_t i;
    for (i = 0; i + 8u <= n; i += 8u) {
        const __m256i *q = (const __m256i *)(const void *)(p + i);
        const __m256i a0 = _mm256_loadu_si256(q), a1 = _mm256_loadu_si256(q + 1), a2 = _mm256_loadu_si256(q + 2),
                      a3 = _mm256_loadu_si256(q + 3);
        any = _mm256_or_si256(any, _mm256_or_si256(_mm256_or_si256(a0, a1), _mm256_or_si256(a2, a3)));
        all = _mm256_and_si256(all, _mm256_and_si256(_mm256_and_si256(a0, a1), _mm256_and_si256(a2, a3)));
        cand = _mm256_or_si256(cand, _mm256_cmpeq_epi64(_mm256_sub_epi64(a2, a0), four));
    }
    if (i == 0)
        return 0;
    _mm256_storeu_si256((__m256i *)(void *)any_lanes, any);
    _mm256_storeu_si256((__m256i *)(void *)all_lanes, all);
    s->any |= any_lanes[0] | any_lanes[2];
    s->uniform &= (uint32_t)((any_lanes[0] | any_lanes[2]) == (all_lanes[0] & all_lanes[2]) &&
                             all_lanes[0] == p[0].Flags);
    s->run_candidate |= (uint32_t)((_mm256_movemask_pd(_mm256_castsi256_pd(cand)) & 0xA) != 0); /* page lanes */
    return i;
}
#endif

#if PB_NEON
/* Any lane of v nonzero. */
static PB_INLINE uint64_t neon_any(uint64x2_t v)
{
    return vgetq_lane_u64(v, 0) | vgetq_lane_u64(v, 1);
}

/* summarize_sse2 with vld2q_u64: eight entries a step as four {flags} and four
 * {pages} registers; the run test is entries b, b + 4 (and b + 1, b + 5). */
static uint32_t summarize_neon(const DXGK_PTE *p, uint32_t n, pb_pte_summary *s)
{
    const uint64x2_t four = vdupq_n_u64(4);
    uint64x2_t any = vdupq_n_u64(0), all = vdupq_n_u64(~0ull), cand = vdupq_n_u64(0);
    uint64_t or_all, and_all;
    uint32_t i;
    for (i = 0; i + 8u <= n; i += 8u) {
        const uint64_t *q = (const uint64_t *)(const void *)(p + i);
        const uint64x2x2_t e01 = vld2q_u64(q), e23 = vld2q_u64(q + 4), e45 = vld2q_u64(q + 8),
                           e67 = vld2q_u64(q + 12);
        any = vorrq_u64(any, vorrq_u64(vorrq_u64(e01.val[0], e23.val[0]), vorrq_u64(e45.val[0], e67.val[0])));
        all = vandq_u64(all, vandq_u64(vandq_u64(e01.val[0], e23.val[0]), vandq_u64(e45.val[0], e67.val[0])));
        cand = vorrq_u64(cand, vceqq_u64(vsubq_u64(e45.val[1], e01.val[1]), four));
    }
    if (i == 0)
        return 0;
    or_all = neon_any(any);
    and_all = vgetq_lane_u64(all, 0) & vgetq_lane_u64(all, 1);
    s->any |= or_all;
    s->uniform &= (uint32_t)(or_all == and_all && and_all == p[0].Flags);
    s->run_candidate |= (uint32_t)(neon_any(cand) != 0);
    return i;
}
#endif

void pb_pte_summarize_vec(const DXGK_PTE *p, uint32_t n, uint32_t wide, pb_pte_summary *s)
{
    uint32_t done = 0;
    s->any = 0;
    s->uniform = 1;
    s->run_candidate = 0;
    s->zero_no_valid = 0;
    if (n == 0)
        return;
#if PB_AVX2
    if (wide)
        done = summarize_avx2(p, n, s);
    else
#endif
#if PB_SSE2
        done = summarize_sse2(p, n, s);
#elif PB_NEON
    done = summarize_neon(p, n, s);
#endif
    (void)wide;
    summarize_scalar(p, done, n, s);
}

void pb_pte_summarize(const DXGK_PTE *p, uint32_t n, pb_pte_summary *s)
{
    pb_pte_summarize_vec(p, n, 0, s);
}

/* ---- split encoding ------------------------------------------------------------ */

/* The last two flag words seen and their GPU bits: tables mix at most a few
 * flag values (valid and invalid entries, read-only pages), so flag_bits runs
 * once per value, not once per entry. */
typedef struct pte_flag_cache {
    uint64_t fa, ha; /* the most recent value */
    uint64_t fb, hb;
} pte_flag_cache;

#define PTE_BLOCK 16u

/* The payload loops are written once with a `stream` parameter and compiled
 * twice, stream a constant 0 or 1 in each copy (PB_STREAM_COPIES), so the
 * ordinary loop has no test per store. */
#if defined(_MSC_VER) && !defined(__clang__)
#define PB_FORCEINLINE __forceinline
#else
#define PB_FORCEINLINE inline __attribute__((always_inline))
#endif
#define PB_STREAM_COPIES(loop, stream, ...) ((stream) ? loop(__VA_ARGS__, 1) : loop(__VA_ARGS__, 0))

/* Whether a payload loop writes out with non-temporal stores: the engine chose
 * to stream this call (pb_pte_ctx.stream) and out starts a cache line. The
 * loops store whole blocks of PTE_BLOCK entries (two lines), so every line
 * they stream is theirs alone: a line written partly through the cache
 * (a header, the scalar tail) and partly around it costs a write-combining
 * flush at each mixed line, measured at 1.5-4 times the call's time with
 * 512-entry calls (bench_runtime, 16-byte alignment). */
#define PTE_STREAM_ALIGN 64u

static PB_INLINE int pte_streams(const pb_pte_ctx *pc, const uint64_t *out)
{
    return pc->stream && ((uintptr_t)out & (PTE_STREAM_ALIGN - 1u)) == 0;
}

/* The streaming copies of the loops also ask for their input ahead: a paging
 * buffer beyond the cache is filled from DXGK_PTE arrays twice its size, which
 * the cache does not hold either. Beyond the LLC (bench_runtime upt, uniform
 * flags, AMD EPYC 7xx3) requesting the lines 128 entries (2 KiB) ahead took
 * 0.72-0.90 of the time on SSE2 and 0.73-0.87 on AVX2, 256 entries no better;
 * in L2 the same prefetches cost up to 1.44 of the time, so the loops through
 * the cache have none. Never past in[n): the next call's entries may lie
 * anywhere. */
#define PTE_PREFETCH_AHEAD 128u

#if PB_SSE2
/* The input lines of the `entries` entries PTE_PREFETCH_AHEAD after in[0],
 * when stream and they are among the n from in[0]. */
static PB_FORCEINLINE void prefetch_ahead(const DXGK_PTE *in, uint32_t n, uint32_t entries, const int stream)
{
    uint32_t k;
    if (!stream || n < PTE_PREFETCH_AHEAD + entries)
        return;
    for (k = 0; k < entries; k += 4u) /* four 16-byte entries a line */
        _mm_prefetch((const char *)(const void *)(in + PTE_PREFETCH_AHEAD + k), _MM_HINT_T0);
}

/* One payload store: around the cache (movntdq, 16-byte aligned) or through it. */
static PB_FORCEINLINE void store_sse2(__m128i *o, __m128i v, const int stream)
{
    if (stream)
        _mm_stream_si128(o, v);
    else
        _mm_storeu_si128(o, v);
}

/* Two page numbers -> h | (page & m) << s. */
static PB_INLINE __m128i encode_two_pages(__m128i pages, __m128i h, __m128i m, __m128i s)
{
    return _mm_or_si128(h, _mm_sll_epi64(_mm_and_si128(pages, m), s));
}

/* Two entries: {flags0, page0}, {flags1, page1} -> h | (page & m) << s. */
static PB_INLINE __m128i encode_pages(__m128i e0, __m128i e1, __m128i h, __m128i m, __m128i s)
{
    return encode_two_pages(_mm_unpackhi_epi64(e0, e1), h, m, s);
}

/* The same, and the flag words' difference from f OR'd into *d. */
static PB_INLINE __m128i encode_pair(__m128i e0, __m128i e1, __m128i f, __m128i h, __m128i m, __m128i s, __m128i *d)
{
    *d = _mm_or_si128(*d, _mm_xor_si128(_mm_unpacklo_epi64(e0, e1), f));
    return encode_pages(e0, e1, h, m, s);
}

/* The page numbers of in[0] and in[1], loaded into one register (movq and
 * movhpd): the flags are not read, so no unpack is needed to drop them. */
static PB_INLINE __m128i load_two_pages(const DXGK_PTE *in)
{
    const __m128i lo = _mm_loadl_epi64((const __m128i *)(const void *)&in[0].PageAddress);
    return _mm_castpd_si128(_mm_loadh_pd(_mm_castsi128_pd(lo), (const double *)(const void *)&in[1].PageAddress));
}

static PB_FORCEINLINE uint32_t uniform_sse2_to(uint64_t h, uint64_t mask, uint32_t shift, const DXGK_PTE *in,
                                               uint32_t n, uint64_t *out, const int stream)
{
    const __m128i vh = _mm_set1_epi64x((long long)h), vm = _mm_set1_epi64x((long long)mask),
                  vs = _mm_cvtsi32_si128((int)shift);
    uint32_t i;
    for (i = 0; i + 4u <= n; i += 4u) {
        __m128i *o = (__m128i *)(void *)(out + i);
        prefetch_ahead(in + i, n - i, 4u, stream);
        store_sse2(o, encode_two_pages(load_two_pages(in + i), vh, vm, vs), stream);
        store_sse2(o + 1, encode_two_pages(load_two_pages(in + i + 2), vh, vm, vs), stream);
    }
    return i;
}

static uint32_t uniform_sse2(uint64_t h, uint64_t mask, uint32_t shift, const DXGK_PTE *in, uint32_t n,
                             uint64_t *out, int stream)
{
    return PB_STREAM_COPIES(uniform_sse2_to, stream, h, mask, shift, in, n, out);
}

/* Blocks of PTE_BLOCK entries from in[0] encoded on the assumption that their
 * flags equal f, then checked once; stops before the first block where the
 * assumption failed (the caller overwrites it). The run filter of every block
 * it read is OR'd into *cand. Returns a multiple of PTE_BLOCK. */
static PB_FORCEINLINE uint32_t same_flag_blocks_sse2_to(uint64_t f, uint64_t h, uint64_t mask, uint32_t shift,
                                                        const DXGK_PTE *in, uint32_t n, uint64_t *out, uint32_t *cand,
                                                        const int stream)
{
    const __m128i vf = _mm_set1_epi64x((long long)f), vh = _mm_set1_epi64x((long long)h),
                  vm = _mm_set1_epi64x((long long)mask), vs = _mm_cvtsi32_si128((int)shift),
                  four = _mm_set_epi32(0, 4, 0, 0);
    __m128i c = _mm_setzero_si128();
    uint32_t i;
    for (i = 0; i + PTE_BLOCK <= n; i += PTE_BLOCK) {
        const __m128i *q = (const __m128i *)(const void *)(in + i), *const q_end = q + PTE_BLOCK;
        __m128i *o = (__m128i *)(void *)(out + i);
        __m128i d = _mm_setzero_si128();
        prefetch_ahead(in + i, n - i, PTE_BLOCK, stream);
        for (; q != q_end; q += 8, o += 4) {
            const __m128i e0 = _mm_loadu_si128(q), e1 = _mm_loadu_si128(q + 1), e2 = _mm_loadu_si128(q + 2),
                          e3 = _mm_loadu_si128(q + 3), e4 = _mm_loadu_si128(q + 4), e5 = _mm_loadu_si128(q + 5),
                          e6 = _mm_loadu_si128(q + 6), e7 = _mm_loadu_si128(q + 7);
            c = _mm_or_si128(c, _mm_cmpeq_epi32(_mm_sub_epi32(e4, e0), four)); /* as in summarize_sse2 */
            store_sse2(o, encode_pair(e0, e1, vf, vh, vm, vs, &d), stream);
            store_sse2(o + 1, encode_pair(e2, e3, vf, vh, vm, vs, &d), stream);
            store_sse2(o + 2, encode_pair(e4, e5, vf, vh, vm, vs, &d), stream);
            store_sse2(o + 3, encode_pair(e6, e7, vf, vh, vm, vs, &d), stream);
        }
        if (_mm_movemask_epi8(_mm_cmpeq_epi8(d, _mm_setzero_si128())) != 0xFFFF)
            break; /* another flag word in this block */
    }
    *cand |= (uint32_t)((_mm_movemask_epi8(c) & 0x0F00) != 0);
    return i;
}

static uint32_t same_flag_blocks_sse2(uint64_t f, uint64_t h, uint64_t mask, uint32_t shift, const DXGK_PTE *in,
                                      uint32_t n, uint64_t *out, uint32_t *cand, int stream)
{
    return PB_STREAM_COPIES(same_flag_blocks_sse2_to, stream, f, h, mask, shift, in, n, out, cand);
}
#endif

#if PB_AVX2
/* One payload store: around the cache (vmovntdq, 32-byte aligned) or through it. */
PB_TARGET_AVX2 static PB_FORCEINLINE void store_avx2(__m256i *o, __m256i v, const int stream)
{
    if (stream)
        _mm256_stream_si256(o, v);
    else
        _mm256_storeu_si256(o, v);
}

/* Four entries from two registers of two: the page numbers come out of the
 * in-lane unpack as entries 0, 2, 1, 3 and one permute puts them in order. */
#define PB_AVX2_ENCODE(a, b, vh, vm, vs)                                                                            \
    _mm256_permute4x64_epi64(                                                                                   \
        _mm256_or_si256(vh, _mm256_sll_epi64(_mm256_and_si256(_mm256_unpackhi_epi64(a, b), vm), vs)), 0xD8)

PB_TARGET_AVX2 static PB_FORCEINLINE uint32_t uniform_avx2_to(uint64_t h, uint64_t mask, uint32_t shift,
                                                              const DXGK_PTE *in, uint32_t n, uint64_t *out,
                                                              const int stream)
{
    const __m256i vh = _mm256_set1_epi64x((long long)h), vm = _mm256_set1_epi64x((long long)mask);
    const __m128i vs = _mm_cvtsi32_si128((int)shift);
    uint32_t i;
    for (i = 0; i + 8u <= n; i += 8u) {
        const __m256i *q = (const __m256i *)(const void *)(in + i);
        __m256i *o = (__m256i *)(void *)(out + i);
        const __m256i a0 = _mm256_loadu_si256(q), a1 = _mm256_loadu_si256(q + 1), a2 = _mm256_loadu_si256(q + 2),
                      a3 = _mm256_loadu_si256(q + 3);
        prefetch_ahead(in + i, n - i, 8u, stream);
        store_avx2(o, PB_AVX2_ENCODE(a0, a1, vh, vm, vs), stream);
        store_avx2(o + 1, PB_AVX2_ENCODE(a2, a3, vh, vm, vs), stream);
    }
    return i;
}

PB_TARGET_AVX2 static uint32_t uniform_avx2(uint64_t h, uint64_t mask, uint32_t shift, const DXGK_PTE *in,
                                            uint32_t n, uint64_t *out, int stream)
{
    return PB_STREAM_COPIES(uniform_avx2_to, stream, h, mask, shift, in, n, out);
}

/* Sixteen entries, two to a register ({F, P} in each 128-bit lane). */
typedef struct avx2_block {
    __m256i a0, a1, a2, a3, a4, a5, a6, a7;
} avx2_block;

PB_TARGET_AVX2 static PB_INLINE avx2_block avx2_load_block(const DXGK_PTE *in)
{
    const __m256i *q = (const __m256i *)(const void *)in;
    avx2_block b;
    b.a0 = _mm256_loadu_si256(q);
    b.a1 = _mm256_loadu_si256(q + 1);
    b.a2 = _mm256_loadu_si256(q + 2);
    b.a3 = _mm256_loadu_si256(q + 3);
    b.a4 = _mm256_loadu_si256(q + 4);
    b.a5 = _mm256_loadu_si256(q + 5);
    b.a6 = _mm256_loadu_si256(q + 6);
    b.a7 = _mm256_loadu_si256(q + 7);
    return b;
}

/* The run filter over a block: entries 0 and 4, 8 and 12 (and, in the upper
 * lanes, 1 and 5, 9 and 13, which only add coincidences). */
PB_TARGET_AVX2 static PB_INLINE __m256i avx2_block_runs(const avx2_block *b, __m256i four)
{
    return _mm256_or_si256(_mm256_cmpeq_epi64(_mm256_sub_epi64(b->a2, b->a0), four),
                           _mm256_cmpeq_epi64(_mm256_sub_epi64(b->a6, b->a4), four));
}

/* 1 if the accumulated run filter hit in a page lane. */
PB_TARGET_AVX2 static PB_INLINE uint32_t avx2_runs_found(__m256i c)
{
    return (uint32_t)((_mm256_movemask_pd(_mm256_castsi256_pd(c)) & 0xA) != 0);
}

/* same_flag_blocks_sse2 with 256-bit registers. */
PB_TARGET_AVX2 static PB_FORCEINLINE uint32_t same_flag_blocks_avx2_to(uint64_t f, uint64_t h, uint64_t mask,
                                                                       uint32_t shift, const DXGK_PTE *in,
                                                                       uint32_t n, uint64_t *out, uint32_t *cand,
                                                                       const int stream)
{
    const __m256i vf = _mm256_set1_epi64x((long long)f), vh = _mm256_set1_epi64x((long long)h),
                  vm = _mm256_set1_epi64x((long long)mask), four = _mm256_set1_epi64x(4);
    const __m128i vs = _mm_cvtsi32_si128((int)shift);
    __m256i c = _mm256_setzero_si256();
    uint32_t i;
    for (i = 0; i + PTE_BLOCK <= n; i += PTE_BLOCK) {
        __m256i *o = (__m256i *)(void *)(out + i);
        const avx2_block b = avx2_load_block(in + i);
        const __m256i d = _mm256_or_si256(
            _mm256_or_si256(_mm256_xor_si256(_mm256_unpacklo_epi64(b.a0, b.a1), vf),
                            _mm256_xor_si256(_mm256_unpacklo_epi64(b.a2, b.a3), vf)),
            _mm256_or_si256(_mm256_xor_si256(_mm256_unpacklo_epi64(b.a4, b.a5), vf),
                            _mm256_xor_si256(_mm256_unpacklo_epi64(b.a6, b.a7), vf)));
        prefetch_ahead(in + i, n - i, PTE_BLOCK, stream);
        c = _mm256_or_si256(c, avx2_block_runs(&b, four));
        store_avx2(o, PB_AVX2_ENCODE(b.a0, b.a1, vh, vm, vs), stream);
        store_avx2(o + 1, PB_AVX2_ENCODE(b.a2, b.a3, vh, vm, vs), stream);
        store_avx2(o + 2, PB_AVX2_ENCODE(b.a4, b.a5, vh, vm, vs), stream);
        store_avx2(o + 3, PB_AVX2_ENCODE(b.a6, b.a7, vh, vm, vs), stream);
        if (!_mm256_testz_si256(d, d))
            break; /* another flag word in this block */
    }
    *cand |= avx2_runs_found(c);
    return i;
}

PB_TARGET_AVX2 static uint32_t same_flag_blocks_avx2(uint64_t f, uint64_t h, uint64_t mask, uint32_t shift,
                                                     const DXGK_PTE *in, uint32_t n, uint64_t *out, uint32_t *cand,
                                                     int stream)
{
    return PB_STREAM_COPIES(same_flag_blocks_avx2_to, stream, f, h, mask, shift, in, n, out, cand);
}
#endif

/* ---- two-value blocks ------------------------------------------------------------ */

/* Tables whose entries alternate between two flag words (valid and read-only
 * pages, say) stop the one-value loop on every block. These loops take blocks
 * whose flags are all a or b (a != b): the flag bits of each entry are picked
 * by comparing its flag word with a, and the flag word is then compared, all
 * 64 bits, with the value picked, so a third value stops the loop before the
 * block that holds it (the caller encodes that block another way). Both a
 * and b are flag words of entries of the same call (pte_flag_cache only ever
 * holds those), so the caller knows the OR of the flags these blocks hold
 * without reading them: a | b. The run filter goes to *cand, and may include
 * the block that stopped the loop (its entries belong to the same call). */
#if PB_SSE2
typedef struct two_flags_sse2 {
    __m128i fa, fb, d, hb, hd, m, s;
} two_flags_sse2;

/* SSE2 has no 64-bit compare: the pick compares the low dwords with a's (a
 * value matching a's low dword only is picked as a, and the 64-bit check on
 * the value picked stops the loop). */
static PB_INLINE __m128i encode_two_pair(const __m128i *q, const two_flags_sse2 *k, __m128i *err)
{
    const __m128i e0 = _mm_loadu_si128(q), e1 = _mm_loadu_si128(q + 1), f = _mm_unpacklo_epi64(e0, e1);
    const __m128i pick_a = _mm_shuffle_epi32(_mm_cmpeq_epi32(f, k->fa), _MM_SHUFFLE(2, 2, 0, 0));
    *err = _mm_or_si128(*err, _mm_xor_si128(f, _mm_xor_si128(k->fb, _mm_and_si128(pick_a, k->d))));
    return encode_pages(e0, e1, _mm_xor_si128(k->hb, _mm_and_si128(pick_a, k->hd)), k->m, k->s);
}

static PB_FORCEINLINE uint32_t two_flag_blocks_sse2_to(const pte_flag_cache *t, uint64_t mask, uint32_t shift,
                                                       const DXGK_PTE *in, uint32_t n, uint64_t *out, uint32_t *cand,
                                                       const int stream)
{
    two_flags_sse2 k;
    const __m128i four = _mm_set_epi32(0, 4, 0, 0);
    __m128i c = _mm_setzero_si128();
    uint32_t i;
    k.fa = _mm_set1_epi64x((long long)t->fa);
    k.fb = _mm_set1_epi64x((long long)t->fb);
    k.d = _mm_set1_epi64x((long long)(t->fa ^ t->fb));
    k.hb = _mm_set1_epi64x((long long)t->hb);
    k.hd = _mm_set1_epi64x((long long)(t->ha ^ t->hb));
    k.m = _mm_set1_epi64x((long long)mask);
    k.s = _mm_cvtsi32_si128((int)shift);
    for (i = 0; i + PTE_BLOCK <= n; i += PTE_BLOCK) {
        const __m128i *q = (const __m128i *)(const void *)(in + i), *const q_end = q + PTE_BLOCK;
        __m128i *o = (__m128i *)(void *)(out + i);
        __m128i err = _mm_setzero_si128();
        prefetch_ahead(in + i, n - i, PTE_BLOCK, stream);
        for (; q != q_end; q += 8, o += 4) {
            /* as in summarize_sse2 */
            c = _mm_or_si128(c, _mm_cmpeq_epi32(_mm_sub_epi32(_mm_loadu_si128(q + 4), _mm_loadu_si128(q)), four));
            store_sse2(o, encode_two_pair(q, &k, &err), stream);
            store_sse2(o + 1, encode_two_pair(q + 2, &k, &err), stream);
            store_sse2(o + 2, encode_two_pair(q + 4, &k, &err), stream);
            store_sse2(o + 3, encode_two_pair(q + 6, &k, &err), stream);
        }
        if (_mm_movemask_epi8(_mm_cmpeq_epi8(err, _mm_setzero_si128())) != 0xFFFF)
            break; /* a third flag word in this block */
    }
    *cand |= (uint32_t)((_mm_movemask_epi8(c) & 0x0F00) != 0);
    return i;
}

static uint32_t two_flag_blocks_sse2(const pte_flag_cache *t, uint64_t mask, uint32_t shift, const DXGK_PTE *in,
                                     uint32_t n, uint64_t *out, uint32_t *cand, int stream)
{
    return PB_STREAM_COPIES(two_flag_blocks_sse2_to, stream, t, mask, shift, in, n, out, cand);
}
#endif

#if PB_AVX2
/* Four entries from two registers of two: each entry's flag bits are picked in
 * the lane order the unpacks give (0, 2, 1, 3), which PB_AVX2_ENCODE's permute
 * then puts in order with the pages. */
PB_TARGET_AVX2 static PB_INLINE __m256i encode_two_quad(__m256i a0, __m256i a1, __m256i fa, __m256i fb, __m256i hb,
                                                        __m256i hd, __m256i m, __m128i s, __m256i *ok)
{
    const __m256i f = _mm256_unpacklo_epi64(a0, a1), pick_a = _mm256_cmpeq_epi64(f, fa);
    *ok = _mm256_and_si256(*ok, _mm256_or_si256(pick_a, _mm256_cmpeq_epi64(f, fb)));
    return PB_AVX2_ENCODE(a0, a1, _mm256_xor_si256(hb, _mm256_and_si256(pick_a, hd)), m, s);
}

PB_TARGET_AVX2 static PB_FORCEINLINE uint32_t two_flag_blocks_avx2_to(const pte_flag_cache *t, uint64_t mask,
                                                                      uint32_t shift, const DXGK_PTE *in, uint32_t n,
                                                                      uint64_t *out, uint32_t *cand, const int stream)
{
    const __m256i fa = _mm256_set1_epi64x((long long)t->fa), fb = _mm256_set1_epi64x((long long)t->fb),
                  hb = _mm256_set1_epi64x((long long)t->hb), hd = _mm256_set1_epi64x((long long)(t->ha ^ t->hb)),
                  m = _mm256_set1_epi64x((long long)mask), four = _mm256_set1_epi64x(4),
                  ones = _mm256_set1_epi32(-1);
    const __m128i s = _mm_cvtsi32_si128((int)shift);
    __m256i c = _mm256_setzero_si256();
    uint32_t i;
    for (i = 0; i + PTE_BLOCK <= n; i += PTE_BLOCK) {
        __m256i *o = (__m256i *)(void *)(out + i);
        const avx2_block b = avx2_load_block(in + i);
        __m256i ok = ones;
        prefetch_ahead(in + i, n - i, PTE_BLOCK, stream);
        c = _mm256_or_si256(c, avx2_block_runs(&b, four));
        store_avx2(o, encode_two_quad(b.a0, b.a1, fa, fb, hb, hd, m, s, &ok), stream);
        store_avx2(o + 1, encode_two_quad(b.a2, b.a3, fa, fb, hb, hd, m, s, &ok), stream);
        store_avx2(o + 2, encode_two_quad(b.a4, b.a5, fa, fb, hb, hd, m, s, &ok), stream);
        store_avx2(o + 3, encode_two_quad(b.a6, b.a7, fa, fb, hb, hd, m, s, &ok), stream);
        if (!_mm256_testc_si256(ok, ones))
            break; /* a third flag word in this block */
    }
    *cand |= avx2_runs_found(c);
    return i;
}

PB_TARGET_AVX2 static uint32_t two_flag_blocks_avx2(const pte_flag_cache *t, uint64_t mask, uint32_t shift,
                                                    const DXGK_PTE *in, uint32_t n, uint64_t *out, uint32_t *cand,
                                                    int stream)
{
    return PB_STREAM_COPIES(two_flag_blocks_avx2_to, stream, t, mask, shift, in, n, out, cand);
}
#endif

#if PB_NEON
/* ---- arm64 NEON ---- */

/* Two entries' page numbers -> h | (page & m) << s (vshlq by a vector count). */
static PB_INLINE uint64x2_t neon_encode(uint64x2_t pages, uint64x2_t h, uint64x2_t m, int64x2_t s)
{
    return vorrq_u64(h, vshlq_u64(vandq_u64(pages, m), s));
}

static uint32_t uniform_neon(uint64_t h, uint64_t mask, uint32_t shift, const DXGK_PTE *in, uint32_t n,
                             uint64_t *out)
{
    const uint64x2_t vh = vdupq_n_u64(h), vm = vdupq_n_u64(mask);
    const int64x2_t vs = vdupq_n_s64((int64_t)shift);
    uint32_t i;
    for (i = 0; i + 4u <= n; i += 4u) {
        const uint64_t *q = (const uint64_t *)(const void *)(in + i);
        vst1q_u64(out + i, neon_encode(vld2q_u64(q).val[1], vh, vm, vs));
        vst1q_u64(out + i + 2, neon_encode(vld2q_u64(q + 4).val[1], vh, vm, vs));
    }
    return i;
}

/* same_flag_blocks_sse2 with NEON. */
static uint32_t same_flag_blocks_neon(uint64_t f, uint64_t h, uint64_t mask, uint32_t shift, const DXGK_PTE *in,
                                      uint32_t n, uint64_t *out, uint32_t *cand)
{
    const uint64x2_t vf = vdupq_n_u64(f), vh = vdupq_n_u64(h), vm = vdupq_n_u64(mask), four = vdupq_n_u64(4);
    const int64x2_t vs = vdupq_n_s64((int64_t)shift);
    uint64x2_t c = vdupq_n_u64(0);
    uint32_t i, k;
    for (i = 0; i + PTE_BLOCK <= n; i += PTE_BLOCK) {
        uint64x2_t d = vdupq_n_u64(0);
        for (k = i; k < i + PTE_BLOCK; k += 8u) {
            const uint64_t *q = (const uint64_t *)(const void *)(in + k);
            const uint64x2x2_t e01 = vld2q_u64(q), e23 = vld2q_u64(q + 4), e45 = vld2q_u64(q + 8),
                               e67 = vld2q_u64(q + 12);
            d = vorrq_u64(d, vorrq_u64(vorrq_u64(veorq_u64(e01.val[0], vf), veorq_u64(e23.val[0], vf)),
                                       vorrq_u64(veorq_u64(e45.val[0], vf), veorq_u64(e67.val[0], vf))));
            c = vorrq_u64(c, vceqq_u64(vsubq_u64(e45.val[1], e01.val[1]), four));
            vst1q_u64(out + k, neon_encode(e01.val[1], vh, vm, vs));
            vst1q_u64(out + k + 2, neon_encode(e23.val[1], vh, vm, vs));
            vst1q_u64(out + k + 4, neon_encode(e45.val[1], vh, vm, vs));
            vst1q_u64(out + k + 6, neon_encode(e67.val[1], vh, vm, vs));
        }
        if (neon_any(d))
            break; /* another flag word in this block */
    }
    *cand |= (uint32_t)(neon_any(c) != 0);
    return i;
}

/* Two entries of a two-value block (see two_flag_blocks_sse2): NEON has the
 * 64-bit compare, so the pick and the check are both exact. */
static PB_INLINE uint64x2_t neon_encode_two(uint64x2x2_t e, uint64x2_t fa, uint64x2_t fb, uint64x2_t hb,
                                            uint64x2_t hd, uint64x2_t m, int64x2_t s, uint64x2_t *ok)
{
    const uint64x2_t pick_a = vceqq_u64(e.val[0], fa);
    *ok = vandq_u64(*ok, vorrq_u64(pick_a, vceqq_u64(e.val[0], fb)));
    return neon_encode(e.val[1], veorq_u64(hb, vandq_u64(pick_a, hd)), m, s);
}

static uint32_t two_flag_blocks_neon(const pte_flag_cache *t, uint64_t mask, uint32_t shift, const DXGK_PTE *in,
                                     uint32_t n, uint64_t *out, uint32_t *cand)
{
    const uint64x2_t fa = vdupq_n_u64(t->fa), fb = vdupq_n_u64(t->fb), hb = vdupq_n_u64(t->hb),
                     hd = vdupq_n_u64(t->ha ^ t->hb), m = vdupq_n_u64(mask), four = vdupq_n_u64(4);
    const int64x2_t s = vdupq_n_s64((int64_t)shift);
    uint64x2_t c = vdupq_n_u64(0);
    uint32_t i, k;
    for (i = 0; i + PTE_BLOCK <= n; i += PTE_BLOCK) {
        uint64x2_t ok = vdupq_n_u64(~0ull);
        for (k = i; k < i + PTE_BLOCK; k += 8u) {
            const uint64_t *q = (const uint64_t *)(const void *)(in + k);
            const uint64x2x2_t e01 = vld2q_u64(q), e23 = vld2q_u64(q + 4), e45 = vld2q_u64(q + 8),
                               e67 = vld2q_u64(q + 12);
            c = vorrq_u64(c, vceqq_u64(vsubq_u64(e45.val[1], e01.val[1]), four));
            vst1q_u64(out + k, neon_encode_two(e01, fa, fb, hb, hd, m, s, &ok));
            vst1q_u64(out + k + 2, neon_encode_two(e23, fa, fb, hb, hd, m, s, &ok));
            vst1q_u64(out + k + 4, neon_encode_two(e45, fa, fb, hb, hd, m, s, &ok));
            vst1q_u64(out + k + 6, neon_encode_two(e67, fa, fb, hb, hd, m, s, &ok));
        }
        if ((vgetq_lane_u64(ok, 0) & vgetq_lane_u64(ok, 1)) != ~0ull)
            break; /* a third flag word in this block */
    }
    *cand |= (uint32_t)(neon_any(c) != 0);
    return i;
}
#endif

/* The other value of a two-value stretch starting at in[0]: the first flag
 * word among its first PTE_BLOCK entries that is not c->fa becomes c->fb
 * (flag_bits runs only when it is new). Returns 0 when there is none, or no
 * vector loop to run with it. */
static uint32_t find_second_value(const pb_pte_split *fmt, const pb_pte_ctx *pc, pte_flag_cache *c,
                                  const DXGK_PTE *in, uint32_t n)
{
    uint32_t k;
#if !PB_SSE2 && !PB_NEON
    (void)fmt;
    (void)pc;
    (void)c;
    (void)in;
    (void)n;
    (void)k;
    return 0;
#else
    if (n < PTE_BLOCK)
        return 0;
    for (k = 0; k < PTE_BLOCK && in[k].Flags == c->fa; k++)
        ;
    if (k == PTE_BLOCK)
        return 0;
    if (in[k].Flags != c->fb) {
        c->fb = in[k].Flags;
        c->hb = fmt->flag_bits(fmt->ctx, c->fb, pc);
    }
    return 1;
#endif
}

/* Blocks from in[0] whose flags are c->fa or c->fb (see above); returns how
 * many entries (a multiple of PTE_BLOCK): their flags OR to c->fa | c->fb. */
static uint32_t two_flag_blocks(const pb_pte_split *fmt, const pte_flag_cache *c, const DXGK_PTE *in, uint32_t n,
                                uint64_t *out, const pb_pte_ctx *pc, uint32_t *cand)
{
#if PB_AVX2
    if (pc->wide)
        return two_flag_blocks_avx2(c, fmt->page_mask, fmt->page_shift, in, n, out, cand, pte_streams(pc, out));
#endif
    (void)pc;
#if PB_SSE2
    return two_flag_blocks_sse2(c, fmt->page_mask, fmt->page_shift, in, n, out, cand, pte_streams(pc, out));
#elif PB_NEON
    return two_flag_blocks_neon(c, fmt->page_mask, fmt->page_shift, in, n, out, cand);
#else
    (void)fmt;
    (void)c;
    (void)in;
    (void)n;
    (void)out;
    (void)cand;
    return 0;
#endif
}

#if !PB_SSE2 && !PB_NEON
/* The plain C form of the block loop (targets without vector loops). */
static uint32_t same_flag_blocks_scalar(uint64_t f, uint64_t h, uint64_t mask, uint32_t shift, const DXGK_PTE *in,
                                        uint32_t n, uint64_t *out, uint32_t *cand)
{
    uint64_t c = 0;
    uint32_t i, k;
    for (i = 0; i + PTE_BLOCK <= n; i += PTE_BLOCK) {
        const DXGK_PTE *PB_RESTRICT p = in + i;
        uint64_t *PB_RESTRICT o = out + i;
        uint64_t d = 0;
        for (k = 0; k < PTE_BLOCK; k++) {
            d |= p[k].Flags ^ f;
            o[k] = h | ((p[k].PageAddress & mask) << shift);
        }
        for (k = 0; k < PTE_BLOCK; k += 8u) {
            const uint64_t x = p[k + 4u].PageAddress - p[k].PageAddress - 4u;
            c |= (x - 1u) & ~x;
        }
        if (d)
            break;
    }
    *cand |= (uint32_t)(c >> 63);
    return i;
}
#endif

static uint32_t same_flag_blocks(const pb_pte_split *fmt, const pte_flag_cache *c, const DXGK_PTE *in, uint32_t n,
                                 uint64_t *out, const pb_pte_ctx *pc, uint32_t *cand)
{
#if PB_AVX2
    if (pc->wide)
        return same_flag_blocks_avx2(c->fa, c->ha, fmt->page_mask, fmt->page_shift, in, n, out, cand,
                                     pte_streams(pc, out));
#endif
    (void)pc;
#if PB_SSE2
    return same_flag_blocks_sse2(c->fa, c->ha, fmt->page_mask, fmt->page_shift, in, n, out, cand,
                                 pte_streams(pc, out));
#elif PB_NEON
    return same_flag_blocks_neon(c->fa, c->ha, fmt->page_mask, fmt->page_shift, in, n, out, cand);
#else
    return same_flag_blocks_scalar(c->fa, c->ha, fmt->page_mask, fmt->page_shift, in, n, out, cand);
#endif
}

/* Every entry has flag bits h: the engine checked the flags are uniform
 * (pb_pte_ctx.flags_uniform), so only the page numbers are read for the output. */
static void encode_uniform(const pb_pte_split *fmt, uint64_t h, const DXGK_PTE *in, uint32_t n,
                           const pb_pte_ctx *pc, uint64_t *out)
{
    const uint64_t mask = fmt->page_mask;
    const uint32_t shift = fmt->page_shift;
    const int nt = pte_streams(pc, out);
    const uint32_t whole = nt ? n & ~7u : n; /* streamed lines are written whole, the tail through the cache */
    uint32_t i = 0;
#if PB_AVX2
    if (pc->wide)
        i = uniform_avx2(h, mask, shift, in, whole, out, nt);
#endif
    (void)pc;
    (void)whole;
#if PB_SSE2
    i += uniform_sse2(h, mask, shift, in + i, whole - i, out + i, nt);
#elif PB_NEON
    i = uniform_neon(h, mask, shift, in, n, out);
#endif
    for (; i < n; i++)
        out[i] = h | ((in[i].PageAddress & mask) << shift);
}

/* Entries from in[0] while their flags equal c->fa: whole blocks, then one at a
 * time. Returns how many entries were encoded. */
static uint32_t encode_same_flags(const pb_pte_split *fmt, const pte_flag_cache *c, const DXGK_PTE *in, uint32_t n,
                                  const pb_pte_ctx *pc, uint64_t *out)
{
    const uint64_t f = c->fa, h = c->ha, mask = fmt->page_mask;
    const uint32_t shift = fmt->page_shift;
    uint32_t unused = 0, i = same_flag_blocks(fmt, c, in, n, out, pc, &unused);
    if (n - i >= PTE_BLOCK)
        return i; /* a block with another flag word */
    for (; i < n && in[i].Flags == f; i++)
        out[i] = h | ((in[i].PageAddress & mask) << shift);
    return i;
}

/* All n entries, one at a time, the flag bits picked from the cache without a
 * branch while the flags stay among its two values (the case of tables that
 * alternate, where the vector loop would stop on every block). */
static void encode_mixed_flags(const pb_pte_split *fmt, const pb_pte_ctx *pc, pte_flag_cache *c, const DXGK_PTE *in,
                               uint32_t n, uint64_t *out)
{
    const uint64_t mask = fmt->page_mask;
    const uint32_t shift = fmt->page_shift;
    uint64_t fa = c->fa, ha = c->ha, fb = c->fb, hb = c->hb;
    uint32_t i;
    for (i = 0; i < n; i++) {
        const uint64_t f = in[i].Flags, da = f ^ fa, db = f ^ fb;
        /* Bit 63 of (x | -x) is set iff x != 0: one well-predicted branch on
         * "neither value", where f != fa && f != fb compiles to a branch on
         * f != fa, a coin flip in an alternating table. */
        if (((da | (0u - da)) & (db | (0u - db))) >> 63) { /* a third value replaces the older one */
            fb = fa;
            hb = ha;
            fa = f;
            ha = fmt->flag_bits(fmt->ctx, f, pc);
        }
        out[i] = (f == fa ? ha : hb) | ((in[i].PageAddress & mask) << shift);
    }
    c->fa = fa;
    c->ha = ha;
    c->fb = fb;
    c->hb = hb;
}

/* After the vector loop stops on a flag change, this many entries go one at a
 * time; the window doubles while the flags keep changing (an alternating table
 * would otherwise pay for a failed vector block every window) and starts small
 * again once a vector block succeeds. Multiples of 8, so the run filter's
 * phase survives a window. */
#define PTE_MIXED_WINDOW_MIN 32u
#define PTE_MIXED_WINDOW_MAX 1024u

/* Encodes the m entries of a window one at a time; the vector loop resumes with
 * the latest flag value. */
static void encode_window(const pb_pte_split *fmt, const pb_pte_ctx *pc, pte_flag_cache *c, const DXGK_PTE *in,
                          uint32_t m, uint64_t *out)
{
    if (fmt->encode_mixed) {
        fmt->encode_mixed(fmt->ctx, in, m, pc, out);
        c->fa = in[m - 1u].Flags;
        c->ha = fmt->flag_bits(fmt->ctx, c->fa, pc);
    } else {
        encode_mixed_flags(fmt, pc, c, in, m, out);
    }
}

static uint32_t next_window(uint32_t window, uint32_t same)
{
    if (same >= PTE_BLOCK)
        return PTE_MIXED_WINDOW_MIN;
    return window < PTE_MIXED_WINDOW_MAX ? window * 2u : window;
}

static void flag_cache_init(const pb_pte_split *fmt, const pb_pte_ctx *pc, uint64_t f, pte_flag_cache *c)
{
    c->fa = c->fb = f;
    c->ha = c->hb = fmt->flag_bits(fmt->ctx, f, pc);
}

void pb_encode_ptes_split(const pb_pte_split *fmt, const DXGK_PTE *in, uint32_t n, const pb_pte_ctx *pc,
                          uint64_t *out)
{
    pte_flag_cache c;
    uint32_t i = 0, window = PTE_MIXED_WINDOW_MIN;
    if (n == 0)
        return;
    flag_cache_init(fmt, pc, in[0].Flags, &c);
    if (pc->flags_uniform) {
        encode_uniform(fmt, c.ha, in, n, pc, out);
        return;
    }
    while (i < n) {
        const uint32_t same = encode_same_flags(fmt, &c, in + i, n - i, pc, out + i);
        uint32_t two = 0;
        i += same;
        if (i < n && find_second_value(fmt, pc, &c, in + i, n - i)) {
            uint32_t cand = 0;
            two = two_flag_blocks(fmt, &c, in + i, n - i, out + i, pc, &cand);
            i += two;
        }
        if (i < n) { /* a third value, or the tail: a window one entry at a time, then the vector loops again */
            const uint32_t m = n - i < window ? n - i : window;
            window = next_window(window, same + two);
            encode_window(fmt, pc, &c, in + i, m, out + i);
            i += m;
        }
    }
}

/* ---- fused check and encode ------------------------------------------------------ */

/* PB_DXGK_PTE_ZERO set in the result iff the flag word f has Zero without Valid. */
static PB_INLINE uint64_t zero_without_valid(uint64_t f)
{
    return f & ~(f << 1) & PB_DXGK_PTE_ZERO;
}

uint64_t pb_pte_zero_without_valid(const DXGK_PTE *p, uint32_t n)
{
    uint64_t z = 0;
    uint32_t i;
    for (i = 0; i < n; i++)
        z |= zero_without_valid(p[i].Flags);
    return z;
}

void pb_encode_ptes_checked(const pb_pte_split *fmt, const DXGK_PTE *in, uint32_t n, const pb_pte_ctx *pc,
                            uint64_t *out, pb_pte_summary *s)
{
    pte_flag_cache c;
    uint32_t i = 0, window = PTE_MIXED_WINDOW_MIN, cand = 0, uniform = 1;
    uint64_t any = 0, znv = 0, f0;
    s->any = 0;
    s->uniform = 1;
    s->run_candidate = 0;
    s->zero_no_valid = 0;
    if (n == 0)
        return;
    f0 = in[0].Flags;
    flag_cache_init(fmt, pc, f0, &c);
    while (i < n) {
        const uint32_t same = same_flag_blocks(fmt, &c, in + i, n - i, out + i, pc, &cand);
        uint32_t two = 0;
        if (same) { /* every entry of these blocks has flags c.fa */
            any |= c.fa;
            znv |= zero_without_valid(c.fa);
            uniform &= (uint32_t)(c.fa == f0);
            i += same;
        }
        if (i < n && find_second_value(fmt, pc, &c, in + i, n - i)) {
            two = two_flag_blocks(fmt, &c, in + i, n - i, out + i, pc, &cand);
            /* c.fa and c.fb are flag words of entries of this call, and differ */
            uniform = 0;
            any |= c.fa | c.fb;
            znv |= zero_without_valid(c.fa) | zero_without_valid(c.fb);
            i += two;
        }
        if (i < n) { /* a third value, or the tail: one at a time, then summarised from L1 */
            const uint32_t m = n - i < window ? n - i : window;
            pb_pte_summary w;
            window = next_window(window, same + two);
            encode_window(fmt, pc, &c, in + i, m, out + i);
            pb_pte_summarize_vec(in + i, m, pc->wide, &w);
            any |= w.any;
            cand |= w.run_candidate;
            uniform &= w.uniform & (uint32_t)(in[i].Flags == f0);
            if (w.any & PB_DXGK_PTE_ZERO)
                znv |= pb_pte_zero_without_valid(in + i, m);
            i += m;
        }
    }
    s->any = any;
    s->uniform = uniform;
    s->run_candidate = cand;
    s->zero_no_valid = znv;
}
