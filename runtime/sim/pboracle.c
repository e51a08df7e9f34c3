/* Oracle for the paging operations: walks the page and aperture tables as they
 * are now (no TLB) and applies each operation's documented effect byte by byte. */
#include "pboracle.h"

#include <stdio.h>
#include <string.h>

#define PAGE 4096u

typedef struct ostate {
    const pboracle_env *env;
    char *err;
    size_t errlen;
} ostate;

static int oerr(ostate *s, const char *what, uint64_t v)
{
    snprintf(s->err, s->errlen, "oracle: %s (0x%llx)", what, (unsigned long long)v);
    return -1;
}

/* Host span for [addr, addr+want) in space, translated through current tables. */
static uint8_t *ospan(ostate *s, uint16_t space, uint64_t addr, uint64_t want, uint64_t *got)
{
    pbsim_machine *m = s->env->m;
    rpb_loc pa = rpb_loc_make(space, addr);
    uint64_t room = PAGE - (addr % PAGE);
    int translated = 0;
    if (space == RPB_SPACE_PAGING_VA) {
        if (pbsim_translate_va(m, addr & ~(uint64_t)(PAGE - 1), &pa))
            return NULL;
        pa.addr += addr % PAGE;
        translated = 1;
    } else if (space >= 1 && space <= m->layout.segment_count && m->layout.segments[space].aperture) {
        if (pbsim_translate_aperture(m, space, addr, &pa))
            return NULL;
        pa.addr += addr % PAGE;
        translated = 1;
    }
    *got = translated && want > room ? room : want;
    return pbsim_host_ptr(m, pa, *got);
}

static int write_bytes(ostate *s, uint16_t space, uint64_t addr, const uint8_t *src, uint64_t n)
{
    uint64_t done = 0, got;
    while (done < n) {
        uint8_t *d = ospan(s, space, addr + done, n - done, &got);
        if (!d)
            return oerr(s, "write outside memory", addr + done);
        memcpy(d, src + done, (size_t)got);
        done += got;
    }
    return 0;
}

static int read_bytes(ostate *s, uint16_t space, uint64_t addr, uint8_t *dst, uint64_t n)
{
    uint64_t done = 0, got;
    while (done < n) {
        uint8_t *p = ospan(s, space, addr + done, n - done, &got);
        if (!p)
            return oerr(s, "read outside memory", addr + done);
        memcpy(dst + done, p, (size_t)got);
        done += got;
    }
    return 0;
}

static int write_u64(ostate *s, uint16_t space, uint64_t addr, uint64_t v)
{
    uint8_t b[8];
    memcpy(b, &v, 8);
    return write_bytes(s, space, addr, b, 8);
}

/* ---- TRANSFER: byte k of the source goes to byte k of the destination ---- */

typedef struct oside {
    const PFN_NUMBER *pfn;
    uint16_t space;
    uint64_t offset;
} oside;

static void side_of(const pboracle_env *env, UINT id, LONGLONG addr, const MDL *mdl, UINT transfer_offset,
                    UINT mdl_offset, oside *o)
{
    if (id == 0) {
        o->pfn = MmGetMdlPfnArray((PMDL)(uintptr_t)mdl) + mdl_offset;
        o->space = RPB_SPACE_SYSTEM;
        o->offset = 0;
    } else {
        o->pfn = NULL;
        o->space = (uint16_t)id;
        o->offset = (uint64_t)addr - env->segment_base[id] + transfer_offset;
    }
}

static void side_addr(const oside *o, uint64_t k, uint16_t *space, uint64_t *addr)
{
    *space = o->space;
    *addr = o->pfn ? (uint64_t)o->pfn[k / PAGE] * PAGE + k % PAGE : o->offset + k;
}

static int transfer(ostate *s, const oside *src, const oside *dst, uint64_t size, int mode)
{
    uint8_t page[PAGE];
    uint64_t k = 0, i;
    while (k < size) {
        uint64_t n = size - k < PAGE - (k % PAGE) ? size - k : PAGE - (k % PAGE);
        uint16_t ss, ds;
        uint64_t sa, da;
        side_addr(src, k, &ss, &sa);
        side_addr(dst, k, &ds, &da);
        if (read_bytes(s, ss, sa, page, n))
            return -1;
        for (i = 0; i < n && mode; i++)
            page[i] = mode == 1 ? rpb_swizzle_byte(page[i]) : rpb_unswizzle_byte(page[i]);
        if (write_bytes(s, ds, da, page, n))
            return -1;
        k += n;
    }
    return 0;
}

