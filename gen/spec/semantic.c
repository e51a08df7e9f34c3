/* Semantic checks of a spec's <layout> that RELAX NG cannot express: values
 * that no C compiler could have measured, names or IDs given twice. Run wherever a spec is read, so
 * emit never writes C from an impossible layout. Stops at the first error. */
#include "semantic.h"

#include "../model/specxml.h"

#include "ids.h"

#include "../model/rule_kinds.h"
#include "../model/type_facts.h"
#include "../model/vset.h"

#include "../util/arena.h"
#include "../util/diag.h"
#include "../util/strbuf.h"
#include "../util/strmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARCHS DDI_ARCH_MAX
#define UNKNOWN_BITS UINT64_MAX

struct check {
    const char *file;
    struct arena arena;
    struct ddi_versions where;
    struct strmap records; /* top-level record name and tag -> xmlNodePtr */
    ddi_vset seen[MAX_ARCHS];
    int failed;
};

static void fail(struct check *c, xmlNodePtr at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void fail(struct check *c, xmlNodePtr at, const char *fmt, ...)
{
    if (c->failed)
        return;
    c->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    long line = xmlGetLineNo(at);
    ddigen_vreport(DDIGEN_ERROR, c->file, line > 0 ? (unsigned)line : 0, fmt, ap);
    va_end(ap);
}

/* Digits only (the schema has checked the shape); saturates. */
static uint64_t number(const char *s)
{
    uint64_t v = 0;
    for (; s && *s >= '0' && *s <= '9'; s++)
        v = v > (UINT64_MAX - 9) / 10 ? UINT64_MAX : v * 10 + (uint64_t)(*s - '0');
    return v;
}

static uint64_t sat_mul(uint64_t a, uint64_t b)
{
    return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* --- version sets -------------------------------------------------------- */

/* The versions attribute of n as a set into out (absent: every version). */
static int read_versions(struct check *c, xmlNodePtr n, ddi_vset *out)
{
    const char *s = sx_get(n, "versions");
    struct ddi_vset_error err;
    if (ddi_vset_parse(&c->where, s, out, &err) == 0)
        return 0;
    if (!strcmp(err.what, "unknown version")) {
        fail(c, n, "unknown version '%s' in versions=\"%s\" (not a short name of the layout's <version>s)",
             ddigen_quoten(s + err.at, err.len), ddigen_quote(s));
    } else {
        const char *dash = memchr(s + err.at, '-', err.len);
        fail(c, n, "reversed version range '%s' in versions=\"%s\" (the layout lists %s before it)",
             ddigen_quoten(s + err.at, err.len), ddigen_quote(s),
             ddigen_quoten(dash + 1, err.len - (size_t)(dash + 1 - (s + err.at))));
    }
    return -1;
}

/* --- architectures ------------------------------------------------------- */

static int arch_index(const struct check *c, const char *name)
{
    return name ? ddi_arch_find(&c->where, name, strlen(name)) : -1;
}

/* Checks arch= (one) or archs= (a list) name architectures of the layout. */
static void check_archs(struct check *c, xmlNodePtr n)
{
    const char *one = sx_get(n, "arch");
    if (one && arch_index(c, one) < 0)
        fail(c, n, "architecture '%s' is not one of the layout's <arch>s", ddigen_quote(one));
    const char *list = sx_get(n, "archs");
    ddi_archset set;
    struct ddi_vset_error err;
    if (ddi_archset_parse(&c->where, list, &set, &err) != 0)
        fail(c, n, "architecture '%s' in archs=\"%s\" is not one of the layout's <arch>s",
             ddigen_quoten(list + err.at, err.len), ddigen_quote(list));
}

/* --- sizes of types ------------------------------------------------------ */

/* The <size> of record for arch whose versions meet want, or NULL. Sizes
 * precede fields (schema order): stopping there keeps a wide struct linear. */
static xmlNodePtr size_for(struct check *c, xmlNodePtr record, const char *arch, ddi_vset want)
{
    for (xmlNodePtr s = record->children; s && !sx_is(s, "field"); s = s->next)
        if (sx_is(s, "size") && !strcmp(sx_get(s, "arch"), arch)) {
            ddi_vset probe;
            if (read_versions(c, s, &probe) == 0 && (probe & want))
                return s;
        }
    return NULL;
}

static const char *skip_word(const char *s, const char *word)
{
    size_t n = strlen(word);
    return !strncmp(s, word, n) && (s[n] == ' ' || !s[n]) ? s + n + (s[n] == ' ') : NULL;
}

/* The canonical spelling of field's type on arch (for a record's tag). */
static const char *canonical_type(xmlNodePtr field, const char *arch)
{
    for (xmlNodePtr k = field->children; k; k = k->next)
        if (sx_is(k, "canonical") && !strcmp(sx_get(k, "arch"), arch))
            return sx_get(k, "type");
    const char *t = sx_get(field, "canonical");
    return t ? t : sx_get(field, "type");
}

/* The first version of a set, for the type facts of that version. */
static int first_version(ddi_vset want)
{
    for (int i = 0; i < DDI_VSET_MAX; i++)
        if (ddi_vset_has(want, i))
            return i;
    return -1;
}

/* Bits one element of field occupies on arch in versions want; UNKNOWN_BITS
 * when the spec does not say (a record it does not describe). */
static uint64_t element_bits(struct check *c, xmlNodePtr field, const char *arch, ddi_vset want)
{
    for (xmlNodePtr k = field->children; k; k = k->next)
        if (sx_is(k, "record")) {
            xmlNodePtr s = size_for(c, k, arch, want);
            return s ? sat_mul(number(sx_get(s, "bytes")), 8) : UNKNOWN_BITS;
        }
    /* The size clang measured (type-bytes): a spec written before the
     * layout stage recorded it says nothing of a scalar's size. */
    struct ddi_type_fact fact = ddi_type_fact_at(&c->where, field, arch, first_version(want));
    if (fact.bytes)
        return (uint64_t)fact.bytes * 8;
    const char *type = canonical_type(field, arch);
    const char *tag = skip_word(type, "struct");
    tag = tag ? tag : skip_word(type, "union");
    xmlNodePtr record = tag ? strmap_get(&c->records, tag) : NULL;
    xmlNodePtr s = record ? size_for(c, record, arch, want) : NULL;
    return s ? sat_mul(number(sx_get(s, "bytes")), 8) : UNKNOWN_BITS;
}

/* Bits field occupies: its width, or element size times array extents. A
 * field of unknown type is at least a byte (C has no empty objects). */
static uint64_t field_bits(struct check *c, xmlNodePtr field, const char *arch, ddi_vset want)
{
    const char *bits = sx_get(field, "bits");
    if (bits)
        return number(bits);
    uint64_t count = 1;
    for (const char *a = sx_get(field, "array"); a && *a; a += strcspn(a, " "), a += *a == ' ')
        count = !strncmp(a, "flexible", 8) ? 0 : sat_mul(count, number(a));
    uint64_t each = element_bits(c, field, arch, want);
    return count == 0 ? 0 : sat_mul(count, each == UNKNOWN_BITS ? 8 : each);
}

/* --- checks ---------------------------------------------------------------- */

/* Values given per architecture (<size>, <offset>): one per (arch, version). */
static void check_per_arch(struct check *c, xmlNodePtr owner, const char *element)
{
    ddi_vset *seen = c->seen, have;
    memset(seen, 0, sizeof c->seen);
    for (xmlNodePtr k = owner->children; k && !c->failed; k = k->next) {
        if (!sx_is(k, element))
            continue;
        int a = arch_index(c, sx_get(k, "arch"));
        if (a < 0) {
            check_archs(c, k);
            return;
        }
        if (read_versions(c, k, &have) != 0)
            return;
        if (have & seen[a]) {
            fail(c, k, "second <%s> for %s in versions already given (one value per architecture and version)",
                 element, sx_get(k, "arch"));
            return;
        }
        seen[a] |= have;
    }
}

static int is_power_of_two(uint64_t v)
{
    return v && !(v & (v - 1));
}

static void check_sizes(struct check *c, xmlNodePtr record)
{
    check_per_arch(c, record, "size");
    for (xmlNodePtr s = record->children; s && !c->failed; s = s->next) {
        if (!sx_is(s, "size"))
            continue;
        uint64_t bytes = number(sx_get(s, "bytes")), align = number(sx_get(s, "align"));
        if (!is_power_of_two(align))
            fail(c, s, "align=\"%s\" is not a power of two", ddigen_quote(sx_get(s, "align")));
        else if (bytes % align)
            fail(c, s, "size %s bytes is not a multiple of its alignment %s", sx_get(s, "bytes"), sx_get(s, "align"));
    }
}

/* A bitfield is an integer of at most its declared type's width (as the
 * layout stage measured it; nothing to check in a spec without it). */
static void check_bit_width(struct check *c, xmlNodePtr field)
{
    const char *bits = sx_get(field, "bits");
    if (!bits)
        return;
    uint64_t width = number(bits), limit = 64;
    for (size_t i = 0; i < c->where.narchs; i++) {
        unsigned bytes = ddi_type_fact_at(&c->where, field, c->where.arch[i], -1).bytes;
        if (bytes && bytes * 8u < limit)
            limit = bytes * 8u;
    }
    if (width > limit)
        fail(c, field, "bit-field width %s is wider than its type %s (%u bits)", bits, sx_get(field, "type"),
             (unsigned)limit);
}

/* Each offset of field: byte-aligned unless a bitfield, and the field ends
 * within the top-level record in every version both hold. */
static void check_offsets(struct check *c, xmlNodePtr field, xmlNodePtr top)
{
    check_per_arch(c, field, "offset");
    ddi_vset have, sized;
    for (xmlNodePtr o = field->children; o && !c->failed; o = o->next) {
        if (!sx_is(o, "offset"))
            continue;
        uint64_t at = number(sx_get(o, "bits"));
        if (!sx_get(field, "bits") && at % 8) {
            fail(c, o, "offset of %s at bit %s is not on a byte (only bit-fields are)", sx_get(field, "path"),
                 sx_get(o, "bits"));
            return;
        }
        const char *arch = sx_get(o, "arch");
        read_versions(c, o, &have);
        uint64_t end = sat_add(at, field_bits(c, field, arch, have));
        for (xmlNodePtr s = top->children; s && !c->failed && !sx_is(s, "field"); s = s->next) {
            if (!sx_is(s, "size") || strcmp(sx_get(s, "arch"), arch) || read_versions(c, s, &sized) != 0 ||
                !(sized & have))
                continue;
            uint64_t size = sat_mul(number(sx_get(s, "bytes")), 8);
            if (end > size)
                fail(c, o, "%s ends at bit %llu on %s, past the end of %s (%s bytes)", sx_get(field, "path"),
                     (unsigned long long)end, arch, sx_get(top, "name"), sx_get(s, "bytes"));
        }
    }
}

struct extent {
    uint64_t begin, end;
    size_t order; /* document order, so ties sort the same everywhere */
    ddi_vset versions;
    int arch;
    xmlNodePtr offset, field;
};

static int by_begin(const void *a, const void *b)
{
    const struct extent *x = a, *y = b;
    if (x->begin != y->begin)
        return x->begin < y->begin ? -1 : 1;
    return x->order < y->order ? -1 : x->order > y->order;
}

/* In one version of one architecture, the members of a struct are disjoint
 * (all holds the extents sorted by where they begin). */
static void check_disjoint(struct check *c, xmlNodePtr record, const struct extent *all, size_t n, int arch,
                           size_t version)
{
    const struct extent *widest = NULL;
    for (size_t i = 0; i < n; i++) {
        const struct extent *e = &all[i];
        if (e->arch != arch || !ddi_vset_has(e->versions, (int)version))
            continue;
        if (widest && e->begin < widest->end) {
            fail(c, e->offset, "%s (bits %llu-%llu) overlaps %s (bits %llu-%llu) on %s in struct %s",
                 sx_get(e->field, "path"), (unsigned long long)e->begin, (unsigned long long)e->end - 1,
                 sx_get(widest->field, "path"), (unsigned long long)widest->begin,
                 (unsigned long long)widest->end - 1, c->where.arch[arch], sx_get(record, "name"));
            return;
        }
        if (!widest || e->end > widest->end)
            widest = e;
    }
}

/* Members of a struct do not share bits where their versions meet (a field
 * and its alternative in other versions may sit at the same offset). */
static void check_overlaps(struct check *c, xmlNodePtr record)
{
    size_t cap = 0, n = 0;
    for (xmlNodePtr f = record->children; f; f = f->next)
        for (xmlNodePtr o = sx_is(f, "field") ? f->children : NULL; o; o = o->next)
            cap += sx_is(o, "offset");
    if (cap < 2)
        return;
    struct extent *all = malloc(cap * sizeof *all);
    if (!all)
        return;
    for (xmlNodePtr f = record->children; f; f = f->next)
        for (xmlNodePtr o = sx_is(f, "field") ? f->children : NULL; o; o = o->next) {
            if (!sx_is(o, "offset"))
                continue;
            struct extent e = {number(sx_get(o, "bits")), 0, n, 0, arch_index(c, sx_get(o, "arch")), o, f};
            read_versions(c, o, &e.versions);
            e.end = sat_add(e.begin, field_bits(c, f, sx_get(o, "arch"), e.versions));
            if (e.end > e.begin)
                all[n++] = e;
        }
    if (n > 1)
        qsort(all, n, sizeof *all, by_begin);
    for (size_t a = 0; a < c->where.narchs && !c->failed; a++)
        for (size_t v = 0; v < c->where.n && !c->failed; v++)
            check_disjoint(c, record, all, n, (int)a, v);
    free(all);
}

static void check_record(struct check *c, xmlNodePtr record, xmlNodePtr top)
{
    check_sizes(c, record);
    for (xmlNodePtr f = record->children; f && !c->failed; f = f->next) {
        if (!sx_is(f, "field"))
            continue;
        check_bit_width(c, f);
        check_per_arch(c, f, "canonical");
        if (!c->failed)
            check_offsets(c, f, top);
        for (xmlNodePtr k = f->children; k && !c->failed; k = k->next)
            if (sx_is(k, "record"))
                check_record(c, k, top);
    }
    const char *kind = sx_get(record, "kind");
    if (!c->failed && kind && !strcmp(kind, "struct"))
        check_overlaps(c, record);
}

/* Every versions= and arch(s)= in the layout names what the layout lists. */
static void check_where(struct check *c, xmlNodePtr n, ddi_vset *scratch)
{
    for (; n && !c->failed; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        check_archs(c, n);
        if (!c->failed)
            read_versions(c, n, scratch);
        check_where(c, n->children, scratch);
    }
}

static void read_header(struct check *c, xmlNodePtr layout)
{
    for (xmlNodePtr n = layout->children; n; n = n->next) {
        if (sx_is(n, "arch")) {
            if (arch_index(c, sx_get(n, "name")) >= 0)
                fail(c, n, "architecture '%s' listed twice", ddigen_quote(sx_get(n, "name")));
            else if (c->where.narchs == DDI_ARCH_MAX)
                fail(c, n, "more than %d architectures (x86, x64, arm64)", DDI_ARCH_MAX);
            else
                c->where.arch[c->where.narchs++] = sx_get(n, "name");
        } else if (sx_is(n, "version")) {
            const char *name = sx_get(n, "short");
            if (ddi_version_find_short(&c->where, name, strlen(name)) >= 0)
                fail(c, n, "version short name '%s' listed twice", ddigen_quote(name));
            else if (c->where.n == DDI_VSET_MAX)
                fail(c, n, "more than %d DDI versions (a version set is one 64-bit word)", DDI_VSET_MAX);
            else
                ddi_versions_add(&c->where, n);
        } else if (sx_is(n, "record")) {
            strmap_put(&c->records, sx_get(n, "name"), n);
            if (sx_get(n, "tag"))
                strmap_put(&c->records, sx_get(n, "tag"), n);
        }
    }
}

/* Names the generated C declares: a record or enum listed twice, or two
 * names that become one C identifier ("A.B" and "A_B"), would be defined
 * twice by every family, and so would two records of one struct tag. */
static void name_once(struct check *c, struct strmap *seen, xmlNodePtr n, const char *what, const char *name)
{
    if (!name || c->failed)
        return;
    struct strbuf sb = {0};
    sb_append(&sb, !strcmp(what, "tag") ? "tag " : "type ");
    size_t skip = sb.len;
    sb_append_c_ident(&sb, name);
    const char *key = arena_strdup(&c->arena, sb_str(&sb));
    sb_free(&sb);
    xmlNodePtr other = strmap_get(seen, key);
    const char *other_name = other ? sx_get(other, !strcmp(what, "tag") ? "tag" : "name") : NULL;
    if (other && other_name && !strcmp(other_name, name))
        fail(c, n, "%s %s is listed twice (also at line %ld): the generated code would define it twice", what, name,
             xmlGetLineNo(other));
    else if (other)
        fail(c, n, "%s %s and %s (line %ld) are the same C identifier %s: the generated code would define it twice",
             what, name, other_name ? other_name : "?", xmlGetLineNo(other), key + skip);
    else
        strmap_put(seen, key, n);
}

static void check_record_names(struct check *c, struct strmap *seen, xmlNodePtr record)
{
    name_once(c, seen, record, "record", sx_get(record, "name"));
    for (xmlNodePtr f = record->children; f && !c->failed; f = f->next)
        for (xmlNodePtr k = sx_is(f, "field") ? f->children : NULL; k && !c->failed; k = k->next)
            if (sx_is(k, "record"))
                check_record_names(c, seen, k);
}

static void check_names(struct check *c, xmlNodePtr layout)
{
    struct strmap seen = {0};
    for (xmlNodePtr n = layout->children; n && !c->failed; n = n->next) {
        if (sx_is(n, "record")) {
            check_record_names(c, &seen, n);
            name_once(c, &seen, n, "tag", sx_get(n, "tag"));
        } else if (sx_is(n, "enum")) {
            name_once(c, &seen, n, "enum", sx_get(n, "name"));
        }
    }
    strmap_free(&seen);
}

/* A spec with stable IDs (written by `ddigen spec`): every item has one,
 * unique in its scope and never a retired one. A layout has none. */
static int has_ids(xmlNodePtr layout)
{
    for (xmlNodePtr n = layout->children; n; n = n->next)
        if ((sx_is(n, "record") || sx_is(n, "enum")) && sx_get(n, "id"))
            return 1;
    return 0;
}

/* Every rule of the <docs> part (docs/page/rules/rule, the only place
 * docs.rng allows one) is of a kind the table knows (model/rule_kinds.h),
 * which the schema cannot list without repeating it. */
static void check_rule_kinds(struct check *c, xmlNodePtr docs)
{
    for (xmlNodePtr page = sx_child(docs, "page"); page && !c->failed; page = sx_next(page, "page"))
        for (xmlNodePtr rule = sx_child(sx_child(page, "rules"), "rule"); rule && !c->failed;
             rule = sx_next(rule, "rule")) {
            const char *kind = sx_get(rule, "kind");
            if (kind && ddi_rule_kind_find(kind) < 0)
                fail(c, rule, "rule kind '%s' is not one of ddigen's rule kinds", ddigen_quote(kind));
        }
}

int spec_check_semantics(xmlDocPtr doc, const char *file)
{
    xmlNodePtr root = xmlDocGetRootElement(doc);
    xmlNodePtr layout = NULL, docs = NULL;
    for (xmlNodePtr n = root ? root->children : NULL; n; n = n->next)
        if (sx_is(n, "layout") && !layout)
            layout = n;
        else if (sx_is(n, "docs") && !docs)
            docs = n;
    struct check c = {.file = file};
    if (docs)
        check_rule_kinds(&c, docs);
    if (!layout || c.failed)
        return c.failed ? -1 : 0;
    read_header(&c, layout);
    check_names(&c, layout);
    if (!c.failed && has_ids(layout) && spec_check_ids(doc, file) != 0)
        c.failed = 1;
    if (!c.failed)
        check_where(&c, layout->children, &(ddi_vset){0});
    for (xmlNodePtr n = layout->children; n && !c.failed; n = n->next)
        if (sx_is(n, "record"))
            check_record(&c, n, n);
    strmap_free(&c.records);
    arena_free(&c.arena);
    return c.failed ? -1 : 0;
}
