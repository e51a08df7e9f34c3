/* The refusal contract of UPDATE_PAGE_TABLE, where the DMA path checks the
 * entries while it encodes them: an entry that breaks a DXGK_PTE rule in the
 * first entry of a call, in the last, in the middle of a vector block, or in
 * the part that does not fit the buffer, gets the call refused with the cursor
 * unchanged and nothing outside the DMA buffer's unused tail changed (rt_op
 * checks that); the CPU path writes nothing at all. Valid updates cut by small
 * buffers anywhere must still match the oracle, and AVX2 (one state save per
 * call) starts exactly at wide_min_entries, non-temporal payload stores
 * exactly at the stream threshold. Then planted faults, run
 * inside refused calls, prove the harness fails on every byte changed outside
 * the tail and accepts scratch inside it. */
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

static rt_world *new_world(uint32_t buffer_size)
{
    rt_world *w = malloc(sizeof *w);
    assert_non_null(w);
    assert_int_equal(rt_world_init(w, 77, buffer_size), 0);
    return w;
}

static void done(rt_world *w)
{
    if (rt_check(w))
        fail_msg("%s", w->failure);
    rt_world_free(w);
    free(w);
}

static int variant_is(const char *name)
{
    const char *v = getenv("RT_ENGINE");
    return v && strcmp(v, name) == 0;
}

/* The variant saves the vector state for AVX2 ("wide", "stream-wide"). */
static int variant_is_wide(void)
{
    return variant_is("wide") || variant_is("stream-wide");
}

/* A FILL queued first, so the buffer has a written part the refusal must keep. */
static void queue_fill(rt_world *w)
{
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof a);
    w->arena_used = 0;
    a.Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)1;
    a.Fill.FillSize = 256;
    a.Fill.FillPattern = 0xA5A5A5A5u;
    a.Fill.Destination.SegmentId = RT_SEG_DATA;
    a.Fill.Destination.SegmentAddress.QuadPart = (LONGLONG)(RT_SEG_BASE(RT_SEG_DATA) + 4096u);
    if (rt_op(w, &a, 0))
        fail_msg("%s", w->failure);
    assert_true(w->used > 0);
}

enum { MODE_GPU_PHYSICAL, MODE_GPU_VIRTUAL, MODE_CPU_ALIAS, MODE_CPU_NOW, MODES };
enum { TABLE_SCATTERED, TABLE_RUNS, TABLE_MIXED, TABLES };

/* n valid entries: scattered pages with one flag word, pages in PTEGEN-sized
 * runs (the fused pass falls back to the scan), or two alternating flag words. */
static DXGK_PTE *valid_entries(rt_world *w, uint32_t n, int table)
{
    DXGK_PTE *e = rt_alloc(w, sizeof *e * n);
    uint64_t s = 0x1234u + n;
    uint32_t i;
    assert_non_null(e);
    for (i = 0; i < n; i++) {
        s = s * 6364136223846793005ull + 1442695040888963407ull;
        e[i].Flags = 1u | (table == TABLE_MIXED ? (uint64_t)((s >> 40) & 1u) << 3 : 0u);
        e[i].PageAddress = table == TABLE_RUNS ? 0x4000u + i : (s >> 20) & 0xFFFFFFFu;
    }
    return e;
}

static void upt_args(rt_world *w, DXGKARG_BUILDPAGINGBUFFER *a, int mode, DXGK_PTE *e, uint32_t n)
{
    memset(a, 0, sizeof *a);
    a->Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)11;
    a->pDmaBuffer = w->buf;
    a->UpdatePageTable.pPageTableEntries = e;
    a->UpdatePageTable.NumPageTableEntries = n;
    a->UpdatePageTable.StartIndex = 512u - n;
    w->use_cpu_alias = mode == MODE_CPU_ALIAS;
    switch (mode) {
    case MODE_GPU_PHYSICAL:
        a->UpdatePageTable.UpdateMode = (DXGK_PAGETABLEUPDATEMODE)2;
        a->UpdatePageTable.PageTableAddress.GpuPhysical.SegmentId = RT_SEG_TABLES;
        a->UpdatePageTable.PageTableAddress.GpuPhysical.SegmentOffset = RT_LEAF_OFFSET;
        break;
    case MODE_GPU_VIRTUAL:
        a->UpdatePageTable.UpdateMode = (DXGK_PAGETABLEUPDATEMODE)1;
        a->UpdatePageTable.PageTableAddress.GpuVirtual = RT_VA_LEAF;
        break;
    default:
        a->UpdatePageTable.UpdateMode = (DXGK_PAGETABLEUPDATEMODE)0;
        a->UpdatePageTable.PageTableAddress.CpuVirtual = rt_seg_host(w, &w->sim, RT_SEG_TABLES, RT_LEAF_OFFSET);
        if (mode == MODE_CPU_NOW)
            a->pDmaBuffer = NULL;
        break;
    }
}

