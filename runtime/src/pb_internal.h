/* Internal interface of the paging runtime, top-down: the engine core (pb_engine.c)
 * hands each call to the generated dispatch table (pb_dispatch.c), whose handlers
 * are the per-operation encoders (pb_copy.c, pb_tables.c, pb_notes.c); they emit
 * through the floor below them (pb_emit.c: reservation, packets, rule reporting),
 * which calls the backend. */
#ifndef PB_INTERNAL_H
#define PB_INTERNAL_H

#include "ddi_paging.h"

/* DXGK_BUILDPAGINGBUFFER_OPERATION values, used numerically so that values a
 * given kit does not declare (and future ones) still reach the switch. */
enum {
    PB_OP_TRANSFER = 0,
    PB_OP_FILL = 1,
    PB_OP_DISCARD_CONTENT = 2,
    PB_OP_READ_PHYSICAL = 3,
    PB_OP_WRITE_PHYSICAL = 4,
    PB_OP_MAP_APERTURE_SEGMENT = 5,
    PB_OP_UNMAP_APERTURE_SEGMENT = 6,
    PB_OP_SPECIAL_LOCK_TRANSFER = 7,
    PB_OP_VIRTUAL_TRANSFER = 8,
    PB_OP_VIRTUAL_FILL = 9,
    PB_OP_INIT_CONTEXT_RESOURCE = 10,
    PB_OP_UPDATE_PAGE_TABLE = 11,
    PB_OP_FLUSH_TLB = 12,
    PB_OP_UPDATE_CONTEXT_ALLOCATION = 13,
    PB_OP_COPY_PAGE_TABLE_ENTRIES = 14,
    PB_OP_NOTIFY_RESIDENCY = 15,
    PB_OP_SIGNAL_MONITORED_FENCE = 16,
    PB_OP_MAP_APERTURE_SEGMENT2 = 17,
    PB_OP_NOTIFY_FENCE_RESIDENCY = 18,
    PB_OP_MAP_MMU = 19,
    PB_OP_UNMAP_MMU = 20,
    PB_OP_NOTIFY_RESIDENCY2 = 21,
    PB_OP_NOTIFY_ALLOC = 22
};

/* The bits of a DDI flags structure (a union of UINT bit-fields). Kits before
 * WDDM 2.2 (10.0.10240.0, 10.0.14393.0) declare DXGK_UPDATEPAGETABLEFLAGS,
 * DXGK_TRANSFERVIRTUALFLAGS and others without the `Value` member later kits
 * have; the bits are the same 32-bit word. PB_FLAGS refuses, at compile time,
 * a structure of another size. */
static PB_INLINE uint32_t pb_flag_word(const void *flags)
{
#if defined(__GNUC__) || defined(__clang__)
    uint32_t v;
    __builtin_memcpy(&v, flags, sizeof v); /* one load, without breaking aliasing */
    return v;
#else
    return *(const uint32_t *)flags; /* MSVC does not assume strict aliasing */
#endif
}
#define PB_FLAGS(f) (pb_flag_word(&(f)) + 0u * (uint32_t)sizeof(char[sizeof(f) == 4u ? 1 : -1]))

/* Largest progress token an operation may need; leaves room for trailing steps. */
#define PB_TOKEN_LIMIT 0xFFFFFF00u

/* A PTEGEN replaces literal entries only for runs at least this long: shorter
 * runs cost more in split WRITE64 headers than they save. */
#define PB_MIN_GENERATOR_RUN 12u

typedef enum pb_step { PB_STEP_DONE = 0, PB_STEP_FULL = 1, PB_STEP_INVALID = 2, PB_STEP_BUSY = 3 } pb_step;

typedef struct pb_run {
    pb_engine *e;
    DXGKARG_BUILDPAGINGBUFFER *a;
    const pb_backend *be;
    pb_cursor cur;
    uint8_t *start;
    uint32_t dma_size;
    uint32_t token;   /* progress: page, slice or entry index, never bytes */
    uint32_t packets; /* packets emitted by this call */
} pb_run;

