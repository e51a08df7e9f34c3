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
    unsigned cues;       /* CUE_* substrings present in lc (one scan) */
};

/* Prefilter: one pass over the lower-case sentence records which of these
 * substrings occur. Each matcher first checks the cues its phrases cannot
 * match without (a necessary condition, so results are unchanged) and most
 * sentences are done after a few bit tests instead of ~100 strstr calls. */
enum {
    CUE_RESERVED = 1u << 0,  /* "reserved" */
    CUE_ZERO = 1u << 1,      /* "zero" */
    CUE_DIGIT0 = 1u << 2,    /* " 0" */
    CUE_ALIGN = 1u << 3,     /* "align" */
    CUE_MULTIPLE = 1u << 4,  /* "multiple" */
    CUE_UNIT = 1u << 5,      /* "page" "byte" "kb" "second" "hz" "hertz" "bits" "pixels" "number" */
    CUE_BIT = 1u << 6,       /* "bit" */
    CUE_WITH = 1u << 7,      /* "with" */
    CUE_ALSO_SET = 1u << 8,  /* "also set" */
    CUE_ONLY = 1u << 9,      /* "only" */
    CUE_NULL = 1u << 10,     /* "null" */
    CUE_VALID = 1u << 11,    /* "valid" */
    CUE_BETWEEN = 1u << 12,  /* "between" */
    CUE_LE = 1u << 13,       /* "<=" */
    CUE_MUST = 1u << 14,     /* "must" */
    CUE_SHOULD = 1u << 15,   /* "should" */
    CUE_CANNOT = 1u << 16,   /* "cannot" "can't" "can be" */
    CUE_IF = 1u << 17,       /* "if " */
    CUE_WHEN = 1u << 18,     /* "when " */
    CUE_SUPPORT = 1u << 19,  /* "support" */
    CUE_REQUIRE = 1u << 20,  /* "require" */
    CUE_WINDOWS = 1u << 21,  /* "windows" "wddm" */
    CUE_MEMBER = 1u << 22,   /* "member" "structure" */
    CUE_UNDERSCORE = 1u << 23, /* "_" */
    CUE_ATLEAST = 1u << 24,  /* "at least" "at most" "exceed" "than" "no more" "maximum" "minimum" */
    CUE_NOT = 1u << 25,      /* "not" */
};

static unsigned scan_cues(const char *lc, size_t n)
{
    unsigned m = 0;
#define AT(lit) (n - i >= sizeof(lit) - 1 && !memcmp(lc + i, lit, sizeof(lit) - 1))
    for (size_t i = 0; i < n; i++) {
        switch (lc[i]) {
        case ' ': m |= lc[i + 1] == '0' ? CUE_DIGIT0 : 0; break;
        case '_': m |= CUE_UNDERSCORE; break;
        case '<': m |= lc[i + 1] == '=' ? CUE_LE : 0; break;
        case 'a':
            if (AT("align")) m |= CUE_ALIGN;
            else if (AT("also set")) m |= CUE_ALSO_SET;
            else if (AT("at least") || AT("at most")) m |= CUE_ATLEAST;
            break;
        case 'b':
            if (AT("bit")) m |= CUE_BIT | (AT("bits") ? CUE_UNIT : 0);
            else if (AT("byte")) m |= CUE_UNIT;
            else if (AT("between")) m |= CUE_BETWEEN;
            break;
        case 'c':
            if (AT("cannot") || AT("can't") || AT("can be")) m |= CUE_CANNOT;
            break;
        case 'e': if (AT("exceed")) m |= CUE_ATLEAST; break;
        case 'h': if (AT("hz") || AT("hertz")) m |= CUE_UNIT; break;
        case 'i': if (AT("if ")) m |= CUE_IF; break;
        case 'k': if (AT("kb")) m |= CUE_UNIT; break;
        case 'm':
            if (AT("must")) m |= CUE_MUST;
            else if (AT("multiple")) m |= CUE_MULTIPLE;
            else if (AT("member")) m |= CUE_MEMBER;
            else if (AT("maximum") || AT("minimum")) m |= CUE_ATLEAST;
            break;
        case 'n':
            if (AT("null")) m |= CUE_NULL;
            else if (AT("number")) m |= CUE_UNIT;
            else if (AT("not")) m |= CUE_NOT;
            else if (AT("no more")) m |= CUE_ATLEAST;
            break;
        case 'o': if (AT("only")) m |= CUE_ONLY; break;
        case 'p':
            if (AT("page")) m |= CUE_UNIT;
            else if (AT("pixels")) m |= CUE_UNIT;
            break;
        case 'r':
            if (AT("reserved")) m |= CUE_RESERVED;
            else if (AT("require")) m |= CUE_REQUIRE;
            break;
        case 's':
            if (AT("should")) m |= CUE_SHOULD;
            else if (AT("support")) m |= CUE_SUPPORT;
            else if (AT("second")) m |= CUE_UNIT;
            else if (AT("structure")) m |= CUE_MEMBER;
            break;
        case 't': if (AT("than")) m |= CUE_ATLEAST; break;
        case 'v': if (AT("valid")) m |= CUE_VALID; break;
        case 'w':
            if (AT("with")) m |= CUE_WITH;
            else if (AT("when ")) m |= CUE_WHEN;
            else if (AT("windows") || AT("wddm")) m |= CUE_WINDOWS;
            break;
        case 'z': if (AT("zero")) m |= CUE_ZERO; break;
        default: break;
        }
    }
#undef AT
    return m;
}

