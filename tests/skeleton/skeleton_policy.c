/* What a generated thunk does with a broken rule (issue 26, policy): it
 * reports it through DDIGEN_SKELETON_VIOLATION and lets the call through;
 * built with DDIGEN_VALIDATE_ENFORCE it refuses a call on entry only when a
 * broken rule was reviewed, with DDIGEN_VALIDATE_ENFORCE_ALL on any. The
 * same source is compiled once per policy (POLICY_DEFAULT, POLICY_ENFORCE,
 * POLICY_ENFORCE_ALL) with a stand-in validator whose verdict each case sets. */
#include <dispmprt.h>

#include "ddi_validate.h"

#include <stdio.h>
#include <string.h>

static unsigned hooks, drv_calls;
static unsigned long entry_flags_seen;

void skeleton_policy_hook(const char *callback, const ddi_violation *violation)
{
    (void)callback, (void)violation;
    hooks++;
}

#include "ddi_skeleton.h"
#include "ddi_skeleton_driver.h"

/* The verdict of the stand-in entry validator: broken rules and their flags. */
static unsigned long broken_in;
static unsigned long broken_flags;

unsigned long ddi_validate_DXGKARG_BUILDPAGINGBUFFER_in(const DXGKARG_BUILDPAGINGBUFFER *a, ddi_violation *first,
                                                        unsigned long flags)
{
    (void)a;
    entry_flags_seen = flags;
    if (broken_in && first) {
        first->rule_id = "DXGKARG_BUILDPAGINGBUFFER.Operation:known-value";
        first->field = "Operation";
        first->observed = 99;
        first->flags = broken_flags;
    }
    return broken_in;
}

unsigned long ddi_validate_DXGKARG_BUILDPAGINGBUFFER_out(const DXGKARG_BUILDPAGINGBUFFER *a, ddi_violation *first,
                                                         unsigned long flags)
{
    (void)a, (void)first, (void)flags;
    return 0;
}

_Use_decl_annotations_ NTSTATUS APIENTRY drv_BuildPagingBuffer(const HANDLE hAdapter,
                                                               IN_PDXGKARG_BUILDPAGINGBUFFER pBuildPagingBuffer)
{
    (void)hAdapter, (void)pBuildPagingBuffer;
    drv_calls++;
    return STATUS_SUCCESS;
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

/* One call with the given verdict; whether the thunk refused it. */
static int refused(unsigned long broken, unsigned long flags)
{
    DXGKARG_BUILDPAGINGBUFFER args;
    memset(&args, 0, sizeof args);
    broken_in = broken;
    broken_flags = flags;
    unsigned hooks_before = hooks, drv_before = drv_calls;
    NTSTATUS status = DdiBuildPagingBuffer((HANDLE)0, &args);
    int refusal = status == STATUS_INVALID_PARAMETER;
    CHECK(refusal || status == STATUS_SUCCESS, "status %lx", (unsigned long)status);
    CHECK(refusal == (drv_calls == drv_before), "the driver %s on a %s", refusal ? "ran" : "did not run",
          refusal ? "refusal" : "call let through");
    CHECK(hooks - hooks_before == (broken ? 1u : 0u), "the hook ran %u times for %lu broken", hooks - hooks_before,
          broken);
    return refusal;
}

int main(void)
{
    CHECK(!refused(0, 0), "a call with no broken rule refused");
#if defined(POLICY_ENFORCE_ALL)
    CHECK(refused(1, 0), "ENFORCE_ALL: an extracted broken rule let through");
    CHECK(refused(2, DDI_VIOLATION_REVIEWED), "ENFORCE_ALL: a reviewed broken rule let through");
    CHECK(entry_flags_seen == 0, "ENFORCE_ALL: the entry check stops at the first broken rule");
#elif defined(POLICY_ENFORCE)
    CHECK(!refused(1, 0), "ENFORCE: a call refused for an extracted rule");
    CHECK(refused(2, DDI_VIOLATION_REVIEWED), "ENFORCE: a reviewed broken rule let through");
    CHECK(entry_flags_seen == 0, "ENFORCE: the entry check stops at the first broken rule (a later reviewed one would go unseen)");
#else
    CHECK(!refused(1, 0), "default: a call refused for an extracted rule");
    CHECK(!refused(1, DDI_VIOLATION_REVIEWED), "default: a call refused for a reviewed rule");
    CHECK(entry_flags_seen == DDI_VALIDATE_STOP_AT_FIRST, "default: the entry check does not stop at the first broken rule");
#endif
    printf("%s: %s\n", POLICY_NAME, failures ? "FAILED" : "ok");
    return failures != 0;
}
