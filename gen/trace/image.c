/* Rebuilding a record's bytes from the spec's model (see image.h): every
 * offset, size and width is looked up in the model, none parsed here. */
#include "image.h"

#include "util/diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int trace_layout_init(struct trace_layout *l, xmlDocPtr spec, const char *arch, const char *version)
{
    memset(l, 0, sizeof *l);
    l->spec = spec;
    l->arch = arch ? arch : "x64";
    if (strcmp(l->arch, "x86") && strcmp(l->arch, "x64") && strcmp(l->arch, "arm64")) {
        ddigen_error(NULL, 0, "trace: unknown arch '%s' (x86, x64, arm64)", l->arch);
        return -1;
    }
    l->model = ddi_model_load(spec);
    if (!l->model) {
        ddigen_error(NULL, 0, "trace: out of memory");
        return -1;
    }
    l->versions = &l->model->where;
    l->arch_index = ddi_arch_find(l->versions, l->arch, strlen(l->arch));
    if (version) {
        l->version = ddi_version_find(l->versions, version, strlen(version));
        if (l->version < 0) {
            ddigen_error(NULL, 0, "trace: the spec has no DDI version '%s' (short names, e.g. WDDM3_1)", version);
            return -1;
        }
        l->version_name = version;
        return 0;
    }
    /* The latest version of the spec. */
    l->version = (int)l->versions->n - 1;
    l->version_name = l->versions->n ? l->versions->short_name[l->versions->n - 1] : NULL;
    return 0;
}

void trace_layout_free(struct trace_layout *l)
{
    ddi_model_free(l->model);
    l->model = NULL;
    l->versions = NULL;
}

static int holds(const struct trace_layout *l, ddi_vset versions, ddi_archset archs)
{
    return ddi_vset_has(versions, l->version) && (l->arch_index < 0 || (archs >> l->arch_index & 1));
}

int trace_layout_has(const struct trace_layout *l, xmlNodePtr e)
{
    const struct ddi_model_field *f = l->version >= 0 ? ddi_model_field_of(l->model, e) : NULL;
    if (f)
        return holds(l, f->versions, f->archs);
    /* Enumerators, and any element of a spec without versions (a --header
     * layout gates nothing by version). */
    int in_version = l->version < 0 ? !xmlHasProp(e, BAD_CAST "versions")
                                    : ddi_vset_has(ddi_vset_attr(l->versions, e), l->version);
    return in_version && (l->arch_index < 0 || (ddi_archset_attr(l->versions, e) >> l->arch_index & 1));
}

size_t trace_record_size(const struct trace_layout *l, xmlNodePtr record)
{
    const struct ddi_model_record *r = ddi_model_record_of(l->model, record);
    if (!r || l->arch_index < 0)
        return 0;
    const struct ddi_model_measure *s = ddi_model_measure_at(&r->sizes[l->arch_index], l->version);
    return s && s->value > 0 ? (size_t)s->value : 0;
}

long trace_field_offset(const struct trace_layout *l, xmlNodePtr field)
{
    const struct ddi_model_field *f = ddi_model_field_of(l->model, field);
    return f ? ddi_model_offset(f, l->arch_index, l->version) : -1;
}

unsigned trace_field_width(const struct trace_layout *l, xmlNodePtr field)
{
    const struct ddi_model_field *f = ddi_model_field_of(l->model, field);
    if (!f)
        return 0;
    if (f->bitfield)
        return (unsigned)f->bits;
    if (f->array)
        return 0;
    struct ddi_type_fact t = ddi_model_fact(f, l->arch_index, l->version);
    return ddi_type_is_integer(&t) ? t.bytes * 8 : 0;
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
