/* The records a driver's generated code covers (scope.h): the closure of
 * its listed callbacks' parameter records under embedding, arrays, pointers
 * and union members (every member a discriminator selects is a field of the
 * union), plus the records it names with --records. */
#include "scope.h"
#include "skeleton_opts.h"
#include "view.h"

#include "../model/model.h"
#include "../model/specxml.h"
#include "../model/wire.h"
#include "../rules/reach.h"
#include "../util/diag.h"
#include "../util/strbuf.h"

#include <stdlib.h>
#include <string.h>

struct scope_walk {
    const struct ddi_model *m;
    struct emit_scope *s;
    struct vec queue; /* records added whose fields are not walked yet */
    int shared_names; /* some name is on two top-level records (alternatives by version or arch) */
};

static int is_kernel_record(const struct ddi_model_record *rec)
{
    return rec->node && sx_get(rec->node, "referenced") && !strcmp(sx_get(rec->node, "referenced"), "true");
}

/* Puts a record in scope by name (templates select by name), and every
 * top-level record of that name on the queue. */
static void add(struct scope_walk *w, const struct ddi_model_record *rec)
{
    if (!rec || !rec->name || strmap_get(&w->s->names, rec->name))
        return;
    strmap_put(&w->s->names, rec->name, (void *)rec->name);
    w->s->in_scope++;
    if (!w->shared_names) {
        vec_push(&w->queue, (void *)rec);
        return;
    }
    for (size_t i = 0; i < w->m->nrecords; i++)
        if (w->m->records[i]->name && !strcmp(w->m->records[i]->name, rec->name))
            vec_push(&w->queue, w->m->records[i]);
}

/* The record a C type names by value, and the one it points to (through
 * typedefs: reach_pointee, the walker lowering uses too). */
static void add_type(struct scope_walk *w, const char *type)
{
    int stars = 0, is_const = 0;
    if (!type)
        return;
    add(w, ddi_model_type_record(w->m, type));
    add(w, reach_pointee(w->m, type, &stars, &is_const));
}

/* A function type's parameter records (what a call with it hands over). */
static void add_params(struct scope_walk *w, const struct ddi_model_functype *ft)
{
    for (size_t k = 0; ft && k < ft->nparams; k++)
        add_type(w, ft->params[k].type);
}

/* Every field at every depth: embedded records, arrays of records, nested
 * unions' members, pointees. A kernel record (wdm.h's, referenced) is in
 * scope when reached, but its own pointers lead out of the DDI. */
static void walk_record(struct scope_walk *w, const struct ddi_model_record *rec)
{
    for (size_t i = 0; i < rec->nall; i++) {
        const struct ddi_model_field *f = rec->all[i];
        add(w, f->type_record);
        if (!is_kernel_record(rec))
            add_type(w, f->type);
    }
}

/* The signature a callback member of the initialization record points to,
 * and its role typedef's name (*role), or NULL. */
static const struct ddi_model_functype *callback_signature(const struct ddi_model *m, const struct ddi_model_field *f,
                                                           const char **role)
{
    const struct ddi_model_functype *ptr = f->type ? ddi_model_functype(m, f->type) : NULL;
    *role = ptr ? ptr->pointer_to : NULL;
    return *role ? ddi_model_functype(m, *role) : NULL;
}

/* A type's name without qualifiers, tag keywords and pointers
 * ("const struct _X *" -> _X) into the scope's types, and the enum it
 * stands for (through typedefs). The scope owns the copies. */
static void add_type_name(struct emit_scope *s, const struct ddi_model *m, const char *type)
{
    if (!type)
        return;
    static const char *const skip[] = {"const ", "volatile ", "struct ", "union ", "enum "};
    for (int again = 1; again;) {
        again = 0;
        for (size_t i = 0; i < sizeof skip / sizeof *skip; i++)
            if (!strncmp(type, skip[i], strlen(skip[i]))) {
                type += strlen(skip[i]);
                again = 1;
            }
    }
    size_t n = strcspn(type, " *[");
    char buf[256];
    if (!n || n >= sizeof buf)
        return;
    memcpy(buf, type, n);
    buf[n] = '\0';
    if (!strmap_get(&s->types, buf)) {
        char *name = strdup(buf);
        if (!name)
            return;
        strmap_put(&s->types, name, name);
        vec_push(&s->owned, name);
    }
    const struct ddi_model_enum *e = ddi_model_type_enum(m, buf);
    if (e && e->name && !strmap_get(&s->types, e->name))
        strmap_put(&s->types, e->name, (void *)e->name);
}

