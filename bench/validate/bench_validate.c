/* Cost of the generated validator per call beside one DxgkDdiBuildPagingBuffer
 * encode of the same arguments (the reference backend), measured in the
 * same run, alternating, best of several rounds. Target: under 5 %.
 * Not a test. The encode includes the engine's own (inlined) validator, so
 * the ratios are of the validator to the whole DDI call. Two figures: the
 * exported function called from another translation unit, and the body
 * inlined into its caller as the paging runtime compiles it. */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ddi_paging.h"
#include "ddi_validate.h"
#include "inline_validate.h"
#include "rpb_backend.h"

#define ROUNDS 9
#define ROUND_SECONDS 0.05
#define BATCH 256

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int no_cpu(void *user, void *va, const uint64_t *v, uint32_t n)
{
    (void)user, (void)va, (void)v, (void)n;
    return -1;
}

typedef struct bench {
    rpb_backend_ctx rctx;
    pb_config cfg;
    pb_engine engine;
    DXGKARG_BUILDPAGINGBUFFER args, call;
    uint8_t *dma;
    volatile uint64_t sink;
} bench;

static uint64_t encode(bench *b)
{
    /* the engine writes back only pDmaBuffer and MultipassOffset */
    b->call.pDmaBuffer = b->dma;
    b->call.MultipassOffset = 0;
    NTSTATUS s = pb_build_paging_buffer(&b->engine, &b->call);
    return (uint64_t)s + (uint64_t)((uint8_t *)b->call.pDmaBuffer - b->dma);
}

static uint64_t validate(bench *b)
{
    ddi_violation v;
    return ddi_validate_DXGKARG_BUILDPAGINGBUFFER_in(&b->call, &v, DDI_VALIDATE_STOP_AT_FIRST);
}

/* The timing loop with an empty body: subtracted from both figures. */
static uint64_t nothing(bench *b)
{
    return (uint64_t)b->call.DmaSize;
}

typedef uint64_t (*work_fn)(bench *b);

static double per_call(bench *b, work_fn fn)
{
    double t0 = now(), t;
    uint64_t calls = 0;
    do {
        for (int i = 0; i < BATCH; i++)
            b->sink += fn(b);
        calls += BATCH;
        t = now() - t0;
    } while (t < ROUND_SECONDS);
    return t / (double)calls;
}

static void measure(bench *b, const char *what)
{
    work_fn fns[3] = {encode, validate, nothing};
    b->call = b->args;
    double best[3] = {1e30, 1e30, 1e30};
    if (encode(b) != 0 && b->call.pDmaBuffer == b->args.pDmaBuffer) {
        fprintf(stderr, "%s: the engine refused the arguments\n", what);
        exit(1);
    }
    if (validate(b) != 0) {
        fprintf(stderr, "%s: the validator refused the arguments\n", what);
        exit(1);
    }
    for (int r = 0; r < ROUNDS; r++)
        for (int i = 0; i < 3; i++) {
            double t = per_call(b, fns[i]);
            if (t < best[i])
                best[i] = t;
        }
    double validator = best[1] - best[2], call = best[0] - best[2];
    double inlined = bench_inline_validator_ns(&b->args, ROUNDS, ROUND_SECONDS) * 1e-9;
    printf("%-26s encode %7.1f ns | validator called %5.2f ns = %5.2f %% | inlined (as the engine has it) "
           "%5.2f ns = %5.2f %%  (target < 5 %%)\n",
           what, call * 1e9, validator * 1e9, 100.0 * validator / call, inlined * 1e9, 100.0 * inlined / call);
}

int main(void)
{
    static bench b;
    b.rctx.cpu_write64 = no_cpu;
    rpb_backend_init(&b.cfg.backend, &b.rctx);
    b.cfg.paging_buffer_size = 1u << 20;
    b.cfg.segment_count = 1;
    b.cfg.segments[1].size = 1ull << 40;
    b.cfg.level_count = 2;
    b.cfg.index_bits[0] = b.cfg.index_bits[1] = 9;
    if (pb_engine_init(&b.engine, &b.cfg) != STATUS_SUCCESS) {
        fprintf(stderr, "engine configuration rejected\n");
        return 1;
    }
    b.dma = aligned_alloc(4096, 1u << 20);
    if (!b.dma)
        return 1;
    memset(&b.args, 0, sizeof b.args);
    b.args.pDmaBuffer = b.dma;
    b.args.DmaSize = 1u << 20;
    b.args.Operation = DXGK_OPERATION_FILL;
    b.args.Fill.FillSize = 64 * 1024;
    b.args.Fill.FillPattern = 0xA5A5A5A5u;
    b.args.Fill.Destination.SegmentId = 1;
    measure(&b, "FILL 64 KiB");
    b.args.Fill.FillSize = 4096;
    measure(&b, "FILL 4 KiB");
    memset(&b.args, 0, sizeof b.args);
    b.args.pDmaBuffer = b.dma;
    b.args.DmaSize = 1u << 20;
    b.args.Operation = DXGK_OPERATION_DISCARD_CONTENT;
    b.args.DiscardContent.SegmentId = 1;
    b.args.DiscardContent.Flags.AllocationIsIdle = 1;
    measure(&b, "DISCARD_CONTENT");
    memset(&b.args, 0, sizeof b.args);
    b.args.pDmaBuffer = b.dma;
    b.args.DmaSize = 1u << 20;
    b.args.Operation = DXGK_OPERATION_TRANSFER;
    b.args.Transfer.TransferSize = 1u << 20;
    b.args.Transfer.Source.SegmentId = 1;
    b.args.Transfer.Destination.SegmentId = 1;
    b.args.Transfer.Destination.SegmentAddress.QuadPart = 1ll << 30;
    measure(&b, "TRANSFER 1 MiB seg->seg");
    free(b.dma);
    return 0;
}
