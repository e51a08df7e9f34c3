/* What a function type's SAL says of the IRQL it runs at, read once for
 * every stage (the skeleton's paging, check-driver's paging rules). */
#ifndef DDIGEN_MODEL_IRQL_H
#define DDIGEN_MODEL_IRQL_H

/* Each level as the SAL spells it ("PASSIVE_LEVEL"), "" when unsaid. */
struct ddi_irql {
    char exact[64]; /* _IRQL_requires_(X), dispmprt.h's _IRQL_requires_DXGK_(X) */
    char max[64];   /* _IRQL_requires_max_(X) and its DXGK spelling */
    char min[64];   /* _IRQL_requires_min_(X) and its DXGK spelling */
};

/* Reads every spelling of the real kits' headers from sal (may be NULL). */
void ddi_irql_from_sal(const char *sal, struct ddi_irql *out);

#endif
