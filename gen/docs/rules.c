/* Rule extraction over the sentences of a page. Each matcher reads one
 * phrasing family the DDI reference uses; a sentence that carries a modal but
 * matches none is kept as "unextracted" so coverage can be measured. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "rules.h"

#include "text.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct sentence {
    struct docs_page *p;
    int field;           /* -1: the page itself */
    const char *subject; /* field path, "#N" for unnamed, "" for page */
    unsigned line;
    const char *text;    /* squashed sentence (arena) */
    char *lc;            /* lower-case copy, same offsets */
    size_t n;
    unsigned made;       /* rules produced from this sentence */
};

/* ---- small text tools ---------------------------------------------------- */

static const char *find(const struct sentence *s, const char *needle)
{
    return strstr(s->lc, needle);
}

/* Offset of needle as a whole word in lc, or -1. */
static long find_word_from(const struct sentence *s, size_t from, const char *needle)
{
    size_t m = strlen(needle);
    for (const char *h = s->lc + from; (h = strstr(h, needle)) != NULL; h++) {
        size_t at = (size_t)(h - s->lc);
        bool left = at == 0 || !isalnum((unsigned char)s->lc[at - 1]);
        bool right = !isalnum((unsigned char)s->lc[at + m]);
        if (left && right)
            return (long)at;
    }
    return -1;
}

static bool has_word(const struct sentence *s, const char *w) { return find_word_from(s, 0, w) >= 0; }

static bool is_field_name(const struct docs_page *p, const char *name, size_t n)
{
    for (size_t i = 0; i < p->fields.n; i++) {
        const char *path = p->fields.v[i].path;
        size_t pl = strlen(path);
        if (pl == n && memcmp(path, name, n) == 0)
            return true;
        if (pl > n && path[pl - n - 1] == '.' && memcmp(path + pl - n, name, n) == 0)
            return true;
    }
    return false;
}

/* Names that look like code: FOO_BAR, CamelCase, pMdl, A.B, or a field name. */
static bool codeish(const struct docs_page *p, const char *t, size_t n)
{
    if (n < 2)
        return false;
    bool lower = false, camel = false, underscore = false, dot = false;
    for (size_t i = 0; i < n; i++) {
        if (t[i] == '_')
            underscore = true;
        else if (t[i] == '.')
            dot = true;
        else if (islower((unsigned char)t[i]))
            lower = true;
        else if (isupper((unsigned char)t[i]) && lower)
            camel = true;
    }
    if (underscore || camel || (dot && lower))
        return true;
    return is_field_name(p, t, n);
}

/* Next code-like identifier at or after *pos; dotted paths are one name. */
static bool next_ident(const struct sentence *s, size_t *pos, size_t end, size_t *at, size_t *len)
{
    const char *t = s->text;
    size_t i = *pos;
    while (i < end) {
        if (!docs_is_ident_start((unsigned char)t[i]) || (i && docs_is_ident_char((unsigned char)t[i - 1]))) {
            i++;
            continue;
        }
        size_t j = i;
        while (j < end && (docs_is_ident_char((unsigned char)t[j]) ||
                           (t[j] == '.' && j + 1 < end && docs_is_ident_start((unsigned char)t[j + 1]))))
            j++;
        *pos = j;
        /* "the Staged flag", "the Copy member": named as a member, so a name */
        static const char *const nouns[] = {" flag", " member", " field", " bit "};
        bool named = false;
        for (size_t k = 0; k < 4 && !named; k++)
            named = !strncmp(t + j, nouns[k], strlen(nouns[k])) && isupper((unsigned char)t[i]);
        if (named || codeish(s->p, t + i, j - i)) {
            *at = i;
            *len = j - i;
            return true;
        }
        i = j;
    }
    *pos = end;
    return false;
}

/* Resolve a name mentioned in the body of subject to a documented field path:
 * prefer a sibling or an ancestor's sibling, then any field ending in it. */
static const char *resolve_ref(struct sentence *s, const char *name, size_t n)
{
    struct docs_page *p = s->p;
    const char *subj = s->subject;
    size_t sl = strlen(subj);
    while (sl > 0) {
        while (sl > 0 && subj[sl - 1] != '.')
            sl--;
        if (sl == 0)
            break;
        for (size_t i = 0; i < p->fields.n; i++) {
            const char *path = p->fields.v[i].path;
            if (strlen(path) == sl + n && memcmp(path, subj, sl) == 0 && memcmp(path + sl, name, n) == 0)
                return path;
        }
        sl--;
    }
    for (size_t i = 0; i < p->fields.n; i++) {
        const char *path = p->fields.v[i].path;
        if (strlen(path) == n && memcmp(path, name, n) == 0)
            return path;
    }
    for (size_t i = 0; i < p->fields.n; i++) {
        const char *path = p->fields.v[i].path;
        size_t pl = strlen(path);
        if (pl > n && path[pl - n - 1] == '.' && memcmp(path + pl - n, name, n) == 0)
            return path;
    }
    return docs_arena_strndup(&p->arena, name, n);
}

