/* What a diff reports on: the DDI (records and enums of the DDI headers;
 * the kernel records the DDI refers to, from wdm.h, only with --scope all),
 * and with a driver's --ddi-list only what its callbacks reach: the same
 * closure `generate --ddi-list` generates for (emit/scope.c), taken on
 * both revisions, an item in scope when either revision's driver reaches
 * it. */
#ifndef DDIGEN_DIFF_REACH_H
#define DDIGEN_DIFF_REACH_H

#include "../emit/scope.h"

struct ddi_model;
struct ddi_model_record;
struct ddi_model_enum;

struct diff_reach {
    int kernel;  /* report kernel records and enums too (--scope all) */
    int driver;  /* a list or --records narrows the report */
    const struct ddi_model *m[2];
    struct emit_scope s[2];
};

/* params: NAME=VALUE, NULL-terminated (ddi-list, driver-kind, records, as
 * the skeleton options give them); checked against NEW (new_name) first.
 * 0, or -1 after reporting (a list name or record the spec lacks). */
int diff_reach_init(struct diff_reach *r, const struct ddi_model *old_m, const struct ddi_model *new_m,
                    xmlDocPtr new_doc, const char *new_name, const char *const *params, int kernel);
void diff_reach_free(struct diff_reach *r);

int diff_reach_record(const struct diff_reach *r, const struct ddi_model_record *rec);
int diff_reach_enum(const struct diff_reach *r, const struct ddi_model_enum *e);
/* Typedefs and function types, by name. */
int diff_reach_type(const struct diff_reach *r, const char *name);
/* A rule, by its ID (RECORD.member:kind..., the page's name first). */
int diff_reach_rule(const struct diff_reach *r, const char *id);
/* "48 records reached by the listed callbacks" and the like, for the report. */
const char *diff_reach_describe(const struct diff_reach *r, char *buf, size_t size);

#endif
