/* gen/model/wire.c: the class of a field on the marshallers' wire, which
 * the derived view prints for the marshaller templates and `ddigen trace`
 * reads by, over the spec generated at build time from the fixture WDK
 * 10.0.26100.0 and the validator fixture pages. Each expectation is read
 * in that spec: the field's type facts, its SAL and its siblings. */
#include "model/specxml.h"
#include "model/wire.h"

#include <libxml/parser.h>
#include <string.h>

/* cmocka needs these first */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

static xmlDocPtr doc;
static struct ddi_wire_index ix;

static int setup(void **state)
{
    (void)state;
    doc = xmlReadFile(DDI_MODEL_SPEC, NULL, XML_PARSE_NONET);
    if (!doc)
        return -1;
    ddi_wire_index_build(&ix, sx_part(doc, "layout"), sx_part(doc, "merge"));
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    ddi_wire_index_free(&ix);
    xmlFreeDoc(doc);
    return 0;
}

static xmlNodePtr record(const char *name)
{
    for (xmlNodePtr r = sx_child(sx_part(doc, "layout"), "record"); r; r = sx_next(r, "record"))
        if (!strcmp(sx_get(r, "name") ? sx_get(r, "name") : "", name))
            return r;
    return NULL;
}

/* A direct field of a top-level record by name. */
static xmlNodePtr field(const char *rec, const char *name)
{
    for (xmlNodePtr f = sx_child(record(rec), "field"); f; f = sx_next(f, "field"))
        if (!strcmp(sx_get(f, "name") ? sx_get(f, "name") : "", name))
            return f;
    return NULL;
}

static const char *class_of(const char *rec, const char *name, int in_union)
{
    xmlNodePtr f = field(rec, name);
    assert_non_null(f);
    return ddi_wire_class(&ix, f, in_union);
}

static void test_integers_by_signedness_of_the_type(void **state)
{
    (void)state;
    assert_string_equal(class_of("DXGKARG_BUILDPAGINGBUFFER", "DmaSize", 0), "u");
    /* an enum: signed, as MSVC's (the layout stage asked clang) */
    assert_string_equal(class_of("DXGKARG_BUILDPAGINGBUFFER", "Operation", 0), "s");
}

static void test_pointer_followed_when_its_size_is_a_sibling(void **state)
{
    (void)state;
    /* _Field_size_bytes_(DmaSize), DmaSize beside it */
    assert_string_equal(class_of("DXGKARG_BUILDPAGINGBUFFER", "pDmaBuffer", 0), "follow");
    /* _Field_size_(NumAllocations) of a scalar pointee */
    assert_string_equal(class_of("D3DDDI_MAKERESIDENT", "AllocationList", 0), "follow");
    /* no SAL: an address */
    assert_string_equal(class_of("D3DDDI_ALLOCATIONINFO", "pPrivateDriverData", 0), "ptr");
    /* in a union no discriminator selects: an address, never followed */
    assert_string_equal(class_of("DXGKARG_BUILDPAGINGBUFFER", "pDmaBuffer", 1), "ptr");
}

static void test_records_held_by_value_and_inline(void **state)
{
    (void)state;
    assert_string_equal(class_of("DXGK_ALLOCATIONINFO", "HintedBank", 0), "rec");
    xmlNodePtr held = ddi_wire_record(&ix, ddi_wire_canonical(field("DXGK_ALLOCATIONINFO", "HintedBank")));
    assert_non_null(held);
    assert_string_equal(sx_get(held, "name"), "DXGK_SEGMENTBANKPREFERENCE");
    /* the anonymous union of the paging arguments: an inline record */
    xmlNodePtr f = sx_child(record("DXGKARG_BUILDPAGINGBUFFER"), "field");
    while (f && !sx_child(f, "record"))
        f = sx_next(f, "field");
    assert_non_null(f);
    assert_string_equal(ddi_wire_class(&ix, f, 0), "nest");
}

static void test_discriminated_unions(void **state)
{
    (void)state;
    assert_true(ddi_wire_union_selected(&ix, "DXGKARG_BUILDPAGINGBUFFER.(unnamed union)"));
    assert_false(ddi_wire_union_selected(&ix, "DXGK_ALLOCATIONINFO.(unnamed union)"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_integers_by_signedness_of_the_type),
        cmocka_unit_test(test_pointer_followed_when_its_size_is_a_sibling),
        cmocka_unit_test(test_records_held_by_value_and_inline),
        cmocka_unit_test(test_discriminated_unions),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
