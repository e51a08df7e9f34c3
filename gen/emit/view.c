/* The derived view: facts the templates would otherwise work out in XSLT,
 * added in C to the spec document once before the render threads start,
 * in a namespace of its own (urn:ddigen:view, prefix dv), on the elements
 * of <layout> and <merge>, and taken away again after rendering, so the
 * spec a run writes never carries it:
 *   dv:version-cond          every element with versions: its #if condition
 *                            (ddi_vset_condition, the one printer)
 *   dv:marshal-cond          versions and archs, the marshallers' form
 *                            ((versions) && (0 || DDI_MRT_ARCH_X86 ...))
 *   dv:marshal-cond-chain    a field: the marshal-cond of it and of every
 *                            field it is nested in, joined with &&
 *   dv:wire, dv:c-type, dv:record, dv:key, dv:lvalue, dv:size-path,
 *   dv:cid, dv:rid           a named field of a marshalled record: how it
 *                            goes on the wire (see templates/include/
 *                            marshal_common.xsl for the classes)
 * and, on the validation plan, dv:guard (the whole #if of a plan node)
 * and, on its records, dv:c-type (how the validators spell the type). */
#include "view.h"

#include "../model/vset.h"
#include "../model/specxml.h"
#include "../util/arena.h"
#include "../util/diag.h"
#include "../util/strbuf.h"
#include "../util/strmap.h"

#include <inttypes.h>
#include <libxml/xpath.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct view {
    const char *spec_name;
    struct ddi_versions versions;
    xmlNsPtr ns;
    struct arena a;
    /* The marshalled records (not referenced, with an id), by "kind tag"
     * and by name: how many, and the first. */
    struct strmap by_type, by_name;
    /* Every layout record by "kind tag", for a pointee that is laid out. */
    struct strmap any_by_type;
    struct vec disc_unions; /* union names a discriminator selects */
    int errors;
};

struct record_count {
    xmlNodePtr first;
    int count;
};

static int is_elem(xmlNodePtr n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name);
}

static int is_marshalled(xmlNodePtr rec)
{
    const char *ref = sx_get(rec, "referenced");
    return !(ref && !strcmp(ref, "true")) && sx_get(rec, "id");
}

static void set(struct view *v, xmlNodePtr n, const char *name, const char *value)
{
    xmlNewNsProp(n, v->ns, BAD_CAST name, BAD_CAST value);
}

/* Appends the condition of a versions attribute; -1 after reporting one
 * that does not parse (the semantic checks make that unreachable). */
static int version_cond(struct view *v, xmlNodePtr n, const char *text, struct strbuf *sb)
{
    ddi_vset s;
    struct ddi_vset_error err;
    if (ddi_vset_parse(&v->versions, *text ? text : NULL, &s, &err) != 0) {
        ddigen_error(v->spec_name, (int)xmlGetLineNo(n), "versions '%s': %s", ddigen_quote(text), err.what);
        v->errors++;
        return -1;
    }
    ddi_vset_condition(&v->versions, s, sb);
    return 0;
}

/* ('(' version-cond ')')? ' && '? ('(0' (' || DDI_MRT_ARCH_X') * ')')? */
static void marshal_cond(struct view *v, xmlNodePtr n, struct strbuf *sb)
{
    const char *versions = sx_get(n, "versions"), *archs = sx_get(n, "archs");
    if (versions) {
        sb_append(sb, "(");
        version_cond(v, n, versions, sb);
        sb_append(sb, ")");
    }
    if (versions && archs)
        sb_append(sb, " && ");
    if (archs) {
        static const struct { const char *word, *macro; } arch_macros[] = {
            {" x86 ", " || DDI_MRT_ARCH_X86"}, {" x64 ", " || DDI_MRT_ARCH_X64"}, {" arm64 ", " || DDI_MRT_ARCH_ARM64"}};
        struct strbuf words = {0};
        sb_printf(&words, " %s ", archs);
        sb_append(sb, "(0");
        for (size_t i = 0; i < sizeof arch_macros / sizeof arch_macros[0]; i++)
            if (strstr(sb_str(&words), arch_macros[i].word))
                sb_append(sb, arch_macros[i].macro);
        sb_append(sb, ")");
        sb_free(&words);
    }
}

