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
#include "words.h"

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
 * Compilation fills the shared word dictionary (words.h); compile every
 * pattern before tokenizing sentences. */
bool pattern_compile(const char *text, struct pattern *p);

/* Words of the sentence present, as a set of dictionary ids: a pattern
 * whose cues are not all there is not tried. */
void pattern_words(const struct sentence *s, struct word_set *ws);

/* Matches p against s; false when it does not. */
bool pattern_match(const struct pattern *p, const struct sentence *s, const struct word_set *ws,
                   struct match *m);

/* Slot helpers for the actions that turn a match into rules; turning the
 * tokens into operand values is operands.h's. */
bool match_has(const struct match *m, char slot);
/* The tokens of an {F} / {L} slot that are names, in order; returns how
 * many (at most max). "X member of Y" is one name, X. */
size_t match_name_tokens(const struct sentence *s, const struct match *m, char slot, size_t *tok, size_t max);
/* The text a slot spans, as written. */
const char *match_text(const struct sentence *s, const struct match *m, char slot);

#endif