static bool cue(const struct sentence *s, unsigned any) { return (s->cues & any) != 0; }

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
    return arena_strndup(&p->arena, name, n);
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
    return arena_strndup(&s->p->arena, s->text + off, e - off);
}

/* ---- matchers ------------------------------------------------------------ */

static void m_reserved(struct sentence *s)
{
    if (!cue(s, CUE_RESERVED | CUE_ZERO | CUE_DIGIT0))
        return;
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
    if (!cue(s, CUE_ALIGN | CUE_MULTIPLE))
        return;
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
                 find(s, "on a page") || find(s, "to a page") || pmult || find(s, "page-aligned") ||
                 find(s, "multiple of page_size"))
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
    if (s->field < 0 || !cue(s, CUE_UNIT))
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
    if (!cue(s, CUE_BIT))
        return;
    long b = find_word_from(s, 0, "bit");
    if (b < 0 || s->field < 0)
        return;
    /* "the fifth bit", or a range: "the second through sixth bit". */
    int index = -1, last = -1;
    long at_first = -1, at_last = -1;
    long taken[32][2];
    int ntaken = 0;
    for (int i = 31; i >= 0; i--) {
        long w = find_word_from(s, 0, ordinal_words[i]);
        if (w < 0 || w >= b)
            continue;
        /* "first" inside "twenty-first" is not an ordinal of its own. */
        int inside = 0;
        for (int t = 0; t < ntaken; t++)
            inside |= w >= taken[t][0] && w < taken[t][1];
        if (inside)
            continue;
        taken[ntaken][0] = w;
        taken[ntaken][1] = w + (long)strlen(ordinal_words[i]);
        ntaken++;
        if (index < 0 || w < at_first) {
            index = i;
            at_first = w;
        }
        if (last < 0 || w > at_last) {
            last = i;
            at_last = w;
        }
    }
    long through = find_word_from(s, 0, "through");
    int width = 1;
    if (index >= 0 && last > index && through > at_first && through < at_last)
        width = last - index + 1;
    else
        index = last; /* one bit: the ordinal nearest "bit" */
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
    if (width > 1) {
        snprintf(buf, sizeof buf, "%d", width);
        docs_rule_op(s->p, r, "width", buf);
    }
    if (mask) {
        snprintf(buf, sizeof buf, "0x%08lx", mask);
        docs_rule_op(s->p, r, "mask", buf);
        unsigned long stated = index >= 0 ? ((1ul << width) - 1) << index : mask;
        if (mask != stated)
            docs_page_note(s->p, s->line, true, "%s: bits %d-%d stated with mask 0x%lx (0x%lx expected)",
                           s->subject, index, index + width - 1, mask, stated);
    }
    const char *of = strstr(s->text, " member");
    for (long w = find_word_from(s, 0, "of the"); w >= 0 && of; w = -1) {
        size_t pos = (size_t)w, at, len;
        if (next_ident(s, &pos, s->n, &at, &len)) {
            docs_rule_op(s->p, r, "word", arena_strndup(&s->p->arena, s->text + at, len));
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
    if (s->field < 0 || !cue(s, CUE_WITH))
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
    if (!cue(s, CUE_ALSO_SET | CUE_ONLY))
        return;
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
    if (!cue(s, CUE_NULL))
        return;
    if (s->field < 0 || !strstr(s->lc, "null"))
        return;
    /* "If X is not specified, Y is NULL ..." */
    if (strncmp(s->lc, "if ", 3) == 0 && !strstr(s->lc, "non-null")) {
        const char *comma = strchr(s->text, ',');
        if (comma && (strstr(comma, " is NULL") || strstr(comma, "be NULL"))) {
            const char *cond = arena_strndup(&s->p->arena, s->text + 3, (size_t)(comma - s->text) - 3);
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
    if (s->field < 0 || !cue(s, CUE_MUST | CUE_CANNOT) || !cue(s, CUE_ZERO | CUE_DIGIT0 | CUE_NULL | CUE_VALID))
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
    return e > off ? arena_strndup(&s->p->arena, s->text + off, e - off) : NULL;
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
    if (s->field < 0 || !cue(s, CUE_BETWEEN | CUE_LE | CUE_ATLEAST))
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
            docs_rule_op(s->p, r, "expr", arena_printf(&s->p->arena, "%.*s <= %s", (int)(b - a),
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
    if (!cue(s, CUE_IF | CUE_WHEN | CUE_ZERO))
        return;
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
    static const char *const cues[] = {"if the ", "when the ", "valid only if ", "only if the ",
                                       "only when ", "only if ", "valid if "};
    for (size_t i = 0; i < sizeof cues / sizeof cues[0]; i++) {
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
                    value = arena_strndup(&s->p->arena, s->text + va, vl);
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
    if (!cue(s, CUE_SUPPORT) || !cue(s, CUE_MUST | CUE_ONLY | CUE_REQUIRE | CUE_IF))
        return;
    if (!find(s, "must") && !find(s, "only") && !find(s, "require") && !find(s, "if "))
        return;
    size_t pos = 0, at, len;
    while (next_ident(s, &pos, s->n, &at, &len)) {
        const char *t = s->text + at;
        bool cap = (len > 9 && !memcmp(t + len - 9, "Supported", 9)) ||
                   (len > 7 && !memcmp(t + len - 7, "Support", 7));
        if (!cap)
            continue;
        const char *name = arena_strndup(&s->p->arena, t, len);
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
            docs_rule_op(s->p, r, "in", arena_strndup(&s->p->arena, s->text + a, b - a));
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
    if (!cue(s, CUE_WINDOWS))
        return;
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
    if (!cue(s, s->p->kind == DOCS_KIND_ENUM ? CUE_MEMBER : CUE_UNDERSCORE))
        return;
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
        const char *name = arena_strndup(&s->p->arena, s->text + a, b - a);
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
            const char *value = arena_strndup(&s->p->arena, a, (size_t)(e - a));
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

/* ---- set / must-not-set / fixed values ------------------------------------ */

/* Offset past a leading "Note", "[!NOTE]", "Additionally," in lc. */
static size_t lead(const struct sentence *s)
{
    static const char *const prefixes[] = {"[!note] ", "[!important] ", "note: ", "note ", "additionally, "};
    size_t at = 0;
    for (bool again = true; again;) {
        again = false;
        for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
            size_t m = strlen(prefixes[i]);
            if (!strncmp(s->lc + at, prefixes[i], m)) {
                at += m;
                again = true;
            }
        }
    }
    return at;
}

static const char *leaf_name(const char *path)
{
    const char *dot = strrchr(path, '.');
    return dot ? dot + 1 : path;
}

static bool starts(const struct sentence *s, size_t at, const char *lit)
{
    size_t m = strlen(lit);
    return at + m <= s->n && !memcmp(s->lc + at, lit, m);
}

/* Does the phrase at lc+at name the subject ("this member", "it", "the X
 * flag", "X")? Returns its length, or 0. */
static size_t subject_ref(const struct sentence *s, size_t at)
{
    static const char *const self[] = {"this member", "this value", "this field", "this flag", "this parameter",
                                       "this bit",    "this status bit", "it"};
    for (size_t i = 0; i < sizeof self / sizeof self[0]; i++) {
        size_t m = strlen(self[i]);
        if (starts(s, at, self[i]) && !docs_is_ident_char((unsigned char)s->lc[at + m]))
            return m;
    }
    if (!s->subject[0] || s->subject[0] == '#')
        return 0;
    const char *leaf = leaf_name(s->subject);
    size_t ln = strlen(leaf), i = at;
    if (starts(s, i, "the "))
        i += 4;
    if (i + ln > s->n || memcmp(s->text + i, leaf, ln) != 0 || docs_is_ident_char((unsigned char)s->text[i + ln]))
        return 0;
    i += ln;
    static const char *const nouns[] = {" member", " flag", " field", " parameter", " value"};
    for (size_t k = 0; k < sizeof nouns / sizeof nouns[0]; k++)
        if (starts(s, i, nouns[k])) {
            i += strlen(nouns[k]);
            break;
        }
    return i - at;
}

/* A value after "set to" / "be": number, zero, TRUE/FALSE, NULL or a
 * constant. Sets *end past it (and a "(TRUE)"-style gloss). */
static const char *value_at(struct sentence *s, size_t at, size_t *end)
{
    if (starts(s, at, "a value of "))
        at += 11;
    const char *t = s->text + at, *l = s->lc + at;
    size_t n = 0;
    const char *v = NULL;
    if (isdigit((unsigned char)t[0])) {
        while (isalnum((unsigned char)t[n]))
            n++;
        v = arena_strndup(&s->p->arena, t, n);
        char *e;
        unsigned long long x = strtoull(v, &e, 0);
        if (*e)
            return NULL;
        v = x == 0 ? "0" : v;
    } else if (!strncmp(l, "zero", 4) || !strncmp(l, "false", 5)) {
        n = l[0] == 'z' ? 4 : 5;
        v = "0";
    } else if (!strncmp(l, "true", 4)) {
        n = 4;
        v = "1";
    } else if (!strncmp(l, "null", 4)) {
        n = 4;
        v = "NULL";
    } else if (isupper((unsigned char)t[0])) {
        bool underscore = false;
        while (docs_is_ident_char((unsigned char)t[n]))
            underscore |= t[n++] == '_';
        if (!underscore)
            return NULL;
        v = arena_strndup(&s->p->arena, t, n);
    }
    if (!v || docs_is_ident_char((unsigned char)t[n]))
        return NULL;
    size_t e = at + n;
    if (starts(s, e, " (true)") || starts(s, e, " (false)"))
        e += s->lc[e + 2] == 't' ? 7 : 8;
    *end = e;
    return v;
}

/* After a value: end of sentence (returns "", unconditional), or a "when" /
 * "if" / "on" / "for" clause (returns it), else NULL (not read). */
static const char *condition_at(struct sentence *s, size_t at, bool allow_on_for)
{
    while (at < s->n && (s->text[at] == '.' || s->text[at] == ' '))
        at++;
    if (at >= s->n)
        return "";
    static const char *const cues[] = {"when ", "if ", "on ", "for ", "in "};
    for (size_t i = 0; i < sizeof cues / sizeof cues[0]; i++) {
        if (i >= 2 && !allow_on_for)
            break;
        if (starts(s, at, cues[i])) {
            size_t e = s->n;
            while (e > at && (s->text[e - 1] == '.' || s->text[e - 1] == ' '))
                e--;
            return arena_strndup(&s->p->arena, s->text + at, e - at);
        }
    }
    return NULL;
}

/* A zero-when rule; a field stated to be 0 under several conditions keeps
 * one rule (one ID) with one "when" operand per condition (any of them). */
static void zero_when(struct sentence *s, const char *target, const char *cond, const char *strength)
{
    bool self = !strcmp(target, s->subject);
    struct docs_rule *r = add(s, DOCS_RULE_ZERO_WHEN, self ? NULL : target);
    if (!r) {
        const char *id = self ? arena_printf(&s->p->arena, "%s.%s:zero-when", s->p->name, s->subject)
                              : arena_printf(&s->p->arena, "%s.%s:zero-when:%s", s->p->name, s->subject,
                                                  target);
        for (size_t i = 0; i < s->p->rules.n && !r; i++)
            if (!strcmp(s->p->rules.v[i].id, id))
                r = &s->p->rules.v[i];
        if (r) {
            for (unsigned k = 0; k < r->nops; k++)
                if (!strcmp(r->ops[k].name, "when") && !strcmp(r->ops[k].value, cond))
                    return;
            docs_rule_op(s->p, r, "when", cond);
        }
        return;
    }
    if (!self)
        docs_rule_op(s->p, r, "field", target);
    docs_rule_op(s->p, r, "when", cond);
    docs_rule_op(s->p, r, "strength", strength);
}

/* The rule a stated value makes. */
static void value_rule(struct sentence *s, const char *value, const char *cond, const char *strength)
{
    struct docs_rule *r;
    bool zero = !strcmp(value, "0");
    if (zero && !cond[0]) {
        r = add(s, DOCS_RULE_RESERVED_ZERO, NULL);
        docs_rule_op(s->p, r, "strength", strength);
    } else if (zero) {
        zero_when(s, s->subject, cond, strength);
    } else if (!strcmp(value, "NULL")) {
        if (!cond[0] || strncmp(cond, "when ", 5) != 0)
            return;
        r = add(s, DOCS_RULE_NULL_WHEN, NULL);
        docs_rule_op(s->p, r, "when", cond + 5);
    } else if (!cond[0]) {
        r = add(s, DOCS_RULE_RANGE, NULL);
        docs_rule_op(s->p, r, "min", value);
        docs_rule_op(s->p, r, "max", value);
    }
}

/* "This member must be set to 0." "Must always be FALSE." "Must be set to
 * D3DDDI_X." "TranslatePath must be set to 0 when ...". "Callers must set
 * this value to 0." "The driver must not set Cached on the primary surface."
 * "This flag cannot be set for the leaf page tables." */
static void m_set_value(struct sentence *s)
{
    if (s->field < 0 || !cue(s, CUE_MUST | CUE_SHOULD | CUE_CANNOT))
        return;
    size_t at = lead(s);
    size_t ref = subject_ref(s, at);
    size_t i = at + ref;
    if (ref)
        while (i < s->n && s->lc[i] == ' ')
            i++;
    /* 1. [subject] must/should [always] be [set to] VALUE [when ...] */
    if (ref || i == at) {
        const char *strength = starts(s, i, "must ") ? "must" : starts(s, i, "should ") ? "should" : NULL;
        if (strength) {
            size_t j = i + strlen(strength) + 1;
            if (starts(s, j, "always "))
                j += 7;
            if (starts(s, j, "be set to "))
                j += 10;
            else if (starts(s, j, "be "))
                j += 3;
            else
                j = 0;
            size_t e;
            const char *v = j ? value_at(s, j, &e) : NULL;
            const char *cond = v ? condition_at(s, e, false) : NULL;
            if (v && cond) {
                value_rule(s, v, cond, strength);
                return;
            }
        }
        /* [subject] cannot be set for/if/when/on COND */
        if (ref && starts(s, i, "cannot be set ")) {
            const char *cond = condition_at(s, i + 14, true);
            if (cond && cond[0]) {
                zero_when(s, s->subject, cond, "must");
                return;
            }
        }
    }
    /* 2. ACTOR must/should [not|never] set X [to VALUE] [cond], no comma before */
    static const struct {
        const char *verb, *strength;
        bool negative;
    } verbs[] = {{" must not set ", "must", true},   {" should never set ", "should", true},
                 {" should not set ", "should", true}, {" must never set ", "must", true},
                 {" must set ", "must", false},      {" should set ", "should", false}};
    for (size_t k = 0; k < sizeof verbs / sizeof verbs[0]; k++) {
        const char *c = find(s, verbs[k].verb);
        if (!c)
            continue;
        size_t vpos = (size_t)(c - s->lc);
        /* a leading clause or a qualified actor ("WDDM 1.3 and later drivers
         * must set ...") is a condition we do not read */
        if (memchr(s->text + at, ',', vpos - at) || memmem(s->lc + at, vpos - at, "wddm", 4) ||
            memmem(s->lc + at, vpos - at, "windows", 7) || memmem(s->lc + at, vpos - at, " if ", 4) ||
            memmem(s->lc + at, vpos - at, " when ", 6))
            return;
        for (size_t q = at; q < vpos; q++)
            if (isdigit((unsigned char)s->lc[q]))
                return;
        size_t x = vpos + strlen(verbs[k].verb);
        size_t xr = subject_ref(s, x);
        const char *target = NULL;
        size_t after = 0;
        if (xr) {
            target = s->subject;
            after = x + xr;
        } else {
            size_t pos = x, a, len;
            size_t tx = starts(s, x, "the ") ? x + 4 : x;
            if (!next_ident(s, &pos, s->n, &a, &len) || a != tx || !is_field_name(s->p, s->text + a, len))
                return;
            target = resolve_ref(s, s->text + a, len);
            after = a + len;
            static const char *const nouns[] = {" member", " flag", " field"};
            for (size_t q = 0; q < 3; q++)
                if (starts(s, after, nouns[q])) {
                    after += strlen(nouns[q]);
                    break;
                }
        }
        if (verbs[k].negative) {
            const char *cond = condition_at(s, after, true);
            if (!cond || !cond[0])
                return;
            zero_when(s, target, cond, verbs[k].strength);
            return;
        }
        if (strcmp(target, s->subject) != 0 || !starts(s, after, " to "))
            return;
        size_t e;
        const char *v = value_at(s, after + 4, &e);
        const char *cond = v ? condition_at(s, e, false) : NULL;
        if (v && cond)
            value_rule(s, v, cond, verbs[k].strength);
        return;
    }
}

/* "The A and B members cannot both be set at the same time." "A and B cannot
 * be set at the same time." -> exclusive, stated on A (with B). */
static void m_both(struct sentence *s)
{
    if (s->field < 0 || !cue(s, CUE_CANNOT))
        return;
    const char *c = find(s, " cannot both be set");
    if (!c)
        c = find(s, " cannot be set at the same time");
    if (!c)
        c = find(s, " cannot be set simultaneously");
    if (!c)
        return;
    size_t end = (size_t)(c - s->lc);
    DOCS_VEC(const char *) names = {0};
    size_t pos = lead(s), a, len;
    while (next_ident(s, &pos, end, &a, &len))
        if (is_field_name(s->p, s->text + a, len))
            DOCS_PUSH(names, resolve_ref(s, s->text + a, len));
    if (names.n == 2 && (strstr(s->lc, " and ") != NULL)) {
        const char *first = names.v[0], *second = names.v[1];
        struct docs_rule *r = docs_page_add_rule(s->p, DOCS_RULE_EXCLUSIVE, first, second, s->line, s->text);
        if (r)
            docs_rule_op(s->p, r, "with", second);
        s->made++;
    }
    free(names.v);
}

/* "If PreemptionAware is set to 1, the MultiEngineAware member must also be
 * set to a value of 1." "Additionally, the SupportsCpuHostAperture flag must
 * be set." -> implies (subject requires the named fields). */
static void m_implies_set(struct sentence *s)
{
    if (s->field < 0 || !cue(s, CUE_MUST))
        return;
    size_t at = lead(s);
    size_t from = at;
    if (starts(s, at, "if ")) {
        size_t ref = subject_ref(s, at + 3);
        if (!ref)
            return;
        size_t i = at + 3 + ref;
        if (!starts(s, i, " is set"))
            return;
        const char *comma = memchr(s->text + i, ',', s->n - i);
        if (!comma)
            return;
        size_t mid = (size_t)(comma - s->text);
        static const char *const glosses[] = {" is set to a value of 1", " is set to 1", " is set to true", " is set"};
        bool ok = false;
        for (size_t g = 0; g < 4 && !ok; g++)
            ok = starts(s, i, glosses[g]) && i + strlen(glosses[g]) == mid;
        if (!ok)
            return;
        from = mid + 1;
    } else if (at == 0) {
        return; /* only "Additionally, ..." or "If X is set, ..." lead-ins */
    }
    const char *m = find(s, " must also be set");
    size_t ml = 17;
    if (!m || (size_t)(m - s->lc) < from)
        m = find(s, " must be set"), ml = 12;
    if (!m || (size_t)(m - s->lc) < from)
        return;
    size_t mpos = (size_t)(m - s->lc);
    const char *tail = condition_at(s, mpos + ml, false);
    if (!tail) {
        size_t e;
        size_t vp = mpos + ml;
        if (!starts(s, vp, " to ") || !value_at(s, vp + 4, &e) || strcmp(value_at(s, vp + 4, &e), "1") ||
            !(tail = condition_at(s, e, false)) || tail[0])
            return;
    } else if (tail[0]) {
        return;
    }
    size_t pos = from, a, len;
    unsigned made = 0;
    while (next_ident(s, &pos, mpos, &a, &len)) {
        if (!is_field_name(s->p, s->text + a, len))
            return;
        const char *name = resolve_ref(s, s->text + a, len);
        if (!strcmp(name, s->subject))
            continue;
        struct docs_rule *r = add(s, DOCS_RULE_IMPLIES, name);
        docs_rule_op(s->p, r, "requires", name);
        made++;
    }
    (void)made;
}

/* Enum values: "You should not use this value." -> reserved, use forbidden. */
static void m_do_not_use(struct sentence *s)
{
    if (s->field < 0 || s->p->kind != DOCS_KIND_ENUM || !cue(s, CUE_SHOULD | CUE_MUST | CUE_NOT))
        return;
    /* the whole statement: "You should not use this value." "This value
     * must not be used." (not "... in the X member", which is contextual) */
    size_t n = s->n;
    while (n > 0 && (s->lc[n - 1] == '.' || s->lc[n - 1] == ' '))
        n--;
    static const char *const ends[] = {"not use this value", "not be used"};
    bool whole = false;
    for (size_t i = 0; i < 2 && !whole; i++) {
        size_t m = strlen(ends[i]);
        whole = n >= m && !memcmp(s->lc + n - m, ends[i], m);
    }
    if (!whole || find(s, " if ") || find(s, " when ") || find(s, " unless "))
        return;
    struct docs_rule *r = add(s, DOCS_RULE_RESERVED, NULL);
    docs_rule_op(s->p, r, "use", "forbidden");
}

/* "Must be one of the values in the X enumeration." -> range over an enum. */
static void m_one_of(struct sentence *s)
{
    if (s->field < 0 || !cue(s, CUE_MUST))
        return;
    const char *c = find(s, "must be one of the values in the ");
    if (!c)
        c = find(s, "must be one of the values of the ");
    if (!c)
        return;
    size_t pos = (size_t)(c - s->lc) + 33, a, len;
    if (!next_ident(s, &pos, s->n, &a, &len) || a != (size_t)(c - s->lc) + 33 ||
        !starts(s, a + len, " enumeration"))
        return;
    struct docs_rule *r = add(s, DOCS_RULE_RANGE, NULL);
    docs_rule_op(s->p, r, "enum", arena_strndup(&s->p->arena, s->text + a, len));
}

/* ---- sentences ----------------------------------------------------------- */

static bool has_modal(const struct sentence *s)
{
    if (!cue(s, CUE_MUST | CUE_SHOULD | CUE_CANNOT | CUE_ONLY | CUE_RESERVED | CUE_ALIGN | CUE_REQUIRE))
        return false;
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
    s.cues = scan_cues(s.lc, s.n);
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
    m_set_value(&s);
    m_both(&s);
    m_implies_set(&s);
    m_do_not_use(&s);
    m_one_of(&s);
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
    return arena_printf(&p->arena, "#%u", f->ordinal);
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
