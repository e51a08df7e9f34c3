/* The validators' meaning of each rule kind, one row per kind (kinds.h). */
#include "ground.h"
#include "kinds.h"

#include <stdlib.h>
#include <string.h>

/* ---- shared pieces ------------------------------------------------------ */

void rules_render_value(struct strbuf *sb, const struct rules_field *f)
{
    if (f->pointer)
        sb_printf(sb, "(unsigned long long)(ULONG_PTR)a->%s", f->access);
    else
        sb_printf(sb, "(unsigned long long)a->%s", f->access);
}

void rules_render_set(struct strbuf *sb, const struct rules_field *f)
{
    sb_append(sb, "(");
    rules_render_value(sb, f);
    sb_append(sb, " != 0)");
}

static int number(const char *s, unsigned long long *v)
{
    if (!s || !*s)
        return 0;
    char *end;
    *v = strtoull(s, &end, 0);
    return *end == '\0';
}

static int count_set(const struct rules_values *v)
{
    int n = v->subject != 0;
    for (int i = 0; i < v->npartners; i++)
        n += v->partner[i] != 0;
    return n;
}

static int any_partner(const struct rules_values *v)
{
    for (int i = 0; i < v->npartners; i++)
        if (v->partner[i])
            return 1;
    return 0;
}

/* ---- zero, nonzero ------------------------------------------------------- */

static const char *lower_plain(struct rules_lowering *lw, struct rules_check *c)
{
    (void)lw, (void)c;
    return NULL;
}

static int broken_zero(const struct rules_check *c, const struct rules_values *v)
{
    (void)c;
    return v->subject != 0;
}

static void render_zero(struct strbuf *sb, const struct rules_check *c)
{
    rules_render_set(sb, &c->subject);
}

static int broken_nonzero(const struct rules_check *c, const struct rules_values *v)
{
    (void)c;
    return v->subject == 0;
}

static void render_nonzero(struct strbuf *sb, const struct rules_check *c)
{
    sb_append(sb, "!");
    rules_render_set(sb, &c->subject);
}

/* ---- align --------------------------------------------------------------- */

static const char *lower_align(struct rules_lowering *lw, struct rules_check *c)
{
    if (c->subject.bits)
        return "alignment stated on a flag: it is about the memory the flag describes";
    /* "The allocation itself might be aligned on 4KB" on PhysicalAdapterIndex:
     * alignment is a property of addresses, sizes and offsets only. */
    if (!ground_is_location(&c->subject))
        return "alignment stated on a field that is no address, size or offset";
    /* Windows CPU pages are 4 KB on x86, x64 and arm64; a GPU "page" is
     * the adapter's and is not known here. */
    const char *unit = rules_operand(lw, "unit");
    if (unit && !strcmp(unit, "cpu-page"))
        c->value = 4096;
    else if (!number(rules_operand(lw, "bytes"), &c->value))
        c->value = 0;
    if (!c->value || (c->value & (c->value - 1)))
        return "alignment not stated as a power-of-two byte count";
    return NULL;
}

static int broken_align(const struct rules_check *c, const struct rules_values *v)
{
    return (v->subject & (c->value - 1)) != 0;
}

static void render_align(struct strbuf *sb, const struct rules_check *c)
{
    sb_append(sb, "((");
    rules_render_value(sb, &c->subject);
    sb_printf(sb, " & 0x%llXull) != 0)", c->value - 1);
}

/* ---- range --------------------------------------------------------------- */

static const char *lower_range(struct rules_lowering *lw, struct rules_check *c)
{
    unsigned long long v;
    if (number(rules_operand(lw, "min"), &v))
        c->min = v, c->has_min = 1;
    if (number(rules_operand(lw, "min-exclusive"), &v))
        c->min = v + 1, c->has_min = 1;
    if (number(rules_operand(lw, "max"), &v))
        c->max = v, c->has_max = 1;
    if (number(rules_operand(lw, "max-exclusive"), &v) && v)
        c->max = v - 1, c->has_max = 1;
    if (!c->has_min && !c->has_max)
        return "bounds are not numbers (an expression, another field or an enum)";
    return NULL;
}

static int broken_range(const struct rules_check *c, const struct rules_values *v)
{
    return (c->has_min && v->subject < c->min) || (c->has_max && v->subject > c->max);
}

