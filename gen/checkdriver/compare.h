/* The findings of check-driver: each definition of a function with a DDI
 * role against that role's typedef (signature as the same unit sees it)
 * and the spec (SAL, IRQL). */
#ifndef DDIGEN_CHECKDRIVER_COMPARE_H
#define DDIGEN_CHECKDRIVER_COMPARE_H

#include "unit.h"

#include "../util/sarif.h"

enum cd_kind {
    CD_CALLCONV,
    CD_PARAM_COUNT,
    CD_PARAM_TYPE,
    CD_RESULT_TYPE,
    CD_SAL,
    CD_PAGED_CODE_MISSING,
    CD_PAGEABLE_RAISED,
    CD_KIND_COUNT
};

/* Ids, names, levels and descriptions, indexed by enum cd_kind. */
extern const struct sarif_rule cd_rules[CD_KIND_COUNT];

struct cd_finding {
    enum cd_kind kind;
    struct cd_loc at;     /* in the driver */
    struct cd_loc ddi_at; /* the role typedef in the kit */
    const char *message;
    const char *fingerprint;
};

struct cd_findings {
    struct arena arena;
    struct vec items; /* struct cd_finding*, sorted by place */
    unsigned errors, warnings;
};

/* Compares every definition of units[] with the roles every unit binds
 * its function to. */
void cd_compare(struct ddi_side *ddi, struct cd_unit *units, size_t nunits, struct cd_findings *out);
void cd_findings_free(struct cd_findings *f);

#endif
