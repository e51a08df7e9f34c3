/* The pattern engine: compiles pattern text into elements over the shared
 * word dictionary (words.h) and matches it against a tokenized sentence by
 * backtracking (depth bounded by the element count). See pattern.h. */
#include "pattern.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pattern_words(const struct sentence *s, struct word_set *ws)
{
    memset(ws, 0, sizeof *ws);
    for (size_t i = 0; i < s->nt; i++)
        if (s->t[i].word)
            word_set_add(ws, s->t[i].word);
}

/* ---- compiling ----------------------------------------------------------- */

static bool bad(const char *text, const char *why)
{
    fprintf(stderr, "ddigen: internal error: rule pattern \"%s\": %s\n", text, why);
    return false;
}

/* One literal element from "a|b|c" (trailing '?' = optional). */
static bool literal(const char *text, const char *w, size_t n, struct pattern_elem *e)
{
    e->type = 'w';
    if (n > 1 && w[n - 1] == '?') {
        e->optional = true;
        n--;
    }
    for (size_t i = 0; i < n;) {
        size_t j = i;
        while (j < n && (w[j] != '|' || j == i))
            j++;
        if (e->nalts == PATTERN_MAX_ALTS)
            return bad(text, "too many alternatives");
        unsigned id = words_intern_n(w + i, j - i);
        if (!id)
            return bad(text, "dictionary full");
        e->alts[e->nalts++] = id;
        i = j + 1;
    }
    return true;
}

bool pattern_compile(const char *text, struct pattern *p)
{
    memset(p, 0, sizeof *p);
    unsigned group = 0;
    bool in_group = false;
    for (const char *c = text; *c;) {
        while (*c == ' ')
            c++;
        if (!*c)
            break;
        const char *e = c;
        while (*e && *e != ' ')
            e++;
        size_t n = (size_t)(e - c);
        if (p->n == PATTERN_MAX_ELEMS)
            return bad(text, "too many elements");
        struct pattern_elem *el = &p->e[p->n];
        if (c[0] == '[' && n > 1) {
            if (in_group)
                return bad(text, "nested [");
            in_group = true;
            group++;
            c++, n--;
        }
        bool close = n > 1 && c[n - 1] == ']';
        if (close)
            n--;
        if (n == 3 && c[0] == '{' && c[2] == '}') {
            el->type = c[1];
            if (!(isupper((unsigned char)c[1]) || c[1] == '*'))
                return bad(text, "unknown slot");
        } else if (n == 1 && (c[0] == '^' || c[0] == '$')) {
            el->type = c[0];
        } else if (!literal(text, c, n, el)) {
            return false;
        }
        if (in_group) {
            if (el->type != 'w')
                return bad(text, "only literals in [ ]");
            el->group = group;
            el->optional = false;
        }
        if (close) {
            if (!in_group)
                return bad(text, "] without [");
            in_group = false;
        }
        if (el->type == 'w' && !el->optional && !el->group && el->nalts == 1 && p->ncues < 8)
            p->cues[p->ncues++] = el->alts[0];
        else if (el->type == 'w' && !el->optional && !el->group && p->nany < 4)
            p->any[p->nany++] = el;
        p->n++;
        c = e;
    }
    return in_group ? bad(text, "[ without ]") : true;
}

/* ---- slots --------------------------------------------------------------- */

static bool tok_in(const struct tok *t, const unsigned *alts, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        if (t->word == alts[i])
            return true;
    return false;
}

static bool word_is(const struct sentence *s, size_t i, const char *w) { return tok_is(s, i, w); }

/* Nouns that may follow a name: "the Agp bit-field flag", "the X member". */
static size_t noun_after(const struct sentence *s, size_t i)
{
    static const char *const nouns[] = {"bit-field", "member", "members", "flag", "flags",  "field",
                                        "fields",    "bit",    "bits",    "parameter", "value", "cap"};
    size_t j = i;
    for (bool more = true; more && j < s->nt;) {
        more = false;
        for (size_t k = 0; k < sizeof nouns / sizeof nouns[0]; k++)
            if (word_is(s, j, nouns[k])) {
                j++;
                more = true;
                break;
            }
    }
    return j - i;
}

