/* Unit tests of the spec stage: every committed spec file is canonical
 * (re-serializing it gives the same bytes), and the stable-ID rules on a
 * small in-memory spec (placement after name, scopes, previous IDs kept,
 * retired IDs never reused, renumbering detected). */
#include "spec/ids.h"
#include "spec/schema.h"
#include "spec/schema_patterns.h"
#include "model/specxml.h"
#include "spec/write_behind.h"
#include "util/diag.h"
#include "util/output.h"

#include <glob.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>
#include <libxml/xmlschemastypes.h>

static void committed_specs_are_canonical(void **state)
{
    (void)state;
    glob_t g;
    assert_int_equal(glob(DDIGEN_SNAPSHOTS "/*.xml", 0, NULL, &g), 0);
    assert_true(g.gl_pathc >= 2);
    for (size_t i = 0; i < g.gl_pathc; i++) {
        char *text;
        size_t len;
        assert_int_equal(ddigen_read_file(g.gl_pathv[i], &text, &len), 0);
        xmlDocPtr doc = spec_parse_and_validate(g.gl_pathv[i], text, len);
        assert_non_null(doc);
        xmlChar *buf = NULL;
        int n = 0;
        xmlDocDumpFormatMemoryEnc(doc, &buf, &n, "UTF-8", 1);
        if ((size_t)n != len || memcmp(buf, text, len) != 0)
            fail_msg("%s is not canonical (re-serialized bytes differ)", g.gl_pathv[i]);
        xmlFree(buf);
        xmlFreeDoc(doc);
        free(text);
    }
    globfree(&g);
}

/* A union: every member sits at offset 0, which a struct may not do. */
static const char small_layout[] =
    "<ddi-spec version=\"1\"><layout>"
    "<arch name=\"x64\" triple=\"x86_64-pc-windows-msvc\" macro=\"_M_AMD64\"/>"
    "<version name=\"DXGKDDI_INTERFACE_VERSION_WDDM2_0\" short=\"WDDM2_0\" value=\"0x5023\"/>"
    "<record name=\"A\" kind=\"union\" file=\"a.h\" line=\"1\"><size arch=\"x64\" bytes=\"8\" align=\"4\"/>"
    "%s"
    "</record>"
    "<enum name=\"E\" file=\"a.h\" line=\"9\"><value name=\"E_ONE\" value=\"1\"/>%s</enum>"
    "</layout></ddi-spec>";

static const char *field(const char *name, const char *type, int bits)
{
    static char buf[4][256];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k],
             "<field name=\"%s\" path=\"%s\" type=\"%s\"%s line=\"2\"><offset arch=\"x64\" bits=\"0\"/></field>",
             name, name, type, bits ? " bits=\"1\"" : "");
    return buf[k];
}

static xmlDocPtr make(const char *fields, const char *values)
{
    char text[4096];
    snprintf(text, sizeof text, small_layout, fields, values);
    xmlDocPtr doc = spec_parse_and_validate("small.xml", text, strlen(text));
    assert_non_null(doc);
    return doc;
}

static xmlNodePtr find_field(xmlDocPtr doc, const char *name)
{
    xmlNodePtr rec = sx_child(sx_part(doc, "layout"), "record");
    for (xmlNodePtr f = sx_child(rec, "field"); f; f = sx_next(f, "field"))
        if (!strcmp(sx_get(f, "name"), name))
            return f;
    return NULL;
}

