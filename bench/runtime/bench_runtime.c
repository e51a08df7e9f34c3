/* Benchmark of the paging engine with the reference backend: every figure is printed
 * beside a baseline measured in the same run (memcpy of the same bytes, or the floor
 * loop of the same instruction set), as a ratio. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "ddi_paging.h"
#include "pb_internal.h" /* pb_encode_ptes_checked, the engine's fused loop, timed alone */
#include "pbsim_vector.h"
#include "rpb_backend.h"

#define OUT_BYTES (8u << 20)
/* 8192 calls of 512 entries: 64 MiB of DXGK_PTEs in, 33 MiB out. */
#define UPT_OUT_BYTES (40u << 20)
#define MIN_SECONDS 0.25

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t rng(uint64_t *s)
{
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static int no_cpu(void *user, void *va, const uint64_t *v, uint32_t n)
{
    (void)user;
    (void)va;
    (void)v;
    (void)n;
    return -1;
}

typedef struct bench {
    rpb_backend_ctx rctx;
    pb_config cfg;
    pb_engine engine;
    uint8_t *out;
    uint8_t *copy_src, *copy_dst;
    volatile uint64_t sink;
} bench;

static void bench_init(bench *b, uint32_t paging_buffer)
{
    memset(b, 0, sizeof *b);
    b->rctx.cpu_write64 = no_cpu;
    rpb_backend_init(&b->cfg.backend, &b->rctx);
    b->cfg.paging_buffer_size = paging_buffer;
    b->cfg.segment_count = 1;
    b->cfg.segments[1].size = 1ull << 40;
    b->cfg.level_count = 2;
    b->cfg.index_bits[0] = b->cfg.index_bits[1] = 9;
    if (pb_engine_init(&b->engine, &b->cfg) != STATUS_SUCCESS) {
        fprintf(stderr, "engine configuration rejected\n");
        exit(1);
    }
}

/* Seconds per call of fn, repeated until MIN_SECONDS have passed. */
typedef uint64_t (*work_fn)(bench *b, void *arg);

static double time_per_call_for(bench *b, work_fn fn, void *arg, double seconds)
{
    double t0 = now(), t;
    uint64_t calls = 0;
    do {
        b->sink += fn(b, arg);
        calls++;
        t = now() - t0;
    } while (t < seconds);
    return t / (double)calls;
}

static double time_per_call(bench *b, work_fn fn, void *arg)
{
    return time_per_call_for(b, fn, arg, MIN_SECONDS);
}

/* Figures that are compared with each other, on a machine shared with other
 * jobs: timed in alternation, ROUNDS short rounds each, best round kept, so a
 * burst of load hits the engine and its baseline alike instead of one of them. */
#define ROUNDS 7
#define ROUND_SECONDS 0.04

static void time_together(bench *b, unsigned k, work_fn *fn, void **arg, double *best)
{
    unsigned r, i;
    for (i = 0; i < k; i++)
        best[i] = 1e30;
    for (r = 0; r < ROUNDS; r++)
        for (i = 0; i < k; i++) {
            const double t = time_per_call_for(b, fn[i], arg[i], ROUND_SECONDS);
            if (t < best[i])
                best[i] = t;
        }
}

static uint64_t memcpy_work(bench *b, void *arg)
{
    size_t bytes = *(size_t *)arg;
    memcpy(b->copy_dst, b->copy_src, bytes);
    return b->copy_dst[bytes / 2];
}

/* ---- UPDATE_PAGE_TABLE: DXGK_PTE -> WRITE64 payload ---- */

typedef struct upt_arg {
    DXGK_PTE *pte;
    uint32_t count, per_op;
    pb_engine *engine;
    uint8_t *out;       /* room for the engine's whole output */
    uint64_t out_bytes;
} upt_arg;

/* count / per_op UPDATE_PAGE_TABLE calls, packed one after the other. */
static uint64_t upt_work(bench *b, void *arg)
{
    upt_arg *u = arg;
    DXGKARG_BUILDPAGINGBUFFER a;
    uint8_t *p = u->out;
    uint32_t i;
    (void)b;
    memset(&a, 0, sizeof a);
    a.Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)11;
    a.UpdatePageTable.UpdateMode = (DXGK_PAGETABLEUPDATEMODE)2;
    a.UpdatePageTable.PageTableAddress.GpuPhysical.SegmentId = 1;
    a.UpdatePageTable.NumPageTableEntries = u->per_op;
    for (i = 0; i + u->per_op <= u->count; i += u->per_op) {
        a.UpdatePageTable.pPageTableEntries = u->pte + i;
        a.pDmaBuffer = p;
        a.DmaSize = 0x7FFFFFC0u; /* the buffer holds every call's output */
        a.MultipassOffset = 0;
        if (pb_build_paging_buffer(u->engine, &a) != STATUS_SUCCESS)
            abort();
        p = a.pDmaBuffer;
    }
    u->out_bytes = (uint64_t)(p - u->out);
    return u->out_bytes;
}

