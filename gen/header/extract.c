/* libclang AST walk for one configuration. Offsets are queried on canonical
 * types (typedef types give -1); anonymous members are found with
 * clang_Cursor_isAnonymousRecordDecl; clang 16's Elaborated wrappers are
 * looked through by always going to the canonical type's declaration. */
#include "extract.h"

#include "../util/strmap.h"
#include "../util/strbuf.h"
#include "sal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NESTING 32 /* bounded recursion through inline records */
#define MAX_FILES 4096

struct file_info {
    CXFile file;
    const char *relative;
    int in_scope;
};

struct walker {
    CXTranslationUnit tu;
    const struct extract_scope *scope;
    struct cfg_model *m;
    struct arena *a;
    struct strmap typedef_of;   /* USR of a record/enum decl -> its typedef name */
    struct strmap done;         /* record/enum name -> already extracted */
    struct strmap sal_macros;   /* macro name -> SAL text */
    struct vec wanted;          /* CXCursor* of records referenced from in-scope ones */
    struct file_info files[MAX_FILES];
    unsigned nfiles;
};

static char *take(struct arena *a, CXString s)
{
    char *copy = arena_strdup(a, clang_getCString(s));
    clang_disposeString(s);
    return copy;
}

static const char *relative_name(struct walker *w, const char *abs)
{
    size_t best = 0;
    for (size_t i = 0; i < w->scope->nroots; i++) {
        size_t n = strlen(w->scope->roots[i]);
        if (n > best && strncmp(abs, w->scope->roots[i], n) == 0 && abs[n] == '/')
            best = n;
    }
    return arena_strdup(w->a, best ? abs + best + 1 : abs);
}

static int basename_in_scope(const struct extract_scope *scope, const char *path)
{
    if (!scope->nfiles)
        return 1;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    for (size_t i = 0; i < scope->nfiles; i++)
        if (strcasecmp(base, scope->files[i]) == 0)
            return 1;
    return 0;
}

static struct file_info *file_of(struct walker *w, CXCursor c, unsigned *line)
{
    CXFile file;
    unsigned col, off;
    clang_getExpansionLocation(clang_getCursorLocation(c), &file, line, &col, &off);
    if (!file)
        return NULL;
    for (unsigned i = 0; i < w->nfiles; i++)
        if (w->files[i].file == file)
            return &w->files[i];
    if (w->nfiles == MAX_FILES)
        return NULL;
    struct file_info *fi = &w->files[w->nfiles++];
    fi->file = file;
    CXString name = clang_getFileName(file);
    fi->relative = relative_name(w, clang_getCString(name));
    fi->in_scope = basename_in_scope(w->scope, clang_getCString(name));
    clang_disposeString(name);
    return fi;
}

static unsigned source_offset(CXCursor c)
{
    CXFile file;
    unsigned line, col, off;
    clang_getExpansionLocation(clang_getCursorLocation(c), &file, &line, &col, &off);
    return off;
}

static int cursor_in_scope(struct walker *w, CXCursor c)
{
    unsigned line;
    struct file_info *fi = file_of(w, c, &line);
    return fi && fi->in_scope;
}

/* Drops " at /abs/path:l:c" from clang's names of unnamed types, which would
 * otherwise put this machine's paths into the spec. */
static const char *sanitize_type(struct arena *a, const char *s)
{
    if (!strstr(s, " at "))
        return s;
    struct strbuf sb = {0};
    while (*s) {
        const char *open = strstr(s, "(anonymous ");
        const char *open2 = strstr(s, "(unnamed ");
        if (!open || (open2 && open2 < open))
            open = open2;
        if (!open) {
            sb_append(&sb, s);
            break;
        }
        const char *at = strstr(open, " at ");
        const char *close = at ? strchr(at, ')') : NULL;
        if (!close) {
            sb_append(&sb, s);
            break;
        }
        sb_appendn(&sb, s, (size_t)(at - s));
        sb_append(&sb, ")");
        s = close + 1;
    }
    const char *out = arena_strdup(a, sb_str(&sb));
    sb_free(&sb);
    return out;
}

static int is_record_kind(enum CXCursorKind k)
{
    return k == CXCursor_StructDecl || k == CXCursor_UnionDecl;
}

/* A tag with no name of its own (clang 14 spells it "", clang 16 spells it
 * "(unnamed struct at ...)" or "struct (anonymous at ...)"). */
