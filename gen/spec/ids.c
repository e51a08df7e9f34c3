/* Stable IDs for records, fields, enums and enum values. A "book" indexes
 * the IDs of one spec by identity (record and enum by name, field by
 * top-level record + path + type + bit width, value by enum + name), live
 * items and retired ones alike; assignment looks every item of the new
 * spec up in the previous spec's book. */
#include "ids.h"

#include "../model/specxml.h"

#include "../util/diag.h"
#include "../util/strmap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum item_kind { K_RECORD, K_FIELD, K_ENUM, K_VALUE };
static const char *const kind_names[] = {"record", "field", "enum", "value"};

struct item {
    enum item_kind kind;
    const char *scope; /* top-level record of a field, enum of a value */
    const char *key;
    unsigned long id;  /* 0: none */
    xmlNodePtr node;   /* the element (live) or the <retired-ids> entry */
    int retired;
    int used;
    struct item *alternative; /* the same enum value listed again for other versions */
};

struct scope {
    struct strmap by_key, by_id;
    unsigned long max;
    struct vec items;
};

struct book {
    struct arena a;
    const char *name; /* file name for messages */
    int errors;
    struct scope records, enums;
    struct strmap fields, values; /* scope name -> struct scope* */
    struct vec scopes;            /* every field/value scope, to free */
};

static void scope_free(struct scope *s)
{
    strmap_free(&s->by_key);
    strmap_free(&s->by_id);
    vec_free(&s->items);
}

static void book_free(struct book *b)
{
    scope_free(&b->records);
    scope_free(&b->enums);
    for (size_t i = 0; i < b->scopes.len; i++)
        scope_free(b->scopes.items[i]);
    vec_free(&b->scopes);
    strmap_free(&b->fields);
    strmap_free(&b->values);
    arena_free(&b->a);
}

static struct scope *book_scope(struct book *b, enum item_kind kind, const char *scope, int create)
{
    if (kind == K_RECORD)
        return &b->records;
    if (kind == K_ENUM)
        return &b->enums;
    struct strmap *m = kind == K_FIELD ? &b->fields : &b->values;
    struct scope *s = strmap_get(m, scope);
    if (!s && create) {
        s = arena_alloc(&b->a, sizeof *s);
        strmap_put(m, arena_strdup(&b->a, scope), s);
        vec_push(&b->scopes, s);
    }
    return s;
}

static unsigned line_of(xmlNodePtr n)
{
    long l = n ? xmlGetLineNo(n) : 0;
    return l > 0 ? (unsigned)l : 0;
}

static const char *describe(struct arena *a, const struct item *it)
{
    if (it->kind == K_FIELD || it->kind == K_VALUE)
        return arena_printf(a, "%s %s of %s", kind_names[it->kind], it->key, it->scope);
    return arena_printf(a, "%s %s", kind_names[it->kind], it->key);
}

/* Parses a stable ID: decimal, >= 1. */
static unsigned long parse_id(const char *v)
{
    if (!v || !*v || *v == '0')
        return 0;
    char *end;
    unsigned long id = strtoul(v, &end, 10);
    return *end ? 0 : id;
}

/* An enumerator whose number differs by version is listed once per
 * number (`..._MAX = 8` / `7` / `6` in three #if branches): one name,
 * one enum value, one ID. */
static int is_value_alternative(const struct item *first, const struct item *again)
{
    return first->kind == K_VALUE && !first->retired && !again->retired;
}

static void add_alternative(struct book *b, struct item *first, struct item *again)
{
    if (again->id && first->id && again->id != first->id) {
        ddigen_error(b->name, line_of(again->node), "%s has id %lu here and id %lu on line %u; the values of one "
                     "name share one id", describe(&b->a, again), again->id, first->id, line_of(first->node));
        b->errors++;
        return;
    }
    struct item **tail = &first->alternative;
    while (*tail)
        tail = &(*tail)->alternative;
    *tail = again;
}

