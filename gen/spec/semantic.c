/* Semantic checks of a spec's <layout> that RELAX NG cannot express: values
 * that no C compiler could have measured, names or IDs given twice. Run wherever a spec is read, so
 * emit never writes C from an impossible layout. Stops at the first error. */
#include "semantic.h"

#include "ids.h"

#include "../util/arena.h"
#include "../util/diag.h"
#include "../util/strbuf.h"
#include "../util/strmap.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ARCHS 8
#define UNKNOWN_BITS UINT64_MAX

/* A set of DDI versions: one bit per <version>, in the layout's order. */
typedef uint64_t *vset;

struct check {
    const char *file;
    struct arena arena;
    size_t nversions, nwords;
    struct strmap version_index; /* short name -> index + 1 */
    const char *arch_names[MAX_ARCHS];
    size_t narchs;
    struct strmap records; /* top-level record name and tag -> xmlNodePtr */
    vset all;
    /* Scratch sets, one per role (the checks below never nest a role). */
    vset probe, have, sized, seen[MAX_ARCHS];
    int failed;
};

static int is(xmlNodePtr n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name);
}

static const char *attr(xmlNodePtr n, const char *name)
{
    for (xmlAttrPtr a = n->properties; a; a = a->next)
        if (!strcmp((const char *)a->name, name) && a->children && a->children->type == XML_TEXT_NODE)
            return (const char *)a->children->content;
    return NULL;
}

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

static vset vset_new(struct check *c)
{
    return arena_alloc(&c->arena, c->nwords * sizeof(uint64_t) + 1);
}

static int vset_intersects(const struct check *c, const uint64_t *a, const uint64_t *b)
{
    for (size_t w = 0; w < c->nwords; w++)
        if (a[w] & b[w])
            return 1;
    return 0;
}

static int vset_has(const uint64_t *s, size_t v)
{
    return (int)((s[v / 64] >> (v % 64)) & 1);
}

static size_t version_of(struct check *c, xmlNodePtr at, const char *name, size_t len)
{
    char *key = arena_strndup(&c->arena, name, len);
    size_t ix = (size_t)(uintptr_t)strmap_get(&c->version_index, key);
    if (!ix)
        fail(c, at, "unknown version '%s' in versions=\"%s\" (not a short name of the layout's <version>s)",
             ddigen_quote(key), ddigen_quote(attr(at, "versions")));
    return ix;
}

/* The versions attribute of n as a set into out (absent: every version). */
static int read_versions(struct check *c, xmlNodePtr n, vset out)
{
    const char *s = attr(n, "versions");
    if (!s) {
        memcpy(out, c->all, c->nwords * sizeof(uint64_t));
        return 0;
    }
    memset(out, 0, c->nwords * sizeof(uint64_t));
    while (*s) {
        size_t len = strcspn(s, " ");
        const char *dash = memchr(s, '-', len);
        size_t first = version_of(c, n, s, dash ? (size_t)(dash - s) : len);
        size_t last = dash ? version_of(c, n, dash + 1, len - (size_t)(dash - s) - 1) : first;
        if (!first || !last)
            return -1;
        if (first > last) {
            fail(c, n, "reversed version range '%s' in versions=\"%s\" (the layout lists %s before it)",
                 ddigen_quoten(s, len), ddigen_quote(attr(n, "versions")),
                 dash ? ddigen_quoten(dash + 1, len - (size_t)(dash - s) - 1) : "");
            return -1;
        }
        for (size_t v = first - 1; v < last; v++)
            out[v / 64] |= (uint64_t)1 << (v % 64);
        s += len;
        s += *s == ' ';
    }
    return 0;
}

/* --- architectures ------------------------------------------------------- */

static int arch_index(const struct check *c, const char *name)
{
    for (size_t i = 0; name && i < c->narchs; i++)
        if (!strcmp(c->arch_names[i], name))
            return (int)i;
    return -1;
}

static unsigned pointer_bytes(const char *arch)
{
    return arch && !strcmp(arch, "x86") ? 4 : 8;
}

/* Checks arch= (one) or archs= (a list) name architectures of the layout. */
static void check_archs(struct check *c, xmlNodePtr n)
{
    const char *one = attr(n, "arch");
    if (one && arch_index(c, one) < 0)
        fail(c, n, "architecture '%s' is not one of the layout's <arch>s", ddigen_quote(one));
    const char *list = attr(n, "archs");
    while (list && *list) {
        size_t len = strcspn(list, " ");
        int known = 0;
        for (size_t i = 0; i < c->narchs; i++)
            known |= strlen(c->arch_names[i]) == len && !strncmp(c->arch_names[i], list, len);
        if (!known)
            fail(c, n, "architecture '%s' in archs=\"%s\" is not one of the layout's <arch>s",
                 ddigen_quoten(list, len), ddigen_quote(attr(n, "archs")));
        list += len;
        list += *list == ' ';
    }
}

