/* Small operations: READ/WRITE_PHYSICAL, SIGNAL_MONITORED_FENCE, and the
 * notification or undocumented operations that become backend NOTE records. */
#include "pb_internal.h"

/* Physical address -> location; segment addresses include the segment base. */
static int physical_loc(const pb_run *r, UINT id, uint64_t addr, uint32_t bytes, pb_loc *loc)
{
    if (id == 0) {
        *loc = pb_loc_make(PB_SPACE_SYSTEM, addr);
        return 1;
    }
    if (!pb_segment_valid(r, id) || addr < r->e->cfg.segments[id].base ||
        !pb_segment_range_ok(r, id, addr - r->e->cfg.segments[id].base, bytes))
        return 0;
    *loc = pb_loc_make((uint16_t)id, addr - r->e->cfg.segments[id].base);
    return 1;
}

pb_step pb_op_physical(pb_run *r)
{
    const int write = (uint32_t)r->a->Operation == PB_OP_WRITE_PHYSICAL;
    const UINT id = write ? r->a->WritePhysical.SegmentId : r->a->ReadPhysical.SegmentId;
    const uint64_t addr =
        (uint64_t)(write ? r->a->WritePhysical.PhysicalAddress.QuadPart : r->a->ReadPhysical.PhysicalAddress.QuadPart);
    /* 1-8 bytes, data irrelevant: up to the next 8-byte boundary never crosses a page. */
    const uint32_t bytes = 8u - (uint32_t)(addr & 7u);
    pb_loc loc;
    if (!physical_loc(r, id, addr, bytes, &loc))
        return pb_rule(r, write ? "DXGKARG_BUILDPAGINGBUFFER.WritePhysical.PhysicalAddress:within-segment"
                                : "DXGKARG_BUILDPAGINGBUFFER.ReadPhysical.PhysicalAddress:within-segment",
                       PB_RULE_INVALID);
    if (r->token > 1u)
        return pb_rule(r, "DXGKARG_BUILDPAGINGBUFFER.MultipassOffset:within-operation", PB_RULE_INVALID);
    if (r->token == 0) {
        if (!pb_emit_touch(r, loc, bytes, (uint32_t)write))
            return PB_STEP_FULL;
        r->token = 1;
    }
    return PB_STEP_DONE;
}

#if PB_HAVE_WDDM2_2_OPS
pb_step pb_op_signal_fence(pb_run *r)
{
    const uint64_t va = r->a->SignalMonitoredFence.MonitoredFenceGpuVa;
    if (va & 7u)
        return pb_rule(r, "DXGKARG_BUILDPAGINGBUFFER.SignalMonitoredFence.MonitoredFenceGpuVa:8-byte-aligned",
                       PB_RULE_INVALID);
    if (r->token > 1u)
        return pb_rule(r, "DXGKARG_BUILDPAGINGBUFFER.MultipassOffset:within-operation", PB_RULE_INVALID);
    if (r->token == 0) {
        /* The fence must not signal before the paging work queued ahead of it is done. */
        if (!pb_emit_barrier_fence(r, pb_loc_make(PB_SPACE_PAGING_VA, va),
                                   r->a->SignalMonitoredFence.MonitoredFenceValue))
            return PB_STEP_FULL;
        r->token = 1;
    }
    return PB_STEP_DONE;
}
#endif

/* The bitfield unions (Resident / Reserved) have no Value member: read the
 * 32-bit word that holds them. */
static uint32_t word_at(const void *base, size_t offset)
{
    return *(const uint32_t *)(const void *)((const uint8_t *)base + offset);
}

static uint64_t handle_bits(HANDLE h)
{
    return (uint64_t)(ULONG_PTR)h;
}

static void note_init(pb_note *n, const DXGKARG_BUILDPAGINGBUFFER *a)
{
    n->ddi_op = (uint32_t)a->Operation;
    n->flags = 0;
    n->handle = 0;
    n->a = n->b = 0;
    n->index = 0;
    n->args = a;
}

