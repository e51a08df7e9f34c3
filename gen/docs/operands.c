/* Operand resolution (see operands.h). */
#include "operands.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

const char *operand_field(const struct sentence *s, const char *name)
{
    int f = sentence_field_of(s, name);
    if (f < 0 && strcmp(sentence_leaf(name), name) && strstr(name, "::"))
        f = sentence_field_of(s, sentence_leaf(name));
    if (f >= 0 && s->p->fields.v[f].path[0])
        return s->p->fields.v[f].path;
    return arena_strdup(&s->p->arena, strstr(name, "::") ? sentence_leaf(name) : name);
}

const char *operand_value(const struct sentence *s, const char *text)
{
    static const struct {
        const char *word, *value;
    } words[] = {{"zero", "0"},        {"false", "0"},        {"true", "1"},       {"one", "1"},
                 {"null", "NULL"},     {"nonzero", "nonzero"}, {"non-zero", "nonzero"},
                 {"non-null", "nonzero"}};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (!strcasecmp(text, words[i].word))
            return words[i].value;
    if (isdigit((unsigned char)text[0])) {
        char *end;
        unsigned long long v = strtoull(text, &end, 0);
        if (*end)
            return NULL;
        return v == 0 ? "0" : arena_strdup(&s->p->arena, text);
    }
    return sentence_is_constant(text) ? arena_strdup(&s->p->arena, text) : NULL;
}

size_t operand_fields(const struct sentence *s, const struct match *m, char slot, const char **out, size_t max)
{
    size_t tok[16];
    size_t n = match_name_tokens(s, m, slot, tok, max < 16 ? max : 16);
    for (size_t i = 0; i < n; i++)
        out[i] = operand_field(s, s->t[tok[i]].text);
    return n;
}

const char *operand_slot_value(const struct sentence *s, const struct match *m, char slot)
{
    const struct capture *c = &m->slot[slot - 'A'];
    if (!c->set || c->b <= c->a)
        return NULL;
    size_t i = c->b - 1;
    if (tok_is(s, i, "null") && tok_is(s, i - 1, "not"))
        return "nonzero";
    return operand_value(s, s->t[i].text);
}

const char *operand_negate(const char *value, bool pointer)
{
    if (!strcmp(value, "nonzero"))
        return pointer ? "NULL" : "0";
    if (!strcmp(value, "NULL") || !strcmp(value, "0"))
        return "nonzero";
    if (!strcmp(value, "1"))
        return "0";
    return NULL;
}

static const char *const ordinal_words[] = {
    "first",        "second",       "third",         "fourth",       "fifth",
    "sixth",        "seventh",      "eighth",        "ninth",        "tenth",
    "eleventh",     "twelfth",      "thirteenth",    "fourteenth",   "fifteenth",
    "sixteenth",    "seventeenth",  "eighteenth",    "nineteenth",   "twentieth",
    "twenty-first", "twenty-second", "twenty-third", "twenty-fourth", "twenty-fifth",
    "twenty-sixth", "twenty-seventh", "twenty-eighth", "twenty-ninth", "thirtieth",
    "thirty-first", "thirty-second",
};

int operand_ordinal(const char *lc)
{
    for (int i = 0; i < (int)(sizeof ordinal_words / sizeof ordinal_words[0]); i++)
        if (!strcmp(lc, ordinal_words[i]))
            return i;
    return -1;
}

/* Unit multiplier of a word: kb, kilobyte(s), mb, megabyte(s), byte(s). */
static unsigned long unit_of(const char *lc)
{
    if (!strcmp(lc, "kb") || !strncmp(lc, "kilobyte", 8))
        return 1024;
    if (!strcmp(lc, "mb") || !strncmp(lc, "megabyte", 8))
        return 1024 * 1024;
    if (!strncmp(lc, "byte", 4))
        return 1;
    return 0;
}

unsigned long operand_size_at(const struct sentence *s, size_t i)
{
    if (i >= s->nt || s->t[i].kind != TOK_NUMBER)
        return 0;
    const char *lc = s->t[i].lc;
    char *end;
    unsigned long v = strtoul(lc, &end, 10);
    unsigned long unit = *end ? unit_of(end) : 0;
    if (!unit && !*end && i + 1 < s->nt) {
        unit = unit_of(s->t[i + 1].lc); /* "4 KB", "4096 bytes" */
        if (!unit && !strcmp(s->t[i + 1].lc, "-") && i + 2 < s->nt)
            unit = unit_of(s->t[i + 2].lc); /* "64-byte": number, '-', word */
    }
    return unit ? v * unit : 0;
}
