/* DDI interface version discovery from macro definitions, which needs the
 * detailed preprocessing record; values are read from the macro tokens. */
#include "versions.h"

#include "../util/diag.h"

#include "../util/arena.h"
#include "../util/clang_api.h"
#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#define VERSION_PREFIX "DXGKDDI_INTERFACE_VERSION_"

struct found {
    struct arena *a;
    CXTranslationUnit tu;
    struct ddi_version items[DDI_MAX_VERSIONS * 2];
    unsigned n;
    int overflow;
};

/* The value of "0x5023", "(0x5023)" or "0x5023L"; -1 if not a literal. */
static long long macro_literal(CXTranslationUnit tu, CXCursor def)
{
    CXToken *toks;
    unsigned n;
    clang_tokenize(tu, clang_getCursorExtent(def), &toks, &n);
    long long value = -1;
    unsigned lit = 0, other = 0, at = 0;
    for (unsigned i = 1; i < n; i++) {
        CXString s = clang_getTokenSpelling(tu, toks[i]);
        const char *t = clang_getCString(s);
        if (clang_getTokenKind(toks[i]) == CXToken_Literal) {
            lit++;
            at = i;
        } else if (strcmp(t, "(") != 0 && strcmp(t, ")") != 0) {
            other++;
        }
        clang_disposeString(s);
    }
    if (lit == 1 && other == 0) {
        CXString s = clang_getTokenSpelling(tu, toks[at]);
        char *end;
        value = strtoll(clang_getCString(s), &end, 0);
        clang_disposeString(s);
    }
    clang_disposeTokens(tu, toks, n);
    return value;
}

static enum CXChildVisitResult visit_macro(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct found *f = data;
    if (c.kind != CXCursor_MacroDefinition || clang_Cursor_isMacroFunctionLike(c))
        return CXChildVisit_Continue;
    CXString s = clang_getCursorSpelling(c);
    const char *name = clang_getCString(s);
    if (strncmp(name, VERSION_PREFIX, strlen(VERSION_PREFIX)) == 0) {
        long long value = macro_literal(f->tu, c);
        if (value > 0 && value <= 0xFFFFFFFFll) {
            if (f->n == sizeof f->items / sizeof f->items[0]) {
                f->overflow = 1;
            } else {
                f->items[f->n].name = arena_strdup(f->a, name);
                f->items[f->n].value = (uint32_t)value;
                f->n++;
            }
        }
    }
    clang_disposeString(s);
    return CXChildVisit_Continue;
}

static int by_value_then_name(const void *pa, const void *pb)
{
    const struct ddi_version *a = pa, *b = pb;
    if (a->value != b->value)
        return a->value < b->value ? -1 : 1;
    return strcmp(a->name, b->name);
}

static int is_requested(const struct vec *requested, const char *name)
{
    if (!requested->len)
        return 1;
    for (size_t i = 0; i < requested->len; i++) {
        const char *r = requested->items[i];
        if (strcmp(r, name) == 0 || strcmp(r, name + strlen(VERSION_PREFIX)) == 0)
            return 1;
    }
    return 0;
}

int diag_is_fatal(CXDiagnostic d)
{
    if (clang_getDiagnosticSeverity(d) == CXDiagnostic_Fatal)
        return 1;
    /* With KeepGoing, clang reports a missing include as a plain error, but
     * the headers behind it are gone: the parse is not usable. */
    CXString text = clang_getDiagnosticSpelling(d);
    const char *t = clang_getCString(text);
    size_t n = strlen(t);
    int missing = n > 15 && strcmp(t + n - 15, " file not found") == 0;
    clang_disposeString(text);
    return missing;
}

/* An entry of dir named name, compared without case as the overlay does;
 * its full path in the arena, or NULL. */
static char *entry_in(struct arena *a, const char *dir, const char *name)
{
    const char *slash = strrchr(name, '/');
    char *parent = slash ? arena_printf(a, "%s/%.*s", dir, (int)(slash - name), name) : arena_strdup(a, dir);
    const char *leaf = slash ? slash + 1 : name;
    DIR *d = opendir(parent);
    char *found = NULL;
    for (struct dirent *e; d && !found && (e = readdir(d));)
        if (!strcasecmp(e->d_name, leaf))
            found = arena_printf(a, "%s/%s", parent, e->d_name);
    if (d)
        closedir(d);
    return found;
}

