/* Table-writing operations: UPDATE_PAGE_TABLE (GPU and CPU paths, Repeat, dual
 * 64 KiB tables), MAP/UNMAP_APERTURE_SEGMENT, MAP_APERTURE_SEGMENT2 and FLUSH_TLB. */
#include "pb_internal.h"

/* ---- WRITE64 / PTEGEN emission with run detection ---- */

static pb_step emit_generator(pb_run *r, pb_loc dst, const pb_qword_source *src, uint32_t run)
{
    uint64_t v[2];
    src->encode(src, r->token, 2, v);
    if (!pb_emit_ptegen(r, pb_loc_make(dst.space, dst.addr + (uint64_t)r->token * 8u), v[0], v[1] - v[0], run))
        return PB_STEP_FULL;
    r->token += run;
    return PB_STEP_DONE;
}

/* Generic literal scan through run_length (sources without a faster one). */
static uint32_t literal_length(const pb_qword_source *src, uint32_t i, uint32_t max)
{
    uint32_t n = 1;
    while (n < max && src->run_length(src, i + n, PB_MIN_GENERATOR_RUN) < PB_MIN_GENERATOR_RUN)
        n++;
    return n;
}

static uint32_t no_runs_literal(const pb_qword_source *src, uint32_t i, uint32_t max)
{
    (void)src;
    (void)i;
    return max;
}

pb_step pb_emit_qwords(pb_run *r, pb_loc dst, uint32_t total, const pb_qword_source *src)
{
    const pb_backend *be = r->be;
    while (r->token < total) {
        const uint32_t left = total - r->token, cap = left < be->max_ptegen ? left : be->max_ptegen;
        uint32_t run = src->run_length(src, r->token, cap);
        uint32_t n, room;
        uint64_t *payload;
        pb_loc at = pb_loc_make(dst.space, dst.addr + (uint64_t)r->token * 8u);
        if (run == 0 || run > cap)
            return pb_stalled(r);
        if (run >= PB_MIN_GENERATOR_RUN) {
            if (emit_generator(r, dst, src, run) != PB_STEP_DONE)
                return PB_STEP_FULL;
            continue;
        }
        if (src->pte.stream) /* the streaming loops store only whole cache lines */
            pb_align_write64_payload(r, 64u, 1u);
        room = pb_write64_room(r);
        if (room == 0)
            return PB_STEP_FULL;
        if (room > left)
            room = left;
        if (src->literal_encode) { /* one pass: encode while looking for the next run */
            payload = be->ops->write64_begin(be->ctx, &r->cur, at, room);
            n = src->literal_encode(src, r->token, room, payload);
            if (n == 0 || n > room) /* nothing committed: the header is rewritten or padded over */
                return pb_stalled(r);
        } else {
            n = src->literal_length(src, r->token, room);
            if (n == 0 || n > room)
                return pb_stalled(r);
            payload = be->ops->write64_begin(be->ctx, &r->cur, at, n);
            src->encode(src, r->token, n, payload);
        }
        be->ops->write64_end(be->ctx, &r->cur, n);
        r->packets++;
        r->token += n;
    }
    return PB_STEP_DONE;
}

/* ---- sources ---- */

/* DXGK_PTE arrays: a run is equal flags with consecutive page addresses, which
 * the backend contract maps to an arithmetic progression of encoded values. */
static uint32_t pte_run_length(const pb_qword_source *s, uint32_t i, uint32_t max)
{
    const DXGK_PTE *p = (const DXGK_PTE *)s->data + i;
    uint32_t n = 1;
    while (n < max && p[n].Flags == p[0].Flags && p[n].PageAddress == p[0].PageAddress + n)
        n++;
    return n;
}

/* One pass, no calls: c counts consecutive continuations and stops the literal
 * where a run long enough for a generator begins. */
static uint32_t pte_literal_length(const pb_qword_source *s, uint32_t i, uint32_t max)
{
    const DXGK_PTE *p = (const DXGK_PTE *)s->data + i;
    uint64_t flags = p[0].Flags, next = p[0].PageAddress + 1u;
    uint32_t c = 0, j;
    for (j = 1; j < max; j++) {
        const uint64_t f = p[j].Flags, a = p[j].PageAddress;
        /* c + 1 on a continuation, 0 otherwise, without a branch */
        c = (c + 1u) & (0u - (uint32_t)((f == flags) & (a == next)));
        if (c == PB_MIN_GENERATOR_RUN - 1u)
            return j - c;
        flags = f;
        next = a + 1u;
    }
    return max;
}

/* Fused literal scan + encode over windows of PTE_WINDOW entries. A run that
 * starts in the window [n, end) and ends below max lies inside [n, stop), so
 * the summary pass's run filter over that range (the same filter the entry
 * check uses) clears most windows: they are encoded straight into the payload.
 * Only a window with a hit (a real run or a coincidence) takes the exact scan.
 * Same result as pte_literal_length followed by pte_encode, except that it
 * never returns 0. */
#define PTE_WINDOW 64u