static int is_unnamed_tag(const char *spelling)
{
    return !spelling[0] || strchr(spelling, '(') || strchr(spelling, ' ');
}

static const char *usr_of(struct walker *w, CXCursor c)
{
    return take(w->a, clang_getCursorUSR(c));
}

/* The name a record or enum is known by: its typedef, else its tag. */
static const char *decl_name(struct walker *w, CXCursor decl, const char **tag_out)
{
    const char *tag = take(w->a, clang_getCursorSpelling(decl));
    if (is_unnamed_tag(tag))
        tag = NULL;
    if (tag_out)
        *tag_out = tag;
    const char *td = strmap_get(&w->typedef_of, usr_of(w, decl));
    return td ? td : tag;
}

/* --- records ---------------------------------------------------------- */

struct record_ctx {
    struct walker *w;
    struct cfg_record *rec;
    const char *top;            /* name of the top-level record */
    const char *path_prefix;    /* designator prefix ("Transfer." or "") */
    uint64_t base_bits;         /* offset of this record in the top-level one */
    const struct token_run *tokens;
    unsigned anon_count[2];     /* numbering of anonymous structs / unions */
    int depth;
};

static struct cfg_record *extract_record(struct walker *w, CXCursor decl, const char *name, const char *top,
                                         const char *path_prefix, uint64_t base_bits,
                                         const struct token_run *tokens, int depth);

static const char *field_sal(struct walker *w, const struct token_run *tokens, CXCursor field)
{
    if (!tokens || !tokens->count)
        return NULL;
    CXFile file;
    unsigned line, col, off;
    clang_getSpellingLocation(clang_getCursorLocation(field), &file, &line, &col, &off);
    if (file != tokens->file)
        return NULL;
    int at = token_run_find(tokens, off);
    if (at < 0)
        return NULL;
    /* Back to the previous declarator boundary, skipping SAL arguments:
     * _When_(a, b) has a comma and _In_reads_(n) parentheses of its own. */
    int begin = at, depth = 0;
    while (begin > 0) {
        CXString s = clang_getTokenSpelling(tokens->tu, tokens->tokens[begin - 1]);
        const char *t = clang_getCString(s);
        if (!strcmp(t, ")"))
            depth++;
        int stop = depth == 0 && (!strcmp(t, ";") || !strcmp(t, "{") || !strcmp(t, "}") || !strcmp(t, ",") ||
                                  !strcmp(t, "("));
        if (!strcmp(t, "(") && depth > 0)
            depth--;
        clang_disposeString(s);
        if (stop)
            break;
        begin--;
    }
    return sal_collect(w->a, tokens, begin, at, &w->sal_macros);
}

/* Array extents ("64", "2 3") and the element type under them. */
static CXType strip_arrays(struct walker *w, CXType t, const char **extents)
{
    struct strbuf sb = {0};
    while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray) {
        if (sb.len)
            sb_append(&sb, " ");
        if (t.kind == CXType_ConstantArray)
            sb_printf(&sb, "%lld", (long long)clang_getArraySize(t));
        else
            sb_append(&sb, "flexible");
        t = clang_getArrayElementType(t);
    }
    *extents = sb.len ? arena_strdup(w->a, sb.data) : NULL;
    sb_free(&sb);
    return t;
}

/* Queues a record referenced by a field so that the spec has its layout too. */
static void want_type(struct walker *w, CXType t)
{
    for (int guard = 0; guard < 8; guard++) {
        t = clang_getCanonicalType(t);
        if (t.kind == CXType_Pointer)
            t = clang_getPointeeType(t);
        else if (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray)
            t = clang_getArrayElementType(t);
        else
            break;
    }
    CXCursor decl = clang_getTypeDeclaration(clang_getCanonicalType(t));
    if (!is_record_kind(decl.kind) && decl.kind != CXCursor_EnumDecl)
        return;
    CXCursor *copy = arena_alloc(w->a, sizeof *copy);
    *copy = decl;
    vec_push(&w->wanted, copy);
}

static int is_inline_record(struct walker *w, CXCursor decl)
{
    if (!is_record_kind(decl.kind))
        return 0;
    const char *tag;
    return decl_name(w, decl, &tag) == NULL;
}

