/* The rule patterns of the DDI reference prose and the actions that turn
 * their matches into rules (see rule_table.h). Conditional kinds first,
 * then the structural ones; every entry carries an example in the
 * project's own words. */
#include "rule_table.h"

#include "operands.h"
#include "text.h"
#include "words.h"

#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- helpers shared by the actions --------------------------------------- */

/* Words that open a condition: "When the driver is first called with a
 * new paging buffer, this address is aligned on 4 KB". */
static const struct {
    const char *word, *then; /* then: the word that must follow, or NULL */
} condition_cues[] = {{"when", NULL}, {"if", NULL}, {"unless", NULL}, {"only", "after"}, {"once", NULL}};

/* Is a word written after token i ("if X", not "if," or "if:")? */
static bool word_follows(const struct sentence *s, size_t i) { return s->text[s->t[i].to] == ' '; }

/* Tokens a condition cue takes at i, 0 when there is none. */
static size_t condition_cue_at(const struct sentence *s, size_t i)
{
    for (size_t k = 0; k < sizeof condition_cues / sizeof condition_cues[0]; k++) {
        if (!tok_is(s, i, condition_cues[k].word) || !word_follows(s, i))
            continue;
        if (!condition_cues[k].then)
            return 1;
        if (tok_is(s, i + 1, condition_cues[k].then) && word_follows(s, i + 1))
            return 2;
    }
    return 0;
}

/* Tokens that end a condition clause. */
static bool clause_end(const struct sentence *s, size_t i)
{
    return tok_is(s, i, ",") || tok_is(s, i, ";") || tok_is(s, i, "(") || tok_is(s, i, ")");
}

/* The clause of the sentence that states a condition, from its first cue
 * to the next ',', ';' or parenthesis (or the end), as written; NULL when
 * the sentence states none. A rule without an "if" / "when" operand holds
 * only under it (rules.c keeps it on such rules only). */
static const char *condition_clause(const struct sentence *s)
{
    for (size_t i = 0; i < s->nt; i++) {
        if (!condition_cue_at(s, i))
            continue;
        size_t end = i;
        while (end + 1 < s->nt && !clause_end(s, end + 1))
            end++;
        while (end > i && tok_is(s, end, "."))
            end--;
        return sentence_span(s, i, end);
    }
    return NULL;
}

/* A rule the sentence states, with the sentence's condition. */
static struct docs_rule *sentence_rule(struct sentence *s, enum docs_rule_kind k, const char *subject,
                                       const char *suffix)
{
    struct docs_rule *r = docs_page_add_rule(s->p, k, subject, suffix, s->line, s->text);
    r->condition = condition_clause(s);
    return r;
}

bool docs_rule_kind_is_check(enum docs_rule_kind k)
{
    return k == DOCS_RULE_RESERVED_ZERO || k == DOCS_RULE_ALIGN || k == DOCS_RULE_RANGE || k == DOCS_RULE_NONZERO ||
           k == DOCS_RULE_EXCLUSIVE || k == DOCS_RULE_IMPLIES || k == DOCS_RULE_NULL_WHEN ||
           k == DOCS_RULE_ZERO_WHEN || k == DOCS_RULE_NONNULL_IFF || k == DOCS_RULE_AT_LEAST;
}

/* "The allocation itself might be aligned on 4KB": a possibility, not a
 * requirement. "may" and "can" hedge unless the sentence restricts ("can
 * be set only if", "may not be", "at most one of ... may be set"); "X can
 * be zero if ..." permits zero and so is no zero-when rule (its pattern is
 * gone). */
static bool hedged(const struct sentence *s)
{
    static const char *const always[] = {"might", "typically", "usually", "generally", "often", "could"};
    static const char *const unless_restricted[] = {"may", "can"};
    bool restricted = false;
    for (size_t i = 0; i < s->nt; i++)
        restricted |= tok_is(s, i, "only") || tok_is(s, i, "not") || tok_is(s, i, "never") || tok_is(s, i, "most");
    for (size_t i = 0; i < s->nt; i++) {
        for (size_t k = 0; k < sizeof always / sizeof always[0]; k++)
            if (tok_is(s, i, always[k]))
                return true;
        for (size_t k = 0; k < sizeof unless_restricted / sizeof unless_restricted[0] && !restricted; k++)
            if (tok_is(s, i, unless_restricted[k]))
                return true;
    }
    return false;
}

/* "The size value is expanded to a multiple of the native host page size":
 * what the OS does to the value, not what the value must be. */
static bool os_changes_value(const struct sentence *s)
{
    static const char *const changed[] = {"expanded", "rounded", "padded", "increased", "adjusted", "truncated"};
    for (size_t i = 1; i < s->nt; i++) {
        if (!tok_is(s, i - 1, "is") && !tok_is(s, i - 1, "are") && !tok_is(s, i - 1, "be"))
            continue;
        for (size_t k = 0; k < sizeof changed / sizeof changed[0]; k++)
            if (tok_is(s, i, changed[k]))
                return true;
    }
    return false;
}

/* A rule the sentence states; NULL (and the sentence stays unread, so a
 * modal one is listed as unextracted) when the kind is a check and the
 * sentence is no requirement. */
static struct docs_rule *add(struct sentence *s, enum docs_rule_kind k, const char *subject, const char *suffix)
{
    if (docs_rule_kind_is_check(k) && (hedged(s) || os_changes_value(s)))
        return NULL;
    s->made++; /* a repeat still means the sentence was understood */
    return sentence_rule(s, k, subject, suffix);
}

static void op(struct sentence *s, struct docs_rule *r, const char *name, const char *value)
{
    if (r && value)
        docs_rule_op(s->p, r, name, value);
}

/* First token index where the space-separated lower-case words of phrase
 * occur in a row, from token `from`; -1 when they do not. */
static long phrase_from(const struct sentence *s, size_t from, const char *phrase)
{
    char words[8][32];
    size_t nw = 0;
    for (const char *c = phrase; *c && nw < 8;) {
        size_t n = strcspn(c, " ");
        if (n >= sizeof words[0])
            return -1;
        memcpy(words[nw], c, n);
        words[nw++][n] = '\0';
        c += n;
        while (*c == ' ')
            c++;
    }
    for (size_t i = from; i + nw <= s->nt; i++) {
        size_t k = 0;
        while (k < nw && tok_is(s, i + k, words[k]))
            k++;
        if (k == nw)
            return (long)i;
    }
    return -1;
}

static bool has(const struct sentence *s, const char *phrase) { return phrase_from(s, 0, phrase) >= 0; }

static bool has_any(const struct sentence *s, const char *const *phrases, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (has(s, phrases[i]))
            return true;
    return false;
}

/* Names in slot (up to 8) other than the subject. */
static size_t others(struct sentence *s, const struct match *m, char slot, const char **out)
{
    const char *names[8];
    size_t n = operand_fields(s, m, slot, names, 8), k = 0;
    for (size_t i = 0; i < n; i++)
        if (strcmp(names[i], s->subject))
            out[k++] = names[i];
    return k;
}

/* Field names mentioned in tokens [a, b) that the page has. */
static void refs(struct sentence *s, struct docs_rule *r, size_t a, size_t b)
{
    static const char *const nouns[] = {"member", "flag", "field", "bit-field"};
    for (size_t i = a; i < b && i < s->nt; i++) {
        const struct tok *t = &s->t[i];
        bool word = t->kind == TOK_WORD && isupper((unsigned char)t->text[0]) && i > a;
        if ((t->kind != TOK_NAME && !word) || sentence_is_constant(t->text))
            continue;
        bool named = t->field >= 0;
        for (size_t k = 0; k < 4 && !named; k++)
            named = tok_is(s, i + 1, nouns[k]);
        named |= strchr(t->text, '.') != NULL; /* a member path: Mode.Discard */
        if (named)
            op(s, r, "ref", operand_field(s, t->text));
    }
}

static void slot_refs(struct sentence *s, struct docs_rule *r, const struct match *m, char slot)
{
    if (match_has(m, slot))
        refs(s, r, m->slot[slot - 'A'].a, m->slot[slot - 'A'].b);
}

/* The page's field the {S} or {G} slot names (the subject when absent). */
static const char *target(struct sentence *s, const struct match *m, char slot)
{
    const char *names[1];
    if (match_has(m, slot) && operand_fields(s, m, slot, names, 1) == 1)
        return names[0];
    return s->subject;
}

/* A cap of a caps structure ("... the X cap", "XSupported") is a
 * requires-cap rule, not a field condition. */
static bool names_capability(const struct sentence *s, const struct capture *c)
{
    for (size_t i = c->a; i < c->b; i++) {
        const char *t = sentence_leaf(s->t[i].text);
        size_t tl = strlen(t);
        if (tok_is(s, i, "cap") || tok_is(s, i, "caps") || (tl > 9 && !strcmp(t + tl - 9, "Supported")))
            return true;
    }
    return tok_is(s, c->b, "cap");
}

/* After "if the X flag is set": only "in the Flags member" and the end of
 * the sentence, so the condition qualifies the subject rather than lead a
 * clause about something else. */
static bool trailing_condition(const struct sentence *s, size_t i)
{
    for (; i < s->nt; i++) {
        const struct tok *t = &s->t[i];
        bool ok = tok_is(s, i, "in") || tok_is(s, i, "the") || tok_is(s, i, "member") || tok_is(s, i, ")") ||
                  tok_is(s, i, ".") || t->kind == TOK_NAME || (t->kind == TOK_WORD && isupper((unsigned char)t->text[0]));
        if (!ok)
            return false;
    }
    return true;
}

static bool pointerish(const struct sentence *s)
{
    const char *leaf = sentence_leaf(s->subject);
    return leaf[0] == 'p' || leaf[0] == 'h' || strstr(s->subject, "Address") != NULL;
}

/* ---- conditional kinds --------------------------------------------------- */

