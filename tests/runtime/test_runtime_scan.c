/* The branch-free scans: pb_run_scan (MDL run detection, 64-page discontinuity
 * masks walked with ctz, whole-block fast paths for contiguous and fully
 * scattered blocks) against a naive reference, on random and block-mixed MDLs
 * and exhaustively around block boundaries, and the fused UPDATE_PAGE_TABLE
 * literal scan + encode against the oracle and the reference packet split,
 * across its 64-entry windows, with invalid entries in the middle of a window. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "pbsim_vector.h"
#include "rt_harness.h"

static uint64_t rng(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* ---- pb_run_scan vs the naive scan ---- */

static size_t naive_run(const PFN_NUMBER *p, size_t n, size_t pos, size_t cap)
{
    size_t k = 1;
    while (pos + k < n && k < cap && p[pos + k] == p[pos + k - 1u] + 1u)
        k++;
    return k;
}

static void fill_pfns(PFN_NUMBER *p, size_t n, uint64_t *s, unsigned shape)
{
    size_t i = 0;
    while (i < n) {
        size_t run = shape == 0 ? 1u + rng(s) % 8u : shape == 1 ? 1u + rng(s) % 100u : 1u + rng(s) % 3u, k;
        /* Near the top of the range too: ~0 + 1 wraps to 0 and still continues a run. */
        PFN_NUMBER base = (rng(s) & 7u) == 0 ? (PFN_NUMBER)0 - (PFN_NUMBER)(rng(s) % 4u) : (PFN_NUMBER)(rng(s) % 5000u);
        for (k = 0; k < run && i < n; k++)
            p[i++] = base + k;
        if ((rng(s) & 15u) == 0 && i < n) /* a repeated page: never a continuation */
            p[i] = p[i - 1u], i++;
    }
}

static void test_run_scan_matches_naive(void **state)
{
    static const size_t caps[] = {1, 2, 3, 5, 63, 64, 65, 1024, (size_t)-1};
    PFN_NUMBER p[700];
    uint64_t s = 7;
    unsigned trial;
    (void)state;
    for (trial = 0; trial < 20000; trial++) {
        const size_t n = (size_t)(rng(&s) % 700u);
        const size_t cap = caps[trial % 9u];
        size_t pos = n ? (size_t)(rng(&s) % (n + 1u)) : 0, runs = 0;
        pb_run_scan scan;
        fill_pfns(p, n, &s, trial % 3u);
        if (trial & 1u)
            pos = 0;
        pb_run_scan_init(&scan, p, n, pos);
        while (pos < n) {
            const size_t want = naive_run(p, n, pos, cap), got = pb_run_scan_next(&scan, cap);
            if (got != want)
                fail_msg("trial %u: n %zu cap %zu at page %zu: run %zu, naive %zu", trial, n, cap, pos, got, want);
            pos += got;
            runs++;
        }
        assert_int_equal(pb_run_scan_next(&scan, cap), 0);
        (void)runs;
    }
}

static void test_run_scan_edges(void **state)
{
    PFN_NUMBER p[200];
    pb_run_scan scan;
    size_t i;
    (void)state;
    for (i = 0; i < 200; i++)
        p[i] = 1000u + i;
    pb_run_scan_init(&scan, p, 200, 0); /* one run across four blocks */
    assert_int_equal(pb_run_scan_next(&scan, 1000), 200);
    assert_int_equal(pb_run_scan_next(&scan, 1000), 0);
    pb_run_scan_init(&scan, p, 200, 0); /* cut by cap, resumed mid-run */
    assert_int_equal(pb_run_scan_next(&scan, 70), 70);
    assert_int_equal(pb_run_scan_next(&scan, 70), 70);
    assert_int_equal(pb_run_scan_next(&scan, 70), 60);
    p[64] = 0; /* discontinuity exactly at a block boundary: runs 64, 1, 135 */
    pb_run_scan_init(&scan, p, 200, 0);
    assert_int_equal(pb_run_scan_next(&scan, 1000), 64);
    assert_int_equal(pb_run_scan_next(&scan, 1000), 1);
    assert_int_equal(pb_run_scan_next(&scan, 1000), 135);
    pb_run_scan_init(&scan, p, 1, 0);
    assert_int_equal(pb_run_scan_next(&scan, 1000), 1);
    pb_run_scan_init(&scan, p, 0, 0);
    assert_int_equal(pb_run_scan_next(&scan, 1000), 0);
    assert_int_equal(pb_ctz64(1), 0);
    assert_int_equal(pb_ctz64(0x8000000000000000ull), 63);
    assert_int_equal(pb_ctz64(0x0000000100000000ull), 32);
}

