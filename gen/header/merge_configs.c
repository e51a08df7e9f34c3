/* Merging configurations: one entry per distinct fact, with the set of
 * configurations it holds in, so a field present in every version is said
 * once and a field renamed by version shows as two alternatives. */
#include "merge_configs.h"

#include "../util/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* All lookups go through one map keyed by "kind\x1fscope\x1fkey". */
static void *lookup(struct ddi_layout *l, const char *kind, const char *scope, const char *key,
                    const char **stored_key)
{
    char *k = arena_concat(&l->merge_arena, kind, "\x1f", scope, "\x1f", key, NULL);
    *stored_key = k;
    return strmap_get(&l->merge_index, k);
}

static void mark(struct ddi_where *w, enum ddi_arch arch, unsigned version)
{
    w->versions[arch] |= 1ull << version;
}

static const char *copy(struct ddi_layout *l, const char *s)
{
    return arena_strdup(&l->arena, s);
}

static void merge_record(struct ddi_layout *l, struct ddi_record *dr, const struct cfg_record *r,
                         enum ddi_arch arch, unsigned version);

static struct ddi_record *new_record(struct ddi_layout *l, const struct cfg_record *r)
{
    struct ddi_record *dr = arena_alloc(&l->arena, sizeof *dr);
    dr->name = copy(l, r->name);
    dr->tag = copy(l, r->tag);
    dr->kind = r->kind;
    dr->cxx_type = copy(l, r->cxx_type);
    dr->file = copy(l, r->file);
    dr->line = r->line;
    dr->anonymous = r->anonymous;
    dr->referenced = r->referenced;
    return dr;
}

static struct ddi_field *new_field(struct ddi_layout *l, const struct cfg_field *f)
{
    struct ddi_field *df = arena_alloc(&l->arena, sizeof *df);
    df->name = copy(l, f->name);
    df->path = copy(l, f->path);
    df->type = copy(l, f->type);
    df->sal = copy(l, f->sal);
    df->comment_dir = copy(l, f->comment_dir);
    df->spelled = copy(l, f->spelled);
    df->array = copy(l, f->array);
    df->bit_width = f->bit_width;
    df->line = f->line;
    if (f->nested)
        df->nested = new_record(l, f->nested);
    return df;
}

static void insert_at(struct vec *v, size_t at, void *item)
{
    vec_push(v, item);
    memmove(&v->items[at + 1], &v->items[at], (v->len - 1 - at) * sizeof(void *));
    v->items[at] = item;
}

static size_t index_of(const struct vec *v, const void *item)
{
    for (size_t i = 0; i < v->len; i++)
        if (v->items[i] == item)
            return i;
    return v->len;
}

/* A field's identity: its path (or the anonymous member's record name),
 * type and bit width. A changed type makes a second, alternative field. */
static const char *field_key(struct arena *a, const struct cfg_field *f)
{
    char bits[16];
    snprintf(bits, sizeof bits, "%d", f->bit_width);
    return arena_concat(a, f->nested ? f->nested->name : f->path, "\x1f", f->type, "\x1f", bits, "\x1f",
                        f->array ? f->array : "", NULL);
}

static void merge_fields(struct ddi_layout *l, struct ddi_record *dr, const struct cfg_record *r,
                         enum ddi_arch arch, unsigned version)
{
    size_t insert_pos = 0;
    for (size_t i = 0; i < r->fields.len; i++) {
        const struct cfg_field *f = r->fields.items[i];
        const char *key;
        struct ddi_field *df = lookup(l, "field", dr->name, field_key(&l->merge_arena, f), &key);
        if (!df) {
            df = new_field(l, f);
            strmap_put(&l->merge_index, key, df);
            insert_at(&dr->fields, insert_pos, df);
        }
        /* Usually the field is where the previous one left off. */
        insert_pos = insert_pos < dr->fields.len && dr->fields.items[insert_pos] == df
                         ? insert_pos + 1
                         : index_of(&dr->fields, df) + 1;
        mark(&df->where, arch, version);
        if (!df->canonical[arch])
            df->canonical[arch] = copy(l, f->canonical);
        ddi_values_add(&l->arena, &df->offsets, arch, version, f->offset_bits, 0);
        ddi_values_add(&l->arena, &df->type_facts, arch, version, f->facts.bytes, f->facts.scalar);
        if (f->nested)
            merge_record(l, df->nested, f->nested, arch, version);
    }
}

static void merge_record(struct ddi_layout *l, struct ddi_record *dr, const struct cfg_record *r,
                         enum ddi_arch arch, unsigned version)
{
    mark(&dr->where, arch, version);
    ddi_values_add(&l->arena, &dr->sizes, arch, version, r->size, r->align);
    merge_fields(l, dr, r, arch, version);
}

static void merge_records(struct ddi_layout *l, enum ddi_arch arch, unsigned version, const struct cfg_model *m)
{
    for (size_t i = 0; i < m->records.len; i++) {
        const struct cfg_record *r = m->records.items[i];
        const char *key;
        struct ddi_record *dr = lookup(l, "record", "", r->name, &key);
        if (!dr) {
            dr = new_record(l, r);
            strmap_put(&l->merge_index, key, dr);
            vec_push(&l->records, dr);
        }
        merge_record(l, dr, r, arch, version);
    }
}