/* Why an include was not found, said at the include's file:line: a folder
 * of that name in an include folder (clang says only "not found"), or
 * where a header of that name was expected. */
static void report_missing_include(const char *file, unsigned line, const char *text,
                                   const struct extract_scope *scope)
{
    struct arena a = {0};
    const char *q1 = strchr(text, '\''), *q2 = q1 ? strchr(q1 + 1, '\'') : NULL;
    char *name = q2 ? arena_printf(&a, "%.*s", (int)(q2 - q1 - 1), q1 + 1) : NULL;
    char *folder = NULL;
    for (size_t i = 0; name && !folder && i < scope->nroots; i++) {
        char *hit = entry_in(&a, scope->roots[i], name);
        struct stat st;
        if (hit && stat(hit, &st) == 0 && S_ISDIR(st.st_mode))
            folder = hit;
    }
    /* The translation unit is ddigen's own (--wdk: ntddk.h, then
     * dispmprt.h; --header: the header): its name is no file of the user's. */
    int virtual_tu = file && !strncmp(file, "/ddigen-virtual/", 16);
    const char *by = virtual_tu ? " (included by the translation unit ddigen compiles)" : "";
    if (folder)
        ddigen_error(virtual_tu ? NULL : file, line, "#include <%s> names a folder, not a header: %s%s",
                     ddigen_quote(name), folder, by);
    else
        ddigen_error(virtual_tu ? NULL : file, line,
                     "%s: expected a header of that name in the include folders (the kit's km, km/crt, shared, um, "
                     "ucrt, and -I)%s", text, by);
    arena_free(&a);
}

static int report_fatal(CXTranslationUnit tu, const struct extract_scope *scope)
{
    int fatal = 0;
    for (unsigned i = 0, n = clang_getNumDiagnostics(tu); i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        if (diag_is_fatal(d)) {
            CXFile file;
            unsigned line, col, off;
            clang_getExpansionLocation(clang_getDiagnosticLocation(d), &file, &line, &col, &off);
            CXString fname = clang_getFileName(file);
            CXString text = clang_getDiagnosticSpelling(d);
            const char *t = clang_getCString(text);
            size_t tn = strlen(t);
            if (tn > 15 && !strcmp(t + tn - 15, " file not found"))
                report_missing_include(file ? clang_getCString(fname) : NULL, line, t, scope);
            else
                ddigen_error(file ? clang_getCString(fname) : NULL, line, "%s", t);
            clang_disposeString(fname);
            clang_disposeString(text);
            fatal = 1;
        }
        clang_disposeDiagnostic(d);
    }
    return fatal;
}

struct outside {
    const struct extract_scope *scope;
    int found;
};

static void visit_outside(CXFile file, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
    struct outside *o = data;
    CXString name = clang_getFileName(file);
    /* "km/../../x.h" names a file outside km/: compare resolved paths. */
    char resolved[PATH_MAX];
    const char *path = clang_getCString(name);
    if (path && realpath(path, resolved))
        path = resolved;
    const char *res = o->scope->resource_dir;
    size_t rn = res ? strlen(res) : 0;
    int inside = !path || depth == 0 || !strncmp(path, "/ddigen-virtual/", 16) ||
                 extract_scope_has_root(path, o->scope) || (rn && !strncmp(path, res, rn));
    if (!inside) {
        CXFile from;
        unsigned line, col, off;
        clang_getExpansionLocation(stack[0], &from, &line, &col, &off);
        CXString from_name = clang_getFileName(from);
        ddigen_error(from ? clang_getCString(from_name) : NULL, line,
                     "includes %s, which is outside the kit's include folders and -I: its declarations would "
                     "enter the layout unchecked (add its folder with -I if it belongs to the build)", path);
        clang_disposeString(from_name);
        o->found = 1;
    }
    clang_disposeString(name);
}

/* Every header the translation unit opened lies in the kit's folders, the
 * user's -I or clang's own: an include that resolves elsewhere (a path that
 * climbs out of the kit) is reported. */
static int report_outside_includes(CXTranslationUnit tu, const struct extract_scope *scope)
{
    struct outside o = {scope, 0};
    clang_getInclusions(tu, visit_outside, &o);
    return o.found;
}

