/* Host harness for refdriver: plays VidMm against the driver's
 * DxgkDdiBuildPagingBuffer, runs every DMA buffer on the reference GPU
 * simulator and compares memory with the oracle, which computes the
 * expected result from the DDI arguments alone. Exit 0 when all agree. */
#include "refdriver.h"

#include "pboracle.h"
#include "pbsim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SEG_DATA 1u
#define SEG_BASE(n) ((uint64_t)(n) << 32)
#define SEG_BYTES (256u * 1024u)
#define SYS_PFN_BASE 0x100u
#define SYS_PAGES 32u
#define BUFFER_BYTES 4096u

typedef struct world {
    pbsim_machine gpu, expected;
    pboracle_env oracle;
    refdriver_adapter *adapter;
    uint8_t dma[BUFFER_BYTES];
    unsigned calls, buffers;
} world;

static int cpu_write(void *user, void *cpu_va, const uint64_t *v, uint32_t n)
{
    return pbsim_cpu_write64(user, cpu_va, v, n);
}

static int setup(world *w)
{
    pbsim_layout l;
    refdriver_platform p;
    memset(&l, 0, sizeof l);
    l.segment_count = 1;
    l.segments[SEG_DATA].size = SEG_BYTES;
    l.sys_pfn_base = SYS_PFN_BASE;
    l.sys_pages = SYS_PAGES;
    l.root_space = SEG_DATA;
    if (pbsim_init(&w->gpu, &l) || pbsim_init(&w->expected, &l))
        return -1;
    pbsim_randomize(&w->gpu, 14);
    pbsim_copy_memory(&w->expected, &w->gpu);
    memset(&w->oracle, 0, sizeof w->oracle);
    w->oracle.m = &w->expected;
    w->oracle.cpu_owner = &w->gpu;
    w->oracle.segment_base[SEG_DATA] = SEG_BASE(SEG_DATA);
    w->oracle.dual_pte_offset = RPB_DUAL_PTE_OFFSET;

    memset(&p, 0, sizeof p);
    p.segment_count = 1;
    p.segments[SEG_DATA].base = SEG_BASE(SEG_DATA);
    p.segments[SEG_DATA].size = SEG_BYTES;
    p.paging_buffer_size = BUFFER_BYTES;
    p.cpu_write64 = cpu_write;
    p.user = &w->gpu;
    w->adapter = calloc(1, sizeof *w->adapter); /* nonpaged pool comes zeroed */
    return w->adapter && refdriver_start_adapter(w->adapter, &p) == STATUS_SUCCESS ? 0 : -1;
}

/* VidMm's loop: call, submit what was written, call again while the driver
 * says the buffer was too small (multipass). */
static NTSTATUS run(world *w, DXGKARG_BUILDPAGINGBUFFER *a)
{
    NTSTATUS st;
    a->MultipassOffset = 0;
    do {
        size_t used;
        a->pDmaBuffer = w->dma;
        a->DmaSize = sizeof w->dma;
        st = RefDdiBuildPagingBuffer((HANDLE)w->adapter, a);
        w->calls++;
        used = (size_t)((uint8_t *)a->pDmaBuffer - w->dma);
        if ((st == STATUS_SUCCESS || st == STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER) && used) {
            if (pbsim_execute(&w->gpu, w->dma, used)) {
                fprintf(stderr, "simulator: %s\n", w->gpu.error);
                return STATUS_UNSUCCESSFUL;
            }
            w->buffers++;
        }
    } while (st == STATUS_GRAPHICS_INSUFFICIENT_DMA_BUFFER && w->calls < 10000u);
    return st;
}

/* The oracle applies a (NULL: nothing happened) and memory must match. */
static int agree(world *w, const DXGKARG_BUILDPAGINGBUFFER *a, const char *what)
{
    char why[256];
    if (a && pboracle_apply(&w->oracle, a, why, sizeof why)) {
        fprintf(stderr, "%s: oracle: %s\n", what, why);
        return -1;
    }
    if (!pbsim_equal(&w->gpu, &w->expected, why, sizeof why)) {
        fprintf(stderr, "%s: simulator and oracle differ: %s\n", what, why);
        return -1;
    }
    printf("refdriver harness: %s ok (%u calls, %u buffers so far)\n", what, w->calls, w->buffers);
    return 0;
}

static int fill(world *w)
{
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof a);
    a.Operation = DXGK_OPERATION_FILL;
    a.Fill.FillSize = 3u * 4096u + 8u;
    a.Fill.FillPattern = 0xA1B2C3D4u;
    a.Fill.Destination.SegmentId = SEG_DATA;
    a.Fill.Destination.SegmentAddress.QuadPart = (LONGLONG)(SEG_BASE(SEG_DATA) + 0x1000u);
    if (run(w, &a) != STATUS_SUCCESS) {
        fprintf(stderr, "FILL failed (rule %s)\n", w->adapter->last_violation.rule_id);
        return -1;
    }
    return agree(w, &a, "FILL 3 pages + 8 bytes");
}