/* A name token at i: code-like, a page field, or a capitalized word the
 * text calls a member ("the Flip bit-field flag"). */
static bool capitalized(const struct sentence *s, size_t i)
{
    static const char *const common[] = {"the", "this", "a", "an", "if", "when", "for", "in", "on",
                                         "and", "or", "note", "setting", "that", "it", "these", "each"};
    if (i >= s->nt || s->t[i].kind != TOK_WORD || !isupper((unsigned char)s->t[i].text[0]))
        return false;
    for (size_t k = 0; k < sizeof common / sizeof common[0]; k++)
        if (word_is(s, i, common[k]))
            return false;
    return true;
}

static bool name_at(const struct sentence *s, size_t i)
{
    if (i >= s->nt)
        return false;
    if (s->t[i].kind == TOK_NAME)
        return true;
    if (!capitalized(s, i))
        return false;
    /* "Flip bit-field flag", "Red, Green, and Blue flags" */
    for (size_t j = i + 1; j < s->nt && j < i + 12; j++) {
        if (noun_after(s, j) > 0)
            return !word_is(s, j, "value");
        if (!word_is(s, j, ",") && !word_is(s, j, "and") && !word_is(s, j, "or") && s->t[j].kind != TOK_NAME &&
            !capitalized(s, j))
            return false;
    }
    return false;
}

/* "[the] Name [nouns] [member of [the] Name [nouns]]": tokens taken, 0 if none. */
static size_t field_len(const struct sentence *s, size_t i)
{
    size_t j = i;
    if (word_is(s, j, "the"))
        j++;
    if (!name_at(s, j))
        return 0;
    j++;
    j += noun_after(s, j);
    if (word_is(s, j, "of") && (word_is(s, j - 1, "member") || word_is(s, j - 1, "field"))) {
        size_t k = j + 1;
        if (word_is(s, k, "the"))
            k++;
        if (k < s->nt && s->t[k].kind == TOK_NAME && s->t[k].field >= 0)
            j = k + 1;
    }
    return j - i;
}

/* "A, B, and C [members]", "A or B", "A": tokens taken. */
static size_t list_len(const struct sentence *s, size_t i)
{
    size_t j = i, len = field_len(s, i);
    if (!len)
        return 0;
    j += len;
    for (;;) {
        size_t k = j;
        if (word_is(s, k, ","))
            k++;
        if (word_is(s, k, "and") || word_is(s, k, "or"))
            k++;
        if (k == j)
            break;
        size_t more = field_len(s, k);
        if (!more)
            break;
        j = k + more;
    }
    return j - i;
}

/* Words a sentence of a field's own text uses for that field. */
static size_t self_len(const struct sentence *s, size_t i)
{
    static const char *const nouns[] = {"member", "value",   "field",  "flag",   "parameter", "bit",
                                        "address", "array",  "handle", "pointer", "structure", "buffer",
                                        "union",   "identifier"};
    if (s->field < 0)
        return 0;
    if (word_is(s, i, "this") || (word_is(s, i, "the") && i == 0)) {
        for (size_t k = 0; k < sizeof nouns / sizeof nouns[0]; k++)
            if (word_is(s, i + 1, nouns[k]))
                return 2;
        if (word_is(s, i, "this") && word_is(s, i + 1, "status") && word_is(s, i + 2, "bit"))
            return 3;
        if (word_is(s, i, "this") && word_is(s, i + 1, "is"))
            return 1;
        if (word_is(s, i, "this"))
            return 0;
    }
    if (word_is(s, i, "it"))
        return 1;
    if (!s->subject[0] || s->subject[0] == '#')
        return 0;
    const char *leaf = sentence_leaf(s->subject);
    size_t j = i + (word_is(s, i, "the") ? 1 : 0);
    if (j >= s->nt || strcmp(sentence_leaf(s->t[j].text), leaf))
        return 0;
    j++;
    return j - i + noun_after(s, j);
}

