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
#include "site.h"

#include "../spec/schema.h"
#include "../util/cli.h"
#include "../util/diag.h"
#include "../util/json.h"
#include "../util/output.h"

#include <dirent.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>

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

/* Loads each spec in turn (two at a time), 0 or -1 (reported). */
static int read_history(struct report_history *h, char **specs, int n)
{
    xmlDocPtr prev = NULL;
    int rc = 0;
    for (int i = 0; i < n && rc == 0; i++) {
        h->kits[i] = kit_label(&h->a, specs[i]);
        h->nkits = i + 1;
        xmlDocPtr doc = spec_load(specs[i]);
        struct ddi_model *m = doc ? ddi_model_load(doc) : NULL;
        if (!m) {
            if (doc)
                ddigen_error(NULL, 0, "out of memory");
            rc = -1;
        } else {
            read_kit(h, i, m);
            /* IDs must chain: a kit that renumbers the one before is an error (diff's check). */
            if (prev && diff_collect(prev, specs[i - 1], doc, specs[i], &h->steps[i - 1]) & 1)
                rc = -1;
            else if (prev)
                read_step(h, i);
        }
        ddi_model_free(m);
        xmlFreeDoc(prev);
        prev = doc;
    }
    xmlFreeDoc(prev);
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

/* Runs this executable with argv (a process of its own: the stages keep
 * process-wide state); 0, or -1 after reporting what failed on what. */
static int run_self(char **argv, const char *on)
{
    extern char **environ;
    pid_t pid;
    int status;
    if (posix_spawn(&pid, "/proc/self/exe", NULL, NULL, argv, environ) != 0 || waitpid(pid, &status, 0) != pid ||
        !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        ddigen_error(on, 0, "history: ddigen %s failed (its messages are above)", argv[1]);
        return -1;
    }
    return 0;
}

/* A kit's spec as `generate` makes it, without the C families history
 * does not need: `layout`, then `spec` with the pages read once for
 * every kit (docs_xml, or NULL) and the IDs chained to previous. The
 * same spec, byte for byte (tests/report/history.sh compares the
 * history.json of both), for 5.4 s CPU instead of generate's 7.4 s on
 * 14393 with its pages. */
static int spec_of_kit(struct arena *a, const char *kit, const char *docs_xml, const char *previous,
                       const char *out)
{
    if (ddigen_make_dirs(out) != 0)
        return -1;
    const char *layout = arena_concat(a, out, "/layout.xml", NULL);
    char *layout_argv[] = {"ddigen", "layout", "--wdk", (char *)kit, "-q", "-o", (char *)layout, NULL};
    if (run_self(layout_argv, kit) != 0)
        return -1;
    char *argv[12];
    int n = 0;
    argv[n++] = "ddigen";
    argv[n++] = "spec";
    argv[n++] = "--layout";
    argv[n++] = (char *)layout;
    if (docs_xml)
        argv[n++] = "--docs", argv[n++] = (char *)docs_xml;
    if (previous)
        argv[n++] = "--previous", argv[n++] = (char *)previous;
    argv[n++] = "-q";
    argv[n++] = "-o";
    argv[n++] = arena_concat(a, out, "/spec/ddi.xml", NULL);
    argv[n] = NULL;
    return ddigen_make_dirs(arena_concat(a, out, "/spec", NULL)) == 0 ? run_self(argv, kit) : -1;
}

/* Each argument a spec, a kit, or a folder of kits; kits are generated
 * into tmp, oldest first, each with --previous of the spec before it. */
static int specs_of(struct arena *a, char **args, int n, const char *docs, const char *tmp, struct vec *specs)
{
    struct vec kits = {0};
    for (int i = 0; i < n; i++) {
        if (!is_dir(args[i]))
            vec_push(&kits, args[i]);
        else if (is_kit(a, args[i]))
            vec_push(&kits, args[i]);
        else
            kits_below(a, args[i], &kits);
    }
    int rc = kits.len ? 0 : -1;
    if (!kits.len)
        ddigen_error(NULL, 0, "history: no spec and no kit (a folder with km/ or shared/) in the arguments");
    const char *previous = NULL, *docs_xml = NULL;
    if (rc == 0 && docs) {
        docs_xml = arena_concat(a, tmp, "/docs.xml", NULL);
        char *argv[] = {"ddigen", "docs", (char *)docs, "-q", "-o", (char *)docs_xml, NULL};
        rc = run_self(argv, docs);
    }
    for (size_t i = 0; rc == 0 && i < kits.len; i++) {
        const char *arg = kits.items[i];
        if (!is_dir(arg)) {
            vec_push(specs, (void *)arg);
            previous = arg;
            continue;
        }
        const char *slash = strrchr(arg, '/');
        const char *out = arena_printf(a, "%s/%s", tmp, slash && slash[1] ? slash + 1 : arg);
        for (int k = 2; is_dir(out); k++)
            out = arena_printf(a, "%s/%s.%d", tmp, slash && slash[1] ? slash + 1 : arg, k);
        rc = spec_of_kit(a, arg, docs_xml, previous, out);
        previous = arena_concat(a, out, "/spec/ddi.xml", NULL);
        vec_push(specs, (void *)previous);
    }
    vec_free(&kits);
    return rc;
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
    struct vec specs = {0};
    const char *tmp = ddigen_temp_dir(&a, "history");
    int rc = tmp && specs_of(&a, argv + optind, argc - optind, docs, tmp, &specs) == 0 ? 0 : 1;
    int n = (int)specs.len;
    if (rc == 0 && n > MAX_KITS) {
        ddigen_error(NULL, 0, "history: %d kits, at most %d", n, MAX_KITS);
        rc = 1;
    }
    struct report_history *h = rc == 0 ? calloc(1, sizeof *h) : NULL;
    if (h && read_history(h, (char **)specs.items, n) == 0) {
        o.spec = specs.items[n - 1];
        o.previous = n > 1 ? specs.items[n - 2] : NULL;
        o.spec_label = h->kits[n - 1];
        o.previous_label = n > 1 ? h->kits[n - 2] : NULL;
        o.history = h;
        rc = report_run(&o);
    } else {
        rc = 1;
    }
    if (h)
        free_history(h);
    free(h);
    if (tmp)
        ddigen_remove_tree(tmp);
    vec_free(&specs);
    arena_free(&a);
    return rc;
}
