/* The UPDATE_PAGE_TABLE hot loops against naive references, on the flag
 * patterns that steer them (uniform, alternating, three values, long stretches
 * with a change at every position, a change in the last entry) and at every
 * length around their 4-, 8- and 16-entry blocks:
 *  - pb_encode_ptes_split (through the reference backend, with no encode_mixed
 *    so the two-value flag cache runs, and with flags_uniform on uniform tables)
 *    equals rpb_pte_pack per entry;
 *  - pb_pte_summarize gives the exact OR of the flags and uniformity, and never
 *    says "no run" when a PTEGEN-sized run exists (every start, every length);
 *  - pb_encode_ptes_checked, the fused check + encode of the DMA path, writes
 *    the same values and the same summary, plus the exact Zero-without-Valid.
 * Every check runs with the baseline loops and again with the AVX2 loops
 * (pb_pte_ctx.wide) when the CPU has AVX2, and both again with non-temporal
 * stores (pb_pte_ctx.stream) into a cache-line-aligned output (x64: the
 * streaming loops) and one 8 bytes off (their fallback). Built twice: with the vector loops
 * and with PB_NO_SIMD (the plain C ones); and both again for aarch64 (the
 * NEON loops), run under qemu-aarch64 with cross/cmocka.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ddi_paging.h"
#include "pb_internal.h"
#include "rpb1.h"
#include "rpb_backend.h"

#define MAX_N 600u

static uint64_t rng(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t expected_pte(const DXGK_PTE *p, const pb_pte_ctx *pc)
{
    const uint64_t w = p->Flags;
    return rpb_pte_pack(w, p->PageAddress, pc->level >= 1u && pc->use_64kb, w >> 17, w >> 11);
}

enum { UNIFORM, ALTERNATING, THREE_VALUES, ONE_CHANGE, LAST_CHANGES, RANDOM_RUNS, PATTERNS };

/* Flags of entry i under a pattern; `at` places the single change. */
static uint64_t pattern_flags(int pattern, uint32_t i, uint32_t n, uint32_t at, uint64_t *s)
{
    static const uint64_t values[3] = {0x1u, 0x9u, 0x1u | (3u << 11) | (1u << 17)};
    switch (pattern) {
    case UNIFORM:
        return values[0];
    case ALTERNATING:
        return values[rng(s) & 1u];
    case THREE_VALUES:
        return values[i % 3u];
    case ONE_CHANGE:
        return values[i >= at];
    case LAST_CHANGES:
        return values[i + 1u == n];
    default:
        return values[(i / (1u + at % 23u)) % 3u];
    }
}

static void fill(DXGK_PTE *p, uint32_t n, int pattern, uint32_t at, uint64_t seed)
{
    uint64_t s = seed;
    uint32_t i;
    for (i = 0; i < n; i++) {
        p[i].Flags = pattern_flags(pattern, i, n, at, &s);
        p[i].PageAddress = rng(&s) & 0xFFFFFFFFFFFFull; /* bits above the PTE's page field too */
    }
}

/* The vector widths to test: the baseline, and AVX2 when this CPU runs it. */
static uint32_t width_count(void)
{
    static int said;
    if (pb_cpu_has_avx2())
        return 2;
    if (!said++)
        print_message("no AVX2 on this CPU (or a build without x64 vectors): AVX2 loops not run\n");
    return 1;
}

static pb_pte_ctx pte_ctx(uint32_t level, uint32_t use_64kb, uint32_t uniform, uint32_t wide, uint32_t stream)
{
    pb_pte_ctx pc;
    memset(&pc, 0, sizeof pc);
    pc.level = level;
    pc.use_64kb = use_64kb;
    pc.flags_uniform = uniform;
    pc.wide = wide;
    pc.stream = stream;
    return pc;
}

/* The encoders' output: cache-line aligned, so that with pb_pte_ctx.stream
 * the non-temporal loops run; at one entry further on they must fall back to
 * ordinary stores, with the same values. */
static _Alignas(64) uint64_t g_lines[MAX_N + 16];

