/* Unit tests of the host rule API (gen/rules) that ddigen trace uses, over
 * the spec generated at build time from the fixture WDK and the validator
 * fixture pages: which records have rules, version sets, and evaluation of
 * raw bytes including short input. Expected IDs come from the pages. */
#include "rules/rules.h"
#include "spec/schema.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

static xmlDocPtr doc;
static struct rules_plan *plan;

static int setup(void **state)
{
    (void)state;
    doc = spec_load(DDI_VALIDATE_SPEC);
    plan = doc ? rules_lower(doc) : NULL;
    return plan ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    rules_plan_free(plan);
    xmlFreeDoc(doc);
    return 0;
}

static void test_records_with_rules(void **state)
{
    (void)state;
    assert_non_null(rules_find(plan, "DXGKARG_BUILDPAGINGBUFFER"));
    assert_non_null(rules_find(plan, "D3DDDI_MAPGPUVIRTUALADDRESS"));
    assert_non_null(rules_find(plan, "DXGK_ALLOCATIONINFOFLAGS_WDDM2_0"));
    assert_non_null(rules_find(plan, "DXGK_SEGMENTDESCRIPTOR3"));
    assert_null(rules_find(plan, "DXGK_NO_SUCH_RECORD"));
    const struct rules_record *r = rules_find(plan, "DXGK_ALLOCATIONINFOFLAGS_WDDM2_0");
    /* The page's requires-cap rule is listed, not checked. */
    int listed = 0;
    for (size_t i = 0; i < r->nskips; i++)
        listed |= strcmp(r->skips[i].id, "DXGK_ALLOCATIONINFOFLAGS_WDDM2_0.HistoryBuffer:requires-cap:"
                                         "MapAperture2Supported") == 0;
    assert_true(listed);
    /* An alignment sentence on a flag bit is not a check on the bit. */
    listed = 0;
    for (size_t i = 0; i < r->nskips; i++)
        listed |= strcmp(r->skips[i].id, "DXGK_ALLOCATIONINFOFLAGS_WDDM2_0.ExistingSysMem:align") == 0 &&
                  strstr(r->skips[i].reason, "flag") != NULL;
    assert_true(listed);
    /* The always-present reserved bits share one mask over Value. */
    assert_int_equal(r->nmasks, 1);
    assert_int_equal(r->masks[0].mask & 0x80000800ull, 0x80000800ull);
    assert_int_equal(r->masks[0].mask & 0x400ull, 0); /* Reserved00 exists only before WDDM 2.1 */
}

static void test_version_sets(void **state)
{
    (void)state;
    const struct ddi_versions *v = &plan->where;
    int w20 = ddi_version_find(v, "WDDM2_0", 7), w21 = ddi_version_find(v, "DXGKDDI_INTERFACE_VERSION_WDDM2_1", 33);
    assert_true(w20 >= 0 && w21 == w20 + 1);
    assert_true(ddi_vset_has(ddi_vset_of(v, "WIN7-WDDM2_0"), w20));
    assert_false(ddi_vset_has(ddi_vset_of(v, "WIN7-WDDM2_0"), w21));
    assert_true(ddi_vset_has(ddi_vset_of(v, NULL), w21));
    struct strbuf text = {0};
    ddi_vset_text(v, (1ull << w20) | (1ull << w21), &text);
    assert_string_equal(sb_str(&text), "WDDM2_0-WDDM2_1");
    sb_free(&text);
}

/* D3DDDI_MAPGPUVIRTUALADDRESS as x64 lays it out: offsets from the spec. */
static void put64(unsigned char *b, size_t off, unsigned long long v)
{
    for (int i = 0; i < 8; i++)
        b[off + (size_t)i] = (unsigned char)(v >> (8 * i));
}