static uint32_t pte_literal_encode(const pb_qword_source *s, uint32_t i, uint32_t max, uint64_t *out)
{
    const DXGK_PTE *p = (const DXGK_PTE *)s->data + i;
    const pb_backend *be = s->r->be;
    uint32_t n = 0;
    if (s->run_free) { /* the entry check found no run anywhere: one straight encode */
        be->ops->encode_ptes(be->ctx, p, max, &s->pte, out);
        return max;
    }
    for (;;) {
        const uint32_t end = max - n > PTE_WINDOW ? n + PTE_WINDOW : max;
        const uint32_t stop = max - end > PB_MIN_GENERATOR_RUN - 1u ? end + PB_MIN_GENERATOR_RUN - 1u : max;
        pb_pte_summary window;
        pb_pte_summarize_vec(p + n, stop - n, s->pte.wide, &window);
        if (window.run_candidate) {
            /* Exact: the first start in [max(n, 1), end) of a run ending below max. */
            const uint32_t lo = n ? n : 1u;
            uint32_t j, c = 0;
            for (j = lo + 1u; j < stop; j++) {
                c = (p[j].Flags == p[j - 1u].Flags && p[j].PageAddress == p[j - 1u].PageAddress + 1u) ? c + 1u : 0u;
                if (c == PB_MIN_GENERATOR_RUN - 1u) {
                    if (j - c > n)
                        be->ops->encode_ptes(be->ctx, p + n, j - c - n, &s->pte, out + n);
                    return j - c;
                }
            }
        }
        be->ops->encode_ptes(be->ctx, p + n, end - n, &s->pte, out + n);
        n = end;
        if (n == max)
            return max;
    }
}

static void pte_encode(const pb_qword_source *s, uint32_t i, uint32_t n, uint64_t *out)
{
    s->r->be->ops->encode_ptes(s->r->be->ctx, (const DXGK_PTE *)s->data + i, n, &s->pte, out);
}

/* Repeat: one entry replicated, so every range is a single run with step 0. */
static uint32_t repeat_run_length(const pb_qword_source *s, uint32_t i, uint32_t max)
{
    (void)s;
    (void)i;
    return max;
}

static void repeat_encode(const pb_qword_source *s, uint32_t i, uint32_t n, uint64_t *out)
{
    uint64_t v;
    uint32_t k;
    (void)i;
    s->r->be->ops->encode_ptes(s->r->be->ctx, (const DXGK_PTE *)s->data, 1, &s->pte, &v);
    for (k = 0; k < n; k++)
        out[k] = v;
}

/* Aperture entries from a PFN array (MDL). */
static uint32_t pfn_run_length(const pb_qword_source *s, uint32_t i, uint32_t max)
{
    return (uint32_t)pb_pfn_run_length((const PFN_NUMBER *)s->data + i, max);
}

static void pfn_encode(const pb_qword_source *s, uint32_t i, uint32_t n, uint64_t *out)
{
    const PFN_NUMBER *pfn = (const PFN_NUMBER *)s->data + i;
    const pb_backend *be = s->r->be;
    uint32_t k;
    for (k = 0; k < n; k++)
        out[k] = be->ops->aperture_pte(be->ctx, s->segment_id, (uint64_t)pfn[k], s->cache_coherent);
}

#if PB_HAVE_WDDM2_9_OPS /* only MAP_APERTURE_SEGMENT2 has contiguous ADLs */
/* Aperture entries from a contiguous ADL: BasePageNumber + base + i. */
static void contiguous_encode(const pb_qword_source *s, uint32_t i, uint32_t n, uint64_t *out)
{
    const pb_backend *be = s->r->be;
    uint32_t k;
    for (k = 0; k < n; k++)
        out[k] = be->ops->aperture_pte(be->ctx, s->segment_id, s->base + i + k, s->cache_coherent);
}
#endif

/* ---- UPDATE_PAGE_TABLE ---- */

#define UPT_RULE(s) "DXGKARG_BUILDPAGINGBUFFER.UpdatePageTable" s
#define UPF_REPEAT 0x1u
#define UPF_USE64KB 0x8u
#define UPF_RESERVED 0xFFFFFFE0u /* bit 4 is NativeFence in recent kits */

#define PTE_LARGE 0x400ull
#define PTE_PT_SIZE 0x60000ull
#define PTE_RESERVED 0xFFFFFFFFFFF00000ull

enum { UPT_CPU_VIRTUAL = 0, UPT_GPU_VIRTUAL = 1, UPT_GPU_PHYSICAL = 2 };

/* The DXGK_PTE rule broken by entries whose flag words OR to any, with
 * zero_no_valid set when one of them has Zero without Valid; NULL if none. */