/* (The generated table and the handlers registered in it: pb_dispatch.h.) */

/* ---- the floor below the ops (pb_emit.c) ---- */

/* Reports a rule; returns PB_STEP_INVALID for PB_RULE_INVALID so callers can
 * write `return pb_rule(r, ID, PB_RULE_INVALID);`. */
pb_step pb_rule(pb_run *r, const char *rule_id, pb_severity severity);

/* Every loop that consumes a scan or chunk length checks it is nonzero (and
 * within what was asked) before using it; otherwise it returns pb_stalled(r),
 * which reports "pb_engine:every-step-progresses" and refuses the call. */
pb_step pb_stalled(pb_run *r);

/* All-or-nothing space check: bytes fit with this call's padding still possible. */
int pb_fits(const pb_run *r, uint32_t bytes);
/* Largest n such that a WRITE64 of n qwords fits (0 if none). */
uint32_t pb_write64_room(const pb_run *r);
uint32_t pb_size(const pb_run *r, pb_packet_kind kind, uint32_t n);
/* Pads so that the payload of the next WRITE64 starts a multiple of align bytes
 * (a power of two, at most submit_align) from this call's start, when the pad
 * and a WRITE64 of min_n qwords after it fit; otherwise emits nothing. */
void pb_align_write64_payload(pb_run *r, uint32_t align, uint32_t min_n);

/* Emit helpers: reserve, emit, count. Return 0 when the packet does not fit. */
int pb_emit_copy(pb_run *r, pb_loc dst, pb_loc src, uint64_t bytes, uint32_t mode);
int pb_emit_fill(pb_run *r, pb_loc dst, uint64_t bytes, uint32_t pattern);
int pb_emit_ptegen(pb_run *r, pb_loc dst, uint64_t first, uint64_t incr, uint32_t n);
int pb_emit_note(pb_run *r, const pb_note *note);
/* BARRIER + TLB_INVAL reserved together, so the invalidate never lands in a
 * later buffer than its barrier with writes in between. */
int pb_emit_flush(pb_run *r, pb_loc root, uint64_t va0, uint64_t va1);
int pb_emit_barrier_fence(pb_run *r, pb_loc dst, uint64_t value);
int pb_emit_touch(pb_run *r, pb_loc loc, uint32_t bytes, uint32_t write);

static inline pb_loc pb_loc_make(uint16_t space, uint64_t addr)
{
    pb_loc l;
    l.space = space;
    l.addr = addr;
    return l;
}

static inline uint64_t pb_min_u64(uint64_t a, uint64_t b)
{
    return a < b ? a : b;
}

/* Pages (4 KiB slices) covering bytes; 0 when the count does not fit a token. */
uint32_t pb_slices(uint64_t bytes);

/* Segment helpers: valid id, memory (non-aperture) segment, bounds. */
int pb_segment_valid(const pb_run *r, uint32_t id);
int pb_segment_range_ok(const pb_run *r, uint32_t id, uint64_t offset, uint64_t bytes);
/* Number of pages an MDL spans. */
uint64_t pb_mdl_pages(const MDL *mdl);

/* Source of 64-bit table entries for WRITE64/PTEGEN emission. */
typedef struct pb_qword_source {
    /* Length (<= max) of the run at index i whose encoded values form an
     * arithmetic progression; 1 when entry i starts no run. */
    uint32_t (*run_length)(const struct pb_qword_source *s, uint32_t i, uint32_t max);
    /* Entries from i (>= 1, <= max) before the next run of PB_MIN_GENERATOR_RUN. */
    uint32_t (*literal_length)(const struct pb_qword_source *s, uint32_t i, uint32_t max);
    void (*encode)(const struct pb_qword_source *s, uint32_t i, uint32_t n, uint64_t *out);
    /* Optional fused form of literal_length + encode: encodes the literal that
     * starts at i (1 <= length <= max) straight into out and returns its length.
     * Writes out[0 .. length) only. NULL: literal_length, then encode. */
    uint32_t (*literal_encode)(const struct pb_qword_source *s, uint32_t i, uint32_t max, uint64_t *out);
    const void *data;
    uint64_t base; /* source-specific: first page number, index offset */
    pb_pte_ctx pte;
    pb_run *r;
    uint32_t segment_id, cache_coherent;
    uint32_t run_free; /* no run of PB_MIN_GENERATOR_RUN anywhere: literals need no scan */
} pb_qword_source;

