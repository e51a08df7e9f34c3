/* `ddigen history SPEC... -o DIR`: one timeline over every kit a team has,
 * from specs given oldest to newest whose stable IDs chain (each made
 * with `generate --previous` of the one before). Per record: the kits it
 * is in (introduced, last), its size per architecture in each, every
 * change gen/diff finds between consecutive kits (layout per
 * architecture, fields added, removed, retyped), and each field's first
 * and last kit. Written as DIR/history.json for scripts and as a strip on
 * each record page of the newest kit's site (the report, with the kit
 * before it as --previous). Two specs are held at a time. */
#include "report.h"
#include "self_jobs.h"
#include "site.h"

#include "../spec/schema.h"
#include "../spec/semantic.h"
#include "../spec/spec.h"
#include "../util/cli.h"
#include "../util/diag.h"
#include "../util/json.h"
#include "../util/output.h"

#include <dirent.h>
#include <sys/stat.h>

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_KITS 64

struct field_span {
    const char *path;
    int first, last;
};

struct kit_change {
    int kit; /* the kit the change arrives in */
    const struct diff_change *change;
};

struct record_timeline {
    const char *name;
    int first, last;
    uint64_t present;             /* bit per kit */
    const char *sizes[MAX_KITS];  /* "x86 288, x64 304" */
    struct vec changes;           /* struct kit_change * */
    struct vec fields;            /* struct field_span *, first seen first */
    struct strmap field_by_path;
};

struct report_history {
    struct arena a;
    const char *kits[MAX_KITS];
    int nkits;
    struct strmap by_record;
    struct vec records; /* struct record_timeline *, sorted by name at the end */
    struct diff_changes steps[MAX_KITS];
};

/* A kit's name: the folder the spec was generated into (KIT/spec/ddi.xml),
 * else the file's name. */
static const char *kit_label(struct arena *a, const char *path)
{
    size_t n = strlen(path);
    static const char tail[] = "/spec/ddi.xml";
    if (n > sizeof tail - 1 && !strcmp(path + n - (sizeof tail - 1), tail)) {
        const char *end = path + n - (sizeof tail - 1), *start = end;
        while (start > path && start[-1] != '/')
            start--;
        if (start < end)
            return arena_strndup(a, start, (size_t)(end - start));
    }
    const char *slash = strrchr(path, '/');
    return arena_strdup(a, slash ? slash + 1 : path);
}

static struct record_timeline *timeline(struct report_history *h, const char *name)
{
    struct record_timeline *t = strmap_get(&h->by_record, name);
    if (!t) {
        t = arena_alloc(&h->a, sizeof *t);
        t->name = arena_strdup(&h->a, name);
        t->first = t->last = -1;
        strmap_put(&h->by_record, t->name, t);
        vec_push(&h->records, t);
    }
    return t;
}

/* The record's size on each architecture at the newest version of the kit it exists at. */
static const char *sizes_text(struct report_history *h, const struct ddi_model *m, const struct ddi_model_record *r)
{
    struct strbuf sb = {0};
    int v = ddi_vset_last(r->versions);
    for (unsigned a = 0; a < m->where.narchs; a++) {
        const struct ddi_model_measure *size = ddi_model_measure_at(&r->sizes[a], v);
        if (size)
            sb_printf(&sb, "%s%s %ld", sb.len ? ", " : "", m->where.arch[a], size->value);
    }
    const char *out = arena_strdup(&h->a, sb_str(&sb));
    sb_free(&sb);
    return out;
}

static void read_kit(struct report_history *h, int kit, const struct ddi_model *m)
{
    for (size_t i = 0; i < m->nrecords; i++) {
        const struct ddi_model_record *r = m->records[i];
        struct record_timeline *t = timeline(h, r->name);
        if (t->present >> kit & 1)
            continue; /* a name given twice: its first */
        t->present |= (uint64_t)1 << kit;
        if (t->first < 0)
            t->first = kit;
        t->last = kit;
        t->sizes[kit] = sizes_text(h, m, r);
        for (size_t k = 0; k < r->nall; k++) {
            const char *path = r->all[k]->name && *r->all[k]->name ? r->all[k]->path : NULL;
            struct field_span *f = path ? strmap_get(&t->field_by_path, path) : NULL;
            if (!path)
                continue;
            if (!f) {
                f = arena_alloc(&h->a, sizeof *f);
                f->path = arena_strdup(&h->a, path);
                f->first = kit;
                strmap_put(&t->field_by_path, f->path, f);
                vec_push(&t->fields, f);
            }
            f->last = kit;
        }
    }
}