/* discriminator on the subject: valid when the named field(s) have a value */
static bool act_disc(struct sentence *s, const struct match *m, const struct rule_pattern *rp)
{
    if (s->field < 0)
        return false;
    const char *fields[8];
    char slot = match_has(m, 'L') ? 'L' : 'F';
    size_t n = others(s, m, slot, fields);
    const char *value = rp->arg && strcmp(rp->arg, "neg") ? rp->arg : operand_slot_value(s, m, 'V');
    if (rp->arg && !strcmp(rp->arg, "trail"))
        value = "1";
    if (value && rp->arg && !strcmp(rp->arg, "neg"))
        value = operand_negate(value, pointerish(s) || !strcmp(value, "NULL"));
    if (!n || !value)
        return false;
    /* a flag of a caps structure is a capability (requires-cap), and one
     * "in the X structure" belongs to another record */
    const struct capture *c = &m->slot[slot - 'A'];
    if (names_capability(s, c) || (rp->arg && !strcmp(rp->arg, "trail") && !trailing_condition(s, m->to)))
        return false;
    if ((tok_is(s, c->b, "in") || tok_is(s, c->b, "of")) && tok_is(s, c->b + 1, "the") && (size_t)c->b + 3 < s->nt &&
        tok_is(s, c->b + 3, "structure"))
        return false;
    const char *selects = NULL;
    const char *sel[1];
    if (match_has(m, 'G') && operand_fields(s, m, 'G', sel, 1) == 1)
        selects = sel[0];
    struct docs_rule *r = add(s, DOCS_RULE_DISCRIMINATOR, s->subject, selects);
    for (size_t i = 0; i < n; i++)
        op(s, r, "field", fields[i]);
    op(s, r, "value", value);
    op(s, r, "selects", selects);
    return true;
}

/* "..., or zero if ... is described by the pMdl member": value 0 selects M */
static bool act_selector(struct sentence *s, const struct match *m, const struct rule_pattern *rp)
{
    (void)rp;
    const char *sel[1];
    if (s->field < 0 || operand_fields(s, m, 'F', sel, 1) != 1)
        return false;
    struct docs_rule *r = add(s, DOCS_RULE_DISCRIMINATOR, s->subject, NULL);
    op(s, r, "value", "0");
    op(s, r, "selects", sel[0]);
    return true;
}

/* "When this parameter is non-NULL, A and B are ignored": A and B are
 * valid only when the subject is not that value */
static bool act_disc_others(struct sentence *s, const struct match *m, const struct rule_pattern *rp)
{
    (void)rp;
    const char *names[8];
    size_t n = others(s, m, 'L', names);
    const char *value = operand_slot_value(s, m, 'V');
    value = value ? operand_negate(value, true) : NULL;
    if (s->field < 0 || !n || !value)
        return false;
    for (size_t i = 0; i < n; i++) {
        struct docs_rule *r = add(s, DOCS_RULE_DISCRIMINATOR, names[i], NULL);
        op(s, r, "field", s->subject);
        op(s, r, "value", value);
    }
    return true;
}

/* The common parent of the fields named, "" at the top. */
static const char *parent_of(const char **names, size_t n)
{
    const char *dot = strrchr(names[0], '.');
    size_t pl = dot ? (size_t)(dot - names[0]) : 0;
    for (size_t i = 1; i < n; i++)
        if (strncmp(names[i], names[0], pl) || (pl && names[i][pl] != '.') || strchr(names[i] + pl + 1, '.'))
            return NULL;
    return pl ? NULL : "";
}

/* "A, B and C are mutually exclusive": one rule naming all of them, on the
 * record that holds them (or on the member named as holding them). */
static bool act_exclusive_set(struct sentence *s, const struct match *m, const struct rule_pattern *rp)
{
    (void)rp;
    const char *names[8];
    size_t n = operand_fields(s, m, 'L', names, 8);
    if (n < 2)
        return false;
    const char *subject = match_has(m, 'F') ? target(s, m, 'F') : parent_of(names, n);
    if (!match_has(m, 'F') && sentence_field_of(s, sentence_leaf(names[0])) < 0) {
        /* bit-field flags the page does not list: those of its Flags member */
        int flags = sentence_field_of(s, "Flags");
        if (flags < 0)
            return false;
        subject = s->p->fields.v[flags].path;
    }
    if (!subject) {
        const char *dot = strrchr(names[0], '.');
        subject = arena_strndup(&s->p->arena, names[0], (size_t)(dot - names[0]));
    }
    char suffix[256] = "";
    for (size_t i = 0; i < n; i++)
        snprintf(suffix + strlen(suffix), sizeof suffix - strlen(suffix), "%s%s", i ? "+" : "",
                 sentence_leaf(names[i]));
    struct docs_rule *r = add(s, DOCS_RULE_EXCLUSIVE, subject, suffix);
    for (size_t i = 0; i < n; i++)
        op(s, r, "with", names[i]);
    return true;
}

/* "This flag cannot be combined with A or B": one rule per partner. */
static bool act_exclusive_with(struct sentence *s, const struct match *m, const struct rule_pattern *rp)
{
    (void)rp;
    const char *names[8];
    size_t n = others(s, m, 'L', names);
    if (s->field < 0 || !n)
        return false;
    for (size_t i = 0; i < n; i++)
        op(s, add(s, DOCS_RULE_EXCLUSIVE, s->subject, names[i]), "with", names[i]);
    return true;
}

/* Setting the subject requires the named fields (with a value when said). */
static bool act_implies(struct sentence *s, const struct match *m, const struct rule_pattern *rp)
{
    (void)rp;
    const char *names[8];
    char slot = match_has(m, 'L') ? 'L' : 'F';
    size_t n = others(s, m, slot, names);
    if (s->field < 0 || !n || names_capability(s, &m->slot[slot - 'A']))
        return false;
    const char *value = operand_slot_value(s, m, 'V');
    for (size_t i = 0; i < n; i++) {
        struct docs_rule *r = add(s, DOCS_RULE_IMPLIES, s->subject, names[i]);
        op(s, r, "requires", names[i]);
        if (value && strcmp(value, "1"))
            op(s, r, "value", value);
        if (match_has(m, 'C'))
            op(s, r, "if", match_text(s, m, 'C'));
    }
    return true;
}

/* "Callers should not set X unless Y is also set": X (named, wherever
 * the sentence stands) requires Y. */
static bool act_implies_named(struct sentence *s, const struct match *m, const struct rule_pattern *rp)
{
    (void)rp;
    const char *from[1], *names[8];
    if (operand_fields(s, m, 'F', from, 1) != 1 || sentence_field_of(s, sentence_leaf(from[0])) < 0)
        return false;
    size_t n = operand_fields(s, m, 'L', names, 8), made = 0;
    for (size_t i = 0; i < n; i++) {
        if (!strcmp(names[i], from[0]))
            continue;
        op(s, add(s, DOCS_RULE_IMPLIES, from[0], names[i]), "requires", names[i]);
        made++;
    }
    return made > 0;
}

/* The subject (or the {G} field) is NULL under a condition. */
static bool act_null_when(struct sentence *s, const struct match *m, const struct rule_pattern *rp)
{
    if (s->field < 0 && !match_has(m, 'G'))
        return false;
    const char *subject = target(s, m, 'G');
    if (rp->arg && !strcmp(rp->arg, "if")) {
        /* "..., the X member of each entry is NULL": another member's rule */
        const struct capture *a = &m->slot['A' - 'A'];
        for (size_t i = a->a; i < a->b; i++)
            if (s->t[i].kind == TOK_NAME && strcmp(sentence_leaf(s->t[i].text), sentence_leaf(s->subject)))
                return false;
    }
    const char *ref[1];
    bool has_ref = match_has(m, 'F') && operand_fields(s, m, 'F', ref, 1) == 1;
    if (rp->arg && !strcmp(rp->arg, "or")) {
        const char *v = operand_slot_value(s, m, 'V');
        if (!v || (strcmp(v, "NULL") && !strstr(v, "_NULL")))
            return false;
    }
    struct docs_rule *r = add(s, DOCS_RULE_NULL_WHEN, subject, has_ref ? sentence_leaf(ref[0]) : NULL);
    if (match_has(m, 'C'))
        op(s, r, "when", match_text(s, m, 'C'));
    if (has_ref)
        op(s, r, "ref", ref[0]);
    else
        slot_refs(s, r, m, 'C');
    return true;
}

static bool act_nonnull_iff(struct sentence *s, const struct match *m, const struct rule_pattern *rp)
{
    (void)rp;
    if (s->field < 0)
        return false;
    struct docs_rule *r = add(s, DOCS_RULE_NONNULL_IFF, s->subject, NULL);
    op(s, r, "if", match_text(s, m, 'C'));
    slot_refs(s, r, m, 'C');
    return true;
}

static bool act_optional(struct sentence *s, const struct match *m, const struct rule_pattern *rp)
{
    (void)rp;
    const char *subject = match_has(m, 'F') ? target(s, m, 'F') : s->subject;
    if (!subject[0] || (match_has(m, 'F') && sentence_field_of(s, sentence_leaf(subject)) < 0))
        return false;
    struct docs_rule *r = add(s, DOCS_RULE_OPTIONAL, subject, NULL);
    op(s, r, "from", "text");
    return true;
}

/* A field stated to be 0 under several conditions keeps one rule (one ID)
 * with one "when" operand per condition (any of them). */
static struct docs_rule *zero_when(struct sentence *s, const char *subject, const char *cond, const char *strength)
{
    bool self = !strcmp(subject, s->subject);
    const char *who = self ? s->subject : subject;
    struct docs_rule *r = docs_page_find_rule(s->p, DOCS_RULE_ZERO_WHEN, who, NULL);
    if (r) {
        s->made++;
        for (unsigned k = 0; k < r->nops; k++)
            if (!strcmp(r->ops[k].name, "when") && !strcmp(r->ops[k].value, cond))
                return NULL;
        op(s, r, "when", cond);
        return NULL;
    }
    r = add(s, DOCS_RULE_ZERO_WHEN, who, NULL);
    op(s, r, "when", cond);
    op(s, r, "strength", strength);
    return r;
}

static const char *strength_of(const struct sentence *s, const struct match *m)
{
    for (size_t i = m->from; i < m->to && i < s->nt; i++) {
        if (tok_is(s, i, "must") || tok_is(s, i, "cannot"))
            return "must";
        if (tok_is(s, i, "should"))
            return "should";
    }
    return "is";
}