static bool is_value_word(const struct sentence *s, size_t i)
{
    static const char *const words[] = {"zero", "false", "true", "null", "nonzero", "non-zero", "non-null",
                                        "one"};
    if (i >= s->nt)
        return false;
    if (s->t[i].kind == TOK_NUMBER)
        return true;
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++)
        if (word_is(s, i, words[k]))
            return true;
    const struct tok *t = &s->t[i];
    return t->kind == TOK_NAME && isupper((unsigned char)t->text[0]) && strchr(t->text, '_') &&
           sentence_is_constant(t->text);
}

static size_t value_len(const struct sentence *s, size_t i)
{
    size_t j = i;
    if (word_is(s, j, "a") && word_is(s, j + 1, "value") && word_is(s, j + 2, "of"))
        j += 3;
    if (word_is(s, j, "not") && word_is(s, j + 1, "null"))
        return j + 2 - i;
    if (!is_value_word(s, j))
        return 0;
    return j + 1 - i;
}

/* "(...)" or one number or name. */
static size_t operand_len(const struct sentence *s, size_t i)
{
    if (word_is(s, i, "(")) {
        for (size_t j = i + 1; j < s->nt && j < i + 16; j++)
            if (word_is(s, j, ")"))
                return j + 1 - i;
        return 0;
    }
    return i < s->nt && (s->t[i].kind == TOK_NUMBER || s->t[i].kind == TOK_NAME || capitalized(s, i)) ? 1 : 0;
}

/* Tokens a lead-in takes: "Note", "Note that", "[!NOTE]", "Additionally,". */
static size_t lead_len(const struct sentence *s)
{
    size_t i = 0;
    for (bool more = true; more;) {
        more = false;
        if (word_is(s, i, "[") && word_is(s, i + 1, "!") && word_is(s, i + 3, "]")) {
            i += 4, more = true;
        } else if (word_is(s, i, "note")) {
            i++;
            if (word_is(s, i, ":") || word_is(s, i, "that"))
                i++;
            more = true;
        } else if (word_is(s, i, "additionally") && word_is(s, i + 1, ",")) {
            i += 2, more = true;
        }
    }
    return i;
}

/* ---- matching ------------------------------------------------------------ */

struct run {
    const struct pattern *p;
    const struct sentence *s;
    struct match *m;
    size_t lead;
};

static bool match_from(struct run *r, unsigned ei, size_t ti);

static bool take(struct run *r, unsigned ei, size_t ti, size_t len)
{
    char slot = r->p->e[ei].type;
    if (slot >= 'A' && slot <= 'Z') {
        struct capture *c = &r->m->slot[slot - 'A'];
        c->a = (uint16_t)ti, c->b = (uint16_t)(ti + len), c->set = true;
    }
    return match_from(r, ei + 1, ti + len);
}

static bool is_stop(const struct sentence *s, size_t i)
{
    return word_is(s, i, ";") || word_is(s, i, ",");
}

static bool at_end(const struct sentence *s, size_t ti)
{
    while (ti < s->nt && (word_is(s, ti, ".") || word_is(s, ti, ")")))
        ti++;
    return ti >= s->nt;
}

/* Lazy runs: {*} (none or more) and {C}/{D} (one or more, to the end when last). */
static bool match_run(struct run *r, unsigned ei, size_t ti)
{
    const struct sentence *s = r->s;
    char type = r->p->e[ei].type;
    bool cond = type == 'C' || type == 'D';
    if (cond && ei + 1 == r->p->n) {
        size_t end = s->nt;
        while (end > ti && word_is(s, end - 1, "."))
            end--;
        return end > ti && take(r, ei, ti, end - ti);
    }
    for (size_t len = cond ? 1 : 0; ti + len <= s->nt && len <= 24; len++) {
        if (len && (word_is(s, ti + len - 1, ";") || (cond && is_stop(s, ti + len - 1))))
            break;
        if (take(r, ei, ti, len))
            return true;
    }
    return false;
}