/* Fills the record for single-record operations; returns a rule ID on a broken rule. */
static const char *describe(const DXGKARG_BUILDPAGINGBUFFER *a, pb_note *n)
{
    switch ((uint32_t)a->Operation) {
    case PB_OP_DISCARD_CONTENT:
        n->handle = handle_bits(a->DiscardContent.hAllocation);
        n->flags = PB_FLAGS(a->DiscardContent.Flags);
        n->a = a->DiscardContent.SegmentId;
        n->b = (uint64_t)a->DiscardContent.SegmentAddress.QuadPart;
        return (n->flags & ~1u) ? "DXGKARG_BUILDPAGINGBUFFER.DiscardContent.Flags:reserved-zero" : NULL;
    case PB_OP_INIT_CONTEXT_RESOURCE:
        n->handle = handle_bits(a->InitContextResource.hAllocation);
        n->a = a->InitContextResource.Destination.SegmentId;
        n->b = a->InitContextResource.Destination.SegmentId
                   ? (uint64_t)a->InitContextResource.Destination.SegmentAddress.QuadPart
                   : a->InitContextResource.Destination.GpuVirtualAddress;
        return NULL;
    case PB_OP_UPDATE_CONTEXT_ALLOCATION:
        n->a = a->UpdateContextAllocation.ContextAllocation;
        n->b = a->UpdateContextAllocation.ContextAllocationSize;
        n->flags = a->UpdateContextAllocation.DriverPrivateDataSize;
        return NULL;
    case PB_OP_NOTIFY_RESIDENCY:
        n->handle = handle_bits(a->NotifyResidency.hAllocation);
        n->a = a->NotifyResidency.PhysicalAddress.SegmentId;
        n->b = a->NotifyResidency.PhysicalAddress.SegmentOffset;
        n->flags = word_at(&a->NotifyResidency, offsetof(DXGK_BUILDPAGINGBUFFER_NOTIFYRESIDENCY, PhysicalAddress) +
                                                    sizeof(D3DGPU_PHYSICAL_ADDRESS));
        return (n->flags & ~1u) ? "DXGKARG_BUILDPAGINGBUFFER.NotifyResidency.Reserved:zero" : NULL;
#if PB_HAVE_WDDM3_2_OPS
    case PB_OP_MAP_MMU:
        n->handle = handle_bits(a->MmapMmu.hAllocation);
        n->a = a->MmapMmu.VirtualAddress;
        n->b = (uint64_t)a->MmapMmu.MmuId | ((uint64_t)a->MmapMmu.SegmentId << 16) |
               ((uint64_t)a->MmapMmu.AllocationOffsetInPages << 32);
        n->flags = a->MmapMmu.Adl.PageCount;
        return NULL;
    case PB_OP_UNMAP_MMU:
        n->handle = handle_bits(a->UnmapMmu.hAllocation);
        n->a = a->UnmapMmu.VirtualAddress;
        n->b = (uint64_t)a->UnmapMmu.MmuId | ((uint64_t)a->UnmapMmu.AllocationOffset << 32);
        n->flags = a->UnmapMmu.NumberOfPages;
        return a->UnmapMmu.Reserved0 ? "DXGKARG_BUILDPAGINGBUFFER.UnmapMmu.Reserved0:zero" : NULL;
    case PB_OP_NOTIFY_RESIDENCY2:
        n->handle = handle_bits(a->NotifyResidency2.hAllocation);
        n->a = (uint64_t)a->NotifyResidency2.AllocationOffsetInPages |
               ((uint64_t)a->NotifyResidency2.SizeInPages << 32);
        n->b = a->NotifyResidency2.SegmentId;
        n->flags = word_at(&a->NotifyResidency2, offsetof(DXGK_BUILDPAGINGBUFFER_NOTIFYRESIDENCY2, PhysicalAddress) +
                                                     sizeof(D3DGPU_PHYSICAL_ADDRESS));
        return (n->flags & ~1u) ? "DXGKARG_BUILDPAGINGBUFFER.NotifyResidency2.Reserved:zero" : NULL;
    case PB_OP_NOTIFY_ALLOC:
        n->handle = handle_bits(a->NotifyAllocation.hAllocation);
        n->a = a->NotifyAllocation.OffsetInBytes;
        n->b = a->NotifyAllocation.SizeInBytes;
        n->flags = PB_FLAGS(a->NotifyAllocation.Flags);
        if ((n->flags & 3u) == 3u)
            return "DXGKARG_BUILDPAGINGBUFFER.NotifyAllocation.Flags:Eviction-IoMmuUnmap-exclusive";
        return (n->flags & ~3u) ? "DXGKARG_BUILDPAGINGBUFFER.NotifyAllocation.Flags:reserved-zero" : NULL;
#endif
    default:
        return "DXGKARG_BUILDPAGINGBUFFER.Operation:known-value";
    }
}

#if PB_HAVE_WDDM2_9_OPS
/* One record per fence; the token is the fence index. */
static pb_step note_fences(pb_run *r)
{
    const DXGKARG_BUILDPAGINGBUFFER *a = r->a;
    const UINT count = a->NotifyFenceResidency.NumFences;
    pb_note n;
    if (count && !a->NotifyFenceResidency.pFences)
        return pb_rule(r, "DXGKARG_BUILDPAGINGBUFFER.NotifyFenceResidency.pFences:non-null", PB_RULE_INVALID);
    if (count > PB_TOKEN_LIMIT || r->token > count)
        return pb_rule(r, "DXGKARG_BUILDPAGINGBUFFER.MultipassOffset:within-operation", PB_RULE_INVALID);
    while (r->token < count) {
        const DXGK_FENCE_RESIDENCY_INFO *f = &a->NotifyFenceResidency.pFences[r->token];
        note_init(&n, a);
        n.index = r->token;
        n.handle = handle_bits(f->hGlobalNativeFence);
        n.a = f->CurrentValuePhysicalAddress.SegmentOffset;
        n.b = f->MonitoredValuePhysicalAddress.SegmentOffset;
        n.flags = f->CurrentValuePhysicalAddress.SegmentId | (f->MonitoredValuePhysicalAddress.SegmentId << 8);
        if (!pb_emit_note(r, &n))
            return PB_STEP_FULL;
        r->token++;
    }
    return PB_STEP_DONE;
}
#endif

static int discard_needs_idle(const pb_run *r)
{
    return (uint32_t)r->a->Operation == PB_OP_DISCARD_CONTENT && (r->be->caps & PB_CAP_DISCARD_NEEDS_IDLE) &&
           !(PB_FLAGS(r->a->DiscardContent.Flags) & 1u);
}

pb_step pb_op_note(pb_run *r)
{
    pb_note n;
    const char *rule;
#if PB_HAVE_WDDM2_9_OPS
    if ((uint32_t)r->a->Operation == PB_OP_NOTIFY_FENCE_RESIDENCY)
        return note_fences(r);
#endif
    note_init(&n, r->a);
    rule = describe(r->a, &n);
    if (rule)
        return pb_rule(r, rule, PB_RULE_INVALID);
    if (r->token > 1u)
        return pb_rule(r, "DXGKARG_BUILDPAGINGBUFFER.MultipassOffset:within-operation", PB_RULE_INVALID);
    if (discard_needs_idle(r))
        return PB_STEP_BUSY;
    if (r->token == 0) {
        if (!pb_emit_note(r, &n))
            return PB_STEP_FULL;
        r->token = 1;
    }
    return PB_STEP_DONE;
}
