/* Rule lowering: the documented rules of the spec (<docs> rules, their
 * <merge> resolutions and the union <discriminator>s) turned into checks
 * per record and direction, gated by DDI version and architecture. One
 * lowering feeds the generated validators (through the XSLT function
 * d:validation-plan) and the host evaluator that `ddigen trace` uses. */
#ifndef DDIGEN_RULES_H
#define DDIGEN_RULES_H

#include "ddi_violation.h"
#include "model/model.h"
#include "model/rule_kinds.h"
#include "model/vset.h"

#include <libxml/tree.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define RULES_DIR_IN 1u
#define RULES_DIR_OUT 2u
#define RULES_DIR_BOTH 3u

/* Bit 0 of flags for rules_eval, as DDI_VALIDATE_STOP_AT_FIRST in generated code. */
#define RULES_STOP_AT_FIRST 1ul

/* A field operand, resolved to a chain of layout fields: the first lies
 * in the rule's record; each next one in the record named by the type of
 * the one before (Protection.NoAccess goes through a named struct). */
#define RULES_MAX_CHAIN 4
struct rules_field {
    const char *path;   /* C designator from the record: "Protection.NoAccess" */
    const char *access; /* what the generated code reads: path, or path.QuadPart */
    const char *shown;  /* the path as the header spells it (DXGK_ALLOC_RESERVED15 where that macro made
                           Reserved15): what messages, comments and emit --checks name */
    const struct ddi_model_field *chain[RULES_MAX_CHAIN];
    int depth;
    int bits;        /* bitfield width, 0 when not a bitfield */
    int pointer;     /* a pointer or handle: observed through ULONG_PTR */
    int is_signed;   /* a signed integer or enum (read zero-extended: compare with care) */
    int width[3];    /* bytes per arch (x86, x64, arm64), 0 when not a scalar */
    uint64_t versions; /* DDI versions where the field exists (bit per version index) */
    unsigned archs;    /* architectures where it exists (bit per arch index) */
};

/* The name a message gives the field: as the header spells it. */
static inline const char *rules_field_shown(const struct rules_field *f)
{
    return f->shown ? f->shown : f->path;
}

struct rules_case {
    long long number;
    const char *value;  /* the enumerator */
    const char *member; /* union member it selects, or NULL */
    uint64_t versions;        /* where the enum has the value */
    uint64_t member_versions; /* where the value's member exists too */
};

/* A condition the check holds under (a <when> of its rule, conditions.c):
 * the field set (nonzero), clear (zero), or equal to an enumerator, whose
 * value is the same at every DDI version where the check is on. */
enum rules_cond_op { RULES_WHEN_SET, RULES_WHEN_CLEAR, RULES_WHEN_EQUALS };
struct rules_cond {
    struct rules_field field;
    enum rules_cond_op op;
    const char *enumerator; /* RULES_WHEN_EQUALS: its name, and its value */
    long long number;
};

#define RULES_MAX_CONDS 4
#define RULES_MAX_PARTNERS 8
struct rules_check {
    const char *id;   /* stable rule ID */
    const char *kind; /* the documented kind's name (stats, comments) */
    enum ddi_rule_kind kind_id;
    const struct rules_kind *how; /* what the kind means: gen/rules/kinds.c */
    unsigned dir;       /* RULES_DIR_* the check belongs to */
    const char *member; /* union member (discriminator case) the check is under, or NULL */
    struct rules_field subject;
    struct rules_field partner[RULES_MAX_PARTNERS]; /* with / requires / condition fields */
    int npartners;
    struct rules_cond when[RULES_MAX_CONDS]; /* all must hold for the check to apply */
    int nwhen;
    unsigned long long value, min, max; /* align bytes; range bounds */
    int has_min, has_max;
    int mutual; /* exclusive: "A, B and C are mutually exclusive" (at most one set), not "A not with B or C" */
    struct rules_case *cases; /* a discriminator's known values; an enum field's values */
    size_t ncases;
    const char *enum_name; /* an enum field's type (emit --checks: enum=TYPE), or NULL */
    const struct ddi_versions *where; /* the plan's versions, for guards inside the rendered C */
    int mask_group;   /* reserved bit checked first through the flag word (index into masks), or -1 */
    uint64_t versions; /* where every field involved exists */
    unsigned archs;
    const char *page; /* source page, line, sentence (ddi_rules.c) */
    long line;
    const char *sentence;
    enum ddi_rule_provenance provenance; /* reviewed, or extracted (a discriminator: extracted) */
};