static void add_field(struct record_ctx *ctx, CXCursor c)
{
    struct walker *w = ctx->w;
    struct cfg_field *f = arena_alloc(w->a, sizeof *f);
    f->name = take(w->a, clang_getCursorSpelling(c));
    f->path = arena_printf(w->a, "%s%s", ctx->path_prefix, f->name);
    file_of(w, c, &f->line);
    f->source_offset = source_offset(c);
    long long off = clang_Cursor_getOffsetOfField(c);
    f->offset_bits = ctx->base_bits + (off > 0 ? (uint64_t)off : 0);
    f->bit_width = clang_Cursor_isBitField(c) ? clang_getFieldDeclBitWidth(c) : -1;
    f->sal = field_sal(w, ctx->tokens, c);

    CXType t = strip_arrays(w, clang_getCursorType(c), &f->array);
    CXCursor decl = clang_getTypeDeclaration(clang_getCanonicalType(t));
    if (is_inline_record(w, decl) && ctx->depth < MAX_NESTING) {
        /* Named like the docs do: Top.Member.Sub, anonymous levels skipped. */
        const char *name = arena_printf(w->a, "%s.%s", ctx->top, f->path);
        f->nested = extract_record(w, decl, name, ctx->top, arena_printf(w->a, "%s.", f->path), f->offset_bits,
                                   ctx->tokens, ctx->depth + 1);
        f->type = f->nested->kind;
        f->canonical = arena_printf(w->a, "%s %s", f->nested->kind, name);
    } else {
        f->type = sanitize_type(w->a, take(w->a, clang_getTypeSpelling(t)));
        f->canonical = sanitize_type(w->a, take(w->a, clang_getTypeSpelling(clang_getCanonicalType(t))));
        want_type(w, t);
    }
    vec_push(&ctx->rec->fields, f);
}

/* The first named field below an anonymous member, and its offset inside it. */
static int first_named_field(CXCursor rec, CXCursor *out, long long *inner, int depth);

struct first_named {
    CXCursor found;
    long long inner;
    int ok, depth;
};

static enum CXChildVisitResult first_named_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct first_named *fn = data;
    if (c.kind == CXCursor_FieldDecl) {
        fn->found = c;
        fn->inner = clang_Cursor_getOffsetOfField(c);
        fn->ok = 1;
        return CXChildVisit_Break;
    }
    if (is_record_kind(c.kind) && clang_Cursor_isAnonymousRecordDecl(c) && fn->depth < MAX_NESTING) {
        CXCursor inner;
        long long off;
        if (first_named_field(c, &inner, &off, fn->depth + 1)) {
            fn->found = inner;
            fn->inner = off;
            fn->ok = 1;
            return CXChildVisit_Break;
        }
    }
    return CXChildVisit_Continue;
}

static int first_named_field(CXCursor rec, CXCursor *out, long long *inner, int depth)
{
    struct first_named fn = {.depth = depth};
    clang_visitChildren(rec, first_named_visit, &fn);
    if (!fn.ok)
        return 0;
    CXType rt = clang_getCanonicalType(clang_getCursorType(rec));
    CXString nm = clang_getCursorSpelling(fn.found);
    long long in_rec = clang_Type_getOffsetOf(rt, clang_getCString(nm));
    clang_disposeString(nm);
    *out = fn.found;
    *inner = in_rec >= 0 ? in_rec : fn.inner;
    return 1;
}

static void add_anonymous_member(struct record_ctx *ctx, CXCursor decl)
{
    struct walker *w = ctx->w;
    uint64_t offset = 0;
    CXCursor first;
    long long inner;
    if (first_named_field(decl, &first, &inner, 0)) {
        CXType parent_t = clang_getCanonicalType(clang_getCursorType(clang_getCursorSemanticParent(decl)));
        CXString nm = clang_getCursorSpelling(first);
        long long in_parent = clang_Type_getOffsetOf(parent_t, clang_getCString(nm));
        clang_disposeString(nm);
        if (in_parent >= 0 && in_parent >= inner)
            offset = (uint64_t)(in_parent - inner);
    }
    int is_union = decl.kind == CXCursor_UnionDecl;
    unsigned n = ++ctx->anon_count[is_union];
    const char *label = n == 1 ? arena_printf(w->a, "(unnamed %s)", is_union ? "union" : "struct")
                               : arena_printf(w->a, "(unnamed %s %u)", is_union ? "union" : "struct", n);

    struct cfg_field *f = arena_alloc(w->a, sizeof *f);
    f->name = "";
    f->path = ctx->path_prefix[0] ? arena_strndup(w->a, ctx->path_prefix, strlen(ctx->path_prefix) - 1) : "";
    file_of(w, decl, &f->line);
    f->source_offset = source_offset(decl);
    f->offset_bits = ctx->base_bits + offset;
    f->bit_width = -1;
    if (ctx->depth < MAX_NESTING) {
        const char *name = arena_printf(w->a, "%s.%s", ctx->rec->name, label);
        f->nested = extract_record(w, decl, name, ctx->top, ctx->path_prefix, f->offset_bits, ctx->tokens,
                                   ctx->depth + 1);
        f->nested->anonymous = 1;
        f->type = f->nested->kind;
        f->canonical = arena_printf(w->a, "%s %s", f->nested->kind, name);
    }
    vec_push(&ctx->rec->fields, f);
}

