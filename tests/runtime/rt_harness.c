/* Test harness for the paging runtime: world setup, the VidMm-like multipass
 * driver loop with its invariant checks, and the random operation generator. */
#include "rt_harness.h"

#include "pbsim_vector.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- randomness: a PRNG, or fuzzer bytes when data is set ---- */

uint64_t rt_next(rt_rng *r)
{
    uint64_t z;
    if (r->data) {
        uint64_t v = 0;
        int i;
        for (i = 0; i < 8; i++)
            v = (v << 8) | (r->pos < r->len ? r->data[r->pos++] : 0u);
        return v;
    }
    z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t rt_below(rt_rng *r, uint64_t n)
{
    if (r->data) { /* one byte per small choice keeps fuzz inputs short */
        uint64_t v = r->pos < r->len ? r->data[r->pos++] : 0u;
        if (n > 256u)
            v = (v << 8) | (r->pos < r->len ? r->data[r->pos++] : 0u);
        return v % n;
    }
    return rt_next(r) % n;
}

static int failf(rt_world *w, const char *fmt, ...)
{
    va_list ap;
    if (w->failure[0])
        return -1;
    va_start(ap, fmt);
    vsnprintf(w->failure, sizeof w->failure, fmt, ap);
    va_end(ap);
    return -1;
}

/* ---- hooks ---- */

static void on_rule(void *ctx, const char *rule_id, pb_severity sev, const DXGKARG_BUILDPAGINGBUFFER *a)
{
    rt_world *w = ctx;
    (void)a;
    snprintf(w->last_rule, sizeof w->last_rule, "%s", rule_id);
    if (w->fault)
        w->fault(w);
    if (sev == PB_RULE_INVALID)
        w->rules_invalid++;
    else
        w->rules_warning++;
}

static int hook_cpu_write(void *user, void *cpu_va, const uint64_t *v, uint32_t n)
{
    return pbsim_cpu_write64(user, cpu_va, v, n);
}

static int hook_cpu_alias(void *user, const void *cpu_va, uint64_t bytes, pb_loc *out)
{
    rt_world *w = user;
    rpb_loc l;
    if (!w->use_cpu_alias || pbsim_cpu_va_to_loc(&w->sim, cpu_va, bytes, &l))
        return -1;
    out->space = l.space;
    out->addr = l.addr;
    return 0;
}

static int cpu_write_thunk(void *user, void *cpu_va, const uint64_t *v, uint32_t n)
{
    return hook_cpu_write(&((rt_world *)user)->sim, cpu_va, v, n);
}

/* ---- world ---- */

uint8_t *rt_seg_host(rt_world *w, pbsim_machine *m, uint32_t seg, uint64_t offset)
{
    (void)w;
    return pbsim_host_ptr(m, rpb_loc_make((uint16_t)seg, offset), 8);
}

/* Target t of the data VA pages: seg1 pages 5-15, seg2 pages 0-7, then system pages. */
static uint64_t target_pte(uint32_t t)
{
    if (t < 11u)
        return rpb_pte_pack(RPB_PTE_VALID | (RT_SEG_TABLES << RPB_PTE_SEGMENT_SHIFT), 5u + t, 0, 0, 0);
    if (t < 19u)
        return rpb_pte_pack(RPB_PTE_VALID | (RT_SEG_DATA << RPB_PTE_SEGMENT_SHIFT), t - 11u, 0, 0, 0);
    return rpb_pte_pack(RPB_PTE_VALID, RT_SYS_PFN_BASE + (t - 19u), 0, 0, 0);
}

static void target_dxgk(uint32_t t, DXGK_PTE *p)
{
    memset(p, 0, sizeof *p);
    p->Flags = target_pte(t) & RPB_PTE_LOW_FLAGS_MASK;
    p->PageAddress = rpb_pte_page(target_pte(t));
}

static void put64(pbsim_machine *m, uint32_t seg, uint64_t off, uint64_t v)
{
    memcpy(pbsim_host_ptr(m, rpb_loc_make((uint16_t)seg, off), 8), &v, 8);
}

static void setup_tables(rt_world *w, pbsim_machine *m)
{
    uint32_t i;
    const uint64_t seg1 = RPB_PTE_VALID | (RT_SEG_TABLES << RPB_PTE_SEGMENT_SHIFT);
    memset(pbsim_host_ptr(m, rpb_loc_make(RT_SEG_TABLES, 0), 3u * 4096u), 0, 3u * 4096u);
    put64(m, RT_SEG_TABLES, 0, rpb_pte_pack(seg1, 1, 0, 0, 0)); /* root[0] -> leaf (seg1 page 1) */
    for (i = 0; i < RT_VA_DATA_PAGES; i++)
        put64(m, RT_SEG_TABLES, RT_LEAF_OFFSET + 8u * i, target_pte(w->va_target[i]));
    put64(m, RT_SEG_TABLES, RT_LEAF_OFFSET + 8u * (RT_VA_ROOT >> 12), rpb_pte_pack(seg1, 0, 0, 0, 0));
    put64(m, RT_SEG_TABLES, RT_LEAF_OFFSET + 8u * (RT_VA_LEAF >> 12), rpb_pte_pack(seg1, 1, 0, 0, 0));
    put64(m, RT_SEG_TABLES, RT_LEAF_OFFSET + 8u * (RT_VA_LEAF64 >> 12), rpb_pte_pack(seg1, 2, 0, 0, 0));
    put64(m, RT_SEG_TABLES, RT_LEAF_OFFSET + 8u * (RT_VA_SCRATCH_SRC >> 12), rpb_pte_pack(seg1, 3, 0, 0, 0));
    put64(m, RT_SEG_TABLES, RT_LEAF_OFFSET + 8u * (RT_VA_SCRATCH_DST >> 12), rpb_pte_pack(seg1, 4, 0, 0, 0));
    for (i = 0; i < RT_APERTURE_PAGES; i++) {
        uint64_t e = RPB_PTE_VALID | (w->aperture_pfn[i] << 12);
        memcpy(pbsim_host_ptr(m, rpb_loc_make(RPB_SPACE_APERTURE_TABLE + RT_SEG_APERTURE, 8u * i), 8), &e, 8);
    }
}

static void layout_of(pbsim_layout *l)
{
    memset(l, 0, sizeof *l);
    l->segment_count = 3;
    l->segments[RT_SEG_TABLES].size = RT_SEG1_BYTES;
    l->segments[RT_SEG_DATA].size = RT_SEG2_BYTES;
    l->segments[RT_SEG_APERTURE].size = RT_APERTURE_PAGES * 4096u;
    l->segments[RT_SEG_APERTURE].aperture = 1;
    l->sys_pfn_base = RT_SYS_PFN_BASE;
    l->sys_pages = RT_SYS_PAGES;
    l->root_space = RT_SEG_TABLES;
    l->root_addr = 0;
    l->dual_pte = 1;
}

/* RT_ENGINE picks the engine variant a whole test binary runs on: "wide" (AVX2
 * on every UPDATE_PAGE_TABLE call, through the host state-save hooks, where the
 * CPU has it), "classic" (no split PTE description: the entries are checked,
 * then encoded), "stream" (every paging buffer over the stream threshold: the
 * payloads written with non-temporal stores, x64), "stream-wide" (both) or
 * unset (fused check + encode on the baseline vectors, through the cache). */
static void engine_variant(rt_world *w)
{
    const char *v = getenv("RT_ENGINE");
    if (!v || !*v)
        return;
    if (strcmp(v, "wide") == 0 || strcmp(v, "stream-wide") == 0) {
        w->rctx.vector_save = pbsim_vector_save;
        w->rctx.vector_restore = pbsim_vector_restore;
        w->cfg.wide_min_entries = 1;
    } else if (strcmp(v, "classic") == 0) {
        memset(&w->cfg.backend.pte_split, 0, sizeof w->cfg.backend.pte_split);
    } else if (strcmp(v, "stream") != 0) {
        fprintf(stderr, "RT_ENGINE=%s: expected wide, classic, stream or stream-wide\n", v);
        exit(1);
    }
    if (strncmp(v, "stream", 6) == 0)
        w->cfg.stream_min_bytes = 1;
}

static void config_of(rt_world *w, uint32_t buffer_size)
{
    uint32_t s;
    memset(&w->cfg, 0, sizeof w->cfg);
    memset(&w->rctx, 0, sizeof w->rctx);
    w->rctx.cpu_write64 = cpu_write_thunk;
    w->rctx.cpu_va_to_loc = hook_cpu_alias;
    w->rctx.user = w;
    rpb_backend_init(&w->cfg.backend, &w->rctx);
    w->cfg.paging_buffer_size = buffer_size;
    w->cfg.segment_count = 3;
    for (s = 1; s <= 3; s++) {
        w->cfg.segments[s].base = RT_SEG_BASE(s);
        w->cfg.segments[s].size = w->sim.layout.segments[s].size;
        w->cfg.segments[s].aperture = (uint32_t)w->sim.layout.segments[s].aperture;
        w->oenv.segment_base[s] = RT_SEG_BASE(s);
    }
    w->cfg.adapter_caps = PB_ADAPTER_ZERO_IN_PTE | PB_ADAPTER_LARGE_PAGE | PB_ADAPTER_DUAL_PTE;
    w->cfg.level_count = 2;
    w->cfg.index_bits[0] = 9;
    w->cfg.index_bits[1] = 9;
    w->cfg.report = on_rule;
    w->cfg.report_ctx = w;
    engine_variant(w);
}

static void refill_canary(rt_world *w)
{
    memset(w->buf, RT_CANARY, RT_MAX_BUFFER + RT_CANARY_TAIL);
}

int rt_world_init(rt_world *w, uint64_t seed, uint32_t buffer_size)
{
    pbsim_layout l;
    memset(w, 0, offsetof(rt_world, arena));
    layout_of(&l);
    if (pbsim_init(&w->sim, &l) || pbsim_init(&w->oracle, &l) || pbsim_init(&w->before, &l))
        return -1;
    w->buf_raw = aligned_alloc(4096, (RT_MAX_BUFFER + RT_CANARY_TAIL + 4095u) & ~4095u);
    if (!w->buf_raw)
        return -1;
    w->buf = w->buf_raw;
    return rt_world_reset(w, seed, buffer_size);
}

int rt_world_reset(rt_world *w, uint64_t seed, uint32_t buffer_size)
{
    rt_rng r = {seed ^ 0x5EEDull, NULL, 0, 0};
    uint32_t i;
    memset(w->va_target, 0, sizeof w->va_target);
    memset(w->target_used, 0, sizeof w->target_used);
    w->pending_flush = 0;
    w->used = 0;
    w->failure[0] = w->last_rule[0] = 0;
    pbsim_randomize(&w->sim, seed);
    /* Injective initial VA map: a shuffled prefix of the targets. */
    {
        uint16_t perm[RT_TARGETS];
        for (i = 0; i < RT_TARGETS; i++)
            perm[i] = (uint16_t)i;
        for (i = RT_TARGETS - 1u; i > 0; i--) {
            uint32_t j = (uint32_t)rt_below(&r, i + 1u);
            uint16_t t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        for (i = 0; i < RT_VA_DATA_PAGES; i++) {
            w->va_target[i] = perm[i];
            w->target_used[perm[i]] = 1;
        }
    }
    for (i = 0; i < RT_APERTURE_PAGES; i++) /* apertures only ever map system pages 24-31 */
        w->aperture_pfn[i] = RT_SYS_PFN_BASE + 24u + rt_below(&r, 8);
    setup_tables(w, &w->sim);
    pbsim_copy_memory(&w->oracle, &w->sim);
    w->oenv.m = &w->oracle;
    w->oenv.cpu_owner = &w->sim;
    w->oenv.dual_pte_offset = RPB_DUAL_PTE_OFFSET;
    w->use_cpu_alias = 1;
    refill_canary(w);
    config_of(w, buffer_size);
    w->buf_size = buffer_size;
    return pb_engine_init(&w->engine, &w->cfg) == STATUS_SUCCESS ? 0 : -1;
}

void rt_world_free(rt_world *w)
{
    pbsim_free(&w->sim);
    pbsim_free(&w->oracle);
    pbsim_free(&w->before);
    free(w->buf_raw);
    w->buf_raw = NULL;
}

void *rt_alloc(rt_world *w, size_t bytes)
{
    void *p;
    bytes = (bytes + 15u) & ~(size_t)15u;
    if (w->arena_used + bytes > RT_ARENA_BYTES)
        return NULL;
    p = w->arena + w->arena_used;
    w->arena_used += bytes;
    memset(p, 0, bytes);
    return p;
}

MDL *rt_mdl(rt_world *w, const PFN_NUMBER *pfns, uint32_t n)
{
    MDL *m = rt_alloc(w, sizeof(MDL) + sizeof(PFN_NUMBER) * n);
    if (!m)
        return NULL;
    m->ByteCount = n * 4096u;
    m->ByteOffset = 0;
    memcpy(MmGetMdlPfnArray(m), pfns, sizeof(PFN_NUMBER) * n);
    return m;
}

/* ---- the VidMm loop ---- */

static int submit(rt_world *w)
{
    char why[200];
    if (w->used == 0)
        return 0;
    if (pbsim_execute(&w->sim, w->buf, w->used))
        return failf(w, "simulator: %s", w->sim.error);
    w->bytes_emitted += w->used;
    w->used = 0;
    refill_canary(w);
    if (!pbsim_canaries_ok(&w->sim, why, sizeof why))
        return failf(w, "%s", why);
    return 0;
}

int rt_set_buffer_size(rt_world *w, uint32_t size)
{
    if (submit(w))
        return -1;
    w->buf_size = size;
    w->cfg.paging_buffer_size = size;
    return pb_engine_init(&w->engine, &w->cfg) == STATUS_SUCCESS ? 0 : failf(w, "engine rejected buffer %u", size);
}

/* Offset of the first byte in [from, to) that differs from before the call, or to. */
static uint32_t changed_in(const rt_world *w, uint32_t from, uint32_t to)
{
    uint32_t i;
    for (i = from; i < to; i++)
        if (w->buf[i] != w->buf_before[i])
            return i;
    return to;
}

/* Everything except the in/out fields must survive a call unchanged. */
static int args_same(const DXGKARG_BUILDPAGINGBUFFER *x, const DXGKARG_BUILDPAGINGBUFFER *y)
{
    DXGKARG_BUILDPAGINGBUFFER a = *x, b = *y;
    a.pDmaBuffer = b.pDmaBuffer = NULL;
    a.MultipassOffset = b.MultipassOffset = 0;
    a.DmaSize = b.DmaSize = 0;
    return memcmp(&a, &b, sizeof a) == 0;
}

static void set_idle(DXGKARG_BUILDPAGINGBUFFER *a)
{
    switch ((uint32_t)a->Operation) {
    case 0:
        a->Transfer.Flags.Value |= 4u;
        break;
    case 2:
        a->DiscardContent.Flags.Value |= 1u;
        break;
    case 7:
        a->SpecialLockTransfer.Flags.Value |= 4u;
        break;
    default:
        break;
    }
}

static int is_cpu_now(const DXGKARG_BUILDPAGINGBUFFER *a)
{
    return (uint32_t)a->Operation == 11u && a->pDmaBuffer == NULL;
}

static int one_call(rt_world *w, DXGKARG_BUILDPAGINGBUFFER *a, NTSTATUS *st, uint32_t *advance)
{
    DXGKARG_BUILDPAGINGBUFFER before;
    const int cpu_now = is_cpu_now(a);
    if (!cpu_now) {
        a->pDmaBuffer = w->buf + w->used;
        a->DmaSize = w->buf_size - w->used;
    }
    before = *a;
    memcpy(w->buf_before, w->buf, sizeof w->buf_before);
    *st = w->call ? w->call(w, a) : pb_build_paging_buffer(&w->engine, a);
    w->calls++;
    if (!args_same(&before, a))
        return failf(w, "call modified arguments other than pDmaBuffer/MultipassOffset");
    if (changed_in(w, 0, w->used) < w->used)
        return failf(w, "byte %u, written by an earlier call, changed", changed_in(w, 0, w->used));
    if (cpu_now) {
        *advance = 0;
        if (changed_in(w, w->used, RT_MAX_BUFFER + RT_CANARY_TAIL) < RT_MAX_BUFFER + RT_CANARY_TAIL)
            return failf(w, "CPU-path call wrote into the DMA buffer");
        return a->pDmaBuffer == NULL ? 0 : failf(w, "CPU-path call set pDmaBuffer");
    }
    if (changed_in(w, w->buf_size, RT_MAX_BUFFER + RT_CANARY_TAIL) < RT_MAX_BUFFER + RT_CANARY_TAIL)
        return failf(w, "byte %u, past DmaSize, changed", changed_in(w, w->buf_size, RT_MAX_BUFFER + RT_CANARY_TAIL));
    if ((uint8_t *)a->pDmaBuffer < w->buf + w->used || (uint8_t *)a->pDmaBuffer > w->buf + w->buf_size)
        return failf(w, "pDmaBuffer moved outside [start, start + DmaSize]");
    *advance = (uint32_t)((uint8_t *)a->pDmaBuffer - (w->buf + w->used));
    /* Bytes in [pDmaBuffer, start + DmaSize) are unused tail: scratch allowed. */
    if (*advance % w->cfg.backend.submit_align)
        return failf(w, "call output %u is not a multiple of submit_align", *advance);
    return 0;
}

/* The refusal contract: cursor and MultipassOffset unchanged, a rule reported,
 * nothing outside the DMA buffer's unused tail changed (one_call checks the
 * buffer itself; here: simulated memory, which CPU-path writes reach, and the
 * argument arrays). */
static int expect_refused(rt_world *w, DXGKARG_BUILDPAGINGBUFFER *a)
{
    NTSTATUS st;
    uint32_t adv, rules = w->rules_invalid;
    uint32_t mpo = a->MultipassOffset;
    char why[200];
    pbsim_copy_memory(&w->before, &w->sim);
    memcpy(w->arena_before, w->arena, w->arena_used);
    if (one_call(w, a, &st, &adv))
        return -1;
    if (st != PB_STATUS_INVALID_ARGS)
        return failf(w, "invalid arguments (op %u) accepted with status 0x%08x", (unsigned)a->Operation, (unsigned)st);
    if (adv || a->MultipassOffset != mpo)
        return failf(w, "refused call advanced the cursor by %u bytes or moved MultipassOffset", adv);
    if (w->rules_invalid == rules)
        return failf(w, "refused call reported no rule");
    if (!pbsim_equal(&w->sim, &w->before, why, sizeof why))
        return failf(w, "refused call changed memory outside the DMA buffer: %s", why);
    if (memcmp(w->arena_before, w->arena, w->arena_used))
        return failf(w, "refused call changed its argument arrays");
    return 0;
}

static int apply_oracle(rt_world *w, const DXGKARG_BUILDPAGINGBUFFER *a)
{
    char err[200];
    if (pboracle_apply(&w->oenv, a, err, sizeof err))
        return failf(w, "%s", err);
    return 0;
}

int rt_op(rt_world *w, DXGKARG_BUILDPAGINGBUFFER *a, int expect_invalid)
{
    DXGKARG_BUILDPAGINGBUFFER orig = *a;
    uint32_t last_mpo = 0;
    int busy_seen = 0;
    a->MultipassOffset = 0;
    if (expect_invalid)
        return expect_refused(w, a);
    /* CPU-applied page-table writes happen at call time: queued GPU work goes first. */
    if ((uint32_t)a->Operation == 11u && (uint32_t)a->UpdatePageTable.UpdateMode == 0u && submit(w))
        return -1;
    for (;;) {
        NTSTATUS st;
        uint32_t adv;
        const int fresh = w->used == 0;
        if (one_call(w, a, &st, &adv))
            return -1;
        if (st == STATUS_GRAPHICS_ALLOCATION_BUSY) {
            if (adv || busy_seen)
                return failf(w, "ALLOCATION_BUSY wrote bytes or repeated with AllocationIsIdle set");
            busy_seen = 1;
            w->busy++;
            set_idle(a); /* VidMm waits for idle and retries with the flag */
            set_idle(&orig);
            continue;
        }
        if (st != STATUS_SUCCESS && st != STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER)
            return failf(w, "op %u: status 0x%08x (rule %s)", (unsigned)a->Operation, (unsigned)st, w->last_rule);
        if (pbsim_vector_open())
            return failf(w, "the engine saved the vector state and did not restore it before returning");
        if (a->MultipassOffset < last_mpo)
            return failf(w, "MultipassOffset went back from %u to %u", last_mpo, a->MultipassOffset);
        w->used += adv;
        if (st == STATUS_SUCCESS)
            break;
        w->insufficient++;
        if (adv == 0 && a->MultipassOffset == last_mpo && fresh)
            return failf(w, "INSUFFICIENT without progress on a fresh buffer of %u bytes", w->buf_size);
        last_mpo = a->MultipassOffset;
        if (submit(w))
            return -1;
    }
    return apply_oracle(w, &orig);
}

int rt_check(rt_world *w)
{
    char why[200];
    if (submit(w))
        return -1;
    if (!pbsim_equal(&w->sim, &w->oracle, why, sizeof why))
        return failf(w, "simulator vs oracle: %s", why);
    return 0;
}

/* ---- generator ---- */

static uint64_t rt_min(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

typedef struct span_pick {
    uint32_t seg;
    uint64_t offset; /* segment-relative */
    uint64_t room;
} span_pick;

/* A writable byte range of a memory segment (never the page tables in seg1 pages 0-4). */
static span_pick pick_memory(rt_rng *r)
{
    span_pick p;
    if (rt_below(r, 2)) {
        p.seg = RT_SEG_DATA;
        p.offset = rt_below(r, RT_SEG2_BYTES - 1u);
        p.room = RT_SEG2_BYTES - p.offset;
    } else {
        p.seg = RT_SEG_TABLES;
        p.offset = 5u * 4096u + rt_below(r, RT_SEG1_BYTES - 5u * 4096u - 1u);
        p.room = RT_SEG1_BYTES - p.offset;
    }
    return p;
}

static uint64_t random_size(rt_rng *r, uint64_t room)
{
    uint64_t max = room < 6u * 4096u ? room : 6u * 4096u;
    switch (rt_below(r, 4)) {
    case 0:
        return 1u + rt_below(r, max < 64u ? max : 64u);
    case 1:
        return max >= 4096u ? 4096u * (1u + rt_below(r, max / 4096u)) : max;
    default:
        return 1u + rt_below(r, max);
    }
}

/* MDL over system pages 0-23 with a random mix of runs, duplicates and gaps. */
static MDL *random_mdl(rt_world *w, rt_rng *r, uint32_t pages)
{
    PFN_NUMBER pfn[64];
    uint32_t i = 0;
    while (i < pages) {
        uint32_t run = 1u + (uint32_t)rt_below(r, 6);
        PFN_NUMBER start = RT_SYS_PFN_BASE + rt_below(r, 24);
        uint32_t k;
        for (k = 0; k < run && i < pages && start + k < RT_SYS_PFN_BASE + 24u; k++)
            pfn[i++] = start + k;
    }
    return rt_mdl(w, pfn, pages);
}

static void gen_transfer(rt_world *w, rt_rng *r, DXGKARG_BUILDPAGINGBUFFER *a, int *invalid)
{
    span_pick seg = pick_memory(r);
    const int kind = (int)rt_below(r, 6); /* 0-1 seg->mdl, 2-3 mdl->seg, 4 seg->seg, 5 aperture side */
    uint64_t size = random_size(r, seg.room);
    uint32_t mdl_off = (uint32_t)rt_below(r, 4), pages = (uint32_t)((size + 4095u) / 4096u);
    a->Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)0;
    a->Transfer.TransferSize = size;
    a->Transfer.TransferOffset = (UINT)rt_below(r, 2) * (UINT)rt_below(r, 300);
    if (a->Transfer.TransferOffset > seg.offset)
        a->Transfer.TransferOffset = 0;
    a->Transfer.Flags.Value = 0x18u | (rt_below(r, 2) ? 4u : 0u);
    if (rt_below(r, 3) == 0) {
        a->Transfer.hAllocation = (HANDLE)(uintptr_t)(0x1000u + rt_below(r, 100));
        a->Transfer.Flags.Value |= 1u + (UINT)rt_below(r, 2);
    }
    a->Transfer.MdlOffset = mdl_off;
    if (kind == 4) {
        span_pick other = pick_memory(r);
        size = rt_min(size, other.room);
        a->Transfer.TransferSize = size;
        a->Transfer.TransferOffset = 0;
        a->Transfer.Source.SegmentId = seg.seg;
        a->Transfer.Source.SegmentAddress.QuadPart = (LONGLONG)(RT_SEG_BASE(seg.seg) + seg.offset);
        a->Transfer.Destination.SegmentId = other.seg;
        a->Transfer.Destination.SegmentAddress.QuadPart = (LONGLONG)(RT_SEG_BASE(other.seg) + other.offset);
        *invalid = seg.seg == other.seg && seg.offset < other.offset + size && other.offset < seg.offset + size;
        return;
    }
    if (kind == 5) { /* through the aperture: its pages map system pages 24-31 only */
        uint64_t off = rt_below(r, RT_APERTURE_PAGES * 4096u - 1u);
        size = rt_min(size, RT_APERTURE_PAGES * 4096u - off);
        pages = (uint32_t)((size + 4095u) / 4096u);
        a->Transfer.TransferSize = size;
        a->Transfer.TransferOffset = 0;
        a->Transfer.Source.SegmentId = RT_SEG_APERTURE;
        a->Transfer.Source.SegmentAddress.QuadPart = (LONGLONG)(RT_SEG_BASE(RT_SEG_APERTURE) + off);
        a->Transfer.Destination.SegmentId = 0;
        a->Transfer.Destination.pMdl = random_mdl(w, r, pages + mdl_off);
        return;
    }
    if (kind < 2) {
        a->Transfer.Source.SegmentId = seg.seg;
        a->Transfer.Source.SegmentAddress.QuadPart =
            (LONGLONG)(RT_SEG_BASE(seg.seg) + seg.offset - a->Transfer.TransferOffset);
        a->Transfer.Destination.pMdl = random_mdl(w, r, pages + mdl_off);
    } else {
        a->Transfer.Destination.SegmentId = seg.seg;
        a->Transfer.Destination.SegmentAddress.QuadPart =
            (LONGLONG)(RT_SEG_BASE(seg.seg) + seg.offset - a->Transfer.TransferOffset);
        a->Transfer.Source.pMdl = random_mdl(w, r, pages + mdl_off);
    }
}

static void gen_fill(rt_rng *r, DXGKARG_BUILDPAGINGBUFFER *a)
{
    span_pick seg = pick_memory(r);
    a->Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)1;
    a->Fill.FillSize = random_size(r, seg.room);
    a->Fill.FillPattern = (UINT)rt_next(r);
    a->Fill.Destination.SegmentId = seg.seg;
    a->Fill.Destination.SegmentAddress.QuadPart = (LONGLONG)(RT_SEG_BASE(seg.seg) + seg.offset);
}

/* A run of mapped data VA pages of at least `pages` pages; 0 if none found. */
static int pick_mapped(rt_world *w, rt_rng *r, uint32_t pages, uint32_t *first)
{
    int tries;
    for (tries = 0; tries < 8; tries++) {
        uint32_t s = (uint32_t)rt_below(r, RT_VA_DATA_PAGES - pages + 1u), k;
        for (k = 0; k < pages && w->va_target[s + k] != 0xFFFFu; k++)
            ;
        if (k == pages) {
            *first = s;
            return 1;
        }
    }
    return 0;
}

static int gen_virtual(rt_world *w, rt_rng *r, DXGKARG_BUILDPAGINGBUFFER *a)
{
    uint32_t pages = 1u + (uint32_t)rt_below(r, 3), s, d;
    uint64_t size = 1u + rt_below(r, pages * 4096u);
    uint64_t so = rt_below(r, pages * 4096u - size + 1u), doff = rt_below(r, pages * 4096u - size + 1u);
    if (!pick_mapped(w, r, pages, &s))
        return 0;
    if (rt_below(r, 2)) {
        a->Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)9;
        a->FillVirtual.FillSizeInBytes = size;
        a->FillVirtual.FillPattern = (UINT)rt_next(r);
        a->FillVirtual.DestinationVirtualAddress = (uint64_t)s * 4096u + so;
        a->FillVirtual.AllocationOffsetInBytes = rt_below(r, 1u << 20);
        return 1;
    }
    if (!pick_mapped(w, r, pages, &d) || (d < s + pages && s < d + pages))
        return 0; /* disjoint pages: the VA map is injective, so bytes never alias */
    a->Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)8;
    a->TransferVirtual.TransferSizeInBytes = size;
    a->TransferVirtual.SourceVirtualAddress = (uint64_t)s * 4096u + so;
    a->TransferVirtual.DestinationVirtualAddress = (uint64_t)d * 4096u + doff;
    a->TransferVirtual.AllocationOffsetInBytes = rt_below(r, 1u << 20);
    a->TransferVirtual.TransferDirection = (DXGK_MEMORY_TRANSFER_DIRECTION)rt_below(r, 3);
    return 1;
}

