/* emit --checks: every check of the plan as one tab-separated line per
 * direction it runs in, the form tests/validate/labels/score.py measures
 * recall with and the precision sample is drawn from:
 *   page  line  record  subject  kind  operands  direction  rule-id  provenance
 * Operands are `k=v` joined by ';', named as the labels name them: align,
 * min, max, with (exclusive: one line per partner), requires (implies),
 * ref (at-least, in-set), when (the condition field of null-when, zero-when,
 * nonnull-iff; and each condition of a check: F, F!=0, F==0, F==X; an
 * at-least that exempts a zero subject: when=S!=0). A
 * record's validators also run the checks of the records they descend
 * into: those are listed again under it, with the subject's path from it
 * (`Flags.Reserved`) and the direction of that path. */
#include "rules.h"

#include "kinds.h"

#include "../util/strbuf.h"

#include <string.h>

static void add_operand(struct strbuf *sb, const char *name, const char *value)
{
    sb_printf(sb, "%s%s=%s", sb->len ? ";" : "", name, value);
}

/* The operands other than a pairwise partner (exclusive's "with"). */
static void common_operands(struct strbuf *sb, const struct rules_check *c)
{
    char n[32];
    if (c->kind_id == DDI_RULE_ALIGN) {
        snprintf(n, sizeof n, "%llu", c->value);
        add_operand(sb, "align", n);
    }
    if (c->has_min) {
        snprintf(n, sizeof n, "%llu", c->min);
        add_operand(sb, "min", n);
    }
    if (c->has_max) {
        snprintf(n, sizeof n, "%llu", c->max);
        add_operand(sb, "max", n);
    }
    if (c->enum_name)
        add_operand(sb, "enum", c->enum_name);
    /* the kind's row names its partner fields (kinds.c) */
    const char *name = c->how->operand;
    int shown = c->how->operand_partners ? c->how->operand_partners : c->npartners;
    for (int i = 0; name && c->kind_id != DDI_RULE_EXCLUSIVE && i < shown && i < c->npartners; i++)
        add_operand(sb, name, rules_field_shown(&c->partner[i]));
    rules_cond_operands(sb, c);
    /* at-least's zero exemption ("if ... a nonzero value") is a condition
     * on the subject: written as the conditions are */
    if (c->kind_id == DDI_RULE_AT_LEAST && c->value)
        sb_printf(sb, "%swhen=%s!=0", sb->len ? ";" : "", rules_field_shown(&c->subject));
}

/* Where a check is listed: the top record whose validator runs it, the
 * path from there to the check's own record ("" for its own checks, else
 * "Flags." or "Transfer.Flags."), and the directions of that path. */
struct listing {
    const struct rules_record *top;
    const char *prefix;
    unsigned dir;
};

/* One line with the given field as its subject (a pair of a mutual exclusion). */
static void print_pair(FILE *out, const struct listing *at, const struct rules_check *c,
                       const struct rules_field *subject, const char *operands, const char *dir)
{
    /* a selector's known-value check is a range over its enum's values
     * (enum=TYPE), the labels' kind for it; the plan keeps its own kind */
    const char *kind = c->kind_id == DDI_RULE_DISCRIMINATOR ? "range" : c->kind;
    fprintf(out, "%s\t%ld\t%s\t%s%s\t%s\t%s\t%s\t%s\t%s\n", c->page ? c->page : "", c->line, at->top->name,
            at->prefix, subject->path ? rules_field_shown(subject) : "", kind, operands, dir, c->id,
            c->provenance == DDI_PROVENANCE_REVIEWED ? "reviewed" : "extracted");
}

static void print_line(FILE *out, const struct listing *at, const struct rules_check *c, const char *operands,
                       const char *dir)
{
    print_pair(out, at, c, &c->subject, operands, dir);
}

static void print_check(FILE *out, const struct listing *at, const struct rules_check *c)
{
    static const struct {
        unsigned bit;
        const char *name;
    } dirs[] = {{RULES_DIR_IN, "in"}, {RULES_DIR_OUT, "out"}};
    struct strbuf common = {0}, one = {0};
    common_operands(&common, c);
    for (size_t d = 0; d < sizeof dirs / sizeof dirs[0]; d++) {
        if (!(c->dir & at->dir & dirs[d].bit))
            continue;
        if (c->kind_id != DDI_RULE_EXCLUSIVE || !c->npartners) {
            print_line(out, at, c, sb_str(&common), dirs[d].name);
            continue;
        }
        for (int i = 0; i < c->npartners; i++) {
            one.len = 0;
            sb_append(&one, sb_str(&common));
            add_operand(&one, "with", rules_field_shown(&c->partner[i]));
            print_line(out, at, c, sb_str(&one), dirs[d].name);
        }
        /* mutually exclusive: every pair, the partners' among them */
        for (int i = 0; c->mutual && i < c->npartners; i++)
            for (int j = i + 1; j < c->npartners; j++) {
                one.len = 0;
                sb_append(&one, sb_str(&common));
                add_operand(&one, "with", rules_field_shown(&c->partner[j]));
                print_pair(out, at, c, &c->partner[i], sb_str(&one), dirs[d].name);
            }
    }
    sb_free(&common);
    sb_free(&one);
}

/* The checks of the records rec's validators descend into, listed under
 * the top record with the path from it (depth bounded as the via of a
 * violation is). */
static void print_descents(FILE *out, const struct listing *at, const struct rules_record *rec, int depth)
{
    for (size_t i = 0; depth < DDI_VIOLATION_MAX_VIA && i < rec->ndescents; i++) {
        const struct rules_descent *d = &rec->descents[i];
        struct strbuf prefix = {0};
        sb_printf(&prefix, "%s%s.", at->prefix, d->path);
        struct listing inner = {at->top, sb_str(&prefix), at->dir & d->dir};
        for (size_t j = 0; inner.dir && j < d->callee->nchecks; j++)
            print_check(out, &inner, &d->callee->checks[j]);
        if (inner.dir)
            print_descents(out, &inner, d->callee, depth + 1);
        sb_free(&prefix);
    }
}

void rules_print_checks(const struct rules_plan *plan, FILE *out)
{
    fputs("page\tline\trecord\tsubject\tkind\toperands\tdirection\trule-id\tprovenance\n", out);
    for (size_t i = 0; i < plan->nrecords; i++) {
        const struct rules_record *r = &plan->records[i];
        struct listing own = {r, "", RULES_DIR_BOTH};
        for (size_t j = 0; j < r->nchecks; j++)
            print_check(out, &own, &r->checks[j]);
        print_descents(out, &own, r, 0);
    }
}
