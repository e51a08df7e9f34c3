/* `ddigen report`: options, the pages' places, the assets, and the whole
 * site written into a staging folder that is switched in only when every
 * page was written (util/outset.c): an error leaves DIR as it was. */
#include "report.h"
#include "site.h"

#include "../spec/schema.h"
#include "../util/cli.h"
#include "../util/diag.h"
#include "../util/outset.h"
#include "../util/output.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct embedded_file {
    const char *name;
    const unsigned char *data;
    size_t len;
};
extern const struct embedded_file ddigen_report_assets[];

static const char usage[] =
    "usage: ddigen report SPEC.xml -o DIR [--previous OLD.xml] [--lint LINT.sarif] [--docs-root DIR|URL] [-v]\n"
    "  a static HTML site of the spec: DIR/index.html (open it from the file system)\n"
    "  --previous OLD.xml  highlight what changed since OLD (ddigen diff's changes)\n"
    "  --lint FILE         show the findings of a SARIF log (ddigen lint --sarif FILE) on their records\n"
    "  --docs-root DIR     link each rule to its page under DIR (the folder the spec's page paths start in:\n"
    "                      the parent of the folder given to --docs), or under a URL\n"
    "  -v                  print the number of pages and the largest\n";

/* Each page's file: records under r/, enums under e/, callbacks under c/;
 * a name is a C identifier, and a name given twice gets a number. */
static const char *unique_page(struct site *s, struct strmap *used, const char *folder, const char *name)
{
    struct strbuf sb = {0};
    sb_append_c_ident(&sb, name);
    const char *base = arena_strdup(&s->a, sb_str(&sb));
    sb_free(&sb);
    const char *page = arena_concat(&s->a, folder, "/", base, ".html", NULL);
    for (int n = 2; strmap_get(used, page); n++)
        page = arena_printf(&s->a, "%s/%s.%d.html", folder, base, n);
    strmap_put(used, page, (void *)page);
    return page;
}

static void place_pages(struct site *s, struct strmap *used)
{
    const struct ddi_model *m = s->m;
    s->record_page = arena_alloc(&s->a, (m->nrecords + 1) * sizeof *s->record_page);
    for (size_t i = 0; i < m->nrecords; i++) {
        const struct ddi_model_record *r = m->records[i];
        s->record_page[i] = unique_page(s, used, "r", r->name);
        strmap_put(&s->record_index, arena_printf(&s->a, "%p", (const void *)r), (void *)(i + 1));
        if (!strmap_get(&s->page_of_record, r->name))
            strmap_put(&s->page_of_record, r->name, (void *)s->record_page[i]);
    }
    for (size_t i = 0; i < m->nenums; i++)
        if (ddi_model_enum(m, m->enums[i].name) == &m->enums[i])
            strmap_put(&s->page_of_enum, m->enums[i].name, (void *)unique_page(s, used, "e", m->enums[i].name));
    for (size_t i = 0; i < m->nfunctypes; i++)
        if (ddi_model_functype(m, m->functypes[i].name) == &m->functypes[i])
            strmap_put(&s->page_of_functype, m->functypes[i].name,
                       (void *)unique_page(s, used, "c", m->functypes[i].name));
}

/* The changes of each record and of its fields, by the record's name
 * (the diff labels a field RECORD.path). */
static void group_changes(struct site *s)
{
    for (size_t i = 0; i < s->changes->len; i++) {
        const struct diff_change *c = &s->changes->items[i];
        if (strcmp(c->kind, "record") != 0 && strcmp(c->kind, "field") != 0)
            continue;
        const char *record = arena_strndup(&s->a, c->item, strcspn(c->item, "."));
        struct vec *v = strmap_get(&s->changes_of_record, record);
        if (!v) {
            v = arena_alloc(&s->a, sizeof *v);
            strmap_put(&s->changes_of_record, record, v);
        }
        vec_push(v, (void *)c);
    }
}

static int report_site(const struct report_options *op);

static int write_assets(struct site *s)
{
    for (const struct embedded_file *f = ddigen_report_assets; f->name; f++) {
        struct strbuf sb = {0};
        sb_appendn(&sb, (const char *)f->data, f->len);
        int rc = site_write(s, f->name, &sb);
        sb_free(&sb);
        if (rc != 0)
            return -1;
    }
    return 0;
}

static int write_site(struct site *s)
{
    const struct ddi_model *m = s->m;
    const char *dirs[] = {"r", "e", "c"};
    for (size_t i = 0; i < 3; i++)
        if (ddigen_make_dirs(arena_concat(&s->a, s->dir, "/", dirs[i], NULL)) != 0)
            return -1;
    if (write_assets(s) != 0 || report_index_page(s) != 0)
        return -1;
    for (size_t i = 0; i < m->nrecords; i++)
        if (report_record_page(s, i) != 0)
            return -1;
    for (size_t i = 0; i < m->nenums; i++) {
        const char *page = strmap_get(&s->page_of_enum, m->enums[i].name);
        if (page && ddi_model_enum(m, m->enums[i].name) == &m->enums[i] && report_enum_page(s, &m->enums[i], page) != 0)
            return -1;
    }
    for (size_t i = 0; i < m->nfunctypes; i++) {
        const struct ddi_model_functype *f = &m->functypes[i];
        const char *page = strmap_get(&s->page_of_functype, f->name);
        if (page && ddi_model_functype(m, f->name) == f && report_functype_page(s, f, page) != 0)
            return -1;
    }
    if (s->changes && report_changes_page(s) != 0)
        return -1;
    if (s->findings && report_lint_page(s) != 0)
        return -1;
    if (s->history && report_history_json(s) != 0)
        return -1;
    return ddigen_diag_global.errors ? -1 : 0;
}