/* dv:version-cond and dv:marshal-cond on n. */
static void add_conditions(struct view *v, xmlNodePtr n)
{
    struct strbuf sb = {0};
    const char *versions = sx_get(n, "versions");
    if (versions && version_cond(v, n, versions, &sb) == 0)
        set(v, n, "version-cond", sb_str(&sb));
    if (versions || sx_get(n, "archs")) {
        sb.len = 0;
        marshal_cond(v, n, &sb);
        set(v, n, "marshal-cond", sb_str(&sb));
    }
    sb_free(&sb);
}

/* The conditions of every element under n; chain: the marshal-cond of
 * the fields n is nested in, outermost first, joined with &&. */
static void walk_conditions(struct view *v, xmlNodePtr n, const char *chain)
{
    for (xmlNodePtr k = n->children; k; k = k->next) {
        if (k->type != XML_ELEMENT_NODE)
            continue;
        add_conditions(v, k);
        const char *inner = chain;
        if (is_elem(k, "field")) {
            const char *own = (const char *)xmlGetNsProp(k, BAD_CAST "marshal-cond", v->ns->href);
            struct strbuf sb = {0};
            if (own && *chain)
                sb_printf(&sb, "%s && %s", chain, own);
            else
                sb_append(&sb, own ? own : chain);
            xmlFree((xmlChar *)own);
            inner = arena_strdup(&v->a, sb_str(&sb));
            sb_free(&sb);
            if (*inner)
                set(v, k, "marshal-cond-chain", inner);
        }
        walk_conditions(v, k, inner);
    }
}

/* --- The marshallers' wire facts (marshal_common.xsl m-class and the
 * template's m-fact, decided here once). */

static void count_record(struct arena *a, struct strmap *m, const char *key, xmlNodePtr rec)
{
    struct record_count *c = strmap_get(m, key);
    if (!c) {
        c = arena_alloc(a, sizeof *c);
        c->first = rec;
        strmap_put(m, key, c);
    }
    c->count++;
}

static const char *kind_tag(struct arena *a, xmlNodePtr rec)
{
    const char *kind = sx_get(rec, "kind"), *tag = sx_get(rec, "tag");
    return arena_concat(a, kind ? kind : "", " ", tag ? tag : "", NULL);
}

static void index_records(struct view *v, xmlNodePtr layout, xmlNodePtr merge)
{
    for (xmlNodePtr r = layout ? layout->children : NULL; r; r = r->next) {
        if (!is_elem(r, "record"))
            continue;
        const char *kt = kind_tag(&v->a, r);
        strmap_put(&v->any_by_type, kt, r);
        if (!is_marshalled(r))
            continue;
        count_record(&v->a, &v->by_type, kt, r);
        const char *name = sx_get(r, "name");
        count_record(&v->a, &v->by_name, name ? name : "", r);
    }
    for (xmlNodePtr d = merge ? merge->children : NULL; d; d = d->next)
        if (is_elem(d, "discriminator") && sx_get(d, "union"))
            vec_push(&v->disc_unions, (void *)sx_get(d, "union"));
}

static int count_of(const struct strmap *m, const char *key)
{
    const struct record_count *c = strmap_get(m, key);
    return c ? c->count : 0;
}

static int selected_union(const struct view *v, const char *name)
{
    for (size_t i = 0; name && i < v->disc_unions.len; i++)
        if (!strcmp(v->disc_unions.items[i], name))
            return 1;
    return 0;
}

/* The canonical type without qualifiers that do not change the wire form
 * (m-canonical): the field's, else its first <canonical>'s, else its type. */
static const char *canonical_type(xmlNodePtr f)
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
    for (xmlNodePtr k = f->children; k; k = k->next)
        if (is_elem(k, "type-size") && sx_get(k, attr))
            return k;
    return NULL;
}

/* XPath normalize-space of s[0, n). */
static void normalize_space(struct strbuf *sb, const char *s, size_t n)
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

/* The text between the first '(' of the SAL and the next ')', or "". */
static size_t sal_argument(const char *sal, const char **arg)
{
    const char *open = sal ? strchr(sal, '(') : NULL;
    const char *close = open ? strchr(open + 1, ')') : NULL;
    *arg = open ? open + 1 : "";
    return close ? (size_t)(close - open - 1) : 0;
}