static int op_transfer(ostate *s, const DXGKARG_BUILDPAGINGBUFFER *a)
{
    oside src, dst;
    UINT flags;
    int mode = 0;
    if ((uint32_t)a->Operation == 7u) {
        side_of(s->env, a->SpecialLockTransfer.Source.SegmentId, a->SpecialLockTransfer.Source.SegmentAddress.QuadPart,
                a->SpecialLockTransfer.Source.pMdl, a->SpecialLockTransfer.TransferOffset, 0, &src);
        side_of(s->env, a->SpecialLockTransfer.Destination.SegmentId,
                a->SpecialLockTransfer.Destination.SegmentAddress.QuadPart, a->SpecialLockTransfer.Destination.pMdl,
                a->SpecialLockTransfer.TransferOffset, 0, &dst);
        flags = a->SpecialLockTransfer.Flags.Value;
        if (a->SpecialLockTransfer.hAllocation)
            mode = (flags & 1u) ? 1 : (flags & 2u) ? 2 : 0;
        return transfer(s, &src, &dst, a->SpecialLockTransfer.TransferSize, mode);
    }
    side_of(s->env, a->Transfer.Source.SegmentId, a->Transfer.Source.SegmentAddress.QuadPart, a->Transfer.Source.pMdl,
            a->Transfer.TransferOffset, a->Transfer.MdlOffset, &src);
    side_of(s->env, a->Transfer.Destination.SegmentId, a->Transfer.Destination.SegmentAddress.QuadPart,
            a->Transfer.Destination.pMdl, a->Transfer.TransferOffset, a->Transfer.MdlOffset, &dst);
    flags = a->Transfer.Flags.Value;
    if (a->Transfer.hAllocation)
        mode = (flags & 1u) ? 1 : (flags & 2u) ? 2 : 0;
    return transfer(s, &src, &dst, a->Transfer.TransferSize, mode);
}

static int fill(ostate *s, uint16_t space, uint64_t addr, uint64_t size, uint32_t pattern)
{
    uint8_t page[PAGE];
    uint64_t k = 0, i;
    while (k < size) {
        uint64_t n = size - k < PAGE ? size - k : PAGE;
        for (i = 0; i < n; i++)
            page[i] = (uint8_t)(pattern >> (8u * ((k + i) & 3u)));
        if (write_bytes(s, space, addr + k, page, n))
            return -1;
        k += n;
    }
    return 0;
}

/* ---- tables ---- */

uint64_t pboracle_pte(const DXGK_PTE *p, uint32_t level, int use_64kb)
{
    uint64_t w = p->Flags;
    uint64_t v = w & 0x7FFu;                                /* Valid .. LargePage */
    if (level >= 1 && use_64kb)
        v |= 1ull << 11;
    v |= (p->PageAddress & ((1ull << 44) - 1)) << 12;
    v |= ((w >> 17) & 3u) << 56;                            /* PageTablePageSize */
    v |= ((w >> 11) & 0x3Fu) << 58;                         /* PhysicalAdapterIndex */
    return v;
}

static uint64_t aperture_entry(uint64_t page, int cc)
{
    return 1u | (cc ? 4u : 0u) | (page << 12);
}

static int table_base(ostate *s, const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u, uint16_t *space, uint64_t *addr)
{
    rpb_loc l;
    switch ((uint32_t)u->UpdateMode) {
    case 1:
        *space = RPB_SPACE_PAGING_VA;
        *addr = u->PageTableAddress.GpuVirtual;
        return 0;
    case 2:
        *space = (uint16_t)u->PageTableAddress.GpuPhysical.SegmentId;
        *addr = u->PageTableAddress.GpuPhysical.SegmentOffset;
        return 0;
    default:
        if (pbsim_cpu_va_to_loc(s->env->cpu_owner, u->PageTableAddress.CpuVirtual, 8, &l))
            return oerr(s, "CPU page table outside memory", (uint64_t)(uintptr_t)u->PageTableAddress.CpuVirtual);
        *space = l.space;
        *addr = l.addr;
        return 0;
    }
}

