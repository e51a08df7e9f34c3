/* Unit tests of the emit stage: the XSLT extension functions (through a
 * real stylesheet run by libxslt), the derived view's conditions and the
 * scope a callback list gives. */
#include "emit/emit.h"
#include "emit/scope.h"
#include "emit/view.h"
#include "model/model.h"

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

/* A callback whose argument record embeds one record, holds an array of
 * another, points (through a typedef) to a third and has a union member of
 * a fourth; another callback's record, and a record nothing reaches. */
static const char scope_spec[] =
    "<ddi-spec version='1'><layout>"
    "<version name='DXGKDDI_INTERFACE_VERSION_A' short='A' value='0x1'/>"
    "<record name='DRIVER_INITIALIZATION_DATA' kind='struct'>"
    "<field name='Version' path='Version' type='ULONG'/>"
    "<field name='DxgkDdiPaging' path='DxgkDdiPaging' type='PDXGKDDI_PAGING'/>"
    "<field name='DxgkDdiOther' path='DxgkDdiOther' type='PDXGKDDI_OTHER'/></record>"
    "<record name='ARGS' kind='struct'>"
    "<field name='Embedded' path='Embedded' type='EMB'/>"
    "<field name='Items' path='Items' type='ITEM' array='4'/>"
    "<field name='pTarget' path='pTarget' type='PTARGET'/>"
    "<field path='u'><record kind='union'><field name='Member' path='Member' type='MEMBER'/></record></field>"
    "</record>"
    "<record name='EMB' kind='struct'/><record name='ITEM' kind='struct'/><record name='TARGET' kind='struct'/>"
    "<record name='MEMBER' kind='struct'/><record name='OTHER_ARGS' kind='struct'/>"
    "<record name='NAMED' tag='_NAMED' kind='struct'/>"
    "<typedef name='PTARGET' type='TARGET *'/>"
    "<function-type name='PDXGKDDI_PAGING' pointer-to='DXGKDDI_PAGING'/>"
    "<function-type name='DXGKDDI_PAGING'><param name='h' type='HANDLE'/><param name='a' type='ARGS *'/>"
    "</function-type>"
    "<function-type name='PDXGKDDI_OTHER' pointer-to='DXGKDDI_OTHER'/>"
    "<function-type name='DXGKDDI_OTHER'><param name='a' type='const OTHER_ARGS *'/></function-type>"
    "</layout></ddi-spec>";

static int scoped(const struct emit_scope *s, const char *name)
{
    return strmap_get(&s->names, name) != NULL;
}

static void callbacks_scope_their_records(void **state)
{
    (void)state;
    xmlDocPtr doc = xmlReadMemory(scope_spec, (int)strlen(scope_spec), "s.xml", NULL, 0);
    struct ddi_model *m = ddi_model_load(doc);
    assert_non_null(m);
    struct emit_scope s;
    const char *paging[] = {"ddi-list=Paging", NULL};
    assert_int_equal(emit_scope_compute(&s, m, paging, "s.xml"), 0);
    assert_true(s.active);
    assert_int_equal(s.in_scope, 5);
    assert_int_equal(s.total, 8);
    const char *in[] = {"ARGS", "EMB", "ITEM", "TARGET", "MEMBER"};
    for (size_t i = 0; i < sizeof in / sizeof in[0]; i++)
        assert_true(scoped(&s, in[i]));
    assert_false(scoped(&s, "OTHER_ARGS"));
    assert_false(scoped(&s, "NAMED"));
    assert_false(scoped(&s, "DRIVER_INITIALIZATION_DATA"));
    /* Marked in the view: the records outside, not those inside. */
    assert_int_equal(emit_view_add(doc, "s.xml"), 0);
    emit_scope_mark(&s, doc);
    expect_view(doc, "OTHER_ARGS", "out-of-scope", "yes");
    assert_null(xmlGetNsProp(view_record(doc, "TARGET"), BAD_CAST "out-of-scope", BAD_CAST EMIT_VIEW_NS));
    emit_view_remove(doc);
    emit_scope_free(&s);

    /* --records by tag; --all and no list narrow nothing; an unknown name fails. */
    const char *named[] = {"ddi-list=DXGKDDI_PAGING", "records=_NAMED", NULL};
    assert_int_equal(emit_scope_compute(&s, m, named, "s.xml"), 0);
    assert_true(scoped(&s, "NAMED") && scoped(&s, "TARGET"));
    emit_scope_free(&s);
    const char *all[] = {"ddi-list=all", NULL}, *none[] = {NULL};
    assert_int_equal(emit_scope_compute(&s, m, all, "s.xml"), 0);
    assert_false(s.active);
    assert_int_equal(emit_scope_compute(&s, m, none, "s.xml"), 0);
    assert_false(s.active);
    const char *unknown[] = {"records=NOPE", NULL};
    assert_int_equal(emit_scope_compute(&s, m, unknown, "s.xml"), -1);
    emit_scope_free(&s);
    assert_int_equal(emit_scope_check_options((const char *[]){"ddi-list=all", "records=EMB", NULL}), -1);
    ddi_model_free(m);
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
        cmocka_unit_test(callbacks_scope_their_records),
    };
    int rc = cmocka_run_group_tests_name("emit_units", tests, NULL, NULL);
    xsltCleanupGlobals();
    xmlCleanupParser();
    return rc;
}
