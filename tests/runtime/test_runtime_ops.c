/* Single-shot tests, one or more per paging operation 0-22: the engine's packets,
 * executed by the simulator, must leave memory byte-identical to the oracle's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "rt_harness.h"

static rt_world *new_world(void)
{
    rt_world *w = malloc(sizeof *w);
    assert_non_null(w);
    assert_int_equal(rt_world_init(w, 1234, RT_MAX_BUFFER), 0);
    return w;
}

static void done(rt_world *w)
{
    if (rt_check(w))
        fail_msg("%s", w->failure);
    rt_world_free(w);
    free(w);
}

static void run(rt_world *w, DXGKARG_BUILDPAGINGBUFFER *a)
{
    if (rt_op(w, a, 0))
        fail_msg("%s", w->failure);
}

static void refused(rt_world *w, DXGKARG_BUILDPAGINGBUFFER *a, const char *rule)
{
    if (rt_op(w, a, 1))
        fail_msg("%s", w->failure);
    assert_string_equal(w->last_rule, rule);
}

static void args(rt_world *w, DXGKARG_BUILDPAGINGBUFFER *a, uint32_t op)
{
    memset(a, 0, sizeof *a);
    a->Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)op;
    a->pDmaBuffer = w->buf;
    w->arena_used = 0;
}

static MDL *mdl_of(rt_world *w, const uint32_t *pages, uint32_t n)
{
    PFN_NUMBER pfn[64];
    uint32_t i;
    for (i = 0; i < n; i++)
        pfn[i] = RT_SYS_PFN_BASE + pages[i];
    return rt_mdl(w, pfn, n);
}

static uint64_t packets(rt_world *w, int opcode)
{
    return w->sim.packets_by_op[opcode];
}

/* ---- 0 TRANSFER / 7 SPECIAL_LOCK_TRANSFER ---- */

static void test_transfer_segment_to_mdl(void **state)
{
    static const uint32_t pages[] = {9, 3, 4, 5, 11, 12, 0};
    rt_world *w = new_world();
    DXGKARG_BUILDPAGINGBUFFER a;
    (void)state;
    args(w, &a, 0);
    a.Transfer.TransferSize = 4u * 4096u + 100u; /* partial last page */
    a.Transfer.TransferOffset = 0x234;
    a.Transfer.MdlOffset = 1;                    /* first page is PfnArray[1] */
    a.Transfer.Source.SegmentId = RT_SEG_DATA;
    a.Transfer.Source.SegmentAddress.QuadPart = (LONGLONG)(RT_SEG_BASE(RT_SEG_DATA) + 0x1000);
    a.Transfer.Destination.pMdl = mdl_of(w, pages, 7);
    a.Transfer.Flags.Value = 0x18; /* Start | End */
    run(w, &a);
    assert_int_equal(rt_check(w), 0);
    /* pages 3,4,5 | 11,12 (partial last): two runs -> two COPY packets */
    assert_int_equal(packets(w, RPB_OP_COPY), 2);
    done(w);
}

static void test_transfer_mdl_to_segment(void **state)
{
    static const uint32_t pages[] = {1, 2, 3, 4, 20, 7};
    rt_world *w = new_world();
    DXGKARG_BUILDPAGINGBUFFER a;
    (void)state;
    args(w, &a, 0);
    a.Transfer.TransferSize = 6u * 4096u;
    a.Transfer.Source.pMdl = mdl_of(w, pages, 6);
    a.Transfer.Destination.SegmentId = RT_SEG_TABLES;
    a.Transfer.Destination.SegmentAddress.QuadPart = (LONGLONG)(RT_SEG_BASE(RT_SEG_TABLES) + 5u * 4096u + 8u);
    a.Transfer.Flags.Value = 0x18;
    run(w, &a);
    assert_int_equal(rt_check(w), 0);
    assert_int_equal(packets(w, RPB_OP_COPY), 3);
    done(w);
}

static void test_transfer_segment_to_segment(void **state)
{
    rt_world *w = new_world();
    DXGKARG_BUILDPAGINGBUFFER a;
    (void)state;
    args(w, &a, 0);
    a.Transfer.TransferSize = 3u * 4096u + 17u;
    a.Transfer.TransferOffset = 16;
    a.Transfer.Source.SegmentId = RT_SEG_DATA;
    a.Transfer.Source.SegmentAddress.QuadPart = (LONGLONG)RT_SEG_BASE(RT_SEG_DATA);
    a.Transfer.Destination.SegmentId = RT_SEG_TABLES;
    a.Transfer.Destination.SegmentAddress.QuadPart = (LONGLONG)(RT_SEG_BASE(RT_SEG_TABLES) + 6u * 4096u);
    a.Transfer.Flags.Value = 0x18;
    run(w, &a);
    assert_int_equal(rt_check(w), 0);
    assert_int_equal(packets(w, RPB_OP_COPY), 1);
    done(w);
}