/* --- sizes of types ------------------------------------------------------ */

/* The <size> of record for arch whose versions meet want, or NULL. Sizes
 * precede fields (schema order): stopping there keeps a wide struct linear. */
static xmlNodePtr size_for(struct check *c, xmlNodePtr record, const char *arch, const uint64_t *want)
{
    for (xmlNodePtr s = record->children; s && !is(s, "field"); s = s->next)
        if (is(s, "size") && !strcmp(attr(s, "arch"), arch) && read_versions(c, s, c->probe) == 0 &&
            vset_intersects(c, c->probe, want))
            return s;
    return NULL;
}

static const char *skip_word(const char *s, const char *word)
{
    size_t n = strlen(word);
    return !strncmp(s, word, n) && (s[n] == ' ' || !s[n]) ? s + n + (s[n] == ' ') : NULL;
}

/* Bytes of a canonical scalar type under the MSVC ABI; 0 when not a scalar. */
static unsigned scalar_bytes(const char *type, const char *arch)
{
    size_t len = strlen(type);
    if (len && (type[len - 1] == '*' || strstr(type, "(*)")))
        return pointer_bytes(arch);
    for (const char *q; (q = skip_word(type, "const")) || (q = skip_word(type, "volatile")) ||
                        (q = skip_word(type, "signed")) || (q = skip_word(type, "unsigned"));)
        type = q;
    static const struct {
        const char *name;
        unsigned bytes;
    } scalars[] = {{"", 4},          {"char", 1},      {"_Bool", 1}, {"bool", 1},        {"short", 2},
                   {"short int", 2}, {"int", 4},       {"long", 4},  {"long int", 4},    {"long long", 8},
                   {"long long int", 8}, {"float", 4}, {"double", 8}, {"long double", 8}, {"__int64", 8},
                   {"wchar_t", 2}};
    for (size_t i = 0; i < sizeof scalars / sizeof scalars[0]; i++)
        if (!strcmp(type, scalars[i].name))
            return scalars[i].bytes;
    return skip_word(type, "enum") ? 4 : 0;
}

/* The canonical spelling of field's type on arch. */
static const char *canonical_type(xmlNodePtr field, const char *arch)
{
    for (xmlNodePtr k = field->children; k; k = k->next)
        if (is(k, "canonical") && !strcmp(attr(k, "arch"), arch))
            return attr(k, "type");
    const char *t = attr(field, "canonical");
    return t ? t : attr(field, "type");
}

/* Bits one element of field occupies on arch in versions want; UNKNOWN_BITS
 * when the spec does not say (a record it does not describe). */
static uint64_t element_bits(struct check *c, xmlNodePtr field, const char *arch, const uint64_t *want)
{
    for (xmlNodePtr k = field->children; k; k = k->next)
        if (is(k, "record")) {
            xmlNodePtr s = size_for(c, k, arch, want);
            return s ? sat_mul(number(attr(s, "bytes")), 8) : UNKNOWN_BITS;
        }
    const char *type = canonical_type(field, arch);
    unsigned bytes = scalar_bytes(type, arch);
    if (bytes)
        return (uint64_t)bytes * 8;
    const char *tag = skip_word(type, "struct");
    tag = tag ? tag : skip_word(type, "union");
    xmlNodePtr record = tag ? strmap_get(&c->records, tag) : NULL;
    xmlNodePtr s = record ? size_for(c, record, arch, want) : NULL;
    return s ? sat_mul(number(attr(s, "bytes")), 8) : UNKNOWN_BITS;
}

/* Bits field occupies: its width, or element size times array extents. A
 * field of unknown type is at least a byte (C has no empty objects). */
static uint64_t field_bits(struct check *c, xmlNodePtr field, const char *arch, const uint64_t *want)
{
    const char *bits = attr(field, "bits");
    if (bits)
        return number(bits);
    uint64_t count = 1;
    for (const char *a = attr(field, "array"); a && *a; a += strcspn(a, " "), a += *a == ' ')
        count = !strncmp(a, "flexible", 8) ? 0 : sat_mul(count, number(a));
    uint64_t each = element_bits(c, field, arch, want);
    return count == 0 ? 0 : sat_mul(count, each == UNKNOWN_BITS ? 8 : each);
}

/* --- checks ---------------------------------------------------------------- */

