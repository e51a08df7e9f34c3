/* The raw lexer of lex.h. It follows clang's raw lexing of C11 with
 * -fms-extensions -fms-compatibility (clang_tokenize keeps comments; no
 * trigraphs under MS compatibility; digraphs and `#@` on; `$` in
 * identifiers), as far as token boundaries go: a token's kind is not needed
 * by the SAL index, only where it starts, ends and how it is spelled. */
#include "lex.h"

#include <string.h>

struct lexer {
    const char *text;
    size_t size;
};

static int is_horizontal_space(char c)
{
    return c == ' ' || c == '\t' || c == '\f' || c == '\v';
}

static int is_newline(char c)
{
    return c == '\n' || c == '\r';
}

/* Length of a backslash-newline splice at i (clang allows blanks between
 * the backslash and the newline), or 0. */
static size_t splice_at(const struct lexer *lx, size_t i)
{
    if (i >= lx->size || lx->text[i] != '\\')
        return 0;
    size_t j = i + 1;
    while (j < lx->size && is_horizontal_space(lx->text[j]))
        j++;
    if (j >= lx->size || !is_newline(lx->text[j]))
        return 0;
    if (j + 1 < lx->size && is_newline(lx->text[j + 1]) && lx->text[j + 1] != lx->text[j])
        j++; /* \r\n or \n\r is one newline */
    return j + 1 - i;
}

/* Position of the next logical character at or after i (splices skipped). */
static size_t skip_splices(const struct lexer *lx, size_t i)
{
    size_t n;
    while ((n = splice_at(lx, i)) != 0)
        i += n;
    return i;
}

/* The logical character at i (0 at the end) and, in *next, where the one
 * after it starts. */
static char char_at(const struct lexer *lx, size_t i, size_t *next)
{
    i = skip_splices(lx, i);
    if (i >= lx->size) {
        *next = i;
        return 0;
    }
    *next = i + 1;
    return lx->text[i];
}

