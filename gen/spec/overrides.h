/* spec/overrides.xml: hand-kept facts with reasons (schema spec/overrides.rng,
 * compiled into the binary). The merge marks each entry applied, stale or
 * redundant; an entry that names nothing is an error. */
#ifndef DDIGEN_OVERRIDES_H
#define DDIGEN_OVERRIDES_H

#include "../util/arena.h"

#include <libxml/tree.h>

enum override_kind { OVR_UNION_MEMBER, OVR_FIELD_MATCH, OVR_WRITES };

struct override {
    enum override_kind kind;
    const char *record, *enum_name, *value, *member, *doc, *field;
    const char *reason;
    unsigned line;
    const char *status; /* "applied", "stale", "redundant"; NULL until the merge decides */
    const char *note;   /* why it is stale or redundant */
    int uses;
};

struct overrides {
    xmlDocPtr doc;
    const char *name;
    struct arena a;
    struct vec items; /* struct override* */
};

/* Loads and validates an overrides file; 0, or -1 after file:line errors. */
int overrides_load(struct overrides *o, const char *path);
void overrides_free(struct overrides *o);
const char *override_kind_name(enum override_kind k);
/* Validates a hand-kept file against an embedded self-contained grammar
 * ("overrides.rng", "reviewed.rng"): 0, or -1 after file:line errors. */
int overrides_validate_with(xmlDocPtr doc, const char *name, const char *grammar);
/* Reads a hand-kept file and validates it so: the document, or NULL after
 * file:line errors. */
xmlDocPtr overrides_read_valid(const char *path, const char *grammar);

#endif
