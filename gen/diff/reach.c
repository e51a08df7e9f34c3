/* The diff's scope (reach.h). */
#include "reach.h"

#include "../emit/skeleton_opts.h"
#include "../model/model.h"
#include "../model/specxml.h"
#include "../util/diag.h"

#include <stdio.h>
#include <string.h>

static int is_kernel(xmlNodePtr node)
{
    const char *referenced = node ? sx_get(node, "referenced") : NULL;
    return referenced && !strcmp(referenced, "true");
}

int diff_reach_init(struct diff_reach *r, const struct ddi_model *old_m, const struct ddi_model *new_m,
                    xmlDocPtr new_doc, const char *new_name, const char *const *params, int kernel)
{
    memset(r, 0, sizeof *r);
    r->kernel = kernel;
    r->m[0] = old_m;
    r->m[1] = new_m;
    r->driver = params && emit_scope_wanted(params);
    if (!r->driver)
        return 0;
    if (skeleton_check_params(new_doc, new_name, params) != 0)
        return -1;
    /* A record --records names that only NEW has is no error on OLD: the
     * list is the driver's today. OLD's complaints are dropped, uncounted. */
    struct ddigen_diag_held old_messages = {0};
    unsigned errors = ddigen_diag_global.errors, warnings = ddigen_diag_global.warnings;
    ddigen_diag_hold(&old_messages);
    emit_scope_compute(&r->s[0], old_m, params, NULL);
    ddigen_diag_hold(NULL);
    ddigen_diag_discard_held(&old_messages);
    ddigen_diag_global.errors = errors;
    ddigen_diag_global.warnings = warnings;
    return emit_scope_compute(&r->s[1], new_m, params, new_name);
}

void diff_reach_free(struct diff_reach *r)
{
    emit_scope_free(&r->s[0]);
    emit_scope_free(&r->s[1]);
}

static int named(const struct diff_reach *r, const char *name, int types)
{
    for (int i = 0; i < 2; i++)
        if (name && strmap_get(types ? &r->s[i].types : &r->s[i].names, name))
            return 1;
    return 0;
}

int diff_reach_record(const struct diff_reach *r, const struct ddi_model_record *rec)
{
    if (!r->kernel && is_kernel(rec->node))
        return 0;
    return !r->driver || named(r, rec->name, 0);
}

int diff_reach_enum(const struct diff_reach *r, const struct ddi_model_enum *e)
{
    if (!r->kernel && is_kernel(e->node))
        return 0;
    return !r->driver || named(r, e->name, 1);
}

int diff_reach_type(const struct diff_reach *r, const char *name)
{
    return !r->driver || named(r, name, 1);
}

int diff_reach_rule(const struct diff_reach *r, const char *id)
{
    if (!r->driver)
        return 1;
    char page[256];
    size_t n = strcspn(id, ".:");
    if (n >= sizeof page)
        return 0;
    memcpy(page, id, n);
    page[n] = '\0';
    for (int i = 0; i < 2; i++) {
        const struct ddi_model_record *rec = ddi_model_record_any(r->m[i], page);
        if ((rec && named(r, rec->name, 0)) || named(r, page, 1))
            return 1;
    }
    return 0;
}

const char *diff_reach_describe(const struct diff_reach *r, char *buf, size_t size)
{
    if (r->driver)
        snprintf(buf, size, "what the driver's callbacks reach: %zu records (of %zu), %s", r->s[1].in_scope,
                 r->s[1].total, r->kernel ? "kernel records included" : "kernel records left out");
    else
        snprintf(buf, size, "%s", r->kernel ? "every record, kernel records included (--scope all)"
                                            : "the DDI headers' records (kernel records left out; --scope all)");
    return buf;
}
