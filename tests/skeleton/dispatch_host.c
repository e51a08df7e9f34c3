/* The generated dispatch tables on the host, over a table that is not the
 * paging one (DXGKARGCB_NOTIFY_INTERRUPT_DATA.InterruptType), compiled at
 * WDDM 2.0: a value with a handler reaches it, a value without one gets the
 * generated default (DDI_DISPATCH_UNSUPPORTED_STATUS), a hole of the enum and a
 * value past the table are refused as known-value, a value of a later DDI
 * version as available-at-version, and no handler runs on a refusal. With
 * DDIGEN_VALIDATE (DISPATCH_WITH_VALIDATOR) the member's validator runs first. */
/* clang-format off: the kit needs ntddk.h first */
#include <ntddk.h>
#include <d3dkmddi.h>
/* clang-format on */

#include "ddi_dispatch.h"

#include <stdio.h>
#include <string.h>

#define T(name) ddi_DXGKARGCB_NOTIFY_INTERRUPT_DATA_InterruptType_##name

static int failures;
static unsigned handled[32];
#define CHECK(cond, ...)                                                                                               \
    do {                                                                                                               \
        if (!(cond)) {                                                                                                 \
            printf("FAIL %s:%d: ", __FILE__, __LINE__);                                                                \
            printf(__VA_ARGS__);                                                                                       \
            printf("\n");                                                                                              \
            failures++;                                                                                                \
        }                                                                                                              \
    } while (0)

static NTSTATUS on_interrupt(void *ctx, DXGKARGCB_NOTIFY_INTERRUPT_DATA *args)
{
    (void)ctx;
    handled[(unsigned)args->InterruptType & 31u]++;
    return STATUS_SUCCESS;
}

#if defined(DISPATCH_WITH_VALIDATOR)
static unsigned validated;
unsigned long ddi_validate_DXGKARGCB_NOTIFY_INTERRUPT_DATA__DmaCompleted_in(const DXGKARGCB_NOTIFY_INTERRUPT_DATA *a,
                                                                            ddi_violation *first, unsigned long flags)
{
    (void)flags;
    validated++;
    if (a->DmaCompleted.SubmissionFenceId != 0xBADu)
        return 0;
    if (first) {
        first->rule_id = "test.DmaCompleted.SubmissionFenceId:not-0xBAD";
        first->field = "DmaCompleted.SubmissionFenceId";
        first->observed = a->DmaCompleted.SubmissionFenceId;
    }
    return 1;
}
#endif

static NTSTATUS call(const T(handlers) * h, unsigned value, ddi_violation *v)
{
    DXGKARGCB_NOTIFY_INTERRUPT_DATA d;
    memset(&d, 0, sizeof d);
    memset(v, 0, sizeof *v);
    d.InterruptType = (DXGK_INTERRUPT_TYPE)value;
    return T(call)(h, NULL, &d, v);
}

static void refused(const T(handlers) * h, unsigned value, const char *rule)
{
    ddi_violation v;
    unsigned before[32];
    memcpy(before, handled, sizeof before);
    CHECK(call(h, value, &v) == STATUS_INVALID_PARAMETER, "value %u not refused", value);
    CHECK(v.rule_id && strcmp(v.rule_id, rule) == 0, "value %u: rule %s, expected %s", value,
          v.rule_id ? v.rule_id : "(none)", rule);
    CHECK(v.field && strcmp(v.field, "InterruptType") == 0 && v.observed == value, "value %u: violation fields", value);
    CHECK(memcmp(before, handled, sizeof before) == 0, "value %u: a handler ran on a refusal", value);
}

int main(void)
{
    T(handlers) h;
    ddi_violation v;
    memset(&h, 0, sizeof h);
    h.by_name.DXGK_INTERRUPT_DMA_COMPLETED = on_interrupt;
    h.by_name.DXGK_INTERRUPT_DMA_PAGE_FAULTED = on_interrupt;

    /* The table: indexed by value, names and members from the spec. */
    CHECK(T(COUNT) == 22u, "COUNT %u", (unsigned)T(COUNT));
    CHECK(strcmp(T(table)[1].name, "DXGK_INTERRUPT_DMA_COMPLETED") == 0 &&
              strcmp(T(table)[1].member, "DmaCompleted") == 0,
          "entry 1");
    CHECK(T(table)[0].name == NULL, "value 0 is not a hole");
    CHECK(T(table)[9].since == DXGKDDI_INTERFACE_VERSION_WDDM2_0 && T(table)[9].available, "DMA_PAGE_FAULTED at 2.0");
    CHECK(T(table)[11].since == DXGKDDI_INTERFACE_VERSION_WDDM2_2 && !T(table)[11].available,
          "MONITORED_FENCE_SIGNALED is 2.2");

    CHECK(call(&h, 1, &v) == STATUS_SUCCESS && handled[1] == 1, "DMA_COMPLETED did not reach its handler");
    CHECK(call(&h, 9, &v) == STATUS_SUCCESS && handled[9] == 1, "DMA_PAGE_FAULTED did not reach its handler");
    CHECK(call(&h, 3, &v) == DDI_DISPATCH_UNSUPPORTED_STATUS && handled[3] == 0, "CRTC_VSYNC: no default");
    CHECK(call(NULL, 1, &v) == DDI_DISPATCH_UNSUPPORTED_STATUS && handled[1] == 1, "NULL handlers: no default");
    refused(&h, 0, "DXGKARGCB_NOTIFY_INTERRUPT_DATA.InterruptType:known-value");
    refused(&h, 22, "DXGKARGCB_NOTIFY_INTERRUPT_DATA.InterruptType:known-value");
    refused(&h, 0x80000000u, "DXGKARGCB_NOTIFY_INTERRUPT_DATA.InterruptType:known-value");
    refused(&h, 11, "DXGKARGCB_NOTIFY_INTERRUPT_DATA.InterruptType:available-at-version");

#if defined(DISPATCH_WITH_VALIDATOR)
    {
        DXGKARGCB_NOTIFY_INTERRUPT_DATA d;
        memset(&d, 0, sizeof d);
        d.InterruptType = DXGK_INTERRUPT_DMA_COMPLETED;
        d.DmaCompleted.SubmissionFenceId = 0xBADu;
        memset(&v, 0, sizeof v);
        CHECK(T(call)(&h, NULL, &d, &v) == STATUS_INVALID_PARAMETER && handled[1] == 1, "the validator did not refuse");
        CHECK(v.rule_id && strcmp(v.rule_id, "test.DmaCompleted.SubmissionFenceId:not-0xBAD") == 0, "validator rule");
        CHECK(validated == 3, "validator ran %u times, expected 3 (two DMA_COMPLETED calls and this one)", validated);
        CHECK(T(table)[9].validate_in == NULL, "a validator that was not generated is not NULL");
    }
#else
    CHECK(T(table)[1].validate_in == NULL, "validators present without DDIGEN_HAVE_VALIDATE");
#endif
    printf("%s\n", failures ? "FAILED" : "passed: handlers, default, known-value, available-at-version");
    return failures != 0;
}
