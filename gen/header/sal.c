/* SAL extraction from token streams; see sal.h for why tokens, not the AST. */
#include "sal.h"

#include "../util/strbuf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

int token_run_init(struct token_run *run, CXTranslationUnit tu, CXSourceRange range)
{
    memset(run, 0, sizeof *run);
    run->tu = tu;
    clang_tokenize(tu, range, &run->tokens, &run->count);
    if (!run->count)
        return -1;
    run->offsets = malloc(run->count * sizeof *run->offsets);
    if (!run->offsets) {
        token_run_dispose(run);
        return -1;
    }
    for (unsigned i = 0; i < run->count; i++) {
        CXSourceLocation loc = clang_getTokenLocation(tu, run->tokens[i]);
        CXFile file;
        unsigned line, col, off;
        clang_getSpellingLocation(loc, &file, &line, &col, &off);
        run->offsets[i] = off;
        if (i == 0)
            run->file = file;
    }
    return 0;
}

void token_run_dispose(struct token_run *run)
{
    if (run->tokens)
        clang_disposeTokens(run->tu, run->tokens, run->count);
    free(run->offsets);
    memset(run, 0, sizeof *run);
}

int token_run_find(const struct token_run *run, unsigned offset)
{
    unsigned lo = 0, hi = run->count;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (run->offsets[mid] < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < run->count && run->offsets[lo] == offset ? (int)lo : -1;
}

int sal_is_annotation(const char *s)
{
    size_t n = strlen(s);
    if (strncmp(s, "__drv_", 6) == 0)
        return 1;
    /* _In_, _Out_writes_bytes_, _IRQL_requires_max_, _Function_class_DXGK_ */
    return n >= 3 && s[0] == '_' && isupper((unsigned char)s[1]) && s[n - 1] == '_';
}

static char *token_text(CXTranslationUnit tu, CXToken tok)
{
    CXString s = clang_getTokenSpelling(tu, tok);
    char *copy = strdup(clang_getCString(s));
    clang_disposeString(s);
    return copy;
}

/* Appends tokens [i, end of balanced parens) of an annotation's argument. */
static int append_arguments(struct strbuf *sb, CXTranslationUnit tu, const CXToken *toks, int i, int end)
{
    int depth = 0;
    for (; i < end; i++) {
        char *t = token_text(tu, toks[i]);
        if (strcmp(t, "(") == 0)
            depth++;
        else if (strcmp(t, ")") == 0)
            depth--;
        /* Keep identifiers and numbers apart: "_When_(a == b, c)" stays legible. */
        if (sb->len && (isalnum((unsigned char)t[0]) || t[0] == '_') &&
            (isalnum((unsigned char)sb->data[sb->len - 1]) || sb->data[sb->len - 1] == '_'))
            sb_append(sb, " ");
        sb_append(sb, t);
        if (strcmp(t, ",") == 0)
            sb_append(sb, " ");
        free(t);
        if (depth == 0)
            return i + 1;
    }
    return end;
}

static void append_sep(struct strbuf *sb)
{
    if (sb->len)
        sb_append(sb, " ");
}

static void collect_tokens(struct strbuf *sb, CXTranslationUnit tu, const CXToken *toks, int begin, int end,
                           const struct strmap *macros)
{
    for (int i = begin; i < end; i++) {
        if (clang_getTokenKind(toks[i]) != CXToken_Identifier)
            continue;
        char *t = token_text(tu, toks[i]);
        if (sal_is_annotation(t)) {
            append_sep(sb);
            sb_append(sb, t);
            if (i + 1 < end) {
                char *next = token_text(tu, toks[i + 1]);
                int call = strcmp(next, "(") == 0;
                free(next);
                if (call)
                    i = append_arguments(sb, tu, toks, i + 1, end) - 1;
            }
        } else if (macros) {
            const char *expansion = strmap_get(macros, t);
            if (expansion) {
                append_sep(sb);
                sb_append(sb, expansion);
            }
        }
        free(t);
    }
}

const char *sal_collect(struct arena *a, const struct token_run *run, int begin, int end,
                        const struct strmap *macros)
{
    if (begin < 0 || end > (int)run->count || begin >= end)
        return NULL;
    struct strbuf sb = {0};
    collect_tokens(&sb, run->tu, run->tokens, begin, end, macros);
    const char *out = sb.len ? arena_strdup(a, sb.data) : NULL;
    sb_free(&sb);
    return out;
}

void sal_note_macro(struct arena *a, struct strmap *macros, CXTranslationUnit tu, CXCursor def)
{
    if (clang_Cursor_isMacroFunctionLike(def))
        return;
    struct token_run run;
    if (token_run_init(&run, tu, clang_getCursorExtent(def)) != 0)
        return;
    /* Token 0 is the macro's own name; the body follows. Macros defined in
     * terms of earlier ones (IN_X -> _In_ X) expand through the map. */
    const char *sal = sal_collect(a, &run, 1, (int)run.count, macros);
    if (sal) {
        CXString name = clang_getCursorSpelling(def);
        strmap_put(macros, arena_strdup(a, clang_getCString(name)), (void *)sal);
        clang_disposeString(name);
    }
    token_run_dispose(&run);
}