static struct docs_rule *add(struct sentence *s, enum docs_rule_kind k, const char *suffix)
{
    struct docs_rule *r = docs_page_add_rule(s->p, k, s->subject, suffix, s->line, s->text);
    s->made++; /* a duplicate still means the sentence was understood */
    return r;
}

/* Text of the clause from off to the next ',' ';' or end, trimmed. */
static const char *clause(struct sentence *s, size_t off)
{
    while (off < s->n && s->text[off] == ' ')
        off++;
    size_t e = off;
    while (e < s->n && s->text[e] != ',' && s->text[e] != ';')
        e++;
    while (e > off && (s->text[e - 1] == '.' || s->text[e - 1] == ' '))
        e--;
    return docs_arena_strndup(&s->p->arena, s->text + off, e - off);
}

/* ---- matchers ------------------------------------------------------------ */

static void m_reserved(struct sentence *s)
{
    if (!has_word(s, "reserved") && !find(s, "must be zero") && !find(s, "must be set to zero") &&
        !find(s, "should be set to zero") && !find(s, "should be zero") && !find(s, "must be 0"))
        return;
    if (s->field < 0)
        return;
    bool zero = (find(s, "zero") || find(s, " to 0") || find(s, " be 0")) &&
                (find(s, "must") || find(s, "should") || find(s, "set to"));
    /* "all other members must be set to zero" speaks of other members. */
    if (zero && find(s, "other member") && !has_word(s, "reserved"))
        return;
    if (!zero && !(has_word(s, "reserved") &&
                   (find(s, "this member is reserved") || find(s, "is reserved and") ||
                    find(s, "reserved for") || find(s, "reserved member") || find(s, "reserved;"))))
        return;
    struct docs_rule *r = add(s, zero ? DOCS_RULE_RESERVED_ZERO : DOCS_RULE_RESERVED, NULL);
    if (zero)
        docs_rule_op(s->p, r, "strength", find(s, "must") ? "must" : "should");
    else if (find(s, "not be used") || find(s, "do not use"))
        docs_rule_op(s->p, r, "use", "forbidden");
    const char *w;
    const char *ddi;
    const char *basis;
    if ((find(s, "earlier than") || find(s, "prior to") || find(s, "before")) &&
        docs_normalize_version(s->text, &w, &ddi, &basis)) {
        docs_rule_op(s->p, r, "before-wddm", w);
        docs_rule_op(s->p, r, "before-ddi", ddi);
    }
}

/* "4 KB", "4KB", "4096 bytes", "64-byte", "16 byte" -> bytes. */
static unsigned long size_at(const char *lc, size_t n, size_t from, size_t to)
{
    for (size_t i = from; i < to && i < n; i++) {
        if (!isdigit((unsigned char)lc[i]) || (i && isalnum((unsigned char)lc[i - 1])))
            continue;
        char *e;
        unsigned long v = strtoul(lc + i, &e, 10);
        while (*e == ' ' || *e == '-')
            e++;
        if (!strncmp(e, "kb", 2) || !strncmp(e, "kilobyte", 8))
            return v * 1024;
        if (!strncmp(e, "mb", 2) || !strncmp(e, "megabyte", 8))
            return v * 1024 * 1024;
        if (!strncmp(e, "byte", 4))
            return v;
    }
    return 0;
}

