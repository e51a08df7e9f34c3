/* Walks one parsed translation unit and fills a cfg_model with the records,
 * enums, typedefs and function typedefs of the DDI headers in scope, plus
 * every record they reference. */
#ifndef DDIGEN_EXTRACT_H
#define DDIGEN_EXTRACT_H

#include "config_model.h"
#include "sal.h"

#include "../util/clang_api.h"
#include <stddef.h>

struct extract_scope {
    const char *const *roots;       /* absolute include roots, for relative file names */
    size_t nroots;
    const char *const *files;       /* lower-case basenames in scope; none = every file */
    size_t nfiles;
    const char *resource_dir;       /* clang's own headers, or NULL */
};

/* The names (typedef, else tag) of the records and enums a precompiled
 * prefix declares, keyed by where they are first declared. Configurations
 * parsed on top of the prefix skip its declarations when they walk the
 * translation unit and look names up here instead: the prefix is the same
 * for every DDI version, so it is named once per architecture. */
struct prefix_names {
    struct arena arena;
    struct strmap by_location;
    int declares_scope; /* the prefix itself has declarations in scope */
};
void prefix_names_build(struct prefix_names *p, CXTranslationUnit tu, const struct extract_scope *scope);
void prefix_names_free(struct prefix_names *p);

/* prefix may be NULL (the translation unit is walked whole). */
void extract_config(CXTranslationUnit tu, const struct extract_scope *scope, const struct sal_index *sal,
                    const struct prefix_names *prefix, struct cfg_model *m);
/* Whether a file (absolute path) lies in one of the include folders: the
 * headers records can come from (not clang's own). */
int extract_scope_has_root(const char *path, const void *scope);

#endif