static void book_add(struct book *b, enum item_kind kind, const char *scope, const char *key, xmlNodePtr node,
                     int retired, int need_id)
{
    struct scope *s = book_scope(b, kind, scope, 1);
    struct item *it = arena_alloc(&b->a, sizeof *it);
    *it = (struct item){kind, scope ? arena_strdup(&b->a, scope) : NULL, arena_strdup(&b->a, key),
                        parse_id(sx_get(node, "id")), node, retired, 0, NULL};
    if (!it->id && need_id) {
        ddigen_error(b->name, line_of(node), "%s has no valid id (an integer >= 1); %s",
                     describe(&b->a, it),
                     sx_get(node, "id") ? "IDs are decimal integers from 1"
                                        : "a previous spec must be one written by `ddigen spec`");
        b->errors++;
        return;
    }
    struct item *dup = strmap_get(&s->by_key, it->key);
    if (dup && is_value_alternative(dup, it)) {
        add_alternative(b, dup, it);
        return;
    }
    if (dup) {
        ddigen_error(b->name, line_of(node), "%s is listed twice (also line %u)", describe(&b->a, it),
                     line_of(dup->node));
        b->errors++;
        return;
    }
    strmap_put(&s->by_key, it->key, it);
    vec_push(&s->items, it);
    if (!it->id)
        return;
    char *idkey = arena_printf(&b->a, "%lu", it->id);
    struct item *same = strmap_get(&s->by_id, idkey);
    if (same) {
        ddigen_error(b->name, line_of(node), "id %lu of %s is already the id of %s (line %u)%s", it->id,
                     describe(&b->a, it), describe(&b->a, same), line_of(same->node),
                     same->retired || it->retired ? "; a retired ID is never reused" : "");
        b->errors++;
        return;
    }
    strmap_put(&s->by_id, idkey, it);
    if (it->id > s->max)
        s->max = it->id;
}

const char *spec_field_key_of(struct arena *a, const char *path, const char *type, const char *bits, const char *nested,
                              unsigned occurrence)
{
    const char *key = nested && *nested ? arena_printf(a, "@%s", nested)
                                        : arena_printf(a, "%s|%s|%s", path ? path : "", type ? type : "",
                                                       bits ? bits : "-");
    return occurrence > 1 ? arena_printf(a, "%s#%u", key, occurrence) : key;
}

const char *spec_field_key(struct arena *a, xmlNodePtr field, unsigned occurrence)
{
    const char *name = sx_get(field, "name");
    const char *nested = NULL;
    if (name && !*name)
        nested = sx_get(sx_child(field, "record"), "name");
    return spec_field_key_of(a, sx_get(field, "path"), sx_get(field, "type"), sx_get(field, "bits"), nested,
                             occurrence);
}

/* Fields of one top-level record, depth first, in document order. */
struct field_walk {
    struct book *b;
    const char *top;
    struct strmap seen; /* key -> count (as a pointer-sized integer) */
    int need_id;
};

static void walk_record(struct field_walk *w, xmlNodePtr rec);

static void walk_field(struct field_walk *w, xmlNodePtr f)
{
    const char *base = spec_field_key(&w->b->a, f, 1);
    size_t count = (size_t)strmap_get(&w->seen, base) + 1;
    strmap_put(&w->seen, base, (void *)count);
    book_add(w->b, K_FIELD, w->top, spec_field_key(&w->b->a, f, (unsigned)count), f, 0, w->need_id);
    xmlNodePtr nested = sx_child(f, "record");
    if (nested)
        walk_record(w, nested);
}

static void walk_record(struct field_walk *w, xmlNodePtr rec)
{
    book_add(w->b, K_RECORD, NULL, sx_get(rec, "name"), rec, 0, w->need_id);
    for (xmlNodePtr f = sx_child(rec, "field"); f; f = sx_next(f, "field"))
        walk_field(w, f);
}

static void book_read_layout(struct book *b, xmlNodePtr layout, int need_id)
{
    for (xmlNodePtr r = sx_child(layout, "record"); r; r = sx_next(r, "record")) {
        struct field_walk w = {b, sx_get(r, "name"), {0}, need_id};
        walk_record(&w, r);
        strmap_free(&w.seen);
    }
    for (xmlNodePtr e = sx_child(layout, "enum"); e; e = sx_next(e, "enum")) {
        const char *name = sx_get(e, "name");
        book_add(b, K_ENUM, NULL, name, e, 0, need_id);
        for (xmlNodePtr v = sx_child(e, "value"); v; v = sx_next(v, "value"))
            book_add(b, K_VALUE, name, sx_get(v, "name"), v, 0, need_id);
    }
}

static void book_read_retired(struct book *b, xmlNodePtr retired)
{
    for (xmlNodePtr n = sx_child(retired, NULL); n; n = sx_next(n, NULL)) {
        if (sx_is(n, "record"))
            book_add(b, K_RECORD, NULL, sx_get(n, "name"), n, 1, 1);
        else if (sx_is(n, "enum"))
            book_add(b, K_ENUM, NULL, sx_get(n, "name"), n, 1, 1);
        else if (sx_is(n, "value"))
            book_add(b, K_VALUE, sx_get(n, "enum"), sx_get(n, "name"), n, 1, 1);
        else if (sx_is(n, "field"))
            book_add(b, K_FIELD, sx_get(n, "record"),
                     spec_field_key_of(&b->a, sx_get(n, "path"), sx_get(n, "type"), sx_get(n, "bits"),
                                       sx_get(n, "nested"), (unsigned)sx_get_ulong(n, "occurrence", 1)),
                     n, 1, 1);
    }
}

