/* The floor under the per-operation encoders: rule reporting, the all-or-nothing
 * packet reservation, the packet emitters that call the backend, and the argument
 * helpers the ops share. Calls only the backend: table -> ops -> emit -> backend. */
#include "pb_internal.h"

void pb_report(pb_engine *e, const DXGKARG_BUILDPAGINGBUFFER *a, const char *rule_id, pb_severity sev)
{
    if (e && e->cfg.report)
        e->cfg.report(e->cfg.report_ctx, rule_id, sev, a);
}

pb_step pb_rule(pb_run *r, const char *rule_id, pb_severity severity)
{
    pb_report(r->e, r->a, rule_id, severity);
    return severity == PB_RULE_INVALID ? PB_STEP_INVALID : PB_STEP_DONE;
}

static uint32_t used_bytes(const pb_run *r)
{
    return (uint32_t)(r->cur.pos - r->start);
}

int pb_fits(const pb_run *r, uint32_t bytes)
{
    uint64_t after = (uint64_t)used_bytes(r) + bytes;
    uint32_t align = r->be->submit_align;
    /* Room for the packet and for the pad that realigns this call's output. */
    return after + ((align - (after & (align - 1u))) & (align - 1u)) <= r->dma_size;
}

uint32_t pb_size(const pb_run *r, pb_packet_kind kind, uint32_t n)
{
    return r->be->ops->size_of(r->be->ctx, kind, n);
}

uint32_t pb_write64_room(const pb_run *r)
{
    uint32_t base = pb_size(r, PB_PKT_WRITE64, 0);
    uint32_t align = r->be->submit_align;
    uint32_t limit = r->dma_size & ~(align - 1u); /* output ends aligned */
    uint32_t used = used_bytes(r);
    uint32_t n;
    if (used + base + 8u > limit)
        return 0;
    n = (limit - used - base) / 8u;
    if (n > r->be->max_write64)
        n = r->be->max_write64;
    /* size_of may round (packet alignment): back off until it truly fits. */
    while (n && !pb_fits(r, pb_size(r, PB_PKT_WRITE64, n)))
        n--;
    return n;
}

void pb_align_write64_payload(pb_run *r, uint32_t align, uint32_t min_n)
{
    const uint32_t payload = used_bytes(r) + pb_size(r, PB_PKT_WRITE64, 0);
    const uint32_t pad = (0u - payload) & (align - 1u);
    /* Relative to the call's start: every call's output is a multiple of
     * submit_align, so the payload is aligned in memory when the DMA buffer
     * is, and the bytes emitted do not depend on the buffer's address. */
    if (pad == 0 || (pad & 7u) != 0 || align > r->be->submit_align)
        return;
    if (!pb_fits(r, pad + pb_size(r, PB_PKT_WRITE64, min_n)))
        return;
    r->be->ops->pad(r->be->ctx, &r->cur, pad);
}

static int reserve(pb_run *r, pb_packet_kind kind, uint32_t n)
{
    if (!pb_fits(r, pb_size(r, kind, n)))
        return 0;
    r->packets++;
    return 1;
}

int pb_emit_copy(pb_run *r, pb_loc dst, pb_loc src, uint64_t bytes, uint32_t mode)
{
    if (!reserve(r, PB_PKT_COPY, 1))
        return 0;
    r->be->ops->copy(r->be->ctx, &r->cur, dst, src, bytes, mode);
    return 1;
}

int pb_emit_fill(pb_run *r, pb_loc dst, uint64_t bytes, uint32_t pattern)
{
    if (!reserve(r, PB_PKT_FILL32, 1))
        return 0;
    r->be->ops->fill32(r->be->ctx, &r->cur, dst, bytes, pattern);
    return 1;
}

int pb_emit_ptegen(pb_run *r, pb_loc dst, uint64_t first, uint64_t incr, uint32_t n)
{
    if (!reserve(r, PB_PKT_PTEGEN, n))
        return 0;
    r->be->ops->ptegen(r->be->ctx, &r->cur, dst, first, incr, n);
    return 1;
}

int pb_emit_note(pb_run *r, const pb_note *note)
{
    if (!reserve(r, PB_PKT_NOTE, 1))
        return 0;
    r->be->ops->note(r->be->ctx, &r->cur, note);
    return 1;
}

int pb_emit_flush(pb_run *r, pb_loc root, uint64_t va0, uint64_t va1)
{
    if (!pb_fits(r, pb_size(r, PB_PKT_BARRIER, 1) + pb_size(r, PB_PKT_TLB_INVAL, 1)))
        return 0;
    r->packets += 2;
    r->be->ops->barrier(r->be->ctx, &r->cur);
    r->be->ops->tlb_inval(r->be->ctx, &r->cur, root, va0, va1);
    return 1;
}

int pb_emit_barrier_fence(pb_run *r, pb_loc dst, uint64_t value)
{
    if (!pb_fits(r, pb_size(r, PB_PKT_BARRIER, 1) + pb_size(r, PB_PKT_FENCE64, 1)))
        return 0;
    r->packets += 2;
    r->be->ops->barrier(r->be->ctx, &r->cur);
    r->be->ops->fence64(r->be->ctx, &r->cur, dst, value);
    return 1;
}

int pb_emit_touch(pb_run *r, pb_loc loc, uint32_t bytes, uint32_t write)
{
    if (!reserve(r, PB_PKT_TOUCH, 1))
        return 0;
    r->be->ops->touch(r->be->ctx, &r->cur, loc, bytes, write);
    return 1;
}

uint32_t pb_slices(uint64_t bytes)
{
    uint64_t n = (bytes >> PB_PAGE_SHIFT) + ((bytes & (PB_PAGE_SIZE - 1u)) != 0);
    return n > PB_TOKEN_LIMIT ? 0u : (uint32_t)n;
}

int pb_segment_valid(const pb_run *r, uint32_t id)
{
    return id >= 1u && id <= r->e->cfg.segment_count;
}

int pb_segment_range_ok(const pb_run *r, uint32_t id, uint64_t offset, uint64_t bytes)
{
    uint64_t size;
    if (!pb_segment_valid(r, id))
        return 0;
    size = r->e->cfg.segments[id].size;
    return offset <= size && bytes <= size - offset;
}

uint64_t pb_mdl_pages(const MDL *mdl)
{
    uint64_t first = (uint64_t)mdl->ByteOffset & (PB_PAGE_SIZE - 1u);
    return (first + (uint64_t)mdl->ByteCount + PB_PAGE_SIZE - 1u) >> PB_PAGE_SHIFT;
}

pb_step pb_stalled(pb_run *r)
{
    /* Unreachable with a configuration pb_engine_init accepted; refusing keeps
     * a broken backend or a configuration changed afterwards from spinning. */
    return pb_rule(r, "pb_engine:every-step-progresses", PB_RULE_INVALID);
}
