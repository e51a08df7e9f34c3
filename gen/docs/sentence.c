/* Tokenizing a sentence once, and resolving the names in it to the page's
 * fields (see sentence.h). */
#include "sentence.h"

#include "pattern.h"
#include "text.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* Is the name one of the page's field paths, or the last segment of one? */
static int field_named(const struct docs_page *p, const char *name, size_t n)
{
    for (size_t i = 0; i < p->fields.n; i++) {
        const char *path = p->fields.v[i].path;
        size_t pl = strlen(path);
        if (pl == n && !memcmp(path, name, n))
            return (int)i;
    }
    for (size_t i = 0; i < p->fields.n; i++) {
        const char *path = p->fields.v[i].path;
        size_t pl = strlen(path);
        if (pl > n && path[pl - n - 1] == '.' && !memcmp(path + pl - n, name, n))
            return (int)i;
    }
    return -1;
}

/* FOO_BAR, CamelCase, pMdl, A.B, Type::Member look like code. */
static bool codeish(const char *t, size_t n)
{
    if (n < 2)
        return false;
    bool lower = false, camel = false, underscore = false, dot = false;
    for (size_t i = 0; i < n; i++) {
        if (t[i] == '_')
            underscore = true;
        else if (t[i] == '.' || t[i] == ':')
            dot = true;
        else if (islower((unsigned char)t[i]))
            lower = true;
        else if (isupper((unsigned char)t[i]) && lower)
            camel = true;
    }
    return underscore || camel || (dot && lower);
}

/* Length of an identifier at t: letters, digits, '_', and '.' or '::'
 * (optionally followed by one space, as "CAPS:: Member" is written)
 * joining the next identifier. Hyphens join words ("bit-field"). */
static size_t ident_len(const char *t, size_t n, bool *path)
{
    size_t j = 0;
    *path = false;
    while (j < n) {
        unsigned char c = (unsigned char)t[j];
        if (docs_is_ident_char(c)) {
            j++;
        } else if ((c == '-' || c == '\'') && j + 1 < n && isalnum((unsigned char)t[j + 1]) && j > 0 &&
                   isalnum((unsigned char)t[j - 1])) {
            j++;
        } else if (c == 0xE2 && j + 3 < n && (unsigned char)t[j + 1] == 0x80 && (unsigned char)t[j + 2] == 0x99 &&
                   j > 0 && isalpha((unsigned char)t[j - 1]) && isalpha((unsigned char)t[j + 3])) {
            j += 3; /* "isn’t": a typographic apostrophe inside a word */
        } else if (c == '.' && j + 1 < n && docs_is_ident_start((unsigned char)t[j + 1])) {
            *path = true;
            j++;
        } else if (c == ':' && j + 2 < n && t[j + 1] == ':') {
            size_t k = j + 2;
            if (k < n && t[k] == ' ')
                k++;
            if (k >= n || !docs_is_ident_start((unsigned char)t[k]))
                break;
            *path = true;
            j = k;
        } else {
            break;
        }
    }
    return j;
}

/* Punctuation tokens: two-character operators first, else one byte (a
 * UTF-8 sequence stays whole). */
static size_t punct_len(const char *t, size_t n)
{
    static const char *const two[] = {"<=", ">=", "!=", "==", "->"};
    for (size_t i = 0; i < sizeof two / sizeof two[0]; i++)
        if (n >= 2 && t[0] == two[i][0] && t[1] == two[i][1])
            return 2;
    unsigned char c = (unsigned char)t[0];
    size_t len = c < 0x80 ? 1 : c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
    return len <= n ? len : n;
}

bool sentence_tokenize(struct sentence *s)
{
    size_t cap = 64;
    s->t = malloc(cap * sizeof *s->t);
    s->nt = 0;
    /* one buffer for every token's text and lower case: 2 bytes + 2 NULs
     * per source byte at most */
    char *buf = malloc(s->n * 2 + 2 * SENTENCE_MAX_TOKENS + 2);
    char *w = buf;
    s->scratch = buf;
    const char *t = s->text;
    size_t i = 0;
    while (i < s->n && s->nt < SENTENCE_MAX_TOKENS) {
        unsigned char c = (unsigned char)t[i];
        if (c == ' ' || c == '*' || c == '`' || c == '"') {
            i++;
            continue;
        }
        struct tok k = {.from = i, .field = -1};
        size_t len;
        bool path = false;
        if (isdigit(c)) {
            len = 0;
            while (i + len < s->n && isalnum((unsigned char)t[i + len]))
                len++;
            k.kind = TOK_NUMBER;
        } else if (docs_is_ident_start(c)) {
            len = ident_len(t + i, s->n - i, &path);
            k.kind = TOK_WORD;
        } else {
            len = punct_len(t + i, s->n - i);
            k.kind = TOK_PUNCT;
        }
        k.to = i + len;
        memcpy(w, t + i, len);
        w[len] = '\0';
        k.text = w;
        w += len + 1;
        size_t m = 0;
        for (size_t j = 0; j <= len; j++) {
            bool quote = j + 2 < len && (unsigned char)k.text[j] == 0xE2 && (unsigned char)k.text[j + 1] == 0x80 &&
                         (unsigned char)k.text[j + 2] == 0x99;
            w[m++] = quote ? '\'' : (char)tolower((unsigned char)k.text[j]);
            j += quote ? 2 : 0;
        }
        k.lc = w;
        w += m;
        if (k.kind == TOK_WORD) {
            k.field = field_named(s->p, sentence_leaf(k.text), strlen(sentence_leaf(k.text)));
            if (k.field < 0 && path)
                k.field = field_named(s->p, k.text, len);
            if (k.field >= 0 || codeish(k.text, len))
                k.kind = TOK_NAME;
        }
        k.word = pattern_word_id(k.lc);
        if (s->nt == cap) {
            cap *= 2;
            s->t = realloc(s->t, cap * sizeof *s->t);
        }
        s->t[s->nt++] = k;
        i += len;
    }
    return s->nt > 0;
}

void sentence_free(struct sentence *s)
{
    free(s->t);
    free(s->scratch);
    s->t = NULL;
    s->scratch = NULL;
}

const char *sentence_leaf(const char *name)
{
    const char *leaf = name;
    for (const char *c = name; *c; c++) {
        if (*c == '.')
            leaf = c + 1;
        else if (c[0] == ':' && c[1] == ':')
            leaf = c[2] == ' ' ? c + 3 : c + 2;
    }
    return leaf;
}

int sentence_field_of(const struct sentence *s, const char *name)
{
    const struct docs_page *p = s->p;
    size_t n = strlen(name);
    const char *subj = s->subject;
    /* siblings of the subject, then of each ancestor */
    for (size_t sl = strlen(subj); sl > 0;) {
        while (sl > 0 && subj[sl - 1] != '.')
            sl--;
        if (sl == 0)
            break;
        for (size_t i = 0; i < p->fields.n; i++) {
            const char *path = p->fields.v[i].path;
            if (strlen(path) == sl + n && !memcmp(path, subj, sl) && !memcmp(path + sl, name, n))
                return (int)i;
        }
        sl--;
    }
    return field_named(p, name, n);
}

const char *sentence_span(const struct sentence *s, size_t a, size_t b)
{
    if (a > b || b >= s->nt)
        return "";
    size_t from = s->t[a].from, to = s->t[b].to;
    return arena_strndup(&s->p->arena, s->text + from, to - from);
}

bool tok_is(const struct sentence *s, size_t i, const char *w)
{
    return i < s->nt && !strcmp(s->t[i].lc, w);
}
