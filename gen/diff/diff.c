/* Spec diff. Each spec is flattened into items keyed by identity (record
 * name; field by the identity stable IDs use; enum value by enum and
 * name; rule by rule ID), matched through hash
 * maps, so the whole diff is linear in the size of the two specs. Layout
 * values are compared only in the DDI versions both specs know, so a
 * change that is gated to a new version is an addition, not a break. */
#include "diff.h"
#include "reach.h"

#include "../model/specxml.h"
#include "../util/json.h"

#include "../model/model.h"
#include "../spec/ids.h"
#include "../spec/schema.h"
#include "../util/arena.h"
#include "../emit/skeleton_opts.h"
#include "../util/cli.h"
#include "../util/diag.h"
#include "../util/output.h"
#include "../util/strbuf.h"
#include "../util/strmap.h"

#include <getopt.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define MAX_VERSIONS DDI_VSET_MAX
#define NARCH 3
#define MAX_DEPTH 32

enum item_kind { IK_VERSION, IK_RECORD, IK_FIELD, IK_ENUM, IK_VALUE, IK_OPERATION, IK_TYPEDEF, IK_FUNCTYPE, IK_RULE };
static const char *const kind_names[] = {"version",   "record",  "field",         "enum", "enum value",
                                         "operation", "typedef", "function type", "rule"};
static const char *const arch_names[NARCH] = {"x86", "x64", "arm64"};

/* The enum whose values are the paging operations. */
#define OPERATION_ENUM "DXGK_BUILDPAGINGBUFFER_OPERATION"

enum change_class { CLS_COMPATIBLE, CLS_SOURCE, CLS_ABI };
static const char *const class_names[] = {"compatible", "source-breaking", "ABI-breaking"};

struct item {
    enum item_kind kind;
    const char *key;      /* identity within the spec */
    const char *label;    /* for people */
    const char *sig;      /* compared to find "changed" */
    const char *versions; /* as written, NULL = every version */
    const char *slot;     /* fields: record and name, to pair a retyped field */
    uint64_t present[NARCH];
    const struct ddi_model_record *record; /* records: the model's */
    const struct ddi_model_field *field;   /* fields: the model's */
    int matched;
    struct item *alternative; /* enum values: the same name listed again for other versions */
};

struct side {
    const char *name;
    const struct ddi_model *m;
    struct ddi_model *owned; /* m when loaded here, else NULL (the caller's) */
    const struct diff_reach *reach; /* what the report covers */
    struct arena a;
    struct ddi_versions where;    /* versions and archs (names in the spec document) */
    int fixed_arch[DDI_ARCH_MAX]; /* index in arch_names of the spec's i-th <arch> */
    unsigned arch_mask;
    int common_of[MAX_VERSIONS];  /* index in the common version list, or -1 */
    struct vec items;
    struct strmap by_key;
    struct strmap occurrences; /* field identity -> how many so far */
};

struct change {
    enum item_kind kind;
    const char *what;  /* added, removed, changed, ... */
    const char *label;
    const char *detail;
    enum change_class cls;
};

struct diff {
    struct side old, new;
    struct diff_reach reach;
    struct ddi_versions common; /* the versions both specs have (names in old's arena) */
    struct vec changes;
    struct arena a;
    int errors;
};

/* --- reading a spec ------------------------------------------------------ */

/* An element of the spec: where it exists, and its versions= as written. */
struct where {
    const char *versions_attr;
    ddi_vset versions;
    ddi_archset archs;
};

static struct where every_where(const struct side *s)
{
    return (struct where){NULL, ddi_vset_all(&s->where), ddi_archset_all(&s->where)};
}

static int version_index(const struct side *s, const char *name, size_t len)
{
    return ddi_version_find(&s->where, name, len);
}

/* A set of the spec's architectures -> bit mask over arch_names. */
static unsigned arch_mask_of(const struct side *s, ddi_archset set)
{
    unsigned m = 0;
    for (unsigned i = 0; i < s->where.narchs; i++)
        if (set >> i & 1 && s->fixed_arch[i] >= 0)
            m |= 1u << s->fixed_arch[i];
    return m;
}

static struct item *add_item(struct side *s, enum item_kind kind, const char *key, const char *label, struct where w)
{
    struct item *it = arena_alloc(&s->a, sizeof *it);
    it->kind = kind;
    it->key = key;
    it->label = label;
    it->versions = w.versions_attr;
    unsigned am = arch_mask_of(s, w.archs);
    for (int a = 0; a < NARCH; a++)
        it->present[a] = (am >> a) & 1 ? w.versions : 0;
    if (strmap_get(&s->by_key, key)) /* identical twins: keep the first */
        return it;
    strmap_put(&s->by_key, key, it);
    vec_push(&s->items, it);
    return it;
}

static void read_record(struct side *s, const struct ddi_model_record *rec, int depth);

/* A field's identity is the one stable IDs use (spec_field_key: path,
 * type, bit width, and the nth field with those in its top-level record),
 * so the diff and the ID check agree on what "the same field" is. */
static const char *field_key(struct side *s, const struct ddi_model_field *f, unsigned occurrence)
{
    char bits[16];
    snprintf(bits, sizeof bits, "%d", f->bits);
    const char *nested = f->name && !*f->name && f->nested ? f->nested->name : NULL;
    return spec_field_key_of(&s->a, f->path, f->type, f->bitfield ? bits : NULL, nested, occurrence);
}

