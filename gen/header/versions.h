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
/* The same parse lexes the headers in scope for SAL (sal may be NULL).
 * on_pch: args include a PCH of the prefix that discover_prefix has
 * already indexed; main_text is then the rest. */
int discover_versions(const char *main_name, const char *main_text, struct vec *args, int on_pch,
                      const struct vec *requested, const struct extract_scope *scope, struct sal_index *sal,
                      struct ddi_layout *out);

/* Discovery's part of the prefix, on its PCH build's translation unit
 * (parsed with a detailed preprocessing record): the SAL index of its
 * files and the check that it includes nothing outside the kit. 0, or -1
 * (reported). */
int discover_prefix(CXTranslationUnit tu, const struct extract_scope *scope, struct sal_index *sal);

/* A diagnostic after which the parse cannot be trusted (also a missing
 * include, which KeepGoing downgrades to an error). */
int diag_is_fatal(CXDiagnostic d);

#endif
