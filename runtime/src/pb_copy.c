/* Byte-moving operations: TRANSFER and SPECIAL_LOCK_TRANSFER with MDL run
 * coalescing, FILL, VIRTUAL_TRANSFER, VIRTUAL_FILL and COPY_PAGE_TABLE_ENTRIES. */
#include "pb_internal.h"

/* One side of a transfer after validation. */
typedef struct xfer_side {
    const PFN_NUMBER *pfn; /* NULL for a segment side */
    uint16_t space;
    uint64_t offset;       /* segment side: offset in segment incl. TransferOffset */
} xfer_side;

/* Transfer and SpecialLockTransfer share a layout but are distinct types. */
typedef struct xfer_args {
    HANDLE hAllocation;
    UINT TransferOffset;
    SIZE_T TransferSize;
    UINT SrcSegmentId, DstSegmentId;
    LONGLONG SrcAddress, DstAddress;
    const MDL *SrcMdl, *DstMdl;
    UINT Flags;
    UINT MdlOffset;
} xfer_args;

#define LOAD_XFER(x, t)                                                                                              \
    do {                                                                                                           \
        (x).hAllocation = (t).hAllocation;                                                                         \
        (x).TransferOffset = (t).TransferOffset;                                                                   \
        (x).TransferSize = (t).TransferSize;                                                                       \
        (x).SrcSegmentId = (t).Source.SegmentId;                                                                   \
        (x).DstSegmentId = (t).Destination.SegmentId;                                                              \
        (x).SrcAddress = (t).Source.SegmentId ? (t).Source.SegmentAddress.QuadPart : 0;                            \
        (x).DstAddress = (t).Destination.SegmentId ? (t).Destination.SegmentAddress.QuadPart : 0;                  \
        (x).SrcMdl = (t).Source.SegmentId ? NULL : (t).Source.pMdl;                                                \
        (x).DstMdl = (t).Destination.SegmentId ? NULL : (t).Destination.pMdl;                                      \
        (x).Flags = PB_FLAGS((t).Flags);                                                                           \
    } while (0)

#define XFER_RULE(special, suffix)                                                                                   \
    ((special) ? "DXGKARG_BUILDPAGINGBUFFER.SpecialLockTransfer" suffix : "DXGKARG_BUILDPAGINGBUFFER.Transfer" suffix)

#define TF_SWIZZLE 0x1u
#define TF_UNSWIZZLE 0x2u
#define TF_IDLE 0x4u
#define TF_START 0x8u
#define TF_END 0x10u
#define TF_RESERVED 0xFFFFFFE0u

static void load_xfer(const DXGKARG_BUILDPAGINGBUFFER *a, int special, xfer_args *x)
{
    if (special) {
        LOAD_XFER(*x, a->SpecialLockTransfer);
        x->MdlOffset = 0; /* SpecialLockTransfer has no MdlOffset: the MDL starts at page 0 */
    } else {
        LOAD_XFER(*x, a->Transfer);
        x->MdlOffset = a->Transfer.MdlOffset;
    }
}

static pb_step side_setup(pb_run *r, int special, int is_src, const xfer_args *x, uint32_t pages, xfer_side *s)
{
    UINT id = is_src ? x->SrcSegmentId : x->DstSegmentId;
    s->pfn = NULL;
    if (id == 0) {
        const MDL *mdl = is_src ? x->SrcMdl : x->DstMdl;
        if (!mdl)
            return pb_rule(r, is_src ? XFER_RULE(special, ".Source.pMdl:non-null")
                                     : XFER_RULE(special, ".Destination.pMdl:non-null"), PB_RULE_INVALID);
        if ((uint64_t)x->MdlOffset + pages > pb_mdl_pages(mdl))
            return pb_rule(r, XFER_RULE(special, ".MdlOffset:within-mdl"), PB_RULE_INVALID);
        s->pfn = MmGetMdlPfnArray((PMDL)(ULONG_PTR)mdl) + x->MdlOffset;
        s->space = PB_SPACE_SYSTEM;
        s->offset = 0;
        return PB_STEP_DONE;
    }
    {
        uint64_t addr = (uint64_t)(is_src ? x->SrcAddress : x->DstAddress);
        uint64_t base = pb_segment_valid(r, id) ? r->e->cfg.segments[id].base : 0;
        if (!pb_segment_valid(r, id))
            return pb_rule(r, is_src ? XFER_RULE(special, ".Source.SegmentId:known-segment")
                                     : XFER_RULE(special, ".Destination.SegmentId:known-segment"), PB_RULE_INVALID);
        if (addr < base || !pb_segment_range_ok(r, id, addr - base + x->TransferOffset, x->TransferSize))
            return pb_rule(r, is_src ? XFER_RULE(special, ".Source.SegmentAddress:within-segment")
                                     : XFER_RULE(special, ".Destination.SegmentAddress:within-segment"),
                           PB_RULE_INVALID);
        s->space = (uint16_t)id;
        s->offset = addr - base + x->TransferOffset;
    }
    return PB_STEP_DONE;
}