/* Walks p[0..n) from pos with cap and compares every run with the naive scan. */
static void check_scan(const PFN_NUMBER *p, size_t n, size_t pos, size_t cap, const char *what, unsigned trial)
{
    pb_run_scan scan;
    pb_run_scan_init(&scan, p, n, pos);
    while (pos < n) {
        const size_t want = naive_run(p, n, pos, cap), got = pb_run_scan_next(&scan, cap);
        if (got != want)
            fail_msg("%s %u: n %zu cap %zu at page %zu: run %zu, naive %zu", what, trial, n, cap, pos, got, want);
        pos += got;
    }
    if (pb_run_scan_next(&scan, cap) != 0 || pb_run_scan_next(&scan, cap) != 0)
        fail_msg("%s %u: n %zu cap %zu: runs past the end", what, trial, n, cap);
}

/* Arrays built from 64-page stretches of one kind each, so every fast path of
 * the scan is taken and left at arbitrary points: whole contiguous blocks (the
 * all-zero mask), blocks where every page is its own run (per-page mode), mixed
 * short runs (the mask), a single continuation or break planted in a scattered
 * or contiguous stretch, and stretches that are not block aligned. */
static size_t fill_stretches(PFN_NUMBER *p, size_t n, uint64_t *s)
{
    size_t i = 0;
    while (i < n) {
        const unsigned kind = (unsigned)(rng(s) % 6u);
        /* Mostly 64 long so stretches line up with the scan's blocks, sometimes off by a few. */
        size_t len = (rng(s) & 3u) ? 64u : 1u + (size_t)(rng(s) % 140u), k;
        if (len > n - i)
            len = n - i;
        switch (kind) {
        case 0: /* contiguous, continuing the previous page half of the time */
        case 1: {
            PFN_NUMBER base = (i && kind == 0) ? p[i - 1u] + 1u : (PFN_NUMBER)(rng(s) % 100000u);
            if ((rng(s) & 7u) == 0)
                base = (PFN_NUMBER)0 - (PFN_NUMBER)(rng(s) % 80u); /* wraps to 0 inside the stretch */
            for (k = 0; k < len; k++)
                p[i + k] = base + k;
            break;
        }
        case 2: /* fully scattered: descending by two, never a continuation */
        case 3: {
            PFN_NUMBER base = (PFN_NUMBER)(rng(s) % 100000u) + 1000000u;
            for (k = 0; k < len; k++)
                p[i + k] = base - 2u * k;
            if (kind == 3 && len > 1u) { /* one continuation somewhere, often at a block edge */
                static const size_t at[] = {0, 1, 62, 63, 64};
                size_t j = (rng(s) & 1u) ? at[rng(s) % 5u] : (size_t)(rng(s) % len);
                if (j + 1u < len)
                    p[i + j + 1u] = p[i + j] + 1u;
            }
            break;
        }
        case 4: /* short runs of 1-8 */
            for (k = 0; k < len;) {
                size_t run = 1u + (size_t)(rng(s) % 8u), q;
                PFN_NUMBER base = (PFN_NUMBER)(rng(s) % 100000u);
                for (q = 0; q < run && k < len; q++, k++)
                    p[i + k] = base + q;
            }
            break;
        default: { /* contiguous with one break, often at a block edge */
            static const size_t at[] = {1, 63, 64, 65};
            PFN_NUMBER base = (PFN_NUMBER)(rng(s) % 100000u);
            size_t j = (rng(s) & 1u) ? at[rng(s) % 4u] : (size_t)(rng(s) % len);
            for (k = 0; k < len; k++)
                p[i + k] = base + k + (k >= j ? 7u : 0u);
            break;
        }
        }
        i += len;
    }
    return i;
}

static void test_run_scan_block_mix(void **state)
{
    static const size_t caps[] = {1, 2, 7, 63, 64, 65, 100, 1024, (size_t)-1};
    PFN_NUMBER p[2000];
    uint64_t s = 1234;
    unsigned trial;
    (void)state;
    for (trial = 0; trial < 20000; trial++) {
        const size_t n = (size_t)(rng(&s) % 2000u);
        const size_t cap = caps[trial % 9u];
        /* Resume points: the start, a block multiple, anywhere (a multipass token). */
        const size_t pos = (trial & 3u) == 0 ? 0 : (trial & 3u) == 1 ? ((size_t)(rng(&s) % 32u) * 64u) : (size_t)(rng(&s) % (n + 1u));
        fill_stretches(p, n, &s);
        check_scan(p, n, pos > n ? n : pos, cap, "block mix", trial);
    }
}

