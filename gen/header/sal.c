/* SAL extraction from raw token streams; see sal.h for why tokens. */
#include "sal.h"

#include "lex.h"

#include "../util/strbuf.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

int sal_is_annotation(const char *s)
{
    size_t n = strlen(s);
    if (strncmp(s, "__drv_", 6) == 0)
        return 1;
    /* _In_, _Out_writes_bytes_, _IRQL_requires_max_, _Function_class_DXGK_ */
    return n >= 3 && s[0] == '_' && isupper((unsigned char)s[1]) && s[n - 1] == '_';
}

static int is_word(const char *t)
{
    return isalnum((unsigned char)t[0]) || t[0] == '_';
}

/* Index of the first token at or after offset. */
static unsigned lower_bound(const struct source_tokens *t, unsigned offset)
{
    unsigned lo = 0, hi = t->count;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (t->offsets[mid] < offset)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Appends an annotation's balanced argument list starting at '('; returns
 * the index after it. */
static unsigned append_arguments(struct strbuf *sb, const struct source_tokens *t, unsigned i, unsigned end)
{
    int depth = 0;
    for (; i < end; i++) {
        const char *s = t->text[i];
        if (!strcmp(s, "("))
            depth++;
        else if (!strcmp(s, ")"))
            depth--;
        /* Keep words apart: "_When_(a == b, c)" stays legible. */
        if (sb->len && is_word(s) && is_word(&sb->data[sb->len - 1]))
            sb_append(sb, " ");
        sb_append(sb, s);
        if (!strcmp(s, ","))
            sb_append(sb, " ");
        if (depth == 0)
            return i + 1;
    }
    return end;
}

static void collect(struct strbuf *sb, const struct source_tokens *t, unsigned begin, unsigned end,
                    const struct strmap *macros, int directives)
{
    for (unsigned i = begin; i < end; i++) {
        const char *s = t->text[i];
        /* #if lines and include guards (_D3DUKMDT_H_ looks like SAL) between
         * declarations are not part of them. */
        if (!is_word(s) || isdigit((unsigned char)s[0]) || (t->in_directive[i] && !directives))
            continue;
        if (sal_is_annotation(s)) {
            if (sb->len)
                sb_append(sb, " ");
            sb_append(sb, s);
            if (i + 1 < end && !strcmp(t->text[i + 1], "("))
                i = append_arguments(sb, t, i + 1, end) - 1;
        } else if (macros) {
            const char *expansion = strmap_get(macros, s);
            if (expansion) {
                if (sb->len)
                    sb_append(sb, " ");
                sb_append(sb, expansion);
            }
        }
    }
}

static const char *collect_text(struct arena *a, const struct source_tokens *t, unsigned begin, unsigned end,
                                const struct strmap *macros, int directives)
{
    if (begin >= end)
        return NULL;
    struct strbuf sb = {0};
    collect(&sb, t, begin, end, macros, directives);
    const char *out = sb.len ? arena_strdup(a, sb.data) : NULL;
    sb_free(&sb);
    return out;
}

const char *sal_before(struct arena *a, const struct sal_index *ix, const struct source_tokens *t,
                       unsigned name_offset)
{
    unsigned at = lower_bound(t, name_offset);
    if (at >= t->count || t->offsets[at] != name_offset)
        return NULL; /* declared through a macro expansion: no tokens of its own */
    /* Back to the previous declarator boundary, skipping SAL arguments:
     * _When_(a, b) has a comma and _In_reads_(n) parentheses of its own. */
    unsigned begin = at;
    int depth = 0;
    while (begin > 0) {
        const char *s = t->text[begin - 1];
        if (t->in_directive[begin - 1]) {
            begin--;
            continue;
        }
        if (!strcmp(s, ")"))
            depth++;
        else if (!strcmp(s, "(") && depth > 0)
            depth--;
        else if (depth == 0 && (!strcmp(s, ";") || !strcmp(s, "{") || !strcmp(s, "}") || !strcmp(s, ",") ||
                                !strcmp(s, "(")))
            break;
        begin--;
    }
    return collect_text(a, t, begin, at, &ix->macros, 0);
}

const char *sal_between(struct arena *a, const struct sal_index *ix, const struct source_tokens *t,
                        unsigned begin_offset, unsigned name_offset)
{
    return collect_text(a, t, lower_bound(t, begin_offset), lower_bound(t, name_offset), &ix->macros, 0);
}

const char *source_token_at(const struct source_tokens *t, unsigned offset)
{
    unsigned at = lower_bound(t, offset);
    return at < t->count && t->offsets[at] == offset ? t->text[at] : NULL;
}

/* "in", "out" or "both" from a comment's text after its opening. */
static const char *dir_of_comment(const char *c)
{
    while (*c == ' ' || *c == '\t' || *c == '[')
        c++;
    size_t n = !strncasecmp(c, "in", 2) ? 2 : !strncasecmp(c, "out", 3) ? 3 : 0;
    if (!n)
        return NULL;
    const char *after = c + n;
    if (n == 2 && (!strncasecmp(after, "/out", 4) || !strncasecmp(after, "(out", 4) || !strncasecmp(after, "out", 3) ||
                   !strncasecmp(after, ", out", 5) || !strncasecmp(after, ",out", 4)))
        return "both";
    if (!strncasecmp(after, "_opt", 4))
        after += 4;
    const char *rest = after;
    while (*rest == ' ' || *rest == '\t')
        rest++;
    /* a word after a space is prose ("in bytes"); a mark ends or is
     * followed by punctuation */
    int mark = !*rest || *rest == '*' || *after == ':' || *after == '.' || *after == ']' || *after == ',' ||
               *rest == ':';
    if (!mark)
        return NULL;
    if (n == 2 && (strstr(after, "/out:") || strstr(after, "/out ") || strstr(after, "/Out")))
        return "both"; /* "in:  Runtime handle/out: Driver handle" */
    return n == 2 ? "in" : "out";
}

const char *comment_dir_after(const struct source_tokens *t, unsigned name_offset)
{
    if (!t || !t->line_start)
        return NULL;
    unsigned i = lower_bound(t, name_offset);
    int depth = 0;
    for (; i < t->count; i++) {
        const char *x = t->text[i];
        if (x[0] == '(' || x[0] == '[')
            depth++;
        else if ((x[0] == ')' || x[0] == ']') && depth > 0)
            depth--;
        else if (x[0] == '{' || x[0] == '}')
            return NULL; /* a nested body: not this member's comment */
        else if (x[0] == ';' && !x[1] && !depth)
            break;
    }
    if (i + 1 >= t->count || t->line_start[i + 1])
        return NULL;
    const char *c = t->text[i + 1];
    if (c[0] != '/' || (c[1] != '/' && c[1] != '*'))
        return NULL;
    return dir_of_comment(c + 2);
}

const struct source_tokens *sal_index_file(const struct sal_index *ix, const char *path)
{
    return strmap_get(&ix->by_path, path);
}

/* --- building the index ------------------------------------------------ */

struct build_ctx {
    struct sal_index *ix;
    CXTranslationUnit tu;
    int (*in_scope)(const char *, const void *);
    const void *scope;
    struct vec files; /* CXFile */
};

/* The offset just past a preprocessor directive that starts at offset:
 * the end of its line, or of the last line a trailing backslash continues
 * it onto (`#if (A) && \` + `(B)`). */
static size_t directive_end(const char *text, size_t size, size_t offset)
{
    size_t i = offset;
    while (i < size) {
        while (i < size && text[i] != '\n')
            i++;
        size_t last = i;
        while (last > offset && (text[last - 1] == '\r'))
            last--;
        if (i >= size || last == offset || text[last - 1] != '\\')
            return i;
        i++; /* continued: the next line belongs to the directive too */
    }
    return size;
}

struct lexing {
    struct sal_index *ix;
    const char *text;
    size_t size;
    struct source_tokens *out;
    size_t directive_until; /* tokens before this offset belong to a directive */
    char *spelling;         /* scratch of the file's size */
};

static void take_token(const struct raw_token *tok, void *data)
{
    struct lexing *l = data;
    struct source_tokens *out = l->out;
    unsigned i = out->count++;
    size_t n = lex_spelling(l->text, tok, l->spelling);
    out->offsets[i] = tok->offset;
    out->text[i] = arena_strndup(&l->ix->arena, l->spelling, n);
    /* A '#' first on its line starts a directive, which runs to the end
     * of its line and of every line a backslash continues it onto. */
    if (tok->line_start && tok->offset >= l->directive_until && !strcmp(out->text[i], "#"))
        l->directive_until = directive_end(l->text, l->size, tok->offset);
    out->in_directive[i] = tok->offset < l->directive_until;
    out->line_start[i] = (unsigned char)(tok->line_start != 0);
}

/* The file's tokens as clang_tokenize gives them (comments included), by
 * the raw lexer of lex.h: one pass over the bytes, no libclang call per
 * token. */
static void lex_file(struct sal_index *ix, CXTranslationUnit tu, CXFile file, struct source_tokens *out)
{
    size_t size = 0;
    const char *text = clang_getFileContents(tu, file, &size);
    if (!text)
        return; /* nothing to lex: the file has no tokens for SAL */
    unsigned n = lex_raw(text, size, NULL, NULL);
    out->count = 0;
    out->offsets = arena_alloc(&ix->arena, (n + 1) * sizeof *out->offsets);
    out->text = arena_alloc(&ix->arena, (n + 1) * sizeof *out->text);
    out->in_directive = arena_alloc(&ix->arena, n + 1);
    out->line_start = arena_alloc(&ix->arena, n + 1);
    struct lexing l = {ix, text, size, out, 0, malloc(size + 1)};
    if (!l.spelling)
        return;
    lex_raw(text, size, take_token, &l);
    free(l.spelling);
}

static void visit_inclusion(CXFile file, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
    (void)stack;
    (void)depth;
    struct build_ctx *b = data;
    CXString name = clang_getFileName(file);
    const char *path = clang_getCString(name);
    if (path && b->in_scope(path, b->scope) && !strmap_get(&b->ix->by_path, path)) {
        const char *key = arena_strdup(&b->ix->arena, path);
        strmap_put(&b->ix->by_path, key, (void *)key); /* replaced once lexed */
        vec_push(&b->files, file);
    }
    clang_disposeString(name);
}

/* typedef _In_ DXGKARG_X *IN_PDXGKARG_X: a parameter declared with the
 * typedef carries its annotation, as with a macro. */
static void note_typedef(struct build_ctx *b, CXCursor c)
{
    /* A function typedef's annotations describe the function, not the
     * pointers declared with it. */
    enum CXTypeKind k = clang_getCanonicalType(clang_getTypedefDeclUnderlyingType(c)).kind;
    if (k == CXType_FunctionProto || k == CXType_FunctionNoProto)
        return;
    CXFile file;
    unsigned line, col, name;
    clang_getSpellingLocation(clang_getCursorLocation(c), &file, &line, &col, &name);
    if (!file)
        return;
    CXString fname = clang_getFileName(file);
    const struct source_tokens *t = sal_index_file(b->ix, clang_getCString(fname));
    clang_disposeString(fname);
    /* Only what precedes the name back to the declarator boundary: in
     * typedef struct {...} X the annotations inside the braces are the
     * fields', not X's. */
    const char *sal = t ? sal_before(&b->ix->arena, b->ix, t, name) : NULL;
    if (sal) {
        CXString spelling = clang_getCursorSpelling(c);
        strmap_put(&b->ix->macros, arena_strdup(&b->ix->arena, clang_getCString(spelling)), (void *)sal);
        clang_disposeString(spelling);
    }
}

/* Macros like IN_CONST_HANDLE: the SAL of their body, through earlier ones. */
static enum CXChildVisitResult visit_macro(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct build_ctx *b = data;
    if (c.kind == CXCursor_TypedefDecl) {
        note_typedef(b, c);
        return CXChildVisit_Continue;
    }
    if (c.kind != CXCursor_MacroDefinition || clang_Cursor_isMacroFunctionLike(c))
        return CXChildVisit_Continue;
    CXSourceRange r = clang_getCursorExtent(c);
    CXFile file;
    unsigned line, col, begin, end;
    clang_getSpellingLocation(clang_getRangeStart(r), &file, &line, &col, &begin);
    if (!file)
        return CXChildVisit_Continue;
    clang_getSpellingLocation(clang_getRangeEnd(r), &file, &line, &col, &end);
    CXString fname = clang_getFileName(file);
    const struct source_tokens *t = sal_index_file(b->ix, clang_getCString(fname));
    clang_disposeString(fname);
    if (!t)
        return CXChildVisit_Continue;
    unsigned first = lower_bound(t, begin), last = lower_bound(t, end);
    /* Token `first` is the macro's own name; the body follows. */
    /* A body that ends the file has no token at `last` (fuzz: sal_corpus/crash-*). */
    unsigned stop = last < t->count ? last + 1 : t->count;
    const char *sal = first < last ? collect_text(&b->ix->arena, t, first + 1, stop, &b->ix->macros, 1) : NULL;
    if (sal)
        strmap_put(&b->ix->macros, arena_strdup(&b->ix->arena, t->text[first]), (void *)sal);
    return CXChildVisit_Continue;
}

void sal_index_build(struct sal_index *ix, CXTranslationUnit tu, int (*in_scope)(const char *path, const void *ctx),
                     const void *ctx)
{
    struct build_ctx b = {ix, tu, in_scope, ctx, {0}};
    clang_getInclusions(tu, visit_inclusion, &b);
    /* A second build (discovery on top of the PCH that indexed the prefix)
     * adds its own files after the first's. */
    struct source_tokens **files = arena_alloc(&ix->arena, (ix->nfiles + b.files.len + 1) * sizeof *files);
    if (ix->nfiles)
        memcpy(files, ix->files, ix->nfiles * sizeof *files);
    ix->files = files;
    for (size_t i = 0; i < b.files.len; i++) {
        struct source_tokens *t = arena_alloc(&ix->arena, sizeof *t);
        ix->files[ix->nfiles++] = t;
        CXString name = clang_getFileName(b.files.items[i]);
        t->path = arena_strdup(&ix->arena, clang_getCString(name));
        clang_disposeString(name);
        lex_file(ix, tu, b.files.items[i], t);
        strmap_put(&ix->by_path, t->path, t);
    }
    vec_free(&b.files);
    clang_visitChildren(clang_getTranslationUnitCursor(tu), visit_macro, &b);
}

void sal_index_free(struct sal_index *ix)
{
    strmap_free(&ix->by_path);
    strmap_free(&ix->macros);
    arena_free(&ix->arena);
    memset(ix, 0, sizeof *ix);
}