static void test_transfer_swizzle_busy_then_idle(void **state)
{
    static const uint32_t pages[] = {2, 3};
    rt_world *w = new_world();
    DXGKARG_BUILDPAGINGBUFFER a;
    (void)state;
    args(w, &a, 0);
    a.Transfer.hAllocation = (HANDLE)(uintptr_t)0x77;
    a.Transfer.TransferSize = 2u * 4096u;
    a.Transfer.Source.SegmentId = RT_SEG_DATA;
    a.Transfer.Source.SegmentAddress.QuadPart = (LONGLONG)(RT_SEG_BASE(RT_SEG_DATA) + 4096u);
    a.Transfer.Destination.pMdl = mdl_of(w, pages, 2);
    a.Transfer.Flags.Value = 0x18 | 1u; /* Swizzle, not idle: the reference backend wants idle */
    run(w, &a);
    assert_int_equal(w->busy, 1);
    assert_int_equal(rt_check(w), 0);
    /* and back: Unswizzle restores the original bytes */
    args(w, &a, 0);
    a.Transfer.hAllocation = (HANDLE)(uintptr_t)0x77;
    a.Transfer.TransferSize = 2u * 4096u;
    a.Transfer.Source.pMdl = mdl_of(w, pages, 2);
    a.Transfer.Destination.SegmentId = RT_SEG_DATA;
    a.Transfer.Destination.SegmentAddress.QuadPart = (LONGLONG)(RT_SEG_BASE(RT_SEG_DATA) + 4u * 4096u);
    a.Transfer.Flags.Value = 0x18 | 2u | 4u;
    run(w, &a);
    assert_int_equal(rt_check(w), 0);
    assert_memory_equal(rt_seg_host(w, &w->sim, RT_SEG_DATA, 4096u), rt_seg_host(w, &w->sim, RT_SEG_DATA, 4u * 4096u),
                        2u * 4096u);
    done(w);
}

static void test_transfer_null_allocation_ignores_swizzle(void **state)
{
    rt_world *w = new_world();
    DXGKARG_BUILDPAGINGBUFFER a;
    (void)state;
    args(w, &a, 0);
    a.Transfer.TransferSize = 4096u;
    a.Transfer.Source.SegmentId = RT_SEG_DATA;
    a.Transfer.Source.SegmentAddress.QuadPart = (LONGLONG)RT_SEG_BASE(RT_SEG_DATA);
    a.Transfer.Destination.SegmentId = RT_SEG_DATA;
    a.Transfer.Destination.SegmentAddress.QuadPart = (LONGLONG)(RT_SEG_BASE(RT_SEG_DATA) + 4096u);
    a.Transfer.Flags.Value = 0x18 | 1u;
    run(w, &a);
    assert_int_equal(w->busy, 0);
    assert_int_equal(rt_check(w), 0);
    assert_memory_equal(rt_seg_host(w, &w->sim, RT_SEG_DATA, 0), rt_seg_host(w, &w->sim, RT_SEG_DATA, 4096u), 4096u);
    done(w);
}

static void test_transfer_rules(void **state)
{
    static const uint32_t pages[] = {1, 2};
    rt_world *w = new_world();
    DXGKARG_BUILDPAGINGBUFFER a;
    (void)state;
    args(w, &a, 0);
    a.Transfer.TransferSize = 4096u;
    a.Transfer.Source.pMdl = mdl_of(w, pages, 2);
    a.Transfer.Destination.pMdl = mdl_of(w, pages, 2);
    refused(w, &a, "DXGKARG_BUILDPAGINGBUFFER.Transfer:one-side-is-a-segment");
    a.Transfer.Destination.SegmentId = RT_SEG_DATA;
    a.Transfer.Destination.SegmentAddress.QuadPart = (LONGLONG)RT_SEG_BASE(RT_SEG_DATA);
    a.Transfer.Flags.Value = 3u;
    refused(w, &a, "DXGKARG_BUILDPAGINGBUFFER.Transfer.Flags:swizzle-exclusive");
    a.Transfer.Flags.Value = 0x20u;
    /* the generated validator descends into Transfer.Flags (the fixture's
     * DXGK_TRANSFERFLAGS page) before the runtime's own rule sees it */
    refused(w, &a, "DXGK_TRANSFERFLAGS.Reserved:reserved-zero");
    a.Transfer.Flags.Value = 0x18u;
    a.Transfer.MdlOffset = 2;
    refused(w, &a, "DXGKARG_BUILDPAGINGBUFFER.Transfer.MdlOffset:within-mdl");
    a.Transfer.MdlOffset = 0;
    a.Transfer.Destination.SegmentAddress.QuadPart = (LONGLONG)(RT_SEG_BASE(RT_SEG_DATA) + RT_SEG2_BYTES - 100u);
    refused(w, &a, "DXGKARG_BUILDPAGINGBUFFER.Transfer.Destination.SegmentAddress:within-segment");
    args(w, &a, 0);
    a.Transfer.TransferSize = 8192u;
    a.Transfer.Source.SegmentId = RT_SEG_DATA;
    a.Transfer.Source.SegmentAddress.QuadPart = (LONGLONG)RT_SEG_BASE(RT_SEG_DATA);
    a.Transfer.Destination.SegmentId = RT_SEG_DATA;
    a.Transfer.Destination.SegmentAddress.QuadPart = (LONGLONG)(RT_SEG_BASE(RT_SEG_DATA) + 4096u);
    refused(w, &a, "DXGKARG_BUILDPAGINGBUFFER.Transfer:source-destination-disjoint");
    done(w);
}

