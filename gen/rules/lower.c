/* Rule lowering: reads the model of the spec (gen/model: layout, rules
 * joined with their merge resolutions, discriminators) and decides, per
 * documented rule, the check it becomes or why it cannot be one. */
#include "rules.h"

#include "ground.h"
#include "kinds.h"
#include "reach.h"

#include "../model/model.h"

#include "../util/arena.h"
#include "../util/diag.h"
#include "../util/strbuf.h"
#include "../util/strmap.h"

#include <stdlib.h>
#include <string.h>

struct lower {
    struct rules_plan *plan;
    struct arena *a;
    const struct ddi_model *m;
    struct reach *reach; /* who writes which field, by the paths from the DDIs */
    struct ground_read_only read_only; /* records taken only through pointers to const */
};

static int streq(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

static uint64_t all_versions(const struct rules_plan *plan)
{
    return ddi_vset_all(&plan->where);
}

/* ---- fields ------------------------------------------------------------ */

/* Bytes of a field's value on one architecture as the layout measured
 * it (0 when it is not an integer, enum or pointer); LARGE_INTEGER, a
 * union, is read through its QuadPart. */
static int scalar_width(const struct ddi_model_field *field, size_t arch, int *pointer, int *is_signed, int *quad)
{
    const char *canon = field->canonical;
    if (canon && strstr(canon, "LARGE_INTEGER") && !strchr(canon, '*')) {
        *quad = 1;
        return 8;
    }
    struct ddi_type_fact f = ddi_model_fact(field, (int)arch, -1);
    if (!ddi_type_is_integer(&f))
        return 0;
    *pointer = f.cls == DDI_TYPE_POINTER;
    *is_signed |= f.cls == DDI_TYPE_SIGNED;
    return (int)f.bytes;
}

/* The designator as the header wrote it: each field of the chain whose
 * name a macro made (`#define DXGK_ALLOC_RESERVED15 Reserved15`) under the
 * macro's name, which the page and the driver's source use; path itself
 * when none was, or when the chain does not spell path segment by segment. */
static const char *spelled_path(struct lower *l, const char *path, const struct ddi_model_chain *chain)
{
    struct strbuf real = {0}, shown = {0};
    int spelled = 0;
    for (int i = 0; i < chain->depth; i++) {
        const struct ddi_model_field *f = chain->field[i];
        if (!f->path || !f->name)
            break;
        size_t keep = strlen(f->path) - strlen(f->name);
        const char *name = f->spelled && *f->name ? f->spelled : f->name;
        spelled |= name != f->name;
        sb_printf(&real, "%s%s", i ? "." : "", f->path);
        sb_printf(&shown, "%s%.*s%s", i ? "." : "", (int)keep, f->path, name);
    }
    const char *out = spelled && streq(sb_str(&real), path) ? arena_strdup(l->a, sb_str(&shown)) : path;
    sb_free(&real), sb_free(&shown);
    return out;
}

/* A designator the model resolved (chain) as a value a check reads: 0, or
 * -1 when it named no field or a field that is not a scalar. */
static int scalar_field(struct lower *l, const char *path, const struct ddi_model_chain *chain,
                        struct rules_field *f)
{
    memset(f, 0, sizeof *f);
    f->path = f->shown = path;
    f->versions = all_versions(l->plan);
    f->archs = ddi_archset_all(&l->plan->where);
    if (!chain->depth)
        return -1;
    for (int i = 0; i < chain->depth; i++) {
        f->chain[f->depth++] = chain->field[i];
        f->versions &= chain->field[i]->eff_versions;
        f->archs &= chain->field[i]->eff_archs;
    }
    f->shown = spelled_path(l, path, chain);
    const struct ddi_model_field *last = f->chain[f->depth - 1];
    int quad = 0;
    f->bits = last->bits;
    for (size_t i = 0; i < l->plan->where.narchs; i++)
        f->width[i] = f->bits ? (f->bits + 7) / 8 : scalar_width(last, i, &f->pointer, &f->is_signed, &quad);
    if (f->bits)
        f->pointer = 0;
    f->access = quad ? arena_concat(l->a, path, ".QuadPart", NULL) : f->path;
    if (!f->bits && !f->width[0])
        return -1;
    if (last->array)
        return -1; /* an array is not one value; its elements have no rule here */
    return 0;
}

/* The same for a designator from rec not resolved yet. */
static int resolve(struct lower *l, const struct ddi_model_record *rec, const char *path, struct rules_field *f)
{
    struct ddi_model_chain chain;
    ddi_model_resolve(l->m, rec, path, &chain);
    return scalar_field(l, path, &chain, f);
}

/* ---- per-record lowering --------------------------------------------- */

struct building {
    struct vec checks, skips, masks, members;
    const struct ddi_model_record *rec;
    const struct ddi_model_discriminator *disc;
};

static struct rules_skip *skip(struct lower *l, struct building *b, const char *id, const char *kind,
                               const char *reason, const char *page, long line)
{
    struct rules_skip *s = arena_alloc(l->a, sizeof *s);
    s->id = id, s->kind = kind, s->reason = reason, s->page = page, s->line = line;
    vec_push(&b->skips, s);
    return s;
}

/* The validators a field's checks go to by its record's own marks
 * (reach.c; narrowed by the paths that reach the record in lower_record). */
static unsigned dir_of(struct lower *l, struct building *b, const char *path)
{
    return reach_marked_dir(l->reach, b->rec, path);
}

static const char *member_of(struct building *b, const char *path)
{
    if (!b->disc || !path)
        return NULL;
    size_t n = strcspn(path, ".");
    for (size_t i = 0; i < b->disc->ncases; i++) {
        const char *m = b->disc->cases[i].member;
        if (m && strlen(m) == n && strncmp(m, path, n) == 0 && path[n] == '.')
            return m;
    }
    return NULL;
}

/* Field operands of a rule with the given name; -1 (and the reason) when
 * one did not resolve or is not a scalar. */
static int partners(struct lower *l, const struct ddi_model_rule *rule, const char *name, struct rules_check *c,
                    const char **reason)
{
    for (size_t i = 0; i < rule->noperands; i++) {
        const struct ddi_model_operand *o = &rule->operands[i];
        if (!streq(o->name, name))
            continue;
        if (!o->resolved) {
            *reason = arena_printf(l->a, "operand '%s' did not resolve to a field",
                                   o->value ? ddigen_quote(o->value) : "?");
            return -1;
        }
        if (c->npartners == RULES_MAX_PARTNERS) {
            *reason = "too many operands";
            return -1;
        }
        if (scalar_field(l, o->field, &o->target, &c->partner[c->npartners]) != 0) {
            *reason = arena_printf(l->a, "operand '%s' is not a scalar field", ddigen_quote(o->field));
            return -1;
        }
        c->versions &= c->partner[c->npartners].versions;
        c->archs &= c->partner[c->npartners].archs;
        c->npartners++;
    }
    return 0;
}

/* The rule being lowered, as kinds.c sees it. */
struct rules_lowering {
    struct lower *l;
    const struct ddi_model_rule *rule;
    int has_subject;
};

const char *rules_operand(struct rules_lowering *lw, const char *name)
{
    return ddi_model_docs_operand(lw->rule, name);
}

int rules_partners(struct rules_lowering *lw, const char *name, struct rules_check *c, const char **reason)
{
    return partners(lw->l, lw->rule, name, c, reason);
}

int rules_has_subject(const struct rules_lowering *lw)
{
    return lw->has_subject;
}

const struct ddi_model_rule *rules_rule(const struct rules_lowering *lw)
{
    return lw->rule;
}

const struct ddi_model *rules_model(const struct rules_lowering *lw)
{
    return lw->l->m;
}

struct arena *rules_arena(const struct rules_lowering *lw)
{
    return lw->l->a;
}

const struct ddi_versions *rules_where(const struct rules_lowering *lw)
{
    return &lw->l->plan->where;
}

int rules_field(struct rules_lowering *lw, const char *path, const struct ddi_model_chain *chain,
                struct rules_field *f)
{
    if (chain)
        return scalar_field(lw->l, path, chain, f);
    return resolve(lw->l, lw->rule->record, path, f);
}

/* Whether the condition clause names the rule's subject ("this member",
 * its name) or one of its field operands: then the operands carry it ("If
 * NoDmaPatching is set to 1, ..."), unlike "If the current context was
 * executing an operation that used a paging buffer". */
static int condition_names_fields(const struct ddi_model_rule *rule)
{
    static const char *const self[] = {"this member", "this flag", "this bit", "this field", "this value"};
    const char *cond = rule->condition;
    for (size_t i = 0; i < sizeof self / sizeof self[0]; i++)
        if (strstr(cond, self[i]))
            return 1;
    const char *leaf = rule->subject ? strrchr(rule->subject, '.') : NULL;
    leaf = leaf ? leaf + 1 : rule->subject;
    if (leaf && *leaf && strstr(cond, leaf))
        return 1;
    for (size_t i = 0; i < rule->noperands; i++) {
        const char *f = rule->operands[i].resolved ? rule->operands[i].field : NULL;
        const char *fl = f ? strrchr(f, '.') : NULL;
        fl = fl ? fl + 1 : f;
        if (fl && *fl && strstr(cond, fl))
            return 1;
    }
    return 0;
}

/* Whether the rule's record has a discriminator rule (validity condition)
 * on the rule's subject that the rule's <when>s do not carry: they carry it
 * when a reviewer wrote them, or when they were read from the very clause
 * the discriminator rule states. */
static int meaningful_only_if(const struct ddi_model_rule *rule)
{
    const struct ddi_model_record *rec = rule->record;
    for (size_t i = 0; rec && i < rec->nrules; i++) {
        const struct ddi_model_rule *d = rec->rules[i];
        if (d == rule || d->kind != DDI_RULE_DISCRIMINATOR || !d->subject || !streq(d->subject, rule->subject))
            continue;
        int carried = rule->nwhens && (rule->provenance == DDI_PROVENANCE_REVIEWED ||
                                       streq(d->condition, rule->condition));
        if (!carried)
            return 1;
    }
    return 0;
}

/* Fills c from one rule; returns NULL, or why it is not a check. */
/* The versions a rule's page dates it to: "earlier than WDDM 2.1"
 * (before-ddi), "starting with WDDM 2.0" (ddi); every version when
 * undated or when the kit lacks the version named. */
static uint64_t dated_versions(struct lower *l, const struct ddi_model_rule *r)
{
    uint64_t all = all_versions(l->plan), out = all;
    const char *from = ddi_model_docs_operand(r, "ddi"), *until = ddi_model_docs_operand(r, "before-ddi");
    int v = from ? ddi_version_find(&l->plan->where, from, strlen(from)) : -1;
    if (v >= 0)
        out &= ~(((uint64_t)1 << v) - 1);
    v = until ? ddi_version_find(&l->plan->where, until, strlen(until)) : -1;
    if (v >= 0)
        out &= ((uint64_t)1 << v) - 1;
    return out & all;
}

static const char *lower_rule(struct lower *l, const struct ddi_model_rule *rule, struct rules_check *c)
{
    const char *field = rule->subject;
    int k = rule->kind;
    const struct rules_kind *how = k >= 0 ? &rules_kinds[k] : NULL;
    if (rule->review == DDI_REVIEW_DROP)
        return arena_printf(l->a, "dropped by the reviewed file (line %ld): %s", rule->review_line,
                            rule->review_reason ? rule->review_reason : "");
    if (how && how->unchecked)
        return how->unchecked;
    /* The docs stage marks a rule whose sentence states a condition its
     * operands do not carry ("When the driver is first called with a new
     * paging buffer, this address is aligned on 4 KB"): checked
     * unconditionally it would refuse the calls the condition exempts. */
    /* ... unless the condition is data (<when>s, conditions.c) */
    if (how && how->unconditional_only && rule->condition && !rule->nwhens &&
        !(how->condition_in_fields && condition_names_fields(rule)))
        return "the sentence states a condition the rule does not carry";
    /* "This parameter is ignored when BaseAddress != NULL": a check of the
     * field would hold only where the page says it is meaningful, a
     * condition not carried here; dropped, never widened. */
    if (how && how->unconditional_only && !how->condition_in_fields && field && meaningful_only_if(rule))
        return "the page says when the field is meaningful, a condition the check does not carry";
    int set_rule = how && how->subject_optional && !field;
    if (!field && !set_rule)
        return "names no field of the record";
    if (field && !(how && how->subject_record) && scalar_field(l, field, &rule->subject_field, &c->subject) != 0)
        return arena_printf(l->a, "'%s' is not a scalar field", ddigen_quote(field));
    if (field && k == DDI_RULE_RESERVED_ZERO) {
        /* Reserved0 in union { ReservationType; Reserved0; }, or Reserved:31
         * beside Resident:1 in one union: zero would refuse every value of
         * the named field that shares the bits. */
        const struct ddi_model_field *other =
            ground_shared_bits(&l->plan->where, c->subject.chain[c->subject.depth - 1]);
        if (other)
            return arena_printf(l->a, "shares its bits with %s, a named field", ddigen_quote(other->path));
    }
    if (field && !(how && how->subject_record)) {
        c->versions &= c->subject.versions;
        c->archs &= c->subject.archs;
    }
    if (!how || !how->lower)
        return "no check for this kind";
    c->kind_id = (enum ddi_rule_kind)k;
    c->how = how;
    struct rules_lowering lw = {l, rule, field != NULL};
    const char *why = rules_lower_conds(&lw, c);
    if (!why)
        why = how->lower(&lw, c);
    if (why)
        return why;
    if (!c->versions || !c->archs)
        return "its fields never exist together";
    c->versions &= dated_versions(l, rule);
    if (!c->versions)
        return "the page dates it to versions this spec does not have";
    return NULL;
}

/* A condition "selector == the value that selects the member the check
 * lies in" always holds where the check runs (the member's validator runs
 * only under it): not tested twice, not written in --checks. */
static void drop_selection_whens(struct building *b, struct rules_check *c)
{
    int kept = 0;
    for (int i = 0; i < c->nwhen; i++) {
        const struct rules_cond *k = &c->when[i];
        int selects = 0;
        for (size_t j = 0; b->disc && c->member && k->op == RULES_WHEN_EQUALS && j < b->disc->ncases; j++)
            selects |= streq(k->field.path, b->disc->selector) && streq(k->enumerator, b->disc->cases[j].value) &&
                       streq(b->disc->cases[j].member, c->member);
        if (!selects)
            c->when[kept++] = *k;
    }
    c->nwhen = kept;
}

static void add_check(struct lower *l, struct building *b, struct rules_check *c, const struct ddi_model_rule *r)
{
    c->dir = dir_of(l, b, c->subject.path ? c->subject.path : "");
    /* The page describes the value on entry and says the driver changes it
     * before it returns (pDmaBuffer: "the next empty byte"): the caller's. */
    const char *at = r ? ddi_model_docs_operand(r, "at") : NULL;
    if (at && !strcmp(at, "entry"))
        c->dir = RULES_DIR_IN;
    const char *sentence = r ? r->sentence : c->sentence;
    c->member = member_of(b, c->subject.path);
    drop_selection_whens(b, c);
    c->mask_group = -1;
    c->sentence = sentence;
    struct rules_check *copy = arena_alloc(l->a, sizeof *copy);
    *copy = *c;
    vec_push(&b->checks, copy);
}

static int is_direction(const struct ddi_model_rule *r)
{
    return streq(r->kind_name, "direction");
}

/* A record every DDI takes through a pointer to const: what is checked on
 * return is what the caller set, so no check is the driver's. */
static void drop_out(struct lower *l, struct building *b)
{
    size_t kept = 0;
    for (size_t i = 0; i < b->checks.len; i++) {
        struct rules_check *c = b->checks.items[i];
        c->dir &= ~RULES_DIR_OUT;
        if (c->dir)
            b->checks.items[kept++] = c;
        else
            skip(l, b, c->id, c->kind, "the DDI passes the record const: the driver writes none of it", c->page,
                 c->line)->provenance = c->provenance;
    }
    b->checks.len = kept;
}

/* A rule's ID as the validators name it: the docs stage prefixes it with
 * the page's name, which is the typedef on some pages and the tag on
 * others (`_D3DDDI_RESOURCEFLAGS.Dynamic:exclusive:HintStatic`); the record's
 * name in the layout is the one prefix (issue 26, one naming). The spec
 * keeps the docs stage's ID (its <rule id>, <review rule>). */
static const char *typedef_id(struct lower *l, const struct ddi_model_record *rec, const char *id)
{
    size_t n = strcspn(id, ".:"), name = strlen(rec->name);
    if (!id[n] || (n == name && !strncmp(id, rec->name, n)))
        return id;
    int tag = rec->tag && strlen(rec->tag) == n && !strncmp(id, rec->tag, n);
    int underscored = id[0] == '_' && n == name + 1 && !strncmp(id + 1, rec->name, name);
    return tag || underscored ? arena_printf(l->a, "%s%s", rec->name, id + n) : id;
}

static void lower_rules(struct lower *l, struct building *b, const struct ddi_model_record *rec)
{
    for (size_t i = 0; i < rec->nrules; i++) {
        const struct ddi_model_rule *r = rec->rules[i];
        if (is_direction(r))
            continue;
        if (strpbrk(r->id, "\"\\\n") || strstr(r->id, "*/")) {
            skip(l, b, "(unprintable ID)", r->kind_name, "the ID cannot be written in a C string", r->page, 0);
            continue;
        }
        const char *id = typedef_id(l, rec, r->id);
        struct rules_check c = {.id = id, .kind = r->kind_name, .page = r->page, .line = r->line,
                                .provenance = r->provenance};
        c.versions = all_versions(l->plan);
        c.archs = ddi_archset_all(&l->plan->where);
        const char *why = lower_rule(l, r, &c);
        if (why)
            skip(l, b, id, r->kind_name, why, r->page, c.line)->provenance = r->provenance;
        else
            add_check(l, b, &c, r);
    }
}

/* A reader of a field's header facts into one check (enum_values.c,
 * sal_sizes.c): 0 when the field has none, else 1 with the check or *why. */
typedef int field_lowerer(struct rules_lowering *lw, const struct ddi_model_record *rec,
                          const struct ddi_model_field *f, int in_selected_member, unsigned dir,
                          struct rules_check *c, const char **why);

/* Checks the header states of each field (the selector is the
 * discriminator's already), the caller's values only: a field's explicit
 * direction (the page's [in] or the header's _In_; unmarked, the default is
 * a guess), or, when const_is_caller, every field of a record passed const. */
static void lower_header_facts(struct lower *l, struct building *b, const struct ddi_model_record *rec,
                               field_lowerer *lower_field, int const_is_caller)
{
    struct rules_lowering lw = {l, NULL, 1};
    for (size_t i = 0; i < rec->nall; i++) {
        const struct ddi_model_field *f = rec->all[i];
        if (!f->path || (b->disc && streq(f->path, b->disc->selector)))
            continue;
        struct rules_check c = {.versions = all_versions(l->plan), .archs = ddi_archset_all(&l->plan->where)};
        const char *why = NULL;
        unsigned dir = reach_explicit_dir(l->reach, rec, f->path);
        if (!dir && const_is_caller && ground_read_only(&l->read_only, rec))
            dir = RULES_DIR_IN;
        if (!lower_field(&lw, rec, f, member_of(b, f->path) != NULL, dir, &c, &why))
            continue;
        if (why) {
            skip(l, b, c.id, c.kind, why, c.page, c.line);
            continue;
        }
        add_check(l, b, &c, NULL);
        ((struct rules_check *)b->checks.items[b->checks.len - 1])->dir = RULES_DIR_IN;
    }
}

static void lower_discriminator(struct lower *l, struct building *b, const struct ddi_model_record *rec)
{
    const char *selector = b->disc->selector;
    struct rules_check c = {.kind = "discriminator", .kind_id = DDI_RULE_DISCRIMINATOR,
                            .how = &rules_kinds[DDI_RULE_DISCRIMINATOR]};
    c.id = arena_printf(l->a, "%s.%s:known-value", rec->name, selector ? selector : "?");
    c.versions = all_versions(l->plan);
    c.archs = ddi_archset_all(&l->plan->where);
    if (!selector || resolve(l, rec, selector, &c.subject) != 0) {
        skip(l, b, c.id, c.kind, "the selector is not a scalar field", NULL, 0);
        return;
    }
    c.versions &= c.subject.versions;
    c.cases = arena_alloc(l->a, (b->disc->ncases ? b->disc->ncases : 1) * sizeof *c.cases);
    for (size_t i = 0; i < b->disc->ncases; i++) {
        const struct ddi_model_case *k = &b->disc->cases[i];
        struct rules_case *rc = &c.cases[c.ncases++];
        rc->number = k->number;
        rc->value = k->value;
        /* The value is known where the enum has it; its member is checked
         * only where the union has that member too (VIRTUAL_TRANSFER is an
         * operation from WIN7, its TransferVirtual member from WDDM 2.0). */
        rc->versions = k->versions;
        rc->member = k->member_field ? k->member : NULL;
        if (rc->member) {
            rc->member_versions = rc->versions & k->member_field->eff_versions;
            vec_push(&b->members, (void *)rc->member);
        }
    }
    /* generated from the header, as an enum field's values are: the
     * selector's declaration is where the rule comes from */
    c.page = rec->file;
    c.line = (long)c.subject.chain[0]->line;
    c.enum_name = b->disc->enum_name;
    c.sentence = arena_printf(l->a, "%s selects the member of the union; its value must be a known %s.",
                              selector, b->disc->enum_name);
    c.dir = dir_of(l, b, selector);
    c.member = NULL;
    c.mask_group = -1;
    struct rules_check *copy = arena_alloc(l->a, sizeof *copy);
    *copy = c;
    vec_push(&b->checks, copy);
}

/* The flag word (Value) that shares a union with the struct holding the
 * bitfield f, or NULL. */
static const struct ddi_model_field *flag_word(const struct ddi_model_field *f)
{
    const struct ddi_model_field *anon = f->owner->holder;
    const struct ddi_model_record *uni = anon ? anon->owner : NULL;
    if (!uni || !uni->is_union)
        return NULL;
    for (size_t i = 0; i < uni->nfields; i++)
        if (streq(uni->fields[i]->name, "Value") && !uni->fields[i]->bitfield)
            return uni->fields[i];
    return NULL;
}

/* The mask of the reserved bitfield of c in its flag word w (the same
 * shift on every architecture), or 0. */
static unsigned long long mask_in_word(struct lower *l, const struct rules_check *c,
                                       const struct ddi_model_field *f, const struct ddi_model_field *w,
                                       const struct rules_field *word)
{
    long shift = -1;
    int same = 1;
    for (size_t a = 0; a < l->plan->where.narchs; a++) {
        long fo = ddi_model_offset(f, (int)a, -1), wo = ddi_model_offset(w, (int)a, -1);
        long s = fo < 0 || wo < 0 ? -1 : fo - wo;
        if (a == 0)
            shift = s;
        same &= s == shift;
    }
    if (!same || shift < 0 || shift + c->subject.bits > word->width[0] * 8)
        return 0;
    return (c->subject.bits >= 64 ? ~0ull : (1ull << c->subject.bits) - 1) << shift;
}

/* Reserved bitfields that always exist go through one test of the flag
 * word against their mask; the per-field checks run only when it fails. */
static void group_masks(struct lower *l, struct building *b, const struct ddi_model_record *rec)
{
    for (size_t i = 0; i < b->checks.len; i++) {
        struct rules_check *c = b->checks.items[i];
        if (c->kind_id != DDI_RULE_RESERVED_ZERO || !c->subject.bits || c->subject.depth != 1)
            continue;
        const struct ddi_model_field *f = c->subject.chain[0], *w = flag_word(f);
        if (!w)
            continue;
        struct rules_field word;
        if (resolve(l, rec, w->path, &word) != 0 || word.versions != c->versions || c->archs != word.archs)
            continue;
        unsigned long long bits = mask_in_word(l, c, f, w, &word);
        if (!bits)
            continue;
        size_t g = 0;
        for (; g < b->masks.len; g++) {
            struct rules_mask *m = b->masks.items[g];
            if (streq(m->word.path, word.path) && m->dir == c->dir &&
                ((!m->member && !c->member) || streq(m->member, c->member)))
                break;
        }
        if (g == b->masks.len) {
            struct rules_mask *m = arena_alloc(l->a, sizeof *m);
            m->word = word;
            m->dir = c->dir;
            m->member = c->member;
            vec_push(&b->masks, m);
        }
        ((struct rules_mask *)b->masks.items[g])->mask |= bits;
        c->mask_group = (int)g;
    }
}

static void *vec_copy(struct lower *l, struct vec *v, size_t elem)
{
    char *out = arena_alloc(l->a, (v->len ? v->len : 1) * elem);
    for (size_t i = 0; i < v->len; i++)
        memcpy(out + i * elem, v->items[i], elem);
    return out;
}

/* Why a check runs in none of the validators the paths from the DDIs
 * leave its record (reach.c). */
static const char *unreached_reason(const struct reach_context *ctx, unsigned had)
{
    if (!ctx->dirs)
        return "the OS returns the record to the driver (a callback's output): not the driver's to check";
    if (had == RULES_DIR_OUT && ctx->called_back)
        return "the OS writes it back on a call the driver makes: not the driver's to check";
    if (had == RULES_DIR_OUT)
        return "the driver does not write it: every path from the DDIs reaches the record through a field the "
               "caller sets";
    return "the driver fills it: every path from the DDIs reaches the record through a field the driver writes, "
           "unset on entry";
}

/* A record the DDIs reach is checked only in the directions of the paths
 * that reach it: a flag record in an [in] argument only on _in, one in an
 * [out] member only on _out, a callback's argument only on _in (what the
 * driver set before calling), a callback's output never. */
static void narrow_to_paths(struct lower *l, struct building *b, const struct reach_context *ctx)
{
    size_t kept = 0;
    for (size_t i = 0; i < b->checks.len; i++) {
        struct rules_check *c = b->checks.items[i];
        unsigned had = c->dir;
        c->dir &= ctx->dirs;
        if (!c->dir && !ctx->direct)
            c->dir = ctx->dirs; /* reached only embedded: the embedding field's direction overrides the marks */
        if (c->dir)
            b->checks.items[kept++] = c;
        else
            skip(l, b, c->id, c->kind, unreached_reason(ctx, had), c->page, c->line)->provenance = c->provenance;
    }
    b->checks.len = kept;
}

/* A record no path from the DDIs reaches: each check only in the
 * validators its field's marks name (reach_field_dir); a field of a record
 * that marks none has no direction to check in. */
static void narrow_unreached(struct lower *l, struct building *b)
{
    size_t kept = 0;
    for (size_t i = 0; i < b->checks.len; i++) {
        struct rules_check *c = b->checks.items[i];
        c->dir &= reach_field_dir(l->reach, b->rec, c->subject.path ? c->subject.path : "");
        if (c->dir)
            b->checks.items[kept++] = c;
        else
            skip(l, b, c->id, c->kind,
                 "no path from the DDI entry points reaches the record and nothing marks who writes the field",
                 c->page, c->line)
                ->provenance = c->provenance;
    }
    b->checks.len = kept;
}

/* Whether the record holds, by value, a record with documented rules: its
 * validator may have to descend into it though it has no rule of its own. */
static int embeds_rules(const struct ddi_model_record *rec)
{
    for (size_t i = 0; i < rec->nall; i++) {
        const struct ddi_model_record *e = reach_embedded(rec->all[i]);
        if (e && (e->nrules || e->discriminator))
            return 1;
    }
    return 0;
}

static int lower_record(struct lower *l, const struct ddi_model_record *rec, struct rules_record *out)
{
    if (rec->referenced)
        return 0;
    struct building b = {.rec = rec, .disc = rec->discriminator};
    if (b.disc)
        lower_discriminator(l, &b, rec);
    lower_rules(l, &b, rec);
    lower_header_facts(l, &b, rec, rules_lower_enum_value, 0); /* enum fields against their values */
    lower_header_facts(l, &b, rec, rules_lower_sal_size, 1);   /* SAL-sized pointers against their sizes */
    int read_only = ground_read_only(&l->read_only, rec);
    if (read_only)
        drop_out(l, &b);
    struct reach_context ctx = reach_context_of(l->reach, rec);
    if (ctx.reached)
        narrow_to_paths(l, &b, &ctx);
    else
        narrow_unreached(l, &b);
    group_masks(l, &b, rec);
    int keep = b.checks.len || b.skips.len || (ctx.dirs && embeds_rules(rec));
    if (keep) {
        out->name = rec->name;
        out->model = rec;
        out->versions = rec->versions;
        out->archs = rec->archs;
        out->dirs = (read_only ? RULES_DIR_IN : RULES_DIR_BOTH) & (ctx.reached ? ctx.dirs : RULES_DIR_BOTH);
        out->nchecks = b.checks.len;
        out->checks = vec_copy(l, &b.checks, sizeof *out->checks);
        out->nmasks = b.masks.len;
        out->masks = vec_copy(l, &b.masks, sizeof *out->masks);
        out->nskips = b.skips.len;
        out->skips = vec_copy(l, &b.skips, sizeof *out->skips);
        out->nmembers = b.members.len;
        const char **m = arena_alloc(l->a, (b.members.len + 1) * sizeof *m);
        for (size_t i = 0; i < b.members.len; i++)
            m[i] = b.members.items[i];
        out->members = m;
    }
    vec_free(&b.checks), vec_free(&b.skips), vec_free(&b.masks), vec_free(&b.members);
    return keep;
}

/* ---- descent into embedded records ------------------------------------ */

/* The union member (discriminator case) a field at path lies in: the
 * member itself (UpdatePageTable, a named record) or a field under it. */
static const char *member_at(const struct ddi_model_discriminator *disc, const char *path)
{
    size_t n = strcspn(path, ".");
    for (size_t i = 0; disc && i < disc->ncases; i++) {
        const char *m = disc->cases[i].member;
        if (m && strlen(m) == n && strncmp(m, path, n) == 0)
            return m;
    }
    return NULL;
}

static const struct rules_record *planned(const struct rules_plan *plan, const char *name)
{
    size_t lo = 0, hi = plan->nrecords;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(plan->records[mid].name, name);
        if (!c)
            return &plan->records[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

/* The versions an availability rule of the page gives a field of rec
 * ("earlier than WDDM 2.0 should use Flags": before-ddi; ">= WDDM 2.0
 * should use FlagsWddm2": ddi), or every version. */
static uint64_t page_versions(struct lower *l, const struct ddi_model_record *rec, const char *path)
{
    uint64_t all = all_versions(l->plan);
    for (size_t i = 0; i < rec->nrules; i++) {
        const struct ddi_model_rule *r = rec->rules[i];
        if (!streq(r->kind_name, "availability") || !streq(r->subject, path) || r->review == DDI_REVIEW_DROP)
            continue;
        uint64_t dated = dated_versions(l, r);
        if (dated != all)
            return dated;
    }
    return all;
}

/* Two members of one union whose records both have checks read the same
 * bits (DXGK_ALLOCATIONINFO.Flags and FlagsWddm2): each is checked only at
 * the versions its page says a driver uses it, so no bit is checked twice
 * where the page gives both a range. */
static void one_path_per_version(struct lower *l, const struct ddi_model_record *rec, struct vec *v)
{
    for (size_t i = 0; i < v->len; i++) {
        struct rules_descent *d = v->items[i];
        int shared = 0;
        for (size_t k = 0; k < v->len && !shared; k++) {
            const struct rules_descent *o = v->items[k];
            shared = k != i && d->field->owner->is_union && o->field->owner == d->field->owner;
        }
        if (shared)
            d->versions &= page_versions(l, rec, d->path);
    }
    size_t kept = 0;
    for (size_t i = 0; i < v->len; i++)
        if (((struct rules_descent *)v->items[i])->versions)
            v->items[kept++] = v->items[i];
    v->len = kept;
}

/* Every by-value embedding of a planned record, in the directions both
 * the embedding field (its record's marks) and the callee allow. */
static void collect_descents(struct lower *l, struct rules_record *r)
{
    struct vec v = {0};
    const struct ddi_model_record *rec = r->model;
    for (size_t i = 0; i < rec->nall; i++) {
        const struct ddi_model_field *f = rec->all[i];
        const struct ddi_model_record *e = reach_embedded(f);
        const struct rules_record *callee = e ? planned(l->plan, e->name) : NULL;
        unsigned dir = callee ? reach_field_dir(l->reach, rec, f->path) & r->dirs & callee->dirs : 0;
        if (!dir || callee == r)
            continue;
        struct rules_descent *d = arena_alloc(l->a, sizeof *d);
        *d = (struct rules_descent){.path = f->path, .member = member_at(rec->discriminator, f->path), .field = f,
                                    .callee = callee, .dir = dir,
                                    .versions = f->eff_versions & callee->versions & rec->versions,
                                    .archs = f->eff_archs & callee->archs & rec->archs};
        if (d->versions && d->archs)
            vec_push(&v, d);
    }
    one_path_per_version(l, rec, &v);
    r->ndescents = v.len;
    r->descents = vec_copy(l, &v, sizeof *r->descents);
    vec_free(&v);
}

/* Directions in which a record's validator does something: a check, or
 * a descent into a record that does. */
static unsigned work_of(const struct rules_record *r)
{
    unsigned w = 0;
    for (size_t i = 0; i < r->nchecks; i++)
        w |= r->checks[i].dir;
    for (size_t i = 0; i < r->ndescents; i++)
        w |= r->descents[i].dir;
    return w;
}

/* Drops descents into records with nothing to check in that direction,
 * until none changes (a record may only descend). */
static void prune_descents(struct rules_plan *plan)
{
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < plan->nrecords; i++) {
            struct rules_record *r = &plan->records[i];
            size_t kept = 0;
            for (size_t k = 0; k < r->ndescents; k++) {
                struct rules_descent d = r->descents[k];
                d.dir &= work_of(d.callee);
                changed |= d.dir != r->descents[k].dir;
                if (d.dir)
                    r->descents[kept++] = d;
            }
            r->ndescents = kept;
        }
    }
}

/* Records kept only to descend that have nothing to descend into leave
 * the plan; the callees are then found again in the compacted array. */
static void compact_plan(struct lower *l)
{
    struct rules_plan *plan = l->plan;
    const char **callees = NULL;
    size_t total = 0;
    for (size_t i = 0; i < plan->nrecords; i++)
        total += plan->records[i].ndescents;
    callees = arena_alloc(l->a, (total + 1) * sizeof *callees);
    total = 0;
    for (size_t i = 0; i < plan->nrecords; i++)
        for (size_t k = 0; k < plan->records[i].ndescents; k++)
            callees[total++] = plan->records[i].descents[k].callee->name;
    size_t kept = 0;
    for (size_t i = 0; i < plan->nrecords; i++) {
        struct rules_record *r = &plan->records[i];
        if (r->nchecks || r->nskips || r->ndescents)
            plan->records[kept++] = *r;
    }
    plan->nrecords = kept;
    total = 0;
    for (size_t i = 0; i < plan->nrecords; i++)
        for (size_t k = 0; k < plan->records[i].ndescents; k++)
            plan->records[i].descents[k].callee = planned(plan, callees[total++]);
}

static void plan_descents(struct lower *l)
{
    for (size_t i = 0; i < l->plan->nrecords; i++)
        collect_descents(l, &l->plan->records[i]);
    prune_descents(l->plan);
    compact_plan(l);
}

/* ---- the plan ---------------------------------------------------------- */

static int by_name(const void *a, const void *b)
{
    const struct ddi_model_record *x = *(const struct ddi_model_record *const *)a;
    const struct ddi_model_record *y = *(const struct ddi_model_record *const *)b;
    return strcmp(x->name, y->name);
}

struct rules_plan *rules_lower_model(const struct ddi_model *m)
{
    struct arena *a = calloc(1, sizeof *a);
    if (!a || !m) {
        free(a);
        return NULL;
    }
    struct rules_plan *plan = arena_alloc(a, sizeof *plan);
    plan->arena = a;
    plan->where = m->where;
    struct lower l = {.plan = plan, .a = a, .m = m};
    /* Records with documented rules or a discriminator, by name. */
    const struct ddi_model_record **recs = arena_alloc(a, (m->nrecords + 1) * sizeof *recs);
    size_t n = 0;
    l.reach = reach_compute(m);
    if (!l.reach || ground_read_only_init(&l.read_only, m) != 0) {
        reach_free(l.reach);
        arena_free(a);
        free(a);
        return NULL;
    }
    for (size_t i = 0; i < m->nrecords; i++)
        if (m->records[i]->nrules || m->records[i]->discriminator ||
            (reach_context_of(l.reach, m->records[i]).dirs && embeds_rules(m->records[i])))
            recs[n++] = m->records[i];
    if (n)
        qsort(recs, n, sizeof *recs, by_name);
    plan->records = arena_alloc(a, (n + 1) * sizeof *plan->records);
    for (size_t i = 0; i < n; i++)
        plan->nrecords += (size_t)lower_record(&l, recs[i], &plan->records[plan->nrecords]);
    plan_descents(&l);
    reach_free(l.reach);
    ground_read_only_free(&l.read_only);
    return plan;
}

struct rules_plan *rules_lower(xmlDocPtr spec)
{
    struct ddi_model *m = ddi_model_load(spec);
    struct rules_plan *plan = m ? rules_lower_model(m) : NULL;
    if (!plan)
        ddi_model_free(m);
    else
        plan->own_model = m;
    return plan;
}

void rules_plan_free(struct rules_plan *plan)
{
    if (!plan)
        return;
    struct arena *a = plan->arena;
    struct ddi_model *m = plan->own_model;
    arena_free(a);
    free(a);
    ddi_model_free(m);
}

const struct rules_record *rules_find(const struct rules_plan *plan, const char *record)
{
    for (size_t i = 0; plan && record && i < plan->nrecords; i++)
        if (strcmp(plan->records[i].name, record) == 0)
            return &plan->records[i];
    return NULL;
}