typedef struct violation {
    uint64_t flags;
    const char *rule;
} violation;

static const violation k_violations[] = {
    {1u | (1ull << 40), "DXGK_PTE.Reserved:zero"},
    {2u, "DXGK_PTE.Zero:requires-valid-and-ZeroInPteSupported"},
    {1u | 0x400u, "DXGK_PTE.LargePage:non-leaf-and-LargePageSupported"},
};

/* 1 when the refused call left bytes in the unused tail (the fused pass ran). */
static int tail_has_scratch(const rt_world *w)
{
    return memcmp(w->buf + w->used, w->buf_before + w->used, w->buf_size - w->used) != 0;
}

static void refuse_at(rt_world *w, int mode, int table, uint32_t n, uint32_t at, const violation *v,
                      uint32_t *scratch_seen)
{
    DXGKARG_BUILDPAGINGBUFFER a;
    DXGK_PTE *e;
    w->arena_used = 0;
    e = valid_entries(w, n, table);
    e[at].Flags = v->flags;
    upt_args(w, &a, mode, e, n);
    if (rt_op(w, &a, 1))
        fail_msg("mode %d table %d n %u bad entry %u (%s): %s", mode, table, n, at, v->rule, w->failure);
    assert_string_equal(w->last_rule, v->rule);
    if (mode == MODE_CPU_NOW) /* one_call checked the whole buffer is untouched */
        return;
    *scratch_seen += (uint32_t)tail_has_scratch(w);
}

/* Positions: first, last, and the middle of a 16-entry vector block. */
static void test_violation_positions_refused(void **state)
{
    static const uint32_t sizes[] = {1, 7, 16, 40, 200, 496};
    const uint32_t buffers[] = {RT_MAX_BUFFER, 1024u};
    const unsigned long saves = pbsim_vector_saves();
    uint32_t b, k, scratch = 0, dma_refusals = 0;
    int mode, table;
    size_t v;
    (void)state;
    for (b = 0; b < 2; b++) { /* 1024 bytes: most entries are checked outside the fused pass */
        rt_world *w = new_world(buffers[b]);
        for (mode = 0; mode < MODES; mode++)
            for (table = 0; table < TABLES; table++)
                for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
                    for (v = 0; v < sizeof k_violations / sizeof k_violations[0]; v++) {
                        const uint32_t n = sizes[k], mid = n > 21u ? 16u + 5u : n / 2u;
                        queue_fill(w);
                        refuse_at(w, mode, table, n, 0, &k_violations[v], &scratch);
                        refuse_at(w, mode, table, n, n - 1u, &k_violations[v], &scratch);
                        refuse_at(w, mode, table, n, mid, &k_violations[v], &scratch);
                        dma_refusals += mode == MODE_CPU_NOW ? 0u : 3u;
                    }
        done(w);
    }
    /* The default and wide engines check while encoding: refusals leave scratch
     * behind the cursor. The classic engine checks first and writes nothing. */
    if (variant_is("classic"))
        assert_int_equal(scratch, 0);
    else
        assert_true(scratch > dma_refusals / 4u);
    if (variant_is_wide() && pb_cpu_has_avx2())
        assert_true(pbsim_vector_saves() > saves);
    assert_int_equal(pbsim_vector_open(), 0);
}

/* Accepted updates through the fused first call, at buffer sizes that cut it
 * anywhere (the payload packets, the entries summarised apart, the scan after
 * a possible run): the memory must equal the oracle's. Entries from 112 on, so
 * the harness's own mappings (leaf entries below 97) stay in place. */