static void test_special_lock_transfer(void **state)
{
    static const uint32_t pages[] = {5, 6, 8};
    rt_world *w = new_world();
    DXGKARG_BUILDPAGINGBUFFER a;
    (void)state;
    args(w, &a, 7);
    a.SpecialLockTransfer.hAllocation = (HANDLE)(uintptr_t)0x99;
    a.SpecialLockTransfer.TransferSize = 3u * 4096u - 5u;
    a.SpecialLockTransfer.Source.SegmentId = RT_SEG_DATA;
    a.SpecialLockTransfer.Source.SegmentAddress.QuadPart = (LONGLONG)(RT_SEG_BASE(RT_SEG_DATA) + 3u);
    a.SpecialLockTransfer.Destination.pMdl = mdl_of(w, pages, 3);
    a.SpecialLockTransfer.Flags.Value = 0x18 | 2u;
    a.SpecialLockTransfer.SwizzlingRangeId = 3;
    run(w, &a);
    assert_int_equal(rt_check(w), 0);
    assert_int_equal(packets(w, RPB_OP_COPY), 2);
    done(w);
}

/* ---- 1 FILL ---- */

static void test_fill(void **state)
{
    rt_world *w = new_world();
    DXGKARG_BUILDPAGINGBUFFER a;
    (void)state;
    args(w, &a, 1);
    a.Fill.FillSize = 2u * 4096u + 3u; /* not a multiple of 4: pattern phase matters */
    a.Fill.FillPattern = 0xA1B2C3D4u;
    a.Fill.Destination.SegmentId = RT_SEG_DATA;
    a.Fill.Destination.SegmentAddress.QuadPart = (LONGLONG)(RT_SEG_BASE(RT_SEG_DATA) + 1u);
    run(w, &a);
    assert_int_equal(rt_check(w), 0);
    assert_int_equal(rt_seg_host(w, &w->sim, RT_SEG_DATA, 1)[0], 0xD4);
    assert_int_equal(rt_seg_host(w, &w->sim, RT_SEG_DATA, 1)[2u * 4096u + 2u], 0xB2);
    args(w, &a, 1);
    a.Fill.FillSize = 16;
    a.Fill.Destination.SegmentId = RT_SEG_APERTURE;
    a.Fill.Destination.SegmentAddress.QuadPart = (LONGLONG)RT_SEG_BASE(RT_SEG_APERTURE);
    refused(w, &a, "DXGKARG_BUILDPAGINGBUFFER.Fill.Destination.SegmentId:memory-segment");
    done(w);
}

/* ---- 2 DISCARD_CONTENT and the other record-only operations ---- */

static void test_discard_content(void **state)
{
    rt_world *w = new_world();
    DXGKARG_BUILDPAGINGBUFFER a;
    (void)state;
    args(w, &a, 2);
    a.DiscardContent.hAllocation = (HANDLE)(uintptr_t)0x1234;
    a.DiscardContent.Flags.Value = 1;
    a.DiscardContent.SegmentId = RT_SEG_DATA;
    a.DiscardContent.SegmentAddress.QuadPart = (LONGLONG)(RT_SEG_BASE(RT_SEG_DATA) + 4096u);
    run(w, &a);
    assert_int_equal(rt_check(w), 0);
    assert_int_equal(w->sim.note_count, 1);
    assert_int_equal(w->sim.notes[0].ddi_op, 2);
    assert_int_equal(w->sim.notes[0].handle, 0x1234);
    done(w);
}

static void test_physical_access(void **state)
{
    rt_world *w = new_world();
    DXGKARG_BUILDPAGINGBUFFER a;
    (void)state;
    args(w, &a, 3);
    a.ReadPhysical.SegmentId = RT_SEG_DATA;
    a.ReadPhysical.PhysicalAddress.QuadPart = (LONGLONG)(RT_SEG_BASE(RT_SEG_DATA) + 0x105);
    run(w, &a);
    args(w, &a, 4);
    a.WritePhysical.SegmentId = 0;
    a.WritePhysical.PhysicalAddress.QuadPart = (LONGLONG)(RT_SYS_PFN_BASE * 4096u + 0x2000u);
    run(w, &a);
    assert_int_equal(rt_check(w), 0);
    assert_int_equal(w->sim.touch_count, 2);
    assert_int_equal(w->sim.touches[0].bytes, 3);
    assert_int_equal(w->sim.touches[1].write, 1);
    done(w);
}