static void add_listed_callbacks(struct scope_walk *w, const char *const *params)
{
    const struct ddi_model_record *init = ddi_model_record(w->m, skeleton_kind_record(params));
    for (size_t i = 0; init && i < init->nfields; i++) {
        const struct ddi_model_field *f = init->fields[i];
        const char *role;
        const struct ddi_model_functype *sig = callback_signature(w->m, f, &role);
        if (!sig || !f->name || !skeleton_member_listed(params, f->name, role))
            continue;
        add_params(w, sig);
        add_type_name(w->s, w->m, f->type);
        add_type_name(w->s, w->m, role);
        add_type_name(w->s, w->m, sig->result);
        for (size_t k = 0; k < sig->nparams; k++)
            add_type_name(w->s, w->m, sig->params[k].type);
    }
}

/* The type names the fields of every record in scope spell. */
static void add_field_types(struct emit_scope *s, const struct ddi_model *m)
{
    for (size_t i = 0; i < m->nrecords; i++) {
        const struct ddi_model_record *rec = m->records[i];
        if (!rec->name || !strmap_get(&s->names, rec->name))
            continue;
        for (size_t k = 0; k < rec->nall; k++)
            add_type_name(s, m, rec->all[k]->type);
    }
}

/* A top-level record by name, else by tag, or NULL. */
static const struct ddi_model_record *record_named(const struct ddi_model *m, const char *name)
{
    const struct ddi_model_record *rec = ddi_model_record(m, name);
    return rec ? rec : ddi_model_record_by_tag(m, name);
}

/* Records named in a comma list: --records NAME,... (where = the spec,
 * what = "--records"), or the list's `records:` lines, "LINE:NAME,..."
 * (where = the list file, its line before each name). Each a record's name
 * or tag; -1 after reporting every name the spec lacks. */
static int add_names(struct scope_walk *w, const char *names, const char *where, const char *what, int with_lines)
{
    int rc = 0;
    for (const char *p = names; *p;) {
        size_t n = strcspn(p, ",");
        const char *colon = with_lines ? memchr(p, ':', n) : NULL;
        unsigned line = with_lines ? (unsigned)strtoul(p, NULL, 10) : 0;
        const char *name = colon ? colon + 1 : p;
        size_t len = n - (size_t)(name - p);
        char buf[256];
        if (len && len < sizeof buf) {
            memcpy(buf, name, len);
            buf[len] = '\0';
            const struct ddi_model_record *rec = record_named(w->m, buf);
            if (rec) {
                add(w, rec);
            } else {
                ddigen_error(where, (int)line, "%s: '%s' is not a record of the spec (a record's name or tag)", what,
                             ddigen_quote(buf));
                rc = -1;
            }
        }
        p += n + (p[n] == ',');
    }
    return rc;
}

static size_t distinct_names(const struct ddi_model *m)
{
    struct strmap seen = {0};
    size_t n = 0;
    for (size_t i = 0; i < m->nrecords; i++)
        if (m->records[i]->name && !strmap_get(&seen, m->records[i]->name)) {
            strmap_put(&seen, m->records[i]->name, (void *)1);
            n++;
        }
    strmap_free(&seen);
    return n;
}

int emit_scope_wanted(const char *const *params)
{
    const char *list = skeleton_param(params, "ddi-list");
    return (list && strcmp(list, "all") != 0) || skeleton_param(params, "records") ||
           skeleton_param(params, "list-records");
}

int emit_scope_check_options(const char *const *params)
{
    const char *list = skeleton_param(params, "ddi-list");
    if (!list || strcmp(list, "all") != 0 || !skeleton_param(params, "records"))
        return 0;
    ddigen_error(NULL, 0,
                 "--records with --all: --all generates for every record; give a --ddi-list or leave --all out");
    return -1;
}