/* "A.B.C" -> "A.B." (m-parent-prefix) */
static size_t parent_prefix_len(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot ? (size_t)(dot - path + 1) : 0;
}

/* What the element count of a followed pointer is counted in is known:
 * a scalar, or a record the layout has ("const T *" judged by T). The
 * XPath this replaces took the text after a first "const " even when
 * the type does not start with it; so does this. */
static int pointee_complete(struct view *v, xmlNodePtr facts, const char *c)
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
    normalize_space(&pointee, sb_str(&joined), star ? (size_t)(star - sb_str(&joined)) : 0);
    int complete = strmap_get(&v->any_by_type, sb_str(&pointee)) != NULL;
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
    for (xmlNodePtr s = f->parent ? f->parent->children : NULL; s; s = s->next) {
        if (!is_elem(s, "field") || sx_get(s, "array") || sx_child(s, "record"))
            continue;
        const char *p = sx_get(s, "path");
        if (p && strlen(p) == prefix_len + len && !strncmp(p, path, prefix_len) && !strncmp(p + prefix_len, name, len))
            return 1;
    }
    return 0;
}

/* A pointer with a _Field_size_ rule naming a sibling: follow, else ptr. */
static const char *pointer_class(struct view *v, xmlNodePtr f, xmlNodePtr facts, const char *c)
{
    const char *sal = sx_get(f, "sal"), *arg;
    size_t len = sal_argument(sal, &arg);
    const char *path = sx_get(f, "path");
    if (!len || !path)
        return "ptr";
    int bytes = !strncmp(sal, "_Field_size_bytes_(", 19) || !strncmp(sal, "_Field_size_bytes_opt_(", 23);
    int elems = !strncmp(sal, "_Field_size_(", 13) || !strncmp(sal, "_Field_size_opt_(", 17);
    if (!(bytes || (elems && pointee_complete(v, facts, c))) || !is_ident(arg, len))
        return "ptr";
    return has_size_sibling(f, path, parent_prefix_len(path), arg, len) ? "follow" : "ptr";
}

/* u, s, ptr, rec or raw, from the layout stage's scalar facts
 * (m-scalar-class). */
static const char *scalar_class(struct view *v, const char *scalar, const char *c)
{
    if (!scalar)
        return "raw";
    if (!strcmp(scalar, "pointer"))
        return "ptr";
    if (!strcmp(scalar, "signed"))
        return "s";
    if (!strcmp(scalar, "unsigned"))
        return "u";
    if (!strcmp(scalar, "record") && (count_of(&v->by_type, c) == 1 || count_of(&v->by_name, c) == 1))
        return "rec";
    return "raw";
}

/* The wire class of a named leaf field (m-class), or NULL when the spec
 * has no type facts for it (the template says so and stops). */
static const char *wire_class(struct view *v, xmlNodePtr f, const char *c, int in_union)
{
    xmlNodePtr facts = type_fact(f, "scalar"), bytes_fact = type_fact(f, "type-bytes");
    if (!facts)
        return NULL;
    const char *sc = scalar_class(v, sx_get(facts, "scalar"), c);
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
        return pointer_class(v, f, facts, c);
    return sc;
}

/* The marshalled record a canonical spelling names (m-record-of). */
static const char *record_of(struct view *v, const char *c)
{
    const struct record_count *t = strmap_get(&v->by_type, c), *n = strmap_get(&v->by_name, c);
    if (t && t->count == 1)
        return sx_get(t->first, "name");
    return n ? sx_get(n->first, "name") : NULL;
}

/* The CBOR bytes of a key (m-key-args): id < 24 is one byte, then 0x18
 * NN, then 0x19 HH LL. A missing id reads as NaN, as it did in XPath. */
static void key_args(struct strbuf *sb, const char *id_text)
{
    double id = id_text ? strtod(id_text, NULL) : NAN;
    if (id_text && !*id_text)
        id = NAN;
#define HEX(x) ((x) > 0 ? (uint64_t)(x) : 0)
    if (id < 24)
        sb_printf(sb, "1, 0x%" PRIX64 ", 0, 0", HEX(id));
    else if (id < 256)
        sb_printf(sb, "2, 0x18, 0x%" PRIX64 ", 0", HEX(id));
    else
        sb_printf(sb, "3, 0x19, 0x%" PRIX64 ", 0x%" PRIX64, HEX(id / 256), isnan(id) ? 0 : HEX(id) % 256);
#undef HEX
}

