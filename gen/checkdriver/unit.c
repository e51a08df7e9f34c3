/* Scanning one driver source with libclang: the AST gives canonical
 * signatures and what is assigned to the init data; SAL, PAGED_CODE() and
 * the code-segment pragmas are tokens (they expand to nothing or are not
 * in the AST), read through the header stage's SAL index (header/sal.h). */
#include "unit.h"

#include "segments.h"

#include "../header/sal.h"
#include "../util/clang_api.h"
#include "../util/diag.h"

#include <string.h>

struct scan {
    struct cd_unit *unit;
    struct ddi_side *ddi;
    CXTranslationUnit tu;
    struct sal_index sal;
    struct segment_index segments;
    const char *kit_root; /* definitions under it are the kit's, not the driver's */
};

static const char *string_of(struct arena *a, CXString s)
{
    const char *out = arena_strdup(a, clang_getCString(s));
    clang_disposeString(s);
    return out ? out : "";
}

static struct cd_loc location_of(struct arena *a, CXCursor c)
{
    CXFile file;
    unsigned line, column, offset;
    clang_getExpansionLocation(clang_getCursorLocation(c), &file, &line, &column, &offset);
    struct cd_loc at = {file ? string_of(a, clang_getFileName(file)) : "", line, column};
    return at;
}

/* The file and offset where a cursor's name is spelled (for its tokens). */
static const struct source_tokens *tokens_at(const struct scan *s, CXSourceLocation loc, unsigned *offset)
{
    CXFile file;
    unsigned line, column;
    clang_getSpellingLocation(loc, &file, &line, &column, offset);
    if (!file)
        return NULL;
    CXString name = clang_getFileName(file);
    const struct source_tokens *t = sal_index_file(&s->sal, clang_getCString(name));
    clang_disposeString(name);
    return t;
}

static void signature_of(struct arena *a, CXType fn, struct cd_signature *sig)
{
    /* Canonical: typedefs resolved and top-level qualifiers of parameters
     * gone, as the language compares function types. */
    CXType t = clang_getCanonicalType(fn);
    sig->result = string_of(a, clang_getTypeSpelling(clang_getCanonicalType(clang_getResultType(t))));
    sig->callconv = (int)clang_getFunctionTypeCallingConv(t);
    int n = clang_getNumArgTypes(t);
    sig->nparams = n > 0 ? (unsigned)n : 0;
    sig->params = arena_alloc(a, (sig->nparams + 1) * sizeof *sig->params);
    for (unsigned i = 0; i < sig->nparams; i++)
        sig->params[i] = string_of(a, clang_getTypeSpelling(clang_getCanonicalType(clang_getArgType(t, i))));
}

static const char *qualified_name(struct arena *a, CXCursor fn)
{
    const char *name = string_of(a, clang_getCursorSpelling(fn));
    for (CXCursor p = clang_getCursorSemanticParent(fn); !clang_Cursor_isNull(p) && p.kind != CXCursor_TranslationUnit;
         p = clang_getCursorSemanticParent(p)) {
        if (p.kind != CXCursor_Namespace && p.kind != CXCursor_ClassDecl && p.kind != CXCursor_StructDecl &&
            p.kind != CXCursor_ClassTemplate)
            continue; /* extern "C" { } names nothing */
        const char *outer = string_of(a, clang_getCursorSpelling(p));
        if (*outer)
            name = arena_concat(a, outer, "::", name, (char *)NULL);
    }
    return name;
}

static void add_binding(struct scan *s, CXCursor fn, const struct ddi_role *role, CXCursor where)
{
    struct cd_binding *b = arena_alloc(&s->unit->arena, sizeof *b);
    b->function = qualified_name(&s->unit->arena, fn);
    b->role = role->ft->name;
    b->at = location_of(&s->unit->arena, where);
    vec_push(&s->unit->bindings, b);
}

/* ---------- roles from the AST ---------- */

static const char *const init_records[] = {"_DRIVER_INITIALIZATION_DATA", "DRIVER_INITIALIZATION_DATA",
                                           "_KMDDOD_INITIALIZATION_DATA", "KMDDOD_INITIALIZATION_DATA"};

static CXCursor first_child(CXCursor c, unsigned *count);

/* Implicit casts and parentheses around an expression. */
static CXCursor unwrapped(CXCursor c)
{
    unsigned n;
    while (c.kind == CXCursor_UnexposedExpr || c.kind == CXCursor_ParenExpr) {
        CXCursor inner = first_child(c, &n);
        if (n != 1)
            break;
        c = inner;
    }
    return c;
}