static void m_align(struct sentence *s)
{
    const char *a = find(s, "align");
    const char *mult = find(s, "multiple of");
    const char *pmult = find(s, "page multiple");
    if (!a && !mult && !pmult)
        return;
    if (s->field < 0 || (a && find(s, "alignment") && !find(s, "must") && !find(s, "aligned")))
        return;
    size_t at = (size_t)((a ? a : mult ? mult : pmult) - s->lc);
    size_t from = at > 40 ? at - 40 : 0;
    unsigned long bytes = size_at(s->lc, s->n, from, s->n);
    const char *unit = NULL;
    if (bytes == 0) {
        if (find(s, "cpu page"))
            unit = "cpu-page";
        else if (find(s, "page size") || find(s, "page aligned") || find(s, "page boundary") ||
                 find(s, "on a page") || find(s, "to a page") || pmult || find(s, "page-aligned"))
            unit = "page";
        else
            return;
    }
    bool size = mult || pmult || find(s, "in size");
    struct docs_rule *r = add(s, DOCS_RULE_ALIGN, size && !a ? "size" : NULL);
    if (bytes) {
        char buf[32];
        snprintf(buf, sizeof buf, "%lu", bytes);
        docs_rule_op(s->p, r, "bytes", buf);
    } else {
        docs_rule_op(s->p, r, "unit", unit);
    }
    if (size && !a)
        docs_rule_op(s->p, r, "of", "size");
    if (a && (mult || pmult)) {
        struct docs_rule *r2 = add(s, DOCS_RULE_ALIGN, "size");
        docs_rule_op(s->p, r2, "unit", bytes ? "bytes" : unit);
        docs_rule_op(s->p, r2, "of", "size");
    }
}

static void m_units(struct sentence *s)
{
    static const struct {
        const char *phrase, *unit;
    } units[] = {
        {"in 4kb pages", "4kb-pages"},       {"in 4 kb pages", "4kb-pages"},
        {"in 4kb,", "4kb-pages"},            {"in 4 kb,", "4kb-pages"},
        {"in system memory pages", "system-pages"}, {"page number", "page-number"},
        {"in bytes", "bytes"},               {"number of bytes", "bytes"},
        {"in pages", "pages"},               {"number of pages", "pages"},
        {"in milliseconds", "milliseconds"}, {"in microseconds", "microseconds"},
        {"in 100-nanosecond", "100ns"},      {"in nanoseconds", "nanoseconds"},
        {"in hertz", "hz"},                  {"in hz", "hz"},
        {"in bits", "bits"},                 {"in pixels", "pixels"},
        {"in units of pages", "pages"},      {"in units of bytes", "bytes"},
    };
    if (s->field < 0)
        return;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (!find(s, units[i].phrase))
            continue;
        /* Units rules are per field: the first statement wins. */
        struct docs_rule *r = add(s, DOCS_RULE_UNITS, NULL);
        docs_rule_op(s->p, r, "unit", units[i].unit);
        return;
    }
}

static const char *ordinal_words[] = {
    "first",        "second",       "third",         "fourth",       "fifth",
    "sixth",        "seventh",      "eighth",        "ninth",        "tenth",
    "eleventh",     "twelfth",      "thirteenth",    "fourteenth",   "fifteenth",
    "sixteenth",    "seventeenth",  "eighteenth",    "nineteenth",   "twentieth",
    "twenty-first", "twenty-second", "twenty-third", "twenty-fourth", "twenty-fifth",
    "twenty-sixth", "twenty-seventh", "twenty-eighth", "twenty-ninth", "thirtieth",
    "thirty-first", "thirty-second",
};

static void m_bit(struct sentence *s)
{
    long b = find_word_from(s, 0, "bit");
    if (b < 0 || s->field < 0)
        return;
    int index = -1;
    for (int i = 31; i >= 0 && index < 0; i--) {
        long w = find_word_from(s, 0, ordinal_words[i]);
        if (w >= 0 && w < b)
            index = i;
    }
    const char *hex = strstr(s->lc, "0x");
    unsigned long mask = hex ? strtoul(hex, NULL, 16) : 0;
    if (index < 0 && !(mask && (mask & (mask - 1)) == 0))
        return;
    struct docs_rule *r = add(s, DOCS_RULE_BIT, NULL);
    char buf[32];
    if (index >= 0) {
        snprintf(buf, sizeof buf, "%d", index);
        docs_rule_op(s->p, r, "index", buf);
    }
    if (mask) {
        snprintf(buf, sizeof buf, "0x%08lx", mask);
        docs_rule_op(s->p, r, "mask", buf);
        if (index >= 0 && mask != (1ul << index))
            docs_page_note(s->p, s->line, true, "%s: bit %d stated with mask 0x%lx", s->subject,
                           index + 1, mask);
    }
    const char *of = strstr(s->text, " member");
    for (long w = find_word_from(s, 0, "of the"); w >= 0 && of; w = -1) {
        size_t pos = (size_t)w, at, len;
        if (next_ident(s, &pos, s->n, &at, &len)) {
            docs_rule_op(s->p, r, "word", docs_arena_strndup(&s->p->arena, s->text + at, len));
        }
    }
}

