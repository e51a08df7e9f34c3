/* libclang over the C blocks of a page. The block is parsed alone, for the
 * MSVC target, with SAL macros turned into annotate attributes (so parameter
 * annotations survive) and unknown type names predeclared as typedefs. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "syntax.h"

#include "../util/diag.h"
#include "text.h"

#include "../util/clang_api.h"
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static CXIndex shared_index;

void docs_syntax_shutdown(void)
{
    if (shared_index)
        clang_disposeIndex(shared_index);
    shared_index = NULL;
}

/* ---- preparing the block ------------------------------------------------- */

static const char *const c_words[] = {
    "auto",     "break",    "case",     "char",     "const",    "continue", "default", "do",
    "double",   "else",     "enum",     "extern",   "float",    "for",      "goto",    "if",
    "inline",   "int",      "long",     "register", "restrict", "return",   "short",   "signed",
    "sizeof",   "static",   "struct",   "switch",   "typedef",  "union",    "unsigned", "void",
    "volatile", "while",    "_Bool",    "__int8",   "__int16",  "__int32",  "__int64", "__declspec",
    "__stdcall", "__cdecl", "__fastcall", "__ptr64", "__ptr32", "__unaligned", "__inline",
};

static const char *const empty_macros[] = {"APIENTRY", "CALLBACK", "NTAPI", "WINAPI", "STDMETHODCALLTYPE",
                                           "FAR", "NEAR", "DECLSPEC_ALIGN", "CONST", "EXTERN_C"};
static const char *const old_sal[] = {"IN", "OUT", "OPTIONAL", "INOUT", "IN_OUT"};

static bool in_list(const char *const *list, size_t n, const char *s, size_t len)
{
    for (size_t i = 0; i < n; i++)
        if (strlen(list[i]) == len && !memcmp(list[i], s, len))
            return true;
    return false;
}
#define IN_LIST(list, s, n) in_list(list, sizeof list / sizeof list[0], s, n)

static bool sal_name(const char *s, size_t n)
{
    return n >= 3 && s[0] == '_' && isupper((unsigned char)s[1]) && s[n - 1] == '_';
}

struct token {
    const char *s;
    size_t n;
    bool ident;
};

/* A minimal C tokenizer: enough to tell type names from declarators. */
static size_t tokenize(const char *code, struct token **out)
{
    DOCS_VEC(struct token) v = {0};
    for (const char *p = code; *p;) {
        if (isspace((unsigned char)*p)) {
            p++;
        } else if (p[0] == '/' && p[1] == '/') {
            while (*p && *p != '\n')
                p++;
        } else if (p[0] == '/' && p[1] == '*') {
            const char *e = strstr(p + 2, "*/");
            p = e ? e + 2 : p + strlen(p);
        } else if (*p == '#') {
            while (*p && *p != '\n')
                p++;
        } else if (docs_is_ident_start((unsigned char)*p)) {
            const char *b = p;
            while (docs_is_ident_char((unsigned char)*p))
                p++;
            struct token t = {b, (size_t)(p - b), true};
            DOCS_PUSH(v, t);
        } else if (isdigit((unsigned char)*p)) {
            const char *b = p;
            while (isalnum((unsigned char)*p))
                p++;
            struct token t = {b, (size_t)(p - b), false};
            DOCS_PUSH(v, t);
        } else {
            struct token t = {p, 1, false};
            DOCS_PUSH(v, t);
            p++;
        }
    }
    *out = v.v;
    return v.n;
}

static bool defined_already(struct docs_buf *pre, const char *s, size_t n)
{
    char key[160];
    snprintf(key, sizeof key, " %.*s;\n", (int)(n < 120 ? n : 120), s);
    char key2[160];
    snprintf(key2, sizeof key2, "define %.*s", (int)(n < 120 ? n : 120), s);
    return pre->data && (strstr(pre->data, key) || strstr(pre->data, key2));
}

/* The preamble: SAL as annotate attributes, calling conventions empty, and
 * a typedef for every name used as a type but not declared in the block. */