/* The changes of the step into kit, on the records they are about. */
static void read_step(struct report_history *h, int kit)
{
    const struct diff_changes *d = &h->steps[kit - 1];
    for (size_t i = 0; i < d->len; i++) {
        const struct diff_change *c = &d->items[i];
        if (strcmp(c->kind, "record") != 0 && strcmp(c->kind, "field") != 0)
            continue;
        char *name = arena_strndup(&h->a, c->item, strcspn(c->item, "."));
        struct kit_change *k = arena_alloc(&h->a, sizeof *k);
        *k = (struct kit_change){kit, c};
        vec_push(&timeline(h, name)->changes, k);
    }
}

static int by_name(const void *pa, const void *pb)
{
    const struct record_timeline *a = *(struct record_timeline *const *)pa, *b = *(struct record_timeline *const *)pb;
    return strcmp(a->name, b->name);
}

/* One kit of the timeline: a spec file given as it is, or a kit folder
 * whose layout a process of the pool makes into dir/layout.xml. */
struct kit_input {
    const char *spec;   /* the spec file given, or NULL */
    const char *folder; /* the kit folder, or NULL */
    const char *dir;    /* folder: the kit's working folder, named as the kit is in the timeline */
    const char *label;  /* the kit's name in the timeline */
    size_t job;         /* folder: its layout's job in the pool */
};

/* What history reads kits with: the pool making the layouts, and the pages. */
struct kit_reader {
    struct self_jobs *pool;
    const char *docs_xml; /* the pages' docs.xml (job 0 of the pool), or NULL */
    xmlDocPtr docs;       /* read on first use */
};

/* A loaded spec and its model: two are held at a time. */
struct kit_spec {
    xmlDocPtr doc;
    struct ddi_model *m;
    const char *name; /* in messages */
};

/* A kit folder's spec as `ddigen spec --previous` of the kit before would
 * write it (the same bytes as generate's; tests/report/history.sh holds
 * history.json to that): its layout from the pool, a copy of the pages
 * (spec_build takes its input's nodes) and the previous spec in hand, not
 * read again. layout.xml and docs.xml are parsed without the schema:
 * `ddigen layout` and `ddigen docs` checked them as they wrote them. The
 * spec is not written: checked here as spec_write and spec_load would
 * have (the schema, then the semantic checks). NULL after reporting. */
static xmlDocPtr build_kit_spec(struct kit_reader *r, const struct kit_input *kit, const struct kit_spec *prev)
{
    if (r->docs_xml && !r->docs && (self_jobs_wait(r->pool, 0) != 0 || !(r->docs = spec_read_xml_file(r->docs_xml))))
        return NULL;
    if (self_jobs_wait(r->pool, kit->job) != 0)
        return NULL;
    struct arena a = {0};
    xmlDocPtr layout = spec_read_xml_file(arena_concat(&a, kit->dir, "/layout.xml", NULL));
    arena_free(&a);
    xmlDocPtr docs = layout && r->docs ? xmlCopyDoc(r->docs, 1) : NULL;
    xmlDocPtr spec = NULL;
    if (layout && (docs || !r->docs)) {
        struct spec_build_options opt = {.previous = prev->name, .previous_doc = prev->doc};
        /* As `ddigen spec -q` printed it: its messages, no progress lines or notes. */
        struct ddigen_diag saved = ddigen_diag_global;
        ddigen_diag_global.quiet = 1, ddigen_diag_global.verbose = 0;
        spec = spec_build(layout, docs, &opt);
        ddigen_diag_global.quiet = saved.quiet, ddigen_diag_global.verbose = saved.verbose;
    } else if (layout) {
        ddigen_error(NULL, 0, "out of memory");
    }
    xmlFreeDoc(layout);
    xmlFreeDoc(docs);
    if (spec && (spec_validate_generated(spec, kit->folder) != 0 || spec_check_semantics(spec, kit->folder) != 0)) {
        xmlFreeDoc(spec);
        spec = NULL;
    }
    return spec;
}