/* ---- 5/6/17 aperture ---- */

static void map_aperture(rt_world *w, uint32_t off, const uint32_t *pages, uint32_t n)
{
    DXGKARG_BUILDPAGINGBUFFER a;
    args(w, &a, 5);
    a.MapApertureSegment.SegmentId = RT_SEG_APERTURE;
    a.MapApertureSegment.OffsetInPages = off;
    a.MapApertureSegment.NumberOfPages = n;
    a.MapApertureSegment.pMdl = mdl_of(w, pages, n);
    run(w, &a);
}

static void read_aperture_into(rt_world *w, uint32_t off_pages, uint32_t dst_offset)
{
    DXGKARG_BUILDPAGINGBUFFER a;
    args(w, &a, 0);
    a.Transfer.TransferSize = 4096u;
    a.Transfer.Source.SegmentId = RT_SEG_APERTURE;
    a.Transfer.Source.SegmentAddress.QuadPart = (LONGLONG)(RT_SEG_BASE(RT_SEG_APERTURE) + off_pages * 4096u);
    a.Transfer.Destination.SegmentId = RT_SEG_DATA;
    a.Transfer.Destination.SegmentAddress.QuadPart = (LONGLONG)(RT_SEG_BASE(RT_SEG_DATA) + dst_offset);
    a.Transfer.Flags.Value = 0x18;
    run(w, &a);
}

static void test_map_aperture_segment(void **state)
{
    static const uint32_t first[] = {24, 25, 26, 30};
    static const uint32_t second[] = {31, 27};
    rt_world *w = new_world();
    (void)state;
    map_aperture(w, 2, first, 4);
    read_aperture_into(w, 3, 0); /* caches the translation of aperture page 3 */
    map_aperture(w, 3, second, 2);
    read_aperture_into(w, 3, 4096u); /* stale without the engine's TLB_INVAL */
    assert_int_equal(rt_check(w), 0);
    assert_int_equal(packets(w, RPB_OP_TLB_INVAL), 2);
    done(w);
}

static void test_unmap_aperture_segment(void **state)
{
    rt_world *w = new_world();
    DXGKARG_BUILDPAGINGBUFFER a;
    (void)state;
    read_aperture_into(w, 5, 0);
    args(w, &a, 6);
    a.UnmapApertureSegment.SegmentId = RT_SEG_APERTURE;
    a.UnmapApertureSegment.OffsetInPages = 4;
    a.UnmapApertureSegment.NumberOfPages = 12;
    a.UnmapApertureSegment.DummyPage.QuadPart = (LONGLONG)((RT_SYS_PFN_BASE + 29u) * 4096u);
    run(w, &a);
    read_aperture_into(w, 5, 4096u); /* reads the dummy page: access stays enabled */
    assert_int_equal(rt_check(w), 0);
    assert_int_equal(packets(w, RPB_OP_PTEGEN), 1);
    args(w, &a, 6);
    a.UnmapApertureSegment.SegmentId = RT_SEG_DATA;
    a.UnmapApertureSegment.NumberOfPages = 1;
    refused(w, &a, "DXGKARG_BUILDPAGINGBUFFER.UnmapApertureSegment.NumberOfPages:within-aperture-segment");
    done(w);
}

#if PB_HAVE_WDDM2_9_OPS
static void test_map_aperture_segment2(void **state)
{
    rt_world *w = new_world();
    DXGKARG_BUILDPAGINGBUFFER a;
    DXGK_PAGE_NUMBER *pages;
    (void)state;
    args(w, &a, 17);
    a.MapApertureSegment2.SegmentId = RT_SEG_APERTURE;
    a.MapApertureSegment2.OffsetInPages = 0;
    a.MapApertureSegment2.NumberOfPages = 6;
    a.MapApertureSegment2.AdlOffset = 1;
    a.MapApertureSegment2.Adl.PageCount = 7;
    a.MapApertureSegment2.Adl.Flags.Contiguous = 1;
    a.MapApertureSegment2.Adl.BasePageNumber = RT_SYS_PFN_BASE + 24u;
    run(w, &a);
    assert_int_equal(packets(w, RPB_OP_PTEGEN), 0); /* six entries: below the generator threshold */
    args(w, &a, 17);
    pages = rt_alloc(w, sizeof *pages * 4);
    pages[0] = RT_SYS_PFN_BASE + 31u;
    pages[1] = RT_SYS_PFN_BASE + 28u;
    pages[2] = RT_SYS_PFN_BASE + 29u;
    pages[3] = RT_SYS_PFN_BASE + 24u;
    a.MapApertureSegment2.SegmentId = RT_SEG_APERTURE;
    a.MapApertureSegment2.OffsetInPages = 10;
    a.MapApertureSegment2.NumberOfPages = 4;
    a.MapApertureSegment2.Adl.PageCount = 4;
    a.MapApertureSegment2.Adl.Pages = pages;
    a.MapApertureSegment2.Flags.Value = 1;
    run(w, &a);
    read_aperture_into(w, 11, 0);
    assert_int_equal(rt_check(w), 0);
    a.MapApertureSegment2.AdlOffset = 1;
    refused(w, &a, "DXGKARG_BUILDPAGINGBUFFER.MapApertureSegment2.AdlOffset:within-adl");
    done(w);
}
#endif