static void read_field(struct side *s, const char *record, const struct ddi_model_field *f, int depth)
{
    struct arena *a = &s->a;
    const char *name = f->name;
    const char *nested_name = f->nested ? f->nested->name : NULL;
    const char *who = name[0] ? name : nested_name ? nested_name : "?";
    const char *top = f->owner->top->name;
    const char *base = arena_concat(a, top, "\x1f", field_key(s, f, 1), NULL);
    size_t count = (size_t)strmap_get(&s->occurrences, base) + 1;
    strmap_put(&s->occurrences, base, (void *)count);
    const char *key = arena_concat(a, "field\x1f", top, "\x1f", field_key(s, f, (unsigned)count), NULL);
    /* People know a field by its designator from the top-level record. */
    const char *label = name[0] ? arena_concat(a, top, ".", f->path, NULL) : who;
    struct item *it = add_item(s, IK_FIELD, key, label, (struct where){f->versions_attr, f->versions, f->archs});
    it->field = f;
    it->slot = arena_concat(a, record, "\x1f", who, NULL);
    it->sig = arena_concat(a, "array=", f->array ? f->array : "", " sal=", f->sal ? f->sal : "",
                           " canonical=", f->canonical ? f->canonical : "", NULL);
    if (f->nested && depth < MAX_DEPTH)
        read_record(s, f->nested, depth + 1);
}

static void read_record(struct side *s, const struct ddi_model_record *rec, int depth)
{
    const char *name = rec->name;
    struct item *it = add_item(s, IK_RECORD, arena_concat(&s->a, "record\x1f", name, NULL), name,
                               (struct where){rec->versions_attr, rec->versions, rec->archs});
    it->record = rec;
    it->sig = rec->kind;
    for (size_t i = 0; i < rec->nfields; i++)
        read_field(s, name, rec->fields[i], depth);
}

/* `X_MAX = 6` in one #if branch, `= 5` in another: one value whose number
 * depends on the version, compared version by version. */
static void add_value_alternative(struct item *first, struct item *again)
{
    struct item **tail = &first->alternative;
    while (*tail)
        tail = &(*tail)->alternative;
    *tail = again;
    for (int a = 0; a < NARCH; a++)
        first->present[a] |= again->present[a];
}

static void read_enum(struct side *s, const struct ddi_model_enum *e)
{
    const char *name = e->name;
    struct item *it = add_item(s, IK_ENUM, arena_concat(&s->a, "enum\x1f", name, NULL), name,
                               (struct where){e->versions_attr, e->versions, e->archs});
    it->sig = "";
    int operations = !strcmp(name, OPERATION_ENUM);
    for (size_t i = 0; i < e->nvalues; i++) {
        const struct ddi_model_value *c = &e->values[i];
        const char *key = arena_concat(&s->a, "value\x1f", name, "\x1f", c->name, NULL);
        struct item *first = strmap_get(&s->by_key, key);
        struct item *v =
            add_item(s, operations ? IK_OPERATION : IK_VALUE, key, arena_concat(&s->a, name, "::", c->name, NULL),
                     (struct where){c->versions_attr, c->versions, c->archs});
        v->sig = arena_printf(&s->a, "%lld", c->value);
        if (first && first != v)
            add_value_alternative(first, v);
    }
}

/* Typedefs and function types: the nth declaration of a name (a name is
 * declared twice when versions give it two shapes). */
static const char *nth_key(struct side *s, const char *kind, const char *name)
{
    const char *key = arena_concat(&s->a, kind, "\x1f", name, NULL);
    for (int n = 2; strmap_get(&s->by_key, key); n++) {
        char suffix[16];
        snprintf(suffix, sizeof suffix, "#%d", n);
        key = arena_concat(&s->a, kind, "\x1f", name, suffix, NULL);
    }
    return key;
}

static void read_typedef(struct side *s, const struct ddi_model_typedef *t)
{
    struct item *it = add_item(s, IK_TYPEDEF, nth_key(s, "typedef", t->name), t->name,
                               (struct where){t->versions_attr, t->versions, t->archs});
    it->sig = t->type;
}

static void read_functype(struct side *s, const struct ddi_model_functype *f)
{
    struct strbuf sb = {0};
    const char *to = f->pointer_to, *result = f->result, *sal = f->sal;
    sb_printf(&sb, "%s%s%s %s(", to ? "-> " : "", to ? to : "", result ? result : "", sal ? sal : "");
    for (size_t i = 0; i < f->nparams; i++) {
        const struct ddi_model_param *p = &f->params[i];
        sb_printf(&sb, "%s%s%s%s %s", i ? ", " : "", p->sal ? p->sal : "", p->sal ? " " : "", p->type, p->name);
    }
    sb_append(&sb, ")");
    struct item *it = add_item(s, IK_FUNCTYPE, nth_key(s, "functype", f->name), f->name,
                               (struct where){f->versions_attr, f->versions, f->archs});
    it->sig = arena_strdup(&s->a, sb_str(&sb));
    sb_free(&sb);
}

static void read_rule(struct side *s, const struct ddi_model_docs_rule *r)
{
    struct strbuf sb = {0};
    sb_append(&sb, r->kind);
    for (size_t i = 0; i < r->noperands; i++)
        if (strcmp(r->operands[i].name, "from") != 0) /* where on the page it was read: not a change */
            sb_printf(&sb, " %s=%s", r->operands[i].name, r->operands[i].value);
    if (r->sentence)
        sb_printf(&sb, " \"%s\"", r->sentence);
    struct item *it = add_item(s, IK_RULE, nth_key(s, "rule", r->id), r->id, every_where(s));
    it->sig = arena_strdup(&s->a, sb_str(&sb));
    sb_free(&sb);
}