/* Values given per architecture (<size>, <offset>): one per (arch, version). */
static void check_per_arch(struct check *c, xmlNodePtr owner, const char *element)
{
    vset *seen = c->seen, have = c->have;
    for (size_t i = 0; i < c->narchs; i++)
        memset(seen[i], 0, c->nwords * sizeof(uint64_t));
    for (xmlNodePtr k = owner->children; k && !c->failed; k = k->next) {
        if (!is(k, element))
            continue;
        int a = arch_index(c, attr(k, "arch"));
        if (a < 0) {
            check_archs(c, k);
            return;
        }
        if (read_versions(c, k, have) != 0)
            return;
        if (vset_intersects(c, have, seen[a])) {
            fail(c, k, "second <%s> for %s in versions already given (one value per architecture and version)",
                 element, attr(k, "arch"));
            return;
        }
        for (size_t w = 0; w < c->nwords; w++)
            seen[a][w] |= have[w];
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
        if (!is(s, "size"))
            continue;
        uint64_t bytes = number(attr(s, "bytes")), align = number(attr(s, "align"));
        if (!is_power_of_two(align))
            fail(c, s, "align=\"%s\" is not a power of two", ddigen_quote(attr(s, "align")));
        else if (bytes % align)
            fail(c, s, "size %s bytes is not a multiple of its alignment %s", attr(s, "bytes"), attr(s, "align"));
    }
}

/* A bitfield is an integer of at most its declared type's width. */
static void check_bit_width(struct check *c, xmlNodePtr field)
{
    const char *bits = attr(field, "bits");
    if (!bits)
        return;
    uint64_t width = number(bits), limit = 64;
    for (size_t i = 0; i < c->narchs; i++) {
        unsigned bytes = scalar_bytes(canonical_type(field, c->arch_names[i]), c->arch_names[i]);
        if (bytes && bytes * 8u < limit)
            limit = bytes * 8u;
    }
    if (width > limit)
        fail(c, field, "bit-field width %s is wider than its type %s (%u bits)", bits, attr(field, "type"),
             (unsigned)limit);
}

/* Each offset of field: byte-aligned unless a bitfield, and the field ends
 * within the top-level record in every version both hold. */
static void check_offsets(struct check *c, xmlNodePtr field, xmlNodePtr top)
{
    check_per_arch(c, field, "offset");
    vset have = c->have, sized = c->sized;
    for (xmlNodePtr o = field->children; o && !c->failed; o = o->next) {
        if (!is(o, "offset"))
            continue;
        uint64_t at = number(attr(o, "bits"));
        if (!attr(field, "bits") && at % 8) {
            fail(c, o, "offset of %s at bit %s is not on a byte (only bit-fields are)", attr(field, "path"),
                 attr(o, "bits"));
            return;
        }
        const char *arch = attr(o, "arch");
        read_versions(c, o, have);
        uint64_t end = sat_add(at, field_bits(c, field, arch, have));
        for (xmlNodePtr s = top->children; s && !c->failed && !is(s, "field"); s = s->next) {
            if (!is(s, "size") || strcmp(attr(s, "arch"), arch) || read_versions(c, s, sized) != 0 ||
                !vset_intersects(c, sized, have))
                continue;
            uint64_t size = sat_mul(number(attr(s, "bytes")), 8);
            if (end > size)
                fail(c, o, "%s ends at bit %llu on %s, past the end of %s (%s bytes)", attr(field, "path"),
                     (unsigned long long)end, arch, attr(top, "name"), attr(s, "bytes"));
        }
    }
}

