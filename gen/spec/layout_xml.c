/* Writes the layout model as the <layout> part of the spec. Attribute and
 * element order is fixed here; records and enums arrive sorted by name, and
 * fields in declaration order, so the output is canonical. */
#include "layout.h"

#include "schema.h"

#include <inttypes.h>
#include <libxml/tree.h>
#include <stdio.h>
#include <string.h>

struct writer {
    const struct ddi_layout *l;
    struct arena scratch;
};

static const char *const arch_triples[DDI_ARCH_COUNT] = {"i686-pc-windows-msvc", "x86_64-pc-windows-msvc",
                                                          "aarch64-pc-windows-msvc"};
static const char *const arch_macros[DDI_ARCH_COUNT] = {"_M_IX86", "_M_AMD64", "_M_ARM64"};

static void set(xmlNodePtr n, const char *name, const char *value)
{
    if (value)
        xmlNewProp(n, BAD_CAST name, BAD_CAST value);
}

static void set_u64(xmlNodePtr n, const char *name, uint64_t v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%" PRIu64, v);
    set(n, name, buf);
}

static xmlNodePtr child(xmlNodePtr parent, const char *name)
{
    return xmlNewChild(parent, NULL, BAD_CAST name, NULL);
}

static uint64_t all_versions(const struct ddi_layout *l)
{
    return l->nversions >= 64 ? ~0ull : (1ull << l->nversions) - 1;
}

/* Existence: "archs" when not on every architecture, "versions" (the union
 * over architectures) when not in every version. */
static void set_where(struct writer *w, xmlNodePtr n, const struct ddi_where *where)
{
    const struct ddi_layout *l = w->l;
    char archs[64] = "";
    uint64_t any = 0;
    int all_archs = 1;
    for (int a = 0; a < DDI_ARCH_COUNT; a++) {
        if (!((l->arch_mask >> a) & 1))
            continue;
        if (where->versions[a]) {
            if (archs[0])
                strcat(archs, " ");
            strcat(archs, ddi_arch_name((enum ddi_arch)a));
        } else {
            all_archs = 0;
        }
        any |= where->versions[a];
    }
    if (!all_archs)
        set(n, "archs", archs);
    set(n, "versions", ddi_versions_text(&w->scratch, l, any));
}

/* Measured values always say exactly where they hold. */
static void set_value_where(struct writer *w, xmlNodePtr n, const struct ddi_value *v)
{
    set(n, "arch", ddi_arch_name(v->arch));
    if ((v->versions & all_versions(w->l)) != all_versions(w->l))
        set(n, "versions", ddi_versions_text(&w->scratch, w->l, v->versions));
}

static int canonical_same_everywhere(const struct ddi_layout *l, const char *const canon[DDI_ARCH_COUNT],
                                     const char **which)
{
    *which = NULL;
    for (int a = 0; a < DDI_ARCH_COUNT; a++) {
        if (!canon[a] || !((l->arch_mask >> a) & 1))
            continue;
        if (*which && strcmp(*which, canon[a]) != 0)
            return 0;
        *which = canon[a];
    }
    return 1;
}

static void write_canonical(struct writer *w, xmlNodePtr n, const char *const canon[DDI_ARCH_COUNT])
{
    const char *one;
    if (canonical_same_everywhere(w->l, canon, &one)) {
        set(n, "canonical", one);
        return;
    }
    for (int a = 0; a < DDI_ARCH_COUNT; a++)
        if (canon[a]) {
            xmlNodePtr c = child(n, "canonical");
            set(c, "arch", ddi_arch_name((enum ddi_arch)a));
            set(c, "type", canon[a]);
        }
}

/* scalar="signed" (enum="true", pointee-base="...") from a type-facts value's b. */
static void set_scalar(xmlNodePtr n, uint64_t packed)
{
    set(n, "scalar", ddi_scalar_name((enum ddi_scalar)(packed & 0xff)));
    if (packed & DDI_TYPE_ENUM)
        set(n, "enum", "true");
    set(n, "pointee-base", ddi_scalar_name((enum ddi_scalar)(packed >> DDI_POINTEE_SHIFT & 0xff)));
}