/* The floor of any DXGK_PTE encoder: read the same 16-byte entries, write 8
 * bytes each, no encoding, no checks. One per instruction set the engine runs:
 * SSE2 (what x64 kernel code may use without saving state) and AVX2 (after the
 * save). The engine cannot beat the floor of its own instruction set. */
static uint64_t floor_sse2_work(bench *b, void *arg)
{
    upt_arg *u = arg;
    uint64_t *o = (uint64_t *)u->out;
    uint32_t i = 0;
    (void)b;
#if defined(__x86_64__)
    for (; i + 4u <= u->count; i += 4u) {
        const __m128i *q = (const __m128i *)(const void *)(u->pte + i);
        _mm_storeu_si128((__m128i *)(void *)(o + i), _mm_unpackhi_epi64(_mm_loadu_si128(q), _mm_loadu_si128(q + 1)));
        _mm_storeu_si128((__m128i *)(void *)(o + i + 2),
                         _mm_unpackhi_epi64(_mm_loadu_si128(q + 2), _mm_loadu_si128(q + 3)));
    }
#endif
    for (; i < u->count; i++)
        o[i] = u->pte[i].PageAddress;
    return o[u->count / 2u];
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) static uint64_t floor_avx2_work(bench *b, void *arg)
{
    upt_arg *u = arg;
    uint64_t *o = (uint64_t *)u->out;
    uint32_t i = 0;
    (void)b;
    for (; i + 8u <= u->count; i += 8u) {
        const __m256i *q = (const __m256i *)(const void *)(u->pte + i);
        __m256i *d = (__m256i *)(void *)(o + i);
        _mm256_storeu_si256(d, _mm256_permute4x64_epi64(
                                   _mm256_unpackhi_epi64(_mm256_loadu_si256(q), _mm256_loadu_si256(q + 1)), 0xD8));
        _mm256_storeu_si256(d + 1, _mm256_permute4x64_epi64(_mm256_unpackhi_epi64(_mm256_loadu_si256(q + 2),
                                                                                  _mm256_loadu_si256(q + 3)),
                                                            0xD8));
    }
    for (; i < u->count; i++)
        o[i] = u->pte[i].PageAddress;
    return o[u->count / 2u];
}
#endif

/* The engine's loops without the call around them, over the same entries in
 * the same chunks, each chunk's output after the last: the fused check and
 * encode the DMA path runs (pb_encode_ptes_checked), or the encode alone
 * (pb_encode_ptes_split told the flags are uniform: no flag check, no run
 * filter). Splits the distance to the floor between the loop and the call. */
typedef struct loop_arg {
    const upt_arg *u;
    pb_pte_split fmt;
    pb_pte_ctx pc;
    int fused;
} loop_arg;

