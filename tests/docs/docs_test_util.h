/* Helpers for the docs tests: build from paths, serialize, validate the
 * <docs> element against spec/docs.rng, capture diagnostics. */
#ifndef DOCS_TEST_UTIL_H
#define DOCS_TEST_UTIL_H

#include "docs.h"

#include <stddef.h>

/* Builds and serializes; returns the build status, *xml is malloc'd. */
int dt_build(const char *const *paths, size_t n, char **xml, size_t *len, struct ddigen_docs_stats *st);
/* 0 when the <docs> element of doc validates against the schema file. */
int dt_validate(xmlDocPtr doc, const char *rng_path);
int dt_validate_text(const char *xml, size_t len, const char *rng_path);
/* Runs fn with stderr captured into a malloc'd string. */
char *dt_capture_stderr(void (*fn)(void *), void *arg);
/* Reads a whole file or returns NULL. */
char *dt_slurp(const char *path, size_t *len);
/* Copies in lower case without spaces or parentheses ("(Lanes - 1)" and
 * "lanes-1" compare equal). */
void dt_canon(const char *in, char *out, size_t cap);
/* Is the shared data folder there? Prints a skip message when not. */
int dt_shared_present(const char *path, const char *what);

#endif