/* The member's mutable type (a decoder fills an object it owns): const
 * UINT -> UINT, void *const -> void *. */
static void mutable_type(struct strbuf *sb, const char *t0)
{
    size_t n = strlen(t0);
    if (!strncmp(t0, "const ", 6) && !strchr(t0, '*'))
        sb_append(sb, t0 + 6);
    else if (n >= 6 && !strcmp(t0 + n - 6, "*const"))
        sb_appendn(sb, t0, n - 5);
    else if (n >= 7 && !strcmp(t0 + n - 7, "* const"))
        sb_appendn(sb, t0, n - 6);
    else
        sb_append(sb, t0);
}

static void wire_facts(struct view *v, xmlNodePtr f, xmlNodePtr top, int in_union)
{
    const char *c = canonical_type(f), *path = sx_get(f, "path");
    path = path ? path : "";
    const char *cls = sx_child(f, "record") ? "nest" : wire_class(v, f, c, in_union);
    struct strbuf sb = {0}, t0 = {0};
    if (cls)
        set(v, f, "wire", cls);
    sb_append_c_ident(&sb, sx_get(top, "name"));
    set(v, f, "cid", sb_str(&sb));
    sb.len = 0;
    sb_printf(&sb, "%su", sx_get(top, "id"));
    set(v, f, "rid", sb_str(&sb));
    const char *type = sx_get(f, "type");
    normalize_space(&t0, type ? type : "", type ? strlen(type) : 0);
    sb.len = 0;
    mutable_type(&sb, sb_str(&t0));
    set(v, f, "c-type", sb_str(&sb));
    const char *rec = record_of(v, c);
    if (rec && *rec)
        set(v, f, "record", rec);
    sb.len = 0;
    key_args(&sb, sx_get(f, "id"));
    set(v, f, "key", sb_str(&sb));
    struct strbuf lv = {0};
    sb.len = 0;
    mutable_type(&sb, sb_str(&t0));
    if (strcmp(sb_str(&sb), sb_str(&t0)))
        sb_printf(&lv, "*(%s *)&out->%s", sb_str(&sb), path);
    else
        sb_printf(&lv, "out->%s", path);
    set(v, f, "lvalue", sb_str(&lv));
    const char *arg;
    size_t len = sal_argument(sx_get(f, "sal"), &arg);
    sb.len = 0;
    sb_appendn(&sb, path, parent_prefix_len(path));
    sb_appendn(&sb, arg, len);
    if (sb.len)
        set(v, f, "size-path", sb_str(&sb));
    sb_free(&lv);
    sb_free(&t0);
    sb_free(&sb);
}

/* Every field under rec, named ones get their facts; in_union: some
 * enclosing record is a union no discriminator selects. */
static void walk_fields(struct view *v, xmlNodePtr rec, xmlNodePtr top, int in_union)
{
    const char *kind = sx_get(rec, "kind");
    in_union = in_union || (kind && !strcmp(kind, "union") && !selected_union(v, sx_get(rec, "name")));
    for (xmlNodePtr f = rec->children; f; f = f->next) {
        if (!is_elem(f, "field"))
            continue;
        const char *name = sx_get(f, "name");
        if (name && *name)
            wire_facts(v, f, top, in_union);
        for (xmlNodePtr r = f->children; r; r = r->next)
            if (is_elem(r, "record"))
                walk_fields(v, r, top, in_union);
    }
}

int emit_view_add(xmlDocPtr spec, const char *spec_name)
{
    xmlNodePtr root = xmlDocGetRootElement(spec);
    xmlNodePtr layout = sx_part(spec, "layout"), merge = sx_part(spec, "merge");
    if (!root || !layout)
        return 0;
    struct view v = {.spec_name = spec_name};
    ddi_versions_read(&v.versions, layout);
    v.ns = xmlNewNs(root, BAD_CAST EMIT_VIEW_NS, BAD_CAST "dv");
    walk_conditions(&v, layout, "");
    if (merge)
        walk_conditions(&v, merge, "");
    index_records(&v, layout, merge);
    for (xmlNodePtr r = layout->children; r; r = r->next)
        if (is_elem(r, "record") && is_marshalled(r))
            walk_fields(&v, r, r, 0);
    strmap_free(&v.by_type);
    strmap_free(&v.by_name);
    strmap_free(&v.any_by_type);
    vec_free(&v.disc_unions);
    arena_free(&v.a);
    return v.errors ? -1 : 0;
}

