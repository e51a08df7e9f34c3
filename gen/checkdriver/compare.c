/* Definitions against their DDI roles; see compare.h. */
#include "compare.h"

#include "../util/clang_api.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

const struct sarif_rule cd_rules[CD_KIND_COUNT] = {
    [CD_CALLCONV] = {"callconv-mismatch", "CallingConventionMismatch",
                     "A callback is defined with another calling convention than its DDI typedef (x86: the "
                     "kernel calls __stdcall where the typedef says APIENTRY).",
                     SARIF_ERROR},
    [CD_PARAM_COUNT] = {"param-count-mismatch", "ParameterCountMismatch",
                        "A callback takes another number of parameters than its DDI typedef.", SARIF_ERROR},
    [CD_PARAM_TYPE] = {"param-type-mismatch", "ParameterTypeMismatch",
                       "A callback's parameter has another type (canonical, const included) than its DDI typedef's.",
                       SARIF_ERROR},
    [CD_RESULT_TYPE] = {"result-type-mismatch", "ResultTypeMismatch",
                        "A callback returns another type than its DDI typedef.", SARIF_ERROR},
    [CD_SAL] = {"sal-mismatch", "SalMismatch",
                "A callback's definition spells another SAL annotation on a parameter than its DDI typedef.",
                SARIF_WARNING},
    [CD_PAGED_CODE_MISSING] = {"paged-code-missing", "PagedCodeMissing",
                               "A callback placed in a PAGE section has no PAGED_CODE() in its body.", SARIF_WARNING},
    [CD_PAGEABLE_RAISED] = {"pageable-above-passive", "PageableAboveApcLevel",
                            "A callback placed in a PAGE section may be called at DISPATCH_LEVEL or above, "
                            "where a page fault is a bug check.",
                            SARIF_ERROR},
};

/* The roles bound to one function name, whoever bound them. */
struct bound_roles {
    const char *roles[8];
    unsigned count;
};

struct comparison {
    struct ddi_side *ddi;
    struct cd_findings *out;
    struct strmap bound; /* function -> struct bound_roles* */
    struct strmap seen;  /* file:line:col|role: a definition compared once */
};

static const char *callconv_name(int cc)
{
    switch (cc) {
    case CXCallingConv_C: return "__cdecl";
    case CXCallingConv_X86StdCall: return "__stdcall";
    case CXCallingConv_X86FastCall: return "__fastcall";
    case CXCallingConv_X86ThisCall: return "__thiscall";
    case CXCallingConv_X86VectorCall: return "__vectorcall";
    default: return "another calling convention";
    }
}

static void add(struct comparison *c, enum cd_kind kind, const struct cd_definition *d, const struct cd_loc *at,
                const struct cd_signature *sig, const char *fingerprint, const char *message)
{
    struct cd_finding *f = arena_alloc(&c->out->arena, sizeof *f);
    f->kind = kind;
    f->at = *at;
    if (sig)
        f->ddi_at = sig->at;
    f->message = message;
    f->fingerprint = arena_printf(&c->out->arena, "%s|%s|%s", cd_rules[kind].id, d->function, fingerprint);
    vec_push(&c->out->items, f);
    if (cd_rules[kind].level == SARIF_ERROR)
        c->out->errors++;
    else
        c->out->warnings++;
}

static void compare_signature(struct comparison *c, const struct cd_definition *d, const char *role,
                              const struct cd_signature *sig)
{
    struct arena *a = &c->out->arena;
    if (d->sig.callconv != sig->callconv)
        add(c, CD_CALLCONV, d, &d->at, sig, role,
            arena_printf(a, "%s is defined %s, but its DDI %s is %s", d->function, callconv_name(d->sig.callconv), role,
                         callconv_name(sig->callconv)));
    if (strcmp(d->sig.result, sig->result))
        add(c, CD_RESULT_TYPE, d, &d->at, sig, role,
            arena_printf(a, "%s returns '%s', but its DDI %s returns '%s'", d->function, d->sig.result, role,
                         sig->result));
    if (d->sig.nparams != sig->nparams) {
        add(c, CD_PARAM_COUNT, d, &d->at, sig, role,
            arena_printf(a, "%s takes %u parameters, but its DDI %s takes %u", d->function, d->sig.nparams, role,
                         sig->nparams));
        return;
    }
    for (unsigned i = 0; i < sig->nparams; i++)
        if (strcmp(d->sig.params[i], sig->params[i]))
            add(c, CD_PARAM_TYPE, d, &d->params[i].at, sig, arena_printf(a, "%s.%u", role, i + 1),
                arena_printf(a, "parameter %u '%s' of %s is '%s', but its DDI %s has '%s'", i + 1, d->params[i].name,
                             d->function, d->sig.params[i], role, sig->params[i]));
}

/* SAL without the spaces its spelling may have. */
static const char *sal_key(struct arena *a, const char *sal)
{
    char *out = arena_strdup(a, sal ? sal : ""), *w = out;
    for (const char *r = out; *r; r++)
        if (!isspace((unsigned char)*r))
            *w++ = *r;
    *w = '\0';
    return out;
}

