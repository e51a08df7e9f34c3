/* Command lines for libclang: one per architecture x DDI version, in MSVC
 * mode, with a case-insensitive view of the include folders. */
#ifndef DDIGEN_CLANG_ARGS_H
#define DDIGEN_CLANG_ARGS_H

#include "../spec/layout.h"
#include "../util/arena.h"

struct parse_setup {
    struct vec include_dirs;  /* absolute (char*) */
    struct vec defines;       /* user -D (char*) */
    const char *overlay_path; /* VFS overlay file, or NULL */
    const char *resource_dir; /* clang builtin headers, or NULL */
};

/* Writes a clang VFS overlay that makes every include folder
 * case-insensitive (<ConcurrencySal.h> finds concurrencysal.h). Returns
 * the temporary file's path, or NULL (reported). */
const char *write_case_insensitive_overlay(struct arena *a, const struct vec *dirs);
/* The overlay's JSON text (malloc'd). */
char *case_insensitive_overlay_json(const struct vec *dirs);

/* Builds argv for one configuration into args (char*, arena-owned).
 * version_macro may be NULL (headers pick their default); pch is a
 * precompiled prefix to use, or NULL; for_pch builds that prefix. */
void build_clang_args(struct arena *a, const struct parse_setup *setup, enum ddi_arch arch,
                      const char *version_macro, const char *pch, int for_pch, struct vec *args);

#endif