/* The role of an init-data member an expression names, or NULL. */
static const struct ddi_role *init_member_role(struct scan *s, CXCursor c)
{
    c = unwrapped(c);
    if (c.kind != CXCursor_MemberRefExpr && c.kind != CXCursor_MemberRef)
        return NULL;
    CXCursor field = clang_getCursorReferenced(c);
    if (field.kind != CXCursor_FieldDecl)
        return NULL;
    CXString record = clang_getCursorSpelling(clang_getCursorSemanticParent(field));
    int is_init = 0;
    for (size_t i = 0; i < sizeof init_records / sizeof init_records[0]; i++)
        is_init |= !strcmp(clang_getCString(record), init_records[i]);
    clang_disposeString(record);
    if (!is_init)
        return NULL;
    CXString type = clang_getTypeSpelling(clang_getCursorType(field));
    const struct ddi_role *role = ddi_side_role(s->ddi, clang_getCString(type));
    clang_disposeString(type);
    return role;
}

struct children {
    CXCursor items[3];
    unsigned count;
};

static enum CXChildVisitResult collect_child(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct children *ch = data;
    if (ch->count < 3)
        ch->items[ch->count] = c;
    ch->count++;
    return CXChildVisit_Continue;
}

static CXCursor first_child(CXCursor c, unsigned *count)
{
    struct children ch = {{{0}}, 0};
    clang_visitChildren(c, collect_child, &ch);
    *count = ch.count;
    return ch.count ? ch.items[0] : clang_getNullCursor();
}

