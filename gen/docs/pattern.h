/* Patterns over sentence tokens, written as text with named slots:
 *
 *   {S} is valid only if|when {L} is|are set
 *
 * Elements, separated by spaces:
 *   word  a|b|c      a literal word or punctuation (lower case), or one of
 *                    several; a trailing '?' makes it optional
 *   [w x|y z]        an optional run of literals
 *   ^                the sentence start (after "Note", "Note that",
 *                    "Additionally,"); $ its end (a final '.' allowed)
 *   {S}              the subject: "this member|field|flag|value|...", "it",
 *                    "[the] <subject name> [member|flag|field|...]"
 *   {F} {G} {H}      one name: "[the] Name [bit-field flag|flag|member|field]
 *                    [member of [the] Name]"
 *   {L} {M}          a list of names: "A, B, and C [members|flags]"
 *   {V} {W}          a value: number, zero, TRUE/FALSE, NULL, non-NULL,
 *                    nonzero, or a CONSTANT_NAME
 *   {C} {D}          a condition: the shortest run of tokens (at least one)
 *                    after which the rest matches, not crossing ',' or ';';
 *                    the rest of the sentence when it is the last element
 *   {E}              an operand: a parenthesized group, a number or a name
 *   {*}              any tokens (none or more, at most 24, not crossing ';')
 *
 * A pattern matches at the leftmost token where it can. Each pattern's
 * literal words that are not optional are its cues (of "a|b|c", one of
 * them): a sentence without them is not tried (bit tests on its words). */
#ifndef DDIGEN_DOCS_PATTERN_H
#define DDIGEN_DOCS_PATTERN_H

#include "sentence.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct capture {
    uint16_t a, b; /* tokens [a, b) (SENTENCE_MAX_TOKENS fits) */
    bool set;
};

struct match {
    struct capture slot[26]; /* by letter, 'A'..'Z' */
    size_t from, to;         /* tokens the whole match spans */
};

#define PATTERN_MAX_ELEMS 40
#define PATTERN_MAX_ALTS 16
#define PATTERN_DICT_WORDS 1024

struct pattern_elem {
    char type;     /* 'w' literal, '^', '$', or a slot letter / '*' */
    bool optional; /* literal may be absent */
    unsigned group; /* optional group number (0: none) */
    unsigned alts[PATTERN_MAX_ALTS]; /* literal: dictionary ids */
    unsigned nalts;
};

struct pattern {
    struct pattern_elem e[PATTERN_MAX_ELEMS];
    unsigned n;
    unsigned cues[8]; /* dictionary ids every match contains */
    unsigned ncues;
    const struct pattern_elem *any[4]; /* elements one of whose words every match contains */
    unsigned nany;
};

/* Compiles text into p; false (with a message on stderr) when malformed.
 * Compilation fills the shared word dictionary; compile every pattern
 * before tokenizing sentences. */
bool pattern_compile(const char *text, struct pattern *p);

/* Adds a word to the dictionary (before any sentence is tokenized) and
 * returns its id; ids are given in order from 1. */
unsigned pattern_intern(const char *w);

/* The word a dictionary id stands for. */
const char *pattern_word_text(unsigned id);

/* Dictionary id of a lower-case word, 0 when no pattern uses it. */
unsigned pattern_word_id(const char *lc);

/* The same, with the word's FNV-1a hash (32-bit, offset 2166136261,
 * prime 16777619) computed by the caller while lower-casing it. */
unsigned pattern_word_id_hashed(const char *lc, unsigned hash);

/* Words of the sentence present, as a bitset over dictionary ids. */
struct word_set {
    uint64_t bits[PATTERN_DICT_WORDS / 64];
};
void pattern_words(const struct sentence *s, struct word_set *ws);

/* Matches p against s; false when it does not. */
bool pattern_match(const struct pattern *p, const struct sentence *s, const struct word_set *ws,
                   struct match *m);

/* Slot helpers for the actions that turn a match into rules. */
bool match_has(const struct match *m, char slot);
/* The names of an {F} / {L} slot, resolved to field paths where the page
 * has them (arena strings); returns how many (at most max). */
size_t match_names(const struct sentence *s, const struct match *m, char slot, const char **out, size_t max);
/* The value of a {V} slot, normalized: "0", "1", "NULL", "nonzero", a
 * number as written, or a constant name. */
const char *match_value(const struct sentence *s, const struct match *m, char slot);
/* The text a slot spans, as written. */
const char *match_text(const struct sentence *s, const struct match *m, char slot);

#endif
