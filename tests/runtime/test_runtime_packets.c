/* Packet-level tests: optimal COPY count on scattered MDLs, buffers filled to the
 * last fitting packet, page-index progress tokens, config checks and strict decoding. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rt_harness.h"

#define BIG (1u << 20)

typedef struct bench_env {
    rpb_backend_ctx rctx;
    pb_config cfg;
    pb_engine engine;
    uint8_t *buf;
} bench_env;

static int no_cpu(void *user, void *va, const uint64_t *v, uint32_t n)
{
    (void)user;
    (void)va;
    (void)v;
    (void)n;
    return -1;
}

/* A standalone engine: packets are decoded and counted, not executed. */
static void env_init(bench_env *e, uint32_t max_copy, uint32_t buffer_size)
{
    memset(e, 0, sizeof *e);
    e->rctx.cpu_write64 = no_cpu;
    rpb_backend_init(&e->cfg.backend, &e->rctx);
    e->cfg.backend.max_copy = max_copy;
    e->cfg.paging_buffer_size = buffer_size;
    e->cfg.segment_count = 1;
    e->cfg.segments[1].size = 1ull << 40;
    e->cfg.level_count = 2;
    e->cfg.index_bits[0] = e->cfg.index_bits[1] = 9;
    assert_int_equal(pb_engine_init(&e->engine, &e->cfg), STATUS_SUCCESS);
    e->buf = aligned_alloc(4096, BIG);
    assert_non_null(e->buf);
}

static uint64_t rng(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Runs a transfer to completion with buffers of buffer_size, counting COPY packets. */
static uint64_t count_copies(bench_env *e, DXGKARG_BUILDPAGINGBUFFER *a, uint32_t buffer_size, uint64_t *bytes)
{
    uint64_t counts[RPB_OP_COUNT_] = {0};
    char err[160];
    NTSTATUS st;
    *bytes = 0;
    a->MultipassOffset = 0;
    do {
        a->pDmaBuffer = e->buf;
        a->DmaSize = buffer_size;
        st = pb_build_paging_buffer(&e->engine, a);
        assert_true(st == STATUS_SUCCESS || st == STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER);
        if (pbsim_decode(e->buf, (size_t)((uint8_t *)a->pDmaBuffer - e->buf), counts, err, sizeof err))
            fail_msg("decode: %s", err);
        *bytes += (uint64_t)((uint8_t *)a->pDmaBuffer - e->buf);
        if (st == STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER) /* filled to the last fitting COPY */
            assert_true(buffer_size - (uint32_t)((uint8_t *)a->pDmaBuffer - e->buf) < RPB_COPY_BYTES + 64u);
    } while (st == STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER);
    return counts[RPB_OP_COPY];
}

static uint64_t optimum(const PFN_NUMBER *pfn, uint32_t n, uint32_t max_pages)
{
    uint64_t total = 0;
    uint32_t i = 0;
    while (i < n) {
        uint32_t run = 1;
        while (i + run < n && pfn[i + run] == pfn[i + run - 1] + 1)
            run++;
        total += (run + max_pages - 1u) / max_pages;
        i += run;
    }
    return total;
}

static void test_copy_count_is_optimal(void **state)
{
    static const uint32_t max_pages[] = {1, 2, 3, 16, 1024};
    static const uint32_t buffers[] = {0, 872, BIG}; /* +128: one packet, a few, everything */
    PFN_NUMBER *pfn = malloc(sizeof *pfn * 5000);
    MDL *mdl = malloc(sizeof(MDL) + sizeof *pfn * 5000);
    uint64_t s = 42;
    unsigned trial;
    (void)state;
    for (trial = 0; trial < 60; trial++) {
        bench_env e;
        DXGKARG_BUILDPAGINGBUFFER a;
        uint32_t n = 1u + (uint32_t)(rng(&s) % 4000u), i = 0, m = max_pages[trial % 5];
        uint64_t bytes, expect;
        while (i < n) { /* runs of geometric-ish lengths, sometimes descending or repeated */
            uint32_t run = 1u + (uint32_t)(rng(&s) % (trial % 2 ? 3u : 40u)), k;
            PFN_NUMBER base = (PFN_NUMBER)(rng(&s) % 1000000u);
            for (k = 0; k < run && i < n; k++)
                pfn[i++] = base + k;
        }
        memset(mdl, 0, sizeof *mdl);
        mdl->ByteCount = n * 4096u;
        memcpy(MmGetMdlPfnArray(mdl), pfn, sizeof *pfn * n);
        const uint32_t bs = buffers[trial % 3] < 1024u ? buffers[trial % 3] + 128u : BIG;
        env_init(&e, m * 4096u, bs);
        memset(&a, 0, sizeof a);
        a.Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)0;
        a.Transfer.TransferSize = (SIZE_T)n * 4096u - (trial % 4 ? 0u : 123u);
        a.Transfer.Source.pMdl = mdl;
        a.Transfer.Destination.SegmentId = 1;
        a.Transfer.Flags.Value = 0x18;
        expect = optimum(pfn, n, m);
        assert_int_equal(count_copies(&e, &a, bs, &bytes), expect);
        a.Transfer.Source.SegmentId = 1; /* same MDL as destination */
        a.Transfer.Source.SegmentAddress.QuadPart = 0;
        a.Transfer.Destination.SegmentId = 0;
        a.Transfer.Destination.pMdl = mdl;
        assert_int_equal(count_copies(&e, &a, bs, &bytes), expect);
        free(e.buf);
    }
    free(pfn);
    free(mdl);
}