/* ---- 8/9 virtual ---- */

static void test_virtual_transfer_and_fill(void **state)
{
    rt_world *w = new_world();
    DXGKARG_BUILDPAGINGBUFFER a;
    (void)state;
    args(w, &a, 8);
    a.TransferVirtual.TransferSizeInBytes = 3u * 4096u - 7u;
    a.TransferVirtual.SourceVirtualAddress = 2u * 4096u + 5u;
    a.TransferVirtual.DestinationVirtualAddress = 10u * 4096u + 1u;
    a.TransferVirtual.AllocationOffsetInBytes = 1u << 20; /* never added to the VAs */
    a.TransferVirtual.TransferDirection = (DXGK_MEMORY_TRANSFER_DIRECTION)2;
    run(w, &a);
    args(w, &a, 9);
    a.FillVirtual.FillSizeInBytes = 5000;
    a.FillVirtual.FillPattern = 0x01020304u;
    a.FillVirtual.DestinationVirtualAddress = 20u * 4096u + 3u;
    run(w, &a);
    assert_int_equal(rt_check(w), 0);
    done(w);
}

/* ---- 11 UPDATE_PAGE_TABLE and 12 FLUSH_TLB ---- */

static DXGK_PTE *ptes_to_targets(rt_world *w, uint32_t first_sys_page, uint32_t n, int contiguous)
{
    DXGK_PTE *e = rt_alloc(w, sizeof *e * n);
    uint32_t i;
    for (i = 0; i < n; i++) {
        e[i].Flags = 1u; /* Valid, system memory */
        e[i].PageAddress = RT_SYS_PFN_BASE + (contiguous ? first_sys_page + i : (first_sys_page + 7u * i) % 32u);
    }
    return e;
}

static void upt(rt_world *w, DXGKARG_BUILDPAGINGBUFFER *a, uint32_t mode, uint32_t start, uint32_t n, DXGK_PTE *e)
{
    args(w, a, 11);
    a->UpdatePageTable.StartIndex = start;
    a->UpdatePageTable.NumPageTableEntries = n;
    a->UpdatePageTable.pPageTableEntries = e;
    a->UpdatePageTable.UpdateMode = (DXGK_PAGETABLEUPDATEMODE)mode;
    if (mode == 2) {
        a->UpdatePageTable.PageTableAddress.GpuPhysical.SegmentId = RT_SEG_TABLES;
        a->UpdatePageTable.PageTableAddress.GpuPhysical.SegmentOffset = RT_LEAF_OFFSET;
    } else if (mode == 1) {
        a->UpdatePageTable.PageTableAddress.GpuVirtual = RT_VA_LEAF;
    } else {
        a->UpdatePageTable.PageTableAddress.CpuVirtual = rt_seg_host(w, &w->sim, RT_SEG_TABLES, RT_LEAF_OFFSET);
    }
}

static void flush_all(rt_world *w)
{
    DXGKARG_BUILDPAGINGBUFFER a;
    args(w, &a, 12);
    a.FlushTlb.RootPageTableAddress.SegmentId = RT_SEG_TABLES;
    run(w, &a);
}

static void virtual_copy(rt_world *w, uint32_t src_page, uint32_t dst_page)
{
    DXGKARG_BUILDPAGINGBUFFER a;
    args(w, &a, 8);
    a.TransferVirtual.TransferSizeInBytes = 4096u;
    a.TransferVirtual.SourceVirtualAddress = (uint64_t)src_page * 4096u;
    a.TransferVirtual.DestinationVirtualAddress = (uint64_t)dst_page * 4096u;
    run(w, &a);
}

static void test_update_page_table_modes(void **state)
{
    uint32_t mode;
    (void)state;
    for (mode = 0; mode < 3; mode++) {
        rt_world *w = new_world();
        DXGKARG_BUILDPAGINGBUFFER a;
        upt(w, &a, mode, 4, 20, ptes_to_targets(w, 0, 20, mode == 1));
        run(w, &a);
        flush_all(w);
        virtual_copy(w, 5, 30);
        assert_int_equal(rt_check(w), 0);
        if (mode == 1)
            assert_int_equal(packets(w, RPB_OP_PTEGEN), 1); /* 20 consecutive pages: one generator */
        done(w);
    }
}