static int op_update_page_table(ostate *s, const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u)
{
    uint16_t space;
    uint64_t base;
    uint32_t i;
    const int repeat = u->Flags.Value & 1u, use64 = (u->Flags.Value >> 3) & 1u;
    if (table_base(s, u, &space, &base))
        return -1;
    for (i = 0; i < u->NumPageTableEntries; i++) {
        const DXGK_PTE *p = &u->pPageTableEntries[repeat ? 0 : i];
        if (write_u64(s, space, base + ((uint64_t)u->StartIndex + i) * 8u, pboracle_pte(p, u->PageTableLevel, use64)))
            return -1;
    }
    if (!u->pPageTableEntries64KB)
        return 0;
    for (i = 0; i < u->NumPageTableEntries; i++) {
        uint64_t slot = (uint64_t)u->StartIndex + i;
        if (slot % 16u)
            continue;
        if (write_u64(s, space, base + s->env->dual_pte_offset + (slot / 16u) * 8u,
                      pboracle_pte(&u->pPageTableEntries64KB[i], u->PageTableLevel, use64)))
            return -1;
    }
    return 0;
}

static int map_pages(ostate *s, UINT id, uint64_t off, uint64_t n, const DXGK_PAGE_NUMBER *pages, uint64_t base,
                     int cc)
{
    uint64_t i;
    for (i = 0; i < n; i++)
        if (write_u64(s, (uint16_t)(RPB_SPACE_APERTURE_TABLE + id), (off + i) * 8u,
                      aperture_entry(pages ? pages[i] : base + i, cc)))
            return -1;
    return 0;
}

static int op_map_mdl(ostate *s, const DXGKARG_BUILDPAGINGBUFFER *a)
{
    const PFN_NUMBER *pfn = MmGetMdlPfnArray(a->MapApertureSegment.pMdl) + a->MapApertureSegment.MdlOffset;
    uint64_t i;
    for (i = 0; i < a->MapApertureSegment.NumberOfPages; i++)
        if (write_u64(s, (uint16_t)(RPB_SPACE_APERTURE_TABLE + a->MapApertureSegment.SegmentId),
                      (a->MapApertureSegment.OffsetInPages + i) * 8u,
                      aperture_entry(pfn[i], a->MapApertureSegment.Flags.Value & 1u)))
            return -1;
    return 0;
}

static int op_copy_ptes(ostate *s, const DXGK_BUILDPAGINGBUFFER_COPYPAGETABLEENTRIES *c)
{
    uint8_t buf[PAGE];
    UINT r;
    for (r = 0; r < c->NumRanges; r++) {
        const DXGK_BUILDPAGINGBUFFER_COPY_RANGE *g = &c->pRanges[r];
        uint64_t k;
        for (k = 0; k < g->NumPageTableEntries; k += PAGE / 8u) {
            uint64_t n = g->NumPageTableEntries - k < PAGE / 8u ? g->NumPageTableEntries - k : PAGE / 8u;
            if (read_bytes(s, RPB_SPACE_PAGING_VA, g->SrcPageTableAddress + (g->SrcStartPteIndex + k) * 8u, buf,
                           n * 8u) ||
                write_bytes(s, RPB_SPACE_PAGING_VA, g->DstPageTableAddress + (g->DstStartPteIndex + k) * 8u, buf,
                            n * 8u))
                return -1;
        }
    }
    return 0;
}

/* ---- records ---- */

static int note(ostate *s, uint32_t op, uint32_t flags, uint64_t handle, uint64_t a, uint64_t b)
{
    pbsim_machine *m = s->env->m;
    pbsim_note *n;
    if (m->note_count >= PBSIM_MAX_NOTES)
        return oerr(s, "note log full", op);
    n = &m->notes[m->note_count++];
    n->ddi_op = op;
    n->flags = flags;
    n->handle = handle;
    n->a = a;
    n->b = b;
    return 0;
}

static uint64_t hbits(HANDLE h)
{
    return (uint64_t)(uintptr_t)h;
}

