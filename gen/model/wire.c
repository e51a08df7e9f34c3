/* See wire.h. Moved out of emit/view.c (which had it from the XPath of
 * marshal_common.xsl) so that `ddigen trace` stops guessing a field's wire
 * form from its type's spelling. */
#include "wire.h"

#include "specxml.h"

#include <stdlib.h>
#include <string.h>

struct ddi_wire_count {
    xmlNodePtr first;
    int count;
};

int ddi_wire_is_marshalled(xmlNodePtr rec)
{
    const char *ref = sx_get(rec, "referenced");
    return !(ref && !strcmp(ref, "true")) && sx_get(rec, "id");
}

static void count_record(struct arena *a, struct strmap *m, const char *key, xmlNodePtr rec)
{
    struct ddi_wire_count *c = strmap_get(m, key);
    if (!c) {
        c = arena_alloc(a, sizeof *c);
        c->first = rec;
        c->count = 0;
        strmap_put(m, key, c);
    }
    c->count++;
}

static const char *kind_tag(struct arena *a, xmlNodePtr rec)
{
    const char *kind = sx_get(rec, "kind"), *tag = sx_get(rec, "tag");
    return arena_concat(a, kind ? kind : "", " ", tag ? tag : "", NULL);
}

void ddi_wire_index_build(struct ddi_wire_index *ix, xmlNodePtr layout, xmlNodePtr merge)
{
    memset(ix, 0, sizeof *ix);
    for (xmlNodePtr r = sx_child(layout, "record"); r; r = sx_next(r, "record")) {
        const char *kt = kind_tag(&ix->a, r);
        strmap_put(&ix->any_by_type, kt, r);
        if (!ddi_wire_is_marshalled(r))
            continue;
        count_record(&ix->a, &ix->by_type, kt, r);
        const char *name = sx_get(r, "name");
        count_record(&ix->a, &ix->by_name, name ? name : "", r);
    }
    for (xmlNodePtr d = sx_child(merge, "discriminator"); d; d = sx_next(d, "discriminator"))
        if (sx_get(d, "union"))
            vec_push(&ix->disc_unions, (void *)sx_get(d, "union"));
}

void ddi_wire_index_free(struct ddi_wire_index *ix)
{
    strmap_free(&ix->by_type);
    strmap_free(&ix->by_name);
    strmap_free(&ix->any_by_type);
    vec_free(&ix->disc_unions);
    arena_free(&ix->a);
}

static int count_of(const struct strmap *m, const char *key)
{
    const struct ddi_wire_count *c = strmap_get(m, key);
    return c ? c->count : 0;
}

int ddi_wire_union_selected(const struct ddi_wire_index *ix, const char *name)
{
    for (size_t i = 0; name && i < ix->disc_unions.len; i++)
        if (!strcmp(ix->disc_unions.items[i], name))
            return 1;
    return 0;
}

const char *ddi_wire_canonical(xmlNodePtr f)
{
    const char *c = sx_get(f, "canonical");
    if (!c) {
        xmlNodePtr k = sx_child(f, "canonical");
        c = k ? sx_get(k, "type") : NULL;
    }
    if (!c)
        c = sx_get(f, "type");
    if (!c)
        c = "";
    if (!strncmp(c, "volatile ", 9))
        c += 9;
    if (!strncmp(c, "const ", 6) && !strchr(c, '*'))
        c += 6;
    return c;
}

/* The first of the field and its <type-size> children with attr. */
static xmlNodePtr type_fact(xmlNodePtr f, const char *attr)
{
    if (sx_get(f, attr))
        return f;
    for (xmlNodePtr k = sx_child(f, "type-size"); k; k = sx_next(k, "type-size"))
        if (sx_get(k, attr))
            return k;
    return NULL;
}

void ddi_wire_normalize_space(struct strbuf *sb, const char *s, size_t n)
{
    int gap = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
            gap = sb->len > 0;
            continue;
        }
        if (gap)
            sb_append(sb, " ");
        gap = 0;
        sb_appendn(sb, s + i, 1);
    }
}

size_t ddi_wire_sal_argument(const char *sal, const char **arg)
{
    const char *open = sal ? strchr(sal, '(') : NULL;
    const char *close = open ? strchr(open + 1, ')') : NULL;
    *arg = open ? open + 1 : "";
    return close ? (size_t)(close - open - 1) : 0;
}

size_t ddi_wire_parent_prefix_len(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot ? (size_t)(dot - path + 1) : 0;
}

/* What the element count of a followed pointer is counted in is known:
 * a scalar, or a record the layout has ("const T *" judged by T). The
 * XPath this replaces took the text after a first "const " even when
 * the type does not start with it; so does this. */