/* Identifiers in [from, end) become one rule each (with=NAME). */
static unsigned idents_to_rules(struct sentence *s, size_t from, size_t end, enum docs_rule_kind k,
                                const char *opname, const char *cond)
{
    unsigned made = 0;
    size_t pos = from, at, len;
    while (next_ident(s, &pos, end, &at, &len)) {
        const char *name = resolve_ref(s, s->text + at, len);
        if (strcmp(name, s->subject) == 0)
            continue;
        struct docs_rule *r = add(s, k, name);
        docs_rule_op(s->p, r, opname, name);
        if (cond)
            docs_rule_op(s->p, r, "if", cond);
        made++;
    }
    return made;
}

static size_t clause_end(const struct sentence *s, size_t from)
{
    size_t e = from;
    while (e < s->n && s->text[e] != ';' && strncmp(s->lc + e, ", and ", 6) != 0 &&
           strncmp(s->lc + e, ", but", 5) != 0 && strncmp(s->lc + e, ". ", 2) != 0)
        e++;
    return e;
}

static void m_exclusive(struct sentence *s)
{
    static const char *const cues[] = {"in combination with", "combined with", "mutually exclusive with",
                                       "cannot be used with", "cannot be set with", "together with"};
    if (s->field < 0)
        return;
    for (size_t i = 0; i < sizeof cues / sizeof cues[0]; i++) {
        const char *c = find(s, cues[i]);
        if (!c)
            continue;
        if (i == 5 && !find(s, "cannot") && !find(s, "must not"))
            continue;
        if (i < 2 && !find(s, "cannot") && !find(s, "must not") && !find(s, "can't"))
            continue;
        size_t from = (size_t)(c - s->lc) + strlen(cues[i]);
        idents_to_rules(s, from, clause_end(s, from), DOCS_RULE_EXCLUSIVE, "with", NULL);
        return;
    }
}

static void m_implies(struct sentence *s)
{
    if (s->field < 0)
        return;
    const char *c = find(s, "must also set");
    if (!c)
        c = find(s, "should also set");
    if (c) {
        size_t from = (size_t)(c - s->lc) + 13;
        const char *cond = NULL;
        const char *iff = find(s, "if the driver ");
        if (iff && iff < c)
            cond = clause(s, (size_t)(iff - s->lc) + 3);
        idents_to_rules(s, from, clause_end(s, from), DOCS_RULE_IMPLIES, "requires", cond);
        return;
    }
    /* "The flag can only be set when the X flag is set." */
    c = find(s, "only be set when");
    if (!c)
        c = find(s, "only be set if");
    if (!c)
        c = find(s, "valid only if");
    if (c && (find(s, " is set") || find(s, " are set") || find(s, " is specified"))) {
        size_t from = (size_t)(c - s->lc) + 12;
        idents_to_rules(s, from, clause_end(s, from), DOCS_RULE_IMPLIES, "requires", NULL);
    }
}

static void m_null(struct sentence *s)
{
    if (s->field < 0 || !strstr(s->lc, "null"))
        return;
    /* "If X is not specified, Y is NULL ..." */
    if (strncmp(s->lc, "if ", 3) == 0 && !strstr(s->lc, "non-null")) {
        const char *comma = strchr(s->text, ',');
        if (comma && (strstr(comma, " is NULL") || strstr(comma, "be NULL"))) {
            const char *cond = docs_arena_strndup(&s->p->arena, s->text + 3, (size_t)(comma - s->text) - 3);
            struct docs_rule *r = add(s, DOCS_RULE_NULL_WHEN, NULL);
            docs_rule_op(s->p, r, "when", cond);
            size_t pos = 3, at, len;
            while (next_ident(s, &pos, (size_t)(comma - s->text), &at, &len))
                docs_rule_op(s->p, r, "ref", resolve_ref(s, s->text + at, len));
            return;
        }
    }
    const char *nn = strstr(s->lc, "non-null");
    if (!nn)
        nn = strstr(s->lc, "not null");
    if (nn) {
        const char *w = find(s, " if ");
        if (!w)
            w = find(s, " when ");
        if (!w && strncmp(s->lc, "if ", 3) == 0)
            w = s->lc - 1;
        /* "(Optional) If non-NULL, ..." describes an optional value, not a rule. */
        if (!w || (size_t)(nn - s->lc) < 12)
            return;
        const char *cond;
        if (w < nn && w == s->lc - 1)
            cond = clause(s, 3);
        else
            cond = clause(s, (size_t)(w - s->lc) + (w[1] == 'i' ? 4 : 6));
        struct docs_rule *r = add(s, DOCS_RULE_NONNULL_IFF, NULL);
        docs_rule_op(s->p, r, "if", cond);
        return;
    }
    static const char *const cues[] = {"null when ", "null if ", "null for "};
    for (size_t i = 0; i < 3; i++) {
        const char *c = find(s, cues[i]);
        if (!c)
            continue;
        size_t from = (size_t)(c - s->lc) + strlen(cues[i]);
        const char *cond = clause(s, from);
        struct docs_rule *r = add(s, DOCS_RULE_NULL_WHEN, NULL);
        docs_rule_op(s->p, r, "when", cond);
        size_t pos = from, at, len;
        size_t end = from + strlen(cond);
        while (next_ident(s, &pos, end, &at, &len))
            docs_rule_op(s->p, r, "ref", resolve_ref(s, s->text + at, len));
        return;
    }
}