static void read_side(struct side *s, const struct ddi_model *m)
{
    s->where = m->where;
    for (unsigned i = 0; i < s->where.narchs; i++) {
        s->fixed_arch[i] = -1;
        for (int a = 0; a < NARCH; a++)
            if (s->where.arch[i] && !strcmp(s->where.arch[i], arch_names[a])) {
                s->fixed_arch[i] = a;
                s->arch_mask |= 1u << a;
            }
    }
    for (unsigned i = 0; i < s->where.n; i++) {
        const char *short_name = s->where.short_name[i];
        struct item *it =
            add_item(s, IK_VERSION, arena_concat(&s->a, "version\x1f", short_name, NULL), short_name, every_where(s));
        it->sig = s->where.value[i];
    }
    /* Only what the report covers (reach.h), the same on both sides. */
    for (size_t i = 0; i < m->nrecords; i++)
        if (diff_reach_record(s->reach, m->records[i]))
            read_record(s, m->records[i], 0);
    for (size_t i = 0; i < m->nenums; i++)
        if (diff_reach_enum(s->reach, &m->enums[i]))
            read_enum(s, &m->enums[i]);
    for (size_t i = 0; i < m->ntypedefs; i++)
        if (diff_reach_type(s->reach, m->typedefs[i].name))
            read_typedef(s, &m->typedefs[i]);
    for (size_t i = 0; i < m->nfunctypes; i++)
        if (diff_reach_type(s->reach, m->functypes[i].name))
            read_functype(s, &m->functypes[i]);
    for (size_t i = 0; i < m->ndocs_rules; i++)
        if (diff_reach_rule(s->reach, m->docs_rules[i].id))
            read_rule(s, &m->docs_rules[i]);
}

/* --- comparing --------------------------------------------------------- */

static void note(struct diff *d, enum item_kind kind, const char *what, const char *label, const char *detail,
                 enum change_class cls)
{
    struct change *c = arena_alloc(&d->a, sizeof *c);
    *c = (struct change){kind, what, label, detail, cls};
    vec_push(&d->changes, c);
}

static void find_common_versions(struct diff *d)
{
    const struct ddi_versions *old = &d->old.where, *new = &d->new.where;
    for (unsigned i = 0; i < old->n; i++) {
        d->old.common_of[i] = -1;
        int j = version_index(&d->new, old->short_name[i], strlen(old->short_name[i]));
        if (j >= 0 && d->common.n < MAX_VERSIONS) {
            d->old.common_of[i] = (int)d->common.n;
            d->common.name[d->common.n] = old->name[i];
            d->common.short_name[d->common.n++] = old->short_name[i];
        }
    }
    for (unsigned j = 0; j < new->n; j++) {
        d->new.common_of[j] = -1;
        for (unsigned k = 0; k < d->common.n; k++)
            if (!strcmp(d->common.short_name[k], new->short_name[j]))
                d->new.common_of[j] = (int)k;
    }
}

static uint64_t to_common(const struct side *s, uint64_t mask)
{
    uint64_t out = 0;
    for (unsigned i = 0; i < s->where.n; i++)
        if ((mask >> i) & 1 && s->common_of[i] >= 0)
            out |= 1ull << s->common_of[i];
    return out;
}

static const char *common_text(struct diff *d, uint64_t mask)
{
    struct strbuf sb = {0};
    ddi_vset_ranges(&d->common, mask, &sb);
    const char *out = arena_strdup(&d->a, sb.len ? sb.data : "none");
    sb_free(&sb);
    return out;
}

/* Values of an item (size+align of a record, bit offset of a field) per
 * architecture and common version. */
struct values {
    const char *at[NARCH][MAX_VERSIONS];
};

static void read_values(struct diff *d, const struct side *s, const struct item *it, struct values *v)
{
    memset(v, 0, sizeof *v);
    for (unsigned arch = 0; arch < s->where.narchs; arch++) {
        int a = s->fixed_arch[arch];
        const struct ddi_model_measures *ms =
            it->kind == IK_RECORD ? &it->record->sizes[arch] : &it->field->offsets[arch];
        for (size_t k = 0; a >= 0 && k < ms->len; k++) {
            const struct ddi_model_measure *c = &ms->items[k];
            const char *value = it->kind == IK_RECORD ? arena_printf(&d->a, "size %ld align %ld", c->value, c->align)
                                                      : arena_printf(&d->a, "bit offset %ld", c->value);
            uint64_t m = to_common(s, c->versions);
            for (unsigned i = 0; i < d->common.n; i++)
                if ((m >> i) & 1)
                    v->at[a][i] = value;
        }
    }
}

/* The number of an enum value per common version, through every
 * alternative (kept in the first architecture's slot: enumerators do not
 * differ by architecture). */
static void read_enum_values(struct diff *d, const struct side *s, const struct item *it, struct values *v)
{
    memset(v, 0, sizeof *v);
    for (const struct item *alt = it; alt; alt = alt->alternative)
        for (int a = 0; a < NARCH; a++) {
            uint64_t m = to_common(s, alt->present[a]);
            for (unsigned i = 0; i < d->common.n; i++)
                if ((m >> i) & 1)
                    v->at[0][i] = alt->sig;
        }
}