static void build_preamble(const char *code, struct docs_buf *pre)
{
    struct token *t;
    size_t n = tokenize(code, &t);
    docs_buf_puts(pre, "#define D3DKMT_ALIGN64 __declspec(align(8))\n");
    docs_buf_puts(pre, "#define DECLSPEC_ALIGN(x) __declspec(align(x))\n");
    for (size_t i = 0; i < sizeof empty_macros / sizeof empty_macros[0]; i++)
        if (strcmp(empty_macros[i], "DECLSPEC_ALIGN"))
            docs_buf_puts(pre, "#define "), docs_buf_puts(pre, empty_macros[i]), docs_buf_puts(pre, "\n");
    for (size_t i = 0; i < n; i++) {
        if (!t[i].ident)
            continue;
        bool call = i + 1 < n && t[i + 1].s[0] == '(';
        if ((sal_name(t[i].s, t[i].n) || IN_LIST(old_sal, t[i].s, t[i].n)) &&
            !defined_already(pre, t[i].s, t[i].n)) {
            char line[256];
            snprintf(line, sizeof line, "#define %.*s%s __attribute__((annotate(\"%.*s\")))\n",
                     (int)t[i].n, t[i].s, call ? "(...)" : "", (int)t[i].n, t[i].s);
            docs_buf_puts(pre, line);
        }
    }
    for (size_t i = 0; i + 1 < n; i++) {
        if (!t[i].ident || IN_LIST(c_words, t[i].s, t[i].n) || IN_LIST(empty_macros, t[i].s, t[i].n) ||
            sal_name(t[i].s, t[i].n) || IN_LIST(old_sal, t[i].s, t[i].n) ||
            !strncmp(t[i].s, "D3DKMT_ALIGN64", t[i].n))
            continue;
        if (i > 0 && t[i - 1].ident &&
            (in_list((const char *const[]){"struct", "union", "enum"}, 3, t[i - 1].s, t[i - 1].n)))
            continue;
        const struct token *nx = &t[i + 1];
        bool next_ident = nx->ident && !IN_LIST(c_words, nx->s, nx->n) &&
                          !sal_name(nx->s, nx->n) && !IN_LIST(old_sal, nx->s, nx->n);
        bool next_const = nx->ident && nx->n == 5 && !memcmp(nx->s, "const", 5);
        bool prev_open = i == 0 || (!t[i - 1].ident && strchr("({;,", t[i - 1].s[0])) ||
                         (t[i - 1].ident && (sal_name(t[i - 1].s, t[i - 1].n) ||
                                             IN_LIST(old_sal, t[i - 1].s, t[i - 1].n) ||
                                             IN_LIST(c_words, t[i - 1].s, t[i - 1].n))) ||
                         (t[i - 1].s[0] == ')' && i >= 2);
        bool next_star = nx->s[0] == '*' && prev_open;
        bool next_paren_star = nx->s[0] == '(' && prev_open; /* NTSTATUS (APIENTRY *PFN)(...) */
        if (!(next_ident || next_const || next_star || next_paren_star))
            continue;
        if (defined_already(pre, t[i].s, t[i].n))
            continue;
        /* declared by the block itself: "} NAME;" or "} NAME," */
        bool declared = false;
        for (size_t k = 1; k < n && !declared; k++)
            declared = t[k].ident && t[k].n == t[i].n && !memcmp(t[k].s, t[i].s, t[i].n) &&
                       t[k - 1].s[0] == '}';
        if (declared)
            continue;
        char line[256];
        snprintf(line, sizeof line, "typedef int %.*s;\n", (int)t[i].n, t[i].s);
        docs_buf_puts(pre, line);
    }
    free(t);
}

/* Prototype blocks are not quite C: "{...}" stands for the body, and the
 * "TYPEDEF_NAME FunctionName;" declaration line clashes with the definition
 * that follows it (the typedef is not in the block). Blank both out. */
static char *clean_code(const char *code)
{
    char *c = strdup(code);
    if (!c)
        abort();
    for (char *p = c; (p = strstr(p, "{...}")) != NULL;)
        memcpy(p, ";    ", 5);
    struct token *t;
    size_t n = tokenize(c, &t);
    int depth = 0;
    for (size_t i = 0; i + 2 < n; i++) {
        depth += t[i].s[0] == '{' && !t[i].ident;
        depth -= t[i].s[0] == '}' && !t[i].ident;
        if (depth || !t[i].ident || !t[i + 1].ident || t[i + 2].s[0] != ';' || t[i + 2].ident)
            continue;
        if (i > 0 && !(t[i - 1].s[0] == ';' || t[i - 1].s[0] == '}'))
            continue;
        for (size_t k = i + 3; k + 1 < n; k++) {
            if (t[k].ident && t[k].n == t[i + 1].n && !memcmp(t[k].s, t[i + 1].s, t[k].n) &&
                t[k + 1].s[0] == '(') {
                memset((char *)t[i].s, ' ', (size_t)(t[i + 2].s + 1 - t[i].s));
                break;
            }
        }
    }
    free(t);
    return c;
}