static const char *pte_rule(const pb_engine *e, const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u, uint64_t any,
                            uint64_t zero_no_valid)
{
    if (!(e->cfg.adapter_caps & PB_ADAPTER_ZERO_IN_PTE))
        zero_no_valid |= any & PB_DXGK_PTE_ZERO;
    if (any & PTE_RESERVED)
        return "DXGK_PTE.Reserved:zero";
    if (zero_no_valid)
        return "DXGK_PTE.Zero:requires-valid-and-ZeroInPteSupported";
    if ((any & PTE_LARGE) && (u->PageTableLevel == 0 || !(e->cfg.adapter_caps & PB_ADAPTER_LARGE_PAGE)))
        return "DXGK_PTE.LargePage:non-leaf-and-LargePageSupported";
    if ((any & PTE_PT_SIZE) && (u->PageTableLevel != 1 || (e->cfg.adapter_caps & PB_ADAPTER_DUAL_PTE)))
        return "DXGK_PTE.PageTablePageSize:level-1-outside-dual-pte";
    return NULL;
}

/* Zero without Valid among p[0..n), given their summary: read from the summary
 * when the flags are uniform, a second pass only when they differ and some
 * entry has Zero set. */
static uint64_t zero_no_valid(const DXGK_PTE *p, uint32_t n, const pb_pte_summary *sum)
{
    if (!(sum->any & PB_DXGK_PTE_ZERO))
        return 0;
    if (sum->uniform)
        return sum->any & ~(sum->any << 1) & PB_DXGK_PTE_ZERO;
    return pb_pte_zero_without_valid(p, n);
}

/* Checks the DXGK_PTE rules over p[0..n) before anything is written. One
 * summary pass (pb_pte_summarize_vec) gives the union of the flag words, from
 * which the rules are picked, whether they are all equal, and whether any
 * PTEGEN run can exist; *checked (may be NULL) receives it, so the emitter can
 * encode straight through. */
static pb_step check_ptes(pb_engine *e, const DXGKARG_BUILDPAGINGBUFFER *a, const DXGK_PTE *p, uint32_t n,
                          uint32_t wide, pb_pte_summary *checked)
{
    pb_pte_summary sum;
    const char *rule;
    pb_pte_summarize_vec(p, n, wide, &sum);
    sum.zero_no_valid = zero_no_valid(p, n, &sum);
    if (checked)
        *checked = sum;
    rule = pte_rule(e, &a->UpdatePageTable, sum.any, sum.zero_no_valid);
    if (!rule)
        return PB_STEP_DONE;
    pb_report(e, a, rule, PB_RULE_INVALID);
    return PB_STEP_INVALID;
}

/* The rules on the arguments other than the entries. */
static pb_step validate_upt_args(pb_engine *e, const DXGKARG_BUILDPAGINGBUFFER *a)
{
    const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &a->UpdatePageTable;
    const char *rule = NULL;
    uint32_t n = u->NumPageTableEntries;
    uint32_t bits = u->PageTableLevel < e->cfg.level_count ? e->cfg.index_bits[u->PageTableLevel] : 0;
    if (u->Reserved0 != 0)
        rule = UPT_RULE(".Reserved0:zero");
    else if (PB_FLAGS(u->Flags) & UPF_RESERVED)
        rule = UPT_RULE(".Flags:reserved-zero");
    else if ((uint32_t)u->UpdateMode > UPT_GPU_PHYSICAL)
        rule = UPT_RULE(".UpdateMode:known-value");
    else if (e->cfg.level_count && u->PageTableLevel >= e->cfg.level_count)
        rule = UPT_RULE(".PageTableLevel:below-level-count");
    else if (bits && bits < 32 && (uint64_t)u->StartIndex + n > ((uint64_t)1 << bits))
        rule = UPT_RULE(".StartIndex:entries-within-table");
    else if (n > PB_TOKEN_LIMIT / 2u)
        rule = UPT_RULE(".NumPageTableEntries:fits-progress-token");
    else if (n && !u->pPageTableEntries)
        rule = UPT_RULE(".pPageTableEntries:non-null");
    else if (u->pPageTableEntries64KB && !(e->cfg.adapter_caps & PB_ADAPTER_DUAL_PTE))
        rule = UPT_RULE(".pPageTableEntries64KB:DualPteSupported-only");
    else if (u->pPageTableEntries64KB && (PB_FLAGS(u->Flags) & UPF_REPEAT))
        rule = UPT_RULE(".pPageTableEntries64KB:not-with-Repeat");
    if (!rule)
        return PB_STEP_DONE;
    pb_report(e, a, rule, PB_RULE_INVALID);
    return PB_STEP_INVALID;
}

/* The entry rules over the 64 KiB companion array (dual-PTE), and over the main
 * array unless main_checked_elsewhere (the fused path checks it as it encodes).
 * *checked (may be NULL): the main array's summary when this checked it. */
static pb_step check_upt_entries(pb_engine *e, const DXGKARG_BUILDPAGINGBUFFER *a, int main_checked_elsewhere,
                                 uint32_t wide, pb_pte_summary *checked)
{
    const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &a->UpdatePageTable;
    const uint32_t n = u->NumPageTableEntries, repeat = (PB_FLAGS(u->Flags) & UPF_REPEAT) != 0;
    if (n == 0)
        return PB_STEP_DONE;
    if (!main_checked_elsewhere &&
        check_ptes(e, a, u->pPageTableEntries, repeat ? 1u : n, wide, repeat ? NULL : checked) != PB_STEP_DONE)
        return PB_STEP_INVALID;
    if (u->pPageTableEntries64KB && check_ptes(e, a, u->pPageTableEntries64KB, n, wide, NULL) != PB_STEP_DONE)
        return PB_STEP_INVALID;
    return PB_STEP_DONE;
}

