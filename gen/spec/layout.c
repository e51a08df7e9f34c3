/* Layout model helpers: architecture names, value sets, version text. */
#include "layout.h"

#include "../model/vset.h"

#include "../util/strbuf.h"

#include <string.h>

static const char *const arch_names[DDI_ARCH_COUNT] = {"x86", "x64", "arm64"};

const char *ddi_arch_name(enum ddi_arch arch)
{
    return arch < DDI_ARCH_COUNT ? arch_names[arch] : "?";
}

int ddi_arch_parse(const char *name, enum ddi_arch *arch)
{
    for (int i = 0; i < DDI_ARCH_COUNT; i++)
        if (strcmp(name, arch_names[i]) == 0) {
            *arch = (enum ddi_arch)i;
            return 0;
        }
    return -1;
}

const char *ddi_scalar_name(enum ddi_scalar s)
{
    static const char *const names[DDI_SCALAR_COUNT] = {NULL, "signed", "unsigned", "pointer", "float", "record"};
    return s < DDI_SCALAR_COUNT ? names[s] : NULL;
}

void ddi_values_add(struct arena *a, struct ddi_values *v, enum ddi_arch arch, unsigned version, uint64_t x,
                    uint64_t y)
{
    for (size_t i = 0; i < v->len; i++)
        if (v->items[i].arch == arch && v->items[i].a == x && v->items[i].b == y) {
            v->items[i].versions |= 1ull << version;
            return;
        }
    if (v->len == v->cap) {
        size_t cap = v->cap ? v->cap * 2 : 4;
        struct ddi_value *items = arena_alloc(a, cap * sizeof *items);
        if (v->len)
            memcpy(items, v->items, v->len * sizeof *items);
        v->items = items;
        v->cap = cap;
    }
    v->items[v->len++] = (struct ddi_value){arch, 1ull << version, x, y};
}

const char *ddi_version_short(const struct ddi_version *v)
{
    static const char prefix[] = "DXGKDDI_INTERFACE_VERSION_";
    return strncmp(v->name, prefix, sizeof prefix - 1) == 0 ? v->name + sizeof prefix - 1 : v->name;
}

char *ddi_versions_text(struct arena *a, const struct ddi_layout *l, uint64_t mask)
{
    struct ddi_versions names = {.n = l->nversions};
    for (unsigned i = 0; i < l->nversions; i++)
        names.short_name[i] = ddi_version_short(&l->versions[i]);
    if ((mask & ddi_vset_all(&names)) == ddi_vset_all(&names))
        return NULL;
    struct strbuf sb = {0};
    ddi_vset_text(&names, mask, &sb);
    char *out = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return out;
}

static void free_record(struct ddi_record *r)
{
    for (size_t i = 0; i < r->fields.len; i++) {
        struct ddi_field *f = r->fields.items[i];
        if (f->nested)
            free_record(f->nested);
    }
    vec_free(&r->fields);
}

void ddi_layout_free(struct ddi_layout *l)
{
    for (size_t i = 0; i < l->records.len; i++)
        free_record(l->records.items[i]);
    for (size_t i = 0; i < l->enums.len; i++)
        vec_free(&((struct ddi_enum *)l->enums.items[i])->values);
    for (size_t i = 0; i < l->functypes.len; i++)
        vec_free(&((struct ddi_functype *)l->functypes.items[i])->params);
    vec_free(&l->records);
    vec_free(&l->enums);
    vec_free(&l->typedefs);
    vec_free(&l->functypes);
    strmap_free(&l->merge_index); /* left over when ingestion failed midway */
    arena_free(&l->merge_arena);
    arena_free(&l->arena);
}
