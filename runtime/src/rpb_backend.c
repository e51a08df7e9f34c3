/* Reference backend: pb_backend_ops implemented with the RPB1 static-inline
 * writers, plus the reference PTE and aperture-entry encodings. */
#include "rpb_backend.h"

#include "rpb1.h"

static rpb_loc to_rpb(pb_loc l)
{
    return rpb_loc_make(l.space, l.addr);
}

static uint32_t rpb_size_of(void *ctx, pb_packet_kind kind, uint32_t n)
{
    (void)ctx;
    switch (kind) {
    case PB_PKT_PAD:
        return n;
    case PB_PKT_COPY:
        return RPB_COPY_BYTES;
    case PB_PKT_FILL32:
        return RPB_FILL32_BYTES;
    case PB_PKT_WRITE64:
        return RPB_WRITE64_BASE + 8u * n;
    case PB_PKT_PTEGEN:
        return RPB_PTEGEN_BYTES;
    case PB_PKT_TLB_INVAL:
        return RPB_TLB_INVAL_BYTES;
    case PB_PKT_BARRIER:
        return RPB_BARRIER_BYTES;
    case PB_PKT_FENCE64:
        return RPB_FENCE64_BYTES;
    case PB_PKT_NOTE:
        return RPB_NOTE_BYTES;
    case PB_PKT_TOUCH:
        return RPB_TOUCH_BYTES;
    default:
        return 0xFFFFFFFFu; /* never fits */
    }
}

static void rpb_pad(void *ctx, pb_cursor *c, uint32_t bytes)
{
    (void)ctx;
    rpb_put_pad(c->pos, bytes);
    c->pos += bytes;
}

static void rpb_copy(void *ctx, pb_cursor *c, pb_loc dst, pb_loc src, uint64_t bytes, uint32_t mode)
{
    (void)ctx;
    rpb_put_copy(c->pos, c->seq++, to_rpb(dst), to_rpb(src), bytes, mode);
    c->pos += RPB_COPY_BYTES;
}

static void rpb_fill32(void *ctx, pb_cursor *c, pb_loc dst, uint64_t bytes, uint32_t pattern)
{
    (void)ctx;
    rpb_put_fill32(c->pos, c->seq++, to_rpb(dst), bytes, pattern);
    c->pos += RPB_FILL32_BYTES;
}

static uint64_t *rpb_write64_begin(void *ctx, pb_cursor *c, pb_loc dst, uint32_t n_max)
{
    rpb_backend_ctx *x = ctx;
    (void)n_max;
    x->pending_write64 = c->pos;
    return rpb_put_write64_head(c->pos, c->seq, to_rpb(dst));
}

static void rpb_write64_end(void *ctx, pb_cursor *c, uint32_t n)
{
    rpb_backend_ctx *x = ctx;
    rpb_put_write64_count(x->pending_write64, n);
    rpb_st64(x->pending_write64, 8, (uint64_t)c->seq++);
    c->pos += RPB_WRITE64_BASE + 8u * n;
}

static void rpb_ptegen(void *ctx, pb_cursor *c, pb_loc dst, uint64_t first, uint64_t incr, uint32_t n)
{
    (void)ctx;
    rpb_put_ptegen(c->pos, c->seq++, to_rpb(dst), first, incr, n);
    c->pos += RPB_PTEGEN_BYTES;
}

static void rpb_tlb_inval(void *ctx, pb_cursor *c, pb_loc root, uint64_t va0, uint64_t va1)
{
    (void)ctx;
    rpb_put_tlb_inval(c->pos, c->seq++, to_rpb(root), va0, va1);
    c->pos += RPB_TLB_INVAL_BYTES;
}

static void rpb_barrier(void *ctx, pb_cursor *c)
{
    (void)ctx;
    rpb_put_barrier(c->pos, c->seq++);
    c->pos += RPB_BARRIER_BYTES;
}

static void rpb_fence64(void *ctx, pb_cursor *c, pb_loc dst, uint64_t value)
{
    (void)ctx;
    rpb_put_fence64(c->pos, c->seq++, to_rpb(dst), value);
    c->pos += RPB_FENCE64_BYTES;
}

static void rpb_touch(void *ctx, pb_cursor *c, pb_loc loc, uint32_t bytes, uint32_t write)
{
    (void)ctx;
    rpb_put_touch(c->pos, c->seq++, to_rpb(loc), bytes, write);
    c->pos += RPB_TOUCH_BYTES;
}

static void rpb_note(void *ctx, pb_cursor *c, const pb_note *n)
{
    (void)ctx;
    rpb_put_note(c->pos, c->seq++, n->ddi_op, n->flags, n->handle, n->a, n->b);
    c->pos += RPB_NOTE_BYTES;
}

/* The reference PTE is split-shaped: DXGK_PTE flag bits 0-10 stay in place,
 * the page number moves to bits 12-55, PageTablePageSize and the adapter index
 * go high. So the core's vectorised loop encodes it; these are the flag bits. */