static void test_accepted_updates_match_oracle(void **state)
{
    static const uint32_t sizes[] = {1, 8, 9, 100, 400};
    static const uint32_t buffers[] = {256, 1024, 4096, RT_MAX_BUFFER};
    uint32_t b, k;
    int mode, table;
    (void)state;
    for (b = 0; b < sizeof buffers / sizeof buffers[0]; b++) {
        rt_world *w = new_world(buffers[b]);
        for (mode = 0; mode < MODE_CPU_NOW; mode++)
            for (table = 0; table < TABLES; table++)
                for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
                    DXGKARG_BUILDPAGINGBUFFER a;
                    w->arena_used = 0;
                    upt_args(w, &a, mode, valid_entries(w, sizes[k], table), sizes[k]);
                    if (rt_op(w, &a, 0) || rt_check(w))
                        fail_msg("buffer %u mode %d table %d n %u: %s", buffers[b], mode, table, sizes[k],
                                 w->failure);
                }
        done(w);
    }
    assert_int_equal(pbsim_vector_open(), 0);
}

/* AVX2 is used from wide_min_entries entries left in a call, with one save and
 * one restore per call, and never when the configuration forbids it. */
static void test_wide_only_from_threshold(void **state)
{
    const unsigned long can = pb_cpu_has_avx2();
    rt_world *w = new_world(RT_MAX_BUFFER);
    DXGKARG_BUILDPAGINGBUFFER a;
    unsigned long saves;
    (void)state;
    w->rctx.vector_save = pbsim_vector_save;
    w->rctx.vector_restore = pbsim_vector_restore;
    w->cfg.wide_min_entries = 64;
    assert_int_equal(rt_set_buffer_size(w, RT_MAX_BUFFER), 0); /* submits, then a new engine on w->cfg */
    assert_int_equal(w->engine.wide, can);
    w->arena_used = 0;
    upt_args(w, &a, MODE_GPU_PHYSICAL, valid_entries(w, 63, TABLE_SCATTERED), 63);
    saves = pbsim_vector_saves();
    if (rt_op(w, &a, 0))
        fail_msg("%s", w->failure);
    assert_int_equal(pbsim_vector_saves(), saves); /* below the threshold: SSE2 */
    w->arena_used = 0;
    upt_args(w, &a, MODE_GPU_PHYSICAL, valid_entries(w, 64, TABLE_MIXED), 64);
    if (rt_op(w, &a, 0))
        fail_msg("%s", w->failure);
    assert_int_equal(pbsim_vector_saves(), saves + can); /* one call, one save */
    w->cfg.wide_vectors = PB_WIDE_OFF;
    assert_int_equal(rt_set_buffer_size(w, RT_MAX_BUFFER), 0);
    w->arena_used = 0;
    upt_args(w, &a, MODE_GPU_PHYSICAL, valid_entries(w, 400, TABLE_SCATTERED), 400);
    if (rt_op(w, &a, 0))
        fail_msg("%s", w->failure);
    assert_int_equal(pbsim_vector_saves(), saves + can);
    assert_int_equal(pbsim_vector_open(), 0);
    done(w);
}

/* Non-temporal payload stores from the stream threshold on: a paging buffer of
 * stream_min_bytes or more streams, one byte less does not; on either side,
 * at every entry count around the loops' blocks and lines, accepted updates
 * equal the oracle and refused ones change only the unused tail (rt_op). */