static int parse_options(int argc, char **argv, struct report_options *o)
{
    static const struct option options[] = {
        {"previous", required_argument, NULL, 'p'}, {"lint", required_argument, NULL, 'l'},
        {"docs-root", required_argument, NULL, 'd'}, {"output", required_argument, NULL, 'o'},
        {"verbose", no_argument, NULL, 'v'},        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    optind = 1;
    while ((c = cli_getopt(argc, argv, "p:l:d:o:vh", options)) != -1) {
        if (c == 'p')
            o->previous = optarg;
        else if (c == 'l')
            o->lint = optarg;
        else if (c == 'd')
            o->docs_root = optarg;
        else if (c == 'o')
            o->out = optarg;
        else if (c == 'v')
            ddigen_diag_global.verbose = 1;
        else if (c == 'h') {
            fputs(usage, stdout);
            return 1;
        } else {
            fputs(usage, stderr);
            return 2;
        }
    }
    if (argc - optind != 1 || !o->out) {
        ddigen_error(NULL, 0, "report needs one SPEC.xml and -o DIR");
        fputs(usage, stderr);
        return 2;
    }
    o->spec = argv[optind];
    return 0;
}

/* Loads, reads the options' inputs, writes the site into staging. */
static int build(struct site *s, const struct report_options *o, xmlDocPtr spec, struct diff_changes *changes)
{
    struct strmap used = {0};
    place_pages(s, &used);
    int rc = 0;
    if (o->previous && !o->previous_changes) {
        xmlDocPtr old = spec_load(o->previous);
        if (!old)
            rc = -1;
        else if (diff_collect(old, o->previous, spec, o->spec, changes) & 1)
            rc = -1;
        xmlFreeDoc(old);
    }
    if (o->previous) {
        if (rc == 0) {
            s->changes = o->previous_changes ? o->previous_changes : changes;
            s->previous_name = o->previous_label ? o->previous_label : o->previous;
            group_changes(s);
        }
    }
    if (rc == 0 && o->lint) {
        s->lint_name = o->lint;
        rc = report_read_lint(s, o->lint);
    }
    if (rc == 0)
        rc = write_site(s);
    strmap_free(&used);
    return rc;
}

static void free_vecs(struct strmap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots && m->slots[i].key)
            vec_free(m->slots[i].value);
    strmap_free(m);
}

int ddigen_cmd_report(int argc, char **argv)
{
    struct report_options o = {0};
    int rc = parse_options(argc, argv, &o);
    return rc ? (rc == 1 ? 0 : rc) : report_run(&o);
}

/* A docs root given as a folder is linked by its absolute path: the user
 * means it from where ddigen runs, and the pages are elsewhere (r/ is one
 * level down). A URL (scheme://) is linked as given. NULL when the
 * folder does not exist (reported). */
static char *docs_root_href(const char *root)
{
    if (strstr(root, "://"))
        return strdup(root);
    char *abs = realpath(root, NULL);
    if (!abs)
        ddigen_error(root, 0, "--docs-root: cannot resolve the folder: %s", strerror(errno));
    return abs;
}

int report_run(const struct report_options *op)
{
    struct report_options o = *op;
    char *docs_root = o.docs_root ? docs_root_href(o.docs_root) : NULL;
    if (o.docs_root && !docs_root)
        return 1;
    o.docs_root = docs_root;
    int rc = report_site(&o);
    free(docs_root);
    return rc;
}

static int report_site(const struct report_options *op)
{
    const struct report_options o = *op;
    int rc;
    xmlDocPtr spec = o.spec_doc ? o.spec_doc : spec_load(o.spec);
    if (!spec)
        return 1;
    struct site s = {0};
    struct ddi_model *loaded = o.spec_model ? NULL : ddi_model_load(spec);
    s.m = o.spec_model ? o.spec_model : loaded;
    if (!s.m) {
        ddigen_error(NULL, 0, "out of memory");
        if (spec != o.spec_doc)
            xmlFreeDoc(spec);
        return 1;
    }
    const char *slash = strrchr(o.spec, '/');
    s.title = o.spec_label ? o.spec_label : slash ? slash + 1 : o.spec;
    s.docs_root = o.docs_root;
    s.history = o.history;
    struct output_set set = {0};
    struct diff_changes changes = {0};
    /* The site is made whole each time: no page of an earlier run (a
     * record since removed) is carried over. */
    rc = output_set_begin_empty(&set, o.out) != 0 ? 1 : 0;
    if (rc == 0) {
        s.dir = set.staging;
        rc = build(&s, &o, spec, &changes) == 0 &&
                     output_set_sync(&set) == 0 && output_set_commit(&set) == 0
                 ? 0
                 : 1;
        if (rc)
            output_set_abort(&set);
    }
    if (rc == 0 && ddigen_diag_global.verbose)
        fprintf(stderr, "report: %zu pages, largest %s (%zu bytes)\n", s.pages, s.largest_name, s.largest_page);
    diff_changes_free(&changes);
    free_vecs(&s.changes_of_record);
    free_vecs(&s.findings_of_record);
    strmap_free(&s.page_of_record);
    strmap_free(&s.page_of_enum);
    strmap_free(&s.page_of_functype);
    strmap_free(&s.record_index);
    ddi_model_free(loaded);
    arena_free(&s.a);
    if (spec != o.spec_doc)
        xmlFreeDoc(spec);
    return rc;
}