static void ids_keep_move_retire(void **state)
{
    (void)state;
    char two[1024], moved[1024];
    snprintf(two, sizeof two, "%s%s", field("a", "UINT", 1), field("b", "UINT", 1));
    xmlDocPtr old = make(two, "<value name=\"E_TWO\" value=\"2\"/>");
    struct spec_ids_stats st;
    assert_int_equal(spec_assign_ids(old, NULL, NULL, &st), 0);
    assert_int_equal(st.added, 6); /* record, 2 fields, enum, 2 values */
    /* the id sits right after name */
    xmlNodePtr b = find_field(old, "b");
    assert_string_equal((const char *)b->properties->next->name, "id");
    assert_string_equal(sx_get(b, "id"), "2");
    assert_int_equal(spec_check_ids(old, "old.xml"), 0);

    /* b moves before a, a's type changes (a new field), E_TWO goes */
    snprintf(moved, sizeof moved, "%s%s", field("b", "UINT", 1), field("a", "ULONG", 1));
    xmlDocPtr now = make(moved, "");
    assert_int_equal(spec_assign_ids(now, old, "old.xml", &st), 0);
    assert_string_equal(sx_get(find_field(now, "b"), "id"), "2"); /* moved, kept */
    assert_string_equal(sx_get(find_field(now, "a"), "id"), "3"); /* new identity, max+1 */
    assert_int_equal(st.retired, 2);                                 /* old a, E_TWO */
    xmlNodePtr retired = sx_part(now, "retired-ids");
    assert_non_null(retired);
    assert_string_equal(sx_get(sx_child(retired, "field"), "id"), "1");
    assert_string_equal(sx_get(sx_child(retired, "value"), "name"), "E_TWO");
    assert_int_equal(spec_check_kept_ids(old, "old.xml", now, "now.xml"), 0);

    /* a third revision brings E_TWO back: its old ID, not a new one */
    xmlDocPtr back = make(moved, "<value name=\"E_TWO\" value=\"2\"/>");
    assert_int_equal(spec_assign_ids(back, now, "now.xml", &st), 0);
    xmlNodePtr e = sx_child(sx_part(back, "layout"), "enum");
    assert_string_equal(sx_get(sx_next(sx_child(e, "value"), "value"), "id"), "2");

    /* renumbering is detected */
    xmlSetProp(find_field(back, "b"), BAD_CAST "id", BAD_CAST "9");
    assert_int_equal(spec_check_kept_ids(now, "now.xml", back, "back.xml"), 1);
    xmlFreeDoc(old);
    xmlFreeDoc(now);
    xmlFreeDoc(back);
}

static void field_key_identity(void **state)
{
    (void)state;
    struct arena a = {0};
    xmlDocPtr doc = make(field("a", "UINT", 1), "");
    xmlNodePtr f = find_field(doc, "a");
    assert_string_equal(spec_field_key(&a, f, 1), "a|UINT|1");
    assert_string_equal(spec_field_key(&a, f, 2), "a|UINT|1#2");
    xmlFreeDoc(doc);
    arena_free(&a);
}

/* The page checker of `ddigen docs` runs on its own thread with libxml2 on
 * a bump heap (schema.c): valid, invalid and malformed texts, many times
 * over (the heap is rewound between them), while the main thread keeps
 * using libxml2 with the system allocator. */
static const char valid_page[] =
    "<ddi-spec version=\"1\"><docs><page name=\"W\" kind=\"struct\" source=\"w.md\" format=\"markdown\" "
    "lang=\"en-us\" prose-rules=\"extracted\"><title>W structure</title><members><field name=\"A\" "
    "id=\"W.A\" line=\"3\" heading=\"field\"><text>The a.</text></field></members><rules><rule id=\"W.A.1\" "
    "kind=\"align\" subject=\"A\" line=\"3\"><operand name=\"bytes\" value=\"8\"/></rule></rules>"
    "</page></docs></ddi-spec>";
static const char invalid_page[] = /* a rule kind the schema does not have */
    "<ddi-spec version=\"1\"><docs><page name=\"W\" kind=\"struct\" source=\"w.md\" format=\"markdown\" "
    "lang=\"en-us\" prose-rules=\"extracted\"><members/><rules><rule id=\"W.1\" kind=\"Colour!\" "
    "line=\"1\"/></rules></page></docs></ddi-spec>";
static const char malformed_page[] = "<ddi-spec version=\"1\"><docs><page name=\"W\"";

static void *check_pages(void *arg)
{
    int *failures = arg;
    struct spec_text_checker *c = spec_text_checker_new();
    if (!c) {
        (*failures)++;
        return NULL;
    }
    for (int i = 0; i < 300; i++) {
        *failures += spec_text_check(c, valid_page, sizeof valid_page - 1) != 0;
        *failures += spec_text_check(c, invalid_page, sizeof invalid_page - 1) != -1;
        *failures += spec_text_check(c, malformed_page, sizeof malformed_page - 1) != -1;
    }
    spec_text_checker_free(c);
    return NULL;
}

static void text_checker_on_its_own_thread(void **state)
{
    (void)state;
    assert_int_equal(spec_text_is_valid_init(), 0);
    int failures = 0;
    pthread_t t;
    assert_int_equal(pthread_create(&t, NULL, check_pages, &failures), 0);
    for (int i = 0; i < 300; i++) { /* libxml2 on this thread meanwhile */
        xmlDocPtr doc = xmlReadMemory(valid_page, sizeof valid_page - 1, "main", NULL, XML_PARSE_NONET);
        assert_non_null(doc);
        xmlFreeDoc(doc);
    }
    pthread_join(t, NULL);
    assert_int_equal(failures, 0);
}