/* ---- reading the AST ----------------------------------------------------- */

struct visit {
    struct docs_page *p;
    const char *prefix;
    int depth;
};

static const char *cx_str(struct docs_page *p, CXString s)
{
    const char *c = clang_getCString(s);
    const char *d = arena_strdup(&p->arena, c ? c : "");
    clang_disposeString(s);
    return d;
}

static unsigned cursor_line(CXCursor c)
{
    CXString file;
    unsigned line = 0, col;
    clang_getPresumedLocation(clang_getCursorLocation(c), &file, &line, &col);
    clang_disposeString(file);
    return line;
}

static enum CXChildVisitResult collect_sal(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct docs_buf *b = data;
    if (clang_getCursorKind(c) == CXCursor_AnnotateAttr) {
        CXString s = clang_getCursorSpelling(c);
        if (b->len)
            docs_buf_putc(b, ' ');
        docs_buf_puts(b, clang_getCString(s));
        clang_disposeString(s);
    }
    return CXChildVisit_Continue;
}

static void add_decl(struct visit *v, CXCursor c, const char *name)
{
    struct docs_page *p = v->p;
    struct docs_decl d = {0};
    CXType type = clang_getCursorType(c);
    d.path = v->prefix[0] ? arena_printf(&p->arena, "%s%s", v->prefix, name)
                          : arena_strdup(&p->arena, name);
    if (type.kind == CXType_ConstantArray) {
        d.array = arena_printf(&p->arena, "%lld", (long long)clang_getArraySize(type));
        type = clang_getArrayElementType(type);
    } else if (type.kind == CXType_IncompleteArray) {
        d.array = "";
        type = clang_getArrayElementType(type);
    }
    d.type = cx_str(p, clang_getTypeSpelling(type));
    d.line = cursor_line(c);
    if (clang_getCursorKind(c) == CXCursor_EnumConstantDecl)
        d.value = arena_printf(&p->arena, "%lld", clang_getEnumConstantDeclValue(c)), d.type = NULL;
    struct docs_buf sal = {0};
    clang_visitChildren(c, collect_sal, &sal);
    if (sal.len)
        d.sal = arena_strdup(&p->arena, sal.data);
    docs_buf_free(&sal);
    DOCS_PUSH(p->syntax.decls, d);
}

static enum CXChildVisitResult visit_record(CXCursor c, CXCursor parent, CXClientData data);

static void walk_record(struct visit *v, CXCursor rec, const char *prefix)
{
    if (v->depth > 16)
        return;
    struct visit inner = {v->p, prefix, v->depth + 1};
    clang_visitChildren(rec, visit_record, &inner);
}

static enum CXChildVisitResult visit_record(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct visit *v = data;
    enum CXCursorKind k = clang_getCursorKind(c);
    if ((k == CXCursor_StructDecl || k == CXCursor_UnionDecl) && clang_Cursor_isAnonymousRecordDecl(c)) {
        struct docs_decl d = {0};
        d.path = arena_printf(&v->p->arena, "%s(unnamed %s)", v->prefix,
                                   k == CXCursor_UnionDecl ? "union" : "struct");
        d.anonymous = true;
        d.line = cursor_line(c);
        DOCS_PUSH(v->p->syntax.decls, d);
        walk_record(v, c, v->prefix); /* nameless levels are skipped in names */
        return CXChildVisit_Continue;
    }
    if (k == CXCursor_FieldDecl || k == CXCursor_EnumConstantDecl) {
        const char *name = cx_str(v->p, clang_getCursorSpelling(c));
        add_decl(v, c, name);
        CXType t = clang_getCursorType(c);
        if (t.kind == CXType_ConstantArray)
            t = clang_getArrayElementType(t);
        CXCursor decl = clang_getTypeDeclaration(t);
        enum CXCursorKind dk = clang_getCursorKind(decl);
        if ((dk == CXCursor_StructDecl || dk == CXCursor_UnionDecl) && clang_Cursor_isAnonymous(decl))
            walk_record(v, decl, arena_printf(&v->p->arena, "%s%s.", v->prefix, name));
    }
    return CXChildVisit_Continue;
}