static int pointee_complete(const struct ddi_wire_index *ix, xmlNodePtr facts, const char *c)
{
    const char *base = facts ? sx_get(facts, "pointee-base") : NULL;
    if (base && (!strcmp(base, "signed") || !strcmp(base, "unsigned")))
        return 1;
    if (!base || strcmp(base, "record"))
        return 0;
    struct strbuf joined = {0}, pointee = {0};
    if (!strncmp(c, "const ", 6))
        sb_append(&joined, c + 6);
    else {
        const char *after = strstr(c, "const ");
        sb_append(&joined, after ? after + 6 : "");
        sb_append(&joined, c);
    }
    const char *star = strchr(sb_str(&joined), '*');
    ddi_wire_normalize_space(&pointee, sb_str(&joined), star ? (size_t)(star - sb_str(&joined)) : 0);
    int complete = strmap_get(&ix->any_by_type, sb_str(&pointee)) != NULL;
    sb_free(&joined);
    sb_free(&pointee);
    return complete;
}

static int is_ident(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
              (s[i] >= '0' && s[i] <= '9')))
            return 0;
    return 1;
}

/* A sibling field at path (prefix + name), not an array, not a record. */
static int has_size_sibling(xmlNodePtr f, const char *path, size_t prefix_len, const char *name, size_t len)
{
    for (xmlNodePtr s = sx_child(f->parent, "field"); s; s = sx_next(s, "field")) {
        if (sx_get(s, "array") || sx_child(s, "record"))
            continue;
        const char *p = sx_get(s, "path");
        if (p && strlen(p) == prefix_len + len && !strncmp(p, path, prefix_len) && !strncmp(p + prefix_len, name, len))
            return 1;
    }
    return 0;
}

/* A pointer with a _Field_size_ rule naming a sibling: follow, else ptr. */
static const char *pointer_class(const struct ddi_wire_index *ix, xmlNodePtr f, xmlNodePtr facts, const char *c)
{
    const char *sal = sx_get(f, "sal"), *arg;
    size_t len = ddi_wire_sal_argument(sal, &arg);
    const char *path = sx_get(f, "path");
    if (!len || !path)
        return "ptr";
    int bytes = !strncmp(sal, "_Field_size_bytes_(", 19) || !strncmp(sal, "_Field_size_bytes_opt_(", 23);
    int elems = !strncmp(sal, "_Field_size_(", 13) || !strncmp(sal, "_Field_size_opt_(", 17);
    if (!(bytes || (elems && pointee_complete(ix, facts, c))) || !is_ident(arg, len))
        return "ptr";
    return has_size_sibling(f, path, ddi_wire_parent_prefix_len(path), arg, len) ? "follow" : "ptr";
}

/* u, s, ptr, rec or raw, from the layout stage's scalar facts
 * (m-scalar-class). */
static const char *scalar_class(const struct ddi_wire_index *ix, const char *scalar, const char *c)
{
    if (!scalar)
        return "raw";
    if (!strcmp(scalar, "pointer"))
        return "ptr";
    if (!strcmp(scalar, "signed"))
        return "s";
    if (!strcmp(scalar, "unsigned"))
        return "u";
    if (!strcmp(scalar, "record") && (count_of(&ix->by_type, c) == 1 || count_of(&ix->by_name, c) == 1))
        return "rec";
    return "raw";
}

const char *ddi_wire_class(const struct ddi_wire_index *ix, xmlNodePtr f, int in_union)
{
    if (sx_child(f, "record"))
        return "nest";
    xmlNodePtr facts = type_fact(f, "scalar"), bytes_fact = type_fact(f, "type-bytes");
    if (!facts)
        return NULL;
    const char *c = ddi_wire_canonical(f);
    const char *sc = scalar_class(ix, sx_get(facts, "scalar"), c);
    const char *array = sx_get(f, "array");
    int integer = !strcmp(sc, "u") || !strcmp(sc, "s");
    if (array && strstr(array, "flexible"))
        return "skip";
    if (array && strchr(array, ' '))
        return "raw";
    if (array && integer && !sx_get(facts, "enum") && bytes_fact && atof(sx_get(bytes_fact, "type-bytes")) == 1)
        return "bytes";
    if (array && (integer || !strcmp(sc, "rec")))
        return !strcmp(sc, "u") ? "arr-u" : !strcmp(sc, "s") ? "arr-s" : "arr-rec";
    if (array)
        return "raw";
    if (sx_get(f, "bits"))
        return !strcmp(sc, "s") ? "s" : "u";
    if (!strcmp(sc, "ptr") && !in_union)
        return pointer_class(ix, f, facts, c);
    return sc;
}

xmlNodePtr ddi_wire_record(const struct ddi_wire_index *ix, const char *c)
{
    const struct ddi_wire_count *t = strmap_get(&ix->by_type, c), *n = strmap_get(&ix->by_name, c);
    if (t && t->count == 1)
        return t->first;
    return n ? n->first : NULL;
}
