/* The word dictionary the sentence reader and the pattern matcher share:
 * every literal word of every rule pattern gets a small id, and the
 * tokenizer looks each token up once, so a pattern compares ids, not text.
 * Below both: it knows neither sentences nor patterns. */
#ifndef DDIGEN_DOCS_WORDS_H
#define DDIGEN_DOCS_WORDS_H

#include "../util/hash.h"
#include <stddef.h>
#include <stdint.h>

#define WORDS_MAX 1024 /* ids are 1 .. WORDS_MAX - 1; 0 is "not a dictionary word" */

/* The dictionary's hash, FNV-1a (32-bit): the tokenizer computes it while
 * it lower-cases a token, and the page's field index uses it too. */
#define WORDS_HASH_SEED DDIGEN_FNV32_OFFSET
static inline unsigned words_hash_byte(unsigned h, unsigned char c) { return fnv1a32_step(h, c); }
static inline unsigned words_hash(const char *s, size_t n) { return fnv1a32n(s, n); }

/* Adds the n bytes at w, lower-cased, and returns the word's id (the same
 * id for the same word); 0 when the word is too long or the dictionary is
 * full. Add every word before any sentence is tokenized: lookups do not
 * lock. */
unsigned words_intern_n(const char *w, size_t n);
unsigned words_intern(const char *w);

/* The word an id stands for ("" for 0 or an unknown id). */
const char *words_text(unsigned id);

/* Id of a lower-case word, 0 when no pattern uses it. */
unsigned words_id(const char *lc);

/* The same, with words_hash(lc) computed by the caller. */
unsigned words_id_hashed(const char *lc, unsigned hash);

/* A set of dictionary ids (the words a sentence has). */
struct word_set {
    uint64_t bits[WORDS_MAX / 64];
};
static inline void word_set_add(struct word_set *ws, unsigned id) { ws->bits[id / 64] |= 1ull << (id % 64); }
static inline int word_set_has(const struct word_set *ws, unsigned id) { return (ws->bits[id / 64] >> (id % 64)) & 1u; }

#endif