static pb_step validate_xfer(pb_run *r, int special, const xfer_args *x, uint32_t *pages)
{
    if (x->Flags & TF_RESERVED)
        return pb_rule(r, XFER_RULE(special, ".Flags:reserved-zero"), PB_RULE_INVALID);
    if ((x->Flags & TF_SWIZZLE) && (x->Flags & TF_UNSWIZZLE))
        return pb_rule(r, XFER_RULE(special, ".Flags:swizzle-exclusive"), PB_RULE_INVALID);
    if (x->SrcSegmentId == 0 && x->DstSegmentId == 0)
        return pb_rule(r, XFER_RULE(special, ":one-side-is-a-segment"), PB_RULE_INVALID);
    *pages = pb_slices(x->TransferSize);
    if (*pages == 0 && x->TransferSize != 0)
        return pb_rule(r, XFER_RULE(special, ".TransferSize:fits-progress-token"), PB_RULE_INVALID);
    if (r->token > *pages)
        return pb_rule(r, "DXGKARG_BUILDPAGINGBUFFER.MultipassOffset:within-operation", PB_RULE_INVALID);
    return PB_STEP_DONE;
}

static int ranges_overlap(const xfer_side *s, const xfer_side *d, uint64_t bytes)
{
    if (s->pfn || d->pfn || s->space != d->space || bytes == 0)
        return 0;
    return s->offset < d->offset + bytes && d->offset < s->offset + bytes;
}

static uint32_t copy_mode(const xfer_args *x)
{
    if (x->hAllocation == NULL) /* the docs: plain copy, no swizzling */
        return PB_COPY_PLAIN;
    if (x->Flags & TF_SWIZZLE)
        return PB_COPY_SWIZZLE;
    if (x->Flags & TF_UNSWIZZLE)
        return PB_COPY_UNSWIZZLE;
    return PB_COPY_PLAIN;
}

static int needs_idle(const pb_run *r, int special, const xfer_args *x)
{
    uint32_t caps = r->be->caps;
    if (x->Flags & TF_IDLE)
        return 0;
    if (special)
        return (caps & PB_CAP_SPECIAL_LOCK_NEEDS_IDLE) != 0;
    return (caps & PB_CAP_SWIZZLE_NEEDS_IDLE) && copy_mode(x) != PB_COPY_PLAIN;
}

static pb_loc side_loc(const xfer_side *s, uint32_t page)
{
    if (s->pfn)
        return pb_loc_make(PB_SPACE_SYSTEM, (uint64_t)s->pfn[page] << PB_PAGE_SHIFT);
    return pb_loc_make(s->space, s->offset + ((uint64_t)page << PB_PAGE_SHIFT));
}

/* Tracks the TransferStart/TransferEnd pairing across calls (a warning only:
 * the docs allow Start to repeat while a sub-transfer is retried). */
static void track_sequence(pb_run *r, int special, const xfer_args *x)
{
    if (special || r->token != 0)
        return;
    if (x->Flags & TF_START)
        r->e->transfer_open = 1;
    else if (!r->e->transfer_open)
        pb_rule(r, "DXGKARG_BUILDPAGINGBUFFER.Transfer.Flags:TransferStart-opens-transfer", PB_RULE_WARNING);
}

static pb_step emit_runs(pb_run *r, const xfer_side *src, const xfer_side *dst, const xfer_args *x, uint32_t pages)
{
    const uint32_t max_pages = r->be->max_copy >> PB_PAGE_SHIFT;
    const uint32_t mode = copy_mode(x);
    /* At most one side is an MDL (validated); a segment side never cuts a run.
     * The scan resumes at the token, so a pass may start in the middle of a run. */
    const PFN_NUMBER *pfn = src->pfn ? src->pfn : dst->pfn;
    pb_run_scan scan;
    pb_run_scan_init(&scan, pfn, pfn ? pages : 0u, r->token); /* empty scan for segment-to-segment */
    while (r->token < pages) {
        const uint32_t p = r->token;
        size_t n = pfn ? pb_run_scan_next(&scan, max_pages) : (pages - p < max_pages ? pages - p : max_pages);
        uint64_t bytes;
        if (n == 0 || n > pages - p)
            return pb_stalled(r);
        bytes = pb_min_u64((uint64_t)n << PB_PAGE_SHIFT, (uint64_t)x->TransferSize - ((uint64_t)p << PB_PAGE_SHIFT));
        if (!pb_emit_copy(r, side_loc(dst, p), side_loc(src, p), bytes, mode))
            return PB_STEP_FULL;
        r->token = p + (uint32_t)n;
    }
    return PB_STEP_DONE;
}