static xmlDocPtr parse_text(const void *text)
{
    return xmlReadMemory(text, (int)strlen(text), "made", NULL, XML_PARSE_NONET | XML_PARSE_NOBLANKS);
}

/* spec_write_behind writes what spec_write writes, for a document given or
 * made on its thread; a document that does not match the schema is
 * reported and not written, as spec_write refuses it. */
static void write_behind_is_spec_write(void **state)
{
    (void)state;
    char dir[] = "/tmp/ddigen-write-behind-XXXXXX";
    assert_non_null(mkdtemp(dir));
    char direct[64], given[64], made[64], refused[64];
    snprintf(direct, sizeof direct, "%s/direct.xml", dir);
    snprintf(given, sizeof given, "%s/given.xml", dir);
    snprintf(made, sizeof made, "%s/made.xml", dir);
    snprintf(refused, sizeof refused, "%s/refused.xml", dir);
    xmlDocPtr doc = parse_text(valid_page);
    assert_non_null(doc);
    assert_int_equal(spec_write(doc, direct), 0);
    struct spec_write_behind *w = spec_write_behind_doc(doc, given);
    assert_non_null(w);
    spec_write_behind_released(w);
    assert_int_equal(spec_write_behind_end(w), 0);
    assert_int_equal(spec_write_behind_end(spec_write_behind_make(parse_text, valid_page, made, 1)), 0);
    char *want, *got;
    size_t want_len, got_len;
    assert_int_equal(ddigen_read_file(direct, &want, &want_len), 0);
    const char *written[] = {given, made};
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(ddigen_read_file(written[i], &got, &got_len), 0);
        assert_true(got_len == want_len && memcmp(got, want, want_len) == 0);
        free(got);
        unlink(written[i]);
    }
    free(want);
    xmlFreeDoc(doc);
    unsigned errors = ddigen_diag_global.errors;
    assert_int_equal(spec_write_behind_end(spec_write_behind_make(parse_text, invalid_page, refused, 1)), -1);
    assert_true(ddigen_diag_global.errors > errors);
    assert_int_equal(access(refused, F_OK), -1);
    ddigen_diag_global.errors = errors;
    /* Unchecked (generate's layout.xml, which the spec's check covers): written as made. */
    assert_int_equal(spec_write_behind_end(spec_write_behind_make(parse_text, invalid_page, refused, 0)), 0);
    assert_int_equal(ddigen_diag_global.errors, errors);
    assert_int_equal(access(refused, F_OK), 0);
    unlink(refused);
    unlink(direct);
    rmdir(dir);
}

/* The pattern facets checked outside RELAX NG (schema_patterns.c) keep
 * the grammar's verdict: a value each pattern refuses, on an attribute of
 * each kind taken (versions, archs, an identifier, a hex value, a C++
 * type) is refused, and the same document with a value it accepts is not;
 * the page checker refuses them too. */
static const char pattern_spec[] =
    "<ddi-spec version=\"1\"><layout><arch name=\"x64\" triple=\"x86_64-pc-windows-msvc\" macro=\"%s\"/>"
    "<version name=\"DXGKDDI_INTERFACE_VERSION_WDDM2_0\" short=\"WDDM2_0\" value=\"%s\"/>"
    "<record name=\"A\" kind=\"struct\" file=\"a.h\" line=\"1\" %s><size arch=\"x64\" bytes=\"8\" align=\"4\"/>"
    "</record></layout></ddi-spec>";

static int pattern_spec_valid(const char *macro, const char *value, const char *record_attrs)
{
    char text[1024];
    snprintf(text, sizeof text, pattern_spec, macro, value, record_attrs);
    unsigned errors = ddigen_diag_global.errors;
    xmlDocPtr doc = spec_parse_and_validate("patterns.xml", text, strlen(text));
    ddigen_diag_global.errors = errors;
    struct spec_text_checker *c = spec_text_checker_new();
    int page_valid = c && spec_text_check(c, text, strlen(text)) == 0;
    spec_text_checker_free(c);
    assert_int_equal(page_valid, doc != NULL);
    xmlFreeDoc(doc);
    return doc != NULL;
}