static void m_nonzero(struct sentence *s)
{
    static const struct {
        const char *cue, *what;
    } cues[] = {
        {"must be nonzero", "value"},      {"must be non-zero", "value"},
        {"must not be zero", "value"},     {"cannot be zero", "value"},
        {"must be greater than zero", "value"}, {"must be greater than 0", "value"},
        {"must be a nonzero", "value"},    {"must be a non-zero", "value"},
        {"cannot be null", "pointer"},     {"must not be null", "pointer"},
        {"must be a valid pointer", "pointer"}, {"must point to a valid", "pointer"},
    };
    if (s->field < 0)
        return;
    for (size_t i = 0; i < sizeof cues / sizeof cues[0]; i++) {
        if (!find(s, cues[i].cue))
            continue;
        struct docs_rule *r = add(s, DOCS_RULE_NONZERO, NULL);
        docs_rule_op(s->p, r, "what", cues[i].what);
        return;
    }
}

/* The operand after a comparison phrase: a number or a name. */
static const char *operand_at(struct sentence *s, size_t off)
{
    while (off < s->n && s->text[off] == ' ')
        off++;
    if (!strncmp(s->lc + off, "the ", 4))
        off += 4;
    size_t e = off;
    while (e < s->n && (isalnum((unsigned char)s->text[e]) || s->text[e] == '_' || s->text[e] == '.' ||
                        s->text[e] == '+' || s->text[e] == '-' || s->text[e] == 'x'))
        e++;
    while (e > off && s->text[e - 1] == '.')
        e--;
    return e > off ? docs_arena_strndup(&s->p->arena, s->text + off, e - off) : NULL;
}

static void m_range(struct sentence *s)
{
    static const struct {
        const char *cue, *op;
    } cues[] = {
        {"less than or equal to", "max"},    {"greater than or equal to", "min"},
        {"must not exceed", "max"},          {"cannot exceed", "max"},
        {"must be less than", "max-exclusive"}, {"must be greater than", "min-exclusive"},
        {"no greater than", "max"},          {"no more than", "max"},
        {"at most", "max"},                  {"at least", "min"},
        {"maximum value of", "max"},         {"minimum value of", "min"},
    };
    if (s->field < 0)
        return;
    const char *btw = find(s, "between ");
    if (btw && (find(s, "must") || find(s, "range")) && find(s, " and ")) {
        size_t from = (size_t)(btw - s->lc) + 8;
        const char *lo = operand_at(s, from);
        const char *and = strstr(s->lc + from, " and ");
        const char *hi = and ? operand_at(s, (size_t)(and - s->lc) + 5) : NULL;
        if (lo && hi && (isdigit((unsigned char)lo[0]) || isdigit((unsigned char)hi[0]))) {
            struct docs_rule *r = add(s, DOCS_RULE_RANGE, NULL);
            docs_rule_op(s->p, r, "min", lo);
            docs_rule_op(s->p, r, "max", hi);
            return;
        }
    }
    for (const char *c = strstr(s->text, "<="); c; c = NULL) {
        /* "BaseAddress+Size <= MaximumAddress" */
        size_t at = (size_t)(c - s->text), b = at;
        while (b > 0 && s->text[b - 1] == ' ')
            b--;
        size_t a = b;
        while (a > 0 && (docs_is_ident_char((unsigned char)s->text[a - 1]) || s->text[a - 1] == '+' ||
                         s->text[a - 1] == '.'))
            a--;
        const char *rhs = operand_at(s, at + 2);
        if (a < b && rhs) {
            struct docs_rule *r = add(s, DOCS_RULE_RANGE, NULL);
            docs_rule_op(s->p, r, "expr", docs_arena_printf(&s->p->arena, "%.*s <= %s", (int)(b - a),
                                                            s->text + a, rhs));
            return;
        }
    }
    if (!find(s, "must") && !find(s, "should") && !find(s, "cannot") && !find(s, "can be"))
        return;
    for (size_t i = 0; i < sizeof cues / sizeof cues[0]; i++) {
        const char *c = find(s, cues[i].cue);
        if (!c)
            continue;
        const char *v = operand_at(s, (size_t)(c - s->lc) + strlen(cues[i].cue));
        if (!v || !strcmp(v, "zero") || !strcmp(v, "0") || !strcmp(v, "one"))
            if (!v || strcmp(cues[i].op, "min-exclusive") == 0)
                continue;
        struct docs_rule *r = add(s, DOCS_RULE_RANGE, NULL);
        docs_rule_op(s->p, r, cues[i].op, v);
        return;
    }
}