/* Dual-PTE companion entries: slot s = StartIndex + i with s % 16 == 0 goes to
 * index s / 16 of the 64 KiB table at dual_pte_offset from the leaf table. */
static uint32_t dual_first(const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u)
{
    return (16u - (u->StartIndex & 15u)) & 15u; /* first i whose slot is 64 KiB aligned */
}

static uint32_t dual_count(const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u)
{
    uint32_t f = dual_first(u);
    if (!u->pPageTableEntries64KB || f >= u->NumPageTableEntries)
        return 0;
    return (u->NumPageTableEntries - f + 15u) / 16u;
}

/* Gathers 64 KiB entries (stride 16 in the DDI array) into a local batch. */
#define DUAL_BATCH 32u

static uint32_t dual_run_length(const pb_qword_source *s, uint32_t i, uint32_t max)
{
    (void)s;
    (void)i;
    (void)max;
    return 1; /* at most 32 entries per 2 MiB: never worth a generator */
}

static void dual_encode(const pb_qword_source *s, uint32_t i, uint32_t n, uint64_t *out)
{
    const DXGK_PTE *src = (const DXGK_PTE *)s->data;
    DXGK_PTE batch[DUAL_BATCH];
    uint32_t done = 0, k;
    while (done < n) {
        uint32_t m = n - done < DUAL_BATCH ? n - done : DUAL_BATCH;
        for (k = 0; k < m; k++)
            batch[k] = src[(uint64_t)(i + done + k) * 16u];
        s->r->be->ops->encode_ptes(s->r->be->ctx, batch, m, &s->pte, out + done);
        done += m;
    }
}

/* The fields every qword source sets the same way; the caller fills the rest. */
static void qword_source_init(pb_qword_source *s, pb_run *r)
{
    static const pb_pte_ctx no_ptes = {0}; /* aperture entries: no DXGK_PTE, never streamed */
    s->r = r;
    s->literal_encode = NULL;
    s->run_free = 0;
    s->pte = no_ptes;
}

/* How this call encodes DXGK_PTEs: the update's level and flags, the table
 * (leaf or 64 KiB companion), AVX2 when the state was saved, non-temporal
 * stores when the engine streams and the values go to the DMA buffer. */
static pb_pte_ctx upt_pte_ctx(const pb_run *r, int dual, uint32_t wide, uint32_t stream)
{
    const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &r->a->UpdatePageTable;
    pb_pte_ctx pc;
    pc.level = u->PageTableLevel;
    pc.use_64kb = (PB_FLAGS(u->Flags) & UPF_USE64KB) != 0;
    pc.table_64kb = (uint32_t)dual;
    pc.flags_uniform = 0;
    pc.wide = wide;
    pc.stream = stream;
    return pc;
}

static void upt_source(pb_run *r, pb_qword_source *s, int dual, uint32_t wide, uint32_t stream)
{
    const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &r->a->UpdatePageTable;
    qword_source_init(s, r);
    s->pte = upt_pte_ctx(r, dual, wide, stream);
    if (dual) {
        s->data = u->pPageTableEntries64KB ? u->pPageTableEntries64KB + dual_first(u) : NULL;
        s->run_length = dual_run_length;
        s->literal_length = no_runs_literal;
        s->encode = dual_encode;
    } else if (PB_FLAGS(u->Flags) & UPF_REPEAT) {
        s->data = u->pPageTableEntries;
        s->run_length = repeat_run_length;
        s->literal_length = no_runs_literal;
        s->encode = repeat_encode;
    } else {
        s->data = u->pPageTableEntries;
        s->run_length = pte_run_length;
        s->literal_length = pte_literal_length;
        s->encode = pte_encode;
        s->literal_encode = pte_literal_encode;
    }
}

static pb_step upt_cpu_apply(pb_engine *e, const DXGKARG_BUILDPAGINGBUFFER *a, pb_run *r)
{
    const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &a->UpdatePageTable;
    uint8_t *table = (uint8_t *)u->PageTableAddress.CpuVirtual;
    uint64_t v[64];
    int dual;
    for (dual = 0; dual <= 1; dual++) {
        pb_qword_source s;
        uint32_t total = dual ? dual_count(u) : u->NumPageTableEntries, i = 0;
        uint8_t *base;
        if (total == 0)
            continue;
        base = dual ? table + e->cfg.backend.dual_pte_offset + ((u->StartIndex + dual_first(u)) / 16u) * 8u
                    : table + (uint64_t)u->StartIndex * 8u;
        upt_source(r, &s, dual, 0, 0); /* into v[], read back at once: through the cache */
        while (i < total) {
            uint32_t n = total - i < 64u ? total - i : 64u;
            s.encode(&s, i, n, v);
            if (e->cfg.backend.ops->cpu_write64(e->cfg.backend.ctx, base + (uint64_t)i * 8u, v, n)) {
                pb_report(e, a, UPT_RULE(".PageTableAddress.CpuVirtual:writable"), PB_RULE_INVALID);
                return PB_STEP_INVALID;
            }
            i += n;
        }
    }
    return PB_STEP_DONE;
}

