/* A skeleton generated for the paging callback, linked with the runtime and the
 * simulator: every call goes through DRIVER_INITIALIZATION_DATA's
 * DxgkDdiBuildPagingBuffer (the generated thunk), which forwards to
 * drv_BuildPagingBuffer, here the paging engine. Every operation the compiled
 * DDI version has must reach the simulator and match the oracle; a value beyond
 * the enum and, when compiled below WDDM 3.2, an operation of 3.2 must be
 * refused with the dispatch table's rule. */
#include "rt_harness.h"

#include <dispmprt.h>

#include "ddi_skeleton.h"
#include "ddi_skeleton_driver.h"

#include <stdio.h>
#include <string.h>

static DRIVER_INITIALIZATION_DATA init;
static unsigned drv_calls;

/* The driver's implementation behind the thunk: hAdapter is the test world. */
_Use_decl_annotations_ NTSTATUS APIENTRY drv_BuildPagingBuffer(const HANDLE hAdapter,
                                                               IN_PDXGKARG_BUILDPAGINGBUFFER pBuildPagingBuffer)
{
    rt_world *w = (rt_world *)hAdapter;
    drv_calls++;
    return pb_build_paging_buffer(&w->engine, pBuildPagingBuffer);
}

static NTSTATUS through_ddi_table(rt_world *w, DXGKARG_BUILDPAGINGBUFFER *a)
{
    return init.DxgkDdiBuildPagingBuffer((HANDLE)w, a);
}

static int failures;
#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                                                \
            printf(__VA_ARGS__);                                                                                       \
            printf("\n");                                                                                              \
            failures++;                                                                                                \
        }                                                                                                              \
    } while (0)

static void check_fill(void)
{
    DRIVER_INITIALIZATION_DATA canary;
    memset(&init, 0, sizeof init);
    memset(&canary, 0, sizeof canary);
    CHECK(ddi_fill_initialization_data(&init) == STATUS_SUCCESS, "fill failed");
    CHECK(init.Version == DDI_SKELETON_DDI_VERSION, "Version %lx", (unsigned long)init.Version);
    CHECK(init.DxgkDdiBuildPagingBuffer == DdiBuildPagingBuffer, "DxgkDdiBuildPagingBuffer is not the thunk");
    /* Only Version and the listed callback are set. */
    canary.Version = init.Version;
    canary.DxgkDdiBuildPagingBuffer = init.DxgkDdiBuildPagingBuffer;
    CHECK(memcmp(&canary, &init, sizeof init) == 0, "the fill set members other than Version and the listed one");
    CHECK(ddi_fill_initialization_data(NULL) == STATUS_INVALID_PARAMETER, "NULL accepted");
}

/* Every operation value the runtime generates, through the table, checked against the oracle. */
static void every_operation(rt_world *w)
{
    unsigned seen[32] = {0};
    unsigned expected = 19; /* 0 .. 18: every kit of the fixture */
    rt_rng rng = {0};
    rng.s = 0x5EED;
#if PB_HAVE_WDDM3_2_OPS
    expected = 23;
#endif
    /* Episodes of a few operations, as the multipass test runs them: the
     * simulator's logs are bounded. */
    for (unsigned episode = 0; episode < 200; episode++) {
        if (rt_world_reset(w, rt_next(&rng), 4096) != 0) {
            CHECK(0, "reset: %s", w->failure);
            return;
        }
        w->call = through_ddi_table;
        for (unsigned i = 0; i < 24; i++) {
            DXGKARG_BUILDPAGINGBUFFER a;
            int invalid = 0;
            rt_gen_op(w, &rng, &a, &invalid);
            if (rt_op(w, &a, invalid) != 0) {
                CHECK(0, "operation %u: %s", (unsigned)a.Operation, w->failure);
                return;
            }
            if (!invalid && (unsigned)a.Operation < 32)
                seen[(unsigned)a.Operation]++;
        }
        if (rt_check(w) != 0) {
            CHECK(0, "simulator and oracle differ: %s", w->failure);
            return;
        }
    }
    /* The generator has no SPECIAL_LOCK_TRANSFER: one segment-to-segment copy. */
    {
        DXGKARG_BUILDPAGINGBUFFER a;
        memset(&a, 0, sizeof a);
        a.Operation = DXGK_OPERATION_SPECIAL_LOCK_TRANSFER;
        a.SpecialLockTransfer.TransferSize = 3u * 4096u + 17u;
        a.SpecialLockTransfer.TransferOffset = 16;
        a.SpecialLockTransfer.Source.SegmentId = RT_SEG_DATA;
        a.SpecialLockTransfer.Source.SegmentAddress.QuadPart = (LONGLONG)RT_SEG_BASE(RT_SEG_DATA);
        a.SpecialLockTransfer.Destination.SegmentId = RT_SEG_TABLES;
        a.SpecialLockTransfer.Destination.SegmentAddress.QuadPart = (LONGLONG)(RT_SEG_BASE(RT_SEG_TABLES) + 6u * 4096u);
        a.SpecialLockTransfer.Flags.Value = 0x18;
        w->arena_used = 0;
        if (rt_op(w, &a, 0) == 0 && rt_check(w) == 0 && w->sim.packets_by_op[RPB_OP_COPY] > 0)
            seen[7]++;
        else
            CHECK(0, "SPECIAL_LOCK_TRANSFER: %s", w->failure);
    }
    for (unsigned op = 0; op < expected; op++)
        CHECK(seen[op] > 0, "operation %u never ran through the DDI table", op);
    printf("ok   %u operations through DRIVER_INITIALIZATION_DATA.DxgkDdiBuildPagingBuffer (%u calls)\n", expected,
           drv_calls);
}

static void refused(rt_world *w, uint32_t op, const char *rule)
{
    DXGKARG_BUILDPAGINGBUFFER a;
    memset(&a, 0, sizeof a);
    a.Operation = (DXGK_BUILDPAGINGBUFFER_OPERATION)op;
    w->last_rule[0] = '\0';
    CHECK(rt_op(w, &a, 1) == 0, "operation %u: %s", op, w->failure);
    CHECK(strcmp(w->last_rule, rule) == 0, "operation %u: rule '%s', expected '%s'", op, w->last_rule, rule);
    if (strcmp(w->last_rule, rule) == 0)
        printf("ok   operation %u refused: %s\n", op, rule);
}

int main(void)
{
    static rt_world w;
    check_fill();
    if (rt_world_init(&w, 1, 4096) != 0) {
        printf("FAIL world: %s\n", w.failure);
        return 1;
    }
    w.call = through_ddi_table;
    every_operation(&w);
    refused(&w, 23, "DXGKARG_BUILDPAGINGBUFFER.Operation:known-value");
    refused(&w, 0xFFFFFFFFu, "DXGKARG_BUILDPAGINGBUFFER.Operation:known-value");
#if !PB_HAVE_WDDM3_2_OPS
    refused(&w, 19, "DXGKARG_BUILDPAGINGBUFFER.Operation:available-at-version"); /* MAP_MMU is WDDM 3.2 */
#endif
    rt_world_free(&w);
    printf("%s\n", failures ? "FAILED" : "passed");
    return failures != 0;
}
