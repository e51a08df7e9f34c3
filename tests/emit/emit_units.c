/* Unit tests of the emit stage: the XSLT extension functions (through a
 * real stylesheet run by libxslt) and the derived view's conditions. */
#include "emit/emit.h"
#include "emit/view.h"

#include <libexslt/exslt.h>
#include <libxml/parser.h>
#include <libxslt/transform.h>
#include <libxslt/xsltutils.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

static const char spec[] = "<ddi-spec version='1'><layout>"
                           "<version name='DXGKDDI_INTERFACE_VERSION_A' short='A' value='0x1'/>"
                           "<version name='DXGKDDI_INTERFACE_VERSION_B' short='B' value='0x2'/>"
                           "<version name='DXGKDDI_INTERFACE_VERSION_C' short='C' value='0x3'/>"
                           "<version name='DXGKDDI_INTERFACE_VERSION_D' short='D' value='0x4'/>"
                           "</layout></ddi-spec>";

/* Runs one XPath expression with the extension functions in scope. */
static char *eval(const char *expr)
{
    char sheet[2048];
    snprintf(sheet, sizeof sheet,
             "<xsl:stylesheet version='1.0' xmlns:xsl='http://www.w3.org/1999/XSL/Transform' "
             "xmlns:d='urn:ddigen:xslt'><xsl:output method='text'/>"
             "<xsl:variable name='v' select='/ddi-spec/layout/version'/>"
             "<xsl:template match='/'><xsl:value-of select=\"%s\"/></xsl:template></xsl:stylesheet>",
             expr);
    xmlDocPtr sdoc = xmlReadMemory(sheet, (int)strlen(sheet), "t.xsl", NULL, 0);
    xsltStylesheetPtr st = xsltParseStylesheetDoc(sdoc);
    xmlDocPtr in = xmlReadMemory(spec, (int)strlen(spec), "s.xml", NULL, 0);
    xmlDocPtr out = xsltApplyStylesheet(st, in, NULL);
    xmlChar *text = NULL;
    int len = 0;
    xsltSaveResultToString(&text, &len, out, st);
    char *copy = strdup(text ? (const char *)text : "");
    xmlFree(text);
    xmlFreeDoc(out);
    xmlFreeDoc(in);
    xsltFreeStylesheet(st);
    return copy;
}

static void expect(const char *expr, const char *want)
{
    char *got = eval(expr);
    assert_string_equal(got, want);
    free(got);
}

static void c_ident_makes_identifiers(void **state)
{
    (void)state;
    expect("d:c-ident('DXGKARG_BUILDPAGINGBUFFER.(unnamed union).Transfer')",
           "DXGKARG_BUILDPAGINGBUFFER_unnamed_union_Transfer");
    expect("d:c-ident('a..b')", "a_b");
}

/* A validator's one spelling: record and member paths become identifiers
 * (a member reached through a named union member has a dot). */
static void validator_names_are_identifiers(void **state)
{
    (void)state;
    expect("d:validator-name('DXGKARG_BUILDPAGINGBUFFER', '', 'in')", "ddi_validate_DXGKARG_BUILDPAGINGBUFFER_in");
    expect("d:validator-name('DXGKARG_BUILDPAGINGBUFFER', 'Fill', 'out')",
           "ddi_validate_DXGKARG_BUILDPAGINGBUFFER__Fill_out");
    expect("d:validator-name('D3DKMDT_MONITOR_FREQUENCY_RANGE', 'Constraint.ActiveSize', 'in')",
           "ddi_validate_D3DKMDT_MONITOR_FREQUENCY_RANGE__Constraint_ActiveSize_in");
}

static void hex_and_ones(void **state)
{
    (void)state;
    expect("d:hex(4096)", "0x1000");
    expect("d:ones(1)", "0x1u");
    expect("d:ones(5)", "0x1Fu");
    expect("d:ones(64)", "0xFFFFFFFFFFFFFFFFull");
}