/* Rewrites leaf entries [s, s+n) keeping the VA map injective (or unmapping with Repeat). */
static void gen_update_page_table(rt_world *w, rt_rng *r, DXGKARG_BUILDPAGINGBUFFER *a, uint32_t *s_out,
                                  uint32_t *n_out)
{
    uint32_t s = (uint32_t)rt_below(r, RT_VA_DATA_PAGES), n = 1u + (uint32_t)rt_below(r, RT_VA_DATA_PAGES - s), i;
    const int repeat = rt_below(r, 6) == 0;
    DXGK_PTE *e = rt_alloc(w, sizeof(DXGK_PTE) * (repeat ? 1u : n));
    const uint32_t mode = (uint32_t)rt_below(r, 4);
    for (i = 0; i < n; i++) /* free the old targets first */
        if (w->va_target[s + i] != 0xFFFFu)
            w->target_used[w->va_target[s + i]] = 0;
    if (repeat) {
        memset(e, 0, sizeof *e); /* Valid = 0: the range is unmapped */
        for (i = 0; i < n; i++)
            w->va_target[s + i] = 0xFFFFu;
    } else {
        uint32_t next = (uint32_t)rt_below(r, RT_TARGETS);
        const int runs = rt_below(r, 2);
        for (i = 0; i < n; i++) {
            uint32_t t = runs ? next : (uint32_t)rt_below(r, RT_TARGETS);
            while (w->target_used[t])
                t = (t + 1u) % RT_TARGETS;
            w->target_used[t] = 1;
            w->va_target[s + i] = (uint16_t)t;
            target_dxgk(t, &e[i]);
            next = (t + 1u) % RT_TARGETS;
        }
    }
    a->Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)11;
    a->UpdatePageTable.PageTableLevel = 0;
    a->UpdatePageTable.pPageTableEntries = e;
    a->UpdatePageTable.StartIndex = s;
    a->UpdatePageTable.NumPageTableEntries = n;
    a->UpdatePageTable.Flags.Value = repeat ? 1u : 0u;
    a->UpdatePageTable.hAllocation = (HANDLE)(uintptr_t)rt_below(r, 3);
    a->UpdatePageTable.AllocationOffsetInBytes = rt_below(r, 64) * 4096u;
    if (mode == 0) {
        a->UpdatePageTable.UpdateMode = (DXGK_PAGETABLEUPDATEMODE)2;
        a->UpdatePageTable.PageTableAddress.GpuPhysical.SegmentId = RT_SEG_TABLES;
        a->UpdatePageTable.PageTableAddress.GpuPhysical.SegmentOffset = RT_LEAF_OFFSET;
    } else if (mode == 1) {
        a->UpdatePageTable.UpdateMode = (DXGK_PAGETABLEUPDATEMODE)1;
        a->UpdatePageTable.PageTableAddress.GpuVirtual = RT_VA_LEAF;
    } else {
        a->UpdatePageTable.UpdateMode = (DXGK_PAGETABLEUPDATEMODE)0;
        a->UpdatePageTable.PageTableAddress.CpuVirtual = rt_seg_host(w, &w->sim, RT_SEG_TABLES, RT_LEAF_OFFSET);
        w->use_cpu_alias = mode == 2;
        if (rt_below(r, 2))
            a->pDmaBuffer = NULL; /* "apply now on the CPU" */
        else
            a->pDmaBuffer = w->buf; /* any non-NULL value: rt_op places the buffer */
    }
    *s_out = s;
    *n_out = n;
}