/* What validation and run detection need from a DXGK_PTE array, in one pass. */
typedef struct pb_pte_summary {
    uint64_t any;           /* OR of every Flags word */
    uint32_t uniform;       /* every Flags word equals p[0].Flags */
    uint32_t run_candidate; /* 0: no PTEGEN-sized run anywhere (1 may be a coincidence) */
    uint64_t zero_no_valid; /* pb_encode_ptes_checked only: PB_DXGK_PTE_ZERO if an entry has Zero without Valid */
} pb_pte_summary;

#define PB_DXGK_PTE_VALID 0x1ull
#define PB_DXGK_PTE_ZERO 0x2ull

/* PB_DXGK_PTE_ZERO if some entry of p[0..n) has Zero without Valid, else 0;
 * one flag word at a time (for tables whose flags differ). */
uint64_t pb_pte_zero_without_valid(const DXGK_PTE *p, uint32_t n);

/* wide: the caller saved the extended state, AVX2 may run (pb_pte_ctx.wide). */
void pb_pte_summarize_vec(const DXGK_PTE *p, uint32_t n, uint32_t wide, pb_pte_summary *s);
void pb_pte_summarize(const DXGK_PTE *p, uint32_t n, pb_pte_summary *s); /* wide = 0 */

/* pb_encode_ptes_split and pb_pte_summarize_vec in one pass over in[0..n):
 * out as the former writes it, *s as the latter fills it, plus zero_no_valid.
 * The DMA path's first call checks the entries while it encodes them into
 * payload that only becomes part of the buffer when the check passes. */
void pb_encode_ptes_checked(const pb_pte_split *fmt, const DXGK_PTE *in, uint32_t n, const pb_pte_ctx *pc,
                            uint64_t *out, pb_pte_summary *s);

/* Orders the non-temporal stores of a streaming call (pb_pte_ctx.stream) before
 * every later store: sfence on x64, nothing elsewhere (nothing streams there). */
void pb_pte_stream_fence(void);

/* Emits entries [r->token, total) of src to dst + 8 * index. Advances r->token;
 * returns PB_STEP_DONE or PB_STEP_FULL. */
pb_step pb_emit_qwords(pb_run *r, pb_loc dst, uint32_t total, const pb_qword_source *src);

/* Per-operation encoders (pb_copy.c, pb_tables.c, pb_notes.c): the handlers
 * pb_dispatch.c registers in the generated table. */
pb_step pb_op_transfer(pb_run *r);
pb_step pb_op_fill(pb_run *r);
pb_step pb_op_virtual_transfer(pb_run *r);
pb_step pb_op_virtual_fill(pb_run *r);
pb_step pb_op_copy_page_table_entries(pb_run *r);
pb_step pb_op_update_page_table(pb_run *r);
pb_step pb_op_map_aperture(pb_run *r);
pb_step pb_op_unmap_aperture(pb_run *r);
pb_step pb_op_map_aperture2(pb_run *r);
pb_step pb_op_flush_tlb(pb_run *r);
pb_step pb_op_physical(pb_run *r);
pb_step pb_op_signal_fence(pb_run *r);
pb_step pb_op_note(pb_run *r);

/* UPDATE_PAGE_TABLE with pDmaBuffer == NULL: applied on the CPU now. */
NTSTATUS pb_update_page_table_cpu(pb_engine *e, DXGKARG_BUILDPAGINGBUFFER *a);
/* Reports through the engine's hook when there is no run yet. */
void pb_report(pb_engine *e, const DXGKARG_BUILDPAGINGBUFFER *a, const char *rule_id, pb_severity sev);

#endif /* PB_INTERNAL_H */
