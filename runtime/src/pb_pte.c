/* The two loops every UPDATE_PAGE_TABLE spends its time in: the pass over the
 * DXGK_PTE array that validation needs before anything is written, and the
 * encoding of the entries into GPU PTEs. Both read 16 bytes per entry (twice
 * what a memcpy of the output reads), so both are vectorised: with SSE2 on x64,
 * which the x64 kernel allows without saving state (unlike AVX), and in plain C
 * with the same results elsewhere (tests run both). */
#include "pb_internal.h"

#if (defined(_M_X64) || defined(_M_AMD64) || defined(__x86_64__)) && !defined(_M_ARM64EC) && !defined(PB_NO_SIMD)
#define PB_SSE2 1
#include <emmintrin.h>
#else
#define PB_SSE2 0
#endif

/* ---- summary pass -------------------------------------------------------------- */

/* Runs of PB_MIN_GENERATOR_RUN (12) equal-flag, consecutive-page entries are the
 * only ones a PTEGEN takes. Such a run starting at s covers the 8-aligned b =
 * s rounded up to 8 (b <= s + 7) and b + 4 (<= s + 11), whose pages then differ
 * by exactly 4: testing b and b + 4 for every 8-aligned b finds every run (and
 * a few coincidences, which only cost the exact scan later). */
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
    const __m128i four = _mm_set_epi64x(4, 0);
    __m128i any = _mm_setzero_si128(), all = _mm_set1_epi32(-1), cand = _mm_setzero_si128();
    uint64_t any_lanes[2], all_lanes[2];
    uint32_t i;
    for (i = 0; i + 8u <= n; i += 8u) {
        const __m128i *q = (const __m128i *)(const void *)(p + i);
        const __m128i e0 = _mm_loadu_si128(q), e1 = _mm_loadu_si128(q + 1), e2 = _mm_loadu_si128(q + 2),
                      e3 = _mm_loadu_si128(q + 3), e4 = _mm_loadu_si128(q + 4), e5 = _mm_loadu_si128(q + 5),
                      e6 = _mm_loadu_si128(q + 6), e7 = _mm_loadu_si128(q + 7);
        /* entry 4 minus entry 0: the high half (pages) is 4 when a run may cover both */
        const __m128i eq = _mm_cmpeq_epi32(_mm_sub_epi64(e4, e0), four);
        any = _mm_or_si128(any, _mm_or_si128(_mm_or_si128(_mm_or_si128(e0, e1), _mm_or_si128(e2, e3)),
                                             _mm_or_si128(_mm_or_si128(e4, e5), _mm_or_si128(e6, e7))));
        all = _mm_and_si128(all, _mm_and_si128(_mm_and_si128(_mm_and_si128(e0, e1), _mm_and_si128(e2, e3)),
                                               _mm_and_si128(_mm_and_si128(e4, e5), _mm_and_si128(e6, e7))));
        cand = _mm_or_si128(cand, _mm_and_si128(eq, _mm_shuffle_epi32(eq, 0xB1))); /* both dwords of a half */
    }
    if (i == 0)
        return 0;
    _mm_storeu_si128((__m128i *)(void *)any_lanes, any);
    _mm_storeu_si128((__m128i *)(void *)all_lanes, all);
    s->any |= any_lanes[0];
    s->uniform &= (uint32_t)(any_lanes[0] == all_lanes[0] && all_lanes[0] == p[0].Flags);
    s->run_candidate |= (uint32_t)((_mm_movemask_epi8(cand) & 0xFF00) != 0); /* the page half only */
    return i;
}
#endif

void pb_pte_summarize(const DXGK_PTE *p, uint32_t n, pb_pte_summary *s)
{
    uint32_t done = 0;
    s->any = 0;
    s->uniform = 1;
    s->run_candidate = 0;
    if (n == 0)
        return;
#if PB_SSE2
    done = summarize_sse2(p, n, s);
#endif
    summarize_scalar(p, done, n, s);
}

/* ---- split encoding ------------------------------------------------------------ */

/* The last two flag words seen and their GPU bits: tables mix at most a few
 * flag values (valid and invalid entries, read-only pages), so flag_bits runs
 * once per value, not once per entry. */
typedef struct pte_flag_cache {
    uint64_t fa, ha; /* the most recent value */
    uint64_t fb, hb;
} pte_flag_cache;

#if PB_SSE2
/* Two entries: {flags0, page0}, {flags1, page1} -> h | (page & m) << s. */
static PB_INLINE __m128i encode_pages(__m128i e0, __m128i e1, __m128i h, __m128i m, __m128i s)
{
    return _mm_or_si128(h, _mm_sll_epi64(_mm_and_si128(_mm_unpackhi_epi64(e0, e1), m), s));
}

/* The same, and the flag words' difference from f OR'd into *d. */
static PB_INLINE __m128i encode_pair(__m128i e0, __m128i e1, __m128i f, __m128i h, __m128i m, __m128i s, __m128i *d)
{
    *d = _mm_or_si128(*d, _mm_xor_si128(_mm_unpacklo_epi64(e0, e1), f));
    return encode_pages(e0, e1, h, m, s);
}
#endif