/* The view's condition of a spec element's versions (view.c): the first
 * range has no lower bound, the last no upper bound. */
static const char view_spec[] = "<ddi-spec version='1'><layout>"
                                "<version name='DXGKDDI_INTERFACE_VERSION_A' short='A' value='0x1'/>"
                                "<version name='DXGKDDI_INTERFACE_VERSION_B' short='B' value='0x2'/>"
                                "<version name='DXGKDDI_INTERFACE_VERSION_C' short='C' value='0x3'/>"
                                "<version name='DXGKDDI_INTERFACE_VERSION_D' short='D' value='0x4'/>"
                                "<record name='all' versions='A-D'/><record name='mid' versions='B-C'/>"
                                "<record name='first' versions='A'/><record name='ends' versions='A C-D' archs='x64'/>"
                                "</layout></ddi-spec>";

static xmlNodePtr view_record(xmlDocPtr doc, const char *name)
{
    xmlNodePtr layout = xmlDocGetRootElement(doc)->children;
    for (xmlNodePtr r = layout->children; r; r = r->next) {
        xmlChar *n = xmlGetProp(r, BAD_CAST "name");
        int found = n && !strcmp((const char *)n, name);
        xmlFree(n);
        if (found)
            return r;
    }
    return NULL;
}

static void expect_view(xmlDocPtr doc, const char *record, const char *attr, const char *want)
{
    xmlChar *got = xmlGetNsProp(view_record(doc, record), BAD_CAST attr, BAD_CAST EMIT_VIEW_NS);
    assert_non_null(got);
    assert_string_equal((const char *)got, want);
    xmlFree(got);
}

static char *serialized(xmlDocPtr doc)
{
    xmlChar *text = NULL;
    int len = 0;
    xmlDocDumpMemory(doc, &text, &len);
    char *copy = strdup((const char *)text);
    xmlFree(text);
    return copy;
}

static void version_ranges_become_conditions(void **state)
{
    (void)state;
    xmlDocPtr doc = xmlReadMemory(view_spec, (int)strlen(view_spec), "s.xml", NULL, 0);
    char *before = serialized(doc);
    assert_int_equal(emit_view_add(doc, "s.xml"), 0);
    expect_view(doc, "all", "version-cond", "1");
    expect_view(doc, "mid", "version-cond",
                "(DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_B && "
                "DXGKDDI_INTERFACE_VERSION < DXGKDDI_INTERFACE_VERSION_D)");
    expect_view(doc, "first", "version-cond", "(DXGKDDI_INTERFACE_VERSION < DXGKDDI_INTERFACE_VERSION_B)");
    expect_view(doc, "ends", "version-cond",
                "(DXGKDDI_INTERFACE_VERSION < DXGKDDI_INTERFACE_VERSION_B) || "
                "(DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_C)");
    /* The marshallers' form adds the architectures as runtime macros. */
    expect_view(doc, "ends", "marshal-cond",
                "((DXGKDDI_INTERFACE_VERSION < DXGKDDI_INTERFACE_VERSION_B) || "
                "(DXGKDDI_INTERFACE_VERSION >= DXGKDDI_INTERFACE_VERSION_C)) && (0 || DDI_MRT_ARCH_X64)");
    /* Taken out again, the document is what it was. */
    emit_view_remove(doc);
    char *after = serialized(doc);
    assert_string_equal(after, before);
    free(before);
    free(after);
    xmlFreeDoc(doc);
}

int main(void)
{
    exsltRegisterAll();
    emit_register_extensions();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(c_ident_makes_identifiers),
        cmocka_unit_test(validator_names_are_identifiers),
        cmocka_unit_test(hex_and_ones),
        cmocka_unit_test(version_ranges_become_conditions),
    };
    int rc = cmocka_run_group_tests_name("emit_units", tests, NULL, NULL);
    xsltCleanupGlobals();
    xmlCleanupParser();
    return rc;
}
