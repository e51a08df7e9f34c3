/* Lifetime of a configuration's findings: everything lives in its arena
 * except the vectors, which are freed here. */
#include "config_model.h"

static void free_record(struct cfg_record *r)
{
    for (size_t i = 0; i < r->fields.len; i++) {
        struct cfg_field *f = r->fields.items[i];
        if (f->nested)
            free_record(f->nested); /* depth bounded by the extractor */
    }
    vec_free(&r->fields);
}

void cfg_model_free(struct cfg_model *m)
{
    for (size_t i = 0; i < m->records.len; i++)
        free_record(m->records.items[i]);
    for (size_t i = 0; i < m->enums.len; i++)
        vec_free(&((struct cfg_enum *)m->enums.items[i])->values);
    for (size_t i = 0; i < m->functypes.len; i++)
        vec_free(&((struct cfg_functype *)m->functypes.items[i])->params);
    vec_free(&m->records);
    vec_free(&m->invalid);
    vec_free(&m->enums);
    vec_free(&m->typedefs);
    vec_free(&m->functypes);
    arena_free(&m->arena);
}