static void render_range(struct strbuf *sb, const struct rules_check *c)
{
    int low = c->has_min && c->min; /* an unsigned value is never below 0 */
    sb_append(sb, "(");
    if (low) {
        sb_append(sb, "(");
        rules_render_value(sb, &c->subject);
        sb_printf(sb, " < %lluull)", c->min);
    }
    if (low && c->has_max)
        sb_append(sb, " || ");
    if (c->has_max) {
        sb_append(sb, "(");
        rules_render_value(sb, &c->subject);
        sb_printf(sb, " > %lluull)", c->max);
    }
    if (!low && !c->has_max)
        sb_append(sb, "0");
    sb_append(sb, ")");
}

/* ---- exclusive, implies -------------------------------------------------- */

/* "A must not be set with B", or "A, B and C are mutually exclusive" (no
 * subject: the first field named becomes it). */
static const char *lower_exclusive(struct rules_lowering *lw, struct rules_check *c)
{
    const char *reason = NULL;
    if (rules_partners(lw, "with", c, &reason) != 0)
        return reason;
    if (!rules_has_subject(lw)) {
        if (c->npartners < 2)
            return "fewer than two resolved fields";
        c->subject = c->partner[0];
        memmove(c->partner, c->partner + 1, (size_t)--c->npartners * sizeof *c->partner);
        c->mutual = 1;
    } else if (!c->npartners) {
        return "no partner field";
    }
    return NULL;
}

/* Mutually exclusive fields: at most one set. "A cannot be set with B or
 * C" says nothing of B with C: A set and any of them set. */
static int broken_exclusive(const struct rules_check *c, const struct rules_values *v)
{
    if (c->mutual || c->npartners < 2)
        return count_set(v) > 1;
    return v->subject != 0 && any_partner(v);
}

static void render_exclusive(struct strbuf *sb, const struct rules_check *c)
{
    int pairwise = !c->mutual && c->npartners >= 2;
    sb_append(sb, "((");
    rules_render_set(sb, &c->subject);
    sb_append(sb, pairwise ? " && (" : "");
    for (int i = 0; i < c->npartners; i++)
        sb_append(sb, i || !pairwise ? " + " : ""), rules_render_set(sb, &c->partner[i]);
    sb_append(sb, pairwise ? ") > 0))" : ") > 1)");
}

static const char *lower_implies(struct rules_lowering *lw, struct rules_check *c)
{
    const char *reason = NULL;
    if (rules_partners(lw, "requires", c, &reason) != 0)
        return reason;
    const char *value = rules_operand(lw, "value");
    if (value && strcmp(value, "1"))
        return "requires a value other than set";
    if (!c->npartners)
        return "no required field";
    return NULL;
}

static int broken_implies(const struct rules_check *c, const struct rules_values *v)
{
    (void)c;
    int all = 1;
    for (int i = 0; i < v->npartners; i++)
        all &= v->partner[i] != 0;
    return v->subject != 0 && !all;
}

static void render_implies(struct strbuf *sb, const struct rules_check *c)
{
    sb_append(sb, "(");
    rules_render_set(sb, &c->subject);
    sb_append(sb, " && !(");
    for (int i = 0; i < c->npartners; i++)
        sb_append(sb, i ? " && " : ""), rules_render_set(sb, &c->partner[i]);
    sb_append(sb, "))");
}

/* ---- conditions on other fields ------------------------------------------ */

static const char *lower_conditional(struct rules_lowering *lw, struct rules_check *c)
{
    const char *reason = NULL;
    if (rules_partners(lw, "ref", c, &reason) != 0)
        return reason;
    return c->npartners ? NULL : "the condition is prose, not a field";
}

static void render_condition(struct strbuf *sb, const struct rules_check *c, const char *relation)
{
    sb_append(sb, "((");
    rules_render_set(sb, &c->subject);
    sb_append(sb, relation);
    for (int i = 0; i < c->npartners; i++)
        sb_append(sb, i ? " || " : ""), rules_render_set(sb, &c->partner[i]);
    sb_append(sb, ")))");
}

/* null-when, zero-when: the condition is a set field (ref operands), or
 * the rule's <when>s alone (a field clear, equal to an enumerator), which
 * conditions.c wraps around a plain zero check. */
static const char *lower_zero_when(struct rules_lowering *lw, struct rules_check *c)
{
    const char *reason = NULL;
    if (rules_partners(lw, "ref", c, &reason) != 0)
        return reason;
    return c->npartners || c->nwhen ? NULL : "the condition is prose, not a field";
}

static int broken_zero_when(const struct rules_check *c, const struct rules_values *v)
{
    return (!c->npartners || any_partner(v)) && v->subject != 0;
}