static int book_read(struct book *b, xmlDocPtr doc, const char *name, int need_id)
{
    b->name = name;
    xmlNodePtr layout = sx_part(doc, "layout");
    if (layout)
        book_read_layout(b, layout, need_id);
    xmlNodePtr retired = sx_part(doc, "retired-ids");
    if (retired)
        book_read_retired(b, retired);
    return b->errors ? -1 : 0;
}

/* --- assignment --- */

static void set_id(xmlNodePtr n, unsigned long id)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%lu", id);
    sx_set_after(n, "id", buf, "name");
}

static void assign_scope(struct book *prev, struct scope *now, enum item_kind kind, const char *scope_name,
                         struct spec_ids_stats *st)
{
    struct scope *old = prev ? book_scope(prev, kind, scope_name, 0) : NULL;
    unsigned long next = old ? old->max : 0;
    for (size_t i = 0; i < now->items.len; i++) {
        struct item *it = now->items.items[i];
        struct item *was = old ? strmap_get(&old->by_key, it->key) : NULL;
        if (was) {
            was->used = 1;
            it->id = was->id;
            st->kept++;
        } else {
            it->id = ++next;
            st->added++;
        }
        for (struct item *n = it; n; n = n->alternative)
            set_id(n->node, it->id);
    }
}

/* The attributes that identify a retired item (its key can be rebuilt). */
static void write_retired_item(xmlNodePtr parent, const struct item *it)
{
    xmlNodePtr n = sx_add(parent, kind_names[it->kind]);
    xmlNodePtr src = it->node;
    int from_entry = it->retired;
    if (it->kind == K_FIELD)
        sx_set(n, "record", it->scope);
    if (it->kind == K_VALUE)
        sx_set(n, "enum", it->scope);
    sx_set_ulong(n, "id", it->id);
    if (it->kind != K_FIELD) {
        sx_set(n, "name", sx_get(src, "name"));
        return;
    }
    const char *nested = from_entry ? sx_get(src, "nested")
                                    : (sx_get(src, "name") && !*sx_get(src, "name")
                                           ? sx_get(sx_child(src, "record"), "name")
                                           : NULL);
    sx_set(n, "path", sx_get(src, "path"));
    sx_set(n, "type", sx_get(src, "type"));
    sx_set(n, "bits", sx_get(src, "bits"));
    sx_set(n, "nested", nested);
    const char *hash = strrchr(it->key, '#');
    if (hash && strspn(hash + 1, "0123456789") == strlen(hash + 1) && hash[1])
        sx_set(n, "occurrence", hash + 1);
}

static int by_scope_then_id(const void *x, const void *y)
{
    const struct item *a = *(const struct item *const *)x, *b = *(const struct item *const *)y;
    if (a->kind != b->kind)
        return (int)a->kind - (int)b->kind;
    int c = strcmp(a->scope ? a->scope : "", b->scope ? b->scope : "");
    if (c)
        return c;
    return a->id < b->id ? -1 : a->id > b->id;
}

static void collect_unused(struct scope *s, struct vec *out)
{
    for (size_t i = 0; i < s->items.len; i++) {
        struct item *it = s->items.items[i];
        if (!it->used && it->id)
            vec_push(out, it);
    }
}

static void write_retired(xmlDocPtr spec, struct book *prev, struct spec_ids_stats *st)
{
    xmlNodePtr root = xmlDocGetRootElement(spec);
    xmlNodePtr old = sx_child(root, "retired-ids");
    if (old) {
        xmlUnlinkNode(old);
        xmlFreeNode(old);
    }
    if (!prev)
        return;
    struct vec all = {0};
    collect_unused(&prev->records, &all);
    for (size_t i = 0; i < prev->scopes.len; i++) {
        struct scope *s = prev->scopes.items[i];
        struct item *first = s->items.len ? s->items.items[0] : NULL;
        if (first && first->kind == K_FIELD)
            collect_unused(s, &all);
    }
    collect_unused(&prev->enums, &all);
    for (size_t i = 0; i < prev->scopes.len; i++) {
        struct scope *s = prev->scopes.items[i];
        struct item *first = s->items.len ? s->items.items[0] : NULL;
        if (first && first->kind == K_VALUE)
            collect_unused(s, &all);
    }
    if (all.len) {
        qsort(all.items, all.len, sizeof *all.items, by_scope_then_id);
        xmlNodePtr r = xmlNewNode(NULL, BAD_CAST "retired-ids");
        static const char *const before[] = {"layout", "docs", NULL};
        sx_insert_part(root, r, before);
        for (size_t i = 0; i < all.len; i++)
            write_retired_item(r, all.items[i]);
        st->retired = (unsigned)all.len;
    }
    vec_free(&all);
}