NTSTATUS pb_update_page_table_cpu(pb_engine *e, DXGKARG_BUILDPAGINGBUFFER *a)
{
    pb_run r;
    const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &a->UpdatePageTable;
    /* Writes outside the DMA buffer: everything is checked before the first. */
    if (validate_upt_args(e, a) != PB_STEP_DONE || check_upt_entries(e, a, 0, 0, NULL) != PB_STEP_DONE)
        return PB_STATUS_INVALID_ARGS;
    if ((uint32_t)u->UpdateMode != UPT_CPU_VIRTUAL || u->PageTableAddress.CpuVirtual == NULL) {
        pb_report(e, a, UPT_RULE(".UpdateMode:cpu-virtual-when-pDmaBuffer-null"), PB_RULE_INVALID);
        return PB_STATUS_INVALID_ARGS;
    }
    r.e = e;
    r.a = a;
    r.be = &e->cfg.backend;
    return upt_cpu_apply(e, a, &r) == PB_STEP_DONE ? STATUS_SUCCESS : PB_STATUS_INVALID_ARGS;
}

/* GPU location of entry StartIndex; 0 when the table is only CPU-reachable. */
static int upt_table_loc(pb_run *r, pb_loc *loc)
{
    const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &r->a->UpdatePageTable;
    const uint64_t first = (uint64_t)u->StartIndex * 8u;
    switch ((uint32_t)u->UpdateMode) {
    case UPT_GPU_VIRTUAL:
        *loc = pb_loc_make(PB_SPACE_PAGING_VA, u->PageTableAddress.GpuVirtual + first);
        return 1;
    case UPT_GPU_PHYSICAL:
        *loc = pb_loc_make((uint16_t)u->PageTableAddress.GpuPhysical.SegmentId,
                           u->PageTableAddress.GpuPhysical.SegmentOffset + first);
        return 1;
    default:
        if (r->be->ops->cpu_va_to_loc &&
            r->be->ops->cpu_va_to_loc(r->be->ctx, u->PageTableAddress.CpuVirtual, 8, loc) == 0) {
            loc->addr += first;
            return 1;
        }
        return 0;
    }
}

/* The summary of p[i..) merged into the one of p[0..i). */
static void merge_summary(pb_pte_summary *all, const pb_pte_summary *part, uint64_t part_first_flags,
                          uint64_t first_flags)
{
    all->any |= part->any;
    all->uniform &= part->uniform & (uint32_t)(part_first_flags == first_flags);
    all->run_candidate |= part->run_candidate;
    all->zero_no_valid |= part->zero_no_valid;
}

/* The first call of a DMA-path update, when the backend's PTE is split-shaped:
 * the entries are checked while they are encoded, straight into WRITE64
 * payloads at the cursor. Packets hold multiples of 8 entries (the run
 * filter's phase), the last one exactly what is left; entries that do not fit
 * this buffer are checked by a summary pass. On a broken rule the call is
 * refused with the cursor where it was: what was encoded is scratch in the
 * unused tail, never submitted. When the check finds a possible PTEGEN run the
 * packets are dropped the same way and the caller emits from entry 0 knowing
 * the summary. Otherwise r->token is the number of entries emitted. */
static pb_step upt_fused_first_call(pb_run *r, pb_loc loc, uint32_t wide, pb_pte_summary *checked)
{
    const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &r->a->UpdatePageTable;
    const DXGK_PTE *p = u->pPageTableEntries;
    const uint32_t n = u->NumPageTableEntries;
    const pb_backend *be = r->be;
    const pb_cursor start = r->cur;
    const uint32_t packets = r->packets;
    const pb_pte_ctx pc = upt_pte_ctx(r, 0, wide, r->e->stream);
    pb_pte_summary sum, part;
    const char *rule;
    uint32_t i = 0;
    sum.any = 0;
    sum.uniform = 1;
    sum.run_candidate = 0;
    sum.zero_no_valid = 0;
    while (i < n) {
        uint32_t room, k;
        uint64_t *payload;
        if (wide || pc.stream) /* 32-byte stores that never split a line; streaming ones whole lines */
            pb_align_write64_payload(r, pc.stream ? 64u : 32u, n - i < 8u ? n - i : 8u);
        room = pb_write64_room(r);
        k = room >= n - i ? n - i : room & ~7u;
        if (k == 0)
            break;
        payload = be->ops->write64_begin(be->ctx, &r->cur, pb_loc_make(loc.space, loc.addr + (uint64_t)i * 8u), k);
        pb_encode_ptes_checked(&be->pte_split, p + i, k, &pc, payload, &part);
        be->ops->write64_end(be->ctx, &r->cur, k);
        r->packets++;
        merge_summary(&sum, &part, p[i].Flags, p[0].Flags);
        i += k;
    }
    if (i < n) { /* emitted by later calls, checked now */
        pb_pte_summarize_vec(p + i, n - i, wide, &part);
        part.zero_no_valid = zero_no_valid(p + i, n - i, &part);
        merge_summary(&sum, &part, p[i].Flags, p[0].Flags);
    }
    rule = pte_rule(r->e, u, sum.any, sum.zero_no_valid);
    *checked = sum;
    if (rule || sum.run_candidate) {
        r->cur = start; /* the encoded packets stay behind the cursor as scratch */
        r->packets = packets;
        r->token = 0;
        return rule ? pb_rule(r, rule, PB_RULE_INVALID) : PB_STEP_DONE;
    }
    r->token = i;
    return PB_STEP_DONE;
}

