/* Corpus test over ../shared/ddi-docs: no crash, no page silently skipped,
 * every field/param heading accounted for (against an independent count of
 * the headings made here), schema-valid output, and a summary of rules by
 * kind and of unextracted modal sentences. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "docs_test_util.h"

#include "util/diag.h"

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#define CORPUS DDIGEN_SHARED_DIR "/ddi-docs"

struct tally {
    unsigned md_files, headings;
};

/* "### -field X", "### - field X", "## -param X" outside code fences. A
 * line that opens with ``` and closes on the same line is a code span. */
static unsigned count_headings(const char *text)
{
    unsigned n = 0;
    int fence = 0;
    for (const char *l = text; l && *l;) {
        const char *e = strchr(l, '\n');
        size_t len = e ? (size_t)(e - l) : strlen(l);
        if (len >= 3 && !strncmp(l, "```", 3)) {
            const char *again = len > 3 ? strstr(l + 3, "```") : NULL;
            if (!again || again >= l + len)
                fence = !fence;
        } else if (!fence && len > 2 && l[0] == '#' && l[1] == '#') {
            const char *p = l;
            while (*p == '#')
                p++;
            while (*p == ' ')
                p++;
            if (*p == '-') {
                p++;
                while (*p == ' ')
                    p++;
                if ((!strncmp(p, "field", 5) || !strncmp(p, "param", 5)) && (p[5] == ' ' || p[5] == '\t'))
                    n++;
            }
        }
        l = e ? e + 1 : NULL;
    }
    return n;
}

static void walk(const char *dir, struct tally *t)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[2048];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        size_t len = strlen(e->d_name);
        if (e->d_type == DT_DIR) {
            walk(path, t);
        } else if (len > 3 && !strcmp(e->d_name + len - 3, ".md")) {
            char *text = dt_slurp(path, NULL);
            assert_non_null(text);
            t->md_files++;
            t->headings += count_headings(text);
            free(text);
        }
    }
    closedir(d);
}

static void test_corpus(void **state)
{
    (void)state;
    if (!dt_shared_present(CORPUS, "the DDI reference pages"))
        skip();
    struct tally t = {0};
    walk(CORPUS, &t);
    struct ddigen_docs_stats st = {0};
    const char *paths[] = {CORPUS};
    char *xml;
    size_t len;
    unsigned errors = ddigen_diag_global.errors;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    dt_build(paths, 1, &xml, &len, &st);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;

    printf("corpus: %u .md files, %u pages, %u skipped (reported), %u unreadable, %.2f s\n", t.md_files,
           st.pages, st.skipped, st.failed, secs);
    printf("members: %u (%u -field/-param headings, %u bare headings, %u unnamed), %u with a direction\n",
           st.members, st.dash_headings, st.bare_headings, st.unnamed, st.directions);
    printf("syntax blocks: %u, parsed by libclang: %u, disagreeing with the field list: %u\n", st.syntax_blocks,
           st.syntax_parsed, st.syntax_disagree);
    printf("rules: %u\n", st.rules);
    for (unsigned k = 0; k < DDIGEN_DOCS_RULE_KINDS; k++)
        printf("  %-14s %5u\n", ddigen_docs_rule_kind_name(k), st.rules_by_kind[k]);
    printf("modal sentences: %u, unextracted: %u (%.1f%% covered)\n", st.modal_sentences, st.unextracted,
           st.modal_sentences ? 100.0 * (st.modal_sentences - st.unextracted) / st.modal_sentences : 0.0);

    assert_int_equal(ddigen_diag_global.errors, errors);
    assert_int_equal(st.failed, 0);
    assert_int_equal(st.pages + st.skipped, t.md_files);
    assert_true(st.skipped <= 4); /* README.md and the three header overview pages */
    assert_int_equal(st.dash_headings, t.headings);
    assert_true(st.rules > 1000);
    if (dt_validate_text(xml, len, DDIGEN_DOCS_RNG) != 0)
        fail_msg("corpus output does not validate against spec/docs.rng");
    free(xml);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_corpus)};
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    ddigen_docs_shutdown();
    return rc;
}