/* Reads each kit in turn, oldest first, each compared with the one before
 * on the models already loaded; the newest is left in *newest for the
 * report. 0 or -1 (reported). */
static int read_history(struct report_history *h, struct kit_reader *r, struct kit_input *const *kits, int n,
                        struct kit_spec *newest)
{
    struct kit_spec prev = {0};
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        h->kits[i] = kits[i]->label;
        h->nkits = i + 1;
        struct kit_spec cur = {.name = kits[i]->spec ? kits[i]->spec : kits[i]->folder};
        cur.doc = kits[i]->spec ? spec_load(kits[i]->spec) : build_kit_spec(r, kits[i], &prev);
        cur.m = cur.doc ? ddi_model_load(cur.doc) : NULL;
        if (!cur.m) {
            if (cur.doc)
                ddigen_error(NULL, 0, "out of memory");
            rc = -1;
        } else {
            read_kit(h, i, cur.m);
            /* IDs must chain: a kit that renumbers the one before is an error (diff's check). */
            const struct diff_spec old_side = {prev.doc, prev.name, prev.m}, new_side = {cur.doc, cur.name, cur.m};
            if (prev.doc && diff_collect_loaded(&old_side, &new_side, &h->steps[i - 1]) & 1)
                rc = -1;
            else if (prev.doc)
                read_step(h, i);
        }
        ddi_model_free(prev.m);
        xmlFreeDoc(prev.doc);
        prev = cur;
    }
    if (rc == 0) {
        *newest = prev;
    } else {
        ddi_model_free(prev.m);
        xmlFreeDoc(prev.doc);
    }
    if (h->records.len > 1)
        qsort(h->records.items, h->records.len, sizeof(void *), by_name);
    return rc;
}

static void free_history(struct report_history *h)
{
    for (size_t i = 0; i < h->records.len; i++) {
        struct record_timeline *t = h->records.items[i];
        vec_free(&t->changes);
        vec_free(&t->fields);
        strmap_free(&t->field_by_path);
    }
    for (int i = 0; i < MAX_KITS; i++)
        diff_changes_free(&h->steps[i]);
    vec_free(&h->records);
    strmap_free(&h->by_record);
    arena_free(&h->a);
}

/* --- output ---------------------------------------------------------------- */

static void json_kit(struct strbuf *sb, const struct report_history *h, int kit)
{
    if (kit < 0)
        sb_append(sb, "null");
    else
        json_sb_str(sb, h->kits[kit]);
}

static void json_record(struct strbuf *sb, const struct report_history *h, const struct record_timeline *t)
{
    sb_append(sb, "    ");
    json_sb_str(sb, t->name);
    sb_append(sb, ": {\"introduced\": ");
    json_kit(sb, h, t->first);
    sb_append(sb, ", \"last\": ");
    json_kit(sb, h, t->last);
    sb_append(sb, ", \"kits\": [");
    for (int k = 0, n = 0; k < h->nkits; k++)
        if (t->present >> k & 1) {
            sb_append(sb, n++ ? ", " : "");
            json_sb_str(sb, h->kits[k]);
        }
    sb_append(sb, "],\n      \"sizes\": {");
    for (int k = 0, n = 0; k < h->nkits; k++)
        if (t->sizes[k]) {
            sb_append(sb, n++ ? ", " : "");
            json_sb_str(sb, h->kits[k]);
            sb_append(sb, ": ");
            json_sb_str(sb, t->sizes[k]);
        }
    sb_append(sb, "},\n      \"changes\": [");
    for (size_t i = 0; i < t->changes.len; i++) {
        const struct kit_change *k = t->changes.items[i];
        sb_append(sb, i ? ",\n        {\"kit\": " : "\n        {\"kit\": ");
        json_sb_str(sb, h->kits[k->kit]);
        const char *pairs[][2] = {{"change", k->change->change}, {"item", k->change->item},
                                  {"detail", k->change->detail}, {"class", k->change->class_name}};
        for (size_t p = 0; p < 4; p++) {
            sb_printf(sb, ", \"%s\": ", pairs[p][0]);
            json_sb_str(sb, pairs[p][1]);
        }
        sb_append(sb, "}");
    }
    sb_append(sb, "],\n      \"fields\": {");
    for (size_t i = 0; i < t->fields.len; i++) {
        const struct field_span *f = t->fields.items[i];
        sb_append(sb, i ? ", " : "");
        json_sb_str(sb, f->path);
        sb_append(sb, ": [");
        json_kit(sb, h, f->first);
        sb_append(sb, ", ");
        json_kit(sb, h, f->last);
        sb_append(sb, "]");
    }
    sb_append(sb, "}}");
}

