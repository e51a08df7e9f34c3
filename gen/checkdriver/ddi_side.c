/* The spec's callback roles for check-driver: function types through the
 * one model (model.h), the calling convention and the pages' IRQL from
 * their elements. */
#include "ddi_side.h"

#include "../model/irql.h"
#include "../model/specxml.h"
#include "../spec/schema.h"
#include "../util/diag.h"

#include <ctype.h>
#include <string.h>

int ddi_side_load(struct ddi_side *d, const char *spec_path)
{
    memset(d, 0, sizeof *d);
    d->doc = spec_load(spec_path);
    if (!d->doc)
        return -1;
    d->model = ddi_model_load(d->doc);
    if (!d->model) {
        ddigen_error(spec_path, 0, "out of memory reading the spec");
        return -1;
    }
    /* The page's IRQL (req.irql) is what the skeleton follows too
     * (docs/ARCHITECTURE.md, the DDI skeleton); the typedef's annotation
     * stands in where no page says. */
    for (xmlNodePtr p = sx_child(sx_part(d->doc, "docs"), "page"); p; p = sx_next(p, "page")) {
        const char *name = sx_get(p, "name"), *irql = sx_get(p, "irql");
        if (name && irql && !strmap_get(&d->page_irql, name))
            strmap_put(&d->page_irql, name, (void *)irql);
    }
    return 0;
}

void ddi_side_free(struct ddi_side *d)
{
    ddi_model_free(d->model);
    xmlFreeDoc(d->doc);
    strmap_free(&d->page_irql);
    strmap_free(&d->roles);
    arena_free(&d->arena);
    memset(d, 0, sizeof *d);
}

static int mentions(const char *text, const char *word)
{
    return strstr(text, word) != NULL;
}

enum irql_class irql_classify(const char *text)
{
    if (!text)
        return IRQL_UNKNOWN;
    char upper[256];
    size_t n = 0;
    for (; text[n] && n + 1 < sizeof upper; n++)
        upper[n] = (char)toupper((unsigned char)text[n]);
    upper[n] = '\0';
    /* "< DISPATCH_LEVEL" (the pages' spelling for RecommendMonitorModes and
     * two others) is strictly below the level it names: at most APC_LEVEL,
     * where paged code may run, not DISPATCH_LEVEL. */
    const char *t = upper + strspn(upper, " ");
    if (t[0] == '<' && t[1] != '=') {
        t += 1 + strspn(t + 1, " ");
        if (strncmp(t, "DISPATCH", sizeof "DISPATCH" - 1) == 0)
            return IRQL_APC;
        if (strncmp(t, "APC", sizeof "APC" - 1) == 0)
            return IRQL_PASSIVE;
    }
    /* The highest level a text allows decides: "PASSIVE_LEVEL or
     * DISPATCH_LEVEL" allows DISPATCH_LEVEL. */
    static const char *const raised[] = {"DISPATCH", "DIRQL", "HIGH_LEVEL", "PROFILE", "INTERRUPT", "CLOCK", "IPI"};
    for (size_t i = 0; i < sizeof raised / sizeof raised[0]; i++)
        if (mentions(upper, raised[i]))
            return IRQL_DISPATCH_OR_ABOVE;
    if (mentions(upper, "APC"))
        return IRQL_APC;
    if (mentions(upper, "PASSIVE"))
        return IRQL_PASSIVE;
    return IRQL_UNKNOWN;
}

/* The IRQL a typedef's SAL requires (model/irql.h): the exact level, else
 * the maximum; _IRQL_requires_min_ says nothing about paging. The level
 * (arena) or NULL. */
static const char *sal_irql(struct arena *a, const char *sal)
{
    struct ddi_irql irql;
    ddi_irql_from_sal(sal, &irql);
    const char *level = irql.exact[0] ? irql.exact : irql.max;
    return level[0] ? arena_strdup(a, level) : NULL;
}

static struct ddi_role *make_role(struct ddi_side *d, const struct ddi_model_functype *ft)
{
    struct ddi_role *r = arena_alloc(&d->arena, sizeof *r);
    r->ft = ft;
    r->callconv = sx_get(ft->node, "callconv");
    const char *page = strmap_get(&d->page_irql, ft->name);
    if (page && irql_classify(page) != IRQL_UNKNOWN) {
        r->irql_text = page;
    } else {
        const char *sal = sal_irql(&d->arena, ft->sal);
        r->irql_text = sal ? sal : page;
    }
    r->irql = irql_classify(r->irql_text);
    return r;
}

const struct ddi_role *ddi_side_role(struct ddi_side *d, const char *typedef_name)
{
    const struct ddi_model_functype *ft = ddi_model_functype(d->model, typedef_name);
    if (ft && ft->pointer_to)
        ft = ddi_model_functype(d->model, ft->pointer_to);
    if (!ft || ft->pointer_to || sx_get(ft->node, "pointer"))
        return NULL; /* DXGKCB_X typedefs are pointers already: no function is declared with them */
    struct ddi_role *r = strmap_get(&d->roles, ft->name);
    if (!r) {
        r = make_role(d, ft);
        strmap_put(&d->roles, ft->name, r);
    }
    return r;
}
