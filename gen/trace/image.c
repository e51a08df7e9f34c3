/* Rebuilding a record's bytes from the spec's layout (see image.h). */
#include "image.h"

#include "model/type_facts.h"
#include "model/specxml.h"
#include "util/diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *attr(xmlNodePtr e, const char *name)
{
    return (char *)xmlGetProp(e, BAD_CAST name);
}

int trace_layout_init(struct trace_layout *l, xmlDocPtr spec, const char *arch, const char *version)
{
    l->spec = spec;
    ddi_versions_read(&l->versions, sx_part(spec, "layout"));
    l->arch = arch ? arch : "x64";
    if (strcmp(l->arch, "x86") && strcmp(l->arch, "x64") && strcmp(l->arch, "arm64")) {
        ddigen_error(NULL, 0, "trace: unknown arch '%s' (x86, x64, arm64)", l->arch);
        return -1;
    }
    l->arch_index = ddi_arch_find(&l->versions, l->arch, strlen(l->arch));
    if (version) {
        l->version = ddi_version_find(&l->versions, version, strlen(version));
        if (l->version < 0) {
            ddigen_error(NULL, 0, "trace: the spec has no DDI version '%s' (short names, e.g. WDDM3_1)", version);
            return -1;
        }
        l->version_name = version;
        return 0;
    }
    /* The latest version of the spec. */
    l->version = (int)l->versions.n - 1;
    l->version_name = l->versions.n ? l->versions.short_name[l->versions.n - 1] : NULL;
    return 0;
}

int trace_layout_has(const struct trace_layout *l, xmlNodePtr e)
{
    /* A spec without versions (a --header layout) gates nothing by version. */
    int in_version = l->version < 0 ? !sx_get(e, "versions") : ddi_vset_has(ddi_vset_attr(&l->versions, e), l->version);
    return in_version &&
           (l->arch_index < 0 || (ddi_archset_attr(&l->versions, e) >> l->arch_index & 1));
}

/* The first child named `name` for l's arch and version; its attribute. */
static long value_for(const struct trace_layout *l, xmlNodePtr e, const char *name, const char *value_attr)
{
    for (xmlNodePtr c = e->children; c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE || strcmp((const char *)c->name, name))
            continue;
        char *arch = attr(c, "arch");
        int match = arch && !strcmp(arch, l->arch) && trace_layout_has(l, c);
        xmlFree(arch);
        if (match) {
            char *v = attr(c, value_attr);
            long n = v ? strtol(v, NULL, 10) : -1;
            xmlFree(v);
            return n;
        }
    }
    return -1;
}

size_t trace_record_size(const struct trace_layout *l, xmlNodePtr record)
{
    long n = value_for(l, record, "size", "bytes");
    return n > 0 ? (size_t)n : 0;
}

long trace_field_offset(const struct trace_layout *l, xmlNodePtr field)
{
    return value_for(l, field, "offset", "bits");
}

unsigned trace_field_width(const struct trace_layout *l, xmlNodePtr field)
{
    const char *bits = sx_get(field, "bits");
    if (bits)
        return (unsigned)strtoul(bits, NULL, 10);
    if (sx_get(field, "array"))
        return 0;
    struct ddi_type_fact f = ddi_type_fact_at(&l->versions, field, l->arch, l->version);
    return ddi_type_is_integer(&f) ? f.bytes * 8 : 0;
}

void trace_image_put(uint8_t *image, size_t size, long bit, unsigned width, uint64_t value)
{
    if (bit < 0 || width == 0 || width > 64 || (uint64_t)bit + width > (uint64_t)size * 8u)
        return;
    for (unsigned i = 0; i < width; i++) {
        size_t b = (size_t)bit + i;
        uint8_t mask = (uint8_t)(1u << (b % 8u));
        if ((value >> i) & 1u)
            image[b / 8u] |= mask;
        else
            image[b / 8u] &= (uint8_t)~mask;
    }
}
