/* ddi_violation: one broken documented rule, as the generated validators
 * (ddi_validate.c), the generated dispatch tables (ddi_dispatch.c) and the
 * trace reader report it. Shared by those generators so that a driver sees
 * one type whichever of them it embeds. Kernel C: no CRT.
 */
#ifndef DDI_VIOLATION_H
#define DDI_VIOLATION_H

typedef struct ddi_violation {
    const char *rule_id;         /* the rule's stable ID in the spec, or a
                                    generator-defined ID such as
                                    "dispatch.out-of-range"; static string */
    const char *field;           /* dotted field path, e.g. "Fill.Pattern" */
    unsigned long long observed; /* the value read, zero-extended */
} ddi_violation;

#endif /* DDI_VIOLATION_H */
