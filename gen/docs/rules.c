/* Rule extraction over the sentences of a page: each sentence is tokenized
 * once (sentence.h) and read by the table of patterns (rule_table.h); a
 * sentence that carries a modal but gives no rule is kept as "unextracted"
 * so coverage can be measured. Direction and optional markers come from
 * the readers; two fields claiming one bit are noted here. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "rules.h"

#include "condition.h"
#include "rule_table.h"
#include "sentence.h"
#include "text.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Runs every pattern whose cues the sentence has; in a group, only the
 * first pattern that makes a rule. */
static void read_sentence(struct sentence *s)
{
    struct word_set ws;
    pattern_words(s, &ws);
    struct rule_set try;
    docs_rule_candidates(s, &try);
    uint64_t done = 0; /* groups that made a rule */
    for (size_t i = 0; i < docs_rule_pattern_count; i++) {
        if (!((try.bits[i / 64] >> (i % 64)) & 1u))
            continue;
        const struct rule_pattern *rp = &docs_rule_patterns[i];
        if (rp->group && (done >> rp->group) & 1u)
            continue;
        struct match m;
        if (!pattern_match(docs_rule_pattern_compiled(i), s, &ws, &m))
            continue;
        if (rp->act(s, &m, rp) && rp->group)
            done |= 1ull << rp->group;
    }
}

/* "... the driver should set pDmaBuffer to the next empty byte": the
 * driver gives the field a new value before it returns. */
static bool driver_sets_subject(const struct sentence *s)
{
    const char *leaf = sentence_leaf(s->subject);
    bool driver = false;
    for (size_t i = 0; i < s->nt; i++)
        driver |= tok_is(s, i, "driver");
    for (size_t i = 0; driver && i + 2 < s->nt; i++)
        if ((tok_is(s, i, "set") || tok_is(s, i, "update")) && !strcmp(sentence_leaf(s->t[i + 1].text), leaf) &&
            tok_is(s, i + 2, "to"))
            return true;
    return false;
}

static bool has_modal(const struct sentence *s)
{
    for (size_t i = 0; i < s->nt; i++)
        if (docs_rule_is_modal(&s->t[i]))
            return true;
    return false;
}

static bool has_cjk_modal(const char *t)
{
    static const char *const modals[] = {"必须", "应", "不能", "仅", "只能", "保留", "对齐", "需要"};
    for (size_t i = 0; i < sizeof modals / sizeof modals[0]; i++) {
        if (strstr(t, modals[i]))
            return true;
    }
    return false;
}

struct para_ctx {
    struct docs_page *p;
    int field;
    const char *subject;
    unsigned line;
    struct sentence *work; /* token buffers and field index, kept for the page */
};

static void on_sentence(void *vctx, const char *text, size_t n, unsigned nl)
{
    struct para_ctx *c = vctx;
    struct docs_page *p = c->p;
    if (n > DOCS_MAX_SENTENCE)
        return;
    struct sentence s = *c->work;
    s.p = p, s.field = c->field, s.subject = c->subject, s.line = c->line + nl, s.made = 0;
    s.text = docs_squash(&p->arena, text, n);
    s.n = strlen(s.text);
    if (s.n < 3)
        return;
    if (!p->prose_rules) {
        if (has_cjk_modal(s.text)) {
            p->modal_sentences++;
            struct docs_unextracted u = {s.subject, s.line, s.text, "language"};
            DOCS_PUSH(p->unextracted, u);
        }
        return;
    }
    if (sentence_tokenize(&s)) {
        read_sentence(&s);
        if (s.field >= 0 && driver_sets_subject(&s))
            p->fields.v[s.field].driver_changes = true;
    }
    bool modal = has_modal(&s);
    if (modal)
        p->modal_sentences++;
    if (modal && s.made == 0) {
        struct docs_unextracted u = {s.subject, s.line, s.text, "no-pattern"};
        DOCS_PUSH(p->unextracted, u);
    }
    /* keep the (possibly grown) buffers for the next sentence */
    c->work->t = s.t, c->work->tcap = s.tcap, c->work->scratch = s.scratch, c->work->scap = s.scap;
}

