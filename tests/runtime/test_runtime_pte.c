/* The two UPDATE_PAGE_TABLE hot loops against naive references, on the flag
 * patterns that steer them (uniform, alternating, three values, long stretches
 * with a change at every position, a change in the last entry) and at every
 * length around their 4-, 8- and 16-entry blocks:
 *  - pb_encode_ptes_split (through the reference backend, with no encode_mixed
 *    so the two-value flag cache runs, and with flags_uniform on uniform tables)
 *    equals rpb_pte_pack per entry;
 *  - pb_pte_summarize gives the exact OR of the flags and uniformity, and never
 *    says "no run" when a PTEGEN-sized run exists (every start, every length).
 * Built twice: with the SSE2 loops and with PB_NO_SIMD (the plain C ones). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

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

static void check_encoding(const DXGK_PTE *in, uint32_t n, const pb_pte_ctx *pc, int with_mixed)
{
    uint64_t out[MAX_N + 1];
    uint32_t i;
    out[n] = 0xC0FFEEull;
    if (with_mixed) {
        rpb_encode_ptes(NULL, in, n, pc, out);
    } else {
        pb_pte_split fmt;
        rpb_pte_format(&fmt, NULL);
        fmt.encode_mixed = NULL; /* the core's two-value flag cache instead */
        pb_encode_ptes_split(&fmt, in, n, pc, out);
    }
    for (i = 0; i < n; i++)
        if (out[i] != expected_pte(&in[i], pc))
            fail_msg("entry %u of %u: 0x%016llx, expected 0x%016llx", i, n, (unsigned long long)out[i],
                     (unsigned long long)expected_pte(&in[i], pc));
    assert_int_equal(out[n], 0xC0FFEEull); /* nothing past the last entry */
}

static void test_encode_matches_per_entry_pack(void **state)
{
    static DXGK_PTE in[MAX_N];
    const pb_pte_ctx leaf = {0, 0, 0, 0}, level1_64k = {1, 1, 0, 0}, leaf_uniform = {0, 0, 0, 1};
    uint32_t n, at;
    int pattern, mixed;
    (void)state;
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

static void check_summary(const DXGK_PTE *p, uint32_t n)
{
    pb_pte_summary s;
    uint64_t any = 0;
    uint32_t i, uniform = 1;
    for (i = 0; i < n; i++) {
        any |= p[i].Flags;
        uniform &= (uint32_t)(p[i].Flags == p[0].Flags);
    }
    pb_pte_summarize(p, n, &s);
    assert_true(s.any == any);
    assert_int_equal(s.uniform, uniform);
    if (has_generator_run(p, n) && !s.run_candidate)
        fail_msg("a %u-entry run in %u entries was not flagged", PB_MIN_GENERATOR_RUN, n);
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
                if (len >= PB_MIN_GENERATOR_RUN) {
                    pb_pte_summary s;
                    pb_pte_summarize(p, n, &s);
                    assert_true(s.run_candidate);
                }
            }
    /* Scattered pages: the filter stays quiet (no coincidence in 36 random bits). */
    fill(p, MAX_N, ALTERNATING, 0, 5u);
    {
        pb_pte_summary s;
        pb_pte_summarize(p, MAX_N, &s);
        assert_false(s.run_candidate);
        assert_false(s.uniform);
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