static void m_discriminator(struct sentence *s)
{
    if (s->field < 0)
        return;
    /* "..., or zero if the source allocation is described by the pMdl member" */
    const char *z = find(s, "zero if");
    const char *by = find(s, "described by the ");
    if (z && by && by > z) {
        size_t pos = (size_t)(by - s->lc) + 17, at, len;
        if (next_ident(s, &pos, s->n, &at, &len)) {
            struct docs_rule *r = add(s, DOCS_RULE_DISCRIMINATOR, NULL);
            docs_rule_op(s->p, r, "value", "0");
            docs_rule_op(s->p, r, "selects", resolve_ref(s, s->text + at, len));
            return;
        }
    }
    /* "..., if the SegmentId member of Source is nonzero" */
    static const char *const cues[] = {"if the ", "when the ", "valid only if ", "only if the "};
    for (size_t i = 0; i < 4; i++) {
        for (const char *c = find(s, cues[i]); c; c = strstr(c + 1, cues[i])) {
            size_t pos = (size_t)(c - s->lc) + strlen(cues[i]), at, len;
            size_t end = clause_end(s, pos);
            if (!next_ident(s, &pos, end, &at, &len))
                continue;
            const char *rest = s->lc + pos;
            const char *is = strstr(rest, " is ");
            if (!is || (size_t)(is - s->lc) > end)
                continue;
            size_t vpos = (size_t)(is - s->lc) + 4;
            const char *value = NULL;
            if (!strncmp(s->lc + vpos, "nonzero", 7) || !strncmp(s->lc + vpos, "non-zero", 8) ||
                !strncmp(s->lc + vpos, "not zero", 8))
                value = "nonzero";
            else if (!strncmp(s->lc + vpos, "zero", 4) || !strncmp(s->lc + vpos, "0", 1))
                value = "0";
            else if (!strncmp(s->lc + vpos, "set to ", 7) || !strncmp(s->lc + vpos, "equal to ", 9) ||
                     isupper((unsigned char)s->text[vpos])) {
                size_t vp = vpos, va, vl;
                if (next_ident(s, &vp, end, &va, &vl) && isupper((unsigned char)s->text[va]) &&
                    memchr(s->text + va, '_', vl))
                    value = docs_arena_strndup(&s->p->arena, s->text + va, vl);
            }
            if (!value)
                continue;
            const char *on = resolve_ref(s, s->text + at, len);
            if (!strcmp(on, s->subject))
                continue;
            struct docs_rule *r = add(s, DOCS_RULE_DISCRIMINATOR, NULL);
            docs_rule_op(s->p, r, "field", on);
            docs_rule_op(s->p, r, "value", value);
            return;
        }
    }
}

static void m_capability(struct sentence *s)
{
    if (!find(s, "must") && !find(s, "only") && !find(s, "require") && !find(s, "if "))
        return;
    size_t pos = 0, at, len;
    while (next_ident(s, &pos, s->n, &at, &len)) {
        const char *t = s->text + at;
        bool cap = (len > 9 && !memcmp(t + len - 9, "Supported", 9)) ||
                   (len > 7 && !memcmp(t + len - 7, "Support", 7));
        if (!cap)
            continue;
        const char *name = docs_arena_strndup(&s->p->arena, t, len);
        struct docs_rule *r = add(s, DOCS_RULE_REQUIRES_CAP, name);
        docs_rule_op(s->p, r, "cap", name);
        /* "DXGK_VIDMMCAPS MapAperature2Supported": the caps structure before it */
        size_t b = at;
        while (b > 0 && s->text[b - 1] == ' ')
            b--;
        size_t a = b;
        while (a > 0 && docs_is_ident_char((unsigned char)s->text[a - 1]))
            a--;
        if (a < b && memmem(s->text + a, b - a, "CAPS", 4))
            docs_rule_op(s->p, r, "in", docs_arena_strndup(&s->p->arena, s->text + a, b - a));
    }
}

