/* The docs stage's reading of a condition clause as data (condition.c):
 * a clause that is exactly a cue, a field and a state becomes F, F==0 or
 * F==ENUMERATOR; any clause that says more, or names no field, stays prose
 * (read in part it would widen the rule). Expectations written from the
 * pages' wording, not from the code's output. */
#include "condition.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

static void test_read(void **state)
{
    (void)state;
    static const struct {
        const char *clause, *cond;
    } cases[] = {
        {"If the Paging flag of Flags is set", "Flags.Paging"},
        {"when SegmentId is zero", "SegmentId==0"},
        {"If Type is DXGKQAITYPE_QUERYSEGMENT", "Type==DXGKQAITYPE_QUERYSEGMENT"},
        {"When Type specifies DXGKQAITYPE_UMDRIVERPRIVATE", "Type==DXGKQAITYPE_UMDRIVERPRIVATE"},
        {"if the SegmentId member of Source is zero", "Source.SegmentId==0"},
        {"If Flags.Paging is set to 1", "Flags.Paging"},
        {"If ContextAllocationFlags.SharedAcrossContexts is set to 0", "ContextAllocationFlags.SharedAcrossContexts==0"},
        {"If ContextAllocationFlags.SharedAcrossContexts is set to a value of 1", "ContextAllocationFlags.SharedAcrossContexts"},
        {"If VirtualMachineData in Flags is zero", "Flags.VirtualMachineData==0"},
        {"if pInputData is not NULL", "pInputData"},
        {"If **Flags.Paging** is TRUE", "Flags.Paging"},
        {"When the driver sets PermanentSysMem", "PermanentSysMem"},
        {"unless the PreservedDuringStandby member is also set", "PreservedDuringStandby==0"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char out[128] = "";
        if (!docs_condition_parse(cases[i].clause, out, sizeof out))
            fail_msg("\"%s\" was not read (expected %s)", cases[i].clause, cases[i].cond);
        if (strcmp(out, cases[i].cond))
            fail_msg("\"%s\" read as %s, expected %s", cases[i].clause, out, cases[i].cond);
    }
}

static void test_prose_stays(void **state)
{
    (void)state;
    static const char *const prose[] = {
        "When the driver is first called with a new paging buffer",
        "If the current context was executing an operation that used a paging buffer",
        "for the F0 state",
        "If a driver supports Windows 7 or later features",
        "If Flags.Paging is set and the driver patches",         /* says more than the field */
        "If MapApertureCpuVisible is not specified",              /* no state */
        "if the display miniport driver set the FlipOnVSyncWithNoWait bit-field flag in the FlipCaps member",
        "If Type is 5",                                           /* a number, not an enumerator */
        "when the allocation is to use video memory",
        "",
    };
    for (size_t i = 0; i < sizeof prose / sizeof prose[0]; i++) {
        char out[128] = "";
        if (docs_condition_parse(prose[i], out, sizeof out))
            fail_msg("\"%s\" was read as %s: it must stay prose", prose[i], out);
    }
    char tiny[4];
    assert_false(docs_condition_parse("If Flags.Paging is set", tiny, sizeof tiny)); /* no room: not read */
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_read), cmocka_unit_test(test_prose_stays)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
