/* ddi_violation: one broken documented rule, as the generated validators
 * (ddi_validate.c), the generated dispatch tables (ddi_dispatch.c) and the
 * trace reader report it. Shared by those generators so that a driver sees
 * one type whichever of them it embeds. Kernel C: no CRT.
 */
#ifndef DDI_VIOLATION_H
#define DDI_VIOLATION_H

/* How deep a validator's descent into embedded records is recorded. */
#define DDI_VIOLATION_MAX_VIA 4

typedef struct ddi_violation {
    const char *rule_id;         /* the rule's stable ID in the spec, or a
                                    generator-defined ID such as
                                    "dispatch.out-of-range"; static string */
    const char *field;           /* dotted field path, e.g. "Fill.Pattern" */
    unsigned long long observed; /* the value read, zero-extended */
    unsigned long flags;         /* DDI_VIOLATION_*: of every broken rule
                                    the call checked, or-ed (the first one
                                    only when stopping at it) */
    const char *via[DDI_VIOLATION_MAX_VIA]; /* set by the validators only:
                                    the embedding fields from the validated
                                    record down to the record whose rule
                                    broke, outermost first ("Transfer.Flags",
                                    then what that record embeds), NULL after
                                    the last; all NULL for the record's own
                                    rule. The full path is via... then field:
                                    DXGKARG_PRESENT's Flags.Reserved */
} ddi_violation;

/* A broken rule was written by a reader (spec/reviewed.xml), not only
 * proposed by the extractor: the skeleton's thunks refuse a call for one
 * under DDIGEN_VALIDATE_ENFORCE (any broken rule: DDIGEN_VALIDATE_ENFORCE_ALL). */
#define DDI_VIOLATION_REVIEWED 0x1ul

#endif /* DDI_VIOLATION_H */