static int check_requested_exist(const struct vec *requested, const struct found *f)
{
    int rc = 0;
    for (size_t i = 0; i < requested->len; i++) {
        int ok = 0;
        for (unsigned j = 0; j < f->n && !ok; j++) {
            struct vec one = {.items = &requested->items[i], .len = 1};
            ok = is_requested(&one, f->items[j].name);
        }
        if (!ok) {
            ddigen_error(NULL, 0, "unknown DDI version '%s': the headers define no such DXGKDDI_INTERFACE_VERSION_*",
                         ddigen_quote(requested->items[i]));
            rc = -1;
        }
    }
    return rc;
}

/* Sorted by value; the first name of each value is kept, the rest become
 * its aliases so the spec never parses the same configuration twice. */
static void store_versions(struct found *f, const struct vec *requested, struct ddi_layout *out)
{
    if (f->n > 1) /* none found: items is NULL, which qsort may not get */
        qsort(f->items, f->n, sizeof f->items[0], by_value_then_name);
    for (unsigned i = 0; i < f->n; i++) {
        if (!is_requested(requested, f->items[i].name))
            continue;
        struct ddi_version *last = out->nversions ? &out->versions[out->nversions - 1] : NULL;
        if (last && last->value == f->items[i].value) {
            const char *short_name = f->items[i].name;
            last->aliases = last->aliases ? arena_printf(&out->arena, "%s %s", last->aliases, short_name)
                                          : arena_strdup(&out->arena, short_name);
            continue;
        }
        if (out->nversions == DDI_MAX_VERSIONS)
            break;
        out->versions[out->nversions].name = arena_strdup(&out->arena, f->items[i].name);
        out->versions[out->nversions].value = f->items[i].value;
        out->nversions++;
    }
}

int discover_prefix(CXTranslationUnit tu, const struct extract_scope *scope, struct sal_index *sal)
{
    if (report_outside_includes(tu, scope))
        return -1;
    if (sal)
        sal_index_build(sal, tu, extract_scope_has_root, scope);
    return 0;
}

int discover_versions(const char *main_name, const char *main_text, struct vec *args, int on_pch,
                      const struct vec *requested, const struct extract_scope *scope, struct sal_index *sal,
                      struct ddi_layout *out)
{
    /* On a PCH, only the body's own declarations and macros are visited:
     * the prefix's were indexed from its own parse, in order. */
    CXIndex index = clang_createIndex(on_pch, 0);
    struct CXUnsavedFile file = {main_name, main_text, (unsigned long)strlen(main_text)};
    CXTranslationUnit tu = NULL;
    enum CXErrorCode err = clang_parseTranslationUnit2(
        index, main_name, (const char *const *)args->items, (int)args->len, &file, 1,
        CXTranslationUnit_DetailedPreprocessingRecord | CXTranslationUnit_SkipFunctionBodies |
            CXTranslationUnit_KeepGoing,
        &tu);
    if (err != CXError_Success || !tu) {
        ddigen_error(NULL, 0, "libclang could not parse the translation unit (error %d)", (int)err);
        clang_disposeIndex(index);
        return -1;
    }
    int rc = report_fatal(tu, scope) ? -1 : 0;
    if (rc == 0 && report_outside_includes(tu, scope))
        rc = -1;
    struct arena scratch = {0};
    struct found *f = calloc(1, sizeof *f);
    f->a = &scratch;
    f->tu = tu;
    if (rc == 0) {
        clang_visitChildren(clang_getTranslationUnitCursor(tu), visit_macro, f);
        rc = check_requested_exist(requested, f);
    }
    if (rc == 0 && sal)
        sal_index_build(sal, tu, extract_scope_has_root, scope);
    if (rc == 0 && f->n) {
        store_versions(f, requested, out);
    } else if (rc == 0) {
        /* Headers without DDI versions (--header on something else): one
         * configuration per architecture, as the headers come. */
        out->versions[0].name = "DEFAULT";
        out->versions[0].value = 0;
        out->nversions = 1;
    }
    free(f);
    arena_free(&scratch);
    clang_disposeTranslationUnit(tu);
    clang_disposeIndex(index);
    return rc;
}