/* MDLs made of 64-page blocks that are whole runs, all single pages or mixed,
 * so the scan's block fast paths and their mode changes meet packet limits,
 * a partial last page and multipass resumption at every point. */
static void test_copy_count_block_mix(void **state)
{
    static const uint32_t max_pages[] = {1, 3, 64, 65, 1024};
    static const uint32_t buffers[] = {128u + 128u, 872u + 128u, BIG};
    const uint32_t cap = 64u * 40u;
    PFN_NUMBER *pfn = malloc(sizeof *pfn * cap);
    MDL *mdl = malloc(sizeof(MDL) + sizeof *pfn * cap);
    uint64_t s = 4242;
    unsigned trial;
    (void)state;
    for (trial = 0; trial < 90; trial++) {
        bench_env e;
        DXGKARG_BUILDPAGINGBUFFER a;
        uint32_t n = 0, m = max_pages[trial % 5], k;
        const uint32_t bs = buffers[trial % 3];
        uint64_t bytes, expect;
        while (n < cap - 140u) {
            const unsigned kind = (unsigned)(rng(&s) % 4u);
            const uint32_t len = (rng(&s) & 3u) ? 64u : 1u + (uint32_t)(rng(&s) % 130u);
            PFN_NUMBER base = kind == 0 && n ? pfn[n - 1u] + 1u : (PFN_NUMBER)(rng(&s) % 1000000u) + 1000u;
            for (k = 0; k < len; k++, n++)
                pfn[n] = kind <= 1 ? base + k : kind == 2 ? base - 2u * k : base + k / (1u + (uint32_t)(rng(&s) % 6u)) * 9u;
        }
        n -= (uint32_t)(rng(&s) % 64u);
        memset(mdl, 0, sizeof *mdl);
        mdl->ByteCount = n * 4096u;
        memcpy(MmGetMdlPfnArray(mdl), pfn, sizeof *pfn * n);
        env_init(&e, m * 4096u, bs);
        memset(&a, 0, sizeof a);
        a.Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)0;
        a.Transfer.TransferSize = (SIZE_T)n * 4096u - (trial % 4 ? 0u : 77u);
        a.Transfer.Source.pMdl = mdl;
        a.Transfer.Destination.SegmentId = 1;
        a.Transfer.Flags.Value = 0x18;
        expect = optimum(pfn, n, m);
        assert_int_equal(count_copies(&e, &a, bs, &bytes), expect);
        free(e.buf);
    }
    free(pfn);
    free(mdl);
}