/* Exhaustive over small layouts around block boundaries: a scattered array
 * with one continuation at j, and a contiguous one with one break at j, for
 * every j, every start and lengths 1 to 200 (blocks 1 to 4, partial last blocks). */
static void test_run_scan_block_boundaries(void **state)
{
    static const size_t caps[] = {1, 64, (size_t)-1};
    PFN_NUMBER p[200];
    size_t n, j, k, pos, c;
    (void)state;
    for (n = 1; n <= 200; n += (n < 70 || (n > 120 && n < 135) || n > 190) ? 1u : 7u) {
        for (j = 0; j + 1u < n; j += (j < 3 || (j > 60 && j < 68) || (j > 124 && j < 132) || j + 4u > n) ? 1u : 5u) {
            for (k = 0; k < n; k++)
                p[k] = 500000u - 3u * k;
            p[j + 1u] = p[j] + 1u;
            for (c = 0; c < 3; c++)
                for (pos = 0; pos <= n; pos += pos < 3 || pos + 3u > n ? 1u : 13u)
                    check_scan(p, n, pos, caps[c], "scattered + continuation", (unsigned)(n * 1000u + j));
            for (k = 0; k < n; k++)
                p[k] = 1000u + k + (k > j ? 5u : 0u);
            for (c = 0; c < 3; c++)
                for (pos = 0; pos <= n; pos += pos < 3 || pos + 3u > n ? 1u : 13u)
                    check_scan(p, n, pos, caps[c], "contiguous + break", (unsigned)(n * 1000u + j));
        }
    }
}

/* ---- UPDATE_PAGE_TABLE: fused literal scan + encode ---- */

static rt_world *new_world(uint32_t buffer)
{
    rt_world *w = malloc(sizeof *w);
    assert_non_null(w);
    assert_int_equal(rt_world_init(w, 99, buffer), 0);
    return w;
}

static void upt_args(rt_world *w, DXGKARG_BUILDPAGINGBUFFER *a, DXGK_PTE *e, uint32_t n)
{
    memset(a, 0, sizeof *a);
    a->Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)11;
    a->pDmaBuffer = w->buf;
    a->UpdatePageTable.NumPageTableEntries = n;
    a->UpdatePageTable.pPageTableEntries = e;
    a->UpdatePageTable.UpdateMode = (DXGK_PAGETABLEUPDATEMODE)2;
    a->UpdatePageTable.PageTableAddress.GpuPhysical.SegmentId = RT_SEG_TABLES;
    a->UpdatePageTable.PageTableAddress.GpuPhysical.SegmentOffset = RT_LEAF_OFFSET;
}

/* Scattered entries with runs of 1-20 consecutive pages placed anywhere,
 * including across the 64-entry windows, and flag changes inside runs. */
static void make_ptes_max(DXGK_PTE *e, uint32_t n, uint64_t *s, uint32_t max_run)
{
    uint32_t i = 0;
    while (i < n) {
        const uint32_t run = (rng(s) & 1u) ? 1u : 1u + (uint32_t)(rng(s) % max_run);
        const uint64_t base = rng(s) % 100000u, flags = 1u | ((rng(s) & 3u) == 0 ? 8u : 0u);
        uint32_t k;
        for (k = 0; k < run && i < n; k++, i++) {
            e[i].Flags = (rng(s) % 29u) == 0 ? flags ^ 16u : flags; /* NoExecute flips break a run */
            e[i].PageAddress = base + k;
        }
    }
}

static void make_ptes(DXGK_PTE *e, uint32_t n, uint64_t *s)
{
    make_ptes_max(e, n, s, 20u);
}

/* The reference split with room for everything: a PTEGEN for each run of at
 * least 12 at the current entry, otherwise a WRITE64 literal that stops where
 * the next such run begins. */
static int ref_cont(const DXGK_PTE *e, uint32_t j)
{
    return e[j].Flags == e[j - 1u].Flags && e[j].PageAddress == e[j - 1u].PageAddress + 1u;
}

