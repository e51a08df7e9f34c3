/* SAL annotations (_In_, _Field_size_(n), ...) expand to nothing in kernel
 * builds, so they are read from the tokens around a declaration, looking
 * through object-like macros such as IN_CONST_HANDLE that wrap them. */
#ifndef DDIGEN_SAL_H
#define DDIGEN_SAL_H

#include "../util/arena.h"
#include "../util/strmap.h"

#include <clang-c/Index.h>

/* Tokens of one declaration region with their file offsets. */
struct token_run {
    CXTranslationUnit tu;
    CXToken *tokens;
    unsigned count;
    unsigned *offsets; /* file offset of each token */
    CXFile file;
};

int token_run_init(struct token_run *run, CXTranslationUnit tu, CXSourceRange range);
void token_run_dispose(struct token_run *run);
/* Index of the token at file offset, or -1. */
int token_run_find(const struct token_run *run, unsigned offset);

/* True for identifiers shaped like SAL annotations (_In_, __drv_x). */
int sal_is_annotation(const char *ident);

/* Joins the SAL annotations in tokens [begin, end) into "a b(c)", expanding
 * identifiers found in macros (name -> SAL text). NULL when there are none. */
const char *sal_collect(struct arena *a, const struct token_run *run, int begin, int end,
                        const struct strmap *macros);

/* Records an object-like macro definition whose body carries SAL. */
void sal_note_macro(struct arena *a, struct strmap *macros, CXTranslationUnit tu, CXCursor def);

#endif
