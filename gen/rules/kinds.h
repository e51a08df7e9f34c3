/* What each rule kind (gen/model/rule_kinds.h) means to the validators:
 * one row per kind in kinds.c, read by the lowering (lower.c), the host
 * evaluator (eval.c) and the C renderer (plan_xml.c), so that a kind's
 * meaning is written once. Internal to gen/rules. */
#ifndef DDIGEN_RULES_KINDS_H
#define DDIGEN_RULES_KINDS_H

#include "rules.h"

#include "../util/strbuf.h"

/* The rule being lowered (lower.c): its page operands and field operands. */
struct rules_lowering;
/* A page operand of the rule ("min", "bytes"), or NULL. */
const char *rules_operand(struct rules_lowering *lw, const char *name);
/* Appends every field operand named name to c's partners; -1 with *reason
 * when one did not resolve to a scalar field. */
int rules_partners(struct rules_lowering *lw, const char *name, struct rules_check *c, const char **reason);
/* Whether the rule's subject resolved to a field of the record. */
int rules_has_subject(const struct rules_lowering *lw);
/* The rule itself, the model it comes from, and the plan's arena (for
 * reasons that name things). */
const struct ddi_model_rule *rules_rule(const struct rules_lowering *lw);
const struct ddi_model *rules_model(const struct rules_lowering *lw);
struct arena *rules_arena(const struct rules_lowering *lw);
const struct ddi_versions *rules_where(const struct rules_lowering *lw);
/* A designator from the rule's record (resolved by the model when chain is
 * NULL) as a value a check reads: 0, or -1 when it names no scalar field. */
int rules_field(struct rules_lowering *lw, const char *path, const struct ddi_model_chain *chain,
                struct rules_field *f);

/* Values a check reads, for the host evaluator. */
struct rules_values {
    unsigned long long subject;
    unsigned long long partner[RULES_MAX_PARTNERS];
    int npartners;
    unsigned long long when[RULES_MAX_CONDS]; /* the condition fields (check->when) */
    int version; /* DDI version index (discriminator cases) */
};

/* A worked example of a kind, run by tests/model: a check with these
 * parameters over fields S (subject) and P0..Pn (partners) holding these
 * values is broken or not, and renders to this C. */
struct rules_example {
    unsigned long long value, min, max;
    int has_min, has_max;
    int npartners;
    unsigned long long subject, partner[2];
    int broken;
    const char *c; /* the failing condition as generated C */
};

struct rules_kind {
    const char *op;        /* the operation in the plan ("zero" for reserved-zero) */
    const char *unchecked; /* why a rule of this kind is never a check, or NULL */
    /* A condition the sentence states but the rule does not carry makes it
     * no check (the docs stage marks such rules conditional). */
    int unconditional_only;
    /* The kind's field operands state a condition ("If NoDmaPatching is set
     * to 1, PreemptionAware must also be set"): the sentence's condition
     * disqualifies only when it names none of the rule's fields. */
    int condition_in_fields;
    int subject_optional; /* "A, B and C are mutually exclusive" names no subject */
    /* The subject is a record, not a value: the kind's lower reads the
     * fields in it (in-set: the segment ids of a D3DDDI_SEGMENTPREFERENCE). */
    int subject_record;
    /* What emit --checks calls the partner fields (with, requires, ref,
     * when), and how many of them it prints (0: all). */
    const char *operand;
    int operand_partners;
    /* Fills c's parameters and partners; NULL, or why it is not a check. */
    const char *(*lower)(struct rules_lowering *lw, struct rules_check *c);
    /* Whether the values break the check. */
    int (*broken)(const struct rules_check *c, const struct rules_values *v);
    /* Appends the C condition, over the record pointer `a`, that is true
     * when the check is broken. */
    void (*render)(struct strbuf *sb, const struct rules_check *c);
    struct rules_example example;
};

extern const struct rules_kind rules_kinds[DDI_RULE_KIND_COUNT];

/* The value the generated code compares: pointers through ULONG_PTR, all
 * zero-extended to unsigned long long. */
void rules_render_value(struct strbuf *sb, const struct rules_field *f);
/* (value != 0) */
void rules_render_set(struct strbuf *sb, const struct rules_field *f);

/* ---- enum values (enum_values.c) ---- */
/* An enum-typed field f of rec as a check of its values at the compiled
 * DDI version: 0 when f is no enum field; else 1, with c filled and
 * *reason NULL, or *reason saying why it is left out. in_selected_member:
 * f lies in the union member a discriminator selects; dir: the directions
 * the field is read in (the check is the caller's only). */
int rules_lower_enum_value(struct rules_lowering *lw, const struct ddi_model_record *rec,
                           const struct ddi_model_field *f, int in_selected_member, unsigned dir,
                           struct rules_check *c, const char **reason);
/* A pointer field the header sizes in SAL (_Field_size_(N)): non-NULL when
 * N is nonzero (sal_sizes.c). 0 when f has no such annotation; else 1,
 * with *reason set when it is no check. */
int rules_lower_sal_size(struct rules_lowering *lw, const struct ddi_model_record *rec,
                         const struct ddi_model_field *f, int in_selected_member, unsigned dir,
                         struct rules_check *c, const char **reason);

/* ---- conditions (conditions.c) ---- */
/* The rule's <when>s onto c (gating c off where an enumerator does not
 * exist); NULL, or why the rule cannot be a check. */
const char *rules_lower_conds(struct rules_lowering *lw, struct rules_check *c);
/* Whether the check is broken: its conditions hold and its kind says so. */
int rules_broken(const struct rules_check *c, const struct rules_values *v);
/* The C condition true when the check is broken, conditions included. */
void rules_render_check(struct strbuf *sb, const struct rules_check *c);
/* `when=F`, `when=F!=0`, `when=F==0`, `when=F==X` for each condition, as
 * emit --checks writes them (';'-separated after what sb holds). */
void rules_cond_operands(struct strbuf *sb, const struct rules_check *c);

#endif
