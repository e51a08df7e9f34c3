/* Engine core: configuration check, per-call run state, all-or-nothing packet
 * reservation, padding, the multipass return protocol and operation dispatch. */
#include "pb_internal.h"

#if defined(PB_USE_GENERATED_VALIDATOR)
/* Generated from the spec at build time: the documented rules of the
 * arguments (runtime/CMakeLists.txt). Included as static inline functions
 * so the check costs no call on the DDI's path. */
#define DDI_VALIDATE_API static __inline
#define DDI_VALIDATE_NO_WDK_INCLUDES
#include "ddi_validate.c"
#endif

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

static uint32_t round_up(uint32_t v, uint32_t align)
{
    return (v + align - 1u) & ~(align - 1u);
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

/* ---- configuration ---- */

static uint32_t largest_fixed_step(const pb_config *c)
{
    const pb_backend *b = &c->backend;
    uint32_t k, m = 0;
    for (k = PB_PKT_COPY; k < PB_PKT_KIND_COUNT; k++) {
        uint32_t s = b->ops->size_of(b->ctx, (pb_packet_kind)k, 1);
        if (s > m)
            m = s;
    }
    /* Paired steps (BARRIER + TLB_INVAL / FENCE64) are reserved together. */
    k = b->ops->size_of(b->ctx, PB_PKT_BARRIER, 1);
    if (k + b->ops->size_of(b->ctx, PB_PKT_TLB_INVAL, 1) > m)
        m = k + b->ops->size_of(b->ctx, PB_PKT_TLB_INVAL, 1);
    if (k + b->ops->size_of(b->ctx, PB_PKT_FENCE64, 1) > m)
        m = k + b->ops->size_of(b->ctx, PB_PKT_FENCE64, 1);
    return m;
}

static int backend_complete(const pb_backend *b)
{
    const pb_backend_ops *o = b->ops;
    return o && o->size_of && o->pad && o->copy && o->fill32 && o->write64_begin && o->write64_end && o->ptegen &&
           o->tlb_inval && o->barrier && o->fence64 && o->touch && o->note && o->encode_ptes && o->aperture_pte &&
           o->cpu_write64;
}

/* The first limit of config the engine cannot work with, as a rule id, or NULL.
 * Every loop that consumes a scan or chunk length relies on these: a limit of
 * zero pages, or a PTEGEN limit below the run length the qword scans start a
 * generator at, would make a scan return 0 and the loop stop progressing. */
static const char *config_problem(const pb_config *config, uint32_t *largest_fixed)
{
    const pb_backend *b = &config->backend;
    const uint32_t align = b->submit_align;
    uint64_t need;
    if (!backend_complete(b))
        return "pb_config.backend.ops:complete";
    if (align < 8u || (align & (align - 1u)))
        return "pb_config.backend.submit_align:power-of-two-at-least-8";
    if (b->max_copy < PB_PAGE_SIZE || (b->max_copy & (PB_PAGE_SIZE - 1u)))
        return "pb_config.backend.max_copy:nonzero-page-multiple";
    if (b->max_fill < PB_PAGE_SIZE || (b->max_fill & (PB_PAGE_SIZE - 1u)))
        return "pb_config.backend.max_fill:nonzero-page-multiple";
    if (b->max_write64 == 0)
        return "pb_config.backend.max_write64:nonzero";
    if (b->max_ptegen < PB_MIN_GENERATOR_RUN)
        return "pb_config.backend.max_ptegen:at-least-12";
    if (config->segment_count > PB_MAX_SEGMENTS)
        return "pb_config.segment_count:at-most-31";
    if (config->level_count > PB_MAX_LEVELS)
        return "pb_config.level_count:at-most-6";
    if (config->wide_vectors > PB_WIDE_OFF)
        return "pb_config.wide_vectors:known-value";
    if (b->pte_split.flag_bits && b->pte_split.page_shift >= 64u)
        return "pb_config.backend.pte_split.page_shift:below-64";
    *largest_fixed = largest_fixed_step(config);
    /* A fresh buffer must take any single step plus its padding, or a call
     * could return INSUFFICIENT forever without progress. In 64 bits: a
     * backend's size_of may return up to 0xFFFFFFFF ("never fits"). */
    need = *largest_fixed;
    if (need < b->ops->size_of(b->ctx, PB_PKT_WRITE64, 1))
        need = b->ops->size_of(b->ctx, PB_PKT_WRITE64, 1);
    if (need < b->ops->size_of(b->ctx, PB_PKT_PTEGEN, b->max_ptegen)) /* generators up to max_ptegen */
        need = b->ops->size_of(b->ctx, PB_PKT_PTEGEN, b->max_ptegen);
    if (*largest_fixed == 0 || (uint64_t)config->paging_buffer_size < need + align)
        return "pb_config.paging_buffer_size:holds-largest-packet";
    return NULL;
}

NTSTATUS pb_engine_init(pb_engine *engine, const pb_config *config)
{
    const char *problem;
    uint32_t largest = 0;
    if (!engine || !config) {
        pb_report(NULL, NULL, "pb_engine_init:non-null", PB_RULE_INVALID);
        return PB_STATUS_INVALID_ARGS;
    }
    engine->cfg = *config;
    engine->seq = 0;
    engine->transfer_open = 0;
    engine->largest_fixed = 0;
    engine->ready = 0;
    engine->wide = 0;
    engine->wide_min = 0;
    problem = config_problem(config, &largest);
    if (problem) {
        pb_report(engine, NULL, problem, PB_RULE_INVALID);
        return PB_STATUS_INVALID_ARGS;
    }
    engine->largest_fixed = largest;
    /* AVX2 needs the CPU (and the OS's YMM saving), the backend's hooks to save
     * the state in kernel mode, and the configuration's consent. */
    engine->wide = config->wide_vectors == PB_WIDE_AUTO && config->backend.ops->vector_save &&
                   config->backend.ops->vector_restore && pb_cpu_has_avx2();
    engine->wide_min = config->wide_min_entries ? config->wide_min_entries : PB_WIDE_MIN_ENTRIES_DEFAULT;
    engine->ready = 1;
    return STATUS_SUCCESS;
}

pb_step pb_stalled(pb_run *r)
{
    /* Unreachable with a configuration pb_engine_init accepted; refusing keeps
     * a broken backend or a configuration changed afterwards from spinning. */
    return pb_rule(r, "pb_engine:every-step-progresses", PB_RULE_INVALID);
}

/* ---- per call ---- */

static pb_step dispatch(pb_run *r)
{
    switch ((uint32_t)r->a->Operation) {
    case PB_OP_TRANSFER:
    case PB_OP_SPECIAL_LOCK_TRANSFER:
        return pb_op_transfer(r);
    case PB_OP_FILL:
        return pb_op_fill(r);
    case PB_OP_READ_PHYSICAL:
    case PB_OP_WRITE_PHYSICAL:
        return pb_op_physical(r);
    case PB_OP_MAP_APERTURE_SEGMENT:
        return pb_op_map_aperture(r);
    case PB_OP_UNMAP_APERTURE_SEGMENT:
        return pb_op_unmap_aperture(r);
    case PB_OP_VIRTUAL_TRANSFER:
        return pb_op_virtual_transfer(r);
    case PB_OP_VIRTUAL_FILL:
        return pb_op_virtual_fill(r);
    case PB_OP_UPDATE_PAGE_TABLE:
        return pb_op_update_page_table(r);
    case PB_OP_FLUSH_TLB:
        return pb_op_flush_tlb(r);
    case PB_OP_COPY_PAGE_TABLE_ENTRIES:
        return pb_op_copy_page_table_entries(r);
    case PB_OP_SIGNAL_MONITORED_FENCE:
        return pb_op_signal_fence(r);
#if PB_HAVE_WDDM2_9_OPS
    case PB_OP_MAP_APERTURE_SEGMENT2:
        return pb_op_map_aperture2(r);
#endif
    case PB_OP_DISCARD_CONTENT:
    case PB_OP_INIT_CONTEXT_RESOURCE:
    case PB_OP_UPDATE_CONTEXT_ALLOCATION:
    case PB_OP_NOTIFY_RESIDENCY:
#if PB_HAVE_WDDM2_9_OPS
    case PB_OP_NOTIFY_FENCE_RESIDENCY:
#endif
#if PB_HAVE_WDDM3_2_OPS
    case PB_OP_MAP_MMU:
    case PB_OP_UNMAP_MMU:
    case PB_OP_NOTIFY_RESIDENCY2:
    case PB_OP_NOTIFY_ALLOC:
#endif
        return pb_op_note(r);
    default:
        return pb_rule(r, "DXGKARG_BUILDPAGINGBUFFER.Operation:known-value", PB_RULE_INVALID);
    }
}

static void pad_output(pb_run *r)
{
    uint32_t used = used_bytes(r);
    uint32_t pad = round_up(used, r->be->submit_align) - used;
    if (pad)
        r->be->ops->pad(r->be->ctx, &r->cur, pad);
}

static NTSTATUS finish(pb_run *r, pb_step step, int fresh)
{
    pb_engine *e = r->e;
    if (step == PB_STEP_INVALID)
        return PB_STATUS_INVALID_ARGS;
    if (step == PB_STEP_BUSY)
        return STATUS_GRAPHICS_ALLOCATION_BUSY;
    if (step == PB_STEP_FULL && r->packets == 0 && fresh) {
        /* Cannot happen after pb_engine_init accepted the configuration. */
        pb_report(e, r->a, "pb_config.paging_buffer_size:holds-largest-packet", PB_RULE_INVALID);
        return PB_STATUS_INVALID_ARGS;
    }
    pad_output(r);
    r->a->pDmaBuffer = r->cur.pos;
    r->a->MultipassOffset = r->token;
    e->seq = r->cur.seq;
    return step == PB_STEP_FULL ? STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER : STATUS_SUCCESS;
}

NTSTATUS pb_build_paging_buffer(pb_engine *engine, DXGKARG_BUILDPAGINGBUFFER *args)
{
    pb_run r;
    int fresh;
    if (!engine || !args) {
        pb_report(engine, args, "DXGKARG_BUILDPAGINGBUFFER:non-null", PB_RULE_INVALID);
        return PB_STATUS_INVALID_ARGS;
    }
    if (!engine->ready) { /* pb_engine_init refused the configuration (or was not called) */
        pb_report(engine, args, "pb_engine:initialised", PB_RULE_INVALID);
        return PB_STATUS_INVALID_ARGS;
    }
#if defined(DDI_HAS_ddi_validate_DXGKARG_BUILDPAGINGBUFFER_in)
    {
        /* The documented rules, from the generated validator; the checks
         * below and in the operations are the engine's own. */
        ddi_violation v;
        if (ddi_validate_DXGKARG_BUILDPAGINGBUFFER_in(args, &v, DDI_VALIDATE_STOP_AT_FIRST) != 0) {
            pb_report(engine, args, v.rule_id, PB_RULE_INVALID);
            return PB_STATUS_INVALID_ARGS;
        }
    }
#endif
    if ((uint32_t)args->Operation == PB_OP_UPDATE_PAGE_TABLE && args->pDmaBuffer == NULL)
        return pb_update_page_table_cpu(engine, args);
    if (args->pDmaBuffer == NULL || ((uintptr_t)args->pDmaBuffer & 7u)) {
        pb_report(engine, args, "DXGKARG_BUILDPAGINGBUFFER.pDmaBuffer:non-null-8-byte-aligned", PB_RULE_INVALID);
        return PB_STATUS_INVALID_ARGS;
    }
    fresh = args->DmaSize >= engine->cfg.paging_buffer_size;
    if (fresh)
        engine->seq = 0; /* packet numbers restart in every paging buffer */
    r.e = engine;
    r.a = args;
    r.be = &engine->cfg.backend;
    r.start = (uint8_t *)args->pDmaBuffer;
    r.dma_size = args->DmaSize;
    r.cur.pos = r.start;
    r.cur.end = r.start + args->DmaSize;
    r.cur.seq = engine->seq;
    r.token = args->MultipassOffset;
    r.packets = 0;
    return finish(&r, dispatch(&r), fresh);
}
