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
#include <cpuid.h>
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

static void time_rounds(bench *b, unsigned rounds, unsigned k, work_fn *fn, void **arg, double *best)
{
    unsigned r, i;
    for (i = 0; i < k; i++)
        best[i] = 1e30;
    for (r = 0; r < rounds; r++)
        for (i = 0; i < k; i++) {
            const double t = time_per_call_for(b, fn[i], arg[i], ROUND_SECONDS);
            if (t < best[i])
                best[i] = t;
        }
}

static void time_together(bench *b, unsigned k, work_fn *fn, void **arg, double *best)
{
    time_rounds(b, ROUNDS, k, fn, arg, best);
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
    uint8_t *out;          /* the paging buffer: room for the engine's whole output */
    uint32_t buffer_bytes; /* its size: DmaSize of the first call, which then shrinks */
    uint64_t out_bytes;
    int floor_streams;     /* the floor loops store with non-temporal stores */
} upt_arg;

/* count / per_op UPDATE_PAGE_TABLE calls packed one after the other into one
 * paging buffer, DmaSize shrinking from call to call as VidMm passes it. */
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
        a.DmaSize = u->buffer_bytes - (uint32_t)(p - u->out); /* the buffer holds every call's output */
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
#if defined(__x86_64__)
static inline __attribute__((always_inline)) void floor_store_sse2(__m128i *d, __m128i v, const int stream)
{
    if (stream)
        _mm_stream_si128(d, v);
    else
        _mm_storeu_si128(d, v);
}

__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void
floor_store_avx2(__m256i *d, __m256i v, const int stream)
{
    if (stream)
        _mm256_stream_si256(d, v);
    else
        _mm256_storeu_si256(d, v);
}
#endif

/* With stream set, the same loop with non-temporal stores (the output is
 * 4 KiB-aligned): the floor of the engine's streaming path. */
static inline __attribute__((always_inline)) uint64_t floor_sse2(const upt_arg *u, const int stream)
{
    uint64_t *o = (uint64_t *)u->out;
    uint32_t i = 0;
#if defined(__x86_64__)
    for (; i + 4u <= u->count; i += 4u) {
        const __m128i *q = (const __m128i *)(const void *)(u->pte + i);
        __m128i *d = (__m128i *)(void *)(o + i);
        const __m128i v0 = _mm_unpackhi_epi64(_mm_loadu_si128(q), _mm_loadu_si128(q + 1)),
                      v1 = _mm_unpackhi_epi64(_mm_loadu_si128(q + 2), _mm_loadu_si128(q + 3));
        floor_store_sse2(d, v0, stream);
        floor_store_sse2(d + 1, v1, stream);
    }
    if (stream)
        _mm_sfence();
#endif
    (void)stream;
    for (; i < u->count; i++)
        o[i] = u->pte[i].PageAddress;
    return o[u->count / 2u];
}

static uint64_t floor_sse2_work(bench *b, void *arg)
{
    const upt_arg *u = arg;
    (void)b;
    return u->floor_streams ? floor_sse2(u, 1) : floor_sse2(u, 0);
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) uint64_t floor_avx2(const upt_arg *u,
                                                                                                  const int stream)
{
    uint64_t *o = (uint64_t *)u->out;
    uint32_t i = 0;
    for (; i + 8u <= u->count; i += 8u) {
        const __m256i *q = (const __m256i *)(const void *)(u->pte + i);
        __m256i *d = (__m256i *)(void *)(o + i);
        const __m256i v0 = _mm256_permute4x64_epi64(
                          _mm256_unpackhi_epi64(_mm256_loadu_si256(q), _mm256_loadu_si256(q + 1)), 0xD8),
                      v1 = _mm256_permute4x64_epi64(
                          _mm256_unpackhi_epi64(_mm256_loadu_si256(q + 2), _mm256_loadu_si256(q + 3)), 0xD8);
        floor_store_avx2(d, v0, stream);
        floor_store_avx2(d + 1, v1, stream);
    }
    if (stream)
        _mm_sfence();
    for (; i < u->count; i++)
        o[i] = u->pte[i].PageAddress;
    return o[u->count / 2u];
}