static void strip(xmlNodePtr n, xmlNsPtr ns)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        for (xmlAttrPtr a = n->properties, next; a; a = next) {
            next = a->next;
            if (a->ns == ns)
                xmlRemoveProp(a);
        }
        strip(n->children, ns);
    }
}

void emit_view_remove(xmlDocPtr spec)
{
    xmlNodePtr root = xmlDocGetRootElement(spec);
    if (!root)
        return;
    for (xmlNsPtr *at = &root->nsDef; *at; at = &(*at)->next) {
        if (strcmp((const char *)(*at)->href, EMIT_VIEW_NS))
            continue;
        xmlNsPtr ns = *at;
        for (xmlNodePtr part = root->children; part; part = part->next)
            if (is_elem(part, "layout") || is_elem(part, "merge"))
                strip(part->children, ns);
        *at = ns->next;
        ns->next = NULL;
        xmlFreeNs(ns);
        return;
    }
}

/* The plan's gating as one #if condition, as the validators print it:
 * (versions) && (arch-cond). */
static void guard_plan_nodes(struct view *v, xmlNodePtr n)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        const char *versions = sx_get(n, "versions"), *archs = sx_get(n, "arch-cond");
        if (versions || archs) {
            struct strbuf sb = {0};
            if (versions) {
                sb_append(&sb, "(");
                version_cond(v, n, versions, &sb);
                sb_append(&sb, ")");
            }
            if (versions && archs)
                sb_append(&sb, " && ");
            if (archs)
                sb_printf(&sb, "(%s)", archs);
            set(v, n, "guard", sb_str(&sb));
            sb_free(&sb);
        }
        guard_plan_nodes(v, n->children);
    }
}

/* How the validators spell a planned record's type: its name, or, for a
 * tag declared inside another record (nested in C++, cxx-type), a macro
 * ddi_validate.h defines for each language (dv:cxx-type, dv:c-spelling). */
static void type_spelling(struct view *v, xmlNodePtr plan_rec, const struct strmap *layout_records)
{
    const char *name = sx_get(plan_rec, "name");
    xmlNodePtr rec = name ? strmap_get(layout_records, name) : NULL;
    const char *cxx = rec ? sx_get(rec, "cxx-type") : NULL;
    if (!cxx) {
        set(v, plan_rec, "c-type", name ? name : "");
        return;
    }
    struct strbuf sb = {0};
    sb_append(&sb, "DDI_VALIDATE_TYPE_");
    sb_append_c_ident(&sb, name);
    set(v, plan_rec, "c-type", sb_str(&sb));
    set(v, plan_rec, "cxx-type", cxx);
    const char *tag = sx_get(rec, "tag"), *kind = sx_get(rec, "kind");
    sb.len = 0;
    if (tag && !strcmp(tag, name))
        sb_printf(&sb, "%s %s", kind ? kind : "struct", tag);
    else
        sb_append(&sb, name);
    set(v, plan_rec, "c-spelling", sb_str(&sb));
    sb_free(&sb);
}

int emit_view_guard_plan(xmlDocPtr spec, xmlNodePtr plan_root)
{
    xmlNodePtr layout = sx_part(spec, "layout");
    struct view v = {.spec_name = spec->URL ? (const char *)spec->URL : "the spec"};
    struct strmap records = {0};
    if (layout) {
        ddi_versions_read(&v.versions, layout);
        for (xmlNodePtr r = layout->children; r; r = r->next)
            if (is_elem(r, "record") && sx_get(r, "name"))
                strmap_put(&records, sx_get(r, "name"), r);
    }
    v.ns = xmlNewNs(plan_root, BAD_CAST EMIT_VIEW_NS, BAD_CAST "dv");
    guard_plan_nodes(&v, plan_root);
    for (xmlNodePtr r = plan_root->children; r; r = r->next)
        if (is_elem(r, "record"))
            type_spelling(&v, r, &records);
    strmap_free(&records);
    return v.errors ? -1 : 0;
}