int spec_assign_ids(xmlDocPtr spec, xmlDocPtr prev, const char *prev_name, struct spec_ids_stats *st)
{
    struct spec_ids_stats local = {0};
    if (!st)
        st = &local;
    *st = (struct spec_ids_stats){0};
    struct book old = {0}, now = {0};
    int rc = 0;
    if (prev && book_read(&old, prev, prev_name, 1) != 0) {
        rc = -1;
        goto done;
    }
    now.name = "new spec";
    xmlNodePtr layout = sx_part(spec, "layout");
    if (layout)
        book_read_layout(&now, layout, 0);
    if (now.errors) {
        rc = -1; /* an item listed twice: no ID can be given to it */
        goto done;
    }
    struct book *p = prev ? &old : NULL;
    assign_scope(p, &now.records, K_RECORD, NULL, st);
    assign_scope(p, &now.enums, K_ENUM, NULL, st);
    for (size_t i = 0; i < now.scopes.len; i++) {
        struct scope *s = now.scopes.items[i];
        struct item *first = s->items.len ? s->items.items[0] : NULL;
        if (first)
            assign_scope(p, s, first->kind, first->scope, st);
    }
    write_retired(spec, p, st);
done:
    book_free(&old);
    book_free(&now);
    return rc;
}

int spec_check_ids(xmlDocPtr doc, const char *name)
{
    struct book b = {0};
    int rc = book_read(&b, doc, name, 1);
    book_free(&b);
    return rc;
}

static unsigned compare_scope(struct book *ob, struct scope *os, struct book *nb, enum item_kind kind,
                              const char *scope_name, const char *new_name)
{
    struct scope *ns = book_scope(nb, kind, scope_name, 0);
    unsigned errors = 0;
    for (size_t i = 0; i < os->items.len; i++) {
        struct item *o = os->items.items[i];
        struct item *n = ns ? strmap_get(&ns->by_key, o->key) : NULL;
        if (!n) {
            ddigen_error(new_name, 0, "%s (id %lu in %s) is neither in the spec nor in <retired-ids>",
                         describe(&nb->a, o), o->id, ob->name);
            errors++;
        } else if (n->id != o->id) {
            ddigen_error(new_name, line_of(n->node), "%s was renumbered: id %lu, but %s:%u gives it id %lu "
                         "(stable IDs never change)", describe(&nb->a, n), n->id, ob->name, line_of(o->node),
                         o->id);
            errors++;
        }
    }
    if (!ns)
        return errors;
    for (size_t i = 0; i < ns->items.len; i++) {
        struct item *n = ns->items.items[i];
        if (strmap_get(&os->by_key, n->key))
            continue;
        char idkey[32];
        snprintf(idkey, sizeof idkey, "%lu", n->id);
        struct item *o = strmap_get(&os->by_id, idkey);
        if (o) {
            ddigen_error(new_name, line_of(n->node), "%s reuses id %lu, which %s:%u gave to %s", describe(&nb->a, n),
                         n->id, ob->name, line_of(o->node), describe(&nb->a, o));
            errors++;
        }
    }
    return errors;
}

unsigned spec_check_kept_ids(xmlDocPtr old_doc, const char *old_name, xmlDocPtr new_doc, const char *new_name)
{
    struct book ob = {0}, nb = {0};
    unsigned errors = 0;
    if (book_read(&ob, old_doc, old_name, 1) != 0)
        errors++;
    if (book_read(&nb, new_doc, new_name, 1) != 0)
        errors++;
    if (!errors) {
        errors += compare_scope(&ob, &ob.records, &nb, K_RECORD, NULL, new_name);
        errors += compare_scope(&ob, &ob.enums, &nb, K_ENUM, NULL, new_name);
        for (size_t i = 0; i < ob.scopes.len; i++) {
            struct scope *s = ob.scopes.items[i];
            struct item *first = s->items.len ? s->items.items[0] : NULL;
            if (first)
                errors += compare_scope(&ob, s, &nb, first->kind, first->scope, new_name);
        }
    }
    book_free(&ob);
    book_free(&nb);
    return errors;
}