static int is_ident_char(char c)
{
    unsigned char u = (unsigned char)c;
    return (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u == '_' || u == '$' ||
           u >= 0x80;
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static size_t lex_identifier(const struct lexer *lx, size_t i)
{
    size_t next;
    while (is_ident_char(char_at(lx, i, &next)))
        i = next;
    return i;
}

/* A pp-number: digits, letters, '.', '_' and a sign after an exponent
 * letter (not after e/E in a hex constant under MS extensions: 0x1e+1 is
 * three tokens there). */
static size_t lex_number(const struct lexer *lx, size_t start, size_t i)
{
    size_t next;
    char prev = 0;
    for (;;) {
        char c = char_at(lx, i, &next);
        if (is_ident_char(c) || c == '.') {
            prev = c;
            i = next;
            continue;
        }
        if ((c == '+' || c == '-') && (prev == 'p' || prev == 'P')) {
            prev = c;
            i = next;
            continue;
        }
        if ((c == '+' || c == '-') && (prev == 'e' || prev == 'E')) {
            size_t second;
            char c0 = char_at(lx, start, &second);
            char c1 = char_at(lx, second, &second);
            if (!(c0 == '0' && (c1 == 'x' || c1 == 'X'))) {
                prev = c;
                i = next;
                continue;
            }
        }
        return i;
    }
}

/* A string or character literal whose opening quote is at i: to the
 * closing quote, or to the end of the line when unterminated. */
static size_t lex_quoted(const struct lexer *lx, size_t i, char quote)
{
    size_t next;
    (void)char_at(lx, i, &i); /* the opening quote */
    for (;;) {
        size_t at = skip_splices(lx, i);
        char c = char_at(lx, i, &next);
        if (c == 0 || is_newline(c))
            return at;
        i = next;
        if (c == quote)
            return i;
        if (c == '\\') {
            size_t after;
            char escaped = char_at(lx, i, &after);
            if (escaped && !is_newline(escaped))
                i = after;
        }
    }
}

static size_t lex_line_comment(const struct lexer *lx, size_t i)
{
    size_t next;
    for (;;) {
        size_t at = skip_splices(lx, i);
        char c = char_at(lx, i, &next);
        if (c == 0 || is_newline(c))
            return at;
        i = next;
    }
}

static size_t lex_block_comment(const struct lexer *lx, size_t i)
{
    size_t next;
    char prev = 0;
    for (;;) {
        char c = char_at(lx, i, &next);
        if (c == 0)
            return next;
        i = next;
        if (prev == '*' && c == '/')
            return i;
        prev = c;
    }
}

/* Punctuators longest first; clang lexes these in C11 with digraphs and
 * Microsoft's #@ (charize). */
static const char *const punctuators[] = {
    "%:%:", "...", "<<=", ">>=", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "*=", "/=",
    "%=",   "+=",  "-=",  "&=",  "^=", "|=", "##", "#@", "<:", ":>", "<%", "%>", "%:",
};

/* Does the logical text at i begin with p? *end is where it stops. */
static int starts_with(const struct lexer *lx, size_t i, const char *p, size_t *end)
{
    size_t next;
    for (; *p; p++) {
        if (char_at(lx, i, &next) != *p)
            return 0;
        i = next;
    }
    *end = i;
    return 1;
}

static size_t lex_punctuator(const struct lexer *lx, size_t i)
{
    size_t end;
    for (size_t k = 0; k < sizeof punctuators / sizeof punctuators[0]; k++)
        if (starts_with(lx, i, punctuators[k], &end))
            return end;
    size_t next;
    (void)char_at(lx, i, &next);
    return next;
}

/* Does an encoding prefix (L, u, U, u8) start a literal at i? */
static int is_literal_prefix(const struct lexer *lx, size_t i)
{
    size_t next, after;
    char c = char_at(lx, i, &next);
    char c1 = char_at(lx, next, &after);
    if (c == 'u' && c1 == '8')
        return char_at(lx, after, &after) == '"';
    return (c == 'L' || c == 'U' || c == 'u') && (c1 == '"' || c1 == '\'');
}

/* The end of the token that starts at i (a logical character). */
static size_t lex_token(const struct lexer *lx, size_t i)
{
    size_t next, after;
    char c = char_at(lx, i, &next);
    char c1 = char_at(lx, next, &after);
    if (c == '/' && c1 == '/')
        return lex_line_comment(lx, i);
    if (c == '/' && c1 == '*')
        return lex_block_comment(lx, after);
    if (c == '"' || c == '\'')
        return lex_quoted(lx, i, c);
    if (c == 'L' || c == 'U' || c == 'u') {
        size_t q = next;
        char qc = c1;
        if (c == 'u' && c1 == '8') {
            q = after;
            qc = char_at(lx, after, &after);
            if (qc == '\'')
                qc = 0; /* u8'x' is C2x; in C11 it is the identifier u8 */
        }
        if (qc == '"' || qc == '\'')
            return lex_quoted(lx, q, qc);
    }
    if (is_digit(c) || (c == '.' && is_digit(c1)))
        return lex_number(lx, i, next);
    if (is_ident_char(c))
        return lex_identifier(lx, next);
    return lex_punctuator(lx, i);
}

unsigned lex_raw(const char *text, size_t size, void (*fn)(const struct raw_token *tok, void *ctx), void *ctx)
{
    struct lexer lx = {text, size};
    unsigned count = 0;
    int new_line = 1;
    size_t i = 0;
    while (i < size) {
        char c = text[i];
        if (is_newline(c)) {
            new_line = 1;
            i++;
            continue;
        }
        if (is_horizontal_space(c) || c == 0) {
            i++;
            continue;
        }
        if (c == 0x1A)
            break; /* ^Z where a token would start ends the file under MS extensions */
        /* A splice followed by blanks or a newline is blank; followed by
         * anything else it is the start of that token, as in clang (whose
         * token then begins at the backslash). */
        size_t after = skip_splices(&lx, i);
        if (after != i && (after >= size || is_horizontal_space(text[after]) || is_newline(text[after]))) {
            i = after;
            continue;
        }
        struct raw_token tok = {(unsigned)i, (unsigned)lex_token(&lx, i), new_line, 0};
        size_t first;
        char c0 = char_at(&lx, i, &first);
        tok.identifier = is_ident_char(c0) && !is_digit(c0) && !is_literal_prefix(&lx, i);
        if (fn)
            fn(&tok, ctx);
        count++;
        /* A token that spans lines (a block comment, a splice) leaves the
         * next one on another line than this one began on. */
        new_line = memchr(text + i, '\n', tok.end - i) || memchr(text + i, '\r', tok.end - i);
        i = tok.end;
    }
    return count;
}

size_t lex_spelling(const char *text, const struct raw_token *tok, char *out)
{
    size_t n = 0;
    if (!tok->identifier) { /* clang spells these as the bytes they span */
        n = tok->end - tok->offset;
        memcpy(out, text + tok->offset, n);
        out[n] = 0;
        return n;
    }
    struct lexer lx = {text, tok->end};
    size_t i = tok->offset, next;
    while (i < tok->end) {
        char c = char_at(&lx, i, &next);
        if (next > tok->end || (c == 0 && next >= tok->end))
            break;
        out[n++] = c;
        i = next;
    }
    out[n] = 0;
    return n;
}