static void test_stream_from_threshold(void **state)
{
    static const uint32_t sizes[] = {1, 7, 8, 9, 15, 16, 17, 24, 63, 64, 65, 200, 400};
    static const uint32_t buffers[] = {1024, RT_MAX_BUFFER};
    static const int32_t offsets[] = {-64, 0, 1}; /* threshold - buffer */
    uint32_t b, o, k;
    int mode, table;
    (void)state;
    for (b = 0; b < sizeof buffers / sizeof buffers[0]; b++)
        for (o = 0; o < sizeof offsets / sizeof offsets[0]; o++) {
            rt_world *w = new_world(buffers[b]);
            w->cfg.stream_min_bytes = (uint32_t)((int32_t)buffers[b] + offsets[o]);
            assert_int_equal(rt_set_buffer_size(w, buffers[b]), 0);
            assert_int_equal(w->engine.stream, offsets[o] <= 0);
            for (mode = 0; mode < MODE_CPU_NOW; mode++)
                for (table = 0; table < TABLES; table++)
                    for (k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
                        const uint32_t n = sizes[k];
                        DXGKARG_BUILDPAGINGBUFFER a;
                        uint32_t scratch = 0;
                        w->arena_used = 0;
                        upt_args(w, &a, mode, valid_entries(w, n, table), n);
                        if (rt_op(w, &a, 0) || rt_check(w))
                            fail_msg("buffer %u threshold %+d mode %d table %d n %u: %s", buffers[b], offsets[o],
                                     mode, table, n, w->failure);
                        queue_fill(w);
                        refuse_at(w, mode, table, n, n / 2u, &k_violations[1], &scratch);
                    }
            done(w);
        }
    assert_int_equal(pbsim_vector_open(), 0);
}

/* ---- planted faults: the harness must catch them ---- */

static void scribble_written_part(rt_world *w)
{
    w->buf[8] ^= 1u;
}

static void scribble_past_dma_size(rt_world *w)
{
    w->buf[w->buf_size + 3u] ^= 1u;
}

static void scribble_memory(rt_world *w)
{
    rt_seg_host(w, &w->sim, RT_SEG_DATA, 100)[0] ^= 1u;
}

static void scribble_arguments(rt_world *w)
{
    w->arena[0] ^= 1u;
}

static void scribble_tail(rt_world *w)
{
    w->buf[w->used + 40u] ^= 1u;
}

static void scribble_any_buffer_byte(rt_world *w)
{
    w->buf[w->used + 1u] ^= 1u;
}

/* A refused call (Zero without Valid in the middle of a block) with fault planted
 * in it; returns rt_op's result and leaves the failure text in w. */
static int refused_with_fault(rt_world *w, int mode, void (*fault)(rt_world *))
{
    DXGKARG_BUILDPAGINGBUFFER a;
    DXGK_PTE *e;
    int rc;
    queue_fill(w);
    w->arena_used = 0;
    e = valid_entries(w, 64, TABLE_SCATTERED);
    e[21].Flags = 2u;
    upt_args(w, &a, mode, e, 64);
    w->fault = fault;
    rc = rt_op(w, &a, 1);
    w->fault = NULL;
    return rc;
}

static void expect_caught(int mode, void (*fault)(rt_world *), const char *words)
{
    rt_world *w = new_world(RT_MAX_BUFFER);
    if (refused_with_fault(w, mode, fault) == 0)
        fail_msg("planted fault not caught (expected \"%s\")", words);
    if (!strstr(w->failure, words))
        fail_msg("caught as \"%s\", expected \"%s\"", w->failure, words);
    rt_world_free(w);
    free(w);
}

static void test_harness_catches_writes_outside_the_tail(void **state)
{
    rt_world *w;
    (void)state;
    expect_caught(MODE_GPU_PHYSICAL, scribble_written_part, "written by an earlier call");
    expect_caught(MODE_GPU_PHYSICAL, scribble_past_dma_size, "past DmaSize");
    expect_caught(MODE_GPU_PHYSICAL, scribble_memory, "changed memory outside the DMA buffer");
    expect_caught(MODE_GPU_PHYSICAL, scribble_arguments, "changed its argument arrays");
    expect_caught(MODE_CPU_NOW, scribble_any_buffer_byte, "CPU-path call wrote into the DMA buffer");
    expect_caught(MODE_CPU_NOW, scribble_memory, "changed memory outside the DMA buffer");
    /* Scratch in the unused tail is allowed on the DMA path. */
    w = new_world(RT_MAX_BUFFER);
    if (refused_with_fault(w, MODE_GPU_PHYSICAL, scribble_tail))
        fail_msg("scratch in the tail refused: %s", w->failure);
    done(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_violation_positions_refused),
        cmocka_unit_test(test_accepted_updates_match_oracle),
        cmocka_unit_test(test_wide_only_from_threshold),
        cmocka_unit_test(test_stream_from_threshold),
        cmocka_unit_test(test_harness_catches_writes_outside_the_tail),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