static uint64_t loop_work(bench *b, void *arg)
{
    loop_arg *l = arg;
    const upt_arg *u = l->u;
    uint64_t *o = (uint64_t *)(void *)u->out;
    pb_pte_summary s;
    uint32_t i;
    (void)b;
    for (i = 0; i + u->per_op <= u->count; i += u->per_op) {
        if (l->fused)
            pb_encode_ptes_checked(&l->fmt, u->pte + i, u->per_op, &l->pc, o + i, &s);
        else
            pb_encode_ptes_split(&l->fmt, u->pte + i, u->per_op, &l->pc, o + i);
    }
    return o[u->count / 2u];
}

static loop_arg loop_of(const bench *b, const upt_arg *u, uint32_t wide, int fused)
{
    loop_arg l;
    memset(&l, 0, sizeof l);
    l.u = u;
    l.fmt = b->cfg.backend.pte_split;
    l.pc.wide = wide;
    l.pc.flags_uniform = !fused;
    l.fused = fused;
    return l;
}

/* Prints, for one instruction set, the fused loop alone and (uniform flags)
 * the encode alone against that set's floor, timed with the floor. */
static void print_loop_split(bench *b, const upt_arg *u, const char *set, uint32_t wide, work_fn floor_fn,
                             int mixed_flags)
{
    loop_arg fused = loop_of(b, u, wide, 1), alone = loop_of(b, u, wide, 0);
    work_fn fns[3] = {loop_work, floor_fn, loop_work};
    void *args[3] = {&fused, (void *)u, &alone};
    double t[3];
    time_together(b, mixed_flags ? 2u : 3u, fns, args, t);
    printf("    where the %s time goes (%u-entry chunks, no call around them): the fused check-and-encode loop "
           "%.2f of the floor",
           set, u->per_op, t[1] / t[0]);
    if (!mixed_flags)
        printf(", the encode alone (no flag check, no run filter) %.2f", t[1] / t[2]);
    printf("\n");
}

/* A save that saves nothing: user mode needs none, so this engine times the
 * AVX2 loops alone. */
static int no_save(void *user, pb_vector_state *state)
{
    (void)user;
    (void)state;
    return 0;
}

static void no_restore(void *user, pb_vector_state *state)
{
    (void)user;
    (void)state;
}

/* Engines under test besides the baseline (SSE2 on x64): where the CPU has
 * AVX2, AVX2 on every call (wide_min_entries 1) through the host state-save
 * hooks, and the same without the save. Calls beyond one 512-entry table are
 * allowed (level_count 0): AVX2 pays only for large calls. */
typedef struct engines {
    bench wide, wide_nosave;
    int have_wide;
} engines;

static void wide_engine(bench *w, int (*save)(void *, pb_vector_state *), void (*restore)(void *, pb_vector_state *))
{
    bench_init(w, OUT_BYTES);
    w->rctx.vector_save = save;
    w->rctx.vector_restore = restore;
    w->cfg.wide_min_entries = 1;
    w->cfg.level_count = 0;
    if (pb_engine_init(&w->engine, &w->cfg) != STATUS_SUCCESS)
        abort();
}

static void engines_init(engines *g)
{
    wide_engine(&g->wide, pbsim_vector_save, pbsim_vector_restore);
    wide_engine(&g->wide_nosave, no_save, no_restore);
    g->have_wide = g->wide.engine.wide;
}

#define WIDE_CALL_ENTRIES 8192u

static DXGK_PTE *make_ptes(uint32_t count, int mixed_flags)
{
    DXGK_PTE *p = malloc(sizeof *p * count);
    uint64_t s = 1;
    uint32_t i;
    if (!p)
        abort();
    for (i = 0; i < count; i++) {
        const uint64_t r = rng(&s);
        p[i].Flags = 1u | (mixed_flags ? (r & 1u) << 3 : 0u);
        p[i].PageAddress = rng(&s) & 0xFFFFFFFFFull;
    }
    return p;
}

typedef struct upt_case {
    const char *residency;
    uint32_t calls; /* of 512 entries */
    int beyond_llc; /* bandwidth-bound: the target is the traffic ratio */
} upt_case;