static void m_availability(struct sentence *s)
{
    static const char *const since[] = {"starting with", "starting in",  "beginning with", "beginning in",
                                        "available in",  "supported in", "and later",      "or later",
                                        ">=",            "introduced in", "added in",      "starting from",
                                        "available starting", "supported starting"};
    static const char *const before[] = {"earlier than", "prior to", "before"};
    const char *w, *ddi, *basis;
    if (find(s, "wddmv1 only")) {
        struct docs_rule *r = add(s, DOCS_RULE_AVAILABILITY, NULL);
        docs_rule_op(s->p, r, "before-wddm", "2.0");
        docs_rule_op(s->p, r, "before-ddi", "DXGKDDI_INTERFACE_VERSION_WDDM2_0");
        return;
    }
    if (find(s, "wddmv2 only")) {
        struct docs_rule *r = add(s, DOCS_RULE_AVAILABILITY, NULL);
        docs_rule_op(s->p, r, "wddm", "2.0");
        docs_rule_op(s->p, r, "ddi", "DXGKDDI_INTERFACE_VERSION_WDDM2_0");
        return;
    }
    if (!find(s, "windows") && !find(s, "wddm"))
        return;
    bool is_since = false, is_before = false;
    for (size_t i = 0; i < sizeof since / sizeof since[0]; i++)
        is_since |= find(s, since[i]) != NULL;
    for (size_t i = 0; i < sizeof before / sizeof before[0]; i++)
        is_before |= find(s, before[i]) != NULL;
    if (!is_since && !is_before)
        return;
    if (!docs_normalize_version(s->text, &w, &ddi, &basis))
        return;
    if (is_before && !is_since) {
        /* "For WDDM versions earlier than WDDM 2.1, this member is reserved"
         * is kept on the reserved rule; here only plain availability. */
        if (has_word(s, "reserved"))
            return;
        struct docs_rule *r = add(s, DOCS_RULE_AVAILABILITY, NULL);
        docs_rule_op(s->p, r, "before-wddm", w);
        docs_rule_op(s->p, r, "before-ddi", ddi);
        return;
    }
    struct docs_rule *r = add(s, DOCS_RULE_AVAILABILITY, NULL);
    docs_rule_op(s->p, r, "wddm", w);
    docs_rule_op(s->p, r, "ddi", ddi);
    docs_rule_op(s->p, r, "basis", basis);
}

/* Enum value <-> union member: on an enum page, "the X member"; on a struct
 * page, a top-level member whose text names the enum constant built from it. */
static void m_union_member(struct sentence *s)
{
    if (s->field < 0)
        return;
    if (s->p->kind == DOCS_KIND_ENUM) {
        const char *m = find(s, " member");
        if (!m)
            m = find(s, " structure");
        if (!m)
            return;
        size_t b = (size_t)(m - s->lc);
        size_t a = b;
        while (a > 0 && (docs_is_ident_char((unsigned char)s->text[a - 1]) || s->text[a - 1] == '.'))
            a--;
        if (a == b || !(isupper((unsigned char)s->text[a]) || codeish(s->p, s->text + a, b - a)))
            return;
        const char *name = docs_arena_strndup(&s->p->arena, s->text + a, b - a);
        if (!strncmp(s->lc + b, " structure", 10) && !find(s, "union"))
            return;
        struct docs_rule *r = add(s, DOCS_RULE_UNION_MEMBER, name);
        docs_rule_op(s->p, r, "member", name);
        return;
    }
    /* Struct page: compare constants with the top-level member name. */
    const struct docs_field *f = &s->p->fields.v[s->field];
    while (f->parent >= 0)
        f = &s->p->fields.v[f->parent];
    char want[128];
    size_t wn = 0;
    for (const char *c = f->path; *c && wn < sizeof want - 1; c++)
        want[wn++] = (char)toupper((unsigned char)*c);
    want[wn] = '\0';
    if (wn < 3)
        return;
    for (const char *t = s->text; (t = strchr(t, '_')) != NULL; t++) {
        const char *a = t;
        while (a > s->text && docs_is_ident_char((unsigned char)a[-1]))
            a--;
        const char *e = t;
        while (docs_is_ident_char((unsigned char)*e))
            e++;
        char flat[128];
        size_t fn = 0;
        bool upper = true;
        for (const char *c = a; c < e && fn < sizeof flat - 1; c++) {
            upper &= !islower((unsigned char)*c);
            if (*c != '_')
                flat[fn++] = *c;
        }
        flat[fn] = '\0';
        static const char *const type_words[] = {" structure", "-typed", " union", " enumeration",
                                                 " data type", " type", " callback", " function"};
        bool is_type = false;
        for (size_t k = 0; k < sizeof type_words / sizeof type_words[0]; k++)
            is_type |= !strncmp(e, type_words[k], strlen(type_words[k]));
        if (upper && !is_type && fn > wn && !strcmp(flat + fn - wn, want)) {
            const char *value = docs_arena_strndup(&s->p->arena, a, (size_t)(e - a));
            struct docs_rule *r = docs_page_add_rule(s->p, DOCS_RULE_UNION_MEMBER, f->path, value, s->line,
                                                     s->text);
            docs_rule_op(s->p, r, "value", value);
            s->made += r != NULL;
            return;
        }
        t = e - 1;
        if (t < a)
            t = a;
    }
}