pb_step pb_op_transfer(pb_run *r)
{
    const int special = (uint32_t)r->a->Operation == PB_OP_SPECIAL_LOCK_TRANSFER;
    xfer_args x;
    xfer_side src, dst;
    uint32_t pages = 0;
    pb_step st;
    load_xfer(r->a, special, &x);
    if ((st = validate_xfer(r, special, &x, &pages)) != PB_STEP_DONE ||
        (st = side_setup(r, special, 1, &x, pages, &src)) != PB_STEP_DONE ||
        (st = side_setup(r, special, 0, &x, pages, &dst)) != PB_STEP_DONE)
        return st;
    if (ranges_overlap(&src, &dst, x.TransferSize))
        return pb_rule(r, XFER_RULE(special, ":source-destination-disjoint"), PB_RULE_INVALID);
    if (needs_idle(r, special, &x))
        return PB_STEP_BUSY;
    track_sequence(r, special, &x);
    st = emit_runs(r, &src, &dst, &x, pages);
    if (st == PB_STEP_DONE && !special && (x.Flags & TF_END))
        r->e->transfer_open = 0;
    return st;
}

/* Splits [token, slices) into packets of at most max bytes (a page multiple). */
typedef int (*chunk_emit_fn)(pb_run *r, uint64_t offset, uint64_t bytes, const void *ctx);

static pb_step emit_chunks(pb_run *r, uint64_t total_bytes, uint32_t max_bytes, chunk_emit_fn fn, const void *ctx)
{
    uint32_t slices = pb_slices(total_bytes);
    const uint32_t per = max_bytes >> PB_PAGE_SHIFT;
    if (slices == 0 && total_bytes != 0)
        return pb_rule(r, "DXGKARG_BUILDPAGINGBUFFER:size-fits-progress-token", PB_RULE_INVALID);
    if (r->token > slices)
        return pb_rule(r, "DXGKARG_BUILDPAGINGBUFFER.MultipassOffset:within-operation", PB_RULE_INVALID);
    while (r->token < slices) {
        uint32_t n = slices - r->token < per ? slices - r->token : per;
        uint64_t off = (uint64_t)r->token << PB_PAGE_SHIFT;
        if (n == 0)
            return pb_stalled(r);
        if (!fn(r, off, pb_min_u64((uint64_t)n << PB_PAGE_SHIFT, total_bytes - off), ctx))
            return PB_STEP_FULL;
        r->token += n;
    }
    return PB_STEP_DONE;
}

typedef struct fill_ctx {
    pb_loc dst;
    uint32_t pattern;
} fill_ctx;

static int fill_chunk(pb_run *r, uint64_t offset, uint64_t bytes, const void *ctx)
{
    const fill_ctx *f = ctx;
    return pb_emit_fill(r, pb_loc_make(f->dst.space, f->dst.addr + offset), bytes, f->pattern);
}

pb_step pb_op_fill(pb_run *r)
{
    const UINT id = r->a->Fill.Destination.SegmentId;
    const uint64_t addr = (uint64_t)r->a->Fill.Destination.SegmentAddress.QuadPart;
    const uint64_t bytes = r->a->Fill.FillSize;
    fill_ctx f;
    if (!pb_segment_valid(r, id) || r->e->cfg.segments[id].aperture)
        return pb_rule(r, "DXGKARG_BUILDPAGINGBUFFER.Fill.Destination.SegmentId:memory-segment", PB_RULE_INVALID);
    if (addr < r->e->cfg.segments[id].base || !pb_segment_range_ok(r, id, addr - r->e->cfg.segments[id].base, bytes))
        return pb_rule(r, "DXGKARG_BUILDPAGINGBUFFER.Fill.Destination.SegmentAddress:within-segment",
                       PB_RULE_INVALID);
    f.dst = pb_loc_make((uint16_t)id, addr - r->e->cfg.segments[id].base);
    f.pattern = r->a->Fill.FillPattern;
    return emit_chunks(r, bytes, r->be->max_fill, fill_chunk, &f);
}

typedef struct vcopy_ctx {
    uint64_t src, dst;
} vcopy_ctx;

static int vcopy_chunk(pb_run *r, uint64_t offset, uint64_t bytes, const void *ctx)
{
    const vcopy_ctx *v = ctx;
    return pb_emit_copy(r, pb_loc_make(PB_SPACE_PAGING_VA, v->dst + offset),
                        pb_loc_make(PB_SPACE_PAGING_VA, v->src + offset), bytes, PB_COPY_PLAIN);
}

