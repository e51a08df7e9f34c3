/* The rule pattern table (gen/docs/rule_table.c): every pattern's example
 * sentence, read on a page of its own, gives the rule the entry says; and
 * sentences that end where a pattern expects more (the "Note must set ..."
 * heap over-read of issue 10) give no rule and no memory error. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "docs_test_util.h"
#include "rule_table.h"

#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <libxml/parser.h>
#include <libxml/tree.h>

static void put(char **buf, size_t *len, size_t *cap, const char *s)
{
    size_t n = strlen(s);
    if (*len + n + 1 > *cap) {
        *cap = (*len + n + 1) * 2;
        *buf = realloc(*buf, *cap);
    }
    memcpy(*buf + *len, s, n + 1);
    *len += n;
}

/* A page named T whose fields are `fields` ("enum: A B" for an enum page),
 * with `text` as the body of field `in` ("-": the remarks). */
static char *page_with(const char *fields, const char *in, const char *text)
{
    bool is_enum = !strncmp(fields, "enum: ", 6);
    if (is_enum)
        fields += 6;
    char *buf = NULL;
    size_t len = 0, cap = 0;
    put(&buf, &len, &cap, is_enum ? "---\nUID: NE:d3dkmddi._T\ntitle: T (d3dkmddi.h)\n---\n\n## -enum-fields\n\n"
                                  : "---\nUID: NS:d3dkmddi._T\ntitle: T (d3dkmddi.h)\n---\n\n## -struct-fields\n\n");
    char names[512];
    snprintf(names, sizeof names, "%s", fields);
    bool seen = false;
    for (char *save, *f = strtok_r(names, " ", &save); f; f = strtok_r(NULL, " ", &save)) {
        put(&buf, &len, &cap, "### -field ");
        put(&buf, &len, &cap, f);
        put(&buf, &len, &cap, "\n\n");
        seen |= !strcmp(f, in);
        put(&buf, &len, &cap, !strcmp(f, in) ? text : "Text.");
        put(&buf, &len, &cap, "\n\n");
    }
    if (!seen && strcmp(in, "-")) {
        put(&buf, &len, &cap, "### -field ");
        put(&buf, &len, &cap, in);
        put(&buf, &len, &cap, "\n\n");
        put(&buf, &len, &cap, text);
        put(&buf, &len, &cap, "\n\n");
    }
    if (!strcmp(in, "-")) {
        put(&buf, &len, &cap, "## -remarks\n\n");
        put(&buf, &len, &cap, text);
        put(&buf, &len, &cap, "\n");
    }
    return buf;
}

static xmlDocPtr read_md(const char *src)
{
    xmlDocPtr doc = xmlNewDoc((const xmlChar *)"1.0");
    xmlNodePtr root = xmlNewNode(NULL, (const xmlChar *)"ddi-spec");
    xmlDocSetRootElement(doc, root);
    xmlNodePtr docs = xmlNewChild(root, NULL, (const xmlChar *)"docs", NULL);
    ddigen_docs_read_buffer("t.md", src, strlen(src), DDIGEN_DOCS_MARKDOWN, NULL, docs, NULL);
    assert_int_equal(dt_validate(doc, DDIGEN_DOCS_RNG), 0);
    return doc;
}

static bool prop_is(xmlNodePtr n, const char *name, const char *want)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)name);
    char a[256], b[256];
    dt_canon(v ? (const char *)v : "", a, sizeof a);
    dt_canon(want, b, sizeof b);
    xmlFree(v);
    return !strcmp(a, b);
}

/* Does the rule carry operand name=value? */
static bool carries(xmlNodePtr rule, const char *name, const char *value)
{
    for (xmlNodePtr o = rule->children; o; o = o->next)
        if (o->type == XML_ELEMENT_NODE && !xmlStrcmp(o->name, (const xmlChar *)"operand") &&
            prop_is(o, "name", name) && prop_is(o, "value", value))
            return true;
    return false;
}

/* expect: "SUBJECT KIND [name=value]..." */
static bool has_rule(xmlNodePtr n, const char *expect)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", expect);
    char *save;
    const char *subject = strtok_r(buf, " ", &save);
    const char *kind = strtok_r(NULL, " ", &save);
    char *ops = save;
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        if (!xmlStrcmp(n->name, (const xmlChar *)"rule") && prop_is(n, "kind", kind) &&
            prop_is(n, "subject", strcmp(subject, "-") ? subject : "")) {
            bool all = true;
            char list[512];
            snprintf(list, sizeof list, "%s", ops ? ops : "");
            for (char *s2, *o = strtok_r(list, " ", &s2); o && all; o = strtok_r(NULL, " ", &s2)) {
                char *eq = strchr(o, '=');
                assert_non_null(eq);
                *eq = '\0';
                all = carries(n, o, eq + 1);
            }
            if (all)
                return true;
        }
        if (has_rule(n->children, expect))
            return true;
    }
    return false;
}

static void test_every_example(void **state)
{
    (void)state;
    assert_true(docs_rule_patterns_ready());
    unsigned failed = 0;
    for (size_t i = 0; i < docs_rule_pattern_count; i++) {
        const struct rule_pattern *rp = &docs_rule_patterns[i];
        assert_non_null(rp->example);
        assert_true(rp->example[0] != '\0');
        char *src = page_with(rp->fields, rp->in, rp->example);
        xmlDocPtr doc = read_md(src);
        if (!has_rule(xmlDocGetRootElement(doc), rp->expect)) {
            char *xml;
            size_t len;
            ddigen_docs_serialize(doc, &xml, &len);
            printf("pattern %zu \"%s\"\n  example: %s\n  expected: %s\n%s\n", i, rp->text, rp->example, rp->expect,
                   xml);
            free(xml);
            failed++;
        }
        xmlFreeDoc(doc);
        free(src);
    }
    assert_int_equal(failed, 0);
}

/* Sentences that stop where a pattern wants more, or put a cue word first:
 * no rule where none is meant, no read past a token (ASan build). */
static void test_truncated_sentences(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "Note must set the Staged member.",
        "Note must also set",
        "Additionally, must.",
        "[!NOTE] must not set",
        "If",
        "If Staged is set,",
        "Must be set to",
        "Must be NULL when", /* fuzz: a byte offset past "when" read past the text */
        "between",
        "<= Limit",
        "Start + <=",
        "only one of",
        "Note that",
        "the eighth and",
        "0x",
        "Used only when Kind is",
        "This member is valid only when the",
        "cannot be used in combination with",
        "is a number in 0 to (",
        "DXGK_CAPS:: ",
        "Staged::",
        "it’",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        char *src = page_with("Staged Pinned", "Pinned", texts[i]);
        xmlDocPtr doc = read_md(src);
        char *xml;
        size_t len;
        ddigen_docs_serialize(doc, &xml, &len);
        if (i == 0)
            assert_null(strstr(xml, "kind=\"zero-when\"")); /* a lead-in, not an actor */
        free(xml);
        xmlFreeDoc(doc);
        free(src);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_example),
        cmocka_unit_test(test_truncated_sentences),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    ddigen_docs_shutdown();
    xmlCleanupParser();
    return rc;
}