static enum CXChildVisitResult visit_params(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct visit *v = data;
    if (clang_getCursorKind(c) == CXCursor_ParmDecl) {
        const char *name = cx_str(v->p, clang_getCursorSpelling(c));
        add_decl(v, c, name);
    }
    return CXChildVisit_Continue;
}

struct top {
    struct docs_page *p;
    CXCursor best;
    int best_rank;
    const char *name;
};

/* The declaration the block is about: a defined record or enum, else a
 * function (prototype) or a function-pointer typedef. */
static enum CXChildVisitResult visit_top(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct top *t = data;
    if (!clang_Location_isFromMainFile(clang_getCursorLocation(c)))
        return CXChildVisit_Continue;
    enum CXCursorKind k = clang_getCursorKind(c);
    int rank = 0;
    CXCursor target = c;
    if (k == CXCursor_TypedefDecl) {
        CXType u = clang_getTypedefDeclUnderlyingType(c);
        CXCursor d = clang_getTypeDeclaration(u);
        enum CXCursorKind dk = clang_getCursorKind(d);
        if ((dk == CXCursor_StructDecl || dk == CXCursor_UnionDecl || dk == CXCursor_EnumDecl) &&
            clang_isCursorDefinition(d))
            rank = 3, target = d;
        else if (clang_getCanonicalType(u).kind == CXType_Pointer || u.kind == CXType_FunctionProto)
            rank = 1;
        if (rank && !t->name)
            t->name = cx_str(t->p, clang_getCursorSpelling(c));
    } else if ((k == CXCursor_StructDecl || k == CXCursor_UnionDecl || k == CXCursor_EnumDecl) &&
               clang_isCursorDefinition(c)) {
        rank = 2;
    } else if (k == CXCursor_FunctionDecl) {
        rank = 1;
        int nargs = clang_Cursor_getNumArguments(c);
        if (nargs > 0)
            rank = 2;
    }
    if (rank > t->best_rank) {
        t->best_rank = rank;
        t->best = target;
        t->name = cx_str(t->p, clang_getCursorSpelling(c));
    }
    return CXChildVisit_Continue;
}

/* ---- comparing with the page --------------------------------------------- */

static void mismatch(struct docs_page *p, unsigned line, const char *kind, const char *fmt, const char *name)
{
    struct docs_note n = {line, kind, arena_printf(&p->arena, fmt, name)};
    DOCS_PUSH(p->syntax.mismatches, n);
}

static int find_field(struct docs_page *p, const char *path)
{
    for (size_t i = 0; i < p->fields.n; i++)
        if (!strcmp(p->fields.v[i].path, path))
            return (int)i;
    return -1;
}

static void compare(struct docs_page *p)
{
    struct docs_syntax *sx = &p->syntax;
    size_t named = 0;
    int last = -1;
    bool order_reported = false;
    for (size_t i = 0; i < sx->decls.n; i++) {
        const struct docs_decl *d = &sx->decls.v[i];
        if (d->anonymous || !d->path[0]) /* an unnamed parameter documents nothing */
            continue;
        int f = find_field(p, d->path);
        if (f < 0) {
            mismatch(p, d->line, "missing-in-fields", "%s is declared in the block but not documented",
                     d->path);
            continue;
        }
        p->fields.v[f].in_block = true;
        named++;
        if (f < last && !order_reported) {
            mismatch(p, d->line, "order", "%s comes in a different order in the block", d->path);
            order_reported = true;
        }
        last = f;
    }
    for (size_t i = 0; i < p->fields.n; i++) {
        const struct docs_field *f = &p->fields.v[i];
        if (f->in_block || !f->path[0] || f->anonymous_union)
            continue;
        mismatch(p, f->line, "missing-in-block", "%s is documented but not in the block", f->path);
    }
    if (sx->mismatches.n)
        docs_page_note(p, sx->line, false, "syntax block disagrees with the field list (%zu differences)",
                       sx->mismatches.n);
    (void)named;
}

/* Damaged pages: descriptions without names, in page order. The block lists
 * the members it still has; align both lists from the end (a damaged block
 * loses its head), and say when the text names the member too. */