static int touch(ostate *s, const DXGKARG_BUILDPAGINGBUFFER *a)
{
    const int write = (uint32_t)a->Operation == 4u;
    const UINT id = write ? a->WritePhysical.SegmentId : a->ReadPhysical.SegmentId;
    uint64_t addr = (uint64_t)(write ? a->WritePhysical.PhysicalAddress.QuadPart : a->ReadPhysical.PhysicalAddress.QuadPart);
    pbsim_machine *m = s->env->m;
    pbsim_touch *t;
    if (m->touch_count >= PBSIM_MAX_NOTES)
        return oerr(s, "touch log full", 0);
    t = &m->touches[m->touch_count++];
    t->loc = rpb_loc_make((uint16_t)id, id ? addr - s->env->segment_base[id] : addr);
    t->bytes = 8u - (uint32_t)(addr & 7u);
    t->write = (uint32_t)write;
    return 0;
}

static int op_records(ostate *s, const DXGKARG_BUILDPAGINGBUFFER *a)
{
    const uint32_t op = (uint32_t)a->Operation;
    UINT i;
    switch (op) {
    case 2:
        return note(s, op, a->DiscardContent.Flags.Value, hbits(a->DiscardContent.hAllocation),
                    a->DiscardContent.SegmentId, (uint64_t)a->DiscardContent.SegmentAddress.QuadPart);
    case 10:
        return note(s, op, 0, hbits(a->InitContextResource.hAllocation), a->InitContextResource.Destination.SegmentId,
                    a->InitContextResource.Destination.SegmentId
                        ? (uint64_t)a->InitContextResource.Destination.SegmentAddress.QuadPart
                        : a->InitContextResource.Destination.GpuVirtualAddress);
    case 13:
        return note(s, op, a->UpdateContextAllocation.DriverPrivateDataSize, 0,
                    a->UpdateContextAllocation.ContextAllocation, a->UpdateContextAllocation.ContextAllocationSize);
    case 15:
        /* Resident and Reserved overlay the same bits: the word is Resident | Reserved. */
        return note(s, op, (uint32_t)a->NotifyResidency.Resident | (uint32_t)a->NotifyResidency.Reserved,
                    hbits(a->NotifyResidency.hAllocation), a->NotifyResidency.PhysicalAddress.SegmentId,
                    a->NotifyResidency.PhysicalAddress.SegmentOffset);
#if PB_HAVE_WDDM2_9_OPS
    case 18:
        for (i = 0; i < a->NotifyFenceResidency.NumFences; i++) {
            const DXGK_FENCE_RESIDENCY_INFO *f = &a->NotifyFenceResidency.pFences[i];
            if (note(s, op, f->CurrentValuePhysicalAddress.SegmentId | (f->MonitoredValuePhysicalAddress.SegmentId << 8),
                     hbits(f->hGlobalNativeFence), f->CurrentValuePhysicalAddress.SegmentOffset,
                     f->MonitoredValuePhysicalAddress.SegmentOffset))
                return -1;
        }
        return 0;
#endif
#if PB_HAVE_WDDM3_2_OPS
    case 19:
        return note(s, op, a->MmapMmu.Adl.PageCount, hbits(a->MmapMmu.hAllocation), a->MmapMmu.VirtualAddress,
                    (uint64_t)a->MmapMmu.MmuId | ((uint64_t)a->MmapMmu.SegmentId << 16) |
                        ((uint64_t)a->MmapMmu.AllocationOffsetInPages << 32));
    case 20:
        return note(s, op, a->UnmapMmu.NumberOfPages, hbits(a->UnmapMmu.hAllocation), a->UnmapMmu.VirtualAddress,
                    (uint64_t)a->UnmapMmu.MmuId | ((uint64_t)a->UnmapMmu.AllocationOffset << 32));
    case 21:
        return note(s, op, (uint32_t)a->NotifyResidency2.Resident | ((uint32_t)a->NotifyResidency2.Reserved << 1),
                    hbits(a->NotifyResidency2.hAllocation),
                    (uint64_t)a->NotifyResidency2.AllocationOffsetInPages |
                        ((uint64_t)a->NotifyResidency2.SizeInPages << 32),
                    a->NotifyResidency2.SegmentId);
    case 22:
        return note(s, op, a->NotifyAllocation.Flags.Value, hbits(a->NotifyAllocation.hAllocation),
                    a->NotifyAllocation.OffsetInBytes, a->NotifyAllocation.SizeInBytes);
#endif
    default:
        (void)i;
        return oerr(s, "no oracle for operation", op);
    }
}

