/* libFuzzer target for the header stage's SAL/token scanner (gen/header/sal.c):
 * the input is parsed by libclang as one header, indexed like a kit file,
 * and the SAL before every token and between token pairs is read back; the
 * raw lexer that built the index must give clang_tokenize's tokens (an
 * input of ASCII without NUL: clang's handling of other bytes is not
 * modelled, and kit headers have none outside comments).
 * Replayed by sal_fuzz_replay in gcc builds. */
#include "header/sal.h"
#include "lex_oracle.h"

#include "util/clang_api.h"

#include <stdlib.h>
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int every_file(const char *path, const void *ctx)
{
    (void)path;
    (void)ctx;
    return 1;
}

/* Every declarator boundary sal.c may be asked about, in file order. */
static void scan(const struct sal_index *ix)
{
    for (size_t f = 0; f < ix->nfiles; f++) {
        const struct source_tokens *t = ix->files[f];
        struct arena a = {0};
        for (unsigned i = 0; i < t->count; i++) {
            sal_before(&a, ix, t, t->offsets[i]);
            sal_before(&a, ix, t, t->offsets[i] + 1); /* not a token start */
            unsigned from = i >= 8 ? t->offsets[i - 8] : 0;
            sal_between(&a, ix, t, from, t->offsets[i]);
            sal_between(&a, ix, t, t->offsets[i], from); /* reversed range */
        }
        arena_free(&a);
    }
}

static int plain_ascii(const uint8_t *data, size_t size)
{
    for (size_t i = 0; i < size; i++)
        if (data[i] == 0 || data[i] >= 0x80)
            return 0;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static CXIndex index;
    if (!index)
        index = clang_createIndex(0, 0);
    static const char *const args[] = {"-xc", "-target", "x86_64-pc-windows-msvc", "-fms-extensions",
                                       "-nostdinc", "-ferror-limit=0"};
    struct CXUnsavedFile unsaved = {"fuzz.h", (const char *)data, (unsigned long)size};
    CXTranslationUnit tu = NULL;
    unsigned flags = CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_KeepGoing |
                     CXTranslationUnit_SkipFunctionBodies;
    if (clang_parseTranslationUnit2(index, "fuzz.h", args, sizeof args / sizeof args[0], &unsaved, 1, flags, &tu) !=
            CXError_Success ||
        !tu)
        return 0;
    if (plain_ascii(data, size) && lex_compare(tu, clang_getFile(tu, "fuzz.h"), "fuzz.h", (const char *)data, size) > 0)
        abort(); /* the SAL index would not see the tokens clang sees */
    struct sal_index ix = {0};
    sal_index_build(&ix, tu, every_file, NULL);
    scan(&ix);
    sal_index_free(&ix);
    clang_disposeTranslationUnit(tu);
    return 0;
}