__attribute__((target("avx2"))) static uint64_t floor_avx2_work(bench *b, void *arg)
{
    const upt_arg *u = arg;
    (void)b;
    return u->floor_streams ? floor_avx2(u, 1) : floor_avx2(u, 0);
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
    if (l->pc.stream)
        pb_pte_stream_fence(); /* as the engine does before a streaming call returns */
    return o[u->count / 2u];
}

static loop_arg loop_of(const bench *b, const upt_arg *u, uint32_t wide, uint32_t stream, int fused)
{
    loop_arg l;
    memset(&l, 0, sizeof l);
    l.u = u;
    l.fmt = b->cfg.backend.pte_split;
    l.pc.wide = wide;
    l.pc.stream = stream;
    l.pc.flags_uniform = !fused;
    l.fused = fused;
    return l;
}

/* Prints, for one instruction set, the fused loop alone and (uniform flags)
 * the encode alone against that set's floor, timed with the floor; with
 * stream, the loops' non-temporal form against the floor's. */
static void print_loop_split(bench *b, const upt_arg *u, const char *set, uint32_t wide, uint32_t stream,
                             work_fn floor_fn, int mixed_flags)
{
    loop_arg fused = loop_of(b, u, wide, stream, 1), alone = loop_of(b, u, wide, stream, 0);
    upt_arg floor = *u;
    work_fn fns[3] = {loop_work, floor_fn, loop_work};
    void *args[3] = {&fused, &floor, &alone};
    floor.floor_streams = (int)stream;
    double t[3];
    time_together(b, mixed_flags ? 2u : 3u, fns, args, t);
    printf("    where the %s time goes (%u-entry chunks, no call around them%s): floor %.0f M/s; the fused "
           "check-and-encode loop %.2f of the floor",
           set, u->per_op, stream ? ", non-temporal stores in loops and floor" : "", u->count / t[1] / 1e6,
           t[1] / t[0]);
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

/* An engine configured as t's, filling paging buffers of buffer_bytes, with a
 * stream threshold: 0 the engine's default, 1 always, PB_STREAM_NEVER never. */
static void engine_like(const bench *t, pb_engine *e, uint32_t buffer_bytes, uint32_t stream_min)
{
    pb_config cfg = t->cfg;
    cfg.paging_buffer_size = buffer_bytes;
    cfg.stream_min_bytes = stream_min;
    if (pb_engine_init(e, &cfg) != STATUS_SUCCESS)
        abort();
}

/* The paging buffer u's calls fill: their output with streaming's payload
 * pads, rounded up to 64 KiB. Measured with calls into a buffer of `room`. */
static uint32_t paging_buffer_for(bench *b, const bench *t, upt_arg u, uint32_t room)
{
    pb_engine streaming;
    engine_like(t, &streaming, room, 1);
    u.engine = &streaming;
    u.buffer_bytes = room;
    upt_work(b, &u);
    return (uint32_t)((u.out_bytes + 0xFFFFu) & ~(uint64_t)0xFFFFu);
}

/* Where the engine's payload stores go for u's paging buffer, and what
 * streaming costs or saves there: the engine streaming against the engine
 * through the cache, same calls, timed together (with, AVX2, the state save). */
static void print_stream_choice(bench *b, const bench *t, const upt_arg *u, const char *set)
{
    pb_engine dflt, on, off;
    upt_arg a_on = *u, a_off = *u;
    work_fn fns[2] = {upt_work, upt_work};
    void *args[2] = {&a_on, &a_off};
    double tt[2];
    engine_like(t, &dflt, u->buffer_bytes, 0);
    engine_like(t, &on, u->buffer_bytes, 1);
    engine_like(t, &off, u->buffer_bytes, PB_STREAM_NEVER);
    a_on.engine = &on;
    a_off.engine = &off;
    time_together(b, 2, fns, args, tt);
    printf("    %s payload stores, this %u KiB paging buffer: %s (threshold %u KiB); time streaming / through the "
           "cache %.2f\n",
           set, u->buffer_bytes >> 10, dflt.stream ? "non-temporal" : "through the cache", dflt.stream_min >> 10,
           tt[0] / tt[1]);
}

/* One size and flag mix: the continuity figures (against a memcpy of the
 * output), the engine against the floor of its own instruction set, and, for
 * the working set beyond the last-level cache, the traffic ratio. Uniform flags
 * are a table mapping one allocation (the common case: the vector loop); mixed
 * flags set ReadOnly on a random half of the entries (the worst case). memcpy
 * copies the engine's output byte count between two buffers of that size,
 * timed the same way, so both work sets sit in the same cache level. Every
 * engine fills one paging buffer of the size the calls need, and decides from
 * it, as it would in a driver, whether its payloads go around the cache. */
static void bench_upt(bench *b, engines *g, const upt_case *c, int mixed_flags, uint32_t room)
{
    const double target = mixed_flags ? 0.6 : 0.9;
    pb_engine engine, wide, wide_nosave;
    upt_arg u;
    size_t bytes;
    double t_eng, t_mem, t_floor, traffic_eng, traffic_mem;
    memset(&u, 0, sizeof u);
    u.count = 512u * c->calls;
    u.per_op = 512;
    u.pte = make_ptes(u.count, mixed_flags);
    u.out = b->out;
    u.buffer_bytes = paging_buffer_for(b, b, u, room);
    engine_like(b, &engine, u.buffer_bytes, 0);
    u.engine = &engine;
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
    print_loop_split(b, &u, "SSE2", 0, 0, floor_sse2_work, mixed_flags);
    if (c->beyond_llc)
        print_loop_split(b, &u, "SSE2", 0, 1, floor_sse2_work, mixed_flags);
    print_stream_choice(b, b, &u, "SSE2");
#if defined(__x86_64__)
    if (g->have_wide) { /* calls of WIDE_CALL_ENTRIES, where the engine would choose AVX2 */
        double t_wide, t_loops, t_wfloor;
        upt_arg nosave;
        u.per_op = WIDE_CALL_ENTRIES;
        engine_like(&g->wide, &wide, u.buffer_bytes, 0);
        engine_like(&g->wide_nosave, &wide_nosave, u.buffer_bytes, 0);
        u.engine = &wide;
        nosave = u;
        nosave.engine = &wide_nosave;
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
        print_loop_split(b, &u, "AVX2", 1, 0, floor_avx2_work, mixed_flags);
        if (c->beyond_llc)
            print_loop_split(b, &u, "AVX2", 1, 1, floor_avx2_work, mixed_flags);
        print_stream_choice(b, &g->wide, &u, "AVX2");
    }
#endif
    (void)g;
    free(u.pte);
}

/* The paging buffer size from which non-temporal payload stores pay on this
 * host: uniform-flag UPDATE_PAGE_TABLE calls (512 entries SSE2, 8192 AVX2
 * with the state save) filling one buffer, streaming against through the
 * cache, timed together, at sizes around the last-level cache. Prints the
 * smallest size measured from which streaming was faster at every larger
 * size, per instruction set, beside the engine's default threshold. */
#define SWEEP_POINTS 9u
#define SWEEP_ROUNDS 15u /* two close figures per size, on a shared machine */

static const uint32_t k_sweep_sixteenths[SWEEP_POINTS] = {1, 2, 4, 6, 8, 12, 16, 24, 32}; /* of the LLC */

/* Sizes in sixteenths of the LLC (of 32 MiB when the CPU lists none), up to
 * 256 MiB: the inputs are twice as large. */
static uint64_t sweep_bytes(uint64_t llc, unsigned k)
{
    const uint64_t bytes = (llc ? llc : 32u << 20) * k_sweep_sixteenths[k] / 16u;
    return bytes < (256u << 20) ? bytes : 256u << 20;
}

static void bench_stream_threshold(bench *b, engines *g, uint64_t llc, uint32_t room)
{
    const uint32_t max_count = (uint32_t)(sweep_bytes(llc, SWEEP_POINTS - 1u) / 8u);
    const int sets = 1 + g->have_wide;
    DXGK_PTE *pte = make_ptes(max_count, 0);
    uint64_t pays[2] = {0, 0};
    pb_engine dflt;
    unsigned k;
    int set;
    printf("stream threshold: time with non-temporal payload stores / through the cache, one paging buffer per "
           "size, uniform flags (SSE2: 512-entry calls; AVX2: %u-entry calls with the state save), best of %u\n",
           WIDE_CALL_ENTRIES, SWEEP_ROUNDS);
    printf("  buffer (KiB)  / LLC   SSE2   AVX2\n");
    for (k = 0; k < SWEEP_POINTS; k++) {
        const uint64_t want = sweep_bytes(llc, k);
        printf("  %12llu  %5.2f", (unsigned long long)(want >> 10), llc ? (double)want / (double)llc : 0.0);
        for (set = 0; set < sets; set++) {
            const bench *t = set ? &g->wide : b;
            pb_engine on, off;
            upt_arg u, u_off;
            work_fn fns[2] = {upt_work, upt_work};
            void *args[2] = {&u, &u_off};
            double tt[2];
            memset(&u, 0, sizeof u);
            u.per_op = set ? WIDE_CALL_ENTRIES : 512u;
            u.count = (uint32_t)(want / 8u) / u.per_op * u.per_op;
            u.pte = pte;
            u.out = b->out;
            u.buffer_bytes = paging_buffer_for(b, t, u, room);
            engine_like(t, &on, u.buffer_bytes, 1);
            engine_like(t, &off, u.buffer_bytes, PB_STREAM_NEVER);
            u.engine = &on;
            u_off = u;
            u_off.engine = &off;
            time_rounds(b, SWEEP_ROUNDS, 2, fns, args, tt);
            printf("  %5.2f", tt[0] / tt[1]);
            if (tt[0] >= tt[1])
                pays[set] = 0;
            else if (!pays[set])
                pays[set] = want;
        }
        printf("\n");
    }
    engine_like(b, &dflt, OUT_BYTES, 0);
    for (set = 0; set < sets; set++) {
        if (pays[set])
            printf("  %s: streaming pays from %llu KiB (%.2f of the LLC) on at every larger size measured\n",
                   set ? "AVX2" : "SSE2", (unsigned long long)(pays[set] >> 10),
                   llc ? (double)pays[set] / (double)llc : 0.0);
        else
            printf("  %s: streaming never paid at every larger size measured\n", set ? "AVX2" : "SSE2");
    }
    if (dflt.stream_min == PB_STREAM_NEVER)
        printf("  the engine's default: never (the CPU lists no cache)\n");
    else
        printf("  the engine's default: paging buffers from %u KiB (%u/%u of the LLC) stream\n", dflt.stream_min >> 10,
               PB_STREAM_LLC_SHARE_NUM, PB_STREAM_LLC_SHARE_DEN);
    free(pte);
}

/* The host at the top of every run: vendor, model, the caches the engine's
 * stream threshold is derived from. */
static uint64_t print_host(void)
{
    uint64_t llc = 0;
    uint32_t level;
#if defined(__x86_64__)
    unsigned r[12], eax, ebx, ecx, edx, family, model, stepping;
    char vendor[13], brand[49];
    __cpuid(0, eax, ebx, ecx, edx);
    memcpy(vendor, &ebx, 4);
    memcpy(vendor + 4, &edx, 4);
    memcpy(vendor + 8, &ecx, 4);
    vendor[12] = 0;
    __cpuid(1, eax, ebx, ecx, edx);
    stepping = eax & 0xFu;
    family = (eax >> 8) & 0xFu;
    model = (eax >> 4) & 0xFu;
    if (family == 0xFu)
        family += (eax >> 20) & 0xFFu;
    if (family >= 6u)
        model |= ((eax >> 16) & 0xFu) << 4;
    brand[0] = 0;
    __cpuid(0x80000000u, eax, ebx, ecx, edx);
    if (eax >= 0x80000004u) {
        for (level = 0; level < 3u; level++)
            __cpuid(0x80000002u + level, r[4 * level], r[4 * level + 1], r[4 * level + 2], r[4 * level + 3]);
        memcpy(brand, r, 48);
        brand[48] = 0;
    }
    printf("host: %s, family %u model %u stepping %u, \"%s\"\n", vendor, family, model, stepping, brand);
#endif
    printf("caches (CPUID, one instance each):");
    for (level = 1; level <= 3u; level++) {
        const uint64_t c = pb_cpu_cache_bytes(level);
        printf(" L%u %llu KiB", level, (unsigned long long)(c >> 10));
        if (c)
            llc = c;
    }
    printf("\n");
    return llc;
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
        memset(&u, 0, sizeof u);
        u.count = n;
        u.per_op = n;
        u.pte = pte;
        u.out = b->out;
        u.buffer_bytes = OUT_BYTES;
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

/* Optional argument: run only the sections whose name contains it (upt, which
 * includes upt-stream, stream, runs, transfer, calls, multipass); no argument
 * runs all of them. */
static int want(int argc, char **argv, const char *section)
{
    return argc < 2 || strstr(section, argv[1]) != NULL;
}

int main(int argc, char **argv)
{
    static bench b;
    static engines g;
    uint64_t llc, room;
    bench_init(&b, OUT_BYTES);
    printf("bench_runtime: reference backend, submit_align %u, max_copy %u\n", b.cfg.backend.submit_align,
           b.cfg.backend.max_copy);
    llc = print_host();
    /* b.out is the paging buffer of every UPDATE_PAGE_TABLE figure: room for
     * the largest the stream sweep fills, its headers and pads included. */
    room = sweep_bytes(llc, SWEEP_POINTS - 1u);
    room += room / 8u + (1u << 20);
    if (room < UPT_OUT_BYTES)
        room = UPT_OUT_BYTES;
    b.out = aligned_alloc(4096, room);
    b.copy_src = aligned_alloc(4096, UPT_OUT_BYTES);
    b.copy_dst = aligned_alloc(4096, UPT_OUT_BYTES);
    if (!b.out || !b.copy_src || !b.copy_dst)
        abort();
    memset(b.copy_src, 1, UPT_OUT_BYTES);
    memset(b.copy_dst, 2, UPT_OUT_BYTES);
    memset(b.out, 0, room);
    engines_init(&g);
    if (want(argc, argv, "upt")) {
        static const upt_case cases[] = {
            {"L2-resident", 16, 0}, {"L3-resident", 1024, 0}, {"beyond the last-level cache", 8192, 1}};
        unsigned k;
        int mixed;
        printf("CPU: AVX2 %s; per call: 512 entries (one leaf table), each call's output packed after the last\n",
               g.have_wide ? "yes" : "no");
        for (mixed = 0; mixed <= 1; mixed++)
            for (k = 0; k < sizeof cases / sizeof cases[0]; k++)
                bench_upt(&b, &g, &cases[k], mixed, (uint32_t)room);
        bench_wide_threshold(&b, &g);
    }
    if (want(argc, argv, "upt-stream"))
        bench_stream_threshold(&b, &g, llc, (uint32_t)room);
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
