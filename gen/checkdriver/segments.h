/* Where a driver places a function: `#pragma alloc_text(PAGE, f)`,
 * `#pragma code_seg("PAGE")` regions (push/pop included) and
 * `__declspec(code_seg("PAGE"))`. Pragmas are tokens, not AST; those in
 * preprocessor branches clang skipped do not count. */
#ifndef DDIGEN_CHECKDRIVER_SEGMENTS_H
#define DDIGEN_CHECKDRIVER_SEGMENTS_H

#include "../header/sal.h"
#include "../util/clang_api.h"

struct segment_index {
    CXTranslationUnit tu;
    const struct sal_index *sal;
    struct strmap files; /* path -> struct file_segments* (made on first use) */
    struct arena arena;
};

void segment_index_init(struct segment_index *ix, CXTranslationUnit tu, const struct sal_index *sal);
void segment_index_free(struct segment_index *ix);

/* The segment of function `name` defined in t's file, its declaration
 * starting at begin and its name at name_offset; NULL for the default
 * (.text). *how says which construct placed it. */
const char *segment_of(struct segment_index *ix, struct arena *a, const struct source_tokens *t, const char *name,
                       unsigned begin, unsigned name_offset, const char **how);

#endif