static void test_eval_bytes(void **state)
{
    (void)state;
    const struct rules_record *r = rules_find(plan, "D3DDDI_MAPGPUVIRTUALADDRESS");
    unsigned char b[104] = {0};
    ddi_violation v = {0};
    put64(b, 48, 16);       /* SizeInPages */
    put64(b, 8, 0x200000);  /* BaseAddress */
    assert_int_equal(rules_eval(plan, r, "x64", "WDDM3_2", RULES_DIR_IN, b, sizeof b, &v, 0), 0);
    put64(b, 8, 0x200010);
    assert_int_equal(rules_eval(plan, r, "x64", "WDDM3_2", RULES_DIR_IN, b, sizeof b, &v, 0), 1);
    assert_string_equal(v.rule_id, "D3DDDI_MAPGPUVIRTUALADDRESS.BaseAddress:align");
    assert_string_equal(v.field, "BaseAddress");
    assert_int_equal(v.observed, 0x200010);
    /* Two broken rules: counted both, the first kept; stop-at-first stops. */
    b[72] = 1; /* Reserved0 (bit 576 on x64) */
    assert_int_equal(rules_eval(plan, r, "x64", "WDDM3_2", RULES_DIR_IN, b, sizeof b, &v, 0), 2);
    assert_int_equal(rules_eval(plan, r, "x64", "WDDM3_2", RULES_DIR_IN, b, sizeof b, &v, RULES_STOP_AT_FIRST), 1);
    assert_string_equal(v.rule_id, "D3DDDI_MAPGPUVIRTUALADDRESS.BaseAddress:align");
}

static void test_eval_short_input(void **state)
{
    (void)state;
    const struct rules_record *r = rules_find(plan, "D3DDDI_MAPGPUVIRTUALADDRESS");
    unsigned char b[40] = {0};
    ddi_violation v = {0};
    /* Fields past the end are not read; the record is reported truncated. */
    unsigned long n = rules_eval(plan, r, "x64", "WDDM3_2", RULES_DIR_IN, b, sizeof b, &v, 0);
    assert_true(n >= 1);
    assert_string_equal(v.rule_id, "ddigen.truncated");
    assert_int_equal(rules_eval(plan, r, "x64", "WDDM3_2", RULES_DIR_IN, b, 0, &v, 0) >= 1, 1);
    /* Unknown architecture or version: nothing to evaluate. */
    assert_int_equal(rules_eval(plan, r, "sparc", "WDDM3_2", RULES_DIR_IN, b, sizeof b, &v, 0), 0);
    assert_int_equal(rules_eval(plan, r, "x64", "WDDM9_9", RULES_DIR_IN, b, sizeof b, &v, 0), 0);
}

/* An operation the enum has before its union member exists is a known
 * value there, with no member to check (VIRTUAL_TRANSFER: WIN7, its
 * TransferVirtual member: WDDM 2.0); before the enum has it, unknown. */
static void test_selector_versions(void **state)
{
    (void)state;
    const struct rules_record *r = rules_find(plan, "DXGKARG_BUILDPAGINGBUFFER");
    static unsigned char b[2048];
    ddi_violation v = {0};
    b[28] = 8; /* Operation, offset 28 on x64 */
    assert_int_equal(rules_eval(plan, r, "x64", "WIN7", RULES_DIR_IN, b, sizeof b, &v, 0), 0);
    assert_int_equal(rules_eval(plan, r, "x64", "WDDM2_0", RULES_DIR_IN, b, sizeof b, &v, 0), 0);
    assert_int_equal(rules_eval(plan, r, "x64", "VISTA", RULES_DIR_IN, b, sizeof b, &v, 0), 1);
    assert_string_equal(v.rule_id, "DXGKARG_BUILDPAGINGBUFFER.Operation:known-value");
    assert_int_equal(v.observed, 8);
    b[28] = 22; /* NOTIFY_ALLOC: WDDM 3.2 */
    assert_int_equal(rules_eval(plan, r, "x64", "WDDM3_1", RULES_DIR_IN, b, sizeof b, &v, 0), 1);
    assert_int_equal(rules_eval(plan, r, "x64", "WDDM3_2", RULES_DIR_IN, b, sizeof b, &v, 0), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_records_with_rules),
        cmocka_unit_test(test_version_sets),
        cmocka_unit_test(test_eval_bytes),
        cmocka_unit_test(test_eval_short_input),
        cmocka_unit_test(test_selector_versions),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
