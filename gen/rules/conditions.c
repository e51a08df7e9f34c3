/* Conditions as data: the <when>s of a rule (a field set, clear, or equal
 * to an enumerator) lowered onto its check, and what they mean to the host
 * evaluator, the generated C and emit --checks, written once here. */
#include "kinds.h"

#include "../util/diag.h"

#include <string.h>

/* ---- lowering ------------------------------------------------------------ */

/* The enumerator's value and where it exists, over every enum of the model
 * that defines it (a header may define it per version). NULL, or why it
 * cannot be compared: absent, or a value that changes with the version. */
static const char *enumerator_value(struct rules_lowering *lw, const char *name, long long *number,
                                    uint64_t *versions, const struct ddi_model_enum **owner)
{
    const struct ddi_model *m = rules_model(lw);
    int found = 0;
    *versions = 0;
    for (size_t e = 0; e < m->nenums; e++) {
        const struct ddi_model_enum *en = &m->enums[e];
        for (size_t i = 0; i < en->nvalues; i++) {
            const struct ddi_model_value *v = &en->values[i];
            if (strcmp(v->name, name))
                continue;
            if (found && v->value != *number)
                return arena_printf(rules_arena(lw), "the enumerator %s changes its value with the DDI version",
                                    ddigen_quote(name));
            *number = v->value;
            *owner = en;
            *versions |= v->versions & en->versions;
            found = 1;
        }
    }
    return found ? NULL : arena_printf(rules_arena(lw), "no enumerator %s in the header", ddigen_quote(name));
}

/* The enum a field's type names, or NULL (an integer field). */
static const struct ddi_model_enum *field_enum(struct rules_lowering *lw, const struct rules_field *f)
{
    const struct ddi_model_field *last = f->chain[f->depth - 1];
    return last->type ? ddi_model_type_enum(rules_model(lw), last->type) : NULL;
}

static const char *lower_equals(struct rules_lowering *lw, const struct ddi_model_when *w, struct rules_cond *k,
                                struct rules_check *c)
{
    const struct ddi_model_enum *owner = NULL, *typed = field_enum(lw, &k->field);
    uint64_t where;
    const char *why = enumerator_value(lw, w->equals, &k->number, &where, &owner);
    if (why)
        return why;
    /* Type == DXGKQAITYPE_X compares values of one enum; an enumerator of
     * another enum is a misread condition, not a value of the field. */
    if (typed && owner && strcmp(typed->name, owner->name))
        return arena_printf(rules_arena(lw), "%s is not a value of %s, the type of %s", ddigen_quote(w->equals),
                            ddigen_quote(typed->name), ddigen_quote(w->field));
    k->op = RULES_WHEN_EQUALS;
    k->enumerator = w->equals;
    /* where the enumerator does not exist the condition never holds: the
     * check is off there, never on without it */
    c->versions &= where;
    return NULL;
}

static const char *lower_one(struct rules_lowering *lw, const struct ddi_model_when *w, struct rules_check *c)
{
    if (c->nwhen == RULES_MAX_CONDS)
        return "too many conditions";
    struct rules_cond *k = &c->when[c->nwhen];
    memset(k, 0, sizeof *k);
    if (!w->field || rules_field(lw, w->field, &w->target, &k->field) != 0)
        return arena_printf(rules_arena(lw), "its condition names %s, which is not a scalar field",
                            ddigen_quote(w->field ? w->field : "?"));
    c->versions &= k->field.versions;
    c->archs &= k->field.archs;
    if (w->equals) {
        const char *why = lower_equals(lw, w, k, c);
        if (why)
            return why;
    } else if (w->is && !strcmp(w->is, "set")) {
        k->op = RULES_WHEN_SET;
    } else if (w->is && !strcmp(w->is, "clear")) {
        k->op = RULES_WHEN_CLEAR;
    } else {
        return "its condition states neither set, clear nor a value";
    }
    c->nwhen++;
    return NULL;
}

const char *rules_lower_conds(struct rules_lowering *lw, struct rules_check *c)
{
    const struct ddi_model_rule *rule = rules_rule(lw);
    for (size_t i = 0; i < rule->nwhens; i++) {
        const char *why = lower_one(lw, &rule->whens[i], c);
        if (why)
            return why;
    }
    return NULL;
}

/* ---- meaning ------------------------------------------------------------- */

/* The bits a field holds: an enum read zero-extended compares with its
 * enumerator in the field's own width. */
static unsigned long long width_mask(const struct rules_field *f)
{
    int bits = f->bits ? f->bits : f->width[0] * 8;
    return bits <= 0 || bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

static int cond_holds(const struct rules_cond *k, unsigned long long value)
{
    switch (k->op) {
    case RULES_WHEN_SET: return value != 0;
    case RULES_WHEN_CLEAR: return value == 0;
    case RULES_WHEN_EQUALS: {
        unsigned long long m = width_mask(&k->field);
        return (value & m) == ((unsigned long long)k->number & m);
    }
    }
    return 0;
}

int rules_broken(const struct rules_check *c, const struct rules_values *v)
{
    for (int i = 0; i < c->nwhen; i++)
        if (!cond_holds(&c->when[i], v->when[i]))
            return 0;
    return c->how->broken(c, v);
}

static void render_cond(struct strbuf *sb, const struct rules_cond *k)
{
    sb_append(sb, "(");
    rules_render_value(sb, &k->field);
    if (k->op == RULES_WHEN_SET)
        sb_append(sb, " != 0");
    else if (k->op == RULES_WHEN_CLEAR)
        sb_append(sb, " == 0");
    else if (k->number < 0)
        sb_printf(sb, " == (unsigned long long)(%lldll)", k->number);
    else
        sb_printf(sb, " == %lluull", (unsigned long long)k->number);
    sb_append(sb, ")");
}

void rules_render_check(struct strbuf *sb, const struct rules_check *c)
{
    if (!c->nwhen) {
        c->how->render(sb, c);
        return;
    }
    sb_append(sb, "(");
    for (int i = 0; i < c->nwhen; i++)
        render_cond(sb, &c->when[i]), sb_append(sb, " && ");
    c->how->render(sb, c);
    sb_append(sb, ")");
}

void rules_cond_operands(struct strbuf *sb, const struct rules_check *c)
{
    for (int i = 0; i < c->nwhen; i++) {
        const struct rules_cond *k = &c->when[i];
        sb_printf(sb, "%swhen=%s", sb->len ? ";" : "", rules_field_shown(&k->field));
        if (k->op == RULES_WHEN_EQUALS)
            sb_printf(sb, "==%s", k->enumerator);
        else if (k->op == RULES_WHEN_CLEAR)
            sb_append(sb, "==0");
        else if (!k->field.bits) /* a flag bit reads as "F"; a value as "F!=0" */
            sb_append(sb, "!=0");
    }
}