static void gen_flush(rt_rng *r, DXGKARG_BUILDPAGINGBUFFER *a, uint32_t s, uint32_t n)
{
    const uint32_t style = (uint32_t)rt_below(r, 3);
    a->Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)12;
    a->FlushTlb.RootPageTableAddress.SegmentId = RT_SEG_TABLES;
    a->FlushTlb.RootPageTableAddress.SegmentOffset = 0;
    if (style == 0)
        return; /* 0, 0: everything */
    a->FlushTlb.StartVirtualAddress = (uint64_t)s * 4096u;
    a->FlushTlb.EndVirtualAddress = (uint64_t)(s + n) * 4096u - (style == 1 ? 1u : 0u);
}

static void gen_map_aperture(rt_world *w, rt_rng *r, DXGKARG_BUILDPAGINGBUFFER *a)
{
    uint32_t off = (uint32_t)rt_below(r, RT_APERTURE_PAGES), n = 1u + (uint32_t)rt_below(r, RT_APERTURE_PAGES - off);
    uint32_t i, kind = (uint32_t)rt_below(r, 4);
    const uint32_t adl_off = (uint32_t)rt_below(r, 3);
    if (kind == 0) {
        a->Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)6;
        a->UnmapApertureSegment.SegmentId = RT_SEG_APERTURE;
        a->UnmapApertureSegment.OffsetInPages = off;
        a->UnmapApertureSegment.NumberOfPages = n;
        a->UnmapApertureSegment.DummyPage.QuadPart = (LONGLONG)((RT_SYS_PFN_BASE + 24u + rt_below(r, 8)) * 4096u);
        return;
    }
    if (kind == 1) {
        PFN_NUMBER pfn[RT_APERTURE_PAGES + 4];
        for (i = 0; i < n + adl_off; i++)
            pfn[i] = RT_SYS_PFN_BASE + 24u + (rt_below(r, 2) ? i % 8u : rt_below(r, 8));
        a->Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)5;
        a->MapApertureSegment.SegmentId = RT_SEG_APERTURE;
        a->MapApertureSegment.OffsetInPages = off;
        a->MapApertureSegment.NumberOfPages = n;
        a->MapApertureSegment.pMdl = rt_mdl(w, pfn, n + adl_off);
        a->MapApertureSegment.MdlOffset = adl_off;
        a->MapApertureSegment.Flags.Value = (UINT)rt_below(r, 2);
        return;
    }