static void ref_split(const DXGK_PTE *e, uint32_t n, uint32_t *gens, uint32_t *lits)
{
    uint32_t i = 0;
    *gens = *lits = 0;
    while (i < n) {
        uint32_t run = 1, s;
        while (i + run < n && ref_cont(e, i + run))
            run++;
        if (run >= 12u) {
            (*gens)++;
            i += run;
            continue;
        }
        for (s = i + 1u; s + 11u < n; s++) {
            uint32_t k = 1;
            while (k < 12u && ref_cont(e, s + k))
                k++;
            if (k == 12u)
                break;
        }
        (*lits)++;
        i = s + 11u < n ? s : n;
    }
}

static void test_upt_fused_matches_oracle(void **state)
{
    static const uint32_t buffers[] = {RT_MAX_BUFFER, 192, 256, 448, 1024};
    rt_world *w = new_world(RT_MAX_BUFFER);
    uint64_t s = 11;
    unsigned trial;
    (void)state;
    for (trial = 0; trial < 600; trial++) {
        DXGKARG_BUILDPAGINGBUFFER a;
        const uint32_t buffer = buffers[trial % 5u];
        const uint32_t n = 1u + (uint32_t)(rng(&s) % 512u);
        uint64_t ptegen0, write0;
        DXGK_PTE *e;
        assert_int_equal(rt_world_reset(w, trial, buffer), 0);
        ptegen0 = w->sim.packets_by_op[RPB_OP_PTEGEN];
        write0 = w->sim.packets_by_op[RPB_OP_WRITE64];
        w->arena_used = 0;
        e = rt_alloc(w, sizeof *e * n);
        assert_non_null(e);
        /* Every third table has runs of at most 3 (at most 11 for some): no
         * generator anywhere, so the first call takes the run-free straight
         * encode, and later passes the windowed scan. */
        make_ptes_max(e, n, &s, trial % 3u ? 20u : (trial % 2u ? 3u : 11u));
        upt_args(w, &a, e, n);
        if (rt_op(w, &a, 0) || rt_check(w))
            fail_msg("trial %u (n %u, buffer %u): %s", trial, n, buffer, w->failure);
        if (buffer == RT_MAX_BUFFER) { /* one pass: the packet split is the reference one */
            uint32_t gens, lits;
            ref_split(e, n, &gens, &lits);
            assert_int_equal(w->sim.packets_by_op[RPB_OP_PTEGEN] - ptegen0, gens);
            assert_int_equal(w->sim.packets_by_op[RPB_OP_WRITE64] - write0, lits);
        }
    }
    rt_world_free(w);
    free(w);
}

/* The first qword of the RPB1 packet at p: opcode in bits 0-15, size in 32-63. */
static uint64_t packet_word(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, sizeof v);
    return v;
}

/* What the packets of the call that wrote buf[0, used) say about alignment. */
typedef struct packet_walk {
    uint32_t writes;     /* WRITE64 packets */
    uint32_t misaligned; /* of them, with a payload not 32-byte aligned from the start */
    uint32_t off_line;   /* of them, with a payload not 64-byte aligned from the start */
    uint32_t inner_pads; /* PAD packets before the last packet */
} packet_walk;

static packet_walk walk_packets(const uint8_t *buf, uint32_t used)
{
    packet_walk k = {0, 0, 0, 0};
    uint32_t off = 0;
    while (off < used) {
        const uint64_t v = packet_word(buf + off);
        const uint32_t size = (uint32_t)(v >> 32), op = (uint32_t)(v & 0xFFFFu);
        assert_true(size >= 8u && off + size <= used);
        if (op == RPB_OP_WRITE64) {
            k.writes++;
            k.misaligned += ((off + RPB_WRITE64_BASE) & 31u) != 0;
            k.off_line += ((off + RPB_WRITE64_BASE) & 63u) != 0;
        }
        k.inner_pads += op == RPB_OP_PAD && off + size < used;
        off += size;
    }
    return k;
}

/* Scattered pages (no run, and no coincidence for the run filter: the first
 * call encodes every entry in its fused pass), flags uniform or mixed. */
static void make_scattered_ptes(DXGK_PTE *e, uint32_t n, uint64_t *s, unsigned mixed)
{
    uint32_t i;
    for (i = 0; i < n; i++) {
        e[i].Flags = 1u | (mixed && (rng(s) & 1u) ? 8u : 0u);
        e[i].PageAddress = 0x1000u + (i * 7919u + (uint32_t)(rng(s) % 97u) * 131u) % 0xFFFFFu;
    }
}

/* On the AVX2 path the fused encode pads before each WRITE64 so its payload
 * starts 32-byte aligned from the call's start (the stores then never split a
 * cache line); the SSE2 path writes no such pad, unless the engine streams
 * (RT_ENGINE=stream...), when every payload starts a cache line on both.
 * Tables from one entry to a whole leaf, uniform and mixed flags, and the
 * memory must still match the oracle. */
