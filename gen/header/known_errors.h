/* Header errors the user knows about. Clang recovers from an error by
 * guessing (a record of size 1, a field of type int), so any error in the
 * headers is fatal to ingestion unless it is listed here: by file and line
 * (`dispmprt.h:1012`), or by file and the text of its source line
 * (`dispmprt.h:~static_assert(FIELD_OFFSET(`), spaces ignored. The known
 * one of real kits, the FIELD_OFFSET static_assert in dispmprt.h that
 * clang rejects in C and MSVC accepts, is on the list by default. */
#ifndef DDIGEN_KNOWN_ERRORS_H
#define DDIGEN_KNOWN_ERRORS_H

#include "../util/arena.h"

struct known_error {
    const char *file;  /* base name, compared without case */
    unsigned line;     /* 0: match by text */
    const char *text;  /* spaces removed */
};

struct known_errors {
    struct vec entries; /* struct known_error* */
};

/* Adds FILE:LINE or FILE:~TEXT; 0, or -1 after reporting a malformed one. */
int known_errors_add(struct known_errors *k, struct arena *a, const char *spec, const char *origin,
                     unsigned origin_line);
/* Adds every entry of a file (one a line, # comments); 0 or -1. */
int known_errors_load(struct known_errors *k, struct arena *a, const char *path);
/* The entries that are there without being asked for. */
void known_errors_add_defaults(struct known_errors *k, struct arena *a);
/* Whether an error at path:line, whose source line is source_line, is known. */
int known_errors_match(const struct known_errors *k, const char *path, unsigned line, const char *source_line);
void known_errors_free(struct known_errors *k);

#endif