#if PB_HAVE_WDDM2_9_OPS
    if (kind == 2 && n + adl_off > 8u) /* a contiguous ADL stays inside system pages 24-31 */
        n = 8u - adl_off;
    a->Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)17;
    a->MapApertureSegment2.SegmentId = RT_SEG_APERTURE;
    a->MapApertureSegment2.OffsetInPages = off;
    a->MapApertureSegment2.NumberOfPages = n;
    a->MapApertureSegment2.AdlOffset = adl_off;
    a->MapApertureSegment2.Flags.Value = (UINT)rt_below(r, 2);
    a->MapApertureSegment2.Adl.PageCount = n + adl_off;
    if (kind == 2) {
        a->MapApertureSegment2.Adl.Flags.Contiguous = 1;
        a->MapApertureSegment2.Adl.BasePageNumber = RT_SYS_PFN_BASE + 24u + rt_below(r, 8u - n - adl_off + 1u);
    } else {
        DXGK_PAGE_NUMBER *pages = rt_alloc(w, sizeof(DXGK_PAGE_NUMBER) * (n + adl_off));
        for (i = 0; i < n + adl_off; i++)
            pages[i] = RT_SYS_PFN_BASE + 24u + rt_below(r, 8);
        a->MapApertureSegment2.Adl.Pages = pages;
    }
