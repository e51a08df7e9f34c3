/* The rule kinds and conditions only reviewed entries state today, on the
 * validator-kinds fixture (tests/fixtures/validate-kinds: pages and a
 * reviewed file in the project's words): for each, a structure that passes
 * and one that breaks it, through the generated validator and the host
 * evaluator over the same bytes, which must agree. Expectations are written
 * from the fixture's reviewed entries, not from the generator's output.
 *   validate_kinds SPEC.xml VERSION */
#include <ntddk.h>
#include <dispmprt.h>

#include "ddi_validate.h"
#include "eval_glue.h"

#include <stdio.h>
#include <string.h>

static int failures, cases;
static const char *spec_path, *version;

static void expect(const char *what, const char *record, const char *dir, unsigned long n, const ddi_violation *v,
                   const void *object, size_t size, const char *expected_id)
{
    cases++;
    int ok = expected_id ? n >= 1 && v->rule_id && strcmp(v->rule_id, expected_id) == 0 : n == 0;
    if (!ok) {
        failures++;
        printf("FAIL %s: expected %s, got %lu violation(s), first %s\n", what, expected_id ? expected_id : "none", n,
               n ? v->rule_id : "-");
        return;
    }
    char host_id[256];
    long host_n = eval_glue_run(spec_path, record, version, dir, object, size, host_id, sizeof host_id);
    if (host_n == -2) {
        printf("ok   %s (host layout differs from x64: evaluator not compared)\n", what);
    } else if (host_n != (long)n || (n && strcmp(host_id, v->rule_id) != 0)) {
        failures++;
        printf("FAIL %s: the host evaluator says %ld violation(s), first %s\n", what, host_n, host_n ? host_id : "-");
    } else {
        printf("ok   %s (%s; evaluator agrees)\n", what, expected_id ? expected_id : "passes");
    }
}

#define RUN(what, record, dir, obj, id)                                                                         \
    do {                                                                                                       \
        ddi_violation v_ = {0};                                                                                \
        unsigned long n_ = ddi_validate_##record##_##dir(&(obj), &v_, 0);                                      \
        expect(what, #record, #dir, n_, &v_, &(obj), sizeof(obj), id);                                        \
    } while (0)

static void in_set(void)
{
    DXGK_ALLOCATIONINFO a;
    memset(&a, 0, sizeof a);
    a.SupportedReadSegmentSet = 0x5; /* segments 1 and 3 */
    RUN("in-set: no preferred segment", DXGK_ALLOCATIONINFO, out, a, NULL);
    a.PreferredSegment.SegmentId0 = 3;
    a.PreferredSegment.SegmentId1 = 1;
    RUN("in-set: segments 3 and 1, both readable", DXGK_ALLOCATIONINFO, out, a, NULL);
    a.PreferredSegment.SegmentId4 = 2;
    RUN("in-set: segment 2 is not readable", DXGK_ALLOCATIONINFO, out, a,
        "DXGK_ALLOCATIONINFO.PreferredSegment:in-set:reviewed");
    a.SupportedReadSegmentSet = 0x7;
    RUN("in-set: segment 2 readable too", DXGK_ALLOCATIONINFO, out, a, NULL);
    a.PreferredSegment.SegmentId2 = 31; /* bit 30 */
    RUN("in-set: segment 31, bit 30 clear", DXGK_ALLOCATIONINFO, out, a,
        "DXGK_ALLOCATIONINFO.PreferredSegment:in-set:reviewed");
    a.SupportedReadSegmentSet |= 1u << 30;
    RUN("in-set: segment 31, bit 30 set", DXGK_ALLOCATIONINFO, out, a, NULL);
}

static DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA standard(void)
{
    DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA g;
    memset(&g, 0, sizeof g);
    g.StandardAllocationType = D3DKMDT_STANDARDALLOCATION_SHAREDPRIMARYSURFACE;
    g.pCreateSharedPrimarySurfaceData = (D3DKMDT_SHAREDPRIMARYSURFACEDATA *)(ULONG_PTR)0x1000;
    g.ResourcePrivateDriverDataSize = 16;
    return g;
}

static void either_nonzero_and_conditions(void)
{
    DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA g = standard();
    RUN("either-nonzero: resource size only", DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA, out, g, NULL);
    g.ResourcePrivateDriverDataSize = 0;
    g.AllocationPrivateDriverDataSize = 8;
    RUN("either-nonzero: allocation size only", DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA, out, g,
        "DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA.AllocationPrivateDriverDataSize:zero-when:reviewed");
    g.pAllocationPrivateDriverData = (VOID *)(ULONG_PTR)0x2000; /* the condition (pointer clear) no longer holds */
    RUN("zero-when under 'pointer clear': pointer set, size allowed", DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA, out, g,
        NULL);
    g.AllocationPrivateDriverDataSize = 0;
    RUN("either-nonzero: both zero", DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA, out, g,
        "DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA.ResourcePrivateDriverDataSize:either-nonzero:reviewed");

    /* nonnull-when under StandardAllocationType == SHADOWSURFACE (2): the
     * union's pointer is the shadow one then */
    g = standard();
    RUN("nonnull-when: another type, the pointer set", DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA, in, g, NULL);
    g.pCreateSharedPrimarySurfaceData = NULL;
    RUN("nonnull-when: another type, no pointer", DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA, in, g, NULL);
    g.StandardAllocationType = D3DKMDT_STANDARDALLOCATION_SHADOWSURFACE;
    RUN("nonnull-when: shadow surface, no pointer", DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA, in, g,
        "DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA.pCreateShadowSurfaceData:nonnull-when:reviewed");
    g.pCreateShadowSurfaceData = (D3DKMDT_SHADOWSURFACEDATA *)(ULONG_PTR)0x3000;
    RUN("nonnull-when: shadow surface, the pointer set", DXGKARG_GETSTANDARDALLOCATIONDRIVERDATA, in, g, NULL);
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: validate_kinds SPEC VERSION\n");
        return 2;
    }
    spec_path = argv[1];
    version = argv[2];
    in_set();
    either_nonzero_and_conditions();
    printf("%d cases, %d failed\n", cases, failures);
    return failures ? 1 : 0;
}