size_t docs_body_marker(const char *text, enum docs_dir *dir, bool *optional)
{
    size_t i = 0;
    while (text[i] == ' ' || text[i] == '\n')
        i++;
    const char *t = text + i;
    if (t[0] == '[') {
        const char *close = strchr(t, ']');
        if (close && close - t < 24 && docs_parse_direction(t + 1, (size_t)(close - t - 1), dir, optional)) {
            size_t k = (size_t)(close - text) + 1;
            while (text[k] == ' ')
                k++;
            return k;
        }
    }
    if (!strncasecmp(t, "(optional)", 10) || !strncmp(t, "Optional.", 9)) {
        *dir = DOCS_DIR_NONE;
        *optional = true;
        size_t k = i + (t[0] == '(' ? 10 : 9);
        while (text[k] == ' ')
            k++;
        return k;
    }
    return 0;
}

static const char *subject_of(struct docs_page *p, int field)
{
    if (field < 0)
        return "";
    const struct docs_field *f = &p->fields.v[field];
    if (f->path[0])
        return f->path;
    return arena_printf(&p->arena, "#%u", f->ordinal);
}

/* A row of a value table in a field's text ("WIDGET_KIND_ROUND | Supported
 * in Windows 8."): its sentences are about that value, not the field. */
static const char *table_row_value(struct docs_page *p, const char *text)
{
    const char *bar = strstr(text, " | ");
    if (!bar || bar == text || (size_t)(bar - text) > 128)
        return NULL;
    for (const char *c = text; c < bar; c++)
        if (!isupper((unsigned char)*c) && !isdigit((unsigned char)*c) && *c != '_')
            return NULL;
    if (!memchr(text, '_', (size_t)(bar - text)) || !isupper((unsigned char)text[0]))
        return NULL;
    return arena_strndup(&p->arena, text, (size_t)(bar - text));
}

static void marker_rules(struct docs_page *p)
{
    for (size_t i = 0; i < p->fields.n; i++) {
        const struct docs_field *f = &p->fields.v[i];
        const char *subject = subject_of(p, (int)i);
        const char *from = f->dir_source ? f->dir_source : "heading";
        /* on the member's line: lint finds the member by it */
        if (f->dir != DOCS_DIR_NONE) {
            struct docs_rule *r = docs_page_add_rule(p, DOCS_RULE_DIRECTION, subject, NULL, f->line, NULL);
            docs_rule_op(p, r, "value", docs_dir_name(f->dir));
            docs_rule_op(p, r, "from", from);
        }
        /* "[in]" on the heading and "[out]" in the text: both are kept, so
         * lint sees the page contradict itself */
        if (f->body_dir != DOCS_DIR_NONE && f->dir != DOCS_DIR_NONE && f->body_dir != f->dir && f->marker_line) {
            struct docs_rule *r =
                docs_page_add_rule(p, DOCS_RULE_DIRECTION, subject, "body", f->marker_line, NULL);
            docs_rule_op(p, r, "value", docs_dir_name(f->body_dir));
            docs_rule_op(p, r, "from", "body");
        }
        if (f->optional) {
            bool in_body = f->body_optional && f->marker_line;
            struct docs_rule *r = docs_page_add_rule(p, DOCS_RULE_OPTIONAL, subject, NULL,
                                                     in_body ? f->marker_line : f->line, NULL);
            docs_rule_op(p, r, "from", in_body ? "body" : from);
        }
    }
}

/* Two fields claiming one bit: both rules say so, and the page notes it
 * (the header decides per DDI version which one is real). */
static void bit_conflicts(struct docs_page *p)
{
    for (size_t i = 0; i < p->rules.n; i++) {
        struct docs_rule *a = &p->rules.v[i];
        if (a->kind != DOCS_RULE_BIT)
            continue;
        for (size_t j = i + 1; j < p->rules.n; j++) {
            struct docs_rule *b = &p->rules.v[j];
            if (b->kind != DOCS_RULE_BIT || a->nops == 0 || b->nops == 0)
                continue;
            if (strcmp(a->ops[0].name, b->ops[0].name) || strcmp(a->ops[0].value, b->ops[0].value))
                continue;
            docs_rule_op(p, a, "shared-with", b->subject);
            docs_rule_op(p, b, "shared-with", a->subject);
            docs_page_note(p, b->line, false, "%s and %s both claim bit %s", a->subject, b->subject,
                           a->ops[0].value);
        }
    }
}