/* One size and flag mix: the continuity figures (against a memcpy of the
 * output), the engine against the floor of its own instruction set, and, for
 * the working set beyond the last-level cache, the traffic ratio. Uniform flags
 * are a table mapping one allocation (the common case: the vector loop); mixed
 * flags set ReadOnly on a random half of the entries (the worst case). memcpy
 * copies the engine's output byte count between two buffers of that size,
 * timed the same way, so both work sets sit in the same cache level. */
static void bench_upt(bench *b, engines *g, const upt_case *c, int mixed_flags)
{
    const double target = mixed_flags ? 0.6 : 0.9;
    upt_arg u;
    size_t bytes;
    double t_eng, t_mem, t_floor, traffic_eng, traffic_mem;
    u.count = 512u * c->calls;
    u.per_op = 512;
    u.pte = make_ptes(u.count, mixed_flags);
    u.engine = &b->engine;
    u.out = b->out;
    upt_work(b, &u);
    bytes = (size_t)u.out_bytes;
    {
        work_fn fns[3] = {upt_work, memcpy_work, floor_sse2_work};
        void *args[3] = {&u, &bytes, &u};
        double t[3];
        time_together(b, 3, fns, args, t);
        t_eng = t[0];
        t_mem = t[1];
        t_floor = t[2];
    }
    traffic_eng = (16.0 * u.count + (double)bytes) / t_eng;
    traffic_mem = 2.0 * (double)bytes / t_mem;
    printf("UPDATE_PAGE_TABLE %s flags, %u entries (%u KiB in, %zu KiB out, %s):\n", mixed_flags ? "mixed" : "uniform",
           u.count, u.count / 64u, bytes / 1024u, c->residency);
    printf("  continuity: %.0f M PTE/s, %.2f GB/s written; memcpy of the same %zu bytes %.2f GB/s; ratio %.2f\n",
           u.count / t_eng / 1e6, bytes / t_eng / 1e9, bytes, bytes / t_mem / 1e9, t_mem / t_eng);
    if (c->beyond_llc)
        printf("  traffic (read + written): engine %.2f GB/s, memcpy %.2f GB/s; ratio %.2f (target >= 0.8 uniform) %s\n",
               traffic_eng / 1e9, traffic_mem / 1e9, traffic_eng / traffic_mem,
               mixed_flags ? "(mixed: no target)" : traffic_eng / traffic_mem >= 0.8 ? "MET" : "NOT MET");
    printf("  SSE2 engine %.0f M PTE/s, SSE2 floor %.0f M/s; engine/floor %.2f (target >= %.1f) %s\n",
           u.count / t_eng / 1e6, u.count / t_floor / 1e6, t_floor / t_eng, target,
           c->beyond_llc ? "(bandwidth-bound: see traffic)" : t_floor / t_eng >= target ? "MET" : "NOT MET");
    if (!c->beyond_llc)
        print_loop_split(b, &u, "SSE2", 0, floor_sse2_work, mixed_flags);
#if defined(__x86_64__)
    if (g->have_wide) { /* calls of WIDE_CALL_ENTRIES, where the engine would choose AVX2 */
        double t_wide, t_loops, t_wfloor;
        upt_arg nosave;
        u.per_op = WIDE_CALL_ENTRIES;
        u.engine = &g->wide.engine;
        nosave = u;
        nosave.engine = &g->wide_nosave.engine;
        {
            work_fn fns[3] = {upt_work, upt_work, floor_avx2_work};
            void *args[3] = {&u, &nosave, &u};
            double t[3];
            time_together(b, 3, fns, args, t);
            t_wide = t[0];
            t_loops = t[1];
            t_wfloor = t[2];
        }
        printf("  AVX2 engine, %u-entry calls: %.0f M PTE/s with the host state save per call (%.0f M PTE/s loops "
               "alone), AVX2 floor %.0f M/s; engine/floor %.2f (loops alone %.2f) (target >= %.1f) %s; "
               "traffic ratio %.2f\n",
               WIDE_CALL_ENTRIES, u.count / t_wide / 1e6, u.count / t_loops / 1e6, u.count / t_wfloor / 1e6,
               t_wfloor / t_wide, t_wfloor / t_loops, target,
               c->beyond_llc ? "(bandwidth-bound: see traffic)" : t_wfloor / t_wide >= target ? "MET" : "NOT MET",
               (16.0 * u.count + (double)bytes) / t_wide / traffic_mem);
        if (!c->beyond_llc)
            print_loop_split(b, &u, "AVX2", 1, floor_avx2_work, mixed_flags);
    }
#endif
    (void)g;
    free(u.pte);
}

