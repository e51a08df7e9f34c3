/* A raw C lexer for the SAL index: the tokens clang_tokenize gives for a
 * header's text (offset and spelling of each, comments dropped), without a
 * libclang call per token. Lexing every file a kit includes through
 * libclang cost a third of the discovery parse (clang_tokenize, then a
 * location and a spelling string per token); this does the same in one
 * pass over the bytes. tests/header/lex_oracle.c holds it to clang's
 * tokens on every header of the real kits, and sal_fuzz on any input. */
#ifndef DDIGEN_HEADER_LEX_H
#define DDIGEN_HEADER_LEX_H

#include <stddef.h>

struct raw_token {
    unsigned offset; /* of the first byte */
    unsigned end;    /* one past the last byte, splices included */
    int line_start;  /* first token of its physical line */
    int identifier;  /* an identifier or keyword (spelled without splices) */
};

/* Calls fn for each token of text[0, size) in order; returns the count. */
unsigned lex_raw(const char *text, size_t size, void (*fn)(const struct raw_token *tok, void *ctx), void *ctx);

/* The token's spelling as clang_getTokenSpelling gives it (an identifier
 * without its backslash-newline splices, anything else as its bytes), into
 * out, which holds tok->end -
 * tok->offset + 1 bytes; returns its length. */
size_t lex_spelling(const char *text, const struct raw_token *tok, char *out);

#endif