static void suggest_candidates(struct docs_page *p)
{
    DOCS_VEC(const struct docs_decl *) top = {0};
    for (size_t i = 0; i < p->syntax.decls.n; i++) {
        const struct docs_decl *d = &p->syntax.decls.v[i];
        if (!d->anonymous && d->path[0] && !strchr(d->path, '.'))
            DOCS_PUSH(top, d);
    }
    DOCS_VEC(struct docs_field *) unnamed = {0};
    for (size_t i = 0; i < p->fields.n; i++)
        if (p->fields.v[i].heading == DOCS_HEAD_UNNAMED)
            DOCS_PUSH(unnamed, &p->fields.v[i]);
    size_t k = unnamed.n < top.n ? unnamed.n : top.n;
    for (size_t i = 0; i < k; i++) {
        struct docs_field *f = unnamed.v[unnamed.n - k + i];
        const struct docs_decl *d = top.v[top.n - k + i];
        f->candidate = d->path;
        bool mentioned = false;
        for (size_t j = 0; j < p->paras.n; j++) {
            const struct docs_para *para = &p->paras.v[j];
            if (para->section != DOCS_SEC_FIELD || &p->fields.v[para->field] != f)
                continue;
            const char *hit = strstr(para->text, d->path);
            size_t m = strlen(d->path);
            mentioned |= hit && !docs_is_ident_char((unsigned char)hit[m]) &&
                         (hit == para->text || !docs_is_ident_char((unsigned char)hit[-1]));
        }
        f->candidate_basis = mentioned ? "order-from-end,named-in-text" : "order-from-end";
    }
    free(top.v);
    free(unnamed.v);
}

void docs_parse_syntax(struct docs_page *p)
{
    if (!p->has_syntax || !p->syntax.code)
        return;
    struct docs_buf src = {0};
    char *code = clean_code(p->syntax.code);
    build_preamble(code, &src);
    /* A damaged block may hold member lines only: read them as a record. */
    bool fragment = !strchr(code, '{') && !strchr(code, '(');
    if (fragment)
        docs_buf_puts(&src, "struct ddigen_fragment {\n");
    char line_dir[64];
    snprintf(line_dir, sizeof line_dir, "#line %u \"page\"\n", p->syntax.line ? p->syntax.line : 1);
    docs_buf_puts(&src, line_dir);
    docs_buf_puts(&src, code);
    if (fragment) {
        docs_buf_puts(&src, "\n};\n");
        p->syntax.fragment = true;
    }
    free(code);
    if (!shared_index)
        shared_index = clang_createIndex(0, 0);
    static const char *const args[] = {"-x", "c", "-std=c11", "-target", "x86_64-pc-windows-msvc",
                                       "-fms-extensions", "-nostdinc", "-ferror-limit=0", "-w"};
    struct CXUnsavedFile unsaved = {"ddigen-syntax.c", src.data, (unsigned long)src.len};
    CXTranslationUnit tu = NULL;
    enum CXErrorCode err = clang_parseTranslationUnit2(
        shared_index, "ddigen-syntax.c", args, sizeof args / sizeof args[0], &unsaved, 1,
        CXTranslationUnit_SkipFunctionBodies | CXTranslationUnit_KeepGoing, &tu);
    docs_buf_free(&src);
    if (err != CXError_Success || !tu) {
        p->syntax.status = "unparsed";
        docs_page_note(p, p->syntax.line, true, "libclang could not read the syntax block");
        return;
    }
    unsigned nd = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < nd; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        if (clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error) {
            if (p->syntax.clang_errors++ == 0) {
                CXString file;
                unsigned line, col;
                clang_getPresumedLocation(clang_getDiagnosticLocation(d), &file, &line, &col);
                clang_disposeString(file);
                CXString msg = clang_getDiagnosticSpelling(d);
                docs_page_note(p, line, false, "syntax block: %s", clang_getCString(msg));
                clang_disposeString(msg);
            }
        }
        clang_disposeDiagnostic(d);
    }
    struct top t = {.p = p};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), visit_top, &t);
    if (t.best_rank > 0) {
        struct visit v = {p, "", 0};
        enum CXCursorKind k = clang_getCursorKind(t.best);
        if (k == CXCursor_StructDecl || k == CXCursor_UnionDecl || k == CXCursor_EnumDecl)
            walk_record(&v, t.best, "");
        else
            clang_visitChildren(t.best, visit_params, &v);
        p->syntax.type_name = t.name;
    }
    clang_disposeTranslationUnit(tu);
    p->syntax.status = p->syntax.decls.n == 0 ? "unparsed" : p->syntax.clang_errors ? "partial" : "parsed";
    bool named = false;
    for (size_t i = 0; i < p->fields.n && !named; i++)
        named = p->fields.v[i].path[0] != '\0';
    if (p->syntax.decls.n && named)
        compare(p);
    suggest_candidates(p);
}