int report_history_json(struct site *s)
{
    const struct report_history *h = s->history;
    struct strbuf sb = {0};
    sb_append(&sb, "{\n  \"kits\": [");
    for (int k = 0; k < h->nkits; k++) {
        sb_append(&sb, k ? ", " : "");
        json_sb_str(&sb, h->kits[k]);
    }
    sb_append(&sb, "],\n  \"records\": {\n");
    for (size_t i = 0; i < h->records.len; i++) {
        json_record(&sb, h, h->records.items[i]);
        sb_append(&sb, i + 1 < h->records.len ? ",\n" : "\n");
    }
    sb_append(&sb, "  }\n}\n");
    int rc = site_write(s, "history.json", &sb);
    sb_free(&sb);
    return rc;
}

/* A strip of one cell per kit: absent, present, or changed on the way in
 * (the title lists the changes); then each change and the fields that
 * came or went after the first kit. */
void report_timeline(struct site *s, struct strbuf *sb, const struct ddi_model_record *rec)
{
    const struct report_history *h = s->history;
    const struct record_timeline *t = strmap_get(&h->by_record, rec->name);
    if (!t)
        return;
    sb_append(sb, "<h2>History</h2>\n<ol class=\"timeline\">\n");
    for (int k = 0; k < h->nkits; k++) {
        int changed = 0;
        for (size_t i = 0; i < t->changes.len; i++)
            changed |= ((const struct kit_change *)t->changes.items[i])->kit == k;
        const char *state = !(t->present >> k & 1) ? "absent" : k == t->first ? "introduced" : changed ? "changed" : "same";
        sb_printf(sb, "<li class=\"kit %s\" title=\"%s\">", state, state);
        html_escape(sb, h->kits[k]);
        if (t->sizes[k]) {
            sb_append(sb, "<small>");
            html_escape(sb, t->sizes[k]);
            sb_append(sb, "</small>");
        }
        sb_append(sb, "</li>\n");
    }
    sb_append(sb, "</ol>\n");
    if (t->changes.len) {
        sb_append(sb, "<ul class=\"changes\">\n");
        for (size_t i = 0; i < t->changes.len; i++) {
            const struct kit_change *k = t->changes.items[i];
            static const char *const breaks[] = {"b0", "b1", "b2"};
            site_badge_item(sb, breaks[k->change->breaks], h->kits[k->kit], k->change->change, k->change->item,
                            k->change->detail);
        }
        sb_append(sb, "</ul>\n");
    }
    int any = 0;
    for (size_t i = 0; i < t->fields.len; i++) {
        const struct field_span *f = t->fields.items[i];
        if (f->first == t->first && f->last == t->last)
            continue;
        sb_append(sb, any++ ? ", " : "<p class=\"spans\">Fields not in every kit of the record: ");
        sb_append(sb, "<code>");
        html_escape(sb, f->path);
        sb_append(sb, "</code> ");
        html_escape(sb, h->kits[f->first]);
        sb_append(sb, "&#8211;");
        html_escape(sb, h->kits[f->last]);
    }
    if (any)
        sb_append(sb, "</p>\n");
}