/* A field the driver changes before it returns (pDmaBuffer: "the driver
 * should set pDmaBuffer to the next empty byte"): a check from a sentence
 * that only describes it ("A pointer to the start of the DMA buffer, which
 * is aligned on 4 KB", no must or should) is about the value on entry. */
static void entry_values(struct docs_page *p)
{
    for (size_t i = 0; i < p->rules.n; i++) {
        struct docs_rule *r = &p->rules.v[i];
        const char *sn = r->sentence;
        if (!docs_rule_kind_is_check(r->kind) || !sn || strstr(sn, "must") || strstr(sn, "should"))
            continue;
        for (size_t f = 0; f < p->fields.n; f++)
            if (p->fields.v[f].driver_changes && !strcmp(subject_of(p, (int)f), r->subject))
                docs_rule_op(p, r, "at", "entry");
    }
}

/* A rule that carries its condition as an operand ("if", "when") holds
 * under it by its own terms; the sentence's condition stays only on the
 * rules that do not, where it says the rule is not unconditional. */
static void carried_conditions(struct docs_page *p)
{
    for (size_t i = 0; i < p->rules.n; i++) {
        struct docs_rule *r = &p->rules.v[i];
        for (unsigned k = 0; k < r->nops && r->condition; k++)
            if (!strcmp(r->ops[k].name, "if") || !strcmp(r->ops[k].name, "when"))
                r->condition = NULL;
    }
}

/* A condition the rule does not carry, read as data where it names a field
 * ("If the Paging flag of Flags is set"): the `cond` operand (F, F==0,
 * F==ENUMERATOR) that the merge resolves into a <when>; the prose stays, so
 * a condition the merge cannot resolve still keeps the rule from a check. */
/* Whether the condition's field is the rule's subject or one of its
 * operands ("If NoDmaPatching is set, PreemptionAware must also be set"):
 * the kind carries such a condition itself (implies, exclusive). */
static bool names_rule_field(const struct docs_rule *r, const char *cond)
{
    size_t n = strcspn(cond, "=");
    const char *dot = memrchr(cond, '.', n);
    const char *leaf = dot ? dot + 1 : cond;
    size_t len = n - (size_t)(leaf - cond);
    const char *subject = sentence_leaf(r->subject);
    if (subject && strlen(subject) == len && !strncmp(subject, leaf, len))
        return true;
    for (unsigned k = 0; k < r->nops; k++) {
        const char *v = sentence_leaf(r->ops[k].value);
        if (v && strlen(v) == len && !strncmp(v, leaf, len))
            return true;
    }
    return false;
}

static void condition_operands(struct docs_page *p)
{
    for (size_t i = 0; i < p->rules.n; i++) {
        struct docs_rule *r = &p->rules.v[i];
        char cond[256];
        if (r->condition && docs_rule_kind_is_check(r->kind) && docs_condition_parse(r->condition, cond, sizeof cond) &&
            !names_rule_field(r, cond))
            docs_rule_op(p, r, "cond", cond);
    }
}

void docs_extract_rules(struct docs_page *p)
{
    if (!docs_rule_patterns_ready())
        return;
    marker_rules(p);
    struct field_index fx = {0};
    field_index_build(&fx, p);
    struct sentence work = {.fx = &fx};
    for (size_t i = 0; i < p->paras.n; i++) {
        const struct docs_para *para = &p->paras.v[i];
        if (para->section == DOCS_SEC_RETURNS)
            continue;
        struct para_ctx c = {p, para->section == DOCS_SEC_FIELD ? para->field : -1, NULL, para->line, &work};
        c.subject = c.field >= 0 ? table_row_value(p, para->text) : NULL;
        if (!c.subject)
            c.subject = subject_of(p, c.field);
        docs_split_sentences(para->text, on_sentence, &c);
    }
    sentence_free(&work);
    field_index_free(&fx);
    carried_conditions(p);
    condition_operands(p);
    entry_values(p);
    docs_page_settle_rules(p);
    bit_conflicts(p);
}
