/* A record's raw bytes rebuilt from a trace for one arch and DDI version,
 * from the offsets of the spec's model (gen/model): what the rule evaluator
 * reads (rules_hook.h). */
#ifndef DDIGEN_TRACE_IMAGE_H
#define DDIGEN_TRACE_IMAGE_H

#include "model/model.h"

#include <libxml/tree.h>
#include <stddef.h>
#include <stdint.h>

struct trace_layout {
    xmlDocPtr spec;
    struct ddi_model *model; /* owned: trace_layout_free */
    const char *arch; /* x86, x64, arm64 */
    int arch_index;   /* index among the spec's <arch>s, -1 when it lists none */
    int version;      /* index into the spec's <version> list */
    const char *version_name;
    const struct ddi_versions *versions; /* the model's */
};

/* 0, or -1 after reporting an unknown arch or version (or no memory). */
int trace_layout_init(struct trace_layout *l, xmlDocPtr spec, const char *arch, const char *version);
void trace_layout_free(struct trace_layout *l);
/* Whether an element with a versions= attribute exists in l's version. */
int trace_layout_has(const struct trace_layout *l, xmlNodePtr e);
/* The size of a top-level record in l, or 0 when it has none there. */
size_t trace_record_size(const struct trace_layout *l, xmlNodePtr record);
/* The bit offset of a field in l (from the start of its top-level record),
 * or -1 when it has none there. */
long trace_field_offset(const struct trace_layout *l, xmlNodePtr field);
/* The width in bits of a scalar field in l, or 0 when it is not a scalar. */
unsigned trace_field_width(const struct trace_layout *l, xmlNodePtr field);
/* Stores value into image at bit offset with width bits (little-endian). */
void trace_image_put(uint8_t *image, size_t size, long bit, unsigned width, uint64_t value);

#endif