/* Same bytes (or the same number) in the versions both specs know, or an
 * ABI break per arch. */
static void compare_values(struct diff *d, const struct item *o, const struct item *n)
{
    struct values *ov = malloc(sizeof *ov), *nv = malloc(sizeof *nv);
    int enum_value = n->kind == IK_VALUE || n->kind == IK_OPERATION;
    (enum_value ? read_enum_values : read_values)(d, &d->old, o, ov);
    (enum_value ? read_enum_values : read_values)(d, &d->new, n, nv);
    for (int a = 0; a < (enum_value ? 1 : NARCH); a++) {
        uint64_t done = 0;
        for (unsigned i = 0; i < d->common.n; i++) {
            const char *x = ov->at[a][i], *y = nv->at[a][i];
            if (!x || !y || !strcmp(x, y) || (done >> i) & 1)
                continue;
            uint64_t same = 0; /* every version with this same before/after */
            for (unsigned j = i; j < d->common.n; j++)
                if (ov->at[a][j] && nv->at[a][j] && !strcmp(ov->at[a][j], x) && !strcmp(nv->at[a][j], y))
                    same |= 1ull << j;
            done |= same;
            note(d, n->kind, enum_value ? "changed" : "layout changed", n->label,
                 arena_concat(&d->a, enum_value ? "" : arch_names[a], enum_value ? "" : ": ", x, " -> ", y, " in ",
                              common_text(d, same), NULL),
                 CLS_ABI);
        }
    }
    free(ov);
    free(nv);
}

static int is_reserved(const struct ddi_model_field *f)
{
    return f && f->bitfield && f->name && !strncasecmp(f->name, "Reserved", 8);
}

/* Reserved bits given names: a reserved bit-field of OLD (Reserved : 30)
 * whose bits NEW's same record covers exactly with bit-fields NEW added (a
 * named bit and a narrower Reserved : 29). The storage unit and the total
 * of bits are kept, so nothing moves, and code that leaves reserved bits
 * alone (as it must) is unaffected. The names given, or NULL. */
static const char *reserved_carved(struct diff *d, const struct item *o)
{
    const struct ddi_model_field *f = o->field;
    long from = is_reserved(f) ? ddi_model_first_offset(f) : -1, covered = 0;
    if (from < 0)
        return NULL;
    struct strbuf names = {0};
    for (size_t i = 0; i < d->new.items.len; i++) {
        const struct item *n = d->new.items.items[i];
        const struct ddi_model_field *g = n->kind == IK_FIELD ? n->field : NULL;
        long at = g && g->bitfield ? ddi_model_first_offset(g) : -1;
        if (at < from || at + g->bits > from + f->bits || strcmp(g->owner->top->name, f->owner->top->name) != 0 ||
            strmap_get(&d->old.by_key, n->key))
            continue;
        covered += g->bits;
        if (!is_reserved(g))
            sb_printf(&names, "%s%s", names.len ? ", " : "", g->path);
    }
    const char *out = covered == f->bits && names.len ? arena_strdup(&d->a, sb_str(&names)) : NULL;
    sb_free(&names);
    return out;
}

static void compare_where(struct diff *d, const struct item *o, const struct item *n)
{
    uint64_t was = 0, is = 0;
    for (int a = 0; a < NARCH; a++) {
        was |= to_common(&d->old, o->present[a]);
        is |= to_common(&d->new, n->present[a]);
    }
    if (was == is)
        return;
    const char *detail = arena_concat(&d->a, common_text(d, was), " -> ", common_text(d, is), NULL);
    const char *named = (was & ~is) != 0 ? reserved_carved(d, o) : NULL;
    if (named)
        note(d, n->kind, "gate narrowed", n->label,
             arena_concat(&d->a, detail, " (its bits named where it left: ", named, ")", NULL), CLS_COMPATIBLE);
    else if ((was & ~is) != 0)
        note(d, n->kind, "gate narrowed", n->label, detail, CLS_SOURCE);
    else
        note(d, n->kind, "gate widened", n->label, detail, CLS_COMPATIBLE);
}

static enum change_class changed_class(enum item_kind kind)
{
    switch (kind) {
    case IK_VALUE:
    case IK_OPERATION:
    case IK_VERSION:
        return CLS_ABI;
    case IK_RULE:
        return CLS_COMPATIBLE;
    default:
        return CLS_SOURCE;
    }
}

static const char *added_detail(struct diff *d, const struct item *n)
{
    if (n->kind == IK_FIELD) {
        const struct ddi_model_field *f = n->field;
        const char *bits = f->bitfield ? arena_printf(&d->a, "%d", f->bits) : NULL;
        return arena_concat(&d->a, f->type, bits ? " : " : "", bits ? bits : "", n->versions ? ", versions " : "",
                            n->versions ? n->versions : "", NULL);
    }
    if (n->kind == IK_VALUE || n->kind == IK_OPERATION || n->kind == IK_VERSION)
        return arena_concat(&d->a, "= ", n->sig, n->versions ? ", versions " : "", n->versions ? n->versions : "",
                            NULL);
    return n->versions ? arena_concat(&d->a, "versions ", n->versions, NULL) : "";
}

/* A record known by its tag in one kit and by a typedef in the next
 * (struct _X {...}; becomes typedef struct _X {...} X;) is the same
 * struct: code that writes struct _X still compiles. Such pairs (old name
 * -> new name) are compared as one record, not removed and added. */
