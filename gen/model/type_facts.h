/* The size and scalar class of a field's or typedef's type, as the layout
 * stage asked clang (type-bytes, scalar, enum on the element, or a
 * <type-size> child per architecture and versions where they differ).
 * The one reader of those facts: no stage guesses them from a spelling. */
#ifndef DDIGEN_MODEL_TYPE_FACTS_H
#define DDIGEN_MODEL_TYPE_FACTS_H

#include "vset.h"

enum ddi_type_class {
    DDI_TYPE_UNKNOWN, /* the spec does not say (written before the facts) */
    DDI_TYPE_SIGNED,
    DDI_TYPE_UNSIGNED,
    DDI_TYPE_POINTER,
    DDI_TYPE_FLOAT,
    DDI_TYPE_RECORD,
    DDI_TYPE_OTHER, /* a type clang gives no class (an array of functions...) */
};

struct ddi_type_fact {
    unsigned bytes; /* 0 when unknown; of one element for an array */
    enum ddi_type_class cls;
    int is_enum;
};

/* The facts of field (or typedef) n on architecture arch at version index
 * version (-1: the first <type-size> of the arch, whatever its versions). */
struct ddi_type_fact ddi_type_fact_at(const struct ddi_versions *v, xmlNodePtr n, const char *arch, int version);
/* The facts of n with one of its <type-size> children applied (NULL: n's
 * own), what ddi_type_fact_at gives where that child is the one chosen. */
struct ddi_type_fact ddi_type_fact_with(xmlNodePtr n, xmlNodePtr type_size);

/* An integer, enum or pointer: a value a check or a trace can read. */
static inline int ddi_type_is_integer(const struct ddi_type_fact *f)
{
    return f->bytes && (f->cls == DDI_TYPE_SIGNED || f->cls == DDI_TYPE_UNSIGNED || f->cls == DDI_TYPE_POINTER);
}

#endif