static void render_zero_when(struct strbuf *sb, const struct rules_check *c)
{
    if (!c->npartners)
        render_zero(sb, c);
    else
        render_condition(sb, c, " && (");
}

static int broken_nonnull_iff(const struct rules_check *c, const struct rules_values *v)
{
    (void)c;
    return (v->subject != 0) != any_partner(v);
}

static void render_nonnull_iff(struct strbuf *sb, const struct rules_check *c)
{
    render_condition(sb, c, " != (");
}

/* ---- at-least: a field no smaller than another --------------------------- */

/* "If the driver specifies a nonzero value in PitchAlignedSize, the value
 * must be greater than or equal to the value in the Size member": one
 * field operand (ref); if=nonzero exempts a zero subject (value = 1). Both
 * fields are compared as unsigned, so a pointer or a signed field is no
 * check: a negative value would compare as huge. */
static const char *lower_at_least(struct rules_lowering *lw, struct rules_check *c)
{
    const char *reason = NULL, *cond = rules_operand(lw, "if");
    if (cond && strcmp(cond, "nonzero"))
        return "the condition is prose, not a field";
    c->value = cond != NULL;
    if (rules_partners(lw, "ref", c, &reason) != 0)
        return reason;
    if (c->npartners != 1)
        return "not one field to compare with";
    if (c->subject.pointer || c->partner[0].pointer || c->subject.is_signed || c->partner[0].is_signed)
        return "compares a pointer or a signed field";
    return NULL;
}

static int broken_at_least(const struct rules_check *c, const struct rules_values *v)
{
    return (!c->value || v->subject != 0) && v->subject < v->partner[0];
}

static void render_at_least(struct strbuf *sb, const struct rules_check *c)
{
    sb_append(sb, "(");
    if (c->value)
        rules_render_set(sb, &c->subject), sb_append(sb, " && ");
    sb_append(sb, "(");
    rules_render_value(sb, &c->subject);
    sb_append(sb, " < ");
    rules_render_value(sb, &c->partner[0]);
    sb_append(sb, "))");
}

/* ---- nonnull-when, either-nonzero, in-set --------------------------------- */

/* "A pointer to X, if Type specifies Y": non-NULL under the rule's <when>s
 * (conditions.c wraps the check in them); without one it says nothing. */
static const char *lower_nonnull_when(struct rules_lowering *lw, struct rules_check *c)
{
    (void)lw;
    return c->nwhen ? NULL : "the condition names no field";
}

/* "The driver cannot set both to zero": one field operand (with). */
static const char *lower_either_nonzero(struct rules_lowering *lw, struct rules_check *c)
{
    const char *reason = NULL;
    if (rules_partners(lw, "with", c, &reason) != 0)
        return reason;
    return c->npartners == 1 ? NULL : "not one field to pair with";
}

static int broken_either_nonzero(const struct rules_check *c, const struct rules_values *v)
{
    (void)c;
    return v->subject == 0 && v->partner[0] == 0;
}

static void render_either_nonzero(struct strbuf *sb, const struct rules_check *c)
{
    sb_append(sb, "(!");
    rules_render_set(sb, &c->subject);
    sb_append(sb, " && !");
    rules_render_set(sb, &c->partner[0]);
    sb_append(sb, ")");
}

/* The segment ids of the subject (SegmentId0..n of a D3DDDI_SEGMENTPREFERENCE)
 * after the mask (partner 0); the subject reads as the record's word
 * (Value) when it has one. An id of 1..63 is a bit of the mask (id n, bit
 * n-1): ids wider than 6 bits could shift past it. */
static const char *segment_ids(struct rules_lowering *lw, struct rules_check *c, const char *subject)
{
    struct arena *a = rules_arena(lw);
    for (int n = 0; c->npartners < RULES_MAX_PARTNERS; n++) {
        struct rules_field *id = &c->partner[c->npartners];
        if (rules_field(lw, arena_printf(a, "%s.SegmentId%d", subject, n), NULL, id) != 0)
            break;
        if (id->pointer || id->bits < 1 || id->bits > 6)
            return "a segment id that is not a bitfield of at most 6 bits";
        c->versions &= id->versions;
        c->archs &= id->archs;
        c->npartners++;
    }
    if (c->npartners < 2)
        return "the subject holds no segment ids (SegmentId0..n)";
    if (rules_field(lw, arena_printf(a, "%s.Value", subject), NULL, &c->subject) != 0)
        c->subject = c->partner[1];
    c->subject.path = c->subject.shown = subject;
    return NULL;
}