static uint64_t rpb_pte_flag_bits(void *ctx, uint64_t w, const pb_pte_ctx *pc)
{
    (void)ctx;
    return rpb_pte_pack(w, 0, pc->level >= 1u && pc->use_64kb, w >> 17, w >> 11);
}

/* Stretches with changing flags: a branch-free shift-or per entry, in blocks
 * of 16 with a constant trip count so compilers vectorise it. */
#define RPB_PTE(w, page, leaf64k)                                                                                  \
    (((w) & RPB_PTE_LOW_FLAGS_MASK) | (leaf64k) | (((page) & RPB_PTE_PAGE_MASK) << RPB_PTE_PAGE_SHIFT) |           \
     (((w) << 39) & (3ull << RPB_PTE_PTSIZE_SHIFT)) | (((w) >> 11) << RPB_PTE_ADAPTER_SHIFT))

static void rpb_encode_mixed(void *ctx, const DXGK_PTE *in, uint32_t n, const pb_pte_ctx *pc, uint64_t *out)
{
    const uint64_t leaf64k = (pc->level >= 1u && pc->use_64kb) ? RPB_PTE_LEAF64K : 0u;
    uint32_t i = 0, k;
    (void)ctx;
    for (; i + 16u <= n; i += 16u) {
        const DXGK_PTE *PB_RESTRICT p = in + i;
        uint64_t *PB_RESTRICT o = out + i;
        for (k = 0; k < 16u; k++)
            o[k] = RPB_PTE(p[k].Flags, p[k].PageAddress, leaf64k);
    }
    for (; i < n; i++)
        out[i] = RPB_PTE(in[i].Flags, in[i].PageAddress, leaf64k);
}

void rpb_pte_format(pb_pte_split *fmt, void *ctx)
{
    fmt->flag_bits = rpb_pte_flag_bits;
    fmt->ctx = ctx;
    fmt->encode_mixed = rpb_encode_mixed;
    fmt->page_mask = RPB_PTE_PAGE_MASK;
    fmt->page_shift = RPB_PTE_PAGE_SHIFT;
}

void rpb_encode_ptes(void *ctx, const DXGK_PTE *in, uint32_t n, const pb_pte_ctx *pc, uint64_t *out)
{
    pb_pte_split fmt;
    rpb_pte_format(&fmt, ctx);
    pb_encode_ptes_split(&fmt, in, n, pc, out);
}

static uint64_t rpb_aperture_pte(void *ctx, uint32_t segment_id, uint64_t page, uint32_t cache_coherent)
{
    (void)ctx;
    (void)segment_id;
    return RPB_PTE_VALID | (cache_coherent ? RPB_PTE_CACHE_COHERENT : 0u) | ((page & RPB_PTE_PAGE_MASK) << 12);
}

static int rpb_cpu_write64(void *ctx, void *cpu_va, const uint64_t *v, uint32_t n)
{
    rpb_backend_ctx *x = ctx;
    return x->cpu_write64 ? x->cpu_write64(x->user, cpu_va, v, n) : -1;
}

static int rpb_cpu_va_to_loc(void *ctx, const void *cpu_va, uint64_t bytes, pb_loc *out)
{
    rpb_backend_ctx *x = ctx;
    return x->cpu_va_to_loc ? x->cpu_va_to_loc(x->user, cpu_va, bytes, out) : -1;
}

/* The platform saves the extended state (KeSaveExtendedProcessorState in a
 * driver); without its hook every save fails and the engine stays on SSE2. */
static int rpb_vector_save(void *ctx, pb_vector_state *state)
{
    rpb_backend_ctx *x = ctx;
    return x->vector_save ? x->vector_save(x->user, state) : -1;
}

static void rpb_vector_restore(void *ctx, pb_vector_state *state)
{
    rpb_backend_ctx *x = ctx;
    if (x->vector_restore)
        x->vector_restore(x->user, state);
}

static const pb_backend_ops k_rpb_ops = {
    rpb_size_of, rpb_pad,    rpb_copy,  rpb_fill32, rpb_write64_begin, rpb_write64_end,  rpb_ptegen,
    rpb_tlb_inval, rpb_barrier, rpb_fence64, rpb_touch, rpb_note, rpb_encode_ptes, rpb_aperture_pte,
    rpb_cpu_write64, rpb_cpu_va_to_loc, rpb_vector_save, rpb_vector_restore,
};

void rpb_backend_init(pb_backend *backend, rpb_backend_ctx *ctx)
{
    backend->ops = &k_rpb_ops;
    backend->ctx = ctx;
    backend->submit_align = RPB_DEFAULT_SUBMIT_ALIGN;
    backend->max_copy = RPB_DEFAULT_MAX_COPY;
    backend->max_fill = RPB_DEFAULT_MAX_FILL;
    backend->max_write64 = RPB_DEFAULT_MAX_WRITE64;
    backend->max_ptegen = RPB_DEFAULT_MAX_PTEGEN;
    backend->dual_pte_offset = RPB_DUAL_PTE_OFFSET;
    backend->caps = PB_CAP_SWIZZLE_NEEDS_IDLE;
    rpb_pte_format(&backend->pte_split, ctx); /* encode_ptes is exactly that: the engine may fuse */
}
