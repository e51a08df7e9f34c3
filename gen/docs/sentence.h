/* The sentence model rule extraction reads: one sentence of a page,
 * tokenized once into words, names (identifiers, dotted or Type::Member
 * paths, and capitalized words a page names as members), numbers and
 * punctuation. Patterns (pattern.h) match token sequences; nothing after
 * tokenization looks at byte offsets. */
#ifndef DDIGEN_DOCS_SENTENCE_H
#define DDIGEN_DOCS_SENTENCE_H

#include "model.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

enum tok_kind {
    TOK_WORD,   /* plain English word, may be hyphenated ("bit-field") */
    TOK_NAME,   /* identifier that looks like code or names a page field */
    TOK_NUMBER, /* 12, 0x20, 64KB, 4096 */
    TOK_PUNCT,  /* , ; : ( ) . + <= != ... */
};

struct tok {
    enum tok_kind kind;
    const char *text; /* as written (arena, NUL-terminated) */
    const char *lc;   /* lower case (arena) */
    size_t from, to;  /* byte span in the sentence text, for quoting */
    int field;        /* index of the page field it names, or -1 */
    unsigned word;    /* dictionary id of lc (words.h), 0 if none */
};

#define SENTENCE_MAX_TOKENS 512

/* The page's field names (full paths, then last segments) by hash, built
 * once per page: tokenizing looks every word up. */
struct field_index {
    struct field_slot {
        const char *key;
        size_t n;
        int field;
    } *slot;
    size_t cap;
};
void field_index_build(struct field_index *fx, const struct docs_page *p);
void field_index_free(struct field_index *fx);

struct sentence {
    struct docs_page *p;
    int field;           /* -1: the page itself */
    const char *subject; /* field path, "#N" for unnamed, "" for page */
    unsigned line;
    const char *text;    /* squashed sentence (arena) */
    size_t n;
    const struct field_index *fx;
    struct tok *t;       /* tokens (heap, reused across sentences, freed by sentence_free) */
    size_t nt, tcap;
    char *scratch;       /* token texts (heap, reused, freed by sentence_free) */
    size_t scap;
    unsigned made;       /* rules produced from this sentence */
};

/* Tokenizes s->text into s->t / s->nt (at most SENTENCE_MAX_TOKENS; the
 * rest is not read), reusing the buffers a previous sentence left. Returns
 * false when the sentence has no tokens. */
bool sentence_tokenize(struct sentence *s);
void sentence_free(struct sentence *s);

/* Index of the field a name refers to from the subject's place: a sibling
 * or an ancestor's sibling first, then the path itself, then any path
 * ending in ".name". -1 when the page has none. */
int sentence_field_of(const struct sentence *s, const char *name);

/* The last segment of a dotted or Type::Member name. */
const char *sentence_leaf(const char *name);

/* Is the text written as a constant: ALL_CAPS_WITH_UNDERSCORES (digits
 * allowed, at least one letter)? */
bool sentence_is_constant(const char *text);

/* Text of tokens [a, b] as written in the sentence (arena copy). */
const char *sentence_span(const struct sentence *s, size_t a, size_t b);

/* Is token i the word w (lower case)? Inline: most calls fail on the
 * first byte, and patterns ask this for every token they try. */
static inline bool tok_is(const struct sentence *s, size_t i, const char *w)
{
    return i < s->nt && s->t[i].lc[0] == w[0] && !strcmp(s->t[i].lc, w);
}

#endif
