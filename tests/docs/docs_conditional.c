/* Precision and recall of the conditional rule kinds on 25 reference pages
 * the extractor was not tuned on (tests/docs/conditional/labels.txt, labels
 * written by reading the pages before the extractor changed; selection rule
 * in select_pages.py). A label and an extracted rule match on page, line,
 * subject, kind and the label's operands (field operands by their last
 * dotted segment, case-insensitively; values ignoring case, spaces and
 * parentheses), never on rule IDs. A statement repeated on one subject with
 * the same operands counts once, at its first line (one rule ID).
 *
 * Prints per-kind figures and fails when a kind falls below the floor
 * recorded in `floors` (today's figures: a regression fails). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "docs_test_util.h"

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

#ifndef DDIGEN_DOCS_CONDITIONAL
#error "DDIGEN_DOCS_CONDITIONAL must name tests/docs/conditional"
#endif

#define MAX_OPS 8

struct op {
    char name[32];
    char value[160];
};

struct crule {
    unsigned line;
    char subject[160];
    char kind[24];
    struct op ops[MAX_OPS];
    unsigned nops;
    bool used;
};

struct rules {
    struct crule *v;
    size_t n;
};

static void push(struct rules *rs, const struct crule *r)
{
    rs->v = realloc(rs->v, (rs->n + 1) * sizeof *rs->v);
    rs->v[rs->n++] = *r;
}

static const char *const kinds[] = {"discriminator", "exclusive", "implies",    "optional",
                                    "null-when",     "nonnull-iff", "range",    "zero-when"};
enum { NKINDS = sizeof kinds / sizeof kinds[0] };

static int kind_index(const char *k)
{
    for (int i = 0; i < NKINDS; i++)
        if (!strcmp(kinds[i], k))
            return i;
    return -1;
}

/* Floors: the figures reached (tp/found >= precision, tp/labelled >= recall).
 * Before the pattern rewrite (commit "docs_conditional: per-kind ...") they
 * were discriminator 0.939/0.419, exclusive 0.200/0.143, implies
 * 0.455/0.312, optional 0.364/0.190, null-when 0.867/0.591, nonnull-iff
 * 0/0, range 1.0/0.5, zero-when -/0. */
struct floor {
    const char *kind;
    double precision, recall;
};
static const struct floor floors[] = {
    {"discriminator", 0.973, 1.0}, {"exclusive", 1.0, 1.0}, {"implies", 1.0, 1.0},
    {"optional", 1.0, 1.0},        {"null-when", 1.0, 1.0}, {"nonnull-iff", 1.0, 1.0},
    {"range", 1.0, 1.0},           {"zero-when", 1.0, 1.0},
};

static bool is_field_operand(const char *name)
{
    static const char *const names[] = {"field", "selects", "requires", "with", "ref"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!strcmp(names[i], name))
            return true;
    return false;
}

static const char *leaf(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot ? dot + 1 : path;
}

static bool op_equal(const struct op *want, const struct op *got)
{
    if (strcmp(want->name, got->name))
        return false;
    if (is_field_operand(want->name))
        return !strcasecmp(leaf(want->value), leaf(got->value));
    char a[160], b[160];
    dt_canon(want->value, a, sizeof a);
    dt_canon(got->value, b, sizeof b);
    return !strcmp(a, b);
}

/* Every labelled operand is carried by the rule (each used once). */
static bool carries(const struct crule *got, const struct crule *want)
{
    bool taken[MAX_OPS] = {false};
    for (unsigned i = 0; i < want->nops; i++) {
        bool found = false;
        for (unsigned j = 0; j < got->nops && !found; j++)
            if (!taken[j] && op_equal(&want->ops[i], &got->ops[j]))
                found = taken[j] = true;
        if (!found)
            return false;
    }
    return true;
}

static bool same_statement(const struct crule *a, const struct crule *b)
{
    return !strcmp(a->subject, b->subject) && !strcmp(a->kind, b->kind) && a->nops == b->nops &&
           carries(a, b);
}

static bool parse_label(char *line, struct crule *r)
{
    memset(r, 0, sizeof *r);
    char *save;
    char *tok = strtok_r(line, " ", &save);
    if (!tok)
        return false;
    r->line = (unsigned)strtoul(tok, NULL, 10);
    char *subject = strtok_r(NULL, " ", &save);
    char *kind = strtok_r(NULL, " ", &save);
    assert_non_null(subject);
    assert_non_null(kind);
    snprintf(r->subject, sizeof r->subject, "%s", strcmp(subject, "-") ? subject : "");
    snprintf(r->kind, sizeof r->kind, "%s", kind);
    assert_true(kind_index(kind) >= 0);
    while ((tok = strtok_r(NULL, " ", &save)) != NULL) {
        char *eq = strchr(tok, '=');
        assert_non_null(eq);
        assert_true(r->nops < MAX_OPS);
        *eq = '\0';
        snprintf(r->ops[r->nops].name, sizeof r->ops[0].name, "%s", tok);
        snprintf(r->ops[r->nops].value, sizeof r->ops[0].value, "%s", eq + 1);
        r->nops++;
    }
    return true;
}

static char *prop(xmlNodePtr n, const char *name)
{
    return (char *)xmlGetProp(n, (const xmlChar *)name);
}