static void set_type_bytes(xmlNodePtr n, uint64_t bytes)
{
    if (bytes != DDI_BYTES_UNKNOWN)
        set_u64(n, "type-bytes", bytes);
}

/* The size and the scalar class of a type are each said once, on the
 * field or typedef, when the same on every architecture and version (an
 * UINT; a pointer's class); what differs goes on one <type-size> per arch
 * and versions, exact sets like offsets (a pointer's size, a record that
 * grows by version). */
static void write_type_facts(struct writer *w, xmlNodePtr n, const struct ddi_values *v)
{
    int same_bytes = v->len > 0, same_scalar = v->len > 0;
    for (size_t i = 1; i < v->len; i++) {
        same_bytes &= v->items[i].a == v->items[0].a;
        same_scalar &= v->items[i].b == v->items[0].b;
    }
    if (same_bytes)
        set_type_bytes(n, v->items[0].a);
    if (same_scalar)
        set_scalar(n, v->items[0].b);
    if (same_bytes && same_scalar)
        return;
    for (size_t i = 0; i < v->len; i++) {
        xmlNodePtr s = child(n, "type-size");
        set_value_where(w, s, &v->items[i]);
        if (!same_bytes)
            set_type_bytes(s, v->items[i].a);
        if (!same_scalar)
            set_scalar(s, v->items[i].b);
    }
}

static void write_record(struct writer *w, xmlNodePtr parent, const struct ddi_record *r, int depth);

static void write_field(struct writer *w, xmlNodePtr parent, const struct ddi_field *f, int depth)
{
    xmlNodePtr n = child(parent, "field");
    set(n, "name", f->name);
    set(n, "path", f->path);
    set(n, "type", f->type);
    if (f->bit_width >= 0) {
        char bits[16];
        snprintf(bits, sizeof bits, "%d", f->bit_width);
        set(n, "bits", bits);
    }
    set(n, "array", f->array);
    set(n, "spelled", f->spelled);
    set(n, "sal", f->sal);
    set(n, "comment-dir", f->comment_dir);
    set_u64(n, "line", f->line);
    set_where(w, n, &f->where);
    if (!f->nested)
        write_canonical(w, n, f->canonical);
    write_type_facts(w, n, &f->type_facts);
    for (size_t i = 0; i < f->offsets.len; i++) {
        xmlNodePtr o = child(n, "offset");
        set_value_where(w, o, &f->offsets.items[i]);
        set_u64(o, "bits", f->offsets.items[i].a);
    }
    if (f->nested && depth < 32)
        write_record(w, n, f->nested, depth + 1);
}

static void write_record(struct writer *w, xmlNodePtr parent, const struct ddi_record *r, int depth)
{
    xmlNodePtr n = child(parent, "record");
    set(n, "name", r->name);
    set(n, "kind", r->kind);
    set(n, "tag", r->tag);
    set(n, "cxx-type", r->cxx_type);
    if (r->anonymous)
        set(n, "anonymous", "true");
    if (r->referenced)
        set(n, "referenced", "true");
    set(n, "file", r->file);
    set_u64(n, "line", r->line);
    set_where(w, n, &r->where);
    for (size_t i = 0; i < r->sizes.len; i++) {
        xmlNodePtr s = child(n, "size");
        set_value_where(w, s, &r->sizes.items[i]);
        set_u64(s, "bytes", r->sizes.items[i].a);
        set_u64(s, "align", r->sizes.items[i].b);
    }
    for (size_t i = 0; i < r->fields.len; i++)
        write_field(w, n, r->fields.items[i], depth);
}

