/* Engine core: configuration check, per-call run state, padding and the multipass
 * return protocol. Operations are dispatched by the generated table, whose handlers
 * pb_dispatch.c registers; reservation and packets live on the floor below the ops
 * (pb_emit.c). */
#include "pb_dispatch.h"

#if defined(PB_USE_GENERATED_VALIDATOR)
/* Generated from the spec at build time: the documented rules of the
 * arguments (runtime/CMakeLists.txt). Included as static inline functions
 * so the check costs no call on the DDI's path. */
#define DDI_VALIDATE_API static __inline
#define DDI_VALIDATE_NO_WDK_INCLUDES
#include "ddi_validate.c"
#endif

static uint32_t round_up(uint32_t v, uint32_t align)
{
    return (v + align - 1u) & ~(align - 1u);
}

static uint32_t used_bytes(const pb_run *r)
{
    return (uint32_t)(r->cur.pos - r->start);
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

/* The stream threshold when the configuration leaves it to the engine: a share
 * of the largest cache the CPU lists (pb_config.stream_min_bytes). */
static uint32_t stream_min_default(void)
{
    uint64_t llc = 0, bytes;
    uint32_t level;
    for (level = 1; level <= 3u; level++) { /* each level CPUID lists replaces the one below */
        const uint64_t cache = pb_cpu_cache_bytes(level);
        if (cache)
            llc = cache;
    }
    if (llc == 0)
        return PB_STREAM_NEVER;
    bytes = llc / PB_STREAM_LLC_SHARE_DEN * PB_STREAM_LLC_SHARE_NUM;
    return bytes >= PB_STREAM_NEVER ? PB_STREAM_NEVER - 1u : (uint32_t)(bytes ? bytes : 1u);
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
    engine->stream_min = 0;
    engine->stream = 0;
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
    engine->stream_min = config->stream_min_bytes ? config->stream_min_bytes : stream_min_default();
    engine->stream = engine->stream_min != PB_STREAM_NEVER && config->paging_buffer_size >= engine->stream_min;
    engine->ready = 1;
    return STATUS_SUCCESS;
}

/* ---- per call ---- */

/* Runs r's operation through the generated table: one operation beyond it, or
 * not available at the compiled DXGKDDI_INTERFACE_VERSION, is reported with the
 * table's rule ID and refused. Inline here: it is on every call's path. */
static pb_step dispatch(pb_run *r)
{
    ddi_violation v;
    const NTSTATUS status = ddi_DXGKARG_BUILDPAGINGBUFFER_Operation_dispatch(&pb_paging_handlers, r, r->a, &v);
    if (status >= 0 && status <= (NTSTATUS)PB_STEP_BUSY) /* a handler: the encoder's step */
        return (pb_step)status;
    if (status == STATUS_INVALID_PARAMETER) /* refused by the table (or a validator under DDIGEN_VALIDATE) */
        return pb_rule(r, v.rule_id, PB_RULE_INVALID);
    /* The default handler: an operation the kit has and the engine does not know. */
    return pb_rule(r, "DXGKARG_BUILDPAGINGBUFFER.Operation:known-value", PB_RULE_INVALID);
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