#endif
}

static void gen_copy_ptes(rt_world *w, rt_rng *r, DXGKARG_BUILDPAGINGBUFFER *a)
{
    const uint32_t count = 1u + (uint32_t)rt_below(r, 3);
    DXGK_BUILDPAGINGBUFFER_COPY_RANGE *g = rt_alloc(w, sizeof *g * count);
    uint32_t i;
    for (i = 0; i < count; i++) {
        g[i].NumPageTableEntries = 1u + (UINT)rt_below(r, 300);
        g[i].SrcPageTableAddress = RT_VA_SCRATCH_SRC;
        g[i].DstPageTableAddress = RT_VA_SCRATCH_DST;
        g[i].SrcStartPteIndex = (UINT)rt_below(r, 512u - g[i].NumPageTableEntries + 1u);
        g[i].DstStartPteIndex = (UINT)rt_below(r, 512u - g[i].NumPageTableEntries + 1u);
    }
    a->Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)14;
    a->CopyPageTableEntries.NumRanges = count;
    a->CopyPageTableEntries.pRanges = g;
}

static void gen_physical(rt_rng *r, DXGKARG_BUILDPAGINGBUFFER *a)
{
    const int write = (int)rt_below(r, 2);
    const int sys = (int)rt_below(r, 2);
    uint64_t addr = sys ? (RT_SYS_PFN_BASE * 4096u + rt_below(r, RT_SYS_PAGES * 4096u))
                        : (RT_SEG_BASE(RT_SEG_DATA) + rt_below(r, RT_SEG2_BYTES));
    a->Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)(write ? 4 : 3);
    if (write) {
        a->WritePhysical.SegmentId = sys ? 0u : RT_SEG_DATA;
        a->WritePhysical.PhysicalAddress.QuadPart = (LONGLONG)addr;
    } else {
        a->ReadPhysical.SegmentId = sys ? 0u : RT_SEG_DATA;
        a->ReadPhysical.PhysicalAddress.QuadPart = (LONGLONG)addr;
    }
}