/* "Can set preferences only for segments that are supported for read
 * operations": every nonzero segment id of the subject is a set bit of
 * the segment mask (ref). */
static const char *lower_in_set(struct rules_lowering *lw, struct rules_check *c)
{
    const char *reason = NULL, *subject = rules_rule(lw)->subject;
    if (!subject)
        return "names no field of the record";
    if (rules_partners(lw, "ref", c, &reason) != 0)
        return reason;
    if (c->npartners != 1)
        return "not one segment mask";
    if (c->partner[0].pointer)
        return "the segment mask is a pointer";
    return segment_ids(lw, c, subject);
}

static int broken_in_set(const struct rules_check *c, const struct rules_values *v)
{
    (void)c;
    for (int i = 1; i < v->npartners; i++) {
        unsigned long long id = v->partner[i];
        if (id && (id > 64 || !((v->partner[0] >> (id - 1)) & 1)))
            return 1;
    }
    return 0;
}

static void render_in_set(struct strbuf *sb, const struct rules_check *c)
{
    sb_append(sb, "(");
    for (int i = 1; i < c->npartners; i++) {
        sb_append(sb, i > 1 ? " || (" : "(");
        rules_render_set(sb, &c->partner[i]);
        sb_append(sb, " && (((");
        rules_render_value(sb, &c->partner[0]);
        sb_append(sb, " >> (");
        rules_render_value(sb, &c->partner[i]);
        sb_append(sb, " - 1)) & 1ull) == 0))");
    }
    sb_append(sb, ")");
}

/* ---- known values (a union's discriminator) ------------------------------ */

static int broken_known(const struct rules_check *c, const struct rules_values *v)
{
    for (size_t i = 0; i < c->ncases; i++)
        if ((unsigned long long)c->cases[i].number == v->subject && (c->cases[i].versions >> v->version & 1))
            return 0;
    return 1;
}

static void render_known(struct strbuf *sb, const struct rules_check *c)
{
    (void)c;
    sb_append(sb, "0"); /* a switch in the template */
}

/* ---- the table ----------------------------------------------------------- */

#define ZERO .op = "zero", .broken = broken_zero, .render = render_zero
#define ZERO_WHEN .op = "zero-when", .lower = lower_zero_when, .operand = "when", .broken = broken_zero_when, .render = render_zero_when, \
                  .unconditional_only = 1, .condition_in_fields = 1