/* A record read back from a PCH lists an anonymous member's declaration
 * and the fields around it in another order than a fresh parse: order by
 * where they are declared (insertion sort: stable, and records are small). */
static void sort_by_declaration(struct vec *fields)
{
    for (size_t i = 1; i < fields->len; i++) {
        struct cfg_field *f = fields->items[i];
        size_t j = i;
        while (j > 0 && ((struct cfg_field *)fields->items[j - 1])->source_offset > f->source_offset) {
            fields->items[j] = fields->items[j - 1];
            j--;
        }
        fields->items[j] = f;
    }
}

static enum CXChildVisitResult record_child(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct record_ctx *ctx = data;
    if (c.kind == CXCursor_FieldDecl)
        add_field(ctx, c);
    else if (is_record_kind(c.kind) && clang_Cursor_isAnonymousRecordDecl(c))
        add_anonymous_member(ctx, c);
    return CXChildVisit_Continue;
}

static struct cfg_record *extract_record(struct walker *w, CXCursor decl, const char *name, const char *top,
                                         const char *path_prefix, uint64_t base_bits,
                                         const struct token_run *tokens, int depth)
{
    struct cfg_record *r = arena_alloc(w->a, sizeof *r);
    r->name = name;
    const char *tag = take(w->a, clang_getCursorSpelling(decl));
    r->tag = is_unnamed_tag(tag) ? NULL : tag;
    r->kind = decl.kind == CXCursor_UnionDecl ? "union" : "struct";
    struct file_info *fi = file_of(w, decl, &r->line);
    r->file = fi ? fi->relative : "";
    CXType t = clang_getCanonicalType(clang_getCursorType(decl));
    long long size = clang_Type_getSizeOf(t), align = clang_Type_getAlignOf(t);
    r->size = size > 0 ? (uint64_t)size : 0;
    r->align = align > 0 ? (uint64_t)align : 0;

    struct token_run own = {0};
    if (!tokens) {
        token_run_init(&own, w->tu, clang_getCursorExtent(decl));
        tokens = &own;
    }
    struct record_ctx ctx = {w, r, top ? top : name, path_prefix, base_bits, tokens, {0, 0}, depth};
    clang_visitChildren(decl, record_child, &ctx);
    sort_by_declaration(&r->fields);
    if (tokens == &own)
        token_run_dispose(&own);
    return r;
}

/* --- enums, typedefs, function typedefs ---------------------------------- */

static enum CXChildVisitResult enum_child(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct walker *w = ((void **)data)[0];
    struct cfg_enum *e = ((void **)data)[1];
    if (c.kind != CXCursor_EnumConstantDecl)
        return CXChildVisit_Continue;
    struct cfg_enumerator *v = arena_alloc(w->a, sizeof *v);
    v->name = take(w->a, clang_getCursorSpelling(c));
    v->value = clang_getEnumConstantDeclValue(c);
    vec_push(&e->values, v);
    return CXChildVisit_Continue;
}

static void extract_enum(struct walker *w, CXCursor decl, const char *name, const char *tag)
{
    struct cfg_enum *e = arena_alloc(w->a, sizeof *e);
    e->name = name;
    e->tag = tag;
    struct file_info *fi = file_of(w, decl, &e->line);
    e->file = fi ? fi->relative : "";
    void *data[2] = {w, e};
    clang_visitChildren(decl, enum_child, data);
    vec_push(&w->m->enums, e);
}

struct param_ctx {
    struct walker *w;
    struct cfg_functype *fn;
    const struct token_run *tokens;
    CXSourceLocation end; /* end of the last parameter */
    int have_end;
};