/* Reserved bits of a flag union checked at once through its word (Value). */
struct rules_mask {
    struct rules_field word;
    unsigned long long mask;
    unsigned dir;
    const char *member; /* union member the word lies in, or NULL */
};

/* A rule that is not a check, and why. */
struct rules_skip {
    const char *id, *kind, *reason;
    const char *page;
    long line;
    enum ddi_rule_provenance provenance;
};

/* A record's validator calling the validator of a record it embeds by
 * value (DXGKARG_PRESENT.Flags: DXGK_PRESENTFLAGS), in the direction the
 * embedding field is written in. */
struct rules_descent {
    const char *path;   /* the embedding field from the record: "Flags", "Transfer.Flags" */
    const char *member; /* union member (discriminator case) it lies in, or NULL */
    const struct ddi_model_field *field; /* for its offset (host evaluation) */
    const struct rules_record *callee;   /* the embedded record's validators */
    unsigned dir;
    uint64_t versions; /* where the field and the callee's validators exist */
    unsigned archs;
};

struct rules_record {
    const char *name;
    const struct ddi_model_record *model; /* its layout (model->node: the <record>) */
    uint64_t versions;
    unsigned archs;
    unsigned dirs; /* validators it has: RULES_DIR_IN when the DDI passes it const */
    struct rules_check *checks;
    size_t nchecks;
    struct rules_mask *masks;
    size_t nmasks;
    struct rules_skip *skips;
    size_t nskips;
    const char *const *members; /* union members selected by a case, for per-member validators */
    size_t nmembers;
    struct rules_descent *descents; /* run after its checks, in field order */
    size_t ndescents;
};

struct rules_plan {
    struct rules_record *records; /* sorted by name */
    size_t nrecords;
    struct ddi_versions where; /* the spec's versions and architectures (strings in the spec) */
    void *arena; /* owns everything above but the spec's and the model's strings */
    struct ddi_model *own_model; /* the model rules_lower built, freed with the plan */
};

/* Lowers every record of the model that has documented rules or a
 * discriminator. NULL on no memory. Free with rules_plan_free, before the
 * model. */
struct rules_plan *rules_lower_model(const struct ddi_model *model);
/* The same from a spec: builds the model, which the plan then owns (free
 * the plan before the spec). */
struct rules_plan *rules_lower(xmlDocPtr spec);
void rules_plan_free(struct rules_plan *plan);
const struct rules_record *rules_find(const struct rules_plan *plan, const char *record);


/* Evaluates the record's checks for one direction over its raw bytes as
 * laid out for arch ("x64") at DDI version (short name) - the same checks,
 * in the same order, as the generated ddi_validate_<RECORD>_<dir>. Returns
 * the number of violations (0 when the record has no rules), fills *first.
 * A field that does not fit in len bytes is not read (a violation
 * "ddigen.truncated" is reported instead). */
unsigned long rules_eval(const struct rules_plan *plan, const struct rules_record *rec, const char *arch,
                         const char *version, unsigned dir, const void *bytes, size_t len, ddi_violation *first,
                         unsigned long flags);

/* Per documented kind: rules seen, rules that became checks. */
void rules_print_stats(const struct rules_plan *plan, FILE *out);
/* Every check, one tab-separated line per direction (checks_tsv.c). */
void rules_print_checks(const struct rules_plan *plan, FILE *out);

/* The plan as an XML element tree (<validation>) in doc, for templates. */
xmlNodePtr rules_plan_xml(const struct rules_plan *plan, xmlDocPtr doc);

#endif