static bool match_group(struct run *r, unsigned ei, size_t ti)
{
    const struct pattern *p = r->p;
    unsigned g = p->e[ei].group, end = ei;
    while (end < p->n && p->e[end].group == g)
        end++;
    size_t tj = ti;
    bool all = true;
    for (unsigned k = ei; k < end && all; k++, tj++)
        all = tj < r->s->nt && tok_in(&r->s->t[tj], p->e[k].alts, p->e[k].nalts);
    if (all && match_from(r, end, tj))
        return true;
    return match_from(r, end, ti);
}

static bool match_from(struct run *r, unsigned ei, size_t ti)
{
    const struct pattern *p = r->p;
    const struct sentence *s = r->s;
    if (ei == p->n) {
        r->m->to = ti;
        return true;
    }
    const struct pattern_elem *e = &p->e[ei];
    if (e->group)
        return match_group(r, ei, ti);
    switch (e->type) {
    case 'w':
        if (ti < s->nt && tok_in(&s->t[ti], e->alts, e->nalts) && match_from(r, ei + 1, ti + 1))
            return true;
        return e->optional && match_from(r, ei + 1, ti);
    case '^':
        return ti == r->lead && match_from(r, ei + 1, ti);
    case '$':
        return at_end(s, ti) && match_from(r, ei + 1, s->nt);
    case '*':
    case 'A':
    case 'C':
    case 'D':
        return match_run(r, ei, ti);
    default:
        break;
    }
    size_t len = 0;
    switch (e->type) {
    case 'S': len = self_len(s, ti); break;
    case 'F': case 'G': case 'H': len = field_len(s, ti); break;
    case 'L': case 'M': len = list_len(s, ti); break;
    case 'V': case 'W': len = value_len(s, ti); break;
    case 'E': case 'X': case 'Y': case 'Z': len = operand_len(s, ti); break;
    case 'N': len = ti < s->nt && s->t[ti].kind == TOK_NUMBER; break;
    default: break;
    }
    return len && take(r, ei, ti, len);
}

bool pattern_match(const struct pattern *p, const struct sentence *s, const struct word_set *ws, struct match *m)
{
    for (unsigned i = 0; i < p->ncues; i++)
        if (!word_set_has(ws, p->cues[i]))
            return false;
    for (unsigned i = 0; i < p->nany; i++) {
        bool one = false;
        for (unsigned k = 0; k < p->any[i]->nalts && !one; k++)
            one = word_set_has(ws, p->any[i]->alts[k]);
        if (!one)
            return false;
    }
    memset(m, 0, sizeof *m);
    struct run r = {p, s, m, lead_len(s)};
    bool anchored = p->n && p->e[0].type == '^';
    for (size_t ti = anchored ? r.lead : 0; ti < s->nt; ti++) {
        m->from = ti;
        if (match_from(&r, 0, ti))
            return true;
        if (anchored)
            break;
    }
    return false;
}

/* ---- reading captures ---------------------------------------------------- */

bool match_has(const struct match *m, char slot) { return m->slot[slot - 'A'].set; }

size_t match_name_tokens(const struct sentence *s, const struct match *m, char slot, size_t *tok, size_t max)
{
    const struct capture *c = &m->slot[slot - 'A'];
    size_t n = 0;
    for (size_t i = c->a; i < c->b && n < max; i++) {
        if (!name_at(s, i))
            continue;
        tok[n++] = i;
        /* "SegmentId member of Source": one name, qualified by the record */
        if (i + 2 < c->b && (word_is(s, i + 1, "member") || word_is(s, i + 1, "field")) &&
            word_is(s, i + 2, "of"))
            break;
        i += noun_after(s, i + 1);
    }
    return n;
}

const char *match_text(const struct sentence *s, const struct match *m, char slot)
{
    const struct capture *c = &m->slot[slot - 'A'];
    if (!c->set || c->b <= c->a)
        return "";
    return sentence_span(s, c->a, c->b - 1);
}
