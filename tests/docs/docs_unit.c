/* Unit tests of the docs stage: text helpers, heading oddities, rule kinds,
 * and bad input (diagnostics with exact file:line, never a crash). */
#include "docs_test_util.h"
#include "outcheck.h"
#include "text.h"
#include "util/diag.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* One page read from memory, returned as serialized XML (caller frees). */
static char *read_page(const char *name, const char *data, size_t len, enum ddigen_docs_format fmt, int *rc)
{
    xmlDocPtr doc = xmlNewDoc((const xmlChar *)"1.0");
    xmlNodePtr root = xmlNewNode(NULL, (const xmlChar *)"ddi-spec");
    xmlDocSetRootElement(doc, root);
    xmlNodePtr docs = xmlNewChild(root, NULL, (const xmlChar *)"docs", NULL);
    int r = ddigen_docs_read_buffer(name, data, len, fmt, NULL, docs, NULL);
    if (rc)
        *rc = r;
    char *xml = NULL;
    size_t n;
    assert_int_equal(ddigen_docs_serialize(doc, &xml, &n), 0);
    assert_int_equal(dt_validate(doc, DDIGEN_DOCS_RNG), 0);
    xmlFreeDoc(doc);
    return xml;
}

static char *md(const char *body)
{
    const char *fm = "---\nUID: NS:d3dkmddi._T\ntitle: T (d3dkmddi.h)\n---\n\n## -struct-fields\n\n";
    size_t n = strlen(fm) + strlen(body) + 1;
    char *s = malloc(n);
    snprintf(s, n, "%s%s", fm, body);
    return s;
}

static void assert_has(const char *xml, const char *needle)
{
    if (!strstr(xml, needle))
        fail_msg("expected to find:\n  %s\nin:\n%s", needle, xml);
}

static void assert_lacks(const char *xml, const char *needle)
{
    if (strstr(xml, needle))
        fail_msg("did not expect:\n  %s", needle);
}

static char *md_xml(const char *body)
{
    char *src = md(body);
    char *xml = read_page("t.md", src, strlen(src), DDIGEN_DOCS_MARKDOWN, NULL);
    free(src);
    return xml;
}

static void test_direction_spellings(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        enum docs_dir dir;
        bool opt;
    } cases[] = {
        {"in", DOCS_DIR_IN, false},           {"out", DOCS_DIR_OUT, false},
        {"in/out", DOCS_DIR_INOUT, false},    {"in, out", DOCS_DIR_INOUT, false},
        {"in, optional", DOCS_DIR_IN, true},  {"in,opt", DOCS_DIR_IN, true},
        {"in/out,opt", DOCS_DIR_INOUT, true}, {"out/optional", DOCS_DIR_OUT, true},
        {"IN", DOCS_DIR_IN, false},           {"inout", DOCS_DIR_INOUT, false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        enum docs_dir d = DOCS_DIR_NONE;
        bool opt = false;
        assert_true(docs_parse_direction(cases[i].text, strlen(cases[i].text), &d, &opt));
        assert_int_equal(d, cases[i].dir);
        assert_int_equal(opt, cases[i].opt);
    }
    enum docs_dir d;
    bool opt;
    assert_false(docs_parse_direction("5", 1, &d, &opt));
    assert_false(docs_parse_direction("MAX_PATH", 8, &d, &opt));
    assert_false(docs_parse_direction("optional", 8, &d, &opt));
}

