/* Host evaluation of a lowered record over its raw bytes (for `ddigen
 * trace`): the same checks, in the same order and with the same meaning as
 * the generated validators, with offsets taken from the model of the
 * layout (gen/model) for one architecture and DDI version instead of from a
 * C compiler. */
#include "rules.h"

#include "kinds.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct reader {
    const struct rules_plan *plan;
    int arch, version;
    const unsigned char *bytes;
    size_t len;
    int truncated;
};

/* The field's value, zero-extended; a field outside the bytes reads 0 and
 * marks the record truncated. */
static unsigned long long read_field(struct reader *r, const struct rules_field *f)
{
    long bit = 0;
    for (int i = 0; i < f->depth; i++) {
        long o = ddi_model_offset(f->chain[i], r->arch, r->version);
        if (o < 0) {
            r->truncated = 1;
            return 0;
        }
        bit += o;
    }
    int width_bits = f->bits ? f->bits : f->width[r->arch] * 8;
    size_t first = (size_t)bit / 8, last = ((size_t)bit + (size_t)width_bits - 1) / 8;
    if (width_bits <= 0 || width_bits > 64 || last >= r->len || last - first > 8) {
        r->truncated = 1;
        return 0;
    }
    /* Little-endian on every DDI target: assemble, then shift out the bits. */
    unsigned long long lo = 0, hi = 0;
    for (size_t i = first; i <= last && i < first + 8; i++)
        lo |= (unsigned long long)r->bytes[i] << (8 * (i - first));
    if (last - first == 8)
        hi = r->bytes[last];
    unsigned shift = (unsigned)(bit % 8);
    unsigned long long v = shift ? (lo >> shift) | (hi << (64 - shift)) : lo;
    return width_bits == 64 ? v : v & ((1ull << width_bits) - 1);
}

static int exists(const struct reader *r, uint64_t versions, unsigned archs)
{
    return (versions >> r->version & 1) && (archs >> r->arch & 1);
}

struct tally {
    unsigned long n;
    ddi_violation *first;
    unsigned long flags;
    const char *via[DDI_VIOLATION_MAX_VIA]; /* the embedding fields descended through, outermost first */
    int depth;
};

/* Records a violation as the generated ddi_validate_report_ does (the
 * first kept, the flags of all or-ed); nonzero when evaluation must stop. */
static int report(struct tally *t, const char *id, const char *field, unsigned long long observed,
                  unsigned long rule_flags)
{
    if (t->first) {
        if (t->n == 0) {
            t->first->rule_id = id;
            t->first->field = field;
            t->first->observed = observed;
            t->first->flags = 0;
            for (int i = 0; i < DDI_VIOLATION_MAX_VIA; i++)
                t->first->via[i] = i < t->depth ? t->via[i] : NULL;
        }
        t->first->flags |= rule_flags;
    }
    t->n++;
    return (t->flags & RULES_STOP_AT_FIRST) != 0;
}

/* One check; returns nonzero to stop. */
static int eval_check(struct reader *r, const struct rules_check *c, struct tally *t)
{
    int truncated_before = r->truncated;
    r->truncated = 0;
    struct rules_values v = {.subject = c->subject.depth ? read_field(r, &c->subject) : 0,
                             .npartners = c->npartners,
                             .version = r->version};
    for (int i = 0; i < c->npartners; i++)
        v.partner[i] = read_field(r, &c->partner[i]);
    for (int i = 0; i < c->nwhen; i++)
        v.when[i] = read_field(r, &c->when[i].field);
    /* A field past the end of the bytes is unknown, not zero: no verdict. */
    int missing = r->truncated;
    r->truncated |= truncated_before;
    if (missing)
        return 0;
    int bad = rules_broken(c, &v);
    return bad ? report(t, c->id, rules_field_shown(&c->subject), v.subject,
                        c->provenance == DDI_PROVENANCE_REVIEWED ? DDI_VIOLATION_REVIEWED : 0ul)
               : 0;
}

static int member_matches(const char *a, const char *b)
{
    return (a == NULL) == (b == NULL) && (!a || strcmp(a, b) == 0);
}

static int eval_record(struct reader *r, const struct rules_record *rec, unsigned dir, struct tally *t);

