/* The SAL index's raw lexer (gen/header/lex.c) against clang_tokenize, the
 * oracle it replaces: for every file named on the command line, the two
 * must give the same tokens (offset and spelling, comments included).
 * Run over every header of the real kits by lex_oracle.sh; lex_compare() is
 * also sal_fuzz's differential check. Exit 1 at the first difference,
 * naming the file, line and both tokens. */
#include "lex_oracle.h"

#include "header/lex.h"
#include "util/clang_api.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ours {
    struct raw_token *items;
    unsigned n;
};

static void keep(const struct raw_token *tok, void *ctx)
{
    struct ours *o = ctx;
    o->items[o->n++] = *tok;
}

static unsigned line_of(const char *text, unsigned offset)
{
    unsigned line = 1;
    for (unsigned i = 0; i < offset; i++)
        line += text[i] == '\n';
    return line;
}

int lex_compare(CXTranslationUnit tu, CXFile file, const char *name, const char *text, size_t size)
{
    struct ours o = {malloc((size + 1) * sizeof *o.items), 0};
    char *spelling = malloc(size + 1);
    if (!o.items || !spelling) {
        free(o.items), free(spelling);
        return -1;
    }
    lex_raw(text, size, keep, &o);
    CXSourceRange whole = clang_getRange(clang_getLocationForOffset(tu, file, 0),
                                         clang_getLocationForOffset(tu, file, (unsigned)size));
    CXToken *toks = NULL;
    unsigned n = 0;
    clang_tokenize(tu, whole, &toks, &n);
    int rc = 0;
    for (unsigned i = 0; i < n && i < o.n && !rc; i++) {
        CXFile f;
        unsigned line, col, off;
        clang_getSpellingLocation(clang_getTokenLocation(tu, toks[i]), &f, &line, &col, &off);
        CXString s = clang_getTokenSpelling(tu, toks[i]);
        lex_spelling(text, &o.items[i], spelling);
        if (off != o.items[i].offset || strcmp(spelling, clang_getCString(s)) != 0) {
            fprintf(stderr, "%s:%u: token %u: clang has '%s' at offset %u, lex.c has '%s' at offset %u\n", name,
                    line_of(text, off < size ? off : (unsigned)size), i, clang_getCString(s), off, spelling,
                    o.items[i].offset);
            rc = 1;
        }
        clang_disposeString(s);
    }
    if (!rc && n != o.n) {
        fprintf(stderr, "%s: clang has %u tokens, lex.c has %u\n", name, n, o.n);
        rc = 1;
    }
    if (toks)
        clang_disposeTokens(tu, toks, n);
    free(o.items);
    free(spelling);
    return rc;
}

#ifndef LEX_ORACLE_NO_MAIN
static char *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = n >= 0 ? malloc((size_t)n + 1) : NULL;
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = 0;
        *size = (size_t)n;
    }
    return buf;
}

/* The file as the main file of its own translation unit, with the flags
 * ingestion uses; its includes need not resolve: tokens are raw. */
static int check_file(CXIndex index, const char *path)
{
    size_t size = 0;
    char *text = read_file(path, &size);
    if (!text) {
        fprintf(stderr, "%s: cannot read\n", path);
        return 1;
    }
    static const char *const args[] = {"-x",         "c",          "-std=c11",         "-target",
                                       "x86_64-pc-windows-msvc", "-fms-extensions", "-fms-compatibility",
                                       "-fms-compatibility-version=19.38", "-nostdinc", "-ferror-limit=1"};
    struct CXUnsavedFile unsaved = {path, text, (unsigned long)size};
    CXTranslationUnit tu = NULL;
    int rc = 1;
    if (clang_parseTranslationUnit2(index, path, args, sizeof args / sizeof args[0], &unsaved, 1,
                                    CXTranslationUnit_Incomplete | CXTranslationUnit_SkipFunctionBodies,
                                    &tu) == CXError_Success && tu) {
        rc = lex_compare(tu, clang_getFile(tu, path), path, text, size);
        clang_disposeTranslationUnit(tu);
    } else {
        fprintf(stderr, "%s: libclang could not open it\n", path);
    }
    free(text);
    return rc;
}

int main(int argc, char **argv)
{
    CXIndex index = clang_createIndex(0, 0);
    int rc = 0;
    for (int i = 1; i < argc; i++)
        rc |= check_file(index, argv[i]) != 0;
    clang_disposeIndex(index);
    printf("lex_oracle: %d files, %s\n", argc - 1, rc ? "DIFFERENT" : "same tokens as clang_tokenize");
    return rc;
}
#endif
