/* Golden tests: the doc model of each seed page (../shared/seeds) and of each
 * project fixture, compared with the reviewed file under golden/. Also checks
 * schema validity and that two runs give identical bytes.
 * DDIGEN_UPDATE_GOLDEN=1 rewrites the golden files (review the diff!). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "docs_test_util.h"

#include <dirent.h>
#include <libxml/parser.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

/* Seed pages are Microsoft's text: their golden files keep the model's
 * structure and facts (names, IDs, lines, kinds, operands) but not the prose,
 * so no page text is copied into the project. */
static void strip_prose(xmlNodePtr n)
{
    for (xmlNodePtr c = n; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        xmlNodePtr k = c->children;
        while (k) {
            xmlNodePtr next = k->next;
            if (k->type == XML_TEXT_NODE) {
                xmlUnlinkNode(k);
                xmlFreeNode(k);
            }
            k = next;
        }
        for (xmlAttrPtr a = c->properties; a; a = a->next) {
            xmlChar *v = xmlNodeGetContent((xmlNodePtr)a);
            if (v && strchr((const char *)v, ' ') && strcmp((const char *)a->name, "name") &&
                strcmp((const char *)a->name, "path") && strcmp((const char *)a->name, "id"))
                xmlNodeSetContent((xmlNodePtr)a, (const xmlChar *)"[prose]");
            xmlFree(v);
        }
        strip_prose(c->children);
    }
}

static char *without_prose(const char *xml, size_t len, size_t *out_len)
{
    xmlDocPtr doc = xmlReadMemory(xml, (int)len, "seed.xml", NULL, XML_PARSE_NONET | XML_PARSE_NOBLANKS);
    assert_non_null(doc);
    strip_prose(xmlDocGetRootElement(doc));
    char *out;
    ddigen_docs_serialize(doc, &out, out_len);
    xmlFreeDoc(doc);
    return out;
}

static void check_one(const char *path, bool seed)
{
    const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    const char *paths[] = {path};
    char *a, *b;
    size_t alen, blen;
    dt_build(paths, 1, &a, &alen, NULL);
    dt_build(paths, 1, &b, &blen, NULL);
    assert_int_equal(alen, blen);
    assert_memory_equal(a, b, alen);
    if (dt_validate_text(a, alen, DDIGEN_DOCS_RNG) != 0)
        fail_msg("%s: output does not validate against spec/docs.rng", base);
    if (seed) {
        char *stripped = without_prose(a, alen, &alen);
        free(a);
        a = stripped;
    }
    char golden[4096];
    snprintf(golden, sizeof golden, "%s/%s.xml", DDIGEN_DOCS_GOLDEN, base);
    if (getenv("DDIGEN_UPDATE_GOLDEN")) {
        FILE *f = fopen(golden, "wb");
        assert_non_null(f);
        fwrite(a, 1, alen, f);
        fclose(f);
        printf("updated %s\n", golden);
    } else {
        size_t glen;
        char *g = dt_slurp(golden, &glen);
        if (!g)
            fail_msg("missing golden file %s (run with DDIGEN_UPDATE_GOLDEN=1, then review)", golden);
        if (glen != alen || memcmp(g, a, alen) != 0) {
            char out[sizeof golden + 16];
            snprintf(out, sizeof out, "%s.actual", golden);
            FILE *f = fopen(out, "wb");
            if (f) {
                fwrite(a, 1, alen, f);
                fclose(f);
            }
            free(g);
            fail_msg("%s differs from its golden file; actual output in %s", base, out);
        }
        free(g);
    }
    free(a);
    free(b);
}

static void each_file(const char *dir, const char *skip_name, bool seed)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    char *names[64];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < 64) {
        if (e->d_name[0] == '.' || (skip_name && !strcmp(e->d_name, skip_name)))
            continue;
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    for (int i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        check_one(path, seed);
        free(names[i]);
    }
    assert_true(n > 0);
}

static void test_fixtures(void **state)
{
    (void)state;
    each_file(DDIGEN_DOCS_FIXTURES, NULL, false);
}

static void test_seeds(void **state)
{
    (void)state;
    const char *dir = DDIGEN_SHARED_DIR "/seeds";
    if (!dt_shared_present(dir, "seed pages"))
        skip();
    each_file(dir, "README.md", true);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fixtures),
        cmocka_unit_test(test_seeds),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    ddigen_docs_shutdown();
    return rc;
}
