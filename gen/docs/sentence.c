/* Tokenizing a sentence once, and resolving the names in it to the page's
 * fields (see sentence.h). */
#include "sentence.h"

#include "text.h"
#include "words.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static size_t hash_name(const char *s, size_t n) { return words_hash(s, n); }

static void index_put(struct field_index *fx, const char *key, size_t n, int field)
{
    size_t i = hash_name(key, n) & (fx->cap - 1);
    while (fx->slot[i].key) {
        if (fx->slot[i].n == n && !memcmp(fx->slot[i].key, key, n))
            return; /* the first wins: full paths, then leaves in page order */
        i = (i + 1) & (fx->cap - 1);
    }
    fx->slot[i] = (struct field_slot){key, n, field};
}

void field_index_build(struct field_index *fx, const struct docs_page *p)
{
    fx->cap = 16;
    while (fx->cap < p->fields.n * 4)
        fx->cap *= 2;
    fx->slot = calloc(fx->cap, sizeof *fx->slot);
    for (size_t i = 0; i < p->fields.n; i++)
        index_put(fx, p->fields.v[i].path, strlen(p->fields.v[i].path), (int)i);
    for (size_t i = 0; i < p->fields.n; i++) {
        const char *dot = strrchr(p->fields.v[i].path, '.');
        if (dot && dot[1])
            index_put(fx, dot + 1, strlen(dot + 1), (int)i);
    }
}

void field_index_free(struct field_index *fx)
{
    free(fx->slot);
    fx->slot = NULL;
}

/* Is the name one of the page's field paths, or the last segment of one? */
static int field_named(const struct field_index *fx, const char *name, size_t n)
{
    if (!fx || !fx->slot)
        return -1;
    for (size_t i = hash_name(name, n) & (fx->cap - 1); fx->slot[i].key; i = (i + 1) & (fx->cap - 1))
        if (fx->slot[i].n == n && !memcmp(fx->slot[i].key, name, n))
            return fx->slot[i].field;
    return -1;
}

/* ASCII tests without the locale table lookup of <ctype.h> (the tokenizer
 * runs them on every byte of every sentence). */
static inline bool ascii_alpha(unsigned char c) { return (unsigned char)((c | 32) - 'a') < 26; }
static inline bool ascii_digit(unsigned char c) { return (unsigned char)(c - '0') < 10; }
static inline bool ascii_alnum(unsigned char c) { return ascii_alpha(c) || ascii_digit(c); }
static inline bool ident_char(unsigned char c) { return ascii_alnum(c) || c == '_'; }
static inline bool ident_start(unsigned char c) { return ascii_alpha(c) || c == '_'; }

/* Length of an identifier at t: letters, digits, '_', and '.' or '::'
 * (optionally followed by one space, as "CAPS:: Member" is written)
 * joining the next identifier. Hyphens join words ("bit-field"). */
static size_t ident_len(const char *t, size_t n, bool *path)
{
    size_t j = 0;
    *path = false;
    while (j < n) {
        unsigned char c = (unsigned char)t[j];
        if (ident_char(c)) {
            j++;
        } else if ((c == '-' || c == '\'') && j + 1 < n && ascii_alnum((unsigned char)t[j + 1]) && j > 0 &&
                   ascii_alnum((unsigned char)t[j - 1])) {
            j++;
        } else if (c == 0xE2 && j + 3 < n && (unsigned char)t[j + 1] == 0x80 && (unsigned char)t[j + 2] == 0x99 &&
                   j > 0 && ascii_alpha((unsigned char)t[j - 1]) && ascii_alpha((unsigned char)t[j + 3])) {
            j += 3; /* "isn’t": a typographic apostrophe inside a word */
        } else if (c == '.' && j + 1 < n && ident_start((unsigned char)t[j + 1])) {
            *path = true;
            j++;
        } else if (c == ':' && j + 2 < n && t[j + 1] == ':') {
            size_t k = j + 2;
            if (k < n && t[k] == ' ')
                k++;
            if (k >= n || !ident_start((unsigned char)t[k]))
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
    s->nt = 0;
    /* one buffer for every token's text and lower case: 2 bytes + 2 NULs
     * per source byte at most */
    size_t need = s->n * 2 + 2 * SENTENCE_MAX_TOKENS + 2;
    if (s->scap < need) {
        free(s->scratch);
        s->scratch = malloc(need);
        s->scap = need;
    }
    char *w = s->scratch;
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
        if (ascii_digit(c)) {
            len = 0;
            while (i + len < s->n && ascii_alnum((unsigned char)t[i + len]))
                len++;
            k.kind = TOK_NUMBER;
        } else if (ident_start(c)) {
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
        /* one pass: lower case (a typographic apostrophe as '\''), and
         * the shape codeish() would compute */
        size_t m = 0;
        unsigned h = WORDS_HASH_SEED; /* of the lower case, for the dictionary */
        bool lower = true, seen_lower = false, camel = false, underscore = false;
        for (size_t j = 0; j < len; j++) {
            unsigned char b = (unsigned char)k.text[j];
            if (b == 0xE2 && j + 2 < len && (unsigned char)k.text[j + 1] == 0x80 &&
                (unsigned char)k.text[j + 2] == 0x99) {
                w[m++] = '\'';
                h = words_hash_byte(h, (unsigned char)'\'');
                j += 2;
                continue;
            }
            bool lo = b >= 'a' && b <= 'z', up = b >= 'A' && b <= 'Z';
            lower &= lo || b == '-' || b == '\'';
            camel |= up && seen_lower;
            seen_lower |= lo;
            underscore |= b == '_';
            w[m] = up ? (char)(b + 32) : (char)b;
            h = words_hash_byte(h, (unsigned char)w[m++]);
        }
        w[m] = '\0';
        k.lc = w;
        w += m + 1;
        /* plain lower-case words are not looked up as fields */
        if (k.kind == TOK_WORD && !lower) {
            const char *leaf = path ? sentence_leaf(k.text) : k.text;
            k.field = field_named(s->fx, leaf, strlen(leaf));
            if (k.field < 0 && path)
                k.field = field_named(s->fx, k.text, len);
            if (k.field >= 0 || (len >= 2 && (underscore || camel || (path && seen_lower))))
                k.kind = TOK_NAME;
        }
        /* dictionary words are short lower-case literals: no path or constant is one */
        k.word = path || underscore || m > 16 ? 0 : words_id_hashed(k.lc, h);
        if (s->nt == s->tcap) {
            s->tcap = s->tcap ? s->tcap * 2 : 64;
            s->t = realloc(s->t, s->tcap * sizeof *s->t);
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
    s->tcap = s->scap = 0;
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
    return s->fx ? field_named(s->fx, name, n) : -1;
}

bool sentence_is_constant(const char *text)
{
    bool letter = false;
    for (const char *c = text; *c; c++) {
        if (islower((unsigned char)*c))
            return false;
        if (!isupper((unsigned char)*c) && !isdigit((unsigned char)*c) && *c != '_')
            return false;
        letter |= isupper((unsigned char)*c) != 0;
    }
    return letter;
}

const char *sentence_span(const struct sentence *s, size_t a, size_t b)
{
    if (a > b || b >= s->nt)
        return "";
    size_t from = s->t[a].from, to = s->t[b].to;
    return arena_strndup(&s->p->arena, s->text + from, to - from);
}