static void pair_retagged_records(struct diff *d, struct strmap *renamed)
{
    struct strmap new_by_tag = {0};
    for (size_t i = 0; i < d->new.items.len; i++) {
        const struct item *n = d->new.items.items[i];
        const char *tag = n->kind == IK_RECORD ? n->record->tag : NULL;
        if (tag && !strchr(n->label, '.') && !strmap_get(&d->old.by_key, n->key))
            strmap_put(&new_by_tag, tag, (void *)n);
    }
    for (size_t i = 0; i < d->old.items.len; i++) {
        const struct item *o = d->old.items.items[i];
        const char *tag = o->kind == IK_RECORD ? o->record->tag : NULL;
        const struct item *n = tag && !strchr(o->label, '.') && !strmap_get(&d->new.by_key, o->key)
                                   ? strmap_get(&new_by_tag, tag)
                                   : NULL;
        if (n)
            strmap_put(renamed, o->label, (void *)n->label);
    }
    strmap_free(&new_by_tag);
}

/* The item of NEW that an item of OLD became when its top-level record
 * was renamed (see pair_retagged_records), or NULL. */
static struct item *renamed_counterpart(struct diff *d, const struct strmap *renamed, const struct item *o)
{
    if (o->kind != IK_RECORD && o->kind != IK_FIELD)
        return NULL;
    const char *prefix = o->kind == IK_RECORD ? "record\x1f" : "field\x1f";
    const char *rest = o->key + strlen(prefix);
    size_t top_len = strcspn(rest, ".\x1f");
    const char *to = strmap_get(renamed, arena_strndup(&d->a, rest, top_len));
    return to ? strmap_get(&d->new.by_key, arena_concat(&d->a, prefix, to, rest + top_len, NULL)) : NULL;
}

static void compare(struct diff *d)
{
    struct strmap renamed = {0};
    pair_retagged_records(d, &renamed);
    /* A field whose type or width changed has a new identity; pair it with
     * the one it replaces, in the same record under the same name. */
    struct strmap unmatched_new = {0};
    for (size_t i = 0; i < d->new.items.len; i++) {
        struct item *n = d->new.items.items[i];
        if (n->slot && !strmap_get(&d->old.by_key, n->key))
            strmap_put(&unmatched_new, n->slot, n);
    }
    for (size_t i = 0; i < d->old.items.len; i++) {
        struct item *o = d->old.items.items[i];
        struct item *n = strmap_get(&d->new.by_key, o->key);
        if (!n && (n = renamed_counterpart(d, &renamed, o)) != NULL && o->kind == IK_RECORD)
            note(d, IK_RECORD, "renamed", o->label,
                 arena_concat(&d->a, "now ", n->label, " (struct ", o->record->tag, " is the same type)", NULL),
                 CLS_COMPATIBLE);
        struct item *retyped = !n && o->slot ? strmap_get(&unmatched_new, o->slot) : NULL;
        const char *named = !n ? reserved_carved(d, o) : NULL;
        if (retyped && !retyped->matched) {
            retyped->matched = 1;
            const char *detail = arena_concat(&d->a, added_detail(d, o), " -> ", added_detail(d, retyped), NULL);
            if (named)
                note(d, o->kind, "narrowed", o->label, arena_concat(&d->a, detail, " (bits named: ", named, ")", NULL),
                     CLS_COMPATIBLE);
            else
                note(d, o->kind, "type changed", o->label, detail, CLS_SOURCE);
            continue;
        }
        if (!n) {
            if (named)
                note(d, o->kind, "named", o->label,
                     arena_concat(&d->a, added_detail(d, o), " (its bits now: ", named, ")", NULL), CLS_COMPATIBLE);
            else
                note(d, o->kind, "removed", o->label, added_detail(d, o),
                     o->kind == IK_RULE ? CLS_COMPATIBLE : CLS_SOURCE);
            continue;
        }
        n->matched = 1;
        int enum_value = n->kind == IK_VALUE || n->kind == IK_OPERATION;
        if (!enum_value && o->sig && n->sig && strcmp(o->sig, n->sig) != 0)
            note(d, n->kind, "changed", n->label, arena_concat(&d->a, o->sig, " -> ", n->sig, NULL),
                 changed_class(n->kind));
        if (n->kind != IK_RULE)
            compare_where(d, o, n);
        if (n->kind == IK_RECORD || n->kind == IK_FIELD || enum_value)
            compare_values(d, o, n);
    }
    for (size_t i = 0; i < d->new.items.len; i++) {
        const struct item *n = d->new.items.items[i];
        if (!n->matched)
            note(d, n->kind, "added", n->label, added_detail(d, n), CLS_COMPATIBLE);
    }
    strmap_free(&unmatched_new);
    strmap_free(&renamed);
}

/* --- reporting --------------------------------------------------------- */

static int by_kind_label(const void *pa, const void *pb)
{
    const struct change *a = *(struct change *const *)pa, *b = *(struct change *const *)pb;
    if (a->kind != b->kind)
        return (int)a->kind - (int)b->kind;
    int c = strcmp(a->label, b->label);
    if (c)
        return c;
    c = strcmp(a->what, b->what);
    return c ? c : strcmp(a->detail, b->detail);
}

/* What a person reads first: the scope and the counts per class, then
 * the changes worst class first (ABI-breaking, source-breaking,
 * compatible), each class by kind and name. */