static void test_progress_token_is_page_index(void **state)
{
    bench_env e;
    DXGKARG_BUILDPAGINGBUFFER a;
    NTSTATUS st;
    (void)state;
    env_init(&e, 4096u * 4u, 128u);
    memset(&a, 0, sizeof a);
    a.Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)8;
    a.TransferVirtual.TransferSizeInBytes = 1ull << 40; /* a byte counter would overflow a UINT */
    a.TransferVirtual.DestinationVirtualAddress = 1ull << 41;
    a.pDmaBuffer = e.buf;
    a.DmaSize = 128;
    st = pb_build_paging_buffer(&e.engine, &a);
    assert_int_equal(st, STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER);
    assert_int_equal(a.MultipassOffset, 8); /* two 4-page COPYs (2 x 56 + pad) fit in 128 bytes */
    a.pDmaBuffer = e.buf;
    st = pb_build_paging_buffer(&e.engine, &a);
    assert_int_equal(st, STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER);
    assert_int_equal(a.MultipassOffset, 16);
    a.TransferVirtual.TransferSizeInBytes = 1ull << 52; /* 2^40 pages: no 32-bit token */
    a.MultipassOffset = 0;
    a.pDmaBuffer = e.buf;
    assert_int_equal(pb_build_paging_buffer(&e.engine, &a), PB_STATUS_INVALID_ARGS);
    free(e.buf);
}

static void test_pte_multipass_overhead(void **state)
{
    bench_env e;
    DXGKARG_BUILDPAGINGBUFFER a;
    DXGK_PTE *pte = calloc(512, sizeof *pte);
    uint64_t single = 0, multi = 0, s = 7;
    uint32_t i;
    NTSTATUS st;
    (void)state;
    for (i = 0; i < 512; i++) {
        pte[i].Flags = 1;
        pte[i].PageAddress = rng(&s) & 0xFFFFFFFu; /* scattered: no generator runs */
    }
    env_init(&e, 4u << 20, 4096u);
    memset(&a, 0, sizeof a);
    a.Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)11;
    a.UpdatePageTable.NumPageTableEntries = 512;
    a.UpdatePageTable.pPageTableEntries = pte;
    a.UpdatePageTable.UpdateMode = (DXGK_PAGETABLEUPDATEMODE)2;
    a.UpdatePageTable.PageTableAddress.GpuPhysical.SegmentId = 1;
    a.pDmaBuffer = e.buf;
    a.DmaSize = BIG;
    assert_int_equal(pb_build_paging_buffer(&e.engine, &a), STATUS_SUCCESS);
    single = (uint64_t)((uint8_t *)a.pDmaBuffer - e.buf);
    a.MultipassOffset = 0;
    do {
        a.pDmaBuffer = e.buf;
        a.DmaSize = 4096;
        st = pb_build_paging_buffer(&e.engine, &a);
        multi += (uint64_t)((uint8_t *)a.pDmaBuffer - e.buf);
    } while (st == STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER);
    assert_int_equal(st, STATUS_SUCCESS);
    assert_true(multi * 100u <= single * 102u); /* the 1.02 bound, on bytes not time */
    free(pte);
    free(e.buf);
}

/* ---- configuration checks: every refused configuration, with its rule ---- */

static char g_rule[128];
static unsigned g_rules;

static void on_rule(void *ctx, const char *rule_id, pb_severity severity, const DXGKARG_BUILDPAGINGBUFFER *args)
{
    (void)ctx;
    (void)severity;
    (void)args;
    snprintf(g_rule, sizeof g_rule, "%s", rule_id);
    g_rules++;
}

/* size_of of the reference backend, except for what a test overrides. */
static uint32_t g_ptegen_per_entry, g_note_size;
static const pb_backend_ops *g_ref_ops; /* the reference backend's table */
static uint32_t odd_size_of(void *ctx, pb_packet_kind kind, uint32_t n)
{
    if (kind == PB_PKT_PTEGEN && g_ptegen_per_entry)
        return RPB_PTEGEN_BYTES + g_ptegen_per_entry * n;
    if (kind == PB_PKT_NOTE && g_note_size)
        return g_note_size;
    return g_ref_ops->size_of(ctx, kind, n);
}

static void expect_refused(bench_env *e, const char *rule)
{
    g_rule[0] = 0;
    g_rules = 0;
    e->cfg.report = on_rule;
    assert_int_equal(pb_engine_init(&e->engine, &e->cfg), PB_STATUS_INVALID_ARGS);
    assert_int_equal(g_rules, 1);
    assert_string_equal(g_rule, rule);
    assert_int_equal(e->engine.ready, 0);
}

