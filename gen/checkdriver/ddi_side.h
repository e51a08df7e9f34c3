/* The DDI side of check-driver, from the spec: which typedefs are callback
 * roles, the SAL of their parameters, their calling convention and the
 * IRQL they are documented at. */
#ifndef DDIGEN_CHECKDRIVER_DDI_SIDE_H
#define DDIGEN_CHECKDRIVER_DDI_SIDE_H

#include "../model/model.h"
#include "../util/arena.h"
#include "../util/strmap.h"

/* What paging allows: code in PAGE may run at PASSIVE_LEVEL or APC_LEVEL
 * (PAGED_CODE() asserts IRQL <= APC_LEVEL), never at DISPATCH_LEVEL or
 * above, where a page fault is a bug check. */
enum irql_class { IRQL_UNKNOWN, IRQL_PASSIVE, IRQL_APC, IRQL_DISPATCH_OR_ABOVE };

struct ddi_role {
    const struct ddi_model_functype *ft; /* the function typedef (DXGKDDI_X) */
    const char *callconv;                /* "stdcall" on x86, or NULL (the default) */
    enum irql_class irql;
    const char *irql_text; /* as documented: the page's IRQL or the typedef's annotation */
};

struct ddi_side {
    xmlDocPtr doc;
    struct ddi_model *model;
    struct strmap page_irql; /* function type name -> its page's IRQL text */
    struct strmap roles;     /* function type name -> struct ddi_role (made on first use) */
    struct arena arena;
};

/* 0, or -1 (reported). */
int ddi_side_load(struct ddi_side *d, const char *spec_path);
void ddi_side_free(struct ddi_side *d);

/* The role a typedef names: a function typedef (DXGKDDI_PATCH) or a
 * pointer typedef to one (PDXGKDDI_PATCH, the type of an init-data member);
 * NULL when the spec has no such function type. */
const struct ddi_role *ddi_side_role(struct ddi_side *d, const char *typedef_name);

/* The class of an IRQL text ("PASSIVE_LEVEL", "<= APC_LEVEL", "DIRQL"). */
enum irql_class irql_classify(const char *text);

#endif