static void gen_record(rt_world *w, rt_rng *r, DXGKARG_BUILDPAGINGBUFFER *a)
{
    static const uint32_t ops[] = {2, 10, 13, 15, 18, 19, 20, 21, 22};
    uint32_t op = ops[rt_below(r, sizeof ops / sizeof ops[0])];
    a->Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)op;
    switch (op) {
    case 2:
        a->DiscardContent.hAllocation = (HANDLE)(uintptr_t)rt_next(r);
        a->DiscardContent.Flags.Value = (UINT)rt_below(r, 2);
        a->DiscardContent.SegmentId = RT_SEG_DATA;
        a->DiscardContent.SegmentAddress.QuadPart = (LONGLONG)(RT_SEG_BASE(2) + rt_below(r, 8) * 4096u);
        break;
    case 10:
        a->InitContextResource.hAllocation = (HANDLE)(uintptr_t)rt_next(r);
        a->InitContextResource.Destination.SegmentId = (UINT)rt_below(r, 3);
        if (a->InitContextResource.Destination.SegmentId)
            a->InitContextResource.Destination.SegmentAddress.QuadPart = (LONGLONG)rt_next(r);
        a->InitContextResource.Destination.GpuVirtualAddress = rt_next(r);
        break;
    case 13:
        a->UpdateContextAllocation.ContextAllocation = rt_next(r);
        a->UpdateContextAllocation.ContextAllocationSize = rt_next(r);
        a->UpdateContextAllocation.DriverPrivateDataSize = (UINT)rt_below(r, 64);
        break;
    case 15:
        a->NotifyResidency.hAllocation = (HANDLE)(uintptr_t)rt_next(r);
        a->NotifyResidency.PhysicalAddress.SegmentId = (UINT)rt_below(r, 3);
        a->NotifyResidency.PhysicalAddress.SegmentOffset = rt_next(r);
        a->NotifyResidency.Resident = (UINT)rt_below(r, 2);
        break;
#if PB_HAVE_WDDM2_9_OPS
    case 18: {
        UINT n = (UINT)rt_below(r, 5), i;
        DXGK_FENCE_RESIDENCY_INFO *f = rt_alloc(w, sizeof *f * (n ? n : 1u));
        for (i = 0; i < n; i++) {
            f[i].hGlobalNativeFence = (HANDLE)(uintptr_t)rt_next(r);
            f[i].CurrentValuePhysicalAddress.SegmentId = (UINT)rt_below(r, 3);
            f[i].CurrentValuePhysicalAddress.SegmentOffset = rt_next(r);
            f[i].MonitoredValuePhysicalAddress.SegmentId = (UINT)rt_below(r, 3);
            f[i].MonitoredValuePhysicalAddress.SegmentOffset = rt_next(r);
        }
        a->NotifyFenceResidency.NumFences = n;
        a->NotifyFenceResidency.pFences = f;
        break;
    }
#endif
#if PB_HAVE_WDDM3_2_OPS
    case 19:
        a->MmapMmu.hAllocation = (HANDLE)(uintptr_t)rt_next(r);
        a->MmapMmu.VirtualAddress = rt_next(r);
        a->MmapMmu.MmuId = (USHORT)rt_below(r, 4);
        a->MmapMmu.SegmentId = (USHORT)rt_below(r, 4);
        a->MmapMmu.AllocationOffsetInPages = (UINT)rt_below(r, 1000);
        a->MmapMmu.Adl.PageCount = (UINT)rt_below(r, 1000);
        a->MmapMmu.Adl.Flags.Contiguous = 1;
        break;
    case 20:
        a->UnmapMmu.hAllocation = (HANDLE)(uintptr_t)rt_next(r);
        a->UnmapMmu.VirtualAddress = rt_next(r);
        a->UnmapMmu.MmuId = (USHORT)rt_below(r, 4);
        a->UnmapMmu.AllocationOffset = (UINT)rt_below(r, 1000);
        a->UnmapMmu.NumberOfPages = (UINT)rt_below(r, 1000);
        break;
    case 21:
        a->NotifyResidency2.hAllocation = (HANDLE)(uintptr_t)rt_next(r);
        a->NotifyResidency2.AllocationOffsetInPages = (UINT)rt_below(r, 1000);
        a->NotifyResidency2.SizeInPages = (UINT)rt_below(r, 1000);
        a->NotifyResidency2.SegmentId = (USHORT)rt_below(r, 3);
        a->NotifyResidency2.Resident = (UINT)rt_below(r, 2);
        break;
    case 22:
        a->NotifyAllocation.hAllocation = (HANDLE)(uintptr_t)rt_next(r);
        a->NotifyAllocation.Flags.Value = 1u + (UINT)rt_below(r, 2);
        a->NotifyAllocation.OffsetInBytes = rt_below(r, 1u << 30);
        a->NotifyAllocation.SizeInBytes = rt_below(r, 1u << 30);
        a->NotifyAllocation.GpuVirtualAddressAtOffset = rt_next(r);
        break;
#endif
    default:
        a->Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)13; /* op not in this kit */
        break;
    }
    (void)w;
}