const struct rules_kind rules_kinds[DDI_RULE_KIND_COUNT] = {
    [DDI_RULE_DIRECTION] = {.unchecked = "selects the validator (_in / _out)"},
    [DDI_RULE_OPTIONAL] = {.unchecked = "allows NULL or zero; nothing to refuse"},
    [DDI_RULE_RESERVED] = {.unchecked = "reserved without a stated value"},
    [DDI_RULE_RESERVED_ZERO] = {ZERO, .lower = lower_plain, .unconditional_only = 1,
                                .example = {.subject = 4, .broken = 1, .c = "((unsigned long long)a->S != 0)"}},
    [DDI_RULE_ALIGN] = {.op = "align", .lower = lower_align, .broken = broken_align, .render = render_align,
                        .unconditional_only = 1,
                        .example = {.value = 4096, .subject = 0x2010, .broken = 1,
                                    .c = "(((unsigned long long)a->S & 0xFFFull) != 0)"}},
    [DDI_RULE_UNITS] = {.unchecked = "states a unit, not a value constraint"},
    [DDI_RULE_RANGE] = {.op = "range", .lower = lower_range, .broken = broken_range, .render = render_range,
                        .unconditional_only = 1,
                        .example = {.min = 1, .max = 8, .has_min = 1, .has_max = 1, .subject = 9, .broken = 1,
                                    .c = "(((unsigned long long)a->S < 1ull) || ((unsigned long long)a->S > 8ull))"}},
    [DDI_RULE_NONZERO] = {.op = "nonzero", .lower = lower_plain, .broken = broken_nonzero, .render = render_nonzero,
                          .unconditional_only = 1,
                          .example = {.subject = 0, .broken = 1, .c = "!((unsigned long long)a->S != 0)"}},
    [DDI_RULE_BIT] = {.unchecked = "a bit position: checked by ddi_layout_asserts.h"},
    [DDI_RULE_EXCLUSIVE] = {.op = "exclusive", .lower = lower_exclusive, .operand = "with", .subject_optional = 1, .broken = broken_exclusive,
                            .unconditional_only = 1, .condition_in_fields = 1,
                            .render = render_exclusive,
                            .example = {.npartners = 1, .subject = 1, .partner = {2}, .broken = 1,
                                        .c = "((((unsigned long long)a->S != 0) + ((unsigned long long)a->P0 != 0)) > 1)"}},
    [DDI_RULE_IMPLIES] = {.op = "implies", .lower = lower_implies, .operand = "requires", .broken = broken_implies, .render = render_implies,
                          .unconditional_only = 1, .condition_in_fields = 1,
                          .example = {.npartners = 1, .subject = 1, .partner = {0}, .broken = 1,
                                      .c = "(((unsigned long long)a->S != 0) && !(((unsigned long long)a->P0 != 0)))"}},
    [DDI_RULE_NULL_WHEN] = {ZERO_WHEN,
                            .example = {.npartners = 1, .subject = 8, .partner = {1}, .broken = 1,
                                        .c = "((((unsigned long long)a->S != 0) && (((unsigned long long)a->P0 != 0))))"}},
    [DDI_RULE_NONNULL_IFF] = {.op = "nonnull-iff", .lower = lower_conditional, .operand = "when", .broken = broken_nonnull_iff,
                              .unconditional_only = 1, .condition_in_fields = 1,
                              .render = render_nonnull_iff,
                              .example = {.npartners = 1, .subject = 0, .partner = {1}, .broken = 1,
                                          .c = "((((unsigned long long)a->S != 0) != (((unsigned long long)a->P0 != 0))))"}},
    /* A page's discriminator rule says when a member is meaningful; the
     * record's selector becomes one known-value check (lower.c). */
    [DDI_RULE_DISCRIMINATOR] = {.op = "known", .unchecked = "says when the member is meaningful, not what it must hold",
                                .broken = broken_known, .render = render_known,
                                .example = {.subject = 7, .broken = 1, .c = "0"}},
    [DDI_RULE_REQUIRES_CAP] = {.unchecked = "depends on an adapter capability, not on the structure"},
    [DDI_RULE_AVAILABILITY] = {.unchecked = "availability is the layout's version gating"},
    [DDI_RULE_UNION_MEMBER] = {.unchecked = "maps an enum value to a union member: used through the discriminator"},
    [DDI_RULE_BUFFER_TYPE] = {.unchecked = "names the record an untyped buffer holds: used by the direction walk (reach.c)"},
    [DDI_RULE_ZERO_WHEN] = {ZERO_WHEN,
                            .example = {.npartners = 1, .subject = 0, .partner = {1}, .broken = 0,
                                        .c = "((((unsigned long long)a->S != 0) && (((unsigned long long)a->P0 != 0))))"}},
    [DDI_RULE_AT_LEAST] = {.op = "at-least", .lower = lower_at_least, .operand = "ref", .broken = broken_at_least,
                           .render = render_at_least, .unconditional_only = 1,
                           .example = {.value = 1, .npartners = 1, .subject = 4096, .partner = {8192}, .broken = 1,
                                       .c = "(((unsigned long long)a->S != 0) && ((unsigned long long)a->S < "
                                            "(unsigned long long)a->P0))"}},
    [DDI_RULE_NONNULL_WHEN] = {.op = "nonzero", .lower = lower_nonnull_when, .broken = broken_nonzero,
                               .render = render_nonzero, .unconditional_only = 1,
                               .example = {.subject = 0, .broken = 1, .c = "!((unsigned long long)a->S != 0)"}},
    [DDI_RULE_EITHER_NONZERO] = {.op = "either-nonzero", .lower = lower_either_nonzero, .operand = "with",
                                 .broken = broken_either_nonzero, .render = render_either_nonzero,
                                 .unconditional_only = 1,
                                 .example = {.npartners = 1, .subject = 0, .partner = {0}, .broken = 1,
                                             .c = "(!((unsigned long long)a->S != 0) && "
                                                  "!((unsigned long long)a->P0 != 0))"}},
    [DDI_RULE_IN_SET] = {.op = "in-set", .lower = lower_in_set, .subject_record = 1, .operand = "ref",
                         .operand_partners = 1, .broken = broken_in_set, .render = render_in_set,
                         .unconditional_only = 1,
                         .example = {.npartners = 2, .partner = {0x5, 2}, .broken = 1,
                                     .c = "((((unsigned long long)a->P1 != 0) && ((((unsigned long long)a->P0 >> "
                                          "((unsigned long long)a->P1 - 1)) & 1ull) == 0)))"}},
};