static void test_update_page_table_cpu_paths(void **state)
{
    rt_world *w = new_world();
    DXGKARG_BUILDPAGINGBUFFER a;
    (void)state;
    upt(w, &a, 0, 0, 8, ptes_to_targets(w, 3, 8, 0));
    a.pDmaBuffer = NULL; /* paging-process init: do it now on the CPU */
    run(w, &a);
    assert_int_equal(w->used, 0);
    w->use_cpu_alias = 0; /* CPU_VIRTUAL with a buffer but no GPU alias: also on the CPU */
    upt(w, &a, 0, 8, 4, ptes_to_targets(w, 12, 4, 1));
    run(w, &a);
    w->use_cpu_alias = 1;
    flush_all(w);
    virtual_copy(w, 9, 31);
    assert_int_equal(rt_check(w), 0);
    upt(w, &a, 1, 0, 1, ptes_to_targets(w, 0, 1, 1));
    a.pDmaBuffer = NULL;
    refused(w, &a, "DXGKARG_BUILDPAGINGBUFFER.UpdatePageTable.UpdateMode:cpu-virtual-when-pDmaBuffer-null");
    done(w);
}

static void test_update_page_table_repeat(void **state)
{
    rt_world *w = new_world();
    DXGKARG_BUILDPAGINGBUFFER a;
    DXGK_PTE *e;
    (void)state;
    e = ptes_to_targets(w, 17, 1, 1);
    upt(w, &a, 2, 0, 400, e); /* includes entries beyond the data range: they are rewritten too */
    a.UpdatePageTable.Flags.Value = 1;
    run(w, &a);
    assert_int_equal(rt_check(w), 0);
    assert_int_equal(packets(w, RPB_OP_PTEGEN), 1);
    assert_int_equal(packets(w, RPB_OP_WRITE64), 0);
    done(w);
}

static void test_stale_tlb_without_flush(void **state)
{
    rt_world *w = new_world();
    DXGKARG_BUILDPAGINGBUFFER a;
    (void)state;
    virtual_copy(w, 1, 2); /* the TLB now holds page 1 */
    upt(w, &a, 2, 1, 1, ptes_to_targets(w, 31, 1, 1));
    run(w, &a);
    virtual_copy(w, 1, 3); /* no FLUSH_TLB: the simulator uses the stale translation */
    assert_int_not_equal(rt_check(w), 0);
    rt_world_free(w);
    free(w);
}

static void test_update_page_table_64kb_and_dual(void **state)
{
    rt_world *w = new_world();
    DXGKARG_BUILDPAGINGBUFFER a;
    DXGK_PTE *e, *e64;
    uint32_t i;
    (void)state;
    /* Dual PTE: 64 KiB companion entries for slots 0 and 16 (VA pages 0-15 and 16-31). */
    e = ptes_to_targets(w, 0, 32, 0);
    e64 = rt_alloc(w, sizeof *e64 * 32);
    e64[16].Flags = 1u | (RT_SEG_TABLES << 5); /* VA 64K-page 1 -> seg1 at 0 (aligned) */
    e64[16].PageAddress = 0;
    for (i = 0; i < 32; i++)
        e[i].Flags = 0; /* 4 KiB entries invalid where 64 KiB ones are valid */
    for (i = 0; i < 16; i++) {
        e[i].Flags = 1u;
        e[i].PageAddress = RT_SYS_PFN_BASE + i;
    }
    upt(w, &a, 2, 0, 32, e);
    a.UpdatePageTable.pPageTableEntries64KB = e64;
    run(w, &a);
    flush_all(w);
    args(w, &a, 9); /* fill through the 64 KiB mapping */
    a.FillVirtual.FillSizeInBytes = 100;
    a.FillVirtual.FillPattern = 0x5A5A5A5Au;
    a.FillVirtual.DestinationVirtualAddress = 16u * 4096u + 6u * 4096u + 8u;
    run(w, &a);
    assert_int_equal(rt_check(w), 0);
    /* Level 1 with Use64KBPages marks the root entry LEAF64K. */
    e = rt_alloc(w, sizeof *e);
    e->Flags = 1u | (RT_SEG_TABLES << 5);
    e->PageAddress = 2;
    upt(w, &a, 2, 0, 1, e);
    a.UpdatePageTable.PageTableLevel = 1;
    a.UpdatePageTable.Flags.Value = 8u;
    a.UpdatePageTable.PageTableAddress.GpuPhysical.SegmentOffset = 0;
    run(w, &a);
    assert_int_equal(rt_check(w), 0);
    {
        uint64_t root;
        memcpy(&root, rt_seg_host(w, &w->sim, RT_SEG_TABLES, 0), 8);
        assert_true(root & RPB_PTE_LEAF64K);
    }
    done(w);
}

