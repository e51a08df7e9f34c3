/* Buffers the header sizes in SAL: a pointer field annotated
 * _Field_size_(N) or _Field_size_bytes_(N) points to N elements (bytes), so
 * it is not NULL when N is nonzero (a nonnull-when check, when=N!=0). Only
 * the plain annotations (an _opt_ one allows NULL) naming one sibling field,
 * and only a pointer the caller alone sets, as the header's enum types are read
 * in enum_values.c: every doubt leaves the field out, with the reason. */
#include "kinds.h"

#include "../util/arena.h"

#include <ctype.h>
#include <string.h>

/* The field an annotation names (exactly one identifier), or NULL. */
static const char *size_field(struct arena *a, const char *sal)
{
    static const char *const forms[] = {"_Field_size_(", "_Field_size_bytes_("};
    for (size_t i = 0; sal && i < sizeof forms / sizeof forms[0]; i++) {
        const char *at = strstr(sal, forms[i]);
        if (!at || (at != sal && !isspace((unsigned char)at[-1])))
            continue;
        const char *arg = at + strlen(forms[i]), *end = arg;
        while (isalnum((unsigned char)*end) || *end == '_')
            end++;
        if (end == arg || *end != ')')
            return NULL;
        return arena_strndup(a, arg, (size_t)(end - arg));
    }
    return NULL;
}

/* A field's path and chain from rec into f (0), or -1. */
static int resolve_field(struct rules_lowering *lw, const struct ddi_model_record *rec, const char *path,
                         struct rules_field *f)
{
    struct ddi_model_chain chain;
    if (ddi_model_resolve(rules_model(lw), rec, path, &chain) != 0)
        return -1;
    return rules_field(lw, path, &chain, f);
}

int rules_lower_sal_size(struct rules_lowering *lw, const struct ddi_model_record *rec,
                         const struct ddi_model_field *f, int in_selected_member, unsigned dir,
                         struct rules_check *c, const char **reason)
{
    struct arena *a = rules_arena(lw);
    const char *size = f->path && *f->path && f->name ? size_field(a, f->sal) : NULL;
    if (!size)
        return 0;
    c->id = arena_printf(a, "%s.%s:nonnull-when:sal", rec->name, f->path);
    c->kind = "nonnull-when";
    c->kind_id = DDI_RULE_NONNULL_WHEN;
    c->how = &rules_kinds[DDI_RULE_NONNULL_WHEN];
    c->page = rec->file;
    c->line = (long)f->line;
    c->sentence = arena_printf(a, "%s is %s in the header: it points to %s %s, so it is not NULL when %s is nonzero.",
                               f->path, f->sal, size, strstr(f->sal, "_bytes_") ? "bytes" : "elements", size);
    /* the size is a sibling: the same path up to the pointer's own name */
    const char *size_path = arena_printf(a, "%.*s%s", (int)(strlen(f->path) - strlen(f->name)), f->path, size);
    *reason = NULL;
    for (const struct ddi_model_record *o = f->owner; o && !*reason; o = o->holder ? o->holder->owner : NULL)
        if (o->is_union && !in_selected_member)
            *reason = "lies in a union: another member may hold its bytes";
    if (!*reason && !dir)
        *reason = "neither the page nor the header marks it [in]: who sets it is a guess";
    if (!*reason && !(dir & RULES_DIR_IN))
        *reason = "the driver writes it: what it leaves NULL on return is not checked";
    /* in/out (pDmaBuffer, which the driver advances): the pair may be
     * reset by protocol ("pDmaBuffer is set to NULL" for page-table
     * initialisation), which the annotation does not say */
    if (!*reason && dir != RULES_DIR_IN)
        *reason = "the driver writes it too (in/out): the annotation does not say which state it sizes";
    if (!*reason && (resolve_field(lw, rec, f->path, &c->subject) != 0 || !c->subject.pointer))
        *reason = "not a pointer field";
    struct rules_cond *k = &c->when[0];
    memset(k, 0, sizeof *k);
    if (!*reason && (resolve_field(lw, rec, size_path, &k->field) != 0 || k->field.pointer))
        *reason = arena_printf(a, "the size %s is not a scalar field beside it", size);
    if (*reason)
        return 1;
    k->op = RULES_WHEN_SET;
    c->nwhen = 1;
    c->versions &= c->subject.versions & k->field.versions;
    c->archs &= c->subject.archs & k->field.archs;
    if (!c->versions || !c->archs)
        *reason = "its fields never exist together";
    return 1;
}