/* Smallest call (entries, powers of two) from which the AVX2 engine, paying a
 * state save and restore per call, beats the SSE2 one on every larger size
 * measured: the break-even for pb_config.wide_min_entries. Figures are best
 * rounds (time_together). */
static void bench_wide_threshold(bench *b, engines *g)
{
    uint32_t n, best = 0;
    double t_save;
    pb_vector_state st;
    DXGK_PTE *pte = make_ptes(16384u, 0);
    if (!g->have_wide) {
        printf("AVX2 threshold: no AVX2 on this CPU; the engine stays on SSE2\n");
        free(pte);
        return;
    }
    {
        double t0 = now();
        uint32_t k;
        for (k = 0; k < 200000u; k++) {
            pbsim_vector_save(NULL, &st);
            pbsim_vector_restore(NULL, &st);
        }
        t_save = (now() - t0) / 200000.0;
    }
    printf("AVX2 threshold: host state save + restore (XSAVE/XRSTOR of x87, SSE, AVX) %.0f ns per call\n", t_save * 1e9);
    /* Calls beyond one 512-entry table: no table-size limit for this part. */
    b->engine.cfg.level_count = 0;
    printf("  entries per call:");
    for (n = 32; n <= 16384u; n *= 2u)
        printf(" %6u", n);
    printf("\n  AVX2/SSE2 time:  ");
    for (n = 32; n <= 16384u; n *= 2u) {
        upt_arg u, w;
        double t_sse, t_wide;
        u.count = n;
        u.per_op = n;
        u.pte = pte;
        u.out = b->out;
        u.engine = &b->engine;
        w = u;
        w.engine = &g->wide.engine;
        {
            work_fn fns[2] = {upt_work, upt_work};
            void *args[2] = {&u, &w};
            double t[2];
            time_together(b, 2, fns, args, t);
            t_sse = t[0];
            t_wide = t[1];
        }
        printf(" %6.2f", t_wide / t_sse);
        if (t_wide >= t_sse)
            best = 0;
        else if (!best)
            best = n;
    }
    if (best)
        printf("\n  AVX2 pays from %u entries per call with the host save (default wide_min_entries %u; a kernel "
               "save costs more, so a driver measures with its own hook)\n",
               best, PB_WIDE_MIN_ENTRIES_DEFAULT);
    else
        printf("\n  AVX2 never paid for its state save here (default wide_min_entries %u)\n",
               PB_WIDE_MIN_ENTRIES_DEFAULT);
    b->engine.cfg.level_count = b->cfg.level_count;
    free(pte);
}

/* ---- MDL run detection ---- */

typedef struct run_arg {
    PFN_NUMBER *pfn;
    size_t n;
} run_arg;

static uint64_t run_work(bench *b, void *arg)
{
    run_arg *r = arg;
    pb_run_scan s;
    uint64_t runs = 0;
    (void)b;
    /* The engine's TRANSFER scan: one pb_run_scan_next per run (cap = the whole array). */
    pb_run_scan_init(&s, r->pfn, r->n, 0);
    while (pb_run_scan_next(&s, r->n))
        runs++;
    return runs;
}