static void test_upt_wide_payloads_aligned(void **state)
{
    static const uint32_t sizes[] = {1, 7, 8, 9, 31, 64, 200, 511, 512};
    uint64_t s = 3;
    unsigned wide, k;
    uint32_t writes_seen = 0;
    (void)state;
    if (!pb_cpu_has_avx2())
        skip();
    for (wide = 0; wide < 2; wide++) {
        rt_world *w = new_world(RT_MAX_BUFFER);
        w->rctx.vector_save = wide ? pbsim_vector_save : NULL;
        w->rctx.vector_restore = wide ? pbsim_vector_restore : NULL;
        w->cfg.wide_min_entries = 1;
        w->cfg.wide_vectors = wide ? PB_WIDE_AUTO : PB_WIDE_OFF;
        rpb_pte_format(&w->cfg.backend.pte_split, &w->rctx); /* the fused path, also under RT_ENGINE=classic */
        assert_int_equal(pb_engine_init(&w->engine, &w->cfg), STATUS_SUCCESS);
        assert_int_equal(w->engine.wide, wide);
        for (k = 0; k < 2u * (sizeof sizes / sizeof sizes[0]); k++) {
            const uint32_t n = sizes[k / 2u];
            DXGKARG_BUILDPAGINGBUFFER a;
            packet_walk pk;
            DXGK_PTE *e;
            assert_int_equal(rt_check(w), 0); /* submits: the call starts a fresh buffer */
            w->arena_used = 0;
            e = rt_alloc(w, sizeof *e * n);
            make_scattered_ptes(e, n, &s, k % 2u);
            upt_args(w, &a, e, n);
            if (rt_op(w, &a, 0))
                fail_msg("n %u: %s", n, w->failure);
            pk = walk_packets(w->buf, w->used);
            if (w->engine.stream) /* non-temporal stores fill whole lines */
                assert_int_equal(pk.off_line, 0);
            else if (wide)
                assert_int_equal(pk.misaligned, 0);
            else
                assert_int_equal(pk.inner_pads, 0);
            if (n >= 12u)
                writes_seen += pk.writes;
        }
        assert_int_equal(rt_check(w), 0);
        rt_world_free(w);
        free(w);
    }
    assert_true(writes_seen > 0); /* the walk saw payloads to check */
}

static void test_upt_invalid_entry_mid_window(void **state)
{
    static const uint32_t where[] = {0, 37, 63, 64, 97, 130, 300, 511};
    static const struct {
        uint64_t flags;
        const char *rule;
    } bad[] = {
        {2u, "DXGK_PTE.Zero:requires-valid-and-ZeroInPteSupported"},
        {1u | 0x400u, "DXGK_PTE.LargePage:non-leaf-and-LargePageSupported"},
        {1u | (1ull << 44), "DXGK_PTE.Reserved:zero"},
    };
    static const uint32_t buffers[] = {RT_MAX_BUFFER, 256};
    uint64_t s = 5;
    unsigned b, k, q;
    (void)state;
    for (q = 0; q < 2; q++) {
        rt_world *w = new_world(buffers[q]);
        for (b = 0; b < 3; b++) {
            for (k = 0; k < 8; k++) {
                DXGKARG_BUILDPAGINGBUFFER a;
                DXGK_PTE *e;
                w->arena_used = 0;
                e = rt_alloc(w, sizeof *e * 512u);
                make_ptes(e, 512, &s);
                e[where[k]].Flags = bad[b].flags;
                upt_args(w, &a, e, 512);
                /* Refused on the first call with nothing written, even when the bad
                 * entry lies beyond what the first (small) buffer could hold. */
                if (rt_op(w, &a, 1))
                    fail_msg("bad entry at %u: %s", where[k], w->failure);
                assert_string_equal(w->last_rule, bad[b].rule);
            }
        }
        if (rt_check(w))
            fail_msg("%s", w->failure);
        rt_world_free(w);
        free(w);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_run_scan_matches_naive),
        cmocka_unit_test(test_run_scan_edges),
        cmocka_unit_test(test_run_scan_block_mix),
        cmocka_unit_test(test_run_scan_block_boundaries),
        cmocka_unit_test(test_upt_fused_matches_oracle),
        cmocka_unit_test(test_upt_invalid_entry_mid_window),
        cmocka_unit_test(test_upt_wide_payloads_aligned),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
