/* Precision and recall of rule extraction against hand-written expected
 * rule lists (expected/NAME.rules: "input: shared:|fixture:PATH", then one rule
 * ID per line). Prints per-file and total figures; fails below 0.8. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "docs_test_util.h"

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

struct idset {
    char **v;
    size_t n;
};

static void add_id(struct idset *s, const char *id, size_t n)
{
    s->v = realloc(s->v, (s->n + 1) * sizeof *s->v);
    s->v[s->n++] = strndup(id, n);
}

static bool has_id(const struct idset *s, const char *id)
{
    for (size_t i = 0; i < s->n; i++)
        if (!strcmp(s->v[i], id))
            return true;
    return false;
}

static void free_set(struct idset *s)
{
    for (size_t i = 0; i < s->n; i++)
        free(s->v[i]);
    free(s->v);
}

static unsigned tp_all, fp_all, fn_all;
static unsigned files_scored;

static void score(const char *rules_path)
{
    char *text = dt_slurp(rules_path, NULL);
    assert_non_null(text);
    struct idset want = {0};
    char input[1024] = "";
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#' || !line[0])
            continue;
        if (!strncmp(line, "input: shared:", 14))
            snprintf(input, sizeof input, "%s/%s", DDIGEN_SHARED_DIR, line + 14);
        else if (!strncmp(line, "input: fixture:", 15))
            snprintf(input, sizeof input, "%s/%s", DDIGEN_DOCS_FIXTURES, line + 15);
        else
            add_id(&want, line, strlen(line));
    }
    free(text);
    if (!dt_shared_present(input, rules_path)) {
        free_set(&want);
        return;
    }
    const char *paths[] = {input};
    char *xml;
    size_t len;
    dt_build(paths, 1, &xml, &len, NULL);
    struct idset got = {0};
    for (const char *p = xml; (p = strstr(p, "<rule id=\"")) != NULL;) {
        p += 10;
        add_id(&got, p, strcspn(p, "\""));
    }
    unsigned tp = 0, fp = 0, fn = 0;
    for (size_t i = 0; i < got.n; i++) {
        if (has_id(&want, got.v[i]))
            tp++;
        else {
            fp++;
            printf("  extra   %s\n", got.v[i]);
        }
    }
    for (size_t i = 0; i < want.n; i++) {
        if (!has_id(&got, want.v[i])) {
            fn++;
            printf("  missing %s\n", want.v[i]);
        }
    }
    const char *base = strrchr(rules_path, '/') + 1;
    printf("%-22s precision %.3f (%u/%u)  recall %.3f (%u/%u)\n", base, tp + fp ? (double)tp / (tp + fp) : 1.0,
           tp, tp + fp, want.n ? (double)tp / want.n : 1.0, tp, (unsigned)want.n);
    tp_all += tp, fp_all += fp, fn_all += fn;
    files_scored++;
    free(xml);
    free_set(&want);
    free_set(&got);
}

static void test_precision_recall(void **state)
{
    (void)state;
    DIR *d = opendir(DDIGEN_DOCS_EXPECTED);
    assert_non_null(d);
    char *names[64];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && n < 64)
        if (strstr(e->d_name, ".rules"))
            names[n++] = strdup(e->d_name);
    closedir(d);
    for (int i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", DDIGEN_DOCS_EXPECTED, names[i]);
        score(path);
        free(names[i]);
    }
    double precision = tp_all + fp_all ? (double)tp_all / (tp_all + fp_all) : 1.0;
    double recall = tp_all + fn_all ? (double)tp_all / (tp_all + fn_all) : 1.0;
    printf("TOTAL over %u files: precision %.3f (%u/%u)  recall %.3f (%u/%u)\n", files_scored, precision, tp_all,
           tp_all + fp_all, recall, tp_all, tp_all + fn_all);
    assert_true(files_scored > 0);
    assert_true(precision >= 0.8);
    assert_true(recall >= 0.8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_precision_recall)};
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    ddigen_docs_shutdown();
    return rc;
}