/* Segment to system memory through an MDL whose pages are scattered, in a
 * transfer large enough to need several DMA buffers. */
static int transfer(world *w)
{
    static const unsigned pages[] = {3, 4, 5, 9, 10, 20, 21, 22, 23, 1, 7, 30};
    const unsigned n = sizeof pages / sizeof pages[0];
    MDL *mdl = calloc(1, sizeof(MDL) + sizeof(PFN_NUMBER) * n);
    DXGKARG_BUILDPAGINGBUFFER a;
    unsigned i;
    int rc;
    if (!mdl)
        return -1;
    mdl->ByteCount = n * 4096u;
    for (i = 0; i < n; i++)
        MmGetMdlPfnArray(mdl)[i] = SYS_PFN_BASE + pages[i];
    memset(&a, 0, sizeof a);
    a.Operation = DXGK_OPERATION_TRANSFER;
    a.Transfer.TransferSize = n * 4096u;
    a.Transfer.Source.SegmentId = SEG_DATA;
    a.Transfer.Source.SegmentAddress.QuadPart = (LONGLONG)SEG_BASE(SEG_DATA);
    a.Transfer.Destination.pMdl = mdl;
    a.Transfer.Flags.Value = 0x18; /* TransferStart | TransferEnd */
    rc = run(w, &a) == STATUS_SUCCESS ? agree(w, &a, "TRANSFER 12 pages to a scattered MDL") : -1;
    if (rc)
        fprintf(stderr, "TRANSFER failed (rule %s)\n", w->adapter->last_violation.rule_id);
    free(mdl);
    return rc;
}

/* A FILL into a segment the adapter does not have: refused, rule named,
 * nothing written. */
static int refused(world *w)
{
    DXGKARG_BUILDPAGINGBUFFER a;
    char why[256];
    unsigned long before = w->adapter->violations;
    memset(&a, 0, sizeof a);
    a.Operation = DXGK_OPERATION_FILL;
    a.Fill.FillSize = 64;
    a.Fill.Destination.SegmentId = 9;
    if (run(w, &a) != STATUS_INVALID_PARAMETER || w->adapter->violations == before ||
        !w->adapter->last_violation.rule_id) {
        fprintf(stderr, "a FILL into segment 9 was not refused with a rule\n");
        return -1;
    }
    if (!pbsim_equal(&w->gpu, &w->expected, why, sizeof why)) {
        fprintf(stderr, "a refused call changed memory: %s\n", why);
        return -1;
    }
    printf("refdriver harness: bad FILL refused (%s)\n", w->adapter->last_violation.rule_id);
    return 0;
}

#if defined(DDIGEN_VALIDATE)
/* Debug builds run the generated validators before the engine: a FILL of
 * zero bytes (a no-op the engine accepts) shows whether the documented
 * rules refuse it, and by which rule. Either answer is a pass; a refusal
 * must name its rule and leave memory alone. */
static int validators(world *w)
{
    DXGKARG_BUILDPAGINGBUFFER a;
    NTSTATUS st;
    memset(&a, 0, sizeof a);
    a.Operation = DXGK_OPERATION_FILL;
    a.Fill.Destination.SegmentId = SEG_DATA;
    a.Fill.Destination.SegmentAddress.QuadPart = (LONGLONG)SEG_BASE(SEG_DATA);
    st = run(w, &a);
    if (st == STATUS_SUCCESS)
        return agree(w, &a, "validators: zero-byte FILL accepted");
    if (st != STATUS_INVALID_PARAMETER || !w->adapter->last_violation.rule_id) {
        fprintf(stderr, "validators: zero-byte FILL: status 0x%08x without a rule\n", (unsigned)st);
        return -1;
    }
    printf("refdriver harness: validators: zero-byte FILL refused (%s)\n", w->adapter->last_violation.rule_id);
    return agree(w, NULL, "validators: refused call left memory alone");
}
#else
static int validators(world *w)
{
    (void)w;
    return 0;
}
#endif

int main(void)
{
    static world w;
    int rc = setup(&w) == 0 ? 0 : 1;
    if (rc)
        fprintf(stderr, "refdriver harness: setup failed\n");
    if (rc == 0)
        rc = fill(&w) || transfer(&w) || refused(&w) || validators(&w);
#if defined(DDIGEN_VALIDATE)
    printf("refdriver harness: generated validators on (debug build)\n");
#endif
    printf("refdriver harness: %s\n", rc ? "FAILED" : "all operations match the oracle");
    pbsim_free(&w.gpu);
    pbsim_free(&w.expected);
    free(w.adapter);
    return rc;
}