/* Conditional-kind rules of one built page. */
static void extracted(const char *xml, size_t len, struct rules *out)
{
    xmlDocPtr doc = xmlReadMemory(xml, (int)len, "docs.xml", NULL, XML_PARSE_NONET);
    assert_non_null(doc);
    xmlNodePtr stack[16];
    int depth = 0;
    stack[depth++] = xmlDocGetRootElement(doc);
    while (depth > 0) {
        xmlNodePtr n = stack[--depth];
        for (; n; n = n->next) {
            if (n->type != XML_ELEMENT_NODE)
                continue;
            if (!xmlStrcmp(n->name, (const xmlChar *)"rule")) {
                char *kind = prop(n, "kind");
                if (kind_index(kind) >= 0) {
                    struct crule r = {0};
                    char *subject = prop(n, "subject"), *line = prop(n, "line");
                    snprintf(r.kind, sizeof r.kind, "%s", kind);
                    snprintf(r.subject, sizeof r.subject, "%s", subject ? subject : "");
                    r.line = line ? (unsigned)strtoul(line, NULL, 10) : 0;
                    for (xmlNodePtr o = n->children; o; o = o->next) {
                        if (o->type != XML_ELEMENT_NODE || xmlStrcmp(o->name, (const xmlChar *)"operand") ||
                            r.nops == MAX_OPS)
                            continue;
                        char *name = prop(o, "name"), *value = prop(o, "value");
                        snprintf(r.ops[r.nops].name, sizeof r.ops[0].name, "%s", name);
                        snprintf(r.ops[r.nops].value, sizeof r.ops[0].value, "%s", value);
                        r.nops++;
                        xmlFree(name);
                        xmlFree(value);
                    }
                    push(out, &r);
                    xmlFree(subject);
                    xmlFree(line);
                }
                xmlFree(kind);
                continue;
            }
            if (n->children && depth < 16)
                stack[depth++] = n->children;
        }
    }
    xmlFreeDoc(doc);
}

struct tally {
    unsigned tp, fp, fn;
};
static struct tally tally[NKINDS];
static unsigned pages_scored;

static void print_rule(const char *what, const char *page, const struct crule *r)
{
    printf("  %-7s %s:%u %s %s", what, strrchr(page, '/') + 1, r->line, r->subject[0] ? r->subject : "-",
           r->kind);
    for (unsigned i = 0; i < r->nops; i++)
        printf(" %s=%s", r->ops[i].name, r->ops[i].value);
    printf("\n");
}

static void score_page(const char *page, struct rules *want)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", DDIGEN_SHARED_DIR, page);
    if (!dt_shared_present(path, "docs_conditional"))
        return;
    const char *paths[] = {path};
    char *xml;
    size_t len;
    dt_build(paths, 1, &xml, &len, NULL);
    struct rules got = {0};
    extracted(xml, len, &got);
    free(xml);
    for (size_t i = 0; i < want->n; i++) {
        struct crule *w = &want->v[i];
        struct crule *hit = NULL;
        for (size_t j = 0; j < got.n && !hit; j++) {
            struct crule *g = &got.v[j];
            if (!g->used && g->line == w->line && !strcmp(g->subject, w->subject) && !strcmp(g->kind, w->kind) &&
                carries(g, w))
                hit = g;
        }
        int k = kind_index(w->kind);
        if (hit) {
            hit->used = true;
            tally[k].tp++;
        } else {
            tally[k].fn++;
            print_rule("missing", page, w);
        }
    }
    for (size_t j = 0; j < got.n; j++)
        if (!got.v[j].used) {
            tally[kind_index(got.v[j].kind)].fp++;
            print_rule("extra", page, &got.v[j]);
        }
    free(got.v);
    pages_scored++;
}

static void test_conditional_kinds(void **state)
{
    (void)state;
    char *text = dt_slurp(DDIGEN_DOCS_CONDITIONAL "/labels.txt", NULL);
    assert_non_null(text);
    char page[512] = "";
    struct rules want = {0};
    unsigned pages = 0;
    char *save;
    for (char *line = strtok_r(text, "\n", &save);; line = strtok_r(NULL, "\n", &save)) {
        if (!line || !strncmp(line, "page ", 5)) {
            if (page[0])
                score_page(page, &want);
            want.n = 0;
            if (!line)
                break;
            snprintf(page, sizeof page, "%s", line + 5);
            pages++;
            continue;
        }
        struct crule r;
        if (line[0] == '#' || !isdigit((unsigned char)line[0]) || !parse_label(line, &r))
            continue;
        bool repeated = false;
        for (size_t i = 0; i < want.n && !repeated; i++)
            repeated = same_statement(&want.v[i], &r);
        if (!repeated)
            push(&want, &r);
    }
    free(want.v);
    free(text);
    assert_int_equal(pages, 25);
    if (pages_scored == 0)
        return; /* ../shared absent: skipped with a message */
    bool ok = true;
    for (int k = 0; k < NKINDS; k++) {
        struct tally *t = &tally[k];
        double p = t->tp + t->fp ? (double)t->tp / (t->tp + t->fp) : 1.0;
        double r = t->tp + t->fn ? (double)t->tp / (t->tp + t->fn) : 1.0;
        printf("%-14s precision %.3f (%u/%u)  recall %.3f (%u/%u)\n", kinds[k], p, t->tp, t->tp + t->fp, r, t->tp,
               t->tp + t->fn);
        for (size_t f = 0; f < sizeof floors / sizeof floors[0]; f++) {
            if (strcmp(floors[f].kind, kinds[k]))
                continue;
            if (p + 1e-9 < floors[f].precision || r + 1e-9 < floors[f].recall) {
                printf("  below the floor for %s: precision %.3f recall %.3f\n", kinds[k], floors[f].precision,
                       floors[f].recall);
                ok = false;
            }
        }
    }
    assert_true(ok);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_conditional_kinds)};
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    ddigen_docs_shutdown();
    return rc;
}