static void test_update_page_table_rules(void **state)
{
    rt_world *w = new_world();
    DXGKARG_BUILDPAGINGBUFFER a;
    DXGK_PTE *e;
    (void)state;
    e = ptes_to_targets(w, 0, 2, 1);
    upt(w, &a, 2, 0, 2, e);
    a.UpdatePageTable.Reserved0 = 1;
    refused(w, &a, "DXGKARG_BUILDPAGINGBUFFER.UpdatePageTable.Reserved0:zero");
    upt(w, &a, 2, 511, 2, e);
    refused(w, &a, "DXGKARG_BUILDPAGINGBUFFER.UpdatePageTable.StartIndex:entries-within-table");
    upt(w, &a, 2, 0, 2, e);
    e[1].Flags = 2u; /* Zero without Valid */
    refused(w, &a, "DXGK_PTE.Zero:requires-valid-and-ZeroInPteSupported");
    e[1].Flags = 1u | 0x400u;
    refused(w, &a, "DXGK_PTE.LargePage:non-leaf-and-LargePageSupported");
    e[1].Flags = 1u | (1ull << 40);
    refused(w, &a, "DXGK_PTE.Reserved:zero");
    e[1].Flags = 1u | (1u << 17);
    refused(w, &a, "DXGK_PTE.PageTablePageSize:level-1-outside-dual-pte");
    done(w);
}

static void test_flush_tlb_rules(void **state)
{
    rt_world *w = new_world();
    DXGKARG_BUILDPAGINGBUFFER a;
    (void)state;
    args(w, &a, 12);
    a.FlushTlb.StartVirtualAddress = 0x3000;
    a.FlushTlb.EndVirtualAddress = 0x1000;
    refused(w, &a, "DXGKARG_BUILDPAGINGBUFFER.FlushTlb.EndVirtualAddress:not-below-start");
    done(w);
}

/* ---- 10, 13, 14, 15, 16, 18-22 ---- */

static void test_init_context_resource(void **state)
{
    rt_world *w = new_world();
    DXGKARG_BUILDPAGINGBUFFER a;
    (void)state;
    args(w, &a, 10);
    a.InitContextResource.hAllocation = (HANDLE)(uintptr_t)7;
    a.InitContextResource.Destination.SegmentId = RT_SEG_DATA;
    a.InitContextResource.Destination.SegmentAddress.QuadPart = (LONGLONG)RT_SEG_BASE(RT_SEG_DATA);
    run(w, &a);
    assert_int_equal(rt_check(w), 0);
    assert_int_equal(w->sim.notes[0].b, RT_SEG_BASE(RT_SEG_DATA));
    done(w);
}

static void test_update_context_allocation(void **state)
{
    rt_world *w = new_world();
    DXGKARG_BUILDPAGINGBUFFER a;
    (void)state;
    args(w, &a, 13);
    a.UpdateContextAllocation.ContextAllocation = 0x123000;
    a.UpdateContextAllocation.ContextAllocationSize = 0x2000;
    run(w, &a);
    assert_int_equal(rt_check(w), 0);
    assert_int_equal(w->sim.notes[0].a, 0x123000);
    done(w);
}

static void test_copy_page_table_entries(void **state)
{
    rt_world *w = new_world();
    DXGKARG_BUILDPAGINGBUFFER a;
    DXGK_BUILDPAGINGBUFFER_COPY_RANGE *g;
    (void)state;
    args(w, &a, 14);
    g = rt_alloc(w, sizeof *g * 2);
    g[0].NumPageTableEntries = 100;
    g[0].SrcPageTableAddress = RT_VA_SCRATCH_SRC;
    g[0].DstPageTableAddress = RT_VA_SCRATCH_DST;
    g[0].SrcStartPteIndex = 3;
    g[0].DstStartPteIndex = 400;
    g[1] = g[0];
    g[1].NumPageTableEntries = 7;
    g[1].DstStartPteIndex = 0;
    a.CopyPageTableEntries.NumRanges = 2;
    a.CopyPageTableEntries.pRanges = g;
    run(w, &a);
    assert_int_equal(rt_check(w), 0);
    g[1].SrcPageTableAddress += 8;
    refused(w, &a, "DXGK_BUILDPAGINGBUFFER_COPY_RANGE.SrcPageTableAddress:64kb-aligned");
    done(w);
}

static void test_notify_residency(void **state)
{
    rt_world *w = new_world();
    DXGKARG_BUILDPAGINGBUFFER a;
    (void)state;
    args(w, &a, 15);
    a.NotifyResidency.hAllocation = (HANDLE)(uintptr_t)3;
    a.NotifyResidency.PhysicalAddress.SegmentId = 2;
    a.NotifyResidency.PhysicalAddress.SegmentOffset = 0x4000;
    a.NotifyResidency.Resident = 1;
    run(w, &a);
    assert_int_equal(rt_check(w), 0);
    assert_int_equal(w->sim.notes[0].flags, 1);
    done(w);
}

static void test_signal_monitored_fence(void **state)
{
    rt_world *w = new_world();
    DXGKARG_BUILDPAGINGBUFFER a;
    (void)state;
    args(w, &a, 16);
    a.SignalMonitoredFence.MonitoredFenceGpuVa = 7u * 4096u + 64u;
    a.SignalMonitoredFence.MonitoredFenceValue = 0x1122334455667788ull;
    run(w, &a);
    assert_int_equal(rt_check(w), 0);
    assert_int_equal(packets(w, RPB_OP_BARRIER), 1);
    a.SignalMonitoredFence.MonitoredFenceGpuVa += 4;
    refused(w, &a, "DXGKARG_BUILDPAGINGBUFFER.SignalMonitoredFence.MonitoredFenceGpuVa:8-byte-aligned");
    done(w);
}