static void make_mdl_pages(PFN_NUMBER *pfn, size_t n, unsigned max_run, uint64_t seed)
{
    size_t i = 0;
    uint64_t s = seed;
    while (i < n) {
        size_t run = max_run ? 1u + rng(&s) % max_run : n, k;
        PFN_NUMBER base = (PFN_NUMBER)(rng(&s) & 0xFFFFFFFu);
        for (k = 0; k < run && i < n; k++)
            pfn[i++] = base + k;
    }
}

static void bench_runs(bench *b)
{
    static const unsigned shapes[] = {1, 8, 64, 0};
    run_arg r;
    size_t bytes;
    double t_mem;
    unsigned k;
    r.n = 1u << 20;
    r.pfn = malloc(sizeof *r.pfn * r.n);
    bytes = sizeof *r.pfn * r.n;
    t_mem = time_per_call(b, memcpy_work, &bytes);
    for (k = 0; k < 4; k++) {
        double t;
        make_mdl_pages(r.pfn, r.n, shapes[k], 9 + k);
        t = time_per_call(b, run_work, &r);
        printf("MDL run detection, %s: %.2f G pages/s (target >= 0.5); memcpy of the PFN array %.2f G pages/s; "
               "ratio %.2f\n",
               shapes[k] == 0 ? "contiguous" : shapes[k] == 1 ? "fully scattered" : shapes[k] == 8 ? "runs 1-8" : "runs 1-64",
               r.n / t / 1e9, r.n / t_mem / 1e9, t_mem / t);
    }
    free(r.pfn);
}

/* ---- TRANSFER encode ---- */

typedef struct xfer_arg {
    MDL *mdl;
    uint32_t pages;
    uint64_t out_bytes;
} xfer_arg;

static uint64_t xfer_work(bench *b, void *arg)
{
    xfer_arg *x = arg;
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof a);
    a.Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)0;
    a.Transfer.TransferSize = (SIZE_T)x->pages * 4096u;
    a.Transfer.Source.pMdl = x->mdl;
    a.Transfer.Destination.SegmentId = 1;
    a.Transfer.Flags.Value = 0x18;
    a.pDmaBuffer = b->out;
    a.DmaSize = OUT_BYTES;
    if (pb_build_paging_buffer(&b->engine, &a) != STATUS_SUCCESS)
        abort();
    x->out_bytes = (uint64_t)((uint8_t *)a.pDmaBuffer - b->out);
    return x->out_bytes;
}

static void bench_transfer(bench *b)
{
    static const unsigned shapes[] = {1, 4, 0};
    xfer_arg x;
    unsigned k;
    x.pages = 64u * 1024u; /* 256 MiB of system memory per call */
    x.mdl = malloc(sizeof(MDL) + sizeof(PFN_NUMBER) * x.pages);
    memset(x.mdl, 0, sizeof(MDL));
    x.mdl->ByteCount = x.pages * 4096u;
    for (k = 0; k < 3; k++) {
        double t, t_mem;
        size_t bytes;
        make_mdl_pages(MmGetMdlPfnArray(x.mdl), x.pages, shapes[k], 77 + k);
        xfer_work(b, &x);
        bytes = (size_t)x.out_bytes;
        t = time_per_call(b, xfer_work, &x);
        t_mem = time_per_call(b, memcpy_work, &bytes);
        printf("TRANSFER encode, %s MDL: %.1f M pages/s (%.2f GB of data described per ms), %llu packet bytes; "
               "memcpy of those bytes %.2f GB/s, encode %.2f GB/s\n",
               shapes[k] == 0 ? "contiguous" : shapes[k] == 1 ? "fully scattered" : "runs 1-4", x.pages / t / 1e6,
               x.pages * 4096.0 / t / 1e12, (unsigned long long)x.out_bytes, bytes / t_mem / 1e9, bytes / t / 1e9);
    }
    free(x.mdl);
}

/* ---- multipass overhead ---- */

