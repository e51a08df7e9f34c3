/* Reads a condition clause ("If the Paging flag of Flags is set") as
 * data: a cue, a field named as the page writes it, and a state (set,
 * clear, equal to an enumerator), with nothing else in the clause. A clause
 * that says more ("If the driver ... and Flags.Paging is set") stays prose:
 * read in part it would widen the rule. */
#include "condition.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#define MAX_WORDS 16
#define WORD_BYTES 96

struct words {
    char w[MAX_WORDS][WORD_BYTES];
    size_t n, i;
};

/* Markdown and punctuation around a word: **Flags**, `Type`, "zero." */
static bool is_wrap(char c)
{
    return c == '*' || c == '`' || c == '"' || c == '\'' || c == ',' || c == '.' || c == ';' ||
           c == ':' || c == '(' || c == ')';
}

static bool split(const char *clause, struct words *ws)
{
    memset(ws, 0, sizeof *ws);
    for (const char *p = clause; *p;) {
        while (*p == ' ' || *p == '\n' || *p == '\t')
            p++;
        size_t len = strcspn(p, " \n\t");
        if (!len)
            break;
        if (ws->n == MAX_WORDS || len >= WORD_BYTES)
            return false;
        const char *b = p, *e = p + len;
        p = e;
        while (b < e && is_wrap(*b))
            b++;
        while (e > b && is_wrap(e[-1]))
            e--;
        if (e > b) /* a word of punctuation only ("-") ends nothing: skip it */
            memcpy(ws->w[ws->n++], b, (size_t)(e - b));
    }
    return ws->n > 0;
}

static const char *peek(const struct words *ws)
{
    return ws->i < ws->n ? ws->w[ws->i] : "";
}

/* Takes the next word when it is one of the list (case-insensitive). */
static bool take(struct words *ws, const char *const *list)
{
    for (const char *const *l = list; *l; l++)
        if (!strcasecmp(peek(ws), *l)) {
            ws->i++;
            return true;
        }
    return false;
}

static bool take1(struct words *ws, const char *word)
{
    const char *list[] = {word, NULL};
    return take(ws, list);
}

/* A field as pages write it: an identifier or a dotted designator with a
 * capital, a digit, '_' or '.', so prose ("the driver") is no field. */
static bool is_field_name(const char *w)
{
    if (!isalpha((unsigned char)w[0]))
        return false;
    bool marked = false;
    for (const char *p = w; *p; p++) {
        if (!isalnum((unsigned char)*p) && *p != '_' && *p != '.')
            return false;
        marked |= isupper((unsigned char)*p) || *p == '.' || *p == '_';
    }
    return marked && w[strlen(w) - 1] != '.';
}

/* DXGKQAITYPE_QUERYSEGMENT: capitals, digits and at least one '_'. */
static bool is_enumerator(const char *w)
{
    if (!isupper((unsigned char)w[0]) || !strchr(w, '_'))
        return false;
    for (const char *p = w; *p; p++)
        if (!isupper((unsigned char)*p) && !isdigit((unsigned char)*p) && *p != '_')
            return false;
    return true;
}

static const char *const nouns[] = {"member", "flag", "field", "bit", "bit-field", "value", "structure", NULL};
static const char *const set_words[] = {"set", "nonzero", "non-zero", "true", "1", "non-null", NULL};
static const char *const clear_words[] = {"zero", "0", "false", "null", "clear", "cleared", NULL};

/* [the] A [noun] [of|in [the] B [noun]]: "B.A", or false. */
static bool field(struct words *ws, char *out, size_t size)
{
    static const char *const of[] = {"of", "in", NULL};
    take1(ws, "the");
    if (!is_field_name(peek(ws)))
        return false;
    const char *a = ws->w[ws->i++];
    take(ws, nouns);
    if (!take(ws, of)) {
        snprintf(out, size, "%s", a);
        return true;
    }
    take1(ws, "the");
    if (!is_field_name(peek(ws)))
        return false;
    const char *b = ws->w[ws->i++];
    take(ws, nouns);
    return (size_t)snprintf(out, size, "%s.%s", b, a) < size;
}

enum state { STATE_NONE, STATE_SET, STATE_CLEAR, STATE_EQUALS };

/* set / clear words, "not" before one, or an enumerator. */
static enum state value(struct words *ws, const char **enumerator)
{
    bool negated = take1(ws, "not");
    if (take(ws, set_words))
        return negated ? STATE_CLEAR : STATE_SET;
    if (take(ws, clear_words))
        return negated ? STATE_SET : STATE_CLEAR;
    if (!negated && is_enumerator(peek(ws))) {
        *enumerator = ws->w[ws->i++];
        return STATE_EQUALS;
    }
    return STATE_NONE;
}

/* is [set to | equal to] V, equals V, specifies V. */
static enum state state(struct words *ws, const char **enumerator)
{
    static const char *const verbs[] = {"equals", "specifies", NULL};
    if (take(ws, verbs))
        return value(ws, enumerator);
    static const char *const is[] = {"is", "are", NULL};
    if (!take(ws, is))
        return STATE_NONE;
    take1(ws, "also");
    size_t at = ws->i;
    if ((take1(ws, "set") || take1(ws, "equal")) && take1(ws, "to")) {
        size_t to = ws->i; /* "set to a value of 1" */
        if (!(take1(ws, "a") && take1(ws, "value") && take1(ws, "of")))
            ws->i = to;
        return value(ws, enumerator);
    }
    ws->i = at;
    return value(ws, enumerator);
}

/* "[the] [display miniport] driver sets F": F set. */
static bool driver_sets(struct words *ws, char *out, size_t size)
{
    static const char *const actor[] = {"driver", "display", "miniport", NULL};
    take1(ws, "the");
    if (!take(ws, actor))
        return false;
    while (take(ws, actor))
        ;
    return take1(ws, "sets") && field(ws, out, size);
}

bool docs_condition_parse(const char *clause, char *out, size_t size)
{
    static const char *const cues[] = {"if", "when", "unless", NULL};
    struct words ws;
    char name[WORD_BYTES * 2 + 2];
    const char *enumerator = NULL;
    if (!clause || !split(clause, &ws) || !take(&ws, cues))
        return false;
    bool unless = !strcasecmp(ws.w[0], "unless");
    size_t at = ws.i;
    enum state st = STATE_NONE;
    if (driver_sets(&ws, name, sizeof name)) {
        st = STATE_SET;
    } else {
        ws.i = at;
        if (!field(&ws, name, sizeof name))
            return false;
        take1(&ws, "also");
        st = state(&ws, &enumerator);
    }
    /* "unless F is set": the rule holds while F is clear */
    if (unless)
        st = st == STATE_SET ? STATE_CLEAR : st == STATE_CLEAR ? STATE_SET : STATE_NONE;
    if (st == STATE_NONE || ws.i != ws.n)
        return false;
    int n = st == STATE_SET     ? snprintf(out, size, "%s", name)
            : st == STATE_CLEAR ? snprintf(out, size, "%s==0", name)
                                : snprintf(out, size, "%s==%s", name, enumerator);
    return n > 0 && (size_t)n < size;
}
