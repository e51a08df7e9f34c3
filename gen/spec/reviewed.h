/* spec/reviewed.xml: the rules a careful reader wrote from a page (schema
 * spec/reviewed.rng, compiled into the binary). The extractor proposes,
 * this file decides: the merge adds, drops or corrects rules by it, marks
 * every rule with its provenance and every entry applied or stale. */
#ifndef DDIGEN_REVIEWED_H
#define DDIGEN_REVIEWED_H

#include "../model/model.h"
#include "../util/arena.h"

#include <libxml/tree.h>

enum review_action { REVIEW_ADD, REVIEW_KEEP, REVIEW_DROP, REVIEW_CORRECT, REVIEW_NO_RULE };

struct review_operand {
    const char *name, *value;
};

/* A condition as data: field is set / clear, or equals an enumerator. */
struct review_when {
    const char *field;
    const char *is;     /* "set", "clear", or NULL */
    const char *equals; /* an enumerator, or NULL */
};

struct review {
    enum review_action action;
    unsigned line; /* of the entry in the reviewed file */
    const char *page, *sentence, *reason;
    unsigned page_line;
    /* The rule added, or the extracted one a drop or correct matches. */
    const char *kind, *record, *subject;
    const char *to_kind, *to_subject; /* correct: what it becomes (NULL: unchanged) */
    const struct review_operand *operands;
    size_t noperands;
    const struct review_when *whens;
    size_t nwhens;
    /* Decided by the merge. */
    const char *status; /* "applied" or "stale" */
    const char *note;   /* why it is stale */
    const char *rule;   /* the ID of the rule it added, dropped or corrected */
};

struct reviewed {
    xmlDocPtr doc;
    const char *name;
    struct arena a;
    struct vec items; /* struct review* */
};

/* Loads and validates a reviewed file (schema, then every kind known);
 * 0, or -1 after file:line errors. */
int reviewed_load(struct reviewed *r, const char *path);
void reviewed_free(struct reviewed *r);
const char *review_action_name(enum review_action a);

/* Applies the entries to the <merge> part (merge, whose pages are written)
 * of a spec whose layout model is m: marks the rules they drop or correct,
 * adds the rules they add, and appends one <review> per entry with its
 * status. Counts applied and stale entries. */
void reviewed_apply(struct reviewed *r, const struct ddi_model *m, xmlNodePtr merge, unsigned *applied,
                    unsigned *stale);

#endif
