/* Builds the lookup structures of spec/index.h from a spec's <layout>.
 * Everything points into the document, which must outlive the index. */
#include "index.h"

#include "../model/specxml.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned line_attr(xmlNodePtr n)
{
    return (unsigned)sx_get_ulong(n, "line", 0);
}

static long first_offset(xmlNodePtr field)
{
    xmlNodePtr o = sx_child(field, "offset");
    return o ? (long)sx_get_ulong(o, "bits", 0) : -1;
}

static struct srec *add_record(struct spec_index *ix, xmlNodePtr n, struct srec *top, struct sfield *holder);

static struct sfield *add_field(struct spec_index *ix, xmlNodePtr n, struct srec *owner)
{
    struct sfield *f = arena_alloc(&ix->a, sizeof *f);
    f->node = n;
    f->name = sx_get(n, "name");
    f->path = sx_get(n, "path");
    f->type = sx_get(n, "type");
    f->bits = sx_get(n, "bits") ? (int)sx_get_ulong(n, "bits", 0) : -1;
    f->versions = sx_get(n, "versions");
    f->id = sx_get_ulong(n, "id", 0);
    f->line = line_attr(n);
    f->offset = first_offset(n);
    f->owner = owner;
    struct srec *top = owner->top;
    vec_push(&owner->fields, f);
    vec_push(&top->all, f);
    if (f->path && *f->path && f->name && *f->name) {
        struct sfield *prev = strmap_get(&top->by_path, f->path);
        if (!prev)
            strmap_put(&top->by_path, f->path, f);
        else {
            while (prev->same_path)
                prev = prev->same_path;
            prev->same_path = f;
        }
    }
    const char *spelled = sx_get(n, "spelled");
    if (spelled && f->path && f->name && *f->name) {
        size_t prefix = strlen(f->path) - strlen(f->name);
        const char *as_written = arena_printf(&ix->a, "%.*s%s", (int)prefix, f->path, spelled);
        if (!strmap_get(&top->by_spelled, as_written))
            strmap_put(&top->by_spelled, as_written, f);
    }
    xmlNodePtr nested = sx_child(n, "record");
    if (nested)
        f->nested = add_record(ix, nested, top, f);
    return f;
}

static struct srec *add_record(struct spec_index *ix, xmlNodePtr n, struct srec *top, struct sfield *holder)
{
    struct srec *r = arena_alloc(&ix->a, sizeof *r);
    r->node = n;
    r->name = sx_get(n, "name");
    r->kind = sx_get(n, "kind");
    r->file = sx_get(n, "file");
    r->versions = sx_get(n, "versions");
    r->line = line_attr(n);
    r->id = sx_get_ulong(n, "id", 0);
    r->anonymous = sx_get(n, "anonymous") != NULL;
    r->top = top ? top : r;
    r->holder = holder;
    if (r->name)
        strmap_put(&ix->records, r->name, r);
    vec_push(&ix->all_records, r);
    for (xmlNodePtr f = sx_child(n, "field"); f; f = sx_next(f, "field"))
        add_field(ix, f, r);
    return r;
}

static void add_enum(struct spec_index *ix, xmlNodePtr n)
{
    struct senum *e = arena_alloc(&ix->a, sizeof *e);
    e->node = n;
    e->name = sx_get(n, "name");
    e->file = sx_get(n, "file");
    e->versions = sx_get(n, "versions");
    e->line = line_attr(n);
    e->id = sx_get_ulong(n, "id", 0);
    strmap_put(&ix->enums, e->name, e);
    if (sx_get(n, "tag"))
        strmap_put(&ix->enums, sx_get(n, "tag"), e);
    vec_push(&ix->enum_list, e);
    for (xmlNodePtr v = sx_child(n, "value"); v; v = sx_next(v, "value")) {
        struct svalue *sv = arena_alloc(&ix->a, sizeof *sv);
        sv->node = v;
        sv->name = sx_get(v, "name");
        sv->value = strtoll(sx_get(v, "value") ? sx_get(v, "value") : "0", NULL, 10);
        sv->versions = sx_get(v, "versions");
        sv->id = sx_get_ulong(v, "id", 0);
        sv->owner = e;
        vec_push(&e->values, sv);
        if (!strmap_get(&ix->values, sv->name))
            strmap_put(&ix->values, sv->name, sv);
    }
}

void spec_index_build(struct spec_index *ix, xmlDocPtr doc)
{
    memset(ix, 0, sizeof *ix);
    xmlNodePtr layout = sx_part(doc, "layout");
    if (!layout)
        return;
    for (xmlNodePtr v = sx_child(layout, "version"); v; v = sx_next(v, "version"))
        ddi_versions_add(&ix->where, v);
    for (xmlNodePtr r = sx_child(layout, "record"); r; r = sx_next(r, "record")) {
        struct srec *rec = add_record(ix, r, NULL, NULL);
        vec_push(&ix->tops, rec);
    }
    /* Tags after names, so that a name always wins over another's tag. */
    for (size_t i = 0; i < ix->tops.len; i++) {
        struct srec *r = ix->tops.items[i];
        const char *tag = sx_get(r->node, "tag");
        if (tag && !strmap_get(&ix->records, tag))
            strmap_put(&ix->records, tag, r);
    }
    for (xmlNodePtr e = sx_child(layout, "enum"); e; e = sx_next(e, "enum"))
        add_enum(ix, e);
    for (xmlNodePtr t = sx_child(layout, "typedef"); t; t = sx_next(t, "typedef"))
        strmap_put(&ix->typedefs, sx_get(t, "name"), (void *)sx_get(t, "type"));
    for (xmlNodePtr t = sx_child(layout, "function-type"); t; t = sx_next(t, "function-type")) {
        struct sfunc *fn = arena_alloc(&ix->a, sizeof *fn);
        fn->node = t;
        fn->name = sx_get(t, "name");
        fn->file = sx_get(t, "file");
        fn->line = line_attr(t);
        strmap_put(&ix->funcs, fn->name, fn);
    }
}

