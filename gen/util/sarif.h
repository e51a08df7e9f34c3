/* The one SARIF 2.1.0 writer: `lint` (docs vs headers) and `check-driver`
 * (a driver's callbacks vs the DDI) both give their findings to it. */
#ifndef DDIGEN_SARIF_H
#define DDIGEN_SARIF_H

#include <stddef.h>

enum sarif_level { SARIF_NOTE, SARIF_WARNING, SARIF_ERROR };

/* A finding kind: its stable ruleId and default level. */
struct sarif_rule {
    const char *id, *name, *description;
    enum sarif_level level;
};

/* A place in a file; line 0: the whole file; column 0: the whole line. */
struct sarif_location {
    const char *file;
    unsigned line, column;
    const char *base;    /* uriBaseId (the file is relative to it), or NULL */
    const char *message; /* a related location's label */
};

struct sarif_result {
    unsigned rule; /* index into the rules */
    enum sarif_level level;
    const char *message;
    struct sarif_location primary; /* file NULL: no location */
    struct sarif_location related; /* file NULL: none */
    const char *fingerprint;       /* stable across line moves */
};

/* A root that locations' uriBaseId names (run.originalUriBaseIds): its
 * folder as given (made an absolute file: URI) and what it is. */
struct sarif_base {
    const char *id;     /* "HEADERS" */
    const char *folder; /* as given on the command line; NULL: not given, not listed */
    const char *description;
};

/* The whole log (one run of ddigen) in a malloc'd string. */
char *sarif_document(const char *tool_version, const struct sarif_rule *rules, unsigned nrules,
                     const struct sarif_base *bases, unsigned nbases, const struct sarif_result *results,
                     size_t nresults);

#endif