static void gen_fence(rt_world *w, rt_rng *r, DXGKARG_BUILDPAGINGBUFFER *a)
{
    uint32_t s;
    if (!pick_mapped(w, r, 1, &s)) {
        gen_record(w, r, a);
        return;
    }
    a->Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)16;
    a->SignalMonitoredFence.MonitoredFenceGpuVa = (uint64_t)s * 4096u + 8u * rt_below(r, 512);
    a->SignalMonitoredFence.MonitoredFenceValue = rt_next(r);
}

/* Arguments that break one documented rule. */
static void gen_invalid(rt_world *w, rt_rng *r, DXGKARG_BUILDPAGINGBUFFER *a)
{
    int dummy = 0;
    switch (rt_below(r, 8)) {
    case 0:
        gen_transfer(w, r, a, &dummy);
        a->Transfer.Flags.Value |= 3u; /* swizzle and unswizzle */
        break;
    case 1:
        gen_transfer(w, r, a, &dummy);
        a->Transfer.Flags.Value |= 0x100u;
        break;
    case 2:
        gen_fill(r, a);
        a->Fill.Destination.SegmentId = RT_SEG_APERTURE;
        break;
    case 3:
        a->Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)(40 + rt_below(r, 1000));
        break;
    case 4:
        gen_flush(r, a, 3, 2);
        a->FlushTlb.StartVirtualAddress = a->FlushTlb.EndVirtualAddress + 4096u;
        break;
    case 5:
        a->Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)6;
        a->UnmapApertureSegment.SegmentId = RT_SEG_APERTURE;
        a->UnmapApertureSegment.OffsetInPages = RT_APERTURE_PAGES - 1u;
        a->UnmapApertureSegment.NumberOfPages = 2u + rt_below(r, 100);
        break;
    case 6:
        gen_fill(r, a);
        a->Fill.FillSize = RT_SEG1_BYTES + 1u + rt_below(r, 100000);
        break;
    default: {
        DXGK_PTE *e = rt_alloc(w, sizeof *e);
        a->Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)11;
        a->UpdatePageTable.pPageTableEntries = e;
        a->UpdatePageTable.NumPageTableEntries = 1;
        a->UpdatePageTable.UpdateMode = (DXGK_PAGETABLEUPDATEMODE)2;
        a->UpdatePageTable.PageTableAddress.GpuPhysical.SegmentId = RT_SEG_TABLES;
        a->UpdatePageTable.PageTableAddress.GpuPhysical.SegmentOffset = RT_LEAF_OFFSET;
        e->Flags = 0x400u | 1u; /* LargePage on a leaf */
        break;
    }
    }
}