/* --- kits given as folders ------------------------------------------------- */

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* An Include/<version> folder: it has km/ or shared/. */
static int is_kit(struct arena *a, const char *path)
{
    return is_dir(arena_concat(a, path, "/km", NULL)) || is_dir(arena_concat(a, path, "/shared", NULL));
}

static int by_version(const void *pa, const void *pb)
{
    return strverscmp(*(const char *const *)pa, *(const char *const *)pb);
}

/* The kits of a folder of Include/<version> folders, in version order. */
static void kits_below(struct arena *a, const char *dir, struct vec *out)
{
    DIR *d = opendir(dir);
    struct vec found = {0};
    for (struct dirent *e; d && (e = readdir(d)) != NULL;) {
        const char *path = arena_concat(a, dir, "/", e->d_name, NULL);
        if (e->d_name[0] != '.' && is_kit(a, path))
            vec_push(&found, (void *)path);
    }
    if (d)
        closedir(d);
    if (found.len > 1)
        qsort(found.items, found.len, sizeof(void *), by_version);
    for (size_t i = 0; i < found.len; i++)
        vec_push(out, found.items[i]);
    vec_free(&found);
}

/* Each argument a spec, a kit, or a folder of kits (its kits in version
 * order): the kits oldest first, each kit folder given a working folder
 * in tmp named after it (NAME, then NAME.2, ... for a kit given again). */
static int plan_kits(struct arena *a, char **args, int n, const char *tmp, struct vec *kits)
{
    struct vec found = {0};
    for (int i = 0; i < n; i++) {
        if (!is_dir(args[i]) || is_kit(a, args[i]))
            vec_push(&found, args[i]);
        else
            kits_below(a, args[i], &found);
    }
    if (!found.len)
        ddigen_error(NULL, 0, "history: no spec and no kit (a folder with km/ or shared/) in the arguments");
    int rc = found.len ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < found.len; i++) {
        const char *arg = found.items[i];
        struct kit_input *kit = arena_alloc(a, sizeof *kit);
        *kit = (struct kit_input){0};
        if (!is_dir(arg)) {
            kit->spec = arg;
            kit->label = kit_label(a, arg);
        } else {
            const char *slash = strrchr(arg, '/');
            const char *name = slash && slash[1] ? slash + 1 : arg;
            kit->folder = arg;
            kit->dir = arena_printf(a, "%s/%s", tmp, name);
            for (int k = 2; is_dir(kit->dir); k++)
                kit->dir = arena_printf(a, "%s/%s.%d", tmp, name, k);
            kit->label = arena_strdup(a, strrchr(kit->dir, '/') + 1);
            rc = ddigen_make_dirs(kit->dir);
        }
        vec_push(kits, kit);
    }
    vec_free(&found);
    return rc;
}

/* The pool's jobs: the pages once (`ddigen docs`, job 0, when docs is
 * given and a kit is a folder), then each kit folder's `ddigen layout`,
 * in the kits' order. argvs and on get one entry per job; *docs_xml is
 * left NULL when the pages are not read. */
static void plan_jobs(struct arena *a, struct vec *kits, const char *docs, const char **docs_xml, struct vec *argvs,
                      struct vec *on)
{
    int folders = 0;
    for (size_t i = 0; i < kits->len; i++)
        folders += ((struct kit_input *)kits->items[i])->folder != NULL;
    if (!folders)
        *docs_xml = NULL;
    if (*docs_xml) {
        char **argv = arena_alloc(a, 7 * sizeof *argv);
        const char *words[] = {"ddigen", "docs", docs, "-q", "-o", *docs_xml, NULL};
        memcpy(argv, words, sizeof words);
        vec_push(argvs, argv);
        vec_push(on, (void *)docs);
    }
    for (size_t i = 0; i < kits->len; i++) {
        struct kit_input *kit = kits->items[i];
        if (!kit->folder)
            continue;
        char **argv = arena_alloc(a, 8 * sizeof *argv);
        const char *words[] = {"ddigen", "layout", "--wdk", kit->folder, "-q",
                               "-o",     arena_concat(a, kit->dir, "/layout.xml", NULL), NULL};
        memcpy(argv, words, sizeof words);
        kit->job = argvs->len;
        vec_push(argvs, argv);
        vec_push(on, (void *)kit->folder);
    }
}