static void merge_enums(struct ddi_layout *l, enum ddi_arch arch, unsigned version, const struct cfg_model *m)
{
    for (size_t i = 0; i < m->enums.len; i++) {
        const struct cfg_enum *e = m->enums.items[i];
        const char *key;
        struct ddi_enum *de = lookup(l, "enum", "", e->name, &key);
        if (!de) {
            de = arena_alloc(&l->arena, sizeof *de);
            de->name = copy(l, e->name);
            de->tag = copy(l, e->tag);
            de->file = copy(l, e->file);
            de->line = e->line;
            de->referenced = e->referenced;
            strmap_put(&l->merge_index, key, de);
            vec_push(&l->enums, de);
        }
        mark(&de->where, arch, version);
        size_t insert_pos = 0;
        for (size_t j = 0; j < e->values.len; j++) {
            const struct cfg_enumerator *v = e->values.items[j];
            char *vkey = arena_printf(&l->merge_arena, "%s=%lld", v->name, (long long)v->value);
            struct ddi_enumerator *dv = lookup(l, "enumerator", de->name, vkey, &key);
            if (!dv) {
                dv = arena_alloc(&l->arena, sizeof *dv);
                dv->name = copy(l, v->name);
                dv->value = v->value;
                strmap_put(&l->merge_index, key, dv);
                insert_at(&de->values, insert_pos, dv);
            }
            insert_pos = index_of(&de->values, dv) + 1;
            mark(&dv->where, arch, version);
        }
    }
}

static void merge_typedefs(struct ddi_layout *l, enum ddi_arch arch, unsigned version, const struct cfg_model *m)
{
    for (size_t i = 0; i < m->typedefs.len; i++) {
        const struct cfg_typedef *t = m->typedefs.items[i];
        const char *key;
        struct ddi_typedef *dt = lookup(l, "typedef", t->name, t->type, &key);
        if (!dt) {
            dt = arena_alloc(&l->arena, sizeof *dt);
            dt->name = copy(l, t->name);
            dt->type = copy(l, t->type);
            dt->file = copy(l, t->file);
            dt->line = t->line;
            strmap_put(&l->merge_index, key, dt);
            vec_push(&l->typedefs, dt);
        }
        mark(&dt->where, arch, version);
        if (!dt->canonical[arch])
            dt->canonical[arch] = copy(l, t->canonical);
        ddi_values_add(&l->arena, &dt->type_facts, arch, version, t->facts.bytes, t->facts.scalar);
    }
}

static const char *signature(struct ddi_layout *l, const struct cfg_functype *f)
{
    struct strbuf sb = {0};
    sb_printf(&sb, "%s|%s|%s|%s(", f->pointer_to ? f->pointer_to : "", f->pointer ? "*" : "",
              f->result ? f->result : "", f->sal ? f->sal : "");
    for (size_t i = 0; i < f->params.len; i++) {
        const struct cfg_param *p = f->params.items[i];
        sb_printf(&sb, "%s %s %s,", p->sal ? p->sal : "", p->type, p->name);
    }
    const char *s = arena_strdup(&l->merge_arena, sb_str(&sb));
    sb_free(&sb);
    return s;
}

static void merge_functypes(struct ddi_layout *l, enum ddi_arch arch, unsigned version, const struct cfg_model *m)
{
    for (size_t i = 0; i < m->functypes.len; i++) {
        const struct cfg_functype *f = m->functypes.items[i];
        const char *key;
        struct ddi_functype *df = lookup(l, "functype", f->name, signature(l, f), &key);
        if (!df) {
            df = arena_alloc(&l->arena, sizeof *df);
            df->name = copy(l, f->name);
            df->pointer_to = copy(l, f->pointer_to);
            df->pointer = f->pointer;
            df->result = copy(l, f->result);
            df->sal = copy(l, f->sal);
            df->file = copy(l, f->file);
            df->line = f->line;
            for (size_t j = 0; j < f->params.len; j++) {
                const struct cfg_param *p = f->params.items[j];
                struct ddi_param *dp = arena_alloc(&l->arena, sizeof *dp);
                dp->name = copy(l, p->name);
                dp->type = copy(l, p->type);
                dp->sal = copy(l, p->sal);
                vec_push(&df->params, dp);
            }
            strmap_put(&l->merge_index, key, df);
            vec_push(&l->functypes, df);
        }
        /* Only the x86 parse reports a convention; merge order makes it the first. */
        if (f->callconv && !df->callconv)
            df->callconv = copy(l, f->callconv);
        mark(&df->where, arch, version);
    }
}

void merge_config(struct ddi_layout *l, enum ddi_arch arch, unsigned version, const struct cfg_model *m)
{
    merge_records(l, arch, version, m);
    merge_enums(l, arch, version, m);
    merge_typedefs(l, arch, version, m);
    merge_functypes(l, arch, version, m);
}

static int by_record_name(const void *a, const void *b)
{
    return strcmp((*(struct ddi_record *const *)a)->name, (*(struct ddi_record *const *)b)->name);
}
static int by_enum_name(const void *a, const void *b)
{
    return strcmp((*(struct ddi_enum *const *)a)->name, (*(struct ddi_enum *const *)b)->name);
}
static int by_typedef_name(const void *a, const void *b)
{
    const struct ddi_typedef *x = *(struct ddi_typedef *const *)a, *y = *(struct ddi_typedef *const *)b;
    int c = strcmp(x->name, y->name);
    return c ? c : strcmp(x->type, y->type);
}
static int by_functype_name(const void *a, const void *b)
{
    const struct ddi_functype *x = *(struct ddi_functype *const *)a, *y = *(struct ddi_functype *const *)b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->line > y->line) - (x->line < y->line);
}

static void sort_vec(struct vec *v, int (*cmp)(const void *, const void *))
{
    if (v->len > 1)
        qsort(v->items, v->len, sizeof(void *), cmp);
}

void merge_finish(struct ddi_layout *l)
{
    sort_vec(&l->records, by_record_name);
    sort_vec(&l->enums, by_enum_name);
    sort_vec(&l->typedefs, by_typedef_name);
    sort_vec(&l->functypes, by_functype_name);
    strmap_free(&l->merge_index);
    arena_free(&l->merge_arena);
}
