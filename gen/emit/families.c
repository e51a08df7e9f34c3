/* The family table follows the contract between the generator branches:
 * each family's templates are named here once, so a family's templates
 * landing in templates/ is all it takes to make `--outputs NAME` work. */
#include "families.h"

#include "../util/diag.h"
#include "../util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

struct family {
    const char *name;
    const char *templates[4]; /* NULL-terminated */
};

static const struct family families[] = {
    {"asserts", {"ddi_layout_asserts.h.xsl", NULL}},
    {"validate", {"ddi_validate.h.xsl", "ddi_validate.c.xsl", "ddi_rules.c.xsl", NULL}},
    {"marshal", {"ddi_marshal.h.xsl", "ddi_marshal.c.xsl", NULL}},
    {"dispatch", {"ddi_dispatch.h.xsl", "ddi_dispatch.c.xsl", NULL}},
    {"skeleton", {"ddi_skeleton.h.xsl", "ddi_skeleton.c.xsl", "ddi_skeleton_driver.h.xsl", NULL}},
};
#define NFAMILIES (sizeof families / sizeof families[0])

static const struct family *find_family(const char *name, size_t len)
{
    for (size_t i = 0; i < NFAMILIES; i++)
        if (strlen(families[i].name) == len && !strncmp(families[i].name, name, len))
            return &families[i];
    return NULL;
}

static int template_exists(const char *dir, const char *name)
{
    struct stat st;
    char *path;
    if (asprintf(&path, "%s/%s", dir, name) < 0)
        return 0;
    int ok = stat(path, &st) == 0 && S_ISREG(st.st_mode);
    free(path);
    return ok;
}

static int already_listed(const struct vec *names, const char *name)
{
    for (size_t i = 0; i < names->len; i++)
        if (!strcmp(names->items[i], name))
            return 1;
    return 0;
}

/* Adds the family's templates that exist; how many were found. */
static int add_family(const char *dir, const struct family *f, struct vec *names)
{
    int found = 0;
    for (const char *const *t = f->templates; *t; t++) {
        if (!template_exists(dir, *t))
            continue;
        found++;
        if (!already_listed(names, *t))
            vec_push(names, strdup(*t));
    }
    return found;
}

static void report_unknown(const char *name, size_t len)
{
    struct strbuf known = {0};
    for (size_t i = 0; i < NFAMILIES; i++)
        sb_printf(&known, "%s%s", i ? ", " : "", families[i].name);
    ddigen_error(NULL, 0, "--outputs: unknown output family '%s' (known: %s)", ddigen_quoten(name, len),
                 sb_str(&known));
    sb_free(&known);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int emit_select_templates(const char *templates_dir, const char *outputs, struct vec *names)
{
    int rc = 0;
    for (const char *p = outputs; *p;) {
        size_t len = strcspn(p, ", ");
        const struct family *f = len ? find_family(p, len) : NULL;
        if (len && !f) {
            report_unknown(p, len);
            rc = -1;
        } else if (f && !add_family(templates_dir, f, names)) {
            ddigen_error(templates_dir, 0, "--outputs: output family '%s' has no templates here (expected %s)",
                         f->name, f->templates[0]);
            rc = -1;
        }
        p += len;
        p += strspn(p, ", ");
    }
    if (rc == 0 && !names->len) {
        ddigen_error(NULL, 0, "--outputs: no output family given");
        rc = -1;
    }
    if (names->len > 1)
        qsort(names->items, names->len, sizeof(void *), by_name);
    return rc;
}

const char *emit_output_name(struct arena *a, const char *template_name)
{
    size_t n = strlen(template_name);
    return arena_strndup(a, template_name, n > 4 ? n - 4 : n);
}

int emit_template_in_family(const char *template_name, const char *family)
{
    const struct family *f = find_family(family, strlen(family));
    for (const char *const *t = f ? f->templates : NULL; t && *t; t++)
        if (!strcmp(template_name, *t))
            return 1;
    return 0;
}

int emit_family_selected(const struct vec *names, const char *family)
{
    for (size_t i = 0; i < names->len; i++)
        if (emit_template_in_family(names->items[i], family))
            return 1;
    return 0;
}