#if PB_HAVE_WDDM2_9_OPS
static void test_notify_fence_residency(void **state)
{
    rt_world *w = new_world();
    DXGKARG_BUILDPAGINGBUFFER a;
    DXGK_FENCE_RESIDENCY_INFO *f;
    (void)state;
    args(w, &a, 18);
    f = rt_alloc(w, sizeof *f * 3);
    f[0].hGlobalNativeFence = (HANDLE)(uintptr_t)1;
    f[1].hGlobalNativeFence = (HANDLE)(uintptr_t)2;
    f[2].hGlobalNativeFence = (HANDLE)(uintptr_t)3;
    f[2].MonitoredValuePhysicalAddress.SegmentOffset = 0x40;
    a.NotifyFenceResidency.NumFences = 3;
    a.NotifyFenceResidency.pFences = f;
    run(w, &a);
    assert_int_equal(rt_check(w), 0);
    assert_int_equal(w->sim.note_count, 3);
    done(w);
}
#endif

#if PB_HAVE_WDDM3_2_OPS
static void test_mmu_and_wddm32_notifications(void **state)
{
    rt_world *w = new_world();
    DXGKARG_BUILDPAGINGBUFFER a;
    (void)state;
    args(w, &a, 19);
    a.MmapMmu.VirtualAddress = 0x10000;
    a.MmapMmu.MmuId = 1;
    a.MmapMmu.Adl.PageCount = 4;
    run(w, &a);
    args(w, &a, 20);
    a.UnmapMmu.VirtualAddress = 0x10000;
    a.UnmapMmu.NumberOfPages = 4;
    run(w, &a);
    args(w, &a, 21);
    a.NotifyResidency2.SizeInPages = 9;
    a.NotifyResidency2.Resident = 1;
    run(w, &a);
    args(w, &a, 22);
    a.NotifyAllocation.Flags.Value = 1;
    a.NotifyAllocation.SizeInBytes = 0x10000;
    run(w, &a);
    assert_int_equal(rt_check(w), 0);
    assert_int_equal(w->sim.note_count, 4);
    a.NotifyAllocation.Flags.Value = 3;
    refused(w, &a, "DXGKARG_BUILDPAGINGBUFFER.NotifyAllocation.Flags:Eviction-IoMmuUnmap-exclusive");
    done(w);
}
#endif

static void test_unknown_operation(void **state)
{
    rt_world *w = new_world();
    DXGKARG_BUILDPAGINGBUFFER a;
    (void)state;
    args(w, &a, 23); /* TRANSFER2 in a future kit: reported, never crashed on */
    refused(w, &a, "DXGKARG_BUILDPAGINGBUFFER.Operation:known-value");
    args(w, &a, 0xFFFFFFFFu);
    refused(w, &a, "DXGKARG_BUILDPAGINGBUFFER.Operation:known-value");
    done(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_transfer_segment_to_mdl),
        cmocka_unit_test(test_transfer_mdl_to_segment),
        cmocka_unit_test(test_transfer_segment_to_segment),
        cmocka_unit_test(test_transfer_swizzle_busy_then_idle),
        cmocka_unit_test(test_transfer_null_allocation_ignores_swizzle),
        cmocka_unit_test(test_transfer_rules),
        cmocka_unit_test(test_special_lock_transfer),
        cmocka_unit_test(test_fill),
        cmocka_unit_test(test_discard_content),
        cmocka_unit_test(test_physical_access),
        cmocka_unit_test(test_map_aperture_segment),
        cmocka_unit_test(test_unmap_aperture_segment),
#if PB_HAVE_WDDM2_9_OPS
        cmocka_unit_test(test_map_aperture_segment2),
        cmocka_unit_test(test_notify_fence_residency),
#endif
        cmocka_unit_test(test_virtual_transfer_and_fill),
        cmocka_unit_test(test_update_page_table_modes),
        cmocka_unit_test(test_update_page_table_cpu_paths),
        cmocka_unit_test(test_update_page_table_repeat),
        cmocka_unit_test(test_stale_tlb_without_flush),
        cmocka_unit_test(test_update_page_table_64kb_and_dual),
        cmocka_unit_test(test_update_page_table_rules),
        cmocka_unit_test(test_flush_tlb_rules),
        cmocka_unit_test(test_init_context_resource),
        cmocka_unit_test(test_update_context_allocation),
        cmocka_unit_test(test_copy_page_table_entries),
        cmocka_unit_test(test_notify_residency),
        cmocka_unit_test(test_signal_monitored_fence),
#if PB_HAVE_WDDM3_2_OPS
        cmocka_unit_test(test_mmu_and_wddm32_notifications),
#endif
        cmocka_unit_test(test_unknown_operation),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