static void write_enum(struct writer *w, xmlNodePtr parent, const struct ddi_enum *e)
{
    xmlNodePtr n = child(parent, "enum");
    set(n, "name", e->name);
    set(n, "tag", e->tag);
    if (e->referenced)
        set(n, "referenced", "true");
    set(n, "file", e->file);
    set_u64(n, "line", e->line);
    set_where(w, n, &e->where);
    for (size_t i = 0; i < e->values.len; i++) {
        const struct ddi_enumerator *v = e->values.items[i];
        xmlNodePtr c = child(n, "value");
        set(c, "name", v->name);
        char buf[32];
        snprintf(buf, sizeof buf, "%" PRId64, v->value);
        set(c, "value", buf);
        set_where(w, c, &v->where);
    }
}

static void write_typedef(struct writer *w, xmlNodePtr parent, const struct ddi_typedef *t)
{
    xmlNodePtr n = child(parent, "typedef");
    set(n, "name", t->name);
    set(n, "type", t->type);
    set(n, "file", t->file);
    set_u64(n, "line", t->line);
    set_where(w, n, &t->where);
    write_canonical(w, n, t->canonical);
    write_type_facts(w, n, &t->type_facts);
}

static void write_functype(struct writer *w, xmlNodePtr parent, const struct ddi_functype *f)
{
    xmlNodePtr n = child(parent, "function-type");
    set(n, "name", f->name);
    set(n, "pointer-to", f->pointer_to);
    if (f->pointer)
        set(n, "pointer", "true");
    set(n, "result", f->result);
    set(n, "sal", f->sal);
    set(n, "callconv", f->callconv);
    set(n, "file", f->file);
    set_u64(n, "line", f->line);
    set_where(w, n, &f->where);
    for (size_t i = 0; i < f->params.len; i++) {
        const struct ddi_param *p = f->params.items[i];
        xmlNodePtr c = child(n, "param");
        set(c, "name", p->name);
        set(c, "type", p->type);
        set(c, "sal", p->sal);
    }
}

static void write_configurations(struct writer *w, xmlNodePtr layout)
{
    const struct ddi_layout *l = w->l;
    for (int a = 0; a < DDI_ARCH_COUNT; a++) {
        if (!((l->arch_mask >> a) & 1))
            continue;
        xmlNodePtr n = child(layout, "arch");
        set(n, "name", ddi_arch_name((enum ddi_arch)a));
        set(n, "triple", arch_triples[a]);
        set(n, "macro", arch_macros[a]);
    }
    for (unsigned i = 0; i < l->nversions; i++) {
        xmlNodePtr n = child(layout, "version");
        set(n, "name", l->versions[i].name);
        set(n, "short", ddi_version_short(&l->versions[i]));
        char buf[16];
        snprintf(buf, sizeof buf, "0x%X", l->versions[i].value);
        set(n, "value", buf);
        set(n, "aliases", l->versions[i].aliases);
    }
}

xmlNodePtr ddi_layout_to_xml(const struct ddi_layout *l, xmlNodePtr parent)
{
    struct writer w = {l, {0}};
    xmlNodePtr layout = child(parent, "layout");
    write_configurations(&w, layout);
    for (size_t i = 0; i < l->records.len; i++)
        write_record(&w, layout, l->records.items[i], 0);
    for (size_t i = 0; i < l->enums.len; i++)
        write_enum(&w, layout, l->enums.items[i]);
    for (size_t i = 0; i < l->typedefs.len; i++)
        write_typedef(&w, layout, l->typedefs.items[i]);
    for (size_t i = 0; i < l->functypes.len; i++)
        write_functype(&w, layout, l->functypes.items[i]);
    arena_free(&w.scratch);
    return layout;
}

int ddi_layout_write_xml(const struct ddi_layout *l, const char *path)
{
    xmlDocPtr doc = xmlNewDoc(BAD_CAST "1.0");
    xmlNodePtr root = xmlNewNode(NULL, BAD_CAST "ddi-spec");
    xmlDocSetRootElement(doc, root);
    set(root, "version", "1");
    ddi_layout_to_xml(l, root);
    int rc = spec_write(doc, path);
    xmlFreeDoc(doc);
    return rc;
}