void spec_index_free(struct spec_index *ix)
{
    for (size_t i = 0; i < ix->all_records.len; i++) {
        struct srec *r = ix->all_records.items[i];
        vec_free(&r->fields);
        vec_free(&r->all);
        strmap_free(&r->by_path);
        strmap_free(&r->by_spelled);
    }
    vec_free(&ix->all_records);
    for (size_t i = 0; i < ix->enum_list.len; i++)
        vec_free(&((struct senum *)ix->enum_list.items[i])->values);
    vec_free(&ix->enum_list);
    vec_free(&ix->tops);
    strmap_free(&ix->records);
    strmap_free(&ix->enums);
    strmap_free(&ix->values);
    strmap_free(&ix->typedefs);
    strmap_free(&ix->funcs);
    arena_free(&ix->a);
}

struct srec *spec_index_record(const struct spec_index *ix, const char *name)
{
    return name ? strmap_get(&ix->records, name) : NULL;
}

struct sfield *spec_index_field(const struct srec *top, const char *path)
{
    return path ? strmap_get(&top->top->by_path, path) : NULL;
}

struct sfield *spec_index_field_spelled(const struct srec *top, const char *path)
{
    return path ? strmap_get(&top->top->by_spelled, path) : NULL;
}

/* "const struct _X" -> "_X"; NULL for pointers and arrays. */
static const char *bare_type(char *buf, size_t cap, const char *type)
{
    if (!type || strchr(type, '*') || strchr(type, '['))
        return NULL;
    static const char *const drop[] = {"const ", "volatile ", "struct ", "union ", "enum ", NULL};
    for (int again = 1; again;) {
        again = 0;
        for (const char *const *d = drop; *d; d++)
            if (!strncmp(type, *d, strlen(*d))) {
                type += strlen(*d);
                again = 1;
            }
    }
    snprintf(buf, cap, "%s", type);
    size_t n = strlen(buf);
    while (n && buf[n - 1] == ' ')
        buf[--n] = '\0';
    return buf;
}

/* Follows typedefs from type (at most 8 deep, pointers and arrays stop it) and
 * returns the first name whose entry in map `found` accepts; NULL if none does. */
static void *follow_typedefs(const struct spec_index *ix, const char *type, const struct strmap *map,
                             int (*found)(void *entry))
{
    char buf[256];
    for (int depth = 0; depth < 8 && type; depth++) {
        const char *t = bare_type(buf, sizeof buf, type);
        if (!t)
            return NULL;
        void *entry = strmap_get(map, t);
        if (entry && found(entry))
            return entry;
        type = strmap_get(&ix->typedefs, t);
    }
    return NULL;
}

static int is_top_record(void *entry)
{
    const struct srec *r = entry;
    return r->top == r; /* nested records are reached through their parent */
}

static int is_enum(void *entry)
{
    (void)entry;
    return 1;
}

struct srec *spec_index_type_record(const struct spec_index *ix, const char *type)
{
    return follow_typedefs(ix, type, &ix->records, is_top_record);
}

struct senum *spec_index_type_enum(const struct spec_index *ix, const char *type)
{
    return follow_typedefs(ix, type, &ix->enums, is_enum);
}

int spec_version_index(const struct spec_index *ix, const char *name)
{
    return name ? ddi_version_find(&ix->where, name, strlen(name)) : -1;
}

/* Lowest (last: highest) version index of a set, -1 when empty or unparsable. */
static int set_bound(const struct spec_index *ix, const char *set, int last)
{
    ddi_vset v;
    if (ddi_vset_parse(&ix->where, set, &v, NULL) != 0 || !v)
        return -1;
    return last ? 63 - __builtin_clzll(v) : __builtin_ctzll(v);
}

int spec_versions_first(const struct spec_index *ix, const char *set)
{
    return set_bound(ix, set, 0);
}

int spec_versions_last(const struct spec_index *ix, const char *set)
{
    return set_bound(ix, set, 1);
}

int spec_versions_overlap(const struct spec_index *ix, const char *a, const char *b)
{
    return (ddi_vset_of(&ix->where, a) & ddi_vset_of(&ix->where, b)) != 0;
}

int spec_version_wddm10(const char *s)
{
    if (!s)
        return -1;
    if (!strncmp(s, "DXGKDDI_INTERFACE_VERSION_", 26))
        s += 26;
    if (!strncmp(s, "VISTA", 5))
        return 10;
    if (!strcmp(s, "WIN7"))
        return 11;
    if (!strcmp(s, "WIN8"))
        return 12;
    unsigned major, minor;
    if (sscanf(s, "WDDM%u_%u", &major, &minor) == 2)
        return (int)(major * 10 + minor);
    return -1;
}