static void check_values(const DXGK_PTE *in, uint32_t n, const pb_pte_ctx *pc, const uint64_t *out)
{
    uint32_t i;
    for (i = 0; i < n; i++)
        if (out[i] != expected_pte(&in[i], pc))
            fail_msg("entry %u of %u (wide %u): 0x%016llx, expected 0x%016llx", i, n, pc->wide,
                     (unsigned long long)out[i], (unsigned long long)expected_pte(&in[i], pc));
    assert_int_equal(out[n], 0xC0FFEEull); /* nothing past the last entry */
}

static void split_format(pb_pte_split *fmt, int with_mixed)
{
    rpb_pte_format(fmt, NULL);
    if (!with_mixed)
        fmt->encode_mixed = NULL; /* the core's two-value flag cache instead */
}

static void check_summary_of(const DXGK_PTE *p, uint32_t n, const pb_pte_summary *s, int with_zero);

/* pb_encode_ptes_split, and the fused pb_encode_ptes_checked when the flags
 * are not promised uniform (the fused pass is what finds out). Streaming
 * calls end with the fence, as the engine's do. */
static void check_encoding(const DXGK_PTE *in, uint32_t n, const pb_pte_ctx *pc, int with_mixed)
{
    pb_pte_split fmt;
    uint32_t shift;
    split_format(&fmt, with_mixed);
    for (shift = 0; shift <= pc->stream; shift++) {
        uint64_t *out = g_lines + shift;
        out[n] = 0xC0FFEEull;
        if (with_mixed)
            rpb_encode_ptes(NULL, in, n, pc, out);
        else
            pb_encode_ptes_split(&fmt, in, n, pc, out);
        pb_pte_stream_fence();
        check_values(in, n, pc, out);
        if (!pc->flags_uniform) {
            pb_pte_summary s;
            memset(out, 0x5A, sizeof(uint64_t) * n);
            pb_encode_ptes_checked(&fmt, in, n, pc, out, &s);
            pb_pte_stream_fence();
            check_values(in, n, pc, out);
            check_summary_of(in, n, &s, 1);
        }
    }
}

static void test_encode_matches_per_entry_pack(void **state)
{
    static DXGK_PTE in[MAX_N];
    uint32_t n, at, wide, stream;
    int pattern, mixed;
    (void)state;
    for (wide = 0; wide < width_count(); wide++)
        for (stream = 0; stream <= 1u; stream++) {
            const pb_pte_ctx leaf = pte_ctx(0, 0, 0, wide, stream), level1_64k = pte_ctx(1, 1, 0, wide, stream),
                             leaf_uniform = pte_ctx(0, 0, 1, wide, stream);
            for (pattern = 0; pattern < PATTERNS; pattern++)
                for (n = 0; n <= 70u; n++)
                    for (at = 0; at <= n; at += (pattern == ONE_CHANGE || pattern == RANDOM_RUNS) ? 1u : n + 1u)
                        for (mixed = 0; mixed <= 1; mixed++) {
                            fill(in, n, pattern, at, n * 131u + at);
                            check_encoding(in, n, &leaf, mixed);
                            check_encoding(in, n, &level1_64k, mixed);
                            if (pattern == UNIFORM) /* the engine's promise, when it checked */
                                check_encoding(in, n, &leaf_uniform, mixed);
                        }
            for (pattern = 0; pattern < PATTERNS; pattern++)
                for (mixed = 0; mixed <= 1; mixed++) {
                    fill(in, MAX_N, pattern, 333u, 7u + (uint64_t)pattern);
                    check_encoding(in, MAX_N, &leaf, mixed);
                    check_encoding(in + 1, MAX_N - 1u, &leaf, mixed); /* entries off their 32-byte pairing */
                }
        }
}

/* ---- summary pass ---- */

static int has_generator_run(const DXGK_PTE *p, uint32_t n)
{
    uint32_t i, c = 1;
    for (i = 1; i < n; i++) {
        c = (p[i].Flags == p[i - 1u].Flags && p[i].PageAddress == p[i - 1u].PageAddress + 1u) ? c + 1u : 1u;
        if (c >= PB_MIN_GENERATOR_RUN)
            return 1;
    }
    return 0;
}