static void test_versions(void **state)
{
    (void)state;
    static const struct {
        const char *text, *wddm, *ddi;
    } cases[] = {
        {"Supported starting with Windows Vista.", "1.0", "DXGKDDI_INTERFACE_VERSION_VISTA"},
        {"Windows 8", "1.2", "DXGKDDI_INTERFACE_VERSION_WIN8"},
        {"Windows 8.1", "1.3", "DXGKDDI_INTERFACE_VERSION_WDDM1_3"},
        {"Windows 10, version 1703 (WDDM 2.2)", "2.2", "DXGKDDI_INTERFACE_VERSION_WDDM2_2"},
        {"Windows 10 version 1809", "2.5", "DXGKDDI_INTERFACE_VERSION_WDDM2_5"},
        {"Windows Server 2022", "2.9", "DXGKDDI_INTERFACE_VERSION_WDDM2_9"},
        {"Windows Server 2012 R2", "1.3", "DXGKDDI_INTERFACE_VERSION_WDDM1_3"},
        {"starting in WDDM2.1", "2.1", "DXGKDDI_INTERFACE_VERSION_WDDM2_1"},
        {"Windows 11, version 22H2", "3.1", "DXGKDDI_INTERFACE_VERSION_WDDM3_1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const char *w = NULL, *ddi = NULL, *basis = NULL;
        assert_true(docs_normalize_version(cases[i].text, &w, &ddi, &basis));
        assert_string_equal(w, cases[i].wddm);
        assert_string_equal(ddi, cases[i].ddi);
    }
    const char *w, *ddi, *basis;
    assert_false(docs_normalize_version("Windows", &w, &ddi, &basis));
    assert_false(docs_normalize_version("", &w, &ddi, &basis));
}

struct sentences {
    char got[8][128];
    unsigned lines[8];
    int n;
};
static void on_sentence(void *ctx, const char *s, size_t n, unsigned line)
{
    struct sentences *c = ctx;
    if (c->n < 8) {
        snprintf(c->got[c->n], sizeof c->got[0], "%.*s", (int)n, s);
        c->lines[c->n++] = line;
    }
}

static void test_sentences(void **state)
{
    (void)state;
    struct sentences c = {0};
    docs_split_sentences("The size, e.g. 4 KB.\nIt must be aligned. Windows 10, version 1703 (WDDM 2.2) adds it.", on_sentence, &c);
    assert_int_equal(c.n, 3);
    assert_string_equal(c.got[0], "The size, e.g. 4 KB.");
    assert_string_equal(c.got[1], "It must be aligned.");
    assert_int_equal(c.lines[1], 1);
}

static void test_heading_oddities(void **state)
{
    (void)state;
    char *xml = md_xml("### - field Spaced\n\nx\n\n### -field Colon :\n\ny\n\n### -field Arr.[8]\n\nz\n\n"
                       "### -field A.B.C [in, optional]   \n\nw\n\n#### A.(unnamed union)\n\n[out] u\n\n"
                       "### -field Empty\n\n### -field Last\n\nv\n");
    assert_has(xml, "path=\"Spaced\"");
    assert_has(xml, "path=\"Colon\"");
    assert_has(xml, "path=\"Arr\" id=\"T.Arr\" line=\"16\" heading=\"field\" array=\"8\"");
    assert_has(xml, "path=\"A.B.C\" id=\"T.A.B.C\" line=\"20\" heading=\"field\" direction=\"in\" optional=\"true\"");
    assert_has(xml, "path=\"A.(unnamed union)\"");
    assert_has(xml, "path=\"Empty\"");
    assert_has(xml, "path=\"Last\"");
    free(xml);
}

static void test_enum_values_and_params(void **state)
{
    (void)state;
    const char *src = "---\nUID: NE:d3dkmddi._E\ntitle: E (d3dkmddi.h)\n---\n\n## -enum-fields\n\n"
                      "### -field E_A:0\n\na\n\n### -field E_B:E_A\n\nb\n\n### -field E_C\n\nc\n";
    char *xml = read_page("e.md", src, strlen(src), DDIGEN_DOCS_MARKDOWN, NULL);
    assert_has(xml, "<value name=\"E_A\" path=\"E_A\" id=\"E.E_A\" line=\"8\" heading=\"field\" value=\"0\"");
    assert_has(xml, "value=\"E_A\"");
    assert_has(xml, "<value name=\"E_C\"");
    free(xml);
    const char *cb = "---\nUID: NC:d3dkmddi.F\ntitle: F (d3dkmddi.h)\n---\n\n## -parameters\n\n"
                     "### -param hA:\n\n[in] handle\n\n## -param pB [out]\n\nbuffer\n";
    xml = read_page("f.md", cb, strlen(cb), DDIGEN_DOCS_MARKDOWN, NULL);
    assert_has(xml, "<param name=\"hA\" path=\"hA\" id=\"F.hA\" line=\"8\" heading=\"param\" direction=\"in\" direction-from=\"body\"");
    assert_has(xml, "<param name=\"pB\" path=\"pB\" id=\"F.pB\" line=\"12\" heading=\"param\" direction=\"out\"");
    free(xml);
}

/* A one-line ```span``` at the start of a line is not a fence. */
static void test_backtick_span(void **state)
{
    (void)state;
    char *xml = md_xml("### -field A\n\n```x = y + z```.\n\n### -field B\n\nb\n\n### -field C\n\nc\n");
    assert_has(xml, "path=\"B\"");
    assert_has(xml, "path=\"C\"");
    free(xml);
}

static void test_mojibake_and_html(void **state)
{
    (void)state;
    char *xml = md_xml("### -field A\n\nOne\xC3\xA2\xE2\x82\xAC\xE2\x80\x9Dtwo.\xC3\x82\xC2\xA0Three <b>bold</b>.\n\n"
                       "<div class=\"alert\"><b>Note</b> This member is reserved and must be zero.</div>\n");
    assert_has(xml, "One\xE2\x80\x94two. Three bold.");
    assert_has(xml, "repaired mojibake");
    assert_has(xml, "T.A:reserved-zero");
    free(xml);
}

static void test_rule_kinds(void **state)
{
    (void)state;
    char *xml = md_xml(
        "### -field Addr\n\nThe address, in bytes. It must be aligned on a 64-byte boundary.\n\n"
        "### -field Count\n\nThe count must be nonzero. Count must be less than or equal to 16.\n\n"
        "### -field FlagA\n\nSetting this member is equivalent to setting the fifth bit of the 32-bit **Value** member (0x00000010).\n\n"
        "### -field FlagB\n\nSetting this member is equivalent to setting the fifth bit of the 32-bit **Value** member (0x00000010). "
        "The driver cannot set this member in combination with the **FlagA** member. When the driver sets **FlagB**, it must also set the **FlagC** member.\n\n"
        "### -field hX\n\nMust be NULL when Mode.Off is specified.\n\n"
        "### -field Sel\n\nA selector, or zero if the data is described by the **pList** member.\n\n"
        "### -field pList\n\nThe list, if the **Sel** member is zero.\n\n"
        "### -field Fast\n\nThe driver must set **DXGK_TCAPS FastSupported** to use this. Supported starting with Windows 10, version 1803.\n\n"
        "### -field Later\n\nIf **Fast** is set, **Later** is a non-NULL pointer to the fast table.\n\n"
        "### -field Rsvd\n\nThis member is reserved and should be set to zero.\n\n"
        "### -field Vague\n\nThe driver should think about this.\n");
    assert_has(xml, "T.Addr:align");
    assert_has(xml, "name=\"bytes\" value=\"64\"");
    assert_has(xml, "T.Addr:units");
    assert_has(xml, "T.Count:nonzero");
    assert_has(xml, "T.Count:range");
    assert_has(xml, "T.FlagA:bit");
    assert_has(xml, "name=\"mask\" value=\"0x00000010\"");
    assert_has(xml, "name=\"shared-with\" value=\"FlagA\"");
    assert_has(xml, "T.FlagB:exclusive:FlagA");
    assert_has(xml, "T.FlagB:implies:FlagC");
    assert_has(xml, "T.hX:null-when");
    assert_has(xml, "T.Sel:discriminator");
    assert_has(xml, "T.pList:discriminator");
    assert_has(xml, "T.Fast:requires-cap:FastSupported");
    assert_has(xml, "T.Fast:availability");
    assert_has(xml, "DXGKDDI_INTERFACE_VERSION_WDDM2_4");
    assert_has(xml, "T.Later:nonnull-iff");
    assert_has(xml, "T.Rsvd:reserved-zero");
    assert_has(xml, "<sentence subject=\"Vague\" line=\"50\" reason=\"no-pattern\">The driver should think about this.</sentence>");
    assert_lacks(xml, "T.Vague:");
    free(xml);
}

/* Bit positions: a range of ordinals gives the first bit and a width;
 * "first" inside "twenty-first" is not a second ordinal. */
static void test_bit_positions(void **state)
{
    (void)state;
    char *xml = md_xml(
        "### -field Seg\n\nSetting this member is equivalent to setting the second through sixth bit of a 32-bit "
        "value (0x0000002E).\n\n"
        "### -field Late\n\nSetting this member is equivalent to setting the twenty-first bit of the 32-bit "
        "**Value** member (0x00100000).\n");
    assert_has(xml, "<rule id=\"T.Seg:bit\" kind=\"bit\" subject=\"Seg\" line=\"10\">\n"
                    "          <operand name=\"index\" value=\"1\"/>\n"
                    "          <operand name=\"width\" value=\"5\"/>\n"
                    "          <operand name=\"mask\" value=\"0x0000002e\"/>");
    assert_has(xml, "<operand name=\"index\" value=\"20\"/>");
    assert_lacks(xml, "<operand name=\"index\" value=\"0\"/>");
    free(xml);
}

/* Phrasings added for coverage: each reads one family, and the near misses
 * next to it stay unextracted. */
static void test_rules_set_and_forbid(void **state)
{
    (void)state;
    char *xml = md_xml(
        "### -field Cached\n\nThe driver must not set Cached on the primary surface. "
        "The driver should never set the Cached member for a write-only allocation.\n\n"
        "### -field Version\n\nMust be set to 2.\n\n"
        "### -field EscapeType\n\nMust be set to D3DDDI_ESCAPE_WIDGET.\n\n"
        "### -field Stereo\n\nMust always be FALSE.\n\n"
        "### -field Mutable\n\nCallers of QueryWidget must set this value to 0.\n\n"
        "### -field Translate\n\nTranslate must be set to 0 when WIDGET_PATH_A is used.\n\n"
        "### -field Large\n\nThis flag cannot be set for the leaf page tables.\n\n"
        "### -field Qualified\n\nWDDM 1.3 and later drivers must set this member to 1.\n\n"
        "### -field Led\n\nFor these devices, the driver should set Led to 1.\n");
    assert_has(xml, "T.Cached:zero-when");
    assert_has(xml, "name=\"when\" value=\"on the primary surface\"");
    assert_has(xml, "name=\"when\" value=\"for a write-only allocation\""); /* second condition, same rule */
    assert_has(xml, "T.Version:range");
    assert_has(xml, "name=\"min\" value=\"2\"");
    assert_has(xml, "name=\"max\" value=\"D3DDDI_ESCAPE_WIDGET\"");
    assert_has(xml, "T.Stereo:reserved-zero");
    assert_has(xml, "T.Mutable:reserved-zero");
    assert_has(xml, "T.Translate:zero-when");
    assert_has(xml, "name=\"when\" value=\"when WIDGET_PATH_A is used\"");
    assert_has(xml, "T.Large:zero-when");
    /* a qualified actor or a leading clause is a condition we do not read */
    assert_lacks(xml, "T.Qualified:range"); /* (its availability is read) */
    assert_lacks(xml, "T.Led:");
    free(xml);
}

static void test_rules_both_implies_enum(void **state)
{
    (void)state;
    char *xml = md_xml(
        "### -field FlipA\n\nThe FlipA and FlipB members cannot both be set at the same time.\n\n"
        "### -field FlipB\n\nSee FlipA.\n\n"
        "### -field GpuMmu\n\nGpuMmu and IoMmu cannot be set at the same time.\n\n"
        "### -field IoMmu\n\nIOMMU.\n\n"
        "### -field Aware\n\n[!NOTE] If Aware is set to 1, the MultiEngine member must also be set to a value of 1.\n\n"
        "### -field Cached2\n\nAdditionally, the Aware flag must be set.\n\n"
        "### -field MultiEngine\n\nMulti.\n\n"
        "### -field Mode\n\nMust be one of the values in the WIDGET_MODE enumeration.\n\n"
        "### -field Kind\n\nThe kind.\n\n"
        "### -field Mdl\n\nUsed only when Kind is WIDGET_KIND_MDL.\n\n"
        "### -field Size\n\nThis value must be a multiple of PAGE_SIZE.\n");
    /* a set of members that exclude each other is one rule on their record */
    assert_has(xml, "T:exclusive:FlipA+FlipB");
    assert_has(xml, "T:exclusive:GpuMmu+IoMmu");
    assert_has(xml, "T.Aware:implies:MultiEngine");
    assert_has(xml, "T.Cached2:implies:Aware");
    assert_has(xml, "T.Mode:range");
    assert_has(xml, "name=\"enum\" value=\"WIDGET_MODE\"");
    assert_has(xml, "T.Mdl:discriminator");
    assert_has(xml, "name=\"value\" value=\"WIDGET_KIND_MDL\"");
    assert_has(xml, "T.Size:align:size");
    assert_has(xml, "name=\"unit\" value=\"page\"");
    free(xml);
}

/* Issue 11: a value-table row is about the value; a body marker that
 * contradicts the heading is kept beside it. */
static void test_rules_table_row_and_direction_conflict(void **state)
{
    (void)state;
    char *xml = md_xml("### -field Kind [in]\n\n[out] The kind of widget, one of:\n\n"
                       "| Value | Meaning |\n|---|---|\n"
                       "| WIDGET_KIND_ROUND | A round one. Supported starting with Windows 10. |\n");
    assert_has(xml, "T.WIDGET_KIND_ROUND:availability");
    assert_lacks(xml, "T.Kind:availability");
    assert_has(xml, "T.Kind:direction\"");
    assert_has(xml, "T.Kind:direction:body");
    assert_has(xml, "name=\"value\" value=\"out\"");
    free(xml);
}

/* Ordinal bit ranges as pages write them, with and without "the". */
static void test_rules_ordinal_bits(void **state)
{
    (void)state;
    char *xml = md_xml("### -field Wide\n\nSame as setting the eighth and ninth bits.\n\n"
                       "### -field Spare\n\nThe third through the sixth bits are spare.\n\n");
    assert_has(xml, "T.Wide:bit");
    assert_has(xml, "name=\"index\" value=\"7\"/>\n          <operand name=\"width\" value=\"2\"");
    assert_has(xml, "T.Spare:bit");
    assert_has(xml, "name=\"index\" value=\"2\"/>\n          <operand name=\"width\" value=\"4\"");
    free(xml);
}

/* "must be zero" said of the member beside it is that member's rule. */
static void test_rules_zero_of_another_member(void **state)
{
    (void)state;
    char *xml = md_xml("### -field pItems\n\nThe items. If pItems is NULL, ItemCount must be zero.\n\n"
                       "### -field ItemCount\n\nHow many.\n\n");
    assert_lacks(xml, "T.pItems:reserved-zero");
    assert_has(xml, "T.ItemCount:zero-when");
    free(xml);
}

/* Issue 26: a sentence that is no requirement gives no check's rule; a
 * subject the sentence does not name is not the rule's; zero "for" one
 * case keeps the case; a field the driver moves is checked on entry. */
static void test_rules_no_requirement(void **state)
{
    (void)state;
    char *xml = md_xml("### -field SlotIndex\n\nThe widget slot. The ring itself might be aligned on 4 KB.\n\n"
                       "### -field Length\n\nThe length is rounded up to a multiple of 64 bytes by the runtime.\n\n"
                       "### -field Wake\n\nWhen set, the companion request is limited:\n\n"
                       "* **PartCount** must be zero.\n\n"
                       "### -field Origin\n\nThe origin must lie in a reserved (zero) or bound region.\n\n"
                       "### -field Warmup\n\nThis value should be zero for the cold state.\n\n"
                       "### -field pCursor\n\nThe first free byte of the ring, which is aligned on 256 bytes. "
                       "Before it returns, the driver must set pCursor to the byte after the last one it wrote.\n\n");
    assert_lacks(xml, "T.SlotIndex:align");
    assert_lacks(xml, "T.Length:align");
    assert_lacks(xml, "T.Wake:reserved-zero");
    assert_lacks(xml, "T.Origin:reserved-zero");
    assert_has(xml, "id=\"T.Warmup:reserved-zero\"");
    assert_has(xml, "condition=\"for the cold state\"");
    assert_has(xml, "<operand name=\"at\" value=\"entry\"/>");
    free(xml);
}

static size_t count_of(const char *xml, const char *needle)
{
    size_t n = 0;
    for (const char *c = strstr(xml, needle); c; c = strstr(c + 1, needle))
        n++;
    return n;
}

/* Issue 25: a rule ID names one statement. Two range statements on one
 * field are two rules (the second's ID says what it states); the same
 * statement said again stays one rule. */
static void test_rules_two_ranges_one_field(void **state)
{
    (void)state;
    char *xml = md_xml("### -field Lanes\n\nThe number of lanes the widget drives. Lanes must be at least 1. "
                       "Lanes must not exceed 16.\n\nAs said above, Lanes must be at least 1.\n\n");
    assert_has(xml, "id=\"T.Lanes:range\"");
    assert_has(xml, "name=\"min\" value=\"1\"");
    assert_has(xml, "id=\"T.Lanes:range:max=16\"");
    assert_has(xml, "name=\"max\" value=\"16\"");
    assert_int_equal(count_of(xml, "kind=\"range\""), 2);
    free(xml);
}

/* Issue 25: a rule whose sentence states a condition its operands do not
 * carry is marked with that condition; one that carries it ("when") is not. */
static void test_rules_condition_mark(void **state)
{
    (void)state;
    char *xml = md_xml("### -field pRing\n\nWhen the widget is first started, this address is aligned on 4 KB.\n\n"
                       "### -field Spin\n\nSpin must be set to 0 when WIDGET_MODE_IDLE is used.\n\n");
    assert_has(xml, "kind=\"align\" subject=\"pRing\" line=\"10\" condition=\"When the widget is first started\"");
    assert_has(xml, "T.Spin:zero-when");
    assert_has(xml, "kind=\"zero-when\" subject=\"Spin\" line=\"14\">"); /* no condition= */
    free(xml);
}

static void test_rules_enum_do_not_use(void **state)
{
    (void)state;
    const char *src = "---\nUID: NE:d3dkmddi._E\ntitle: E (d3dkmddi.h)\n---\n\n## -enum-fields\n\n"
                      "### -field E_ONE\n\nOne.\n\n"
                      "### -field E_FORCE_ULONG\n\nYou should not use this value.\n\n"
                      "### -field E_NONE\n\nDo not use this value in the X.Priority member.\n";
    char *xml = read_page("e.md", src, strlen(src), DDIGEN_DOCS_MARKDOWN, NULL);
    assert_has(xml, "E.E_FORCE_ULONG:reserved");
    assert_has(xml, "name=\"use\" value=\"forbidden\"");
    assert_lacks(xml, "E.E_NONE:reserved"); /* contextual: not the whole statement */
    free(xml);
}

/* ---- bad input ----------------------------------------------------------- */

struct bad {
    const char *name;
    const char *data;
    size_t len;
    enum ddigen_docs_format fmt;
    int rc;
};

static void run_bad(void *arg)
{
    struct bad *b = arg;
    char *xml = read_page(b->name, b->data, b->len, b->fmt, &b->rc);
    free(xml);
}

static char *bad_input(const char *name, const char *data, size_t len, enum ddigen_docs_format fmt, int *rc)
{
    struct bad b = {name, data, len, fmt, 0};
    unsigned before = ddigen_diag_global.errors;
    char *err = dt_capture_stderr(run_bad, &b);
    assert_true(ddigen_diag_global.errors > before);
    *rc = b.rc;
    return err;
}

static void test_binary(void **state)
{
    (void)state;
    char data[256];
    for (int i = 0; i < 256; i++)
        data[i] = (char)(i * 37);
    int rc;
    char *err = bad_input("bin.md", data, sizeof data, DDIGEN_DOCS_AUTO, &rc);
    assert_int_equal(rc, -1);
    assert_has(err, "bin.md:1: error: binary data");
    free(err);
}

static void test_invalid_utf8(void **state)
{
    (void)state;
    char *src = md("### -field A\n\nok\n\n### -field B\n\nbad \xFF\xFE byte\n");
    int rc;
    char *err = bad_input("u.md", src, strlen(src), DDIGEN_DOCS_MARKDOWN, &rc);
    assert_int_equal(rc, 0);
    assert_has(err, "u.md:14: error: invalid UTF-8 byte 0xff");
    free(err);
    free(src);
}

static void test_unterminated_front_matter(void **state)
{
    (void)state;
    const char *src = "---\nUID: NS:x._Y\ntitle: Y\n\n## -struct-fields\n";
    int rc;
    char *err = bad_input("fm.md", src, strlen(src), DDIGEN_DOCS_MARKDOWN, &rc);
    assert_int_equal(rc, -1);
    assert_has(err, "fm.md:1: error: unterminated front matter");
    free(err);
}

static void test_bad_yaml(void **state)
{
    (void)state;
    const char *src = "---\nUID: NS:x._Y\ntitle: [unclosed\n---\n\n## -struct-fields\n";
    int rc;
    char *err = bad_input("y.md", src, strlen(src), DDIGEN_DOCS_MARKDOWN, &rc);
    assert_has(err, "y.md:4: error: front matter:");
    free(err);
}

static void test_unterminated_fence(void **state)
{
    (void)state;
    char *src = md("### -field A\n\ntext\n\n```cpp\nint x;\n\n### -field B\n\nlost\n");
    int rc;
    char *err = bad_input("f.md", src, strlen(src), DDIGEN_DOCS_MARKDOWN, &rc);
    assert_has(err, "f.md:12: error: unterminated code fence");
    free(err);
    free(src);
}

static void test_long_line(void **state)
{
    (void)state;
    size_t n = 3u * 1024 * 1024; /* below the page limit (4 MiB), far above the long-line note */
    char *src = malloc(n + 64);
    strcpy(src, "T structure (d3dkmddi.h)\nMembers\nA\n");
    size_t k = strlen(src);
    for (size_t i = 0; i < n; i++)
        src[k + i] = (i % 7 == 6) ? ' ' : (i % 500 == 499 ? '.' : 'a');
    src[k + n] = '\n';
    int rc;
    xmlDocPtr doc = xmlNewDoc((const xmlChar *)"1.0");
    xmlNodePtr root = xmlNewNode(NULL, (const xmlChar *)"ddi-spec");
    xmlDocSetRootElement(doc, root);
    xmlNodePtr docs = xmlNewChild(root, NULL, (const xmlChar *)"docs", NULL);
    unsigned warnings = ddigen_diag_global.warnings;
    rc = ddigen_docs_read_buffer("long.txt", src, k + n + 1, DDIGEN_DOCS_TEXT, NULL, docs, NULL);
    assert_int_equal(rc, 0);
    assert_true(ddigen_diag_global.warnings > warnings);
    char *xml;
    size_t len;
    ddigen_docs_serialize(doc, &xml, &len);
    assert_has(xml, "<diagnostic severity=\"warning\" line=\"4\">line is 3145728 bytes long</diagnostic>");
    free(xml);
    xmlFreeDoc(doc);
    /* one byte past the limit: refused by name, nothing read */
    size_t big = DDIGEN_DOCS_MAX_PAGE_BYTES + 1;
    char *huge = malloc(big);
    memset(huge, 'a', big);
    memcpy(huge, src, k);
    doc = xmlNewDoc((const xmlChar *)"1.0");
    root = xmlNewNode(NULL, (const xmlChar *)"ddi-spec");
    xmlDocSetRootElement(doc, root);
    docs = xmlNewChild(root, NULL, (const xmlChar *)"docs", NULL);
    rc = ddigen_docs_read_buffer("huge.txt", huge, big, DDIGEN_DOCS_TEXT, NULL, docs, NULL);
    assert_int_not_equal(rc, 0);
    assert_null(docs->children);
    xmlFreeDoc(doc);
    free(huge);
    free(src);
}

static void test_empty(void **state)
{
    (void)state;
    int rc;
    char *err = bad_input("e.txt", "\n\n  \n", 5, DDIGEN_DOCS_TEXT, &rc);
    assert_int_equal(rc, -1);
    assert_has(err, "e.txt:1: error: empty page");
    free(err);
}

/* The output checker: the document is valid exactly when each page is. */
static const char good_page[] =
    "<page name=\"W\" kind=\"struct\" source=\"w.md\" format=\"markdown\" lang=\"en-us\" "
    "prose-rules=\"extracted\"><members/><rules/></page>";

static void test_outcheck_valid_pages(void **state)
{
    (void)state;
    struct docs_outcheck *c = docs_outcheck_start();
    assert_non_null(c);
    for (int i = 0; i < 300; i++)
        docs_outcheck_push(c, good_page, strlen(good_page));
    assert_true(docs_outcheck_finish(c));
    c = docs_outcheck_start(); /* no page: an empty <docs> */
    assert_true(docs_outcheck_finish(c));
}

static void expect_refused(const char *page)
{
    struct docs_outcheck *c = docs_outcheck_start();
    docs_outcheck_push(c, good_page, strlen(good_page));
    docs_outcheck_push(c, page, strlen(page));
    docs_outcheck_push(c, good_page, strlen(good_page));
    assert_false(docs_outcheck_finish(c));
}

static void test_outcheck_refuses(void **state)
{
    (void)state;
    /* schema-invalid: a kind outside the closed set, a missing <rules> */
    expect_refused("<page name=\"W\" kind=\"gadget\" source=\"w.md\" format=\"markdown\" lang=\"en-us\" "
                   "prose-rules=\"extracted\"><members/><rules/></page>");
    expect_refused("<page name=\"W\" kind=\"struct\" source=\"w.md\" format=\"markdown\" lang=\"en-us\" "
                   "prose-rules=\"extracted\"><members/></page>");
    /* not well-formed: a control character reference, an unclosed element,
     * a page that closes the envelope early */
    expect_refused("<page name=\"W&#1;\" kind=\"struct\" source=\"w.md\" format=\"markdown\" lang=\"en-us\" "
                   "prose-rules=\"extracted\"><members/><rules/></page>");
    expect_refused("<page name=\"W\" kind=\"struct\" source=\"w.md\" format=\"markdown\" lang=\"en-us\" "
                   "prose-rules=\"extracted\"><members/><rules>");
    expect_refused("</docs></ddi-spec><ddi-spec version=\"1\"><docs>");
    /* a NULL checker (no thread) never claims the output was checked */
    docs_outcheck_push(NULL, good_page, strlen(good_page));
    assert_false(docs_outcheck_finish(NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_direction_spellings),
        cmocka_unit_test(test_versions),
        cmocka_unit_test(test_sentences),
        cmocka_unit_test(test_heading_oddities),
        cmocka_unit_test(test_enum_values_and_params),
        cmocka_unit_test(test_backtick_span),
        cmocka_unit_test(test_mojibake_and_html),
        cmocka_unit_test(test_rule_kinds),
        cmocka_unit_test(test_bit_positions),
        cmocka_unit_test(test_binary),
        cmocka_unit_test(test_invalid_utf8),
        cmocka_unit_test(test_rules_set_and_forbid),
        cmocka_unit_test(test_rules_both_implies_enum),
        cmocka_unit_test(test_rules_table_row_and_direction_conflict),
        cmocka_unit_test(test_rules_enum_do_not_use),
        cmocka_unit_test(test_rules_ordinal_bits),
        cmocka_unit_test(test_rules_two_ranges_one_field),
        cmocka_unit_test(test_rules_condition_mark),
        cmocka_unit_test(test_rules_zero_of_another_member),
        cmocka_unit_test(test_rules_no_requirement),
        cmocka_unit_test(test_unterminated_front_matter),
        cmocka_unit_test(test_bad_yaml),
        cmocka_unit_test(test_unterminated_fence),
        cmocka_unit_test(test_long_line),
        cmocka_unit_test(test_empty),
        cmocka_unit_test(test_outcheck_valid_pages),
        cmocka_unit_test(test_outcheck_refuses),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    ddigen_docs_shutdown();
    xmlCleanupParser();
    return rc;
}