static uint64_t total_bytes(bench *b, DXGKARG_BUILDPAGINGBUFFER *a, uint32_t buffer, uint32_t *passes)
{
    uint64_t total = 0;
    NTSTATUS st;
    *passes = 0;
    a->MultipassOffset = 0;
    do {
        a->pDmaBuffer = b->out;
        a->DmaSize = buffer;
        st = pb_build_paging_buffer(&b->engine, a);
        total += (uint64_t)((uint8_t *)a->pDmaBuffer - b->out);
        (*passes)++;
    } while (st == STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER);
    if (st != STATUS_SUCCESS)
        abort();
    return total;
}

/* Per-call cost of a small operation, where the dispatch through the generated
 * table is a visible part: FLUSH_TLB through pb_build_paging_buffer against the
 * same two packets (BARRIER + TLB_INVAL, padded to submit_align) written by the
 * backend directly. The ratio is the engine's per-call overhead. */
#define CALLS_PER_SAMPLE 64u /* amortises the clock read of each sample */

static uint64_t flush_engine_once(bench *b)
{
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof a);
    a.Operation = DXGK_OPERATION_FLUSH_TLB;
    a.pDmaBuffer = b->out;
    a.DmaSize = 4096;
    a.FlushTlb.StartVirtualAddress = 0x1000;
    a.FlushTlb.EndVirtualAddress = 0x2000;
    if (pb_build_paging_buffer(&b->engine, &a) != STATUS_SUCCESS)
        exit(1);
    return (uint64_t)((uint8_t *)a.pDmaBuffer - b->out);
}

static uint64_t flush_direct_once(bench *b)
{
    const pb_backend *be = &b->cfg.backend;
    pb_cursor c;
    pb_loc root;
    uint32_t used;
    c.pos = b->out;
    c.end = b->out + 4096;
    c.seq = 0;
    root.space = 0;
    root.addr = 0;
    be->ops->barrier(be->ctx, &c);
    be->ops->tlb_inval(be->ctx, &c, root, 0x1000, 0x2000);
    used = (uint32_t)(c.pos - b->out);
    if (used & (be->submit_align - 1u))
        be->ops->pad(be->ctx, &c, be->submit_align - (used & (be->submit_align - 1u)));
    return (uint64_t)(c.pos - b->out);
}

static uint64_t flush_engine(bench *b, void *arg)
{
    uint64_t sum = 0;
    unsigned i;
    (void)arg;
    for (i = 0; i < CALLS_PER_SAMPLE; i++)
        sum += flush_engine_once(b);
    return sum;
}

static uint64_t flush_direct(bench *b, void *arg)
{
    uint64_t sum = 0;
    unsigned i;
    (void)arg;
    for (i = 0; i < CALLS_PER_SAMPLE; i++)
        sum += flush_direct_once(b);
    return sum;
}

static void bench_calls(bench *b)
{
    work_fn fn[2] = {flush_engine, flush_direct};
    void *arg[2] = {NULL, NULL};
    double best[2];
    time_together(b, 2, fn, arg, best);
    printf("small call, FLUSH_TLB: engine (generated dispatch table) %.1f ns/call, the same packets written by the "
           "backend directly %.1f ns/call; ratio %.2f\n",
           best[0] * 1e9 / CALLS_PER_SAMPLE, best[1] * 1e9 / CALLS_PER_SAMPLE, best[0] / best[1]);
}