static void expect_accepted(bench_env *e)
{
    g_rules = 0;
    e->cfg.report = on_rule;
    assert_int_equal(pb_engine_init(&e->engine, &e->cfg), STATUS_SUCCESS);
    assert_int_equal(g_rules, 0);
}

static void test_config_checks(void **state)
{
    static const uint32_t bad_aligns[] = {0, 1, 4, 24, 96};
    static const uint32_t bad_pages[] = {0, 8, 2048, 5000, 4096u * 3u + 8u};
    static const uint32_t bad_ptegen[] = {0, 1, 11};
    pb_backend_ops ops;
    bench_env e;
    unsigned i;
    (void)state;
    env_init(&e, 4096u, 4096u);
    expect_accepted(&e);

    e.cfg.paging_buffer_size = 64; /* smaller than BARRIER + TLB_INVAL + padding */
    expect_refused(&e, "pb_config.paging_buffer_size:holds-largest-packet");
    e.cfg.paging_buffer_size = 4096;

    for (i = 0; i < 5; i++) {
        e.cfg.backend.submit_align = bad_aligns[i];
        expect_refused(&e, "pb_config.backend.submit_align:power-of-two-at-least-8");
    }
    e.cfg.backend.submit_align = 1u << 31; /* a power of two, but no buffer holds it */
    expect_refused(&e, "pb_config.paging_buffer_size:holds-largest-packet");
    e.cfg.backend.submit_align = 64;

    for (i = 0; i < 5; i++) { /* zero pages per packet: the scan would return 0 */
        e.cfg.backend.max_copy = bad_pages[i];
        expect_refused(&e, "pb_config.backend.max_copy:nonzero-page-multiple");
    }
    e.cfg.backend.max_copy = 4096;
    for (i = 0; i < 5; i++) {
        e.cfg.backend.max_fill = bad_pages[i];
        expect_refused(&e, "pb_config.backend.max_fill:nonzero-page-multiple");
    }
    e.cfg.backend.max_fill = 4096;

    e.cfg.backend.max_write64 = 0;
    expect_refused(&e, "pb_config.backend.max_write64:nonzero");
    e.cfg.backend.max_write64 = 1; /* one entry per WRITE64 is slow but progresses */
    expect_accepted(&e);
    e.cfg.backend.max_write64 = 4096;

    for (i = 0; i < 3; i++) { /* below the PTEGEN threshold of 12 entries */
        e.cfg.backend.max_ptegen = bad_ptegen[i];
        expect_refused(&e, "pb_config.backend.max_ptegen:at-least-12");
    }
    e.cfg.backend.max_ptegen = 12;
    expect_accepted(&e);

    e.cfg.segment_count = 32;
    expect_refused(&e, "pb_config.segment_count:at-most-31");
    e.cfg.segment_count = 1;
    e.cfg.level_count = 7;
    expect_refused(&e, "pb_config.level_count:at-most-6");
    e.cfg.level_count = 2;

    /* AVX2: a known switch, and on only with the CPU, both hooks and consent. */
    e.cfg.wide_vectors = 2;
    expect_refused(&e, "pb_config.wide_vectors:known-value");
    e.cfg.wide_vectors = PB_WIDE_AUTO;
    expect_accepted(&e);
    assert_int_equal(e.engine.wide, pb_cpu_has_avx2()); /* the reference backend forwards both hooks */
    assert_int_equal(e.engine.wide_min, PB_WIDE_MIN_ENTRIES_DEFAULT);
    e.cfg.wide_vectors = PB_WIDE_OFF;
    e.cfg.wide_min_entries = 100;
    expect_accepted(&e);
    assert_int_equal(e.engine.wide, 0);
    assert_int_equal(e.engine.wide_min, 100);
    e.cfg.wide_vectors = PB_WIDE_AUTO;
    e.cfg.backend.pte_split.page_shift = 64;
    expect_refused(&e, "pb_config.backend.pte_split.page_shift:below-64");
    e.cfg.backend.pte_split.page_shift = RPB_PTE_PAGE_SHIFT;
    expect_accepted(&e);

    /* Incomplete backends. */
    ops = *e.cfg.backend.ops;
    ops.ptegen = NULL;
    e.cfg.backend.ops = &ops;
    expect_refused(&e, "pb_config.backend.ops:complete");
    e.cfg.backend.ops = NULL;
    expect_refused(&e, "pb_config.backend.ops:complete");

    /* A backend whose PTEGEN grows with its count: max_ptegen entries must fit. */
    rpb_backend_init(&e.cfg.backend, &e.rctx);
    g_ref_ops = e.cfg.backend.ops;
    e.cfg.backend.max_copy = 4096;
    e.cfg.backend.max_fill = 4096;
    ops = *g_ref_ops;
    ops.size_of = odd_size_of;
    e.cfg.backend.ops = &ops;
    e.cfg.backend.max_ptegen = 1u << 20;
    g_ptegen_per_entry = 1;
    expect_refused(&e, "pb_config.paging_buffer_size:holds-largest-packet");
    e.cfg.backend.max_ptegen = 1024;
    expect_accepted(&e);
    g_ptegen_per_entry = 0;
    /* "Never fits" sizes near 2^32 must not wrap the buffer check around. */
    g_note_size = 0xFFFFFFF8u;
    expect_refused(&e, "pb_config.paging_buffer_size:holds-largest-packet");
    g_note_size = 0;
    expect_accepted(&e);

    /* A refused engine refuses calls instead of running on the bad limits. */
    e.cfg.backend.max_copy = 0;
    expect_refused(&e, "pb_config.backend.max_copy:nonzero-page-multiple");
    {
        DXGKARG_BUILDPAGINGBUFFER a;
        memset(&a, 0, sizeof a);
        a.Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)8;
        a.TransferVirtual.TransferSizeInBytes = 1u << 20;
        a.TransferVirtual.DestinationVirtualAddress = 1ull << 30;
        a.pDmaBuffer = e.buf;
        a.DmaSize = 4096;
        assert_int_equal(pb_build_paging_buffer(&e.engine, &a), PB_STATUS_INVALID_ARGS);
        assert_string_equal(g_rule, "pb_engine:initialised");
        assert_ptr_equal(a.pDmaBuffer, e.buf);
    }
    assert_int_equal(pb_engine_init(NULL, &e.cfg), PB_STATUS_INVALID_ARGS);
    assert_int_equal(pb_engine_init(&e.engine, NULL), PB_STATUS_INVALID_ARGS);
    free(e.buf);
}