void rt_gen_op(rt_world *w, rt_rng *r, DXGKARG_BUILDPAGINGBUFFER *a, int *expect_invalid)
{
    uint32_t pick;
    memset(a, 0, sizeof *a);
    a->pDmaBuffer = w->buf;
    w->arena_used = 0;
    *expect_invalid = 0;
    w->use_cpu_alias = 1;
    if (w->pending_flush) { /* VidMm always follows a page-table update with a flush */
        w->pending_flush = 0;
        gen_flush(r, a, w->pending_s, w->pending_n);
        return;
    }
    pick = (uint32_t)rt_below(r, 100);
    if (pick < 25)
        gen_transfer(w, r, a, expect_invalid);
    else if (pick < 33)
        gen_fill(r, a);
    else if (pick < 45) {
        if (!gen_virtual(w, r, a))
            gen_fill(r, a);
    } else if (pick < 60) {
        gen_update_page_table(w, r, a, &w->pending_s, &w->pending_n);
        w->pending_flush = 1;
    } else if (pick < 70)
        gen_map_aperture(w, r, a);
    else if (pick < 75)
        gen_copy_ptes(w, r, a);
    else if (pick < 80)
        gen_physical(r, a);
    else if (pick < 84)
        gen_fence(w, r, a);
    else if (pick < 95)
        gen_record(w, r, a);
    else {
        gen_invalid(w, r, a);
        *expect_invalid = 1;
    }
}
