/* Benchmark of the paging engine with the reference backend: every figure is printed
 * beside a baseline measured in the same run (memcpy of the same bytes), as a ratio. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#include "ddi_paging.h"
#include "rpb_backend.h"

#define OUT_BYTES (8u << 20)
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

static double time_per_call(bench *b, work_fn fn, void *arg)
{
    double t0 = now(), t;
    uint64_t calls = 0;
    do {
        b->sink += fn(b, arg);
        calls++;
        t = now() - t0;
    } while (t < MIN_SECONDS);
    return t / (double)calls;
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
    uint64_t out_bytes;
} upt_arg;

static uint64_t upt_work(bench *b, void *arg)
{
    upt_arg *u = arg;
    DXGKARG_BUILDPAGINGBUFFER a;
    uint8_t *p = b->out;
    uint32_t i;
    memset(&a, 0, sizeof a);
    a.Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)11;
    a.UpdatePageTable.UpdateMode = (DXGK_PAGETABLEUPDATEMODE)2;
    a.UpdatePageTable.PageTableAddress.GpuPhysical.SegmentId = 1;
    a.UpdatePageTable.NumPageTableEntries = u->per_op;
    for (i = 0; i + u->per_op <= u->count; i += u->per_op) {
        a.UpdatePageTable.pPageTableEntries = u->pte + i;
        a.pDmaBuffer = p;
        a.DmaSize = OUT_BYTES - (uint32_t)(p - b->out);
        a.MultipassOffset = 0;
        if (pb_build_paging_buffer(&b->engine, &a) != STATUS_SUCCESS)
            abort();
        p = a.pDmaBuffer;
    }
    u->out_bytes = (uint64_t)(p - b->out);
    return u->out_bytes;
}

/* The floor of any DXGK_PTE encoder: read the same 16-byte entries, write 8
 * bytes each, no encoding, no checks, in the widest loads kernel code may use
 * without saving state (SSE2 on x64). The engine cannot beat it, whatever it
 * computes. */
static uint64_t strided_work(bench *b, void *arg)
{
    upt_arg *u = arg;
    uint64_t *o = (uint64_t *)b->out;
    uint32_t i = 0;
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

/* calls UPDATE_PAGE_TABLE calls of a full 512-entry leaf table, scattered pages
 * (the literal WRITE64 path). Uniform flags are a table mapping one allocation
 * (the common case: the vector loop); mixed flags set ReadOnly on a random half
 * of the entries (the worst case: the per-entry loop). memcpy copies the
 * engine's output byte count between two buffers of that size, timed the same
 * way (repeated, so both work sets sit in the same cache level). */
static void bench_upt(bench *b, uint32_t calls, const char *residency, int mixed_flags)
{
    upt_arg u;
    uint64_t s = 1;
    uint32_t i;
    size_t bytes;
    double t_eng, t_mem, t_floor;
    u.count = 512u * calls;
    u.per_op = 512;
    u.pte = malloc(sizeof *u.pte * u.count);
    for (i = 0; i < u.count; i++) {
        const uint64_t r = rng(&s);
        u.pte[i].Flags = 1u | (mixed_flags ? (r & 1u) << 3 : 0u);
        u.pte[i].PageAddress = rng(&s) & 0xFFFFFFFFFull;
    }
    upt_work(b, &u);
    bytes = (size_t)u.out_bytes;
    t_eng = time_per_call(b, upt_work, &u);
    t_mem = time_per_call(b, memcpy_work, &bytes);
    t_floor = time_per_call(b, strided_work, &u);
    /* Second ratio, labelled apart: the floor against the same memcpy is the
     * most the first ratio can reach for any encoder (it reads 16 bytes per
     * entry where the memcpy reads 8). */
    printf("UPDATE_PAGE_TABLE PTE generation, %s flags, %u entries (%u KiB in, %zu KiB out, %s): %.0f M PTE/s, "
           "%.2f GB/s written; memcpy of the same %zu bytes %.2f GB/s; ratio %.2f (target >= 0.8); "
           "read-16-write-8 floor %.0f M/s, engine at %.2f of it; floor/memcpy ceiling %.2f\n",
           mixed_flags ? "mixed" : "uniform", u.count, u.count * 16u / 1024u, bytes / 1024u, residency,
           u.count / t_eng / 1e6, bytes / t_eng / 1e9, bytes, bytes / t_mem / 1e9, t_mem / t_eng,
           u.count / t_floor / 1e6, t_floor / t_eng, t_mem / t_floor);
    free(u.pte);
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
    b.out = aligned_alloc(4096, OUT_BYTES);
    b.copy_src = aligned_alloc(4096, OUT_BYTES);
    b.copy_dst = aligned_alloc(4096, OUT_BYTES);
    memset(b.copy_src, 1, OUT_BYTES);
    memset(b.copy_dst, 2, OUT_BYTES);
    memset(b.out, 0, OUT_BYTES);
    printf("bench_runtime: reference backend, submit_align %u, max_copy %u\n", b.cfg.backend.submit_align,
           b.cfg.backend.max_copy);
    if (want(argc, argv, "upt")) {
        bench_upt(&b, 16, "L2-resident", 0);
        bench_upt(&b, 1024, "L3-resident", 0);
        bench_upt(&b, 16, "L2-resident", 1);
        bench_upt(&b, 1024, "L3-resident", 1);
    }
    if (want(argc, argv, "runs"))
        bench_runs(&b);
    if (want(argc, argv, "transfer"))
        bench_transfer(&b);
    if (want(argc, argv, "multipass"))
        bench_multipass();
    free(b.out);
    free(b.copy_src);
    free(b.copy_dst);
    return 0;
}