/* The subject (or {G}) is zero under the condition {C}. */
static bool act_zero_when(struct sentence *s, const struct match *m, const struct rule_pattern *rp)
{
    (void)rp;
    if (s->field < 0 || !match_has(m, 'C'))
        return false;
    slot_refs(s, zero_when(s, target(s, m, 'G'), match_text(s, m, 'C'), strength_of(s, m)), m, 'C');
    return true;
}

/* The actor before "must set" is plain: no leading clause, version or
 * number ("WDDM 1.3 and later drivers must set ..." is a condition we do
 * not read). */
static bool plain_actor(const struct sentence *s, const struct match *m)
{
    const struct capture *actor = &m->slot['A' - 'A'];
    for (size_t i = actor->a; i < actor->b; i++)
        if (tok_is(s, i, ",") || tok_is(s, i, "wddm") || tok_is(s, i, "windows") || tok_is(s, i, "if") ||
            tok_is(s, i, "when") || s->t[i].kind == TOK_NUMBER)
            return false;
    return true;
}

/* "must not set X on the primary surface": X is 0 then. */
static bool act_must_not_set(struct sentence *s, const struct match *m, const struct rule_pattern *rp)
{
    (void)rp;
    if (s->field < 0 || !match_has(m, 'C') || !plain_actor(s, m))
        return false;
    const struct capture *c = &m->slot['C' - 'A'];
    static const char *const cues[] = {"when", "if", "on", "for", "in"};
    bool cue = false;
    for (size_t i = 0; i < 5; i++)
        cue |= tok_is(s, c->a, cues[i]);
    if (!cue)
        return false;
    const char *who = match_has(m, 'F') ? target(s, m, 'F') : s->subject;
    if (match_has(m, 'F') && sentence_field_of(s, sentence_leaf(who)) < 0)
        return false;
    zero_when(s, who, match_text(s, m, 'C'), strength_of(s, m));
    return true;
}

/* A stated value: "must be set to 0" (reserved-zero), "... when X"
 * (zero-when / null-when), "must be 2" (range min = max). */
static bool act_value(struct sentence *s, const struct match *m, const struct rule_pattern *rp)
{
    (void)rp;
    const char *value = operand_slot_value(s, m, 'V');
    if (s->field < 0 || !value || !strcmp(value, "nonzero") || (match_has(m, 'A') && !plain_actor(s, m)))
        return false;
    const char *cond = "";
    if (match_has(m, 'C')) {
        const struct capture *c = &m->slot['C' - 'A'];
        if (!tok_is(s, c->a, "when") && !tok_is(s, c->a, "if"))
            return false;
        cond = match_text(s, m, 'C');
    }
    const char *strength = strength_of(s, m);
    struct docs_rule *r;
    if (!strcmp(value, "0") && !cond[0]) {
        op(s, add(s, DOCS_RULE_RESERVED_ZERO, s->subject, NULL), "strength", strength);
    } else if (!strcmp(value, "0")) {
        zero_when(s, s->subject, cond, strength);
    } else if (!strcmp(value, "NULL")) {
        /* the condition's words after "when" (tokens, not a byte offset
         * into its text: "when" alone would step past the string) */
        const struct capture *c = &m->slot['C' - 'A'];
        if (!tok_is(s, c->a, "when") || c->b < c->a + 2)
            return false;
        r = add(s, DOCS_RULE_NULL_WHEN, s->subject, NULL);
        op(s, r, "when", sentence_span(s, (size_t)c->a + 1, (size_t)c->b - 1));
    } else if (!cond[0]) {
        r = add(s, DOCS_RULE_RANGE, s->subject, NULL);
        op(s, r, "min", value);
        op(s, r, "max", value);
    } else {
        return false;
    }
    return true;
}

/* range: rp->arg names the bound ("max", "min", "max-exclusive", ...) */
static bool act_range(struct sentence *s, const struct match *m, const struct rule_pattern *rp)
{
    if (s->field < 0 || !(has(s, "must") || has(s, "should") || has(s, "cannot") || has(s, "can be")))
        return false;
    const char *v = match_has(m, 'E') ? match_text(s, m, 'E') : match_has(m, 'F') ? target(s, m, 'F') : NULL;
    if (!v || ((!strcmp(v, "zero") || !strcmp(v, "0") || !strcmp(v, "one")) && !strcmp(rp->arg, "min-exclusive")))
        return false;
    op(s, add(s, DOCS_RULE_RANGE, s->subject, NULL), rp->arg, v);
    return true;
}

static bool act_range_between(struct sentence *s, const struct match *m, const struct rule_pattern *rp)
{
    (void)rp;
    const char *lo = match_text(s, m, 'X'), *hi = match_text(s, m, 'Y');
    if (s->field < 0 || !lo[0] || !hi[0] || !(isdigit((unsigned char)lo[0]) || isdigit((unsigned char)hi[0])))
        return false;
    if (!has(s, "must") && !has(s, "range") && !has(s, "number"))
        return false;
    struct docs_rule *r = add(s, DOCS_RULE_RANGE, s->subject, NULL);
    op(s, r, "min", lo);
    op(s, r, "max", hi);
    return true;
}

/* "If the driver specifies a nonzero value in PitchAlignedSize, the value
 * must be greater than or equal to the value in the Size member": the
 * subject is no smaller than another field (rp->arg "nonzero": unless 0). */
static bool act_at_least(struct sentence *s, const struct match *m, const struct rule_pattern *rp)
{
    const char *other[1];
    if (s->field < 0 || operand_fields(s, m, 'F', other, 1) != 1 ||
        !strcmp(sentence_leaf(other[0]), sentence_leaf(s->subject)))
        return false;
    struct docs_rule *r = add(s, DOCS_RULE_AT_LEAST, s->subject, NULL);
    op(s, r, "ref", other[0]);
    op(s, r, "if", rp->arg);
    return true;
}

/* "BaseAddress+Size <= MaximumAddress" */
static bool act_range_expr(struct sentence *s, const struct match *m, const struct rule_pattern *rp)
{
    (void)rp;
    if (s->field < 0)
        return false;
    const char *lhs = sentence_span(s, m->slot['X' - 'A'].a, m->slot['Y' - 'A'].b - 1);
    op(s, add(s, DOCS_RULE_RANGE, s->subject, NULL), "expr",
       arena_printf(&s->p->arena, "%s <= %s", lhs, match_text(s, m, 'Z')));
    return true;
}

static bool act_one_of(struct sentence *s, const struct match *m, const struct rule_pattern *rp)
{
    (void)rp;
    if (s->field < 0)
        return false;
    op(s, add(s, DOCS_RULE_RANGE, s->subject, NULL), "enum", match_text(s, m, 'E'));
    return true;
}

static bool act_nonzero(struct sentence *s, const struct match *m, const struct rule_pattern *rp)
{
    (void)m;
    if (s->field < 0)
        return false;
    op(s, add(s, DOCS_RULE_NONZERO, s->subject, NULL), "what", rp->arg);
    return true;
}

/* ---- structural kinds ---------------------------------------------------- */

/* Does a field of the page other than the subject stand right before the
 * sentence's "must" / "should" (so the rule is that field's)? */
static bool names_other_actor(const struct sentence *s)
{
    long modal = phrase_from(s, 0, "must");
    if (modal < 0)
        modal = phrase_from(s, 0, "should");
    if (modal < 1)
        return false;
    size_t i = (size_t)modal - 1;
    if (tok_is(s, i, "member") || tok_is(s, i, "field") || tok_is(s, i, "flag"))
        i = i ? i - 1 : i;
    const struct tok *t = &s->t[i];
    /* a name the page does not have counts too: "ObjectCount must be zero"
     * on EnqueueCpuEvent is about another structure's member */
    bool named = t->field >= 0 || t->kind == TOK_NAME;
    return named && strcmp(sentence_leaf(t->text), sentence_leaf(s->subject));
}

static bool act_reserved(struct sentence *s, const struct match *m, const struct rule_pattern *rp)
{
    (void)m, (void)rp;
    static const char *const zero_phrases[] = {"must be zero",   "must be set to zero", "should be set to zero",
                                               "should be zero", "must be 0",           "should be zeroed",
                                               "must be zeroed"};
    bool reserved = has(s, "reserved");
    if (s->field < 0 || (!reserved && !has_any(s, zero_phrases, 7)))
        return false;
    /* the value is zero ("be zero", "set to 0", "zeroed"), not a word in
     * passing: "must be in the reserved (zero) or mapped state" */
    static const char *const is_zero[] = {"be zero", "to zero", "be 0", "to 0", "zeroed", "is zero", "are zero"};
    bool zero = has_any(s, is_zero, sizeof is_zero / sizeof is_zero[0]) &&
                (has(s, "must") || has(s, "should") || has(s, "set to"));
    /* "If X is NULL, Size must be zero": a condition on another member */
    if (zero && !reserved && (tok_is(s, 0, "if") || tok_is(s, 0, "when") || names_other_actor(s)))
        return false;
    if (zero && (has(s, "other member") || has(s, "other members")) && !reserved)
        return false;
    static const char *const reserved_phrases[] = {"this member is reserved", "is reserved and", "reserved for",
                                                   "reserved member", "reserved ;"};
    if (!zero && !(reserved && has_any(s, reserved_phrases, 5)))
        return false;
    struct docs_rule *r = add(s, zero ? DOCS_RULE_RESERVED_ZERO : DOCS_RULE_RESERVED, s->subject, NULL);
    /* "This value should be zero for the F0 state", "... set to zero
     * (FALSE) for all other synchronization object types": zero in some
     * cases only, a condition the rule does not carry */
    long at_zero = -1;
    for (size_t k = 0; k < sizeof is_zero / sizeof is_zero[0] && at_zero < 0; k++)
        at_zero = phrase_from(s, 0, is_zero[k]);
    long for_case = zero && at_zero >= 0 ? phrase_from(s, (size_t)at_zero, "for") : -1;
    if (r && for_case >= 0 && !reserved) {
        size_t end = s->nt - 1;
        while (end > (size_t)for_case + 1 && tok_is(s, end, "."))
            end--;
        r->condition = sentence_span(s, (size_t)for_case, end);
    }
    if (zero)
        op(s, r, "strength", has(s, "must") ? "must" : "should");
    else if (has(s, "not be used") || has(s, "do not use"))
        op(s, r, "use", "forbidden");
    const char *w, *ddi, *basis;
    if ((has(s, "earlier than") || has(s, "prior to") || has(s, "before")) &&
        docs_normalize_version(s->text, &w, &ddi, &basis)) {
        op(s, r, "before-wddm", w);
        op(s, r, "before-ddi", ddi);
    }
    return true;
}