/* s against the exact values; with_zero: s->zero_no_valid too (fused pass only). */
static void check_summary_of(const DXGK_PTE *p, uint32_t n, const pb_pte_summary *s, int with_zero)
{
    uint64_t any = 0, znv = 0;
    uint32_t i, uniform = 1;
    for (i = 0; i < n; i++) {
        any |= p[i].Flags;
        znv |= p[i].Flags & ~(p[i].Flags << 1) & 2u;
        uniform &= (uint32_t)(p[i].Flags == p[0].Flags);
    }
    assert_true(s->any == any);
    assert_int_equal(s->uniform, uniform);
    if (with_zero)
        assert_true(s->zero_no_valid == znv);
    if (has_generator_run(p, n) && !s->run_candidate)
        fail_msg("a %u-entry run in %u entries was not flagged", PB_MIN_GENERATOR_RUN, n);
}

/* The summary pass at every width, and the fused pass. */
static void check_summary(const DXGK_PTE *p, uint32_t n)
{
    static uint64_t out[MAX_N + 1];
    pb_pte_summary s;
    pb_pte_split fmt;
    uint32_t wide;
    for (wide = 0; wide < width_count(); wide++) {
        const pb_pte_ctx pc = pte_ctx(0, 0, 0, wide, 0);
        pb_pte_summarize_vec(p, n, wide, &s);
        check_summary_of(p, n, &s, 0);
        split_format(&fmt, 1);
        pb_encode_ptes_checked(&fmt, p, n, &pc, out, &s);
        check_summary_of(p, n, &s, 1);
    }
}

/* Both encoders, at every width, through the cache and around it, with and
 * without the backend's encoder. */
static void check_split_and_fused(const DXGK_PTE *p, uint32_t n)
{
    uint32_t wide, stream;
    int mixed;
    for (wide = 0; wide < width_count(); wide++)
        for (stream = 0; stream <= 1u; stream++)
            for (mixed = 0; mixed <= 1; mixed++) {
                const pb_pte_ctx pc = pte_ctx(0, 0, 0, wide, stream);
                check_encoding(p, n, &pc, mixed);
            }
}

static void test_summary_exact_and_never_misses_a_run(void **state)
{
    static DXGK_PTE p[MAX_N];
    uint32_t n, start, len, i;
    int pattern;
    (void)state;
    for (pattern = 0; pattern < PATTERNS; pattern++)
        for (n = 0; n <= 70u; n++) {
            fill(p, n, pattern, n / 2u, 99u + n);
            check_summary(p, n);
        }
    /* Every run of 11, 12 and 13 at every start, in every array length up to 48. */
    for (n = 11; n <= 48u; n++)
        for (len = 11; len <= 13u && len <= n; len++)
            for (start = 0; start + len <= n; start++) {
                fill(p, n, UNIFORM, 0, n * 1000u + start);
                for (i = 0; i < len; i++)
                    p[start + i].PageAddress = 0x5000u + i;
                check_summary(p, n);

            }
    /* Scattered pages: the filter stays quiet (no coincidence in 36 random bits). */
    fill(p, MAX_N, ALTERNATING, 0, 5u);
    {
        pb_pte_summary s;
        uint32_t wide;
        for (wide = 0; wide < width_count(); wide++) {
            pb_pte_summarize_vec(p, MAX_N, wide, &s);
            assert_false(s.run_candidate);
            assert_false(s.uniform);
        }
    }
    /* Two alternating flag words and, at every position, a third that equals
     * the first in its low dword (the SSE2 two-value loop picks by the low
     * dword): it must stop that loop, be encoded as itself, and be in the OR. */
    for (n = 1; n <= 70u; n++)
        for (start = 0; start < n; start++) {
            fill(p, n, ALTERNATING, 0, 3u * n + start);
            p[start].Flags = p[0].Flags | (1ull << 40);
            check_summary(p, n);
            check_split_and_fused(p, n);
        }
    /* Zero without Valid, alone among valid entries, at every position. */
    for (n = 1; n <= 70u; n++)
        for (start = 0; start < n; start++) {
            fill(p, n, start % 2u ? UNIFORM : ALTERNATING, 0, n + start);
            p[start].Flags = 0x2u;
            check_summary(p, n);
        }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_encode_matches_per_entry_pack),
        cmocka_unit_test(test_summary_exact_and_never_misses_a_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