static int location_spec_valid(const char *file, const char *line)
{
    char attrs[256], text[1024];
    snprintf(attrs, sizeof attrs, "file=\"%s\" line=\"%s\"", file, line);
    snprintf(text, sizeof text,
             "<ddi-spec version=\"1\"><layout><arch name=\"x64\" triple=\"x86_64-pc-windows-msvc\" macro=\"_M_AMD64\"/>"
             "<version name=\"DXGKDDI_INTERFACE_VERSION_WDDM2_0\" short=\"WDDM2_0\" value=\"0x5023\"/>"
             "<record name=\"A\" kind=\"struct\" %s><size arch=\"x64\" bytes=\"8\" align=\"4\"/>"
             "</record></layout></ddi-spec>",
             attrs);
    unsigned errors = ddigen_diag_global.errors;
    xmlDocPtr doc = spec_parse_and_validate("location.xml", text, strlen(text));
    ddigen_diag_global.errors = errors;
    xmlFreeDoc(doc);
    return doc != NULL;
}

static void taken_patterns_keep_the_verdict(void **state)
{
    (void)state;
    assert_true(pattern_spec_valid("_M_AMD64", "0x5023", "versions=\"WDDM2_0\" archs=\"x64\""));
    assert_true(pattern_spec_valid("_M_AMD64", "0x5023", "tag=\"_A\" cxx-type=\"N::A\""));
    assert_false(pattern_spec_valid("_M_AMD64", "0x5023", "versions=\"WDDM2_0 -x\""));
    assert_false(pattern_spec_valid("_M_AMD64", "0x5023", "versions=\"\""));
    assert_false(pattern_spec_valid("_M_AMD64", "0x5023", "archs=\"x65\""));
    assert_false(pattern_spec_valid("_M_AMD64", "0x5023", "archs=\"x64 \""));
    assert_false(pattern_spec_valid("_M_AMD64", "0x5023", "tag=\"1A\""));
    assert_false(pattern_spec_valid("_M_AMD64", "0x5023", "cxx-type=\"A\""));
    assert_false(pattern_spec_valid("_M AMD64", "0x5023", ""));
    assert_false(pattern_spec_valid("_M_AMD64", "0x5023a", ""));
    /* integer types (line: nonNegativeInteger) and plain strings (file) */
    assert_true(location_spec_valid("", " 7"));
    assert_true(location_spec_valid("a b.h", "-0"));
    assert_false(location_spec_valid("a.h", "1 2"));
    assert_false(location_spec_valid("a.h", "-1"));
    assert_false(pattern_spec_valid("_M_AMD64", "0x5023", "line=\"-3\""));
}

/* The check made in place of XSD integer types accepts exactly what
 * libxml2's datatype library accepts, edge by edge: signs, zeros, blanks
 * around and inside, 24 and 25 significant digits. */
static void integer_checks_are_libxml2s_verdict(void **state)
{
    (void)state;
    static const char *const types[] = {"integer", "nonNegativeInteger", "positiveInteger"};
    static const char *const values[] = {
        "0", "00", "+0", "-0", "-00", "1", "+1", "-1", "007", "-007", " 5", "5 ", "\t5\n", "\r\n12 ", "5 5", "",
        " ", "+", "-", "+-1", "1a", "0x5", "1.0", "1e3", "\v5", "123456789012345678901234",
        "1234567890123456789012345", "000000000123456789012345678901234", "-123456789012345678901234",
        "0000000000000000000000000000000001"};
    xmlSchemaInitTypes();
    for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
        xmlSchemaTypePtr type =
            xmlSchemaGetPredefinedType(BAD_CAST types[t], BAD_CAST "http://www.w3.org/2001/XMLSchema");
        assert_non_null(type);
        for (size_t v = 0; v < sizeof values / sizeof values[0]; v++) {
            int library = xmlSchemaValPredefTypeNode(type, BAD_CAST values[v], NULL, NULL) == 0;
            int ours = schema_patterns_integer_holds(types[t], BAD_CAST values[v]);
            if (library != ours)
                fail_msg("%s \"%s\": libxml2 says %d, the check %d", types[t], values[v], library, ours);
        }
    }
    assert_int_equal(schema_patterns_integer_holds("string", BAD_CAST "1"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(committed_specs_are_canonical),
        cmocka_unit_test(text_checker_on_its_own_thread),
        cmocka_unit_test(write_behind_is_spec_write),
        cmocka_unit_test(ids_keep_move_retire),
        cmocka_unit_test(field_key_identity),
        cmocka_unit_test(taken_patterns_keep_the_verdict),
        cmocka_unit_test(integer_checks_are_libxml2s_verdict),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    xmlCleanupParser();
    return rc;
}