pb_step pb_op_virtual_transfer(pb_run *r)
{
    const DXGK_BUILDPAGINGBUFFER_TRANSFERVIRTUAL *t = &r->a->TransferVirtual;
    const uint64_t bytes = t->TransferSizeInBytes;
    vcopy_ctx v;
    if ((uint32_t)t->TransferDirection > 2u)
        return pb_rule(r, "DXGKARG_BUILDPAGINGBUFFER.TransferVirtual.TransferDirection:known-value",
                       PB_RULE_INVALID);
    if (PB_FLAGS(t->Flags) & ~3u)
        return pb_rule(r, "DXGKARG_BUILDPAGINGBUFFER.TransferVirtual.Flags:reserved-zero", PB_RULE_INVALID);
    /* The VAs already point at the data: AllocationOffsetInBytes is never added. */
    v.src = t->SourceVirtualAddress;
    v.dst = t->DestinationVirtualAddress;
    if (bytes && v.src < v.dst + bytes && v.dst < v.src + bytes)
        return pb_rule(r, "DXGKARG_BUILDPAGINGBUFFER.TransferVirtual:source-destination-disjoint", PB_RULE_INVALID);
    return emit_chunks(r, bytes, r->be->max_copy, vcopy_chunk, &v);
}

pb_step pb_op_virtual_fill(pb_run *r)
{
    const DXGK_BUILDPAGINGBUFFER_FILLVIRTUAL *f = &r->a->FillVirtual;
    fill_ctx c;
    c.dst = pb_loc_make(PB_SPACE_PAGING_VA, f->DestinationVirtualAddress);
    c.pattern = f->FillPattern;
    return emit_chunks(r, f->FillSizeInBytes, r->be->max_fill, fill_chunk, &c);
}

/* COPY_PAGE_TABLE_ENTRIES: the token counts entries across all ranges. */
static pb_step validate_copy_ranges(pb_run *r, uint32_t *total)
{
    const DXGK_BUILDPAGINGBUFFER_COPYPAGETABLEENTRIES *c = &r->a->CopyPageTableEntries;
    uint64_t sum = 0;
    UINT i;
    if (c->NumRanges && !c->pRanges)
        return pb_rule(r, "DXGKARG_BUILDPAGINGBUFFER.CopyPageTableEntries.pRanges:non-null", PB_RULE_INVALID);
    for (i = 0; i < c->NumRanges; i++) {
        const DXGK_BUILDPAGINGBUFFER_COPY_RANGE *g = &c->pRanges[i];
        if ((g->SrcPageTableAddress | g->DstPageTableAddress) & 0xFFFFu)
            return pb_rule(r, "DXGK_BUILDPAGINGBUFFER_COPY_RANGE.SrcPageTableAddress:64kb-aligned", PB_RULE_INVALID);
        sum += g->NumPageTableEntries;
    }
    if (sum > PB_TOKEN_LIMIT)
        return pb_rule(r, "DXGKARG_BUILDPAGINGBUFFER.CopyPageTableEntries:fits-progress-token", PB_RULE_INVALID);
    if (r->token > sum)
        return pb_rule(r, "DXGKARG_BUILDPAGINGBUFFER.MultipassOffset:within-operation", PB_RULE_INVALID);
    *total = (uint32_t)sum;
    return PB_STEP_DONE;
}

pb_step pb_op_copy_page_table_entries(pb_run *r)
{
    const DXGK_BUILDPAGINGBUFFER_COPYPAGETABLEENTRIES *c = &r->a->CopyPageTableEntries;
    const uint32_t per = r->be->max_copy / 8u;
    uint32_t total = 0, first = 0;
    UINT i;
    pb_step st = validate_copy_ranges(r, &total);
    if (st != PB_STEP_DONE)
        return st;
    for (i = 0; i < c->NumRanges && r->token < total; i++) {
        const DXGK_BUILDPAGINGBUFFER_COPY_RANGE *g = &c->pRanges[i];
        while (r->token < first + g->NumPageTableEntries) {
            uint32_t k = r->token - first;
            uint32_t n = g->NumPageTableEntries - k < per ? g->NumPageTableEntries - k : per;
            pb_loc s, d;
            if (n == 0)
                return pb_stalled(r);
            s = pb_loc_make(PB_SPACE_PAGING_VA, g->SrcPageTableAddress + ((uint64_t)g->SrcStartPteIndex + k) * 8u);
            d = pb_loc_make(PB_SPACE_PAGING_VA, g->DstPageTableAddress + ((uint64_t)g->DstStartPteIndex + k) * 8u);
            if (!pb_emit_copy(r, d, s, (uint64_t)n * 8u, PB_COPY_PLAIN))
                return PB_STEP_FULL;
            r->token += n;
        }
        first += g->NumPageTableEntries;
    }
    return PB_STEP_DONE;
}
