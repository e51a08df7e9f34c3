/* Reading the layout stage's type facts (type_facts.h). */
#include "type_facts.h"
#include "specxml.h"

#include <stdlib.h>
#include <string.h>

static enum ddi_type_class class_of(const char *s)
{
    static const char *const names[] = {"", "signed", "unsigned", "pointer", "float", "record"};
    if (!s)
        return DDI_TYPE_UNKNOWN;
    for (size_t i = 1; i < sizeof names / sizeof *names; i++)
        if (!strcmp(s, names[i]))
            return (enum ddi_type_class)i;
    return DDI_TYPE_OTHER;
}

/* Facts an element states override what f holds. */
static void read_facts(xmlNodePtr n, struct ddi_type_fact *f)
{
    const char *bytes = sx_get(n, "type-bytes"), *cls = sx_get(n, "scalar"),
               *is_enum = sx_get(n, "enum");
    if (bytes)
        f->bytes = (unsigned)strtoul(bytes, NULL, 10);
    if (cls)
        f->cls = class_of(cls);
    if (is_enum)
        f->is_enum = !strcmp(is_enum, "true");
}

struct ddi_type_fact ddi_type_fact_with(xmlNodePtr n, xmlNodePtr type_size)
{
    struct ddi_type_fact f = {0, DDI_TYPE_UNKNOWN, 0};
    read_facts(n, &f);
    if (type_size)
        read_facts(type_size, &f);
    if (f.cls == DDI_TYPE_UNKNOWN && f.bytes && !sx_get(n, "scalar"))
        f.cls = DDI_TYPE_OTHER; /* sized, but clang gave it no class */
    return f;
}

struct ddi_type_fact ddi_type_fact_at(const struct ddi_versions *v, xmlNodePtr n, const char *arch, int version)
{
    for (xmlNodePtr c = n ? n->children : NULL; c; c = c->next) {
        if (!sx_is(c, "type-size"))
            continue;
        const char *a = sx_get(c, "arch");
        if (!a || strcmp(a, arch))
            continue;
        if (version >= 0 && !ddi_vset_has(ddi_vset_attr(v, c), version))
            continue;
        return ddi_type_fact_with(n, c);
    }
    return ddi_type_fact_with(n, NULL);
}