/* Whether this call may fuse the entry check with the encoding: a first call on
 * the DMA path (refusing it leaves only scratch in the tail), literal entries,
 * and a backend whose encode_ptes the engine can run itself. */
static int upt_fusable(const pb_run *r)
{
    const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &r->a->UpdatePageTable;
    return u->NumPageTableEntries && !(PB_FLAGS(u->Flags) & UPF_REPEAT) &&
           r->be->pte_split.flag_bits != NULL;
}

static pb_step upt_emit(pb_run *r, uint32_t wide)
{
    const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &r->a->UpdatePageTable;
    const uint32_t n = u->NumPageTableEntries, n64 = dual_count(u);
    pb_qword_source s;
    pb_loc loc;
    pb_step st;
    pb_pte_summary checked; /* known on the first call only, from the entry check */
    const int first = r->token == 0;
    int fused;
    checked.any = 0;
    checked.uniform = 0;
    checked.run_candidate = 1; /* unknown: scan */
    if (r->token > n + n64)
        return pb_rule(r, "DXGKARG_BUILDPAGINGBUFFER.MultipassOffset:within-operation", PB_RULE_INVALID);
    if (!upt_table_loc(r, &loc)) {
        /* CPU_VIRTUAL without a GPU alias: the table is written now, in call
         * order, so everything is checked first. */
        if (first && (check_upt_entries(r->e, r->a, 0, wide, NULL) != PB_STEP_DONE ||
                      upt_cpu_apply(r->e, r->a, r) != PB_STEP_DONE))
            return PB_STEP_INVALID;
        r->token = n + n64;
        return PB_STEP_DONE;
    }
    /* A refused call leaves pDmaBuffer as it was (finish), whatever r->cur says. */
    fused = first && upt_fusable(r);
    if (fused && upt_fused_first_call(r, loc, wide, &checked) != PB_STEP_DONE)
        return PB_STEP_INVALID;
    if (first && check_upt_entries(r->e, r->a, fused, wide, &checked) != PB_STEP_DONE)
        return PB_STEP_INVALID;
    if (r->token < n) {
        upt_source(r, &s, 0, wide, r->e->stream);
        s.run_free = checked.run_candidate ^ 1u;
        s.pte.flags_uniform = checked.uniform;
        if ((st = pb_emit_qwords(r, loc, n, &s)) != PB_STEP_DONE)
            return st;
    }
    if (n64) { /* tokens n .. n + n64 - 1 are companion entries */
        pb_loc loc64 = pb_loc_make(loc.space, loc.addr - (uint64_t)u->StartIndex * 8u + r->be->dual_pte_offset +
                                                  ((u->StartIndex + dual_first(u)) / 16u) * 8u);
        upt_source(r, &s, 1, wide, r->e->stream);
        r->token -= n;
        st = pb_emit_qwords(r, loc64, n64, &s);
        r->token += n;
        return st;
    }
    return PB_STEP_DONE;
}

pb_step pb_op_update_page_table(pb_run *r)
{
    const DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE *u = &r->a->UpdatePageTable;
    const uint32_t total = u->NumPageTableEntries + dual_count(u);
    pb_vector_state state;
    uint32_t wide = 0;
    pb_step st;
    if (validate_upt_args(r->e, r->a) != PB_STEP_DONE)
        return PB_STEP_INVALID;
    /* AVX2 only for calls with enough entries left to repay saving the state. */
    if (r->e->wide && r->token < total && total - r->token >= r->e->wide_min)
        wide = r->be->ops->vector_save(r->be->ctx, &state) == 0;
    st = upt_emit(r, wide);
    if (r->e->stream) /* before the caller's next store: the submission may follow */
        pb_pte_stream_fence();
    if (wide)
        r->be->ops->vector_restore(r->be->ctx, &state);
    return st;
}

/* ---- aperture segments ---- */

#define MAP_RULE(s) "DXGKARG_BUILDPAGINGBUFFER.MapApertureSegment" s
#define MAP2_RULE(s) "DXGKARG_BUILDPAGINGBUFFER.MapApertureSegment2" s
#define UNMAP_RULE(s) "DXGKARG_BUILDPAGINGBUFFER.UnmapApertureSegment" s