static void compare_sal(struct comparison *c, const struct cd_definition *d, const struct ddi_role *role,
                        const struct cd_signature *sig)
{
    if (d->use_decl_annotations)
        return; /* the definition takes the declaration's annotations */
    struct arena *a = &c->out->arena;
    for (size_t i = 0; i < role->ft->nparams && i < d->sig.nparams; i++) {
        const char *spelled = d->params[i].sal, *ddi = role->ft->params[i].sal;
        if (!spelled)
            continue; /* nothing spelled: nothing to differ */
        if (strcmp(sal_key(a, spelled), sal_key(a, ddi)))
            add(c, CD_SAL, d, &d->params[i].at, sig, arena_printf(a, "%s.%zu", role->ft->name, i + 1),
                arena_printf(a, "parameter %zu '%s' of %s is annotated '%s', but its DDI %s has '%s'", i + 1,
                             d->params[i].name, d->function, spelled, role->ft->name, ddi ? ddi : "(none)"));
    }
}

static void compare_paging(struct comparison *c, const struct cd_definition *d, const struct ddi_role *role,
                           const struct cd_signature *sig)
{
    if (!d->segment || strncmp(d->segment, "PAGE", 4))
        return;
    struct arena *a = &c->out->arena;
    const char *name = role->ft->name;
    if (role->irql == IRQL_DISPATCH_OR_ABOVE)
        add(c, CD_PAGEABLE_RAISED, d, &d->at, sig, name,
            arena_printf(a, "%s is pageable (%s, by %s), but its DDI %s is called at %s", d->function, d->segment,
                         d->segment_how, name, role->irql_text));
    else if ((role->irql == IRQL_PASSIVE || role->irql == IRQL_APC) && !d->paged_code)
        add(c, CD_PAGED_CODE_MISSING, d, &d->at, sig, name,
            arena_printf(a, "%s is pageable (%s, by %s) but has no PAGED_CODE(); its DDI %s is called at %s",
                         d->function, d->segment, d->segment_how, name, role->irql_text));
}

static void compare_definition(struct comparison *c, const struct cd_definition *d)
{
    const struct bound_roles *b = strmap_get(&c->bound, d->function);
    for (unsigned i = 0; b && i < b->count; i++) {
        const char *key =
            arena_printf(&c->out->arena, "%s:%u:%u|%s", d->at.file, d->at.line, d->at.column, b->roles[i]);
        if (strmap_get(&c->seen, key))
            continue;
        strmap_put(&c->seen, key, (void *)key);
        const struct ddi_role *role = ddi_side_role(c->ddi, b->roles[i]);
        const struct cd_signature *sig = strmap_get(&d->unit->role_sigs, b->roles[i]);
        if (!role)
            continue;
        if (sig)
            compare_signature(c, d, b->roles[i], sig);
        else if (d->sig.nparams != role->ft->nparams) /* the unit never saw the typedef: the spec's count */
            add(c, CD_PARAM_COUNT, d, &d->at, NULL, b->roles[i],
                arena_printf(&c->out->arena, "%s takes %u parameters, but its DDI %s takes %zu", d->function,
                             d->sig.nparams, b->roles[i], role->ft->nparams));
        compare_sal(c, d, role, sig);
        compare_paging(c, d, role, sig);
    }
}

static void bind(struct comparison *c, const struct cd_binding *b)
{
    struct bound_roles *r = strmap_get(&c->bound, b->function);
    if (!r) {
        r = arena_alloc(&c->out->arena, sizeof *r);
        strmap_put(&c->bound, b->function, r);
    }
    for (unsigned i = 0; i < r->count; i++)
        if (!strcmp(r->roles[i], b->role))
            return;
    if (r->count < sizeof r->roles / sizeof r->roles[0])
        r->roles[r->count++] = b->role;
}

static int by_place(const void *pa, const void *pb)
{
    const struct cd_finding *a = *(struct cd_finding *const *)pa, *b = *(struct cd_finding *const *)pb;
    int d = strcmp(a->at.file, b->at.file);
    if (d)
        return d;
    if (a->at.line != b->at.line)
        return a->at.line < b->at.line ? -1 : 1;
    if (a->at.column != b->at.column)
        return a->at.column < b->at.column ? -1 : 1;
    return a->kind != b->kind ? (a->kind < b->kind ? -1 : 1) : strcmp(a->fingerprint, b->fingerprint);
}

void cd_compare(struct ddi_side *ddi, struct cd_unit *units, size_t nunits, struct cd_findings *out)
{
    memset(out, 0, sizeof *out);
    struct comparison c = {.ddi = ddi, .out = out};
    for (size_t u = 0; u < nunits; u++)
        for (size_t i = 0; i < units[u].bindings.len; i++)
            bind(&c, units[u].bindings.items[i]);
    for (size_t u = 0; u < nunits; u++)
        for (size_t i = 0; i < units[u].definitions.len; i++)
            compare_definition(&c, units[u].definitions.items[i]);
    if (out->items.len > 1)
        qsort(out->items.items, out->items.len, sizeof *out->items.items, by_place);
    strmap_free(&c.bound);
    strmap_free(&c.seen);
}

void cd_findings_free(struct cd_findings *f)
{
    vec_free(&f->items);
    arena_free(&f->arena);
}
