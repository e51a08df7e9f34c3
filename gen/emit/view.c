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
#include "../model/wire.h"
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
    struct ddi_wire_index wire; /* how fields go on the wire (model/wire.h) */
    /* Conditions already printed, by the attributes they come from: the
     * 14393 kit's 8,200 elements with versions or archs have 21 distinct
     * pairs (parsing and printing each took a third of the view). */
    struct strmap version_conds; /* versions -> dv:version-cond */
    struct strmap marshal_conds; /* versions '|' archs -> dv:marshal-cond */
    int errors;
};

static int is_elem(xmlNodePtr n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name);
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

/* The condition a key maps to, printed by make on the first miss (NULL
 * when it fails: reported, and tried again for the next element). */
static const char *cached(struct view *v, struct strmap *cache, const char *key, xmlNodePtr n,
                          int (*make)(struct view *, xmlNodePtr, struct strbuf *))
{
    const char *hit = strmap_get(cache, key);
    if (hit)
        return hit;
    struct strbuf sb = {0};
    const char *made = make(v, n, &sb) == 0 ? arena_strdup(&v->a, sb_str(&sb)) : NULL;
    sb_free(&sb);
    if (made)
        strmap_put(cache, arena_strdup(&v->a, key), (void *)made);
    return made;
}

static int make_version_cond(struct view *v, xmlNodePtr n, struct strbuf *sb)
{
    return version_cond(v, n, sx_get(n, "versions"), sb);
}

static int make_marshal_cond(struct view *v, xmlNodePtr n, struct strbuf *sb)
{
    int errors = v->errors;
    marshal_cond(v, n, sb);
    return v->errors == errors ? 0 : -1;
}

/* dv:version-cond and dv:marshal-cond on n. */
static void add_conditions(struct view *v, xmlNodePtr n)
{
    const char *versions = sx_get(n, "versions"), *archs = sx_get(n, "archs");
    const char *cond = versions ? cached(v, &v->version_conds, versions, n, make_version_cond) : NULL;
    if (cond)
        set(v, n, "version-cond", cond);
    if (versions || archs) {
        char key[512];
        int len = snprintf(key, sizeof key, "%s|%s", versions ? versions : "", archs ? archs : "");
        struct strbuf sb = {0};
        if (len > 0 && (size_t)len < sizeof key) {
            cond = cached(v, &v->marshal_conds, key, n, make_marshal_cond);
        } else { /* too long to be a key: printed for this element only */
            marshal_cond(v, n, &sb);
            cond = sb_str(&sb);
        }
        if (cond)
            set(v, n, "marshal-cond", cond);
        sb_free(&sb);
    }
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
    const char *c = ddi_wire_canonical(f), *path = sx_get(f, "path");
    path = path ? path : "";
    const char *cls = ddi_wire_class(&v->wire, f, in_union);
    struct strbuf sb = {0}, t0 = {0};
    if (cls)
        set(v, f, "wire", cls);
    sb_append_c_ident(&sb, sx_get(top, "name"));
    set(v, f, "cid", sb_str(&sb));
    sb.len = 0;
    sb_printf(&sb, "%su", sx_get(top, "id"));
    set(v, f, "rid", sb_str(&sb));
    const char *type = sx_get(f, "type");
    ddi_wire_normalize_space(&t0, type ? type : "", type ? strlen(type) : 0);
    sb.len = 0;
    mutable_type(&sb, sb_str(&t0));
    set(v, f, "c-type", sb_str(&sb));
    xmlNodePtr rec_node = ddi_wire_record(&v->wire, c);
    const char *rec = rec_node ? sx_get(rec_node, "name") : NULL;
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
    size_t len = ddi_wire_sal_argument(sx_get(f, "sal"), &arg);
    sb.len = 0;
    sb_appendn(&sb, path, ddi_wire_parent_prefix_len(path));
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
    in_union = in_union || (kind && !strcmp(kind, "union") && !ddi_wire_union_selected(&v->wire, sx_get(rec, "name")));
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
    ddi_wire_index_build(&v.wire, layout, merge);
    for (xmlNodePtr r = layout->children; r; r = r->next)
        if (is_elem(r, "record") && ddi_wire_is_marshalled(r))
            walk_fields(&v, r, r, 0);
    ddi_wire_index_free(&v.wire);
    strmap_free(&v.version_conds);
    strmap_free(&v.marshal_conds);
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

/* A record's type as C spells it: its name, or "struct TAG" for a record
 * known by its tag alone (no typedef names it), as the asserts spell it. */
static void c_type_spelling(struct strbuf *sb, xmlNodePtr rec, const char *name)
{
    const char *tag = rec ? sx_get(rec, "tag") : NULL, *kind = rec ? sx_get(rec, "kind") : NULL;
    if (tag && name && !strcmp(tag, name))
        sb_printf(sb, "%s %s", kind ? kind : "struct", tag);
    else
        sb_append(sb, name ? name : "");
}

/* How the validators spell a planned record's type: its name, or, for a
 * tag declared inside another record (nested in C++, cxx-type), a macro
 * ddi_validate.h defines for each language (dv:cxx-type, dv:c-spelling). */
static void type_spelling(struct view *v, xmlNodePtr plan_rec, const struct strmap *layout_records)
{
    const char *name = sx_get(plan_rec, "name");
    xmlNodePtr rec = name ? strmap_get(layout_records, name) : NULL;
    const char *cxx = rec ? sx_get(rec, "cxx-type") : NULL;
    struct strbuf c_spelling = {0};
    c_type_spelling(&c_spelling, rec, name);
    if (!cxx) {
        set(v, plan_rec, "c-type", sb_str(&c_spelling));
        sb_free(&c_spelling);
        return;
    }
    struct strbuf sb = {0};
    sb_append(&sb, "DDI_VALIDATE_TYPE_");
    sb_append_c_ident(&sb, name);
    set(v, plan_rec, "c-type", sb_str(&sb));
    set(v, plan_rec, "cxx-type", cxx);
    set(v, plan_rec, "c-spelling", sb_str(&c_spelling));
    sb_free(&sb);
    sb_free(&c_spelling);
}

/* A planned record outside the scope (its <layout> record carries
 * dv:out-of-scope, scope.c) carries it too; one in scope may descend only
 * into records in scope: the closure guarantees it, checked here on the
 * plan the validators print. */
static void scope_plan_record(struct view *v, xmlNodePtr plan_rec, const struct strmap *layout_records)
{
    const char *name = sx_get(plan_rec, "name");
    xmlNodePtr rec = name ? strmap_get(layout_records, name) : NULL;
    if (rec && xmlHasNsProp(rec, BAD_CAST "out-of-scope", BAD_CAST EMIT_VIEW_NS)) {
        set(v, plan_rec, "out-of-scope", "yes");
        return;
    }
    for (xmlNodePtr d = sx_child(plan_rec, "descend"); d; d = sx_next(d, "descend")) {
        const char *callee = sx_get(d, "record");
        xmlNodePtr target = callee ? strmap_get(layout_records, callee) : NULL;
        if (target && xmlHasNsProp(target, BAD_CAST "out-of-scope", BAD_CAST EMIT_VIEW_NS)) {
            ddigen_error(v->spec_name, 0, "internal: %s is in scope but %s, whose validator it calls for %s, is not",
                         name, callee, sx_get(d, "field") ? sx_get(d, "field") : "a field");
            v->errors++;
        }
    }
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
        if (is_elem(r, "record")) {
            type_spelling(&v, r, &records);
            scope_plan_record(&v, r, &records);
        }
    strmap_free(&records);
    return v.errors ? -1 : 0;
}