static void write_text(const struct diff *d, FILE *out, const unsigned counts[3])
{
    char scope[256];
    fprintf(out, "ddigen diff %s -> %s\n", d->old.name, d->new.name);
    fprintf(out, "scope: %s\n", diff_reach_describe(&d->reach, scope, sizeof scope));
    fprintf(out, "summary: %zu changes: %u ABI-breaking, %u source-breaking, %u compatible\n", d->changes.len,
            counts[CLS_ABI], counts[CLS_SOURCE], counts[CLS_COMPATIBLE]);
    for (int cls = CLS_ABI; cls >= CLS_COMPATIBLE; cls--) {
        if (counts[cls])
            fprintf(out, "%s (%u):\n", class_names[cls], counts[cls]);
        for (size_t i = 0; i < d->changes.len; i++) {
            const struct change *c = d->changes.items[i];
            if ((int)c->cls == cls)
                fprintf(out, "  %-15s %s %s%s%s [%s]\n", c->what, kind_names[c->kind], c->label,
                        c->detail[0] ? ": " : "", c->detail, class_names[c->cls]);
        }
    }
}

static void write_json(const struct diff *d, FILE *out, const unsigned counts[3])
{
    fputs("{\n  \"old\": ", out);
    json_write_str(out, d->old.name);
    fputs(",\n  \"new\": ", out);
    json_write_str(out, d->new.name);
    fputs(",\n  \"changes\": [", out);
    for (size_t i = 0; i < d->changes.len; i++) {
        const struct change *c = d->changes.items[i];
        fputs(i ? ",\n    {\"kind\": " : "\n    {\"kind\": ", out);
        json_write_str(out, kind_names[c->kind]);
        fputs(", \"change\": ", out);
        json_write_str(out, c->what);
        fputs(", \"item\": ", out);
        json_write_str(out, c->label);
        fputs(", \"detail\": ", out);
        json_write_str(out, c->detail);
        fputs(", \"class\": ", out);
        json_write_str(out, class_names[c->cls]);
        fputs("}", out);
    }
    fprintf(out, "%s],\n  \"summary\": {\"changes\": %zu, \"compatible\": %u, \"source-breaking\": %u, "
                 "\"ABI-breaking\": %u}\n}\n",
            d->changes.len ? "\n  " : "", d->changes.len, counts[CLS_COMPATIBLE], counts[CLS_SOURCE],
            counts[CLS_ABI]);
}

static void write_xml(const struct diff *d, FILE *out, const unsigned counts[3])
{
    xmlDocPtr doc = xmlNewDoc(BAD_CAST "1.0");
    xmlNodePtr root = xmlNewNode(NULL, BAD_CAST "ddi-diff");
    xmlDocSetRootElement(doc, root);
    xmlNewProp(root, BAD_CAST "old", BAD_CAST d->old.name);
    xmlNewProp(root, BAD_CAST "new", BAD_CAST d->new.name);
    for (size_t i = 0; i < d->changes.len; i++) {
        const struct change *c = d->changes.items[i];
        xmlNodePtr n = xmlNewChild(root, NULL, BAD_CAST "change", NULL);
        xmlNewProp(n, BAD_CAST "kind", BAD_CAST kind_names[c->kind]);
        xmlNewProp(n, BAD_CAST "change", BAD_CAST c->what);
        xmlNewProp(n, BAD_CAST "item", BAD_CAST c->label);
        xmlNewProp(n, BAD_CAST "class", BAD_CAST class_names[c->cls]);
        if (c->detail[0])
            xmlNewProp(n, BAD_CAST "detail", BAD_CAST c->detail);
    }
    char buf[32];
    xmlNodePtr s = xmlNewChild(root, NULL, BAD_CAST "summary", NULL);
    static const char *const names[3] = {"compatible", "source-breaking", "ABI-breaking"};
    for (int k = 0; k < 3; k++) {
        snprintf(buf, sizeof buf, "%u", counts[k]);
        xmlNewProp(s, BAD_CAST names[k], BAD_CAST buf);
    }
    xmlDocFormatDump(out, doc, 1);
    xmlFreeDoc(doc);
}

static void free_side(struct side *s)
{
    ddi_model_free(s->owned);
    vec_free(&s->items);
    strmap_free(&s->by_key);
    strmap_free(&s->occurrences);
    arena_free(&s->a);
}

/* IDs are given to every record or to none (ids start at 1). */
static int has_stable_ids(const struct ddi_model *m)
{
    return m->nrecords && m->records[0]->id;
}

/* --fail-on: the status is the mask only when a change of that class or
 * worse is reported (errors always count). */
static int apply_fail_on(int rc, enum diff_fail_on fail_on, const unsigned counts[3])
{
    int fails = fail_on == DIFF_FAIL_ABI      ? counts[CLS_ABI] != 0
                : fail_on == DIFF_FAIL_SOURCE ? counts[CLS_ABI] + counts[CLS_SOURCE] != 0
                                              : 1;
    return fails ? rc : rc & DIFF_ERROR;
}

static const struct diff_options diff_defaults = {DIFF_TEXT, DIFF_FAIL_ANY, 0, NULL};

/* A side's model: the caller's, or loaded here (freed with the side). */
static void side_model(struct side *s, xmlDocPtr doc, const struct ddi_model *loaded)
{
    s->m = loaded ? loaded : (s->owned = ddi_model_load(doc));
}