/* Every entry has flag bits h: the engine checked the flags are uniform
 * (pb_pte_ctx.flags_uniform), so only the page numbers are read for the output. */
static void encode_uniform(const pb_pte_split *fmt, uint64_t h, const DXGK_PTE *in, uint32_t n, uint64_t *out)
{
    const uint64_t mask = fmt->page_mask;
    const uint32_t shift = fmt->page_shift;
    uint32_t i = 0;
#if PB_SSE2
    const __m128i vh = _mm_set1_epi64x((long long)h), vm = _mm_set1_epi64x((long long)mask),
                  vs = _mm_cvtsi32_si128((int)shift);
    for (; i + 4u <= n; i += 4u) {
        const __m128i *q = (const __m128i *)(const void *)(in + i);
        __m128i *o = (__m128i *)(void *)(out + i);
        _mm_storeu_si128(o, encode_pages(_mm_loadu_si128(q), _mm_loadu_si128(q + 1), vh, vm, vs));
        _mm_storeu_si128(o + 1, encode_pages(_mm_loadu_si128(q + 2), _mm_loadu_si128(q + 3), vh, vm, vs));
    }
#endif
    for (; i < n; i++)
        out[i] = h | ((in[i].PageAddress & mask) << shift);
}

#define PTE_BLOCK 16u

/* Entries from in[0] while their flags equal c->fa. Blocks of PTE_BLOCK are
 * encoded on the assumption that they do, then checked once: a block where the
 * assumption failed is left to the caller, who overwrites it. Returns how many
 * entries were encoded. */
static uint32_t encode_same_flags(const pb_pte_split *fmt, const pte_flag_cache *c, const DXGK_PTE *in, uint32_t n,
                                  uint64_t *out)
{
    const uint64_t f = c->fa, h = c->ha, mask = fmt->page_mask;
    const uint32_t shift = fmt->page_shift;
    uint32_t i = 0;
#if PB_SSE2
    const __m128i vf = _mm_set1_epi64x((long long)f), vh = _mm_set1_epi64x((long long)h),
                  vm = _mm_set1_epi64x((long long)mask), vs = _mm_cvtsi32_si128((int)shift);
    for (; i + PTE_BLOCK <= n; i += PTE_BLOCK) {
        const __m128i *q = (const __m128i *)(const void *)(in + i), *const q_end = q + PTE_BLOCK;
        __m128i *o = (__m128i *)(void *)(out + i);
        __m128i d = _mm_setzero_si128();
        for (; q != q_end; q += 4, o += 2) {
            const __m128i e0 = _mm_loadu_si128(q), e1 = _mm_loadu_si128(q + 1), e2 = _mm_loadu_si128(q + 2),
                          e3 = _mm_loadu_si128(q + 3);
            _mm_storeu_si128(o, encode_pair(e0, e1, vf, vh, vm, vs, &d));
            _mm_storeu_si128(o + 1, encode_pair(e2, e3, vf, vh, vm, vs, &d));
        }
        if (_mm_movemask_epi8(_mm_cmpeq_epi8(d, _mm_setzero_si128())) != 0xFFFF)
            return i; /* another flag word in this block */
    }
#endif
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
 * again once a vector block succeeds. */
#define PTE_MIXED_WINDOW_MIN 32u
#define PTE_MIXED_WINDOW_MAX 1024u

void pb_encode_ptes_split(const pb_pte_split *fmt, const DXGK_PTE *in, uint32_t n, const pb_pte_ctx *pc,
                          uint64_t *out)
{
    pte_flag_cache c;
    uint32_t i = 0, window = PTE_MIXED_WINDOW_MIN;
    if (n == 0)
        return;
    c.fa = c.fb = in[0].Flags;
    c.ha = c.hb = fmt->flag_bits(fmt->ctx, c.fa, pc);
    if (pc->flags_uniform) {
        encode_uniform(fmt, c.ha, in, n, out);
        return;
    }
    while (i < n) {
        const uint32_t same = encode_same_flags(fmt, &c, in + i, n - i, out + i);
        i += same;
        if (i < n) { /* the flags changed: a window one entry at a time, then the vector loop again */
            const uint32_t m = n - i < window ? n - i : window;
            window = same >= PTE_BLOCK ? PTE_MIXED_WINDOW_MIN : (window < PTE_MIXED_WINDOW_MAX ? window * 2u : window);
            if (fmt->encode_mixed) {
                fmt->encode_mixed(fmt->ctx, in + i, m, pc, out + i);
                c.fa = in[i + m - 1u].Flags; /* the vector loop resumes with the latest value */
                c.ha = fmt->flag_bits(fmt->ctx, c.fa, pc);
            } else {
                encode_mixed_flags(fmt, pc, &c, in + i, m, out + i);
            }
            i += m;
        }
    }
}