/* The validator of an embedded record over its bytes within this one. */
static int eval_descent(struct reader *r, const struct rules_descent *d, unsigned dir, struct tally *t)
{
    long bit = ddi_model_offset(d->field, r->arch, r->version);
    if (bit < 0 || bit % 8 || (size_t)bit / 8 > r->len) {
        r->truncated = 1;
        return 0;
    }
    struct reader inner = *r;
    inner.bytes = r->bytes + bit / 8;
    inner.len = r->len - (size_t)bit / 8;
    inner.truncated = 0;
    if (t->depth < DDI_VIOLATION_MAX_VIA)
        t->via[t->depth] = d->path;
    t->depth++;
    int stop = eval_record(&inner, d->callee, dir, t);
    t->depth--;
    r->truncated |= inner.truncated;
    return stop;
}

/* The plain checks in order, then each reserved-bit group behind its one
 * test of the flag word, then the embedded records: the order the
 * generated code has. */
static int eval_checks(struct reader *r, const struct rules_record *rec, unsigned dir, const char *member,
                       struct tally *t)
{
    for (size_t i = 0; i < rec->nchecks; i++) {
        const struct rules_check *c = &rec->checks[i];
        if (c->mask_group >= 0 || c->kind_id == DDI_RULE_DISCRIMINATOR || !(c->dir & dir) || !exists(r, c->versions, c->archs) ||
            !member_matches(c->member, member))
            continue;
        if (eval_check(r, c, t))
            return 1;
    }
    for (size_t g = 0; g < rec->nmasks; g++) {
        const struct rules_mask *m = &rec->masks[g];
        if (!(m->dir & dir) || !member_matches(m->member, member) || !exists(r, m->word.versions, m->word.archs))
            continue;
        if ((read_field(r, &m->word) & m->mask) == 0)
            continue;
        for (size_t i = 0; i < rec->nchecks; i++) {
            const struct rules_check *c = &rec->checks[i];
            if (c->mask_group == (int)g && eval_check(r, c, t))
                return 1;
        }
    }
    for (size_t i = 0; i < rec->ndescents; i++) {
        const struct rules_descent *d = &rec->descents[i];
        if (!(d->dir & dir) || !member_matches(d->member, member) || !exists(r, d->versions, d->archs))
            continue;
        if (eval_descent(r, d, dir, t))
            return 1;
    }
    return 0;
}

/* Order as generated: the selector and its member, then the rest. */
static int eval_record(struct reader *r, const struct rules_record *rec, unsigned dir, struct tally *t)
{
    if (!exists(r, rec->versions, rec->archs) || !(rec->dirs & dir))
        return 0;
    int stop = 0;
    for (size_t i = 0; i < rec->nchecks && !stop; i++) {
        const struct rules_check *c = &rec->checks[i];
        if (c->kind_id != DDI_RULE_DISCRIMINATOR || !exists(r, c->versions, c->archs))
            continue;
        /* the selector's value is checked in its own direction; its member in both */
        if (c->dir & dir)
            stop = eval_check(r, c, t);
        int truncated_before = r->truncated;
        r->truncated = 0;
        unsigned long long sel = read_field(r, &c->subject);
        int unknown = r->truncated; /* no selector in the bytes: no member to check */
        r->truncated |= truncated_before;
        for (size_t k = 0; k < c->ncases && !stop && !unknown; k++)
            if ((unsigned long long)c->cases[k].number == sel && c->cases[k].member &&
                (c->cases[k].member_versions >> r->version & 1))
                stop = eval_checks(r, rec, dir, c->cases[k].member, t);
    }
    if (!stop)
        stop = eval_checks(r, rec, dir, NULL, t);
    return stop;
}

unsigned long rules_eval(const struct rules_plan *plan, const struct rules_record *rec, const char *arch,
                         const char *version, unsigned dir, const void *bytes, size_t len, ddi_violation *first,
                         unsigned long flags)
{
    struct reader r = {.plan = plan,
                       .arch = arch ? ddi_arch_find(&plan->where, arch, strlen(arch)) : -1,
                       .version = version ? ddi_version_find(&plan->where, version, strlen(version)) : -1,
                       .bytes = bytes,
                       .len = len};
    struct tally t = {.first = first, .flags = flags};
    if (!rec || r.arch < 0 || r.version < 0 || !exists(&r, rec->versions, rec->archs))
        return 0;
    eval_record(&r, rec, dir, &t);
    if (r.truncated && (t.n == 0 || !(flags & RULES_STOP_AT_FIRST)))
        report(&t, "ddigen.truncated", rec->name, len, 0ul);
    return t.n;
}