/* ---- sentences ----------------------------------------------------------- */

static bool has_modal(const struct sentence *s)
{
    static const char *const modals[] = {"must",    "should", "cannot",   "can't",    "only",
                                         "reserved", "aligned", "alignment", "requires", "required"};
    for (size_t i = 0; i < sizeof modals / sizeof modals[0]; i++) {
        if (has_word(s, modals[i]))
            return true;
    }
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
};

static void on_sentence(void *vctx, const char *text, size_t n, unsigned nl)
{
    struct para_ctx *c = vctx;
    struct docs_page *p = c->p;
    if (n > DOCS_MAX_SENTENCE)
        return;
    struct sentence s = {.p = p, .field = c->field, .subject = c->subject, .line = c->line + nl};
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
    char stack[512];
    s.lc = s.n < sizeof stack ? stack : docs_xrealloc(NULL, s.n + 1);
    for (size_t i = 0; i <= s.n; i++)
        s.lc[i] = (char)tolower((unsigned char)s.text[i]);
    m_reserved(&s);
    m_align(&s);
    m_units(&s);
    m_bit(&s);
    m_exclusive(&s);
    m_implies(&s);
    m_null(&s);
    m_nonzero(&s);
    m_range(&s);
    m_discriminator(&s);
    m_capability(&s);
    m_availability(&s);
    m_union_member(&s);
    bool modal = has_modal(&s);
    if (modal)
        p->modal_sentences++;
    if (modal && s.made == 0) {
        struct docs_unextracted u = {s.subject, s.line, s.text, "no-pattern"};
        DOCS_PUSH(p->unextracted, u);
    }
    if (s.lc != stack)
        free(s.lc);
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
    return docs_arena_printf(&p->arena, "#%u", f->ordinal);
}

static void marker_rules(struct docs_page *p)
{
    for (size_t i = 0; i < p->fields.n; i++) {
        const struct docs_field *f = &p->fields.v[i];
        const char *subject = subject_of(p, (int)i);
        if (f->dir != DOCS_DIR_NONE) {
            struct docs_rule *r = docs_page_add_rule(p, DOCS_RULE_DIRECTION, subject, NULL, f->line,
                                                     NULL);
            docs_rule_op(p, r, "value", docs_dir_name(f->dir));
            docs_rule_op(p, r, "from", f->dir_source ? f->dir_source : "heading");
        }
        if (f->optional) {
            struct docs_rule *r = docs_page_add_rule(p, DOCS_RULE_OPTIONAL, subject, NULL, f->line, NULL);
            docs_rule_op(p, r, "from", f->dir_source ? f->dir_source : "heading");
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

void docs_extract_rules(struct docs_page *p)
{
    marker_rules(p);
    for (size_t i = 0; i < p->paras.n; i++) {
        const struct docs_para *para = &p->paras.v[i];
        if (para->section == DOCS_SEC_RETURNS)
            continue;
        struct para_ctx c = {p, para->section == DOCS_SEC_FIELD ? para->field : -1, NULL, para->line};
        c.subject = subject_of(p, c.field);
        docs_split_sentences(para->text, on_sentence, &c);
    }
    bit_conflicts(p);
}