/* The progress guards: limits changed behind the engine's back after init (the
 * config is a public struct) make a length 0; the loops refuse, never spin. */
static void test_progress_guards(void **state)
{
    bench_env e;
    DXGKARG_BUILDPAGINGBUFFER a;
    MDL *mdl = malloc(sizeof(MDL) + sizeof(PFN_NUMBER) * 300u);
    PFN_NUMBER *pfn = MmGetMdlPfnArray(mdl);
    unsigned op, i;
    (void)state;
    memset(mdl, 0, sizeof *mdl);
    mdl->ByteCount = 300u * 4096u;
    for (i = 0; i < 300u; i++)
        pfn[i] = (i % 100u < 70u) ? 5000u + i : 90000u - 3u * i; /* contiguous and scattered blocks */
    env_init(&e, 4u << 20, 4096u);
    e.cfg.report = on_rule;
    assert_int_equal(pb_engine_init(&e.engine, &e.cfg), STATUS_SUCCESS);
    for (op = 0; op < 4; op++) {
        e.engine.cfg.backend.max_copy = 0;
        e.engine.cfg.backend.max_fill = 0;
        memset(&a, 0, sizeof a);
        switch (op) {
        case 0: /* TRANSFER from a scattered MDL: the run scan with cap 0 */
            a.Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)0;
            a.Transfer.TransferSize = 300u * 4096u;
            a.Transfer.Source.pMdl = mdl;
            a.Transfer.Destination.SegmentId = 1;
            a.Transfer.Flags.Value = 0x18;
            break;
        case 1: /* FILL: chunks of 0 pages */
            a.Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)1;
            a.Fill.FillSize = 1u << 20;
            a.Fill.Destination.SegmentId = 1;
            break;
        case 2: /* VIRTUAL_TRANSFER */
            a.Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)8;
            a.TransferVirtual.TransferSizeInBytes = 1u << 20;
            a.TransferVirtual.DestinationVirtualAddress = 1ull << 30;
            break;
        default: { /* COPY_PAGE_TABLE_ENTRIES: max_copy / 8 entries per packet */
            static DXGK_BUILDPAGINGBUFFER_COPY_RANGE range;
            range.NumPageTableEntries = 100;
            range.DstPageTableAddress = 1ull << 20;
            a.Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)14;
            a.CopyPageTableEntries.NumRanges = 1;
            a.CopyPageTableEntries.pRanges = &range;
            break;
        }
        }
        a.pDmaBuffer = e.buf;
        a.DmaSize = 4096;
        g_rule[0] = 0;
        assert_int_equal(pb_build_paging_buffer(&e.engine, &a), PB_STATUS_INVALID_ARGS);
        assert_string_equal(g_rule, "pb_engine:every-step-progresses");
        assert_ptr_equal(a.pDmaBuffer, e.buf);
        assert_int_equal(a.MultipassOffset, 0);
        /* Restored limits: the same call completes. */
        e.engine.cfg.backend.max_copy = 4u << 20;
        e.engine.cfg.backend.max_fill = 4u << 20;
        a.DmaSize = BIG;
        assert_int_equal(pb_build_paging_buffer(&e.engine, &a), STATUS_SUCCESS);
    }
    free(mdl);
    free(e.buf);
}