int emit_scope_compute(struct emit_scope *s, const struct ddi_model *m, const char *const *params,
                       const char *spec_path)
{
    memset(s, 0, sizeof *s);
    const char *list = skeleton_param(params, "ddi-list"), *records = skeleton_param(params, "records");
    int listed = list && strcmp(list, "all") != 0;
    if (!listed && !records)
        return 0;
    s->active = 1;
    s->total = distinct_names(m);
    struct scope_walk w = {.m = m, .s = s, .shared_names = s->total < m->nrecords};
    if (listed)
        add_listed_callbacks(&w, params);
    int rc = records ? add_names(&w, records, spec_path, "--records", 0) : 0;
    const char *list_records = skeleton_param(params, "list-records"), *list_file = skeleton_param(params, "list-file");
    if (list_records && add_names(&w, list_records, list_file ? list_file : "the list", "records", 1) != 0)
        rc = -1;
    while (w.queue.len)
        walk_record(&w, w.queue.items[--w.queue.len]);
    vec_free(&w.queue);
    add_field_types(s, m);
    return rc;
}

void emit_scope_free(struct emit_scope *s)
{
    for (size_t i = 0; i < s->owned.len; i++)
        free(s->owned.items[i]);
    vec_free(&s->owned);
    strmap_free(&s->types);
    strmap_free(&s->names);
    memset(s, 0, sizeof *s);
}

static int in_scope(const struct emit_scope *s, xmlNodePtr rec)
{
    const char *name = sx_get(rec, "name");
    return name && strmap_get(&s->names, name) != NULL;
}

void emit_scope_mark(const struct emit_scope *s, xmlDocPtr spec)
{
    xmlNodePtr root = xmlDocGetRootElement(spec), layout = sx_part(spec, "layout");
    xmlNsPtr ns = root ? xmlSearchNsByHref(spec, root, BAD_CAST EMIT_VIEW_NS) : NULL;
    if (!s->active || !layout || !ns)
        return;
    for (xmlNodePtr r = sx_child(layout, "record"); r; r = sx_next(r, "record"))
        if (!in_scope(s, r))
            xmlNewNsProp(r, ns, BAD_CAST "out-of-scope", BAD_CAST "yes");
}

/* The records the fields under n marshal by calling their marshallers
 * (dv:record), each checked against the scope. */
static int check_fields(const struct emit_scope *s, xmlNodePtr n, const char *top, const char *spec_path)
{
    int rc = 0;
    for (xmlNodePtr k = n->children; k; k = k->next) {
        if (k->type != XML_ELEMENT_NODE)
            continue;
        xmlChar *callee = xmlGetNsProp(k, BAD_CAST "record", BAD_CAST EMIT_VIEW_NS);
        if (callee && !strmap_get(&s->names, (const char *)callee)) {
            ddigen_error(spec_path, (int)xmlGetLineNo(k),
                         "internal: %s is in scope but %s, whose marshaller it calls for %s, is not", top,
                         (const char *)callee, sx_get(k, "path") ? sx_get(k, "path") : "a field");
            rc = -1;
        }
        xmlFree(callee);
        if (check_fields(s, k, top, spec_path) != 0)
            rc = -1;
    }
    return rc;
}

int emit_scope_check_marshal(const struct emit_scope *s, xmlDocPtr spec, const char *spec_path)
{
    xmlNodePtr layout = sx_part(spec, "layout");
    int rc = 0;
    for (xmlNodePtr r = layout && s->active ? sx_child(layout, "record") : NULL; r; r = sx_next(r, "record"))
        if (in_scope(s, r) && ddi_wire_is_marshalled(r) && check_fields(s, r, sx_get(r, "name"), spec_path) != 0)
            rc = -1;
    return rc;
}

void emit_scope_print_stats(const struct emit_scope *s, FILE *out)
{
    if (s->active)
        fprintf(out, "records in scope: %zu of %zu\n", s->in_scope, s->total);
}