/* Enum values: "You should not use this value." -> reserved, use forbidden. */
static bool act_do_not_use(struct sentence *s, const struct match *m, const struct rule_pattern *rp)
{
    (void)m, (void)rp;
    if (s->field < 0 || s->p->kind != DOCS_KIND_ENUM || has(s, "if") || has(s, "when") || has(s, "unless"))
        return false;
    op(s, add(s, DOCS_RULE_RESERVED, s->subject, NULL), "use", "forbidden");
    return true;
}

static bool act_align(struct sentence *s, const struct match *m, const struct rule_pattern *rp)
{
    (void)rp;
    long a = -1;
    static const char *const words[] = {"align", "aligned", "alignment"};
    for (size_t i = 0; i < 3 && a < 0; i++)
        a = phrase_from(s, 0, words[i]);
    long mult = phrase_from(s, 0, "multiple of");
    long pmult = phrase_from(s, 0, "page multiple");
    if (s->field < 0 || (a < 0 && mult < 0 && pmult < 0))
        return false;
    if (a >= 0 && has(s, "alignment") && !has(s, "must") && !has(s, "aligned"))
        return false;
    long at = a >= 0 ? a : mult >= 0 ? mult : pmult;
    unsigned long bytes = 0;
    for (size_t i = at > 8 ? (size_t)at - 8 : 0; i < s->nt && !bytes; i++)
        bytes = operand_size_at(s, i);
    const char *unit = NULL;
    if (!bytes) {
        static const char *const page[] = {"page size", "page aligned", "page-aligned", "page boundary",
                                           "on a page", "to a page",    "multiple of page_size"};
        if (has(s, "cpu page"))
            unit = "cpu-page";
        else if (has_any(s, page, 7) || pmult >= 0)
            unit = "page";
        else
            return false;
    }
    bool size = mult >= 0 || pmult >= 0 || has(s, "in size");
    struct docs_rule *r = add(s, DOCS_RULE_ALIGN, s->subject, size && a < 0 ? "size" : NULL);
    char buf[32];
    snprintf(buf, sizeof buf, "%lu", bytes);
    op(s, r, bytes ? "bytes" : "unit", bytes ? buf : unit);
    if (size && a < 0)
        op(s, r, "of", "size");
    if (a >= 0 && (mult >= 0 || pmult >= 0)) {
        struct docs_rule *r2 = add(s, DOCS_RULE_ALIGN, s->subject, "size");
        op(s, r2, "unit", bytes ? "bytes" : unit);
        op(s, r2, "of", "size");
    }
    (void)m;
    return true;
}

static bool act_units(struct sentence *s, const struct match *m, const struct rule_pattern *rp)
{
    (void)m, (void)rp;
    static const struct {
        const char *phrase, *unit;
    } units[] = {
        {"in 4kb pages", "4kb-pages"},       {"in 4 kb pages", "4kb-pages"},
        {"in 4kb ,", "4kb-pages"},           {"in 4 kb ,", "4kb-pages"},
        {"in system memory pages", "system-pages"}, {"page number", "page-number"},
        {"in bytes", "bytes"},               {"number of bytes", "bytes"},
        {"in pages", "pages"},               {"number of pages", "pages"},
        {"in milliseconds", "milliseconds"}, {"in microseconds", "microseconds"},
        {"in 100 - nanosecond", "100ns"},      {"in nanoseconds", "nanoseconds"},
        {"in hertz", "hz"},                  {"in hz", "hz"},
        {"in bits", "bits"},                 {"in pixels", "pixels"},
        {"in units of pages", "pages"},      {"in units of bytes", "bytes"},
    };
    if (s->field < 0)
        return false;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (has(s, units[i].phrase)) {
            op(s, add(s, DOCS_RULE_UNITS, s->subject, NULL), "unit", units[i].unit);
            return true;
        }
    return false;
}

/* "the fifth bit", "the second through sixth bits", "the eighth and ninth
 * bits", "(0x00000010)". */
/* "the eighth and ninth bits", "the eighth through the twelfth bits":
 * two ordinals joined by "and" / "through" right before "bits" at b. */
static bool ordinal_pair_before(const struct sentence *s, size_t b)
{
    if (b < 3 || operand_ordinal(s->t[b - 1].lc) < 0)
        return false;
    size_t i = b - 2;
    if (tok_is(s, i, "the") && i > 1)
        i--;
    return (tok_is(s, i, "and") || tok_is(s, i, "through")) && i > 0 && operand_ordinal(s->t[i - 1].lc) >= 0;
}

static bool act_bit(struct sentence *s, const struct match *m, const struct rule_pattern *rp)
{
    (void)m, (void)rp;
    long b = phrase_from(s, 0, "bit");
    if (b < 0) {
        /* "bits" only after two ordinals: "the eighth and ninth bits" */
        b = phrase_from(s, 0, "bits");
        if (b >= 0 && !ordinal_pair_before(s, (size_t)b))
            b = -1;
    }
    if (b < 0 || s->field < 0)
        return false;
    int first = -1, last = -1;
    long at_first = -1, at_last = -1;
    for (long i = 0; i < b; i++) {
        int o = operand_ordinal(s->t[i].lc);
        if (o < 0)
            continue;
        if (first < 0)
            first = o, at_first = i;
        last = o, at_last = i;
    }
    int width = 1;
    long thru = phrase_from(s, (size_t)at_first, "through");
    bool joined = at_last > at_first &&
                  ((thru == at_first + 1 && (at_last == thru + 1 || (at_last == thru + 2 && tok_is(s, (size_t)thru + 1, "the")))) ||
                   (phrase_from(s, (size_t)at_first, "and") == at_first + 1 && at_last == at_first + 2 &&
                    tok_is(s, (size_t)b, "bits")));
    if (first >= 0 && last > first && joined)
        width = last - first + 1;
    else
        first = last; /* one bit: the ordinal nearest "bit" */
    unsigned long mask = 0;
    for (size_t i = 0; i < s->nt && !mask; i++)
        if (s->t[i].kind == TOK_NUMBER && !strncmp(s->t[i].lc, "0x", 2))
            mask = strtoul(s->t[i].lc, NULL, 16);
    if (first < 0 && !(mask && (mask & (mask - 1)) == 0))
        return false;
    struct docs_rule *r = add(s, DOCS_RULE_BIT, s->subject, NULL);
    char buf[32];
    if (first >= 0) {
        snprintf(buf, sizeof buf, "%d", first);
        op(s, r, "index", buf);
    }
    if (width > 1) {
        snprintf(buf, sizeof buf, "%d", width);
        op(s, r, "width", buf);
    }
    if (mask) {
        snprintf(buf, sizeof buf, "0x%08lx", mask);
        op(s, r, "mask", buf);
        unsigned long stated = first >= 0 ? ((1ul << width) - 1) << first : mask;
        if (mask != stated)
            docs_page_note(s->p, s->line, true, "%s: bits %d-%d stated with mask 0x%lx (0x%lx expected)",
                           s->subject, first, first + width - 1, mask, stated);
    }
    long of = phrase_from(s, 0, "of the");
    if (of >= 0 && (has(s, "member") || has(s, "members")))
        for (size_t i = (size_t)of + 2; i < s->nt; i++)
            if (s->t[i].kind == TOK_NAME || (s->t[i].kind == TOK_WORD && isupper((unsigned char)s->t[i].text[0]) &&
                                             tok_is(s, i + 1, "member"))) {
                op(s, r, "word", s->t[i].text);
                break;
            }
    return true;
}

static bool act_capability(struct sentence *s, const struct match *m, const struct rule_pattern *rp)
{
    (void)m, (void)rp;
    bool named = false;
    for (size_t i = 0; i < s->nt && !named; i++) {
        if (s->t[i].kind != TOK_NAME)
            continue;
        size_t len = strlen(s->t[i].text);
        named = len > 7 && strstr(s->t[i].text + len - (len > 9 ? 9 : len), "Support");
    }
    if (!named || (!has(s, "must") && !has(s, "only") && !has(s, "require") && !has(s, "requires") &&
                   !has(s, "required") && !has(s, "if")))
        return false;
    bool made = false;
    for (size_t i = 0; i < s->nt; i++) {
        const char *t = s->t[i].text;
        size_t len = strlen(t);
        bool cap = s->t[i].kind == TOK_NAME &&
                   ((len > 9 && !strcmp(t + len - 9, "Supported")) || (len > 7 && !strcmp(t + len - 7, "Support")));
        if (!cap)
            continue;
        /* "DXGK_CAPS::Member" names the caps structure and the cap */
        const char *qual = strstr(t, "::");
        const char *name = qual ? (qual[2] == ' ' ? qual + 3 : qual + 2) : t;
        struct docs_rule *r = add(s, DOCS_RULE_REQUIRES_CAP, s->subject, name);
        op(s, r, "cap", name);
        /* "DXGK_VIDMMCAPS MapAperature2Supported": the caps structure before it */
        if (qual)
            op(s, r, "in", arena_strndup(&s->p->arena, t, (size_t)(qual - t)));
        else if (i > 0 && s->t[i - 1].kind == TOK_NAME && strstr(s->t[i - 1].text, "CAPS"))
            op(s, r, "in", s->t[i - 1].text);
        made = true;
    }
    return made;
}

/* Whether one of phrases occurs starting in tokens [from, to). */
static bool has_any_in(const struct sentence *s, size_t from, size_t to, const char *const *phrases, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        long at = phrase_from(s, from, phrases[i]);
        if (at >= 0 && (size_t)at < to)
            return true;
    }
    return false;
}

/* The clause (tokens between semicolons) that alone names the subject:
 * "earlier than WDDM 2.0 should use Flags; >= WDDM 2.0 should use
 * FlagsWddm2" dates Flags by the first clause and FlagsWddm2 by the
 * second. False when no clause or more than one names it. */
