/* SAL annotations (_In_, _Field_size_(n), ...) expand to nothing in kernel
 * builds, so the AST has no trace of them: they are read from the raw
 * tokens before a declaration's name, looking through object-like macros
 * such as IN_CONST_HANDLE that wrap them. Raw tokens do not depend on the
 * configuration, so the files in scope are lexed once per run into a
 * read-only index every parse shares. */
#ifndef DDIGEN_SAL_H
#define DDIGEN_SAL_H

#include "../util/arena.h"
#include "../util/strmap.h"

#include "../util/clang_api.h"

struct source_tokens {
    const char *path;   /* file name as clang reports it */
    unsigned count;
    unsigned *offsets;  /* file offset of each token */
    const char **text;
    unsigned char *in_directive; /* token belongs to a #-line (#if, #define) */
    unsigned char *line_start;   /* token is the first of its physical line */
};

struct sal_index {
    struct arena arena;
    struct source_tokens **files;
    size_t nfiles;
    struct strmap by_path; /* path -> struct source_tokens* */
    struct strmap macros;  /* macro or typedef name -> the SAL it carries */
};

/* Lexes every file of tu for which in_scope(path) holds and notes the
 * object-like macros defined there that carry SAL. May be called again
 * with a translation unit built on a PCH of the first: files already
 * indexed are kept, and the second visit should leave out the PCH's
 * declarations (an index made with excludeDeclarationsFromPCH). */
void sal_index_build(struct sal_index *ix, CXTranslationUnit tu, int (*in_scope)(const char *path, const void *ctx),
                     const void *ctx);
void sal_index_free(struct sal_index *ix);
const struct source_tokens *sal_index_file(const struct sal_index *ix, const char *path);

/* The token that starts at offset, or NULL. */
const char *source_token_at(const struct source_tokens *t, unsigned offset);

/* True for identifiers shaped like SAL annotations (_In_, __drv_x). */
int sal_is_annotation(const char *ident);

/* The SAL on the declarator whose name starts at name_offset: the tokens
 * back to the previous ; { } , or ( outside annotation arguments. */
const char *sal_before(struct arena *a, const struct sal_index *ix, const struct source_tokens *t,
                       unsigned name_offset);
/* The direction the header's own comment gives the member declared at
 * name_offset: the comment that follows its ';' on the same line
 * ("// in: device creation flags", "//out:Width", "// in/out: ...",
 * "// [in]", "// In"): "in", "out", "both", or NULL when there is none or
 * it says something else ("// in bytes" is no direction). */
const char *comment_dir_after(const struct source_tokens *t, unsigned name_offset);
/* The SAL in [begin_offset, name_offset): a typedef's leading annotations. */
const char *sal_between(struct arena *a, const struct sal_index *ix, const struct source_tokens *t,
                        unsigned begin_offset, unsigned name_offset);

#endif