static void bench_multipass(void)
{
    static const uint32_t buffers[] = {4096u, 16384u, 65536u};
    DXGKARG_BUILDPAGINGBUFFER a;
    DXGK_PTE *pte = malloc(sizeof *pte * 4096u);
    MDL *mdl = malloc(sizeof(MDL) + sizeof(PFN_NUMBER) * 8192u);
    uint64_t s = 3;
    uint32_t i, k, passes;
    for (i = 0; i < 4096u; i++) {
        pte[i].Flags = 1;
        pte[i].PageAddress = rng(&s) & 0xFFFFFFFull;
    }
    memset(mdl, 0, sizeof(MDL));
    mdl->ByteCount = 8192u * 4096u;
    make_mdl_pages(MmGetMdlPfnArray(mdl), 8192u, 4, 5);
    for (k = 0; k < 3; k++) {
        bench b;
        uint64_t single, multi;
        bench_init(&b, buffers[k]);
        b.out = aligned_alloc(4096, OUT_BYTES);
        memset(&a, 0, sizeof a);
        a.Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)11;
        a.UpdatePageTable.UpdateMode = (DXGK_PAGETABLEUPDATEMODE)2;
        a.UpdatePageTable.PageTableAddress.GpuPhysical.SegmentId = 1;
        a.UpdatePageTable.NumPageTableEntries = 4096;
        a.UpdatePageTable.pPageTableEntries = pte;
        b.engine.cfg.level_count = 0; /* 4096 entries: no 9-bit table index limit here */
        single = total_bytes(&b, &a, OUT_BYTES, &passes);
        multi = total_bytes(&b, &a, buffers[k], &passes);
        printf("multipass overhead, UPDATE_PAGE_TABLE 4096 scattered PTEs, %u-byte buffers: %u passes, %llu vs %llu "
               "bytes, ratio %.4f (target <= 1.02)\n",
               buffers[k], passes, (unsigned long long)multi, (unsigned long long)single, (double)multi / single);
        memset(&a, 0, sizeof a);
        a.Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)0;
        a.Transfer.TransferSize = 8192u * 4096u;
        a.Transfer.Source.pMdl = mdl;
        a.Transfer.Destination.SegmentId = 1;
        a.Transfer.Flags.Value = 0x18;
        single = total_bytes(&b, &a, OUT_BYTES, &passes);
        multi = total_bytes(&b, &a, buffers[k], &passes);
        printf("multipass overhead, TRANSFER 8192 pages in runs of 1-4, %u-byte buffers: %u passes, %llu vs %llu "
               "bytes, ratio %.4f (target <= 1.02)\n",
               buffers[k], passes, (unsigned long long)multi, (unsigned long long)single, (double)multi / single);
        free(b.out);
    }
    free(pte);
    free(mdl);
}

/* Optional argument: run only the sections whose name contains it (upt, runs,
 * transfer, multipass); no argument runs all of them. */
static int want(int argc, char **argv, const char *section)
{
    return argc < 2 || strstr(section, argv[1]) != NULL;
}

int main(int argc, char **argv)
{
    static bench b;
    bench_init(&b, OUT_BYTES);
    b.out = aligned_alloc(4096, UPT_OUT_BYTES);
    b.copy_src = aligned_alloc(4096, UPT_OUT_BYTES);
    b.copy_dst = aligned_alloc(4096, UPT_OUT_BYTES);
    memset(b.copy_src, 1, UPT_OUT_BYTES);
    memset(b.copy_dst, 2, UPT_OUT_BYTES);
    memset(b.out, 0, UPT_OUT_BYTES);
    printf("bench_runtime: reference backend, submit_align %u, max_copy %u\n", b.cfg.backend.submit_align,
           b.cfg.backend.max_copy);
    if (want(argc, argv, "upt")) {
        static const upt_case cases[] = {
            {"L2-resident", 16, 0}, {"L3-resident", 1024, 0}, {"beyond the last-level cache", 8192, 1}};
        static engines g;
        unsigned k;
        int mixed;
        engines_init(&g);
        printf("CPU: AVX2 %s; per call: 512 entries (one leaf table), each call's output packed after the last\n",
               g.have_wide ? "yes" : "no");
        for (mixed = 0; mixed <= 1; mixed++)
            for (k = 0; k < sizeof cases / sizeof cases[0]; k++)
                bench_upt(&b, &g, &cases[k], mixed);
        bench_wide_threshold(&b, &g);
    }
    if (want(argc, argv, "runs"))
        bench_runs(&b);
    if (want(argc, argv, "transfer"))
        bench_transfer(&b);
    if (want(argc, argv, "calls"))
        bench_calls(&b);
    if (want(argc, argv, "multipass"))
        bench_multipass();
    free(b.out);
    free(b.copy_src);
    free(b.copy_dst);
    return 0;
}