static int aperture_range_ok(const pb_run *r, uint32_t id, uint64_t offset_pages, uint64_t pages)
{
    uint64_t seg_pages;
    if (!pb_segment_valid(r, id) || !r->e->cfg.segments[id].aperture)
        return 0;
    seg_pages = r->e->cfg.segments[id].size >> PB_PAGE_SHIFT;
    return offset_pages <= seg_pages && pages <= seg_pages - offset_pages;
}

/* Token n: BARRIER + TLB_INVAL of the aperture range, so no stale translation survives. */
static pb_step aperture_flush_step(pb_run *r, uint32_t id, uint64_t offset_pages, uint32_t n)
{
    if (r->token == n) {
        if (n && !pb_emit_flush(r, pb_loc_make((uint16_t)(PB_SPACE_APERTURE_TABLE + id), 0),
                                offset_pages << PB_PAGE_SHIFT, ((offset_pages + n) << PB_PAGE_SHIFT) - 1u))
            return PB_STEP_FULL;
        r->token = n + 1u;
    }
    return PB_STEP_DONE;
}

/* Entries [0, n) then the flush step at token n. */
static pb_step map_entries_then_flush(pb_run *r, uint32_t id, uint64_t offset_pages, uint32_t n,
                                      const pb_qword_source *src)
{
    pb_step st;
    if (r->token > n + 1u)
        return pb_rule(r, "DXGKARG_BUILDPAGINGBUFFER.MultipassOffset:within-operation", PB_RULE_INVALID);
    if (r->token < n &&
        (st = pb_emit_qwords(r, pb_loc_make((uint16_t)(PB_SPACE_APERTURE_TABLE + id), offset_pages * 8u), n, src)) !=
            PB_STEP_DONE)
        return st;
    return aperture_flush_step(r, id, offset_pages, n);
}

pb_step pb_op_map_aperture(pb_run *r)
{
    const DXGKARG_BUILDPAGINGBUFFER *a = r->a;
    const UINT id = a->MapApertureSegment.SegmentId;
    const uint64_t off = a->MapApertureSegment.OffsetInPages, n = a->MapApertureSegment.NumberOfPages;
    const MDL *mdl = a->MapApertureSegment.pMdl;
    pb_qword_source s;
    if (PB_FLAGS(a->MapApertureSegment.Flags) & ~1u)
        return pb_rule(r, MAP_RULE(".Flags:reserved-zero"), PB_RULE_INVALID);
    if (!aperture_range_ok(r, id, off, n))
        return pb_rule(r, MAP_RULE(".NumberOfPages:within-aperture-segment"), PB_RULE_INVALID);
    if (n > PB_TOKEN_LIMIT)
        return pb_rule(r, MAP_RULE(".NumberOfPages:fits-progress-token"), PB_RULE_INVALID);
    if (n && !mdl)
        return pb_rule(r, MAP_RULE(".pMdl:non-null"), PB_RULE_INVALID);
    if (n && (uint64_t)a->MapApertureSegment.MdlOffset + n > pb_mdl_pages(mdl))
        return pb_rule(r, MAP_RULE(".MdlOffset:within-mdl"), PB_RULE_INVALID);
    qword_source_init(&s, r);
    s.segment_id = id;
    s.cache_coherent = PB_FLAGS(a->MapApertureSegment.Flags) & 1u;
    s.data = n ? MmGetMdlPfnArray((PMDL)(ULONG_PTR)mdl) + a->MapApertureSegment.MdlOffset : NULL;
    s.run_length = pfn_run_length;
    s.literal_length = literal_length;
    s.encode = pfn_encode;
    return map_entries_then_flush(r, id, off, (uint32_t)n, &s);
}

#if PB_HAVE_WDDM2_9_OPS
/* Page-array ADLs hold DXGK_PAGE_NUMBER values; runs are consecutive numbers. */
static uint32_t adl_run_length(const pb_qword_source *s, uint32_t i, uint32_t max)
{
    const DXGK_PAGE_NUMBER *p = (const DXGK_PAGE_NUMBER *)s->data + i;
    uint32_t n = 1;
    while (n < max && p[n] == p[0] + n)
        n++;
    return n;
}

static void adl_encode(const pb_qword_source *s, uint32_t i, uint32_t n, uint64_t *out)
{
    const DXGK_PAGE_NUMBER *p = (const DXGK_PAGE_NUMBER *)s->data + i;
    const pb_backend *be = s->r->be;
    uint32_t k;
    for (k = 0; k < n; k++)
        out[k] = be->ops->aperture_pte(be->ctx, s->segment_id, (uint64_t)p[k], s->cache_coherent);
}