/* Compares both specs (within opt's scope), on their models when given
 * (NULL: loaded here); the changes sorted. NULL on no memory (reported);
 * d->errors when NEW renumbered an ID of OLD or the scope could not be
 * made. */
static struct diff *diff_run(const struct diff_spec *old_spec, const struct diff_spec *new_spec,
                             const struct diff_options *opt)
{
    struct diff *d = calloc(1, sizeof *d);
    if (!d) {
        ddigen_error(NULL, 0, "out of memory");
        return NULL;
    }
    xmlDocPtr old_doc = old_spec->doc, new_doc = new_spec->doc;
    const char *old_name = old_spec->name, *new_name = new_spec->name;
    d->old.name = old_name;
    d->new.name = new_name;
    side_model(&d->old, old_doc, old_spec->model);
    side_model(&d->new, new_doc, new_spec->model);
    if (!d->old.m || !d->new.m) {
        ddigen_error(NULL, 0, "out of memory");
        free_side(&d->old), free_side(&d->new), free(d);
        return NULL;
    }
    /* Stable IDs, when both revisions have them, must be kept: NEW may not
     * renumber an item of OLD nor give its ID to another one. */
    if (has_stable_ids(d->old.m) && has_stable_ids(d->new.m) &&
        spec_check_kept_ids(old_doc, old_name, new_doc, new_name) != 0)
        d->errors++;
    if (diff_reach_init(&d->reach, d->old.m, d->new.m, new_doc, new_name, opt->params, opt->kernel) != 0)
        d->errors++;
    d->old.reach = d->new.reach = &d->reach;
    read_side(&d->old, d->old.m);
    read_side(&d->new, d->new.m);
    find_common_versions(d);
    compare(d);
    if (d->changes.len > 1)
        qsort(d->changes.items, d->changes.len, sizeof(void *), by_kind_label);
    return d;
}

static void diff_free(struct diff *d)
{
    diff_reach_free(&d->reach);
    vec_free(&d->changes);
    free_side(&d->old);
    free_side(&d->new);
    arena_free(&d->a);
    free(d);
}

/* The exit mask of a finished comparison, before --fail-on. */
static int diff_exit_of(const struct diff *d, unsigned counts[3])
{
    counts[0] = counts[1] = counts[2] = 0;
    for (size_t i = 0; i < d->changes.len; i++)
        counts[((struct change *)d->changes.items[i])->cls]++;
    if (d->errors)
        return DIFF_ERROR;
    int rc = d->changes.len ? DIFF_CHANGE : 0;
    if (counts[CLS_SOURCE] || counts[CLS_ABI])
        rc |= DIFF_INCOMPATIBLE;
    return rc;
}

int diff_specs(xmlDocPtr old_doc, const char *old_name, xmlDocPtr new_doc, const char *new_name,
               const struct diff_options *opt, FILE *out)
{
    if (!opt)
        opt = &diff_defaults;
    const struct diff_spec old_spec = {old_doc, old_name, NULL}, new_spec = {new_doc, new_name, NULL};
    struct diff *d = diff_run(&old_spec, &new_spec, opt);
    if (!d)
        return DIFF_ERROR;
    unsigned counts[3];
    int rc = diff_exit_of(d, counts);
    if (!d->errors) {
        if (opt->format == DIFF_JSON)
            write_json(d, out, counts);
        else if (opt->format == DIFF_XML)
            write_xml(d, out, counts);
        else
            write_text(d, out, counts);
        rc = apply_fail_on(rc, opt->fail_on, counts);
    }
    diff_free(d);
    return rc;
}

int diff_collect(xmlDocPtr old_doc, const char *old_name, xmlDocPtr new_doc, const char *new_name,
                 struct diff_changes *out)
{
    const struct diff_spec old_spec = {old_doc, old_name, NULL}, new_spec = {new_doc, new_name, NULL};
    return diff_collect_loaded(&old_spec, &new_spec, out);
}

int diff_collect_loaded(const struct diff_spec *old_spec, const struct diff_spec *new_spec, struct diff_changes *out)
{
    memset(out, 0, sizeof *out);
    struct diff *d = diff_run(old_spec, new_spec, &diff_defaults);
    if (!d)
        return DIFF_ERROR;
    unsigned counts[3];
    int rc = diff_exit_of(d, counts);
    out->items = arena_alloc(&out->a, (d->changes.len + 1) * sizeof *out->items);
    for (size_t i = 0; !d->errors && i < d->changes.len; i++) {
        const struct change *c = d->changes.items[i];
        out->items[out->len++] = (struct diff_change){
            .kind = kind_names[c->kind], .change = arena_strdup(&out->a, c->what),
            .item = arena_strdup(&out->a, c->label), .detail = arena_strdup(&out->a, c->detail),
            .class_name = class_names[c->cls], .breaks = c->cls == CLS_ABI ? DIFF_BREAKS_ABI
                                                       : c->cls == CLS_SOURCE ? DIFF_BREAKS_SOURCE
                                                                              : DIFF_BREAKS_NOTHING};
    }
    diff_free(d);
    return rc;
}

void diff_changes_free(struct diff_changes *c)
{
    arena_free(&c->a);
    memset(c, 0, sizeof *c);
}