static bool subject_clause(const struct sentence *s, size_t *from, size_t *to)
{
    size_t start = 0, found = 0;
    for (size_t i = 0; i <= s->nt; i++) {
        if (i < s->nt && !(s->t[i].kind == TOK_PUNCT && !strcmp(s->t[i].text, ";")))
            continue;
        for (size_t k = start; k < i; k++)
            if (s->t[k].kind == TOK_NAME && !strcmp(s->t[k].text, s->subject)) {
                found++, *from = start, *to = i;
                break;
            }
        start = i + 1;
    }
    return found == 1;
}

static bool act_availability(struct sentence *s, const struct match *m, const struct rule_pattern *rp)
{
    (void)m, (void)rp;
    static const char *const since[] = {"starting with", "starting in", "beginning with", "beginning in",
                                        "available in",  "supported in", "and later",    "or later",
                                        ">=",            "introduced in", "added in",    "starting from",
                                        "available starting", "supported starting"};
    static const char *const before[] = {"earlier than", "prior to", "before"};
    const char *w, *ddi, *basis;
    bool named = false;
    for (size_t i = 0; i < s->nt && !named; i++) {
        const char *lc = s->t[i].lc; /* "windows", "wddm", "wddm2", "dxgkddi_interface_version_wddm2_0" */
        named = (lc[0] == 'w' && (!strncmp(lc, "wddm", 4) || !strncmp(lc, "windows", 7))) ||
                (s->t[i].kind == TOK_NAME && lc[0] == 'd' && strstr(lc, "wddm"));
    }
    if (!named)
        return false;
    if (has(s, "wddmv1 only") || has(s, "wddmv2 only")) {
        bool v1 = has(s, "wddmv1 only");
        struct docs_rule *r = add(s, DOCS_RULE_AVAILABILITY, s->subject, NULL);
        op(s, r, v1 ? "before-wddm" : "wddm", "2.0");
        op(s, r, v1 ? "before-ddi" : "ddi", "DXGKDDI_INTERFACE_VERSION_WDDM2_0");
        return true;
    }
    bool is_since = has_any(s, since, sizeof since / sizeof since[0]);
    bool is_before = has_any(s, before, 3);
    size_t from, to;
    if (is_since && is_before && subject_clause(s, &from, &to)) {
        /* both dates in one sentence: the one of the subject's own clause */
        bool since_here = has_any_in(s, from, to, since, sizeof since / sizeof since[0]);
        bool before_here = has_any_in(s, from, to, before, 3);
        if (since_here != before_here)
            is_since = since_here, is_before = before_here;
    }
    if ((!is_since && !is_before) || !docs_normalize_version(s->text, &w, &ddi, &basis))
        return false;
    struct docs_rule *r;
    if (is_before && !is_since) {
        /* "earlier than WDDM 2.1, this member is reserved": on the reserved rule */
        if (has(s, "reserved"))
            return false;
        r = add(s, DOCS_RULE_AVAILABILITY, s->subject, NULL);
        op(s, r, "before-wddm", w);
        op(s, r, "before-ddi", ddi);
        return true;
    }
    r = add(s, DOCS_RULE_AVAILABILITY, s->subject, NULL);
    op(s, r, "wddm", w);
    op(s, r, "ddi", ddi);
    op(s, r, "basis", basis);
    return true;
}

/* Enum page: "the X member" names the union member a value selects. */
static bool act_union_member_enum(struct sentence *s, const struct match *m, const struct rule_pattern *rp)
{
    (void)rp;
    if (s->field < 0 || s->p->kind != DOCS_KIND_ENUM)
        return false;
    size_t i = m->slot['E' - 'A'].a;
    const struct tok *t = &s->t[i];
    if (!(isupper((unsigned char)t->text[0]) || t->kind == TOK_NAME))
        return false;
    if (tok_is(s, i + 1, "structure") && !has(s, "union"))
        return false;
    op(s, add(s, DOCS_RULE_UNION_MEMBER, s->subject, t->text), "member", t->text);
    return true;
}

/* Enum page: the value selects what an untyped buffer holds ("the driver
 * should populate a DXGK_DRIVERCAPS structure", "the input buffer ... will
 * be a X structure and the output buffer is a Y structure"): rp->arg is
 * the side whose validator checks the record, "out" for what the driver
 * fills. The direction walk (gen/rules/reach.c) reaches the record through
 * it, as QueryAdapterInfo's pOutputData by Type does. */
static bool act_buffer_type(struct sentence *s, const struct match *m, const struct rule_pattern *rp)
{
    if (s->field < 0 || s->p->kind != DOCS_KIND_ENUM)
        return false;
    const struct tok *t = &s->t[m->slot['E' - 'A'].a];
    if (t->kind != TOK_NAME || !strchr(t->text, '_') || !isupper((unsigned char)t->text[0]))
        return false;
    struct docs_rule *r = add(s, DOCS_RULE_BUFFER_TYPE, s->subject, t->text);
    op(s, r, "record", t->text);
    op(s, r, "dir", rp->arg);
    return true;
}

/* Struct page: a top-level member whose text names the enum constant built
 * from its name (FOO_BAR_WIDGET for Widget), not as the type of the field. */
static bool act_union_member_struct(struct sentence *s, const struct match *m, const struct rule_pattern *rp)
{
    (void)m, (void)rp;
    if (s->field < 0 || s->p->kind == DOCS_KIND_ENUM)
        return false;
    const struct docs_field *f = &s->p->fields.v[s->field];
    while (f->parent >= 0)
        f = &s->p->fields.v[f->parent];
    char want[128];
    size_t wn = 0;
    for (const char *c = f->path; *c && wn < sizeof want - 1; c++)
        want[wn++] = (char)toupper((unsigned char)*c);
    want[wn] = '\0';
    if (wn < 3)
        return false;
    static const char *const type_words[] = {"structure", "-typed", "union", "enumeration", "data", "type",
                                             "callback",  "function"};
    for (size_t i = 0; i < s->nt; i++) {
        const char *t = s->t[i].text;
        if (s->t[i].kind != TOK_NAME || !sentence_is_constant(t))
            continue;
        char flat[128];
        size_t fn = 0;
        for (const char *c = t; *c && fn < sizeof flat - 1; c++)
            if (*c != '_')
                flat[fn++] = *c;
        flat[fn] = '\0';
        bool is_type = (i > 0 && tok_is(s, i - 1, "type")) || (i > 1 && tok_is(s, i - 1, "of") && tok_is(s, i - 2, "type"));
        for (size_t k = 0; k < sizeof type_words / sizeof type_words[0] && i + 1 < s->nt; k++)
            is_type |= !strncmp(s->t[i + 1].lc, type_words[k], strlen(type_words[k]));
        if (i + 1 < s->nt && !strncmp(s->t[i + 1].lc, "-typed", 6))
            is_type = true;
        if (is_type || fn <= wn || strcmp(flat + fn - wn, want))
            continue;
        /* the ID says it all (the value is the suffix): a second one is the same statement */
        struct docs_rule *r = docs_page_find_rule(s->p, DOCS_RULE_UNION_MEMBER, f->path, t)
                                  ? NULL
                                  : sentence_rule(s, DOCS_RULE_UNION_MEMBER, f->path, t);
        op(s, r, "value", t);
        s->made += r != NULL;
        return true;
    }
    return false;
}

/* ---- the table ----------------------------------------------------------- */

enum {
    G_NONE,
    G_DISC,     /* one discriminator reading per sentence */
    G_ZERO_OR,  /* "or zero if": selector before zero-when */
    G_IMPLIES,
    G_NULL,
    G_VALUE,
    G_SETS,
    G_EXCL,
    G_RANGE,
    G_OPTIONAL,
};