pb_step pb_op_map_aperture2(pb_run *r)
{
    const DXGKARG_BUILDPAGINGBUFFER *a = r->a;
    const UINT id = a->MapApertureSegment2.SegmentId;
    const uint64_t off = a->MapApertureSegment2.OffsetInPages, n = a->MapApertureSegment2.NumberOfPages;
    const DXGK_ADL *adl = &a->MapApertureSegment2.Adl;
    const uint64_t adl_off = a->MapApertureSegment2.AdlOffset;
    pb_qword_source s;
    if (PB_FLAGS(a->MapApertureSegment2.Flags) & ~1u)
        return pb_rule(r, MAP2_RULE(".Flags:reserved-zero"), PB_RULE_INVALID);
    if (!aperture_range_ok(r, id, off, n))
        return pb_rule(r, MAP2_RULE(".NumberOfPages:within-aperture-segment"), PB_RULE_INVALID);
    if (n > PB_TOKEN_LIMIT)
        return pb_rule(r, MAP2_RULE(".NumberOfPages:fits-progress-token"), PB_RULE_INVALID);
    if (PB_FLAGS(adl->Flags) & ~1u)
        return pb_rule(r, "DXGK_ADL.Flags:reserved-zero", PB_RULE_INVALID);
    if (adl_off + n > adl->PageCount)
        return pb_rule(r, MAP2_RULE(".AdlOffset:within-adl"), PB_RULE_INVALID);
    qword_source_init(&s, r);
    s.segment_id = id;
    s.cache_coherent = PB_FLAGS(a->MapApertureSegment2.Flags) & 1u;
    if (adl->Flags.Contiguous) {
        s.base = (uint64_t)adl->BasePageNumber + adl_off;
        s.data = NULL;
        s.run_length = repeat_run_length; /* one run with step one page */
        s.literal_length = no_runs_literal;
        s.encode = contiguous_encode;
    } else {
        if (n && !adl->Pages)
            return pb_rule(r, "DXGK_ADL.Pages:non-null", PB_RULE_INVALID);
        s.data = n ? adl->Pages + adl_off : NULL;
        s.run_length = adl_run_length;
        s.literal_length = literal_length;
        s.encode = adl_encode;
    }
    return map_entries_then_flush(r, id, off, (uint32_t)n, &s);
}
#endif

pb_step pb_op_unmap_aperture(pb_run *r)
{
    const DXGKARG_BUILDPAGINGBUFFER *a = r->a;
    const UINT id = a->UnmapApertureSegment.SegmentId;
    const uint64_t off = a->UnmapApertureSegment.OffsetInPages, n = a->UnmapApertureSegment.NumberOfPages;
    const uint64_t dummy = (uint64_t)a->UnmapApertureSegment.DummyPage.QuadPart >> PB_PAGE_SHIFT;
    if (!aperture_range_ok(r, id, off, n))
        return pb_rule(r, UNMAP_RULE(".NumberOfPages:within-aperture-segment"), PB_RULE_INVALID);
    if (n > PB_TOKEN_LIMIT)
        return pb_rule(r, UNMAP_RULE(".NumberOfPages:fits-progress-token"), PB_RULE_INVALID);
    if (a->UnmapApertureSegment.DummyPage.QuadPart & (PB_PAGE_SIZE - 1u))
        return pb_rule(r, UNMAP_RULE(".DummyPage:page-aligned"), PB_RULE_INVALID);
    if (r->token > n + 1u)
        return pb_rule(r, "DXGKARG_BUILDPAGINGBUFFER.MultipassOffset:within-operation", PB_RULE_INVALID);
    /* Every entry maps the dummy page and stays valid, so GPU access through the
     * range keeps working: one PTEGEN with step 0 per max_ptegen entries. */
    while (r->token < n) {
        uint32_t left = (uint32_t)n - r->token;
        uint32_t cnt = left < r->be->max_ptegen ? left : r->be->max_ptegen;
        uint64_t v = r->be->ops->aperture_pte(r->be->ctx, id, dummy, 0);
        if (cnt == 0)
            return pb_stalled(r);
        if (!pb_emit_ptegen(r, pb_loc_make((uint16_t)(PB_SPACE_APERTURE_TABLE + id), (off + r->token) * 8u), v, 0, cnt))
            return PB_STEP_FULL;
        r->token += cnt;
    }
    return aperture_flush_step(r, id, off, (uint32_t)n);
}

/* ---- FLUSH_TLB ---- */

pb_step pb_op_flush_tlb(pb_run *r)
{
    const DXGK_BUILDPAGINGBUFFER_FLUSHTLB *f = &r->a->FlushTlb;
    const uint64_t va0 = f->StartVirtualAddress, va1 = f->EndVirtualAddress;
    if (va1 < va0)
        return pb_rule(r, "DXGKARG_BUILDPAGINGBUFFER.FlushTlb.EndVirtualAddress:not-below-start", PB_RULE_INVALID);
    if (r->token > 1u)
        return pb_rule(r, "DXGKARG_BUILDPAGINGBUFFER.MultipassOffset:within-operation", PB_RULE_INVALID);
    if (r->token == 0) {
        /* BARRIER first: table writes queued before must land before the walk refills. */
        if (!pb_emit_flush(r, pb_loc_make((uint16_t)f->RootPageTableAddress.SegmentId,
                                          f->RootPageTableAddress.SegmentOffset), va0, va1))
            return PB_STEP_FULL;
        r->token = 1;
    }
    return PB_STEP_DONE;
}