static const char usage[] =
    "usage: ddigen diff OLD.xml NEW.xml [--format text|json|xml] [-o FILE] [--ddi-list FILE [--driver-kind K]\n"
    "                   [--records A,B]] [--scope ddi|all] [--fail-on any|source|abi]\n"
    "  --ddi-list FILE     only what the listed callbacks reach (the records generate --ddi-list covers,\n"
    "                      the enums and types they spell, the callbacks' signatures)\n"
    "  --driver-kind K     full (DRIVER_INITIALIZATION_DATA, the default) or display-only\n"
    "  --records A,B       records the driver also needs (a 'records:' line in the list does the same)\n"
    "  --scope ddi|all     ddi (default): the DDI headers' records; all: the kernel records they refer\n"
    "                      to (wdm.h: DISPATCHER_HEADER, FILE_INFORMATION_CLASS, ...) too\n"
    "  --fail-on CLASS     any (default): every change sets the status; source: only source- or\n"
    "                      ABI-breaking changes do (else 0); abi: only ABI-breaking ones do\n"
    "exit status: bit 1 error, 2 usage, 4 change, 8 incompatible change (source or ABI), each\n"
    "  set only when --fail-on's class or a worse one is reported (errors always)\n";

enum { OPT_SCOPE = 500, OPT_FAIL_ON };

/* --scope and --fail-on; 0 or -1 after reporting a bad value. */
static int class_option(int c, const char *arg, struct diff_options *opt)
{
    if (c == OPT_SCOPE && (!strcmp(arg, "ddi") || !strcmp(arg, "all"))) {
        opt->kernel = !strcmp(arg, "all");
        return 0;
    }
    if (c == OPT_FAIL_ON && (!strcmp(arg, "any") || !strcmp(arg, "source") || !strcmp(arg, "abi"))) {
        opt->fail_on = !strcmp(arg, "abi") ? DIFF_FAIL_ABI : !strcmp(arg, "source") ? DIFF_FAIL_SOURCE : DIFF_FAIL_ANY;
        return 0;
    }
    ddigen_error(NULL, 0, c == OPT_SCOPE ? "--scope '%s': expected ddi or all" : "--fail-on '%s': expected any, source or abi",
                 ddigen_quote(arg));
    return -1;
}

int ddigen_cmd_diff(int argc, char **argv)
{
    static const struct option options[] = {
        {"format", required_argument, NULL, 'f'},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {"ddi-list", required_argument, NULL, SKELETON_OPT_DDI_LIST},
        {"driver-kind", required_argument, NULL, SKELETON_OPT_DRIVER_KIND},
        {"records", required_argument, NULL, SKELETON_OPT_RECORDS},
        {"scope", required_argument, NULL, OPT_SCOPE},
        {"fail-on", required_argument, NULL, OPT_FAIL_ON},
        {NULL, 0, NULL, 0},
    };
    struct diff_options opt = {DIFF_TEXT, DIFF_FAIL_ANY, 0, NULL};
    struct vec params = {0};
    struct arena a = {0};
    const char *out_path = NULL;
    int c, rc = DIFF_ERROR;
    optind = 1;
    while ((c = cli_getopt(argc, argv, "f:o:h", options)) != -1) {
        if (c == 'f' && !strcmp(optarg, "text"))
            opt.format = DIFF_TEXT;
        else if (c == 'f' && !strcmp(optarg, "json"))
            opt.format = DIFF_JSON;
        else if (c == 'f' && !strcmp(optarg, "xml"))
            opt.format = DIFF_XML;
        else if (c == 'o')
            out_path = optarg;
        else if (c == SKELETON_OPT_DDI_LIST || c == SKELETON_OPT_DRIVER_KIND || c == SKELETON_OPT_RECORDS) {
            int bad = skeleton_option(c, optarg, &params, &a);
            if (bad) {
                rc = bad == 2 ? DIFF_USAGE : DIFF_ERROR;
                goto done;
            }
        } else if ((c == OPT_SCOPE || c == OPT_FAIL_ON) && class_option(c, optarg, &opt) == 0)
            continue;
        else if (c == 'h') {
            fputs(usage, stdout);
            rc = 0;
            goto done;
        } else {
            if (c == 'f')
                ddigen_error(NULL, 0, "unknown format '%s' (expected text, json or xml)", ddigen_quote(optarg));
            fputs(usage, stderr);
            rc = DIFF_USAGE;
            goto done;
        }
    }
    if (argc - optind != 2) {
        ddigen_error(NULL, 0, "diff needs OLD.xml and NEW.xml, %d given", argc - optind);
        fputs(usage, stderr);
        rc = DIFF_USAGE;
        goto done;
    }
    if (params.len) {
        vec_push(&params, NULL);
        opt.params = (const char *const *)params.items;
    }
    xmlDocPtr old_doc = spec_load(argv[optind]);
    xmlDocPtr new_doc = old_doc ? spec_load(argv[optind + 1]) : NULL;
    if (old_doc && new_doc) {
        /* Reports to a file are written whole or not at all. */
        char *text = NULL;
        size_t len = 0;
        FILE *out = out_path ? open_memstream(&text, &len) : stdout;
        rc = diff_specs(old_doc, argv[optind], new_doc, argv[optind + 1], &opt, out ? out : stdout);
        if (out && out != stdout) {
            fclose(out);
            if (!(rc & DIFF_ERROR) && ddigen_write_file(out_path, text, len) != 0)
                rc |= DIFF_ERROR;
            free(text);
        }
    }
    xmlFreeDoc(old_doc);
    xmlFreeDoc(new_doc);
done:
    vec_free(&params);
    arena_free(&a);
    return rc;
}