const struct rule_pattern docs_rule_patterns[] = {
    /* -- implies -------------------------------------------------------------- */
    {"do not set {S} unless {L} is|are also? set", act_implies, NULL, G_DISC,
     "Do not set this flag unless the Sealed member is also set.", "Locked", "Sealed Locked",
     "Locked implies requires=Sealed"},
    {"^ {A} must|should not set {F} unless {L} is|are also? set", act_implies_named, NULL, G_DISC,
     "Callers should not set Glossy unless Polished is also set.", "-", "Glossy Polished",
     "Glossy implies requires=Polished"},
    {"^ set {S} only if|when {L} is|are also? set", act_implies, NULL, G_DISC,
     "Set this flag only when the Sealed flag is set as well.", "Locked", "Sealed Locked",
     "Locked implies requires=Sealed"},
    {"{S} should|can|may|must be set only if|when {*} setting {F} {*} to {V}", act_implies, NULL, G_DISC,
     "This member should be set only if the caller reports it by setting the Shape member of the outline to "
     "WIDGET_SHAPE_OVAL.",
     "Oval", "Oval Shape", "Oval implies requires=Shape value=WIDGET_SHAPE_OVAL"},
    {"{S} can|may|should only? be set {*} only? if|when {L} is|are set", act_implies, NULL, G_DISC,
     "The Shiny member can be set only when the Polished member is set.", "Shiny", "Shiny Polished",
     "Shiny implies requires=Polished"},
    {"{S} can|may|should be set {*} only if|when {*} set|sets {F}", act_implies, NULL, G_DISC,
     "Shiny can be set to TRUE only if the caller set the Polished flag in its options.", "Shiny", "Shiny",
     "Shiny implies requires=Polished"},
    {"{S} can be set only with setting {F}", act_implies, NULL, G_DISC,
     "This member can be set only with setting the Polished member.", "Shiny", "Shiny Polished",
     "Shiny implies requires=Polished"},
    {"^ if {C} , {*} must|should also set {L}", act_implies, NULL, G_DISC,
     "If the caller keeps a copy, it must also set the Backed member.", "Cached", "Cached Backed",
     "Cached implies requires=Backed"},
    {"must|should also set {L}", act_implies, NULL, G_DISC,
     "When the caller sets this member, the caller must also set the Backed member.", "Cached", "Cached Backed",
     "Cached implies requires=Backed"},
    {"also specify valid {*} in {L}", act_implies, NULL, G_DISC,
     "The caller should also specify valid lane data in the LaneCount and pLanes members.", "Laned",
     "Laned LaneCount pLanes", "Laned implies requires=pLanes"},
    {"with {F} also set", act_implies, NULL, G_DISC,
     "After a reset, the request goes out with the Urgent member also set to one.", "Reset", "Reset Urgent",
     "Reset implies requires=Urgent"},
    {"^ if {S} is set [to a value of] [to] 1|true? , {L} must also? be set $", act_implies, NULL, G_DISC,
     "If Fast is set, the Staged member must also be set.", "Fast", "Fast Staged", "Fast implies requires=Staged"},
    {"^ if {S} is set [to a value of] [to] 1|true? , {L} must also? be set to [a value of] 1|true $", act_implies,
     NULL, G_DISC, "If Fast is set to 1, the Staged member must also be set to a value of 1.", "Fast", "Fast Staged",
     "Fast implies requires=Staged"},
    {"only if|when {*} set|sets|setting {F}", act_disc, "1", G_DISC,
     "The caller fills this table only if it also sets the Banded flag.", "Bands", "Banded Bands",
     "Bands discriminator field=Banded value=1"},
    {"^ {L} must be set $", act_implies, NULL, G_DISC, "Additionally, the Staged flag must be set.", "Fast",
     "Fast Staged", "Fast implies requires=Staged"},

    /* -- discriminator: when a member is valid or used ------------------ */
    {"{S} is|are valid|meaningful|relevant|applicable|used|honored only if|when {L} is|are set", act_disc, "1", G_DISC,
     "The Angle member is meaningful only if the Rotate flag is set in Options.", "Angle", "Angle Rotate",
     "Angle discriminator field=Rotate value=1"},
    {"{S} is|are valid|meaningful|relevant|applicable|used|honored only if|when {L} is|are set", act_disc, "1", G_DISC,
     "The Angle member is valid only when the Rotate or Mirror bit-field flag is set.", "Angle",
     "Angle Rotate Mirror", "Angle discriminator field=Rotate field=Mirror value=1"},
    {"valid|meaningful|relevant|applicable|honored only if|when {F} is not zero|0|NULL", act_disc, "nonzero", G_DISC,
     "Meaningful only when Depth is not 0.", "Gain", "Gain Depth", "Gain discriminator field=Depth value=nonzero"},
    {"valid|meaningful|relevant|applicable|honored only if|when {F} is {V}", act_disc, NULL, G_DISC,
     "Relevant only when Depth is nonzero.", "Gain", "Gain Depth", "Gain discriminator field=Depth value=nonzero"},
    {"only valid|meaningful|relevant|applicable|honored if|when {F} is {V}", act_disc, NULL, G_DISC, "Only valid when Depth is nonzero.", "Gain",
     "Gain Depth", "Gain discriminator field=Depth value=nonzero"},
    {"only valid|meaningful|relevant|applicable|honored|used if|when {F} is not zero|0|NULL", act_disc, "nonzero", G_DISC,
     "Only meaningful if Depth is not zero.", "Gain", "Gain Depth", "Gain discriminator field=Depth value=nonzero"},
    {"^ structure? used only? when|if {F} is|specifies {V}", act_disc, NULL, G_DISC,
     "Used only when Kind is WIDGET_KIND_ROUND.", "Round", "Kind Round", "Round discriminator field=Kind value=WIDGET_KIND_ROUND"},
    {"used when|if {F} is|specifies {V}", act_disc, NULL, G_DISC,
     "Holds the corners. Used when Kind is WIDGET_KIND_SQUARE.", "Square", "Kind Square",
     "Square discriminator field=Kind value=WIDGET_KIND_SQUARE"},
    {"{S} is|are ignored when|if {F} != {V}", act_disc, NULL, G_DISC,
     "This value is ignored when Origin != NULL.", "Lower", "Origin Lower", "Lower discriminator field=Origin value=NULL"},
    {"{S} is|are ignored when|if {F} is|are set", act_disc, "0", G_DISC,
     "This member is ignored if the Fixed flag is set.", "Slack", "Fixed Slack", "Slack discriminator field=Fixed value=0"},
    {"^ ignored when|if {F} is {V}", act_disc, "neg", G_DISC,
     "Ignored when pStore is NULL.", "StoreOffset", "pStore StoreOffset",
     "StoreOffset discriminator field=pStore value=nonzero"},
    {"^ {S} is|are ignored when|if {F} is {V}", act_disc, "neg", G_DISC,
     "This member is ignored if pStore is NULL.", "StoreOffset", "pStore StoreOffset",
     "StoreOffset discriminator field=pStore value=nonzero"},
    {"^ ignored unless {L} is|are set", act_disc, "1", G_DISC,
     "Ignored unless the Tinted flag is set.", "Tint", "Tinted Tint", "Tint discriminator field=Tinted value=1"},
    {"^ {S} is|are ignored unless {L} is|are set", act_disc, "1", G_DISC,
     "This member is ignored unless the Tinted flag is set.", "Tint",
     "Tinted Tint", "Tint discriminator field=Tinted value=1"},
    {"where {F} is specified|set {*} {S} is ignored", act_disc, "0", G_DISC,
     "For boxed widgets (where the Boxed bit-field flag is set in Options), this member is ignored.", "Margin",
     "Options Boxed Margin", "Margin discriminator field=Boxed value=0"},
    {"ignores {*} where {F} is specified|set", act_disc, "0", G_DISC,
     "The scheduler ignores the limit of boxed widgets (where the Boxed bit-field flag is set in Options).",
     "Limit", "Options Boxed Limit", "Limit discriminator field=Boxed value=0"},
    {"^ use {S} when|if {F} is set", act_disc, "1", G_DISC, "Use hFile when WIDGETFLAGS::Mapped is set.",
     "Source.hFile", "Source Source.hFile Mapped", "Source.hFile discriminator field=Mapped value=1"},
    {"^ use {S} when|if {F} is not set", act_disc, "0", G_DISC, "Use pBytes when WIDGETFLAGS::Mapped is not set.",
     "Source.pBytes", "Source Source.pBytes Mapped", "Source.pBytes discriminator field=Mapped value=0"},
    {"^ use {S} when|if {F} isn't set", act_disc, "0", G_DISC, "Use pBytes when WIDGETFLAGS::Mapped isn't set.",
     "Source.pBytes", "Source Source.pBytes Mapped", "Source.pBytes discriminator field=Mapped value=0"},
    {"^ when|if {F} is [set to] [a value of] {V} , {S} contains|specifies|identifies|indicates|holds", act_disc,
     NULL, G_DISC, "When hStore is non-NULL, this member specifies where the copy starts.", "StoreOffset",
     "hStore StoreOffset", "StoreOffset discriminator field=hStore value=nonzero"},
    {"^ if {F} is {V} , {*} is in {G}", act_disc, NULL, G_DISC,
     "If Mode is WIDGET_MODE_FAST, the entry is in the Fast field.", "Entry", "Mode Entry",
     "Entry discriminator field=Mode value=WIDGET_MODE_FAST selects=Fast"},
    {"if|when the {F} is|are set", act_disc, "trail", G_DISC,
     "The count of lanes, if lanes are used (that is, if the Laned bit-field flag is set in Options).", "Lanes",
     "Options Laned Lanes", "Lanes discriminator field=Laned value=1"},
    {"only? if|when the {F} is|specifies {V}", act_disc, NULL, G_DISC,
     "The lane address, if the Lane member of Target is nonzero.", "Target.LaneAddress",
     "Target Target.Lane Target.LaneAddress", "Target.LaneAddress discriminator field=Target.Lane value=nonzero"},
    {"only? available? , if|when {F} is|specifies {V}", act_disc, NULL, G_DISC,
     "A pointer to the round data, if Kind specifies WIDGET_KIND_ROUND.", "pRound", "Kind pRound",
     "pRound discriminator field=Kind value=WIDGET_KIND_ROUND"},
    {"structure|available|only if|when {F} is|specifies {V}", act_disc, NULL, G_DISC,
     "A pointer to a WIDGET_SQUARE structure if Kind is WIDGET_KIND_SQUARE.", "pSquare", "Kind pSquare",
     "pSquare discriminator field=Kind value=WIDGET_KIND_SQUARE"},
    {"^ when|if {S} is {V} , {L} is|are ignored", act_disc_others, NULL, G_NONE,
     "When this value is non-NULL, Lower and Upper are ignored.", "Origin", "Origin Lower Upper",
     "Lower discriminator field=Origin value=NULL"},
    {"zero|0 if {*} described by {F}", act_selector, NULL, G_ZERO_OR,
     "The slot index, or zero if the widget is described by the pBlob member of the union.", "SlotIndex",
     "SlotIndex pBlob", "SlotIndex discriminator value=0 selects=pBlob"},

    /* -- exclusive ---------------------------------------------------------- */
    {"{L} in {F} are mutually exclusive", act_exclusive_set, NULL, G_EXCL,
     "The Red, Green, and Blue bit-field flags in Tint are mutually exclusive.", "-", "Tint",
     "Tint exclusive with=Red with=Green with=Blue"},
    {"only one of {L} is|can be? set", act_exclusive_set, NULL, G_EXCL,
     "Only one of the Red, Green, and Blue bit-field flags is set at any time.", "Tint", "Tint Flags",
     "Flags exclusive with=Red with=Green with=Blue"},
    {"{L} are|is mutually exclusive", act_exclusive_set, NULL, G_EXCL,
     "The Red, Green, and Blue flags are mutually exclusive.", "-", "Red Green Blue",
     "- exclusive with=Red with=Green with=Blue"},
    {"{L} cannot|can't both be set", act_exclusive_set, NULL, G_EXCL,
     "The Loud and Quiet members cannot both be set at the same time.", "Loud", "Loud Quiet",
     "- exclusive with=Loud with=Quiet"},
    {"{L} must|may not both be set", act_exclusive_set, NULL, G_EXCL,
     "Loud and Quiet must not both be set.", "-", "Loud Quiet", "- exclusive with=Loud with=Quiet"},
    {"at most one of {L} can|may be set", act_exclusive_set, NULL, G_EXCL,
     "At most one of Red, Green and Blue may be set.", "-", "Red Green Blue", "- exclusive with=Red with=Green with=Blue"},
    {"{L} cannot be set at? the? same? time|simultaneously", act_exclusive_set, NULL, G_EXCL,
     "Loud and Quiet cannot be set simultaneously.", "Loud", "Loud Quiet", "- exclusive with=Loud with=Quiet"},
    {"cannot|can't be? used|set|combined in? combination? with {L}", act_exclusive_with, NULL, G_EXCL,
     "This flag cannot be used in combination with the Loud flag.", "Quiet", "Loud Quiet",
     "Quiet exclusive with=Loud"},
    {"cannot|can't|must not? set {*} in? combination|together with {L}", act_exclusive_with, NULL, G_EXCL,
     "The driver cannot set this member in combination with the Loud or Muted member.", "Quiet",
     "Loud Quiet Muted", "Quiet exclusive with=Muted"},
    {"mutually exclusive with {L}", act_exclusive_with, NULL, G_EXCL, "Quiet is mutually exclusive with Loud.",
     "Quiet", "Loud Quiet", "Quiet exclusive with=Loud"},

    /* -- null-when / nonnull-iff -------------------------------------------- */
    {"^ if {F} is not|non-null null? , {G} must|should be NULL", act_null_when, NULL, G_NULL,
     "If pKeys is not NULL, pValues must be NULL.", "pKeys", "pKeys pValues", "pValues null-when ref=pKeys"},
    {"^ if|when {F} is [set to] [a value of] {V} , {S} should|must be set to NULL", act_null_when, NULL, G_NULL,
     "If Options.Shared is set to a value of 1, this member should be set to NULL.", "hOwner", "Options.Shared hOwner",
     "hOwner null-when ref=Options.Shared"},
    {"^ if {F} is NULL , {S} will|is be? NULL", act_null_when, NULL, G_NULL,
     "If hParent is NULL, this value will be NULL too.", "hChild", "hParent hChild", "hChild null-when ref=hParent"},
    {"^ if {F} is not specified|set , {S} is NULL", act_null_when, NULL, G_NULL,
     "If Mapped is not specified, pView is NULL for copy operations.", "pView", "Mapped pView",
     "pView null-when ref=Mapped"},
    {"^ if {C} , {A} is|be NULL", act_null_when, "if", G_NULL, "If no key is given, the lookup table is NULL.",
     "pTable", "pTable", "pTable null-when"},
    {"^ for {C} , {S} is NULL", act_null_when, NULL, G_NULL, "For idle widgets, pWork is NULL.", "pWork", "pWork",
     "pWork null-when"},
    {"^ otherwise , {S} is NULL", act_null_when, NULL, G_NULL, "Otherwise, this member is NULL.", "pWork", "pWork",
     "pWork null-when"},
    {"{S} is also? [set to] NULL for|when|if|because {C}", act_null_when, NULL, G_NULL,
     "This member is also set to NULL for an idle widget.", "pWork", "pWork", "pWork null-when"},
    {"; otherwise , {S} is NULL", act_null_when, NULL, G_NULL,
     "A pointer to the spare copy; otherwise, this member is NULL.", "pSpare", "pSpare", "pSpare null-when"},
    {"or {V} if|when {C}", act_null_when, "or", G_ZERO_OR, "The owner, or NULL if it cannot be found.", "hOwner",
     "hOwner", "hOwner null-when"},
    {"{S} can be NULL", act_optional, NULL, G_NULL, "The handle can be NULL for widgets without a log.", "hLog",
     "hLog", "hLog optional"},
    {"NULL when|if|for {C}", act_null_when, NULL, G_NULL,
     "A handle to the target; must be NULL when Mode.Drop is specified.", "hTarget", "hTarget Mode Mode.Drop",
     "hTarget null-when ref=Mode.Drop"},
    {"^ if|when {C} , {S} is|must be? a? non-null|non-NULL", act_nonnull_iff, NULL, G_NULL,
     "If the widget was built with the Framed flag set, pFrame is a non-NULL pointer to its frame.", "pFrame",
     "pFrame", "pFrame nonnull-iff ref=Framed"},
    {"set {S} to a non-NULL|non-null value if|when {C}", act_nonnull_iff, NULL, G_NULL,
     "The caller should set this member to a non-NULL value if the widget is framed.", "pFrame", "pFrame",
     "pFrame nonnull-iff"},
    {"{S} is|must be? non-null|non-NULL if|when {C}", act_nonnull_iff, NULL, G_NULL,
     "This member is non-NULL when the widget is framed.", "pFrame", "pFrame", "pFrame nonnull-iff"},

    /* -- optional ------------------------------------------------------------ */
    {"^ an|a? optional", act_optional, NULL, G_OPTIONAL, "An optional note for the log.", "Note", "Note",
     "Note optional"},
    {"contains optional", act_optional, NULL, G_OPTIONAL, "Points to a buffer that contains optional notes.",
     "pNotes", "pNotes", "pNotes optional"},
    {"{S} is optional", act_optional, NULL, G_OPTIONAL, "This parameter is optional and may be NULL.", "hLog",
     "hLog", "hLog optional"},
    {"{F} is optional", act_optional, NULL, G_OPTIONAL, "The hLog member is optional when a widget is made.", "-",
     "hLog", "hLog optional"},
    {"^ if {S} is set to NULL", act_optional, NULL, G_OPTIONAL, "If this is set to NULL no limit applies.", "Upper",
     "Upper", "Upper optional"},
    {"optionally specifies|provides|points", act_optional, NULL, G_OPTIONAL,
     "Optionally specifies a label for the widget.", "pLabel", "pLabel", "pLabel optional"},

    /* -- zero-when ----------------------------------------------------------- */
    {"^ for {C} ,? {S} is always? zero|0", act_zero_when, NULL, G_NONE, "For idle widgets, SpinCount is zero.",
     "SpinCount", "SpinCount", "SpinCount zero-when"},
    {"^ if {C} , {G} must|should be [set to] zero|0 $", act_zero_when, NULL, G_NONE,
     "If pKeys is not NULL, the KeyCount member must be zero.", "pKeys", "pKeys KeyCount",
     "KeyCount zero-when ref=pKeys"},
    {"{S} is always? zero|0 for|when|in {C}", act_zero_when, NULL, G_NONE,
     "SpinCount is always zero for an idle widget.", "SpinCount", "SpinCount", "SpinCount zero-when"},
    {"^ if {C} , {*} {S} should|must be set to 0|zero", act_zero_when, NULL, G_NONE,
     "If the owner is unknown, Flags should say so, and OwnerId should be set to 0.", "OwnerId", "OwnerId",
     "OwnerId zero-when"},
    {"or 0|zero if|when {C}", act_zero_when, NULL, G_ZERO_OR, "The fault address, or 0 if the fault has no address.",
     "FaultAddress", "FaultAddress", "FaultAddress zero-when"},
    {"have {S} set to zero|0 on|for|when|in {C}", act_zero_when, NULL, G_NONE,
     "Both callers have this flag set to zero on the first try.", "Retry", "Retry", "Retry zero-when"},
    {"{S} is set to zero|0 in|for|when|on {C}", act_zero_when, NULL, G_NONE,
     "The flag is set to zero in older releases.", "Retry", "Retry", "Retry zero-when"},
    {"{S} cannot be set for|if|when|on {C}", act_zero_when, NULL, G_NONE,
     "This flag cannot be set for the outer widgets.", "Inner", "Inner", "Inner zero-when"},
    {"^ {A} must|should not|never set {S} {C}", act_must_not_set, NULL, G_SETS,
     "The caller must not set this member on the shared widget.", "Cached", "Cached", "Cached zero-when"},
    {"^ {A} must|should not|never set {F} {C}", act_must_not_set, NULL, G_SETS,
     "The caller must not set Cached on the shared widget.", "Backed", "Cached Backed", "Cached zero-when"},

    /* -- stated values ----------------------------------------------------- */
    {"^ {S} must|should always? [be set to] be? {V} [( true|false )] $", act_value, NULL, G_VALUE,
     "This member must be set to zero.", "Spare", "Spare", "Spare reserved-zero strength=must"},
    {"^ must|should always? [be set to] be? {V} [( true|false )] $", act_value, NULL, G_VALUE,
     "Must always be WIDGET_MODE_PLAIN.", "Mode", "Mode", "Mode range min=WIDGET_MODE_PLAIN max=WIDGET_MODE_PLAIN"},
    {"^ {S} must|should always? [be set to] be? {V} {C}", act_value, NULL, G_VALUE,
     "Speed must be set to 0 when the widget is parked.", "Speed", "Speed", "Speed zero-when"},
    {"^ must|should always? [be set to] be? {V} {C}", act_value, NULL, G_VALUE,
     "Must be NULL when the widget is parked.", "pMotor", "pMotor", "pMotor null-when"},
    {"^ {A} must|should set {S} to {V} $", act_value, NULL, G_VALUE, "Callers must set this value to 0.", "Spare",
     "Spare", "Spare reserved-zero strength=must"},
    {"^ {A} must|should set {S} to {V} {C}", act_value, NULL, G_VALUE,
     "Callers must set this value to 0 when the widget is parked.", "Speed", "Speed", "Speed zero-when"},

    /* -- range ------------------------------------------------------------- */
    {"^ if {*} nonzero value in|for {S} , the? value must|should be greater than or equal to the value in|of the? {F}",
     act_at_least, "nonzero", G_RANGE,
     "If the caller gives a nonzero value in Reach, the value must be greater than or equal to the value in the Span "
     "member.",
     "Reach", "Reach Span", "Reach at-least ref=Span if=nonzero"},
    {"^ {S} must|should be greater than or equal to the value in|of the? {F}", act_at_least, NULL, G_RANGE,
     "This value must be greater than or equal to the value in the Span member.", "Reach", "Reach Span",
     "Reach at-least ref=Span"},
    {"{X} + {Y} <= {Z}", act_range_expr, NULL, G_RANGE, "The manager keeps Start+Length <= Limit.", "Limit",
     "Start Length Limit", "Limit range expr=Start+Length<=Limit"},
    {"between the? {X} and {Y}", act_range_between, NULL, G_RANGE, "The level must be between 1 and 8.", "Level", "Level",
     "Level range min=1 max=8"},
    {"in the range [of] [from] {X} through|to|and {Y}", act_range_between, NULL, G_RANGE,
     "The level must be in the range 1 through 8.", "Level", "Level", "Level range min=1 max=8"},
    {"number in|from {X} to {Y}", act_range_between, NULL, G_RANGE,
     "The lane is a number in 0 to (Lanes - 1) for a laned widget.", "Lane", "Lane Lanes",
     "Lane range min=0 max=Lanes-1"},
    {"must be one of the values in|of the? {E} enumeration", act_one_of, NULL, G_RANGE,
     "Must be one of the values in the WIDGET_KIND enumeration.", "Kind", "Kind", "Kind range enum=WIDGET_KIND"},
    {"less than or equal to the? {E}", act_range, "max", G_RANGE, "Count must be less than or equal to 64.", "Count",
     "Count", "Count range max=64"},
    {"greater than or equal to the? {E}", act_range, "min", G_RANGE, "Count must be greater than or equal to 2.",
     "Count", "Count", "Count range min=2"},
    {"must|cannot not? exceed the? {E}", act_range, "max", G_RANGE, "The count must not exceed 64.", "Count", "Count",
     "Count range max=64"},
    {"must not be larger|greater than the? {F}", act_range, "max", G_RANGE,
     "This value must not be larger than the MaxLanes value the caller reported.", "Lanes", "Lanes",
     "Lanes range max=MaxLanes"},
    {"must be less than the? {E}", act_range, "max-exclusive", G_RANGE, "The index must be less than 16.", "Index",
     "Index", "Index range max-exclusive=16"},
    {"must be greater than the? {E}", act_range, "min-exclusive", G_RANGE, "The weight must be greater than 1.",
     "Weight", "Weight", "Weight range min-exclusive=1"},
    {"must|should|cannot|can be? no greater|more than the? {E}", act_range, "max", G_RANGE,
     "The count must be no more than 12.", "Count", "Count", "Count range max=12"},
    {"must|should|cannot|can be? at most the? {E}", act_range, "max", G_RANGE, "The count can be at most 12.",
     "Count", "Count", "Count range max=12"},
    {"must|should|cannot|can be? at least the? {E}", act_range, "min", G_RANGE, "The count must be at least 2.",
     "Count", "Count", "Count range min=2"},
    {"must|should have|be a? maximum value of {E}", act_range, "max", G_RANGE,
     "The count must have a maximum value of 12.", "Count", "Count", "Count range max=12"},
    {"must|should have|be a? minimum value of {E}", act_range, "min", G_RANGE,
     "The count must have a minimum value of 2.", "Count", "Count", "Count range min=2"},

    /* -- nonzero ----------------------------------------------------------- */
    {"must be nonzero|non-zero", act_nonzero, "value", G_NONE, "The stride must be nonzero.", "Stride", "Stride",
     "Stride nonzero what=value"},
    {"must not be zero", act_nonzero, "value", G_NONE, "The stride must not be zero.", "Stride", "Stride",
     "Stride nonzero what=value"},
    {"cannot be zero", act_nonzero, "value", G_NONE, "The stride cannot be zero.", "Stride", "Stride",
     "Stride nonzero what=value"},
    {"must be a nonzero|non-zero", act_nonzero, "value", G_NONE, "The stride must be a nonzero count.", "Stride",
     "Stride", "Stride nonzero what=value"},
    {"must be greater than zero|0", act_nonzero, "value", G_NONE, "The stride must be greater than zero.", "Stride",
     "Stride", "Stride nonzero what=value"},
    {"cannot be NULL", act_nonzero, "pointer", G_NONE, "This pointer cannot be NULL.", "pBody", "pBody",
     "pBody nonzero what=pointer"},
    {"must not be NULL", act_nonzero, "pointer", G_NONE, "This pointer must not be NULL.", "pBody", "pBody",
     "pBody nonzero what=pointer"},
    {"must be a valid pointer", act_nonzero, "pointer", G_NONE, "It must be a valid pointer.", "pBody", "pBody",
     "pBody nonzero what=pointer"},
    {"must point to a valid", act_nonzero, "pointer", G_NONE, "It must point to a valid widget.", "pBody", "pBody",
     "pBody nonzero what=pointer"},

    /* -- structural --------------------------------------------------------- */
    {"reserved|zero|zeroed|0", act_reserved, NULL, G_NONE, "This member is reserved and should be set to zero.", "Spare",
     "Spare", "Spare reserved-zero strength=should"},
    {"not use this value $", act_do_not_use, NULL, G_NONE, "Callers should not use this value.", "WIDGET_OLD",
     "enum: WIDGET_OLD", "WIDGET_OLD reserved use=forbidden"},
    {"must|should not be used $", act_do_not_use, NULL, G_NONE, "This value must not be used.", "WIDGET_OLD",
     "enum: WIDGET_OLD", "WIDGET_OLD reserved use=forbidden"},
    {"align|aligned|alignment|multiple", act_align, NULL, G_NONE, "The start must be aligned on 64 bytes.", "Start",
     "Start", "Start align bytes=64"},
    {"pages|page|bytes|kb|4kb|milliseconds|microseconds|nanosecond|nanoseconds|hertz|hz|bits|pixels", act_units, NULL, G_NONE, "The length of the queue, in bytes.",
     "Length", "Length", "Length units unit=bytes"},
    {"bit|bits", act_bit, NULL, G_NONE, "Setting this member is the same as setting the eighth and ninth bits (0x180).",
     "Wide", "Wide", "Wide bit index=7 width=2 mask=0x00000180"},
    {"{*}", act_capability, NULL, G_NONE, "Requires the WIDGET_CAPS RoundSupported cap.", "Round", "Round",
     "Round requires-cap cap=RoundSupported in=WIDGET_CAPS"},
    {"{*}", act_availability, NULL, G_NONE, "Supported starting with Windows 10.", "Late",
     "Late", "Late availability wddm=2.0"},
    {"populate|fill a|an {E} structure", act_buffer_type, "out", G_NONE,
     "The driver should populate a WIDGET_INFO structure with its widgets.", "WIDGET_QUERY_INFO",
     "enum: WIDGET_QUERY_INFO", "WIDGET_QUERY_INFO buffer-type record=WIDGET_INFO dir=out"},
    {"output buffer is|will be? a|an {E} structure", act_buffer_type, "out", G_NONE,
     "The input buffer will be a WIDGET_IN structure and the output buffer is a WIDGET_OUT structure.",
     "WIDGET_QUERY_PAIR", "enum: WIDGET_QUERY_PAIR", "WIDGET_QUERY_PAIR buffer-type record=WIDGET_OUT dir=out"},
    {"input buffer {*} is|be a|an {E} structure", act_buffer_type, "in", G_NONE,
     "The input buffer to the query will be a WIDGET_IN structure.", "WIDGET_QUERY_PAIR",
     "enum: WIDGET_QUERY_PAIR", "WIDGET_QUERY_PAIR buffer-type record=WIDGET_IN dir=in"},
    {"{E} member|structure", act_union_member_enum, NULL, G_NONE, "The widget is round; see the Round member.",
     "WIDGET_KIND_ROUND", "enum: WIDGET_KIND_ROUND", "WIDGET_KIND_ROUND union-member member=Round"},
    {"{*}", act_union_member_struct, NULL, G_NONE,
     "Holds the round shape when Kind is WIDGET_KIND_ROUND.", "Round", "Kind Round",
     "Round union-member value=WIDGET_KIND_ROUND"},
};