static enum CXChildVisitResult param_child(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct param_ctx *pc = data;
    if (c.kind != CXCursor_ParmDecl)
        return CXChildVisit_Continue;
    if (!pc->tokens) {
        pc->end = clang_getRangeEnd(clang_getCursorExtent(c));
        pc->have_end = 1;
        return CXChildVisit_Continue;
    }
    struct walker *w = pc->w;
    struct cfg_param *p = arena_alloc(w->a, sizeof *p);
    p->name = take(w->a, clang_getCursorSpelling(c));
    p->type = sanitize_type(w->a, take(w->a, clang_getTypeSpelling(clang_getCursorType(c))));
    p->sal = field_sal(w, pc->tokens, c);
    vec_push(&pc->fn->params, p);
    return CXChildVisit_Continue;
}

static CXType look_through_elaborated(CXType t)
{
#if CINDEX_VERSION_MINOR >= 63
    if (t.kind == CXType_Elaborated)
        return clang_Type_getNamedType(t);
#endif
    return t;
}

/* The result type as spelled (NTSTATUS, not long); the canonical one when
 * the declared type is wrapped in something libclang cannot look into. */
static const char *result_spelling(struct walker *w, CXType declared, CXType canonical)
{
    CXType r = clang_getResultType(declared);
    if (r.kind == CXType_Invalid)
        r = clang_getResultType(canonical);
    return sanitize_type(w->a, take(w->a, clang_getTypeSpelling(r)));
}

/* A typedef's extent stops at its name; the parameters (and their SAL)
 * come after it, so the token range runs to the end of the last one. */
static CXSourceRange declaration_range(CXCursor td, struct param_ctx *pc)
{
    CXSourceRange extent = clang_getCursorExtent(td);
    pc->tokens = NULL;
    clang_visitChildren(td, param_child, pc);
    if (!pc->have_end)
        return extent;
    return clang_getRange(clang_getRangeStart(extent), pc->end);
}

static void extract_functype(struct walker *w, CXCursor td, const char *name, CXType declared, CXType fn_type,
                             const char *pointer_to)
{
    struct cfg_functype *fn = arena_alloc(w->a, sizeof *fn);
    fn->name = name;
    fn->pointer_to = pointer_to;
    struct file_info *fi = file_of(w, td, &fn->line);
    fn->file = fi ? fi->relative : "";
    if (!pointer_to) {
        fn->result = result_spelling(w, declared, fn_type);
        struct param_ctx pc = {w, fn, NULL, {{0}, 0}, 0};
        struct token_run tokens;
        if (token_run_init(&tokens, w->tu, declaration_range(td, &pc)) == 0) {
            CXFile file;
            unsigned line, col, off;
            clang_getSpellingLocation(clang_getCursorLocation(td), &file, &line, &col, &off);
            int at = token_run_find(&tokens, off);
            fn->sal = sal_collect(w->a, &tokens, 0, at < 0 ? 0 : at, &w->sal_macros);
            pc.tokens = &tokens;
            clang_visitChildren(td, param_child, &pc);
            token_run_dispose(&tokens);
        }
    }
    vec_push(&w->m->functypes, fn);
}

static enum CXChildVisitResult first_typedef_ref(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    if (c.kind != CXCursor_TypeRef)
        return CXChildVisit_Continue;
    CXCursor ref = clang_getCursorReferenced(c);
    if (ref.kind == CXCursor_TypedefDecl)
        *(CXCursor *)data = ref;
    return CXChildVisit_Break;
}

