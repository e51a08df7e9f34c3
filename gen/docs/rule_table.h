/* The table of rule patterns: each entry is a pattern (pattern.h syntax),
 * the action that turns a match into rules, and an example sentence in the
 * project's own words with the rule it must give (docs_unit runs every
 * example). */
#ifndef DDIGEN_DOCS_RULE_TABLE_H
#define DDIGEN_DOCS_RULE_TABLE_H

#include "pattern.h"

struct rule_pattern;
typedef bool (*rule_action)(struct sentence *s, const struct match *m, const struct rule_pattern *rp);

struct rule_pattern {
    const char *text;    /* the pattern */
    rule_action act;     /* false: the match does not make a rule after all */
    const char *arg;     /* the action's parameter (a value, an operand name) */
    unsigned group;      /* in one group only the first pattern that makes a rule runs */
    const char *example; /* a sentence it reads */
    const char *in;      /* the field whose text the example is ("-": remarks) */
    const char *fields;  /* the example page's fields, space separated */
    const char *expect;  /* "SUBJECT KIND [name=value]...", SUBJECT "-" for the page */
};

extern const struct rule_pattern docs_rule_patterns[];
extern const size_t docs_rule_pattern_count;

/* Compiles the table once (thread-safe); false when a pattern is malformed. */
bool docs_rule_patterns_ready(void);
/* Is the token one of the modal words (must, should, cannot, only,
 * reserved, aligned, ...) that make an unread sentence worth listing? */
bool docs_rule_is_modal(const struct tok *t);
/* Whether a validator turns rules of the kind into checks (a sentence must
 * state a requirement to give one). */
bool docs_rule_kind_is_check(enum docs_rule_kind k);

/* The patterns worth trying on a sentence, as a bitset over table
 * indexes: those whose rarest cue word (or one word of their first
 * alternative) the sentence has, and those without cues. */
#define DOCS_RULE_MAX_PATTERNS 256
struct rule_set {
    uint64_t bits[DOCS_RULE_MAX_PATTERNS / 64];
};
void docs_rule_candidates(const struct sentence *s, struct rule_set *out);

/* The compiled form of docs_rule_patterns[i]. */
const struct pattern *docs_rule_pattern_compiled(size_t i);

#endif