struct extent {
    uint64_t begin, end;
    size_t order; /* document order, so ties sort the same everywhere */
    vset versions;
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
        if (e->arch != arch || !vset_has(e->versions, version))
            continue;
        if (widest && e->begin < widest->end) {
            fail(c, e->offset, "%s (bits %llu-%llu) overlaps %s (bits %llu-%llu) on %s in struct %s",
                 attr(e->field, "path"), (unsigned long long)e->begin, (unsigned long long)e->end - 1,
                 attr(widest->field, "path"), (unsigned long long)widest->begin,
                 (unsigned long long)widest->end - 1, c->arch_names[arch], attr(record, "name"));
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
        for (xmlNodePtr o = is(f, "field") ? f->children : NULL; o; o = o->next)
            cap += is(o, "offset");
    if (cap < 2)
        return;
    struct extent *all = malloc(cap * sizeof *all);
    if (!all)
        return;
    for (xmlNodePtr f = record->children; f; f = f->next)
        for (xmlNodePtr o = is(f, "field") ? f->children : NULL; o; o = o->next) {
            if (!is(o, "offset"))
                continue;
            struct extent e = {number(attr(o, "bits")), 0, n, vset_new(c), arch_index(c, attr(o, "arch")), o, f};
            read_versions(c, o, e.versions);
            e.end = sat_add(e.begin, field_bits(c, f, attr(o, "arch"), e.versions));
            if (e.end > e.begin)
                all[n++] = e;
        }
    if (n > 1)
        qsort(all, n, sizeof *all, by_begin);
    for (size_t a = 0; a < c->narchs && !c->failed; a++)
        for (size_t v = 0; v < c->nversions && !c->failed; v++)
            check_disjoint(c, record, all, n, (int)a, v);
    free(all);
}

static void check_record(struct check *c, xmlNodePtr record, xmlNodePtr top)
{
    check_sizes(c, record);
    for (xmlNodePtr f = record->children; f && !c->failed; f = f->next) {
        if (!is(f, "field"))
            continue;
        check_bit_width(c, f);
        check_per_arch(c, f, "canonical");
        if (!c->failed)
            check_offsets(c, f, top);
        for (xmlNodePtr k = f->children; k && !c->failed; k = k->next)
            if (is(k, "record"))
                check_record(c, k, top);
    }
    const char *kind = attr(record, "kind");
    if (!c->failed && kind && !strcmp(kind, "struct"))
        check_overlaps(c, record);
}

/* Every versions= and arch(s)= in the layout names what the layout lists. */
static void check_where(struct check *c, xmlNodePtr n, vset scratch)
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
        if (is(n, "arch")) {
            if (arch_index(c, attr(n, "name")) >= 0 || c->narchs == MAX_ARCHS)
                fail(c, n, "architecture '%s' listed twice", ddigen_quote(attr(n, "name")));
            else
                c->arch_names[c->narchs++] = attr(n, "name");
        } else if (is(n, "version")) {
            const char *name = attr(n, "short");
            if (strmap_get(&c->version_index, name))
                fail(c, n, "version short name '%s' listed twice", ddigen_quote(name));
            strmap_put(&c->version_index, name, (void *)(uintptr_t)++c->nversions);
        } else if (is(n, "record")) {
            strmap_put(&c->records, attr(n, "name"), n);
            if (attr(n, "tag"))
                strmap_put(&c->records, attr(n, "tag"), n);
        }
    }
    c->nwords = (c->nversions + 63) / 64;
    c->all = vset_new(c);
    c->probe = vset_new(c);
    c->have = vset_new(c);
    c->sized = vset_new(c);
    for (size_t i = 0; i < MAX_ARCHS; i++)
        c->seen[i] = vset_new(c);
    for (size_t v = 0; v < c->nversions; v++)
        c->all[v / 64] |= (uint64_t)1 << (v % 64);
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
    const char *other_name = other ? attr(other, !strcmp(what, "tag") ? "tag" : "name") : NULL;
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
    name_once(c, seen, record, "record", attr(record, "name"));
    for (xmlNodePtr f = record->children; f && !c->failed; f = f->next)
        for (xmlNodePtr k = is(f, "field") ? f->children : NULL; k && !c->failed; k = k->next)
            if (is(k, "record"))
                check_record_names(c, seen, k);
}

static void check_names(struct check *c, xmlNodePtr layout)
{
    struct strmap seen = {0};
    for (xmlNodePtr n = layout->children; n && !c->failed; n = n->next) {
        if (is(n, "record")) {
            check_record_names(c, &seen, n);
            name_once(c, &seen, n, "tag", attr(n, "tag"));
        } else if (is(n, "enum")) {
            name_once(c, &seen, n, "enum", attr(n, "name"));
        }
    }
    strmap_free(&seen);
}

/* A spec with stable IDs (written by `ddigen spec`): every item has one,
 * unique in its scope and never a retired one. A layout has none. */
static int has_ids(xmlNodePtr layout)
{
    for (xmlNodePtr n = layout->children; n; n = n->next)
        if ((is(n, "record") || is(n, "enum")) && attr(n, "id"))
            return 1;
    return 0;
}

int spec_check_semantics(xmlDocPtr doc, const char *file)
{
    xmlNodePtr root = xmlDocGetRootElement(doc);
    xmlNodePtr layout = NULL;
    for (xmlNodePtr n = root ? root->children : NULL; n && !layout; n = n->next)
        if (is(n, "layout"))
            layout = n;
    if (!layout)
        return 0;
    struct check c = {.file = file};
    read_header(&c, layout);
    check_names(&c, layout);
    if (!c.failed && has_ids(layout) && spec_check_ids(doc, file) != 0)
        c.failed = 1;
    if (!c.failed)
        check_where(&c, layout->children, vset_new(&c));
    for (xmlNodePtr n = layout->children; n && !c.failed; n = n->next)
        if (is(n, "record"))
            check_record(&c, n, n);
    strmap_free(&c.version_index);
    strmap_free(&c.records);
    arena_free(&c.arena);
    return c.failed ? -1 : 0;
}