static void extract_typedef(struct walker *w, CXCursor td)
{
    const char *name = take(w->a, clang_getCursorSpelling(td));
    CXType under = clang_getTypedefDeclUnderlyingType(td);
    CXType canon = clang_getCanonicalType(under);
    if (canon.kind == CXType_FunctionProto || canon.kind == CXType_FunctionNoProto) {
        extract_functype(w, td, name, under, canon, NULL);
        return;
    }
    if (canon.kind == CXType_Pointer) {
        CXType pointee = clang_getPointeeType(look_through_elaborated(under));
        CXType pc = clang_getCanonicalType(pointee);
        if (pc.kind == CXType_FunctionProto || pc.kind == CXType_FunctionNoProto) {
            /* PDXGKDDI_X = DXGKDDI_X *: name the function typedef. libclang
             * desugars the pointee, so read it from the TypeRef child. */
            CXCursor target_decl = clang_getNullCursor();
            clang_visitChildren(td, first_typedef_ref, &target_decl);
            const char *target = clang_Cursor_isNull(target_decl)
                                     ? NULL
                                     : take(w->a, clang_getCursorSpelling(target_decl));
            extract_functype(w, td, name, pointee, pc, target);
            return;
        }
    }
    CXCursor decl = clang_getTypeDeclaration(canon);
    if ((is_record_kind(decl.kind) || decl.kind == CXCursor_EnumDecl) && canon.kind != CXType_Pointer) {
        /* typedef struct _X X: the record itself carries the name. A second
         * name for the same record (typedef _X Y) is still a typedef. */
        const char *tag;
        const char *own = decl_name(w, decl, &tag);
        if (own && strcmp(own, name) == 0)
            return;
    }
    struct cfg_typedef *t = arena_alloc(w->a, sizeof *t);
    t->name = name;
    t->type = sanitize_type(w->a, take(w->a, clang_getTypeSpelling(under)));
    t->canonical = sanitize_type(w->a, take(w->a, clang_getTypeSpelling(canon)));
    struct file_info *fi = file_of(w, td, &t->line);
    t->file = fi ? fi->relative : "";
    vec_push(&w->m->typedefs, t);
}

/* --- the walk ------------------------------------------------------------ */

/* Prefer the typedef spelled like the tag without its underscore
 * (typedef struct _X {...} X, *PX), else the first non-pointer typedef. */
static void note_typedef_name(struct walker *w, CXCursor td)
{
    CXType canon = clang_getCanonicalType(clang_getTypedefDeclUnderlyingType(td));
    CXCursor decl = clang_getTypeDeclaration(canon);
    if (!is_record_kind(decl.kind) && decl.kind != CXCursor_EnumDecl)
        return;
    const char *usr = usr_of(w, decl);
    const char *name = take(w->a, clang_getCursorSpelling(td));
    const char *have = strmap_get(&w->typedef_of, usr);
    const char *tag = take(w->a, clang_getCursorSpelling(decl));
    int matches_tag = tag[0] == '_' && strcmp(tag + 1, name) == 0;
    if (!have || matches_tag)
        strmap_put(&w->typedef_of, usr, (void *)name);
}

static enum CXChildVisitResult pass_names(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct walker *w = data;
    if (c.kind == CXCursor_TypedefDecl)
        note_typedef_name(w, c);
    else if (c.kind == CXCursor_MacroDefinition && cursor_in_scope(w, c))
        sal_note_macro(w->a, &w->sal_macros, w->tu, c);
    return CXChildVisit_Continue;
}

static void take_record_or_enum(struct walker *w, CXCursor decl)
{
    if (!clang_isCursorDefinition(decl))
        return;
    const char *tag;
    const char *name = decl_name(w, decl, &tag);
    if (!name || strmap_get(&w->done, name))
        return;
    strmap_put(&w->done, name, (void *)name);
    if (decl.kind == CXCursor_EnumDecl)
        extract_enum(w, decl, name, tag);
    else
        vec_push(&w->m->records, extract_record(w, decl, name, NULL, "", 0, NULL, 0));
}

static enum CXChildVisitResult pass_decls(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct walker *w = data;
    if (!cursor_in_scope(w, c))
        return CXChildVisit_Continue;
    if (is_record_kind(c.kind) || c.kind == CXCursor_EnumDecl)
        take_record_or_enum(w, c);
    else if (c.kind == CXCursor_TypedefDecl)
        extract_typedef(w, c);
    return CXChildVisit_Continue;
}

void extract_config(CXTranslationUnit tu, const struct extract_scope *scope, struct cfg_model *m)
{
    struct walker *w = calloc(1, sizeof *w);
    if (!w)
        abort();
    w->tu = tu;
    w->scope = scope;
    w->m = m;
    w->a = &m->arena;
    CXCursor root = clang_getTranslationUnitCursor(tu);
    clang_visitChildren(root, pass_names, w);
    clang_visitChildren(root, pass_decls, w);
    /* Records referenced from the DDI but declared elsewhere (MDL,
     * LARGE_INTEGER): pull them in, transitively. */
    for (size_t i = 0; i < w->wanted.len; i++)
        take_record_or_enum(w, clang_getCursorDefinition(*(CXCursor *)w->wanted.items[i]));
    vec_free(&w->wanted);
    strmap_free(&w->typedef_of);
    strmap_free(&w->done);
    strmap_free(&w->sal_macros);
    free(w);
}