static int op_unmap(ostate *s, const DXGKARG_BUILDPAGINGBUFFER *a)
{
    const uint64_t dummy = (uint64_t)a->UnmapApertureSegment.DummyPage.QuadPart / PAGE;
    uint64_t i;
    for (i = 0; i < a->UnmapApertureSegment.NumberOfPages; i++)
        if (write_u64(s, (uint16_t)(RPB_SPACE_APERTURE_TABLE + a->UnmapApertureSegment.SegmentId),
                      (a->UnmapApertureSegment.OffsetInPages + i) * 8u, aperture_entry(dummy, 0)))
            return -1;
    return 0;
}

#if PB_HAVE_WDDM2_9_OPS
static int op_map_adl(ostate *s, const DXGKARG_BUILDPAGINGBUFFER *a)
{
    const DXGK_ADL *adl = &a->MapApertureSegment2.Adl;
    const uint64_t off = a->MapApertureSegment2.AdlOffset;
    const int cc = a->MapApertureSegment2.Flags.Value & 1u;
    if (adl->Flags.Contiguous)
        return map_pages(s, a->MapApertureSegment2.SegmentId, a->MapApertureSegment2.OffsetInPages,
                         a->MapApertureSegment2.NumberOfPages, NULL, (uint64_t)adl->BasePageNumber + off, cc);
    return map_pages(s, a->MapApertureSegment2.SegmentId, a->MapApertureSegment2.OffsetInPages,
                     a->MapApertureSegment2.NumberOfPages, adl->Pages + off, 0, cc);
}
#endif

static int op_virtual_transfer(ostate *s, const DXGK_BUILDPAGINGBUFFER_TRANSFERVIRTUAL *t)
{
    uint8_t page[PAGE];
    uint64_t k = 0;
    while (k < t->TransferSizeInBytes) {
        uint64_t n = t->TransferSizeInBytes - k < PAGE ? t->TransferSizeInBytes - k : PAGE;
        if (read_bytes(s, RPB_SPACE_PAGING_VA, t->SourceVirtualAddress + k, page, n) ||
            write_bytes(s, RPB_SPACE_PAGING_VA, t->DestinationVirtualAddress + k, page, n))
            return -1;
        k += n;
    }
    return 0;
}

int pboracle_apply(const pboracle_env *env, const DXGKARG_BUILDPAGINGBUFFER *a, char *err, size_t errlen)
{
    ostate s;
    const uint32_t op = (uint32_t)a->Operation;
    s.env = env;
    s.err = err;
    s.errlen = errlen;
    switch (op) {
    case 0:
    case 7:
        return op_transfer(&s, a);
    case 1:
        return fill(&s, (uint16_t)a->Fill.Destination.SegmentId,
                    (uint64_t)a->Fill.Destination.SegmentAddress.QuadPart -
                        env->segment_base[a->Fill.Destination.SegmentId],
                    a->Fill.FillSize, a->Fill.FillPattern);
    case 3:
    case 4:
        return touch(&s, a);
    case 5:
        return op_map_mdl(&s, a);
    case 6:
        return op_unmap(&s, a);
    case 8:
        return op_virtual_transfer(&s, &a->TransferVirtual);
    case 9:
        return fill(&s, RPB_SPACE_PAGING_VA, a->FillVirtual.DestinationVirtualAddress, a->FillVirtual.FillSizeInBytes,
                    a->FillVirtual.FillPattern);
    case 11:
        return op_update_page_table(&s, &a->UpdatePageTable);
    case 12:
        return 0; /* no TLB in the oracle: it always sees the tables as they are */
    case 14:
        return op_copy_ptes(&s, &a->CopyPageTableEntries);
    case 16:
        return write_u64(&s, RPB_SPACE_PAGING_VA, a->SignalMonitoredFence.MonitoredFenceGpuVa,
                         a->SignalMonitoredFence.MonitoredFenceValue);
#if PB_HAVE_WDDM2_9_OPS
    case 17:
        return op_map_adl(&s, a);
#endif
    default:
        return op_records(&s, a);
    }
}