const size_t docs_rule_pattern_count = sizeof docs_rule_patterns / sizeof docs_rule_patterns[0];

static struct pattern compiled[sizeof docs_rule_patterns / sizeof docs_rule_patterns[0]];
static bool compiled_ok;
static pthread_once_t compile_once = PTHREAD_ONCE_INIT;

static const char *const modal_words[] = {"must",    "should",  "cannot",    "can't",    "only",
                                          "reserved", "aligned", "alignment", "requires", "required"};
static unsigned modal_ids[sizeof modal_words / sizeof modal_words[0]];

bool docs_rule_is_modal(const struct tok *t)
{
    for (size_t i = 0; t->word && i < sizeof modal_ids / sizeof modal_ids[0]; i++)
        if (t->word == modal_ids[i])
            return true;
    return false;
}

/* Per dictionary word, the patterns it is the key cue of; and those that
 * have no cue and are tried on every sentence. */
static struct rule_set *key_of; /* [WORDS_MAX] */
static struct rule_set always;

static void set_bit(struct rule_set *rs, size_t i) { rs->bits[i / 64] |= 1ull << (i % 64); }

/* The longest required word stands for the rarest. */
static void index_cues(size_t i, const struct pattern *p)
{
    unsigned key = 0;
    size_t best = 0;
    for (unsigned k = 0; k < p->ncues; k++) {
        size_t len = strlen(words_text(p->cues[k]));
        if (len > best)
            best = len, key = p->cues[k];
    }
    if (key)
        set_bit(&key_of[key], i);
    else if (p->nany)
        for (unsigned k = 0; k < p->any[0]->nalts; k++)
            set_bit(&key_of[p->any[0]->alts[k]], i);
    else
        set_bit(&always, i);
}

static void compile_all(void)
{
    for (size_t i = 0; i < sizeof modal_words / sizeof modal_words[0]; i++)
        modal_ids[i] = words_intern(modal_words[i]);
    compiled_ok = docs_rule_pattern_count <= DOCS_RULE_MAX_PATTERNS;
    key_of = calloc(WORDS_MAX, sizeof *key_of);
    for (size_t i = 0; i < docs_rule_pattern_count && compiled_ok; i++) {
        compiled_ok &= pattern_compile(docs_rule_patterns[i].text, &compiled[i]);
        index_cues(i, &compiled[i]);
    }
}

void docs_rule_candidates(const struct sentence *s, struct rule_set *out)
{
    *out = always;
    for (size_t i = 0; i < s->nt; i++) {
        const struct rule_set *k = &key_of[s->t[i].word];
        for (size_t b = 0; b < DOCS_RULE_MAX_PATTERNS / 64; b++)
            out->bits[b] |= k->bits[b];
    }
}

bool docs_rule_patterns_ready(void)
{
    pthread_once(&compile_once, compile_all);
    return compiled_ok;
}

const struct pattern *docs_rule_pattern_compiled(size_t i) { return &compiled[i]; }
