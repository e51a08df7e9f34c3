/* gen/model: the one parser and printers of version and architecture sets. */
#include "model/vset.h"

#include <libxml/parser.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

static const char layout_xml[] =
    "<layout>"
    "<arch name='x86' macro='_M_IX86'/><arch name='x64' macro='_M_AMD64'/><arch name='arm64' macro='_M_ARM64'/>"
    "<version name='DXGKDDI_INTERFACE_VERSION_WIN7' short='WIN7'/>"
    "<version name='DXGKDDI_INTERFACE_VERSION_WIN8' short='WIN8'/>"
    "<version name='DXGKDDI_INTERFACE_VERSION_WDDM2_0' short='WDDM2_0'/>"
    "<version name='DXGKDDI_INTERFACE_VERSION_WDDM2_1' short='WDDM2_1'/>"
    "</layout>";

static xmlDocPtr doc;
static struct ddi_versions v;

static int setup(void **state)
{
    (void)state;
    doc = xmlReadMemory(layout_xml, (int)sizeof layout_xml - 1, "layout.xml", NULL, 0);
    ddi_versions_read(&v, xmlDocGetRootElement(doc));
    return doc ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    xmlFreeDoc(doc);
    return 0;
}

static void test_read(void **state)
{
    (void)state;
    assert_int_equal(v.n, 4);
    assert_int_equal(v.narchs, 3);
    assert_int_equal(ddi_version_find(&v, "WDDM2_0", 7), 2);
    assert_int_equal(ddi_version_find(&v, "DXGKDDI_INTERFACE_VERSION_WIN8", 30), 1);
    assert_int_equal(ddi_version_find_short(&v, "DXGKDDI_INTERFACE_VERSION_WIN8", 30), -1);
    assert_int_equal(ddi_version_find(&v, "WDDM2_", 6), -1); /* a prefix is not a name */
    assert_int_equal(ddi_arch_find(&v, "arm64", 5), 2);
}

static void test_parse(void **state)
{
    (void)state;
    ddi_vset s;
    struct ddi_vset_error err;
    assert_int_equal(ddi_vset_parse(&v, NULL, &s, &err), 0);
    assert_int_equal(s, 0xF);
    assert_int_equal(ddi_vset_parse(&v, "WIN7-WIN8 WDDM2_1", &s, &err), 0);
    assert_int_equal(s, 0xB);
    assert_int_equal(ddi_vset_parse(&v, "  WIN8  ", &s, &err), 0);
    assert_int_equal(s, 0x2);
    assert_int_equal(ddi_vset_parse(&v, "WIN7 WDDM9_9", &s, &err), -1);
    assert_string_equal(err.what, "unknown version");
    assert_int_equal(err.at, 5);
    assert_int_equal(err.len, 7);
    assert_int_equal(ddi_vset_parse(&v, "WDDM2_0-WIN7", &s, &err), -1);
    assert_string_equal(err.what, "reversed version range");
    /* the lenient form: what names nothing adds nothing */
    assert_int_equal(ddi_vset_of(&v, "WIN7 WDDM9_9 WDDM2_0-WDDM2_1"), 0xD);
    ddi_archset a;
    assert_int_equal(ddi_archset_parse(&v, "x86 arm64", &a, &err), 0);
    assert_int_equal(a, 5);
    assert_int_equal(ddi_archset_parse(&v, "x86 mips", &a, &err), -1);
    assert_string_equal(err.what, "unknown architecture");
    assert_int_equal(ddi_archset_of(&v, "x64"), 2);
    assert_int_equal(ddi_archset_of(&v, NULL), 7);
}

static void expect_text(ddi_vset s, const char *text, const char *cond)
{
    struct strbuf sb = {0};
    ddi_vset_text(&v, s, &sb);
    assert_string_equal(sb_str(&sb), text);
    sb.len = 0;
    if (sb.data)
        sb.data[0] = '\0';
    ddi_vset_condition(&v, s, &sb);
    assert_string_equal(sb_str(&sb), cond);
    sb_free(&sb);
}

static void test_print(void **state)
{
    (void)state;
    expect_text(0xF, "", "1");
    expect_text(0x0, "", "0");
    expect_text(0x3, "WIN7-WIN8", "(DXGKDDI_INTERFACE_VERSION < DXGKDDI_INTERFACE_VERSION_WDDM2_0)");
    expect_text(0xC, "WDDM2_0-WDDM2_1", "(DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_0)");
    expect_text(0x9, "WIN7 WDDM2_1",
                "(DXGKDDI_INTERFACE_VERSION < DXGKDDI_INTERFACE_VERSION_WIN8) || "
                "(DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WDDM2_1)");
    expect_text(0x2, "WIN8",
                "(DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_WIN8 && "
                "DXGKDDI_INTERFACE_VERSION < DXGKDDI_INTERFACE_VERSION_WDDM2_0)");
    struct strbuf sb = {0};
    ddi_archset_condition(&v, 5, &sb);
    assert_string_equal(sb_str(&sb), "defined(_M_IX86) || defined(_M_ARM64)");
    sb_free(&sb);
    /* text and parse are inverse */
    for (ddi_vset s = 1; s < 0xF; s++) {
        struct strbuf t = {0};
        ddi_vset_text(&v, s, &t);
        ddi_vset back;
        assert_int_equal(ddi_vset_parse(&v, sb_str(&t), &back, NULL), 0);
        assert_int_equal(back, s);
        sb_free(&t);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_read),
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_print),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