static const char usage[] =
    "usage: ddigen history (SPEC.xml | KIT | FOLDER-OF-KITS)... -o DIR [--docs DOCS] [--docs-root DIR] [-v]\n"
    "  one timeline over every kit, oldest first: specs each generated with --previous of the one before,\n"
    "  or kit folders (Include/<version>, with km/ or shared/), generated here in that order (--docs: their pages)\n"
    "  DIR: the newest kit's report site with a history strip on each record page, and DIR/history.json\n";

int ddigen_cmd_history(int argc, char **argv)
{
    static const struct option options[] = {
        {"docs-root", required_argument, NULL, 'd'}, {"output", required_argument, NULL, 'o'},
        {"docs", required_argument, NULL, 'D'},      {"verbose", no_argument, NULL, 'v'},
        {"help", no_argument, NULL, 'h'},           {NULL, 0, NULL, 0},
    };
    struct report_options o = {0};
    const char *docs = NULL;
    int c;
    optind = 1;
    while ((c = cli_getopt(argc, argv, "d:o:D:vh", options)) != -1) {
        if (c == 'd')
            o.docs_root = optarg;
        else if (c == 'D')
            docs = optarg;
        else if (c == 'o')
            o.out = optarg;
        else if (c == 'v')
            ddigen_diag_global.verbose = 1;
        else if (c == 'h') {
            fputs(usage, stdout);
            return 0;
        } else {
            fputs(usage, stderr);
            return 2;
        }
    }
    if (argc - optind < 1 || !o.out) {
        ddigen_error(NULL, 0, "history needs specs or kits, oldest first, and -o DIR");
        fputs(usage, stderr);
        return 2;
    }
    struct arena a = {0};
    struct vec kits = {0}, argvs = {0}, on = {0};
    const char *tmp = ddigen_temp_dir(&a, "history");
    int rc = tmp && plan_kits(&a, argv + optind, argc - optind, tmp, &kits) == 0 ? 0 : 1;
    int n = (int)kits.len;
    if (rc == 0 && n > MAX_KITS) {
        ddigen_error(NULL, 0, "history: %d kits, at most %d", n, MAX_KITS);
        rc = 1;
    }
    struct kit_reader r = {0};
    if (rc == 0) {
        r.docs_xml = docs ? arena_concat(&a, tmp, "/docs.xml", NULL) : NULL;
        plan_jobs(&a, &kits, docs, &r.docs_xml, &argvs, &on);
        r.pool = argvs.len ? self_jobs_start((char **const *)argvs.items, (const char *const *)on.items, argvs.len,
                                             self_jobs_slots(argvs.len))
                           : NULL;
        rc = argvs.len && !r.pool ? 1 : 0;
    }
    struct report_history *h = rc == 0 ? calloc(1, sizeof *h) : NULL;
    struct kit_spec newest = {0};
    if (h && read_history(h, &r, (struct kit_input *const *)kits.items, n, &newest) == 0) {
        self_jobs_end(r.pool); /* every job was waited for: the layouts' processes are gone */
        r.pool = NULL;
        o.spec = newest.name;
        o.previous = n > 1 ? h->kits[n - 2] : NULL;
        o.spec_label = h->kits[n - 1];
        o.previous_label = n > 1 ? h->kits[n - 2] : NULL;
        o.history = h;
        o.spec_doc = newest.doc;
        o.spec_model = newest.m;
        o.previous_changes = n > 1 ? &h->steps[n - 2] : NULL;
        rc = report_run(&o);
    } else {
        rc = 1;
    }
    self_jobs_end(r.pool);
    ddi_model_free(newest.m);
    xmlFreeDoc(newest.doc);
    xmlFreeDoc(r.docs);
    if (h)
        free_history(h);
    free(h);
    if (tmp)
        ddigen_remove_tree(tmp);
    vec_free(&kits);
    vec_free(&argvs);
    vec_free(&on);
    arena_free(&a);
    return rc;
}
