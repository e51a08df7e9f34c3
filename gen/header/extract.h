/* Walks one parsed translation unit and fills a cfg_model with the records,
 * enums, typedefs and function typedefs of the DDI headers in scope, plus
 * every record they reference. */
#ifndef DDIGEN_EXTRACT_H
#define DDIGEN_EXTRACT_H

#include "config_model.h"
#include "sal.h"

#include <clang-c/Index.h>
#include <stddef.h>

struct extract_scope {
    const char *const *roots;       /* absolute include roots, for relative file names */
    size_t nroots;
    const char *const *files;       /* lower-case basenames in scope; none = every file */
    size_t nfiles;
};

void extract_config(CXTranslationUnit tu, const struct extract_scope *scope, const struct sal_index *sal,
                    struct cfg_model *m);
/* Whether a file (absolute path) lies in one of the include folders: the
 * headers records can come from (not clang's own). */
int extract_scope_has_root(const char *path, const void *scope);

#endif