static enum CXChildVisitResult find_function(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    CXCursor *found = data;
    if (c.kind == CXCursor_DeclRefExpr) {
        CXCursor ref = clang_getCursorReferenced(c);
        if (ref.kind == CXCursor_FunctionDecl || ref.kind == CXCursor_CXXMethod) {
            found[0] = ref;
            found[1] = c;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Recurse;
}

/* Init.DxgkDdiPatch = HwPatch (an assignment: its type is the member's
 * pointer type, where a comparison's is int) or .DxgkDdiPatch = HwPatch in
 * an initialiser list (libclang shows the designator as a MemberRef). */
static void try_binding(struct scan *s, CXCursor c)
{
    struct children ch = {{{0}}, 0};
    clang_visitChildren(c, collect_child, &ch);
    if (ch.count != 2)
        return;
    const struct ddi_role *role = init_member_role(s, ch.items[0]);
    if (!role)
        return;
    CXCursor found[2] = {clang_getNullCursor(), clang_getNullCursor()};
    if (ch.items[1].kind == CXCursor_DeclRefExpr)
        find_function(ch.items[1], c, found);
    else
        clang_visitChildren(ch.items[1], find_function, found);
    if (!clang_Cursor_isNull(found[0]))
        add_binding(s, found[0], role, found[1]);
}

static enum CXChildVisitResult visit_expr(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (c.kind == CXCursor_BinaryOperator) {
        if (clang_getCanonicalType(clang_getCursorType(c)).kind == CXType_Pointer)
            try_binding(data, c);
    } else if (c.kind == CXCursor_UnexposedExpr) {
        try_binding(data, c);
    }
    return CXChildVisit_Recurse;
}

/* The first child of a function declaration after its attributes
 * (__declspec(code_seg("PAGE")) comes first): the typedef it was declared
 * through (a TypeRef to a TypedefDecl of a function type), else null. */
static enum CXChildVisitResult first_typedef_ref(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (c.kind >= CXCursor_FirstAttr && c.kind <= CXCursor_LastAttr)
        return CXChildVisit_Continue;
    if (c.kind == CXCursor_TypeRef) {
        CXCursor decl = clang_getCursorReferenced(c);
        CXType under = decl.kind == CXCursor_TypedefDecl
                           ? clang_getCanonicalType(clang_getTypedefDeclUnderlyingType(decl))
                           : (CXType){.kind = CXType_Invalid};
        if (under.kind == CXType_FunctionProto || under.kind == CXType_FunctionNoProto)
            *(CXCursor *)data = decl;
    }
    return CXChildVisit_Break;
}

/* DXGKDDI_PATCH HwPatch; : a declaration through the role typedef. The
 * declaration's type is the typedef, except where libclang gives the
 * rebuilt prototype without the sugar: d3dkmddi.h's APIENTRY typedefs
 * (`DXGKDDI_QUERYADAPTERINFO F;` on x86 and x64 alike, where dispmprt.h's
 * keep theirs), so a driver that declares its callbacks only that way,
 * as ddi_skeleton_driver.h does, had them unchecked. The typedef is then
 * the spelled type name, the declaration's first child. */
static void note_role_declaration(struct scan *s, CXCursor c)
{
    CXType t = clang_getCursorType(c);
    if (t.kind == CXType_Elaborated)
        t = clang_Type_getNamedType(t);
    CXCursor typedef_decl = clang_getNullCursor();
    if (t.kind == CXType_Typedef)
        typedef_decl = clang_getTypeDeclaration(t);
    else
        clang_visitChildren(c, first_typedef_ref, &typedef_decl);
    if (clang_Cursor_isNull(typedef_decl))
        return;
    CXString name = clang_getCursorSpelling(typedef_decl);
    const struct ddi_role *role = ddi_side_role(s->ddi, clang_getCString(name));
    clang_disposeString(name);
    if (role)
        add_binding(s, c, role, c);
}

/* typedef NTSTATUS APIENTRY DXGKDDI_PATCH(...): the DDI's signature as
 * this unit spells canonical types. */
static void note_role_typedef(struct scan *s, CXCursor c)
{
    CXString name = clang_getCursorSpelling(c);
    const struct ddi_role *role = ddi_side_role(s->ddi, clang_getCString(name));
    int is_function_typedef = role && !strcmp(role->ft->name, clang_getCString(name));
    clang_disposeString(name);
    if (!is_function_typedef || strmap_get(&s->unit->role_sigs, role->ft->name))
        return;
    struct cd_signature *sig = arena_alloc(&s->unit->arena, sizeof *sig);
    signature_of(&s->unit->arena, clang_getTypedefDeclUnderlyingType(c), sig);
    sig->at = location_of(&s->unit->arena, c);
    strmap_put(&s->unit->role_sigs, role->ft->name, sig);
}

/* ---------- definitions ---------- */

static int in_kit(const struct scan *s, CXCursor c)
{
    CXSourceLocation loc = clang_getCursorLocation(c);
    if (clang_Location_isInSystemHeader(loc))
        return 1;
    if (!s->kit_root)
        return 0;
    CXFile file;
    clang_getExpansionLocation(loc, &file, NULL, NULL, NULL);
    if (!file)
        return 1;
    CXString name = clang_getFileName(file);
    int under = !strncmp(clang_getCString(name), s->kit_root, strlen(s->kit_root));
    clang_disposeString(name);
    return under;
}

static void note_params(struct scan *s, CXCursor fn, struct cd_definition *d)
{
    int n = clang_Cursor_getNumArguments(fn);
    unsigned count = n > 0 ? (unsigned)n : 0;
    d->params = arena_alloc(&s->unit->arena, (count + 1) * sizeof *d->params);
    for (unsigned i = 0; i < count; i++) {
        CXCursor p = clang_Cursor_getArgument(fn, i);
        struct cd_param *param = &d->params[i];
        param->name = string_of(&s->unit->arena, clang_getCursorSpelling(p));
        param->at = location_of(&s->unit->arena, p);
        unsigned offset;
        const struct source_tokens *t = tokens_at(s, clang_getCursorLocation(p), &offset);
        param->sal = t && *param->name ? sal_before(&s->unit->arena, &s->sal, t, offset) : NULL;
    }
}

static int has_token(const struct source_tokens *t, unsigned from, unsigned to, const char *word)
{
    for (unsigned i = 0; t && i < t->count && t->offsets[i] < to; i++)
        if (t->offsets[i] >= from && !t->in_directive[i] && !strcmp(t->text[i], word))
            return 1;
    return 0;
}

static void note_definition(struct scan *s, CXCursor fn)
{
    struct cd_definition *d = arena_alloc(&s->unit->arena, sizeof *d);
    d->unit = s->unit;
    d->function = qualified_name(&s->unit->arena, fn);
    d->at = location_of(&s->unit->arena, fn);
    signature_of(&s->unit->arena, clang_getCursorType(fn), &d->sig);
    d->sig.at = d->at;
    note_params(s, fn, d);
    unsigned name_offset, begin, end;
    const struct source_tokens *t = tokens_at(s, clang_getCursorLocation(fn), &name_offset);
    CXSourceRange extent = clang_getCursorExtent(fn);
    tokens_at(s, clang_getRangeStart(extent), &begin);
    tokens_at(s, clang_getRangeEnd(extent), &end);
    const char *sal = t ? sal_before(&s->unit->arena, &s->sal, t, name_offset) : NULL;
    d->use_decl_annotations = sal && strstr(sal, "_Use_decl_annotations_");
    d->paged_code = has_token(t, name_offset, end, "PAGED_CODE");
    CXString plain = clang_getCursorSpelling(fn);
    d->segment =
        segment_of(&s->segments, &s->unit->arena, t, clang_getCString(plain), begin, name_offset, &d->segment_how);
    clang_disposeString(plain);
    vec_push(&s->unit->definitions, d);
}

static enum CXChildVisitResult visit_decl(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct scan *s = data;
    switch (c.kind) {
    case CXCursor_Namespace:
    case CXCursor_LinkageSpec:
    case CXCursor_UnexposedDecl:
    case CXCursor_ClassDecl:
    case CXCursor_StructDecl: return CXChildVisit_Recurse;
    case CXCursor_TypedefDecl: note_role_typedef(s, c); return CXChildVisit_Continue;
    case CXCursor_FunctionDecl:
    case CXCursor_CXXMethod:
        if (!clang_isCursorDefinition(c)) {
            note_role_declaration(s, c);
        } else if (!in_kit(s, c)) {
            note_definition(s, c);
            clang_visitChildren(c, visit_expr, s);
        }
        return CXChildVisit_Continue;
    case CXCursor_VarDecl:
        if (!in_kit(s, c))
            clang_visitChildren(c, visit_expr, s);
        return CXChildVisit_Continue;
    default: return CXChildVisit_Continue;
    }
}

/* ---------- parsing ---------- */

/* clang's errors at their own file:line:col; 1 when there was one. */
static int report_errors(CXTranslationUnit tu)
{
    int failed = 0;
    for (unsigned i = 0, n = clang_getNumDiagnostics(tu); i < n; i++) {
        CXDiagnostic diag = clang_getDiagnostic(tu, i);
        enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(diag);
        if (sev >= CXDiagnostic_Error) {
            CXFile file;
            unsigned line, column;
            clang_getExpansionLocation(clang_getDiagnosticLocation(diag), &file, &line, &column, NULL);
            CXString fname = file ? clang_getFileName(file) : (CXString){0};
            CXString text = clang_getDiagnosticSpelling(diag);
            ddigen_report_foreign(DDIGEN_ERROR, sev == CXDiagnostic_Fatal ? "fatal error" : "error",
                                  file ? clang_getCString(fname) : NULL, line, column, "%s", clang_getCString(text));
            clang_disposeString(text);
            if (file)
                clang_disposeString(fname);
            failed = 1;
        }
        clang_disposeDiagnostic(diag);
    }
    return failed;
}

static int every_file(const char *path, const void *ctx)
{
    (void)path;
    (void)ctx;
    return 1; /* the kit's files too: their macros and typedefs carry SAL (IN_CONST_HANDLE) */
}

int cd_unit_scan(struct cd_unit *unit, struct ddi_side *ddi, const char *source, const char *kit_root,
                 const char *const *args, int nargs)
{
    memset(unit, 0, sizeof *unit);
    unit->source = source;
    CXIndex index = clang_createIndex(0, 0);
    CXTranslationUnit tu = NULL;
    enum CXErrorCode ec = clang_parseTranslationUnit2(index, NULL, args, nargs, NULL, 0,
                                                      CXTranslationUnit_DetailedPreprocessingRecord, &tu);
    int rc = 0;
    if (ec != CXError_Success || !tu) {
        ddigen_error(source, 0, "libclang could not parse this source (error %d): is it readable?", (int)ec);
        rc = -1;
    } else if (report_errors(tu)) {
        ddigen_error(source, 0, "does not compile with the flags given; nothing checked");
        rc = 1;
    } else {
        struct scan s = {.unit = unit, .ddi = ddi, .tu = tu, .kit_root = kit_root};
        sal_index_build(&s.sal, tu, every_file, NULL);
        segment_index_init(&s.segments, tu, &s.sal);
        clang_visitChildren(clang_getTranslationUnitCursor(tu), visit_decl, &s);
        segment_index_free(&s.segments);
        sal_index_free(&s.sal);
    }
    if (tu)
        clang_disposeTranslationUnit(tu);
    clang_disposeIndex(index);
    return rc;
}

void cd_unit_free(struct cd_unit *unit)
{
    vec_free(&unit->bindings);
    vec_free(&unit->definitions);
    strmap_free(&unit->role_sigs);
    arena_free(&unit->arena);
}
