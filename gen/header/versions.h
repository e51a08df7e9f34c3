/* Finds the DXGKDDI_INTERFACE_VERSION_* constants the headers define. */
#ifndef DDIGEN_VERSIONS_H
#define DDIGEN_VERSIONS_H

#include "../spec/layout.h"
#include "extract.h"
#include "sal.h"

#include "../util/clang_api.h"

/* Parses the translation unit once and fills out->versions, sorted by
 * value (names with the same value become aliases). requested: names
 * (full or short) to keep, or empty for all. 0, or -1 (reported). */
/* The same parse lexes the headers in scope for SAL (sal may be NULL). */
int discover_versions(const char *main_name, const char *main_text, struct vec *args,
                      const struct vec *requested, const struct extract_scope *scope, struct sal_index *sal,
                      struct ddi_layout *out);

/* A diagnostic after which the parse cannot be trusted (also a missing
 * include, which KeepGoing downgrades to an error). */
int diag_is_fatal(CXDiagnostic d);

#endif