static void test_pfn_run_length(void **state)
{
    PFN_NUMBER p[40];
    uint32_t i;
    (void)state;
    for (i = 0; i < 40; i++)
        p[i] = 100 + i;
    assert_int_equal(pb_pfn_run_length(p, 40), 40);
    assert_int_equal(pb_pfn_run_length(p, 0), 0);
    for (i = 0; i < 40; i++) {
        PFN_NUMBER keep = p[i];
        p[i] = 7;
        assert_int_equal(pb_pfn_run_length(p, 40), i == 0 ? 1 : i);
        p[i] = keep;
    }
}

static void test_strict_decoder(void **state)
{
    _Alignas(8) uint8_t buf[256];
    char err[160];
    (void)state;
    memset(buf, 0, sizeof buf);
    assert_int_not_equal(pbsim_decode(buf, 64, NULL, err, sizeof err), 0); /* opcode 0 */
    rpb_put_barrier(buf, 0);
    rpb_put_barrier(buf + 16, 1);
    rpb_put_pad(buf + 32, 8);
    rpb_put_barrier(buf + 40, 2);
    assert_int_equal(pbsim_decode(buf, 56, NULL, err, sizeof err), 0);
    rpb_put_barrier(buf + 40, 3); /* seq gap */
    assert_int_not_equal(pbsim_decode(buf, 56, NULL, err, sizeof err), 0);
    rpb_put_barrier(buf + 40, 2);
    buf[14] = 1; /* reserved header word */
    assert_int_not_equal(pbsim_decode(buf, 56, NULL, err, sizeof err), 0);
    buf[14] = 0;
    rpb_put_copy(buf, 0, rpb_loc_make(1, 0), rpb_loc_make(2, 0), 8, RPB_COPY_PLAIN);
    assert_int_equal(pbsim_decode(buf, RPB_COPY_BYTES, NULL, err, sizeof err), 0);
    buf[19] = 1; /* reserved half of a location */
    assert_int_not_equal(pbsim_decode(buf, RPB_COPY_BYTES, NULL, err, sizeof err), 0);
    assert_int_not_equal(pbsim_decode(buf, RPB_COPY_BYTES - 8u, NULL, err, sizeof err), 0); /* truncated */
}

static void test_swizzle_is_a_bijection(void **state)
{
    unsigned b;
    int seen[256] = {0};
    (void)state;
    for (b = 0; b < 256; b++) {
        assert_int_equal(rpb_unswizzle_byte(rpb_swizzle_byte((uint8_t)b)), b);
        seen[rpb_swizzle_byte((uint8_t)b)]++;
    }
    for (b = 0; b < 256; b++)
        assert_int_equal(seen[b], 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_copy_count_is_optimal),
        cmocka_unit_test(test_copy_count_block_mix),
        cmocka_unit_test(test_progress_token_is_page_index),
        cmocka_unit_test(test_pte_multipass_overhead),
        cmocka_unit_test(test_config_checks),
        cmocka_unit_test(test_progress_guards),
        cmocka_unit_test(test_pfn_run_length),
        cmocka_unit_test(test_strict_decoder),
        cmocka_unit_test(test_swizzle_is_a_bijection),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
