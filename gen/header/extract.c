/* libclang AST walk for one configuration. Offsets are queried on canonical
 * types (typedef types give -1); anonymous members are found with
 * clang_Cursor_isAnonymousRecordDecl; clang 16's Elaborated wrappers are
 * looked through by always going to the canonical type's declaration. */
#include "extract.h"

#include "../util/diag.h"
#include "../util/strmap.h"
#include "../util/strbuf.h"
#include "sal.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NESTING 32 /* bounded recursion through inline records */
#define MAX_FILES 4096

struct file_info {
    CXFile file;
    const char *relative;
    int in_scope;
    const struct source_tokens *tokens; /* raw tokens for SAL, or NULL */
};

/* Declaration cursor -> name, hashed with clang_hashCursor: computing USR
 * strings for every typedef of the translation unit cost more than the
 * rest of the walk. */
struct cursor_slot {
    CXCursor key;
    const void *value;
    int used;
};
struct cursor_map {
    struct cursor_slot *slots;
    size_t len, cap;
};

static struct cursor_slot *cursor_slot(struct cursor_slot *slots, size_t cap, CXCursor key)
{
    size_t i = clang_hashCursor(key) & (cap - 1);
    while (slots[i].used && !clang_equalCursors(slots[i].key, key))
        i = (i + 1) & (cap - 1);
    return &slots[i];
}

static const void *cursor_map_get(const struct cursor_map *m, CXCursor key)
{
    return m->cap ? cursor_slot(m->slots, m->cap, key)->value : NULL;
}

static void cursor_map_put(struct cursor_map *m, CXCursor key, const void *value)
{
    if ((m->len + 1) * 4 > m->cap * 3) {
        size_t cap = m->cap ? m->cap * 2 : 1024;
        struct cursor_slot *slots = calloc(cap, sizeof *slots);
        if (!slots)
            abort();
        for (size_t i = 0; i < m->cap; i++)
            if (m->slots[i].used)
                *cursor_slot(slots, cap, m->slots[i].key) = m->slots[i];
        free(m->slots);
        m->slots = slots;
        m->cap = cap;
    }
    struct cursor_slot *s = cursor_slot(m->slots, m->cap, key);
    if (!s->used) {
        s->used = 1;
        s->key = key;
        m->len++;
    }
    s->value = value;
}

/* Printing a type is the costliest libclang call of the walk, and a few
 * hundred types (UINT, HANDLE, ...) cover tens of thousands of fields:
 * cache spellings by the type's identity (CXType.data[0] is clang's
 * QualType, qualifiers included). */
struct type_slot {
    const void *key;
    const char *spelling;
};
struct type_cache {
    struct type_slot *slots;
    size_t len, cap;
};

static struct type_slot *type_slot(struct type_slot *slots, size_t cap, const void *key)
{
    size_t i = ((uintptr_t)key >> 3) * 0x9E3779B97F4A7C15ull >> 20 & (cap - 1);
    while (slots[i].key && slots[i].key != key)
        i = (i + 1) & (cap - 1);
    return &slots[i];
}

static void type_cache_grow(struct type_cache *c)
{
    size_t cap = c->cap ? c->cap * 2 : 4096;
    struct type_slot *slots = calloc(cap, sizeof *slots);
    if (!slots)
        abort();
    for (size_t i = 0; i < c->cap; i++)
        if (c->slots[i].key)
            *type_slot(slots, cap, c->slots[i].key) = c->slots[i];
    free(c->slots);
    c->slots = slots;
    c->cap = cap;
}

struct walker {
    CXTranslationUnit tu;
    const struct extract_scope *scope;
    struct cfg_model *m;
    struct arena *a;
    struct cursor_map typedef_of; /* record/enum decl -> its typedef name */
    struct cursor_map names_of;   /* record/enum decl -> its struct decl_names, once asked */
    struct type_cache *types;     /* type -> its spelling */
    struct strmap done;         /* record/enum name -> already extracted */
    const struct sal_index *sal; /* shared by every configuration */
    const struct prefix_names *prefix; /* names of the precompiled prefix, or NULL */
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

static char *take(struct arena *a, CXString s);
static const char *sanitize_type(struct arena *a, const char *s);

static const char *type_spelling(struct walker *w, CXType t)
{
    struct type_cache *c = w->types;
    if (!t.data[0])
        return sanitize_type(w->a, take(w->a, clang_getTypeSpelling(t)));
    if ((c->len + 1) * 2 > c->cap)
        type_cache_grow(c);
    struct type_slot *slot = type_slot(c->slots, c->cap, t.data[0]);
    if (!slot->key) {
        slot->key = t.data[0];
        slot->spelling = sanitize_type(w->a, take(w->a, clang_getTypeSpelling(t)));
        c->len++;
    }
    return slot->spelling;
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

static struct file_info *file_info_for(struct walker *w, CXFile file)
{
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
    fi->tokens = w->sal ? sal_index_file(w->sal, clang_getCString(name)) : NULL;
    clang_disposeString(name);
    return fi;
}

static struct file_info *file_of(struct walker *w, CXCursor c, unsigned *line)
{
    CXFile file;
    unsigned col, off;
    clang_getExpansionLocation(clang_getCursorLocation(c), &file, line, &col, &off);
    return file_info_for(w, file);
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

/* The name a record or enum is known by: its typedef, else its tag. */
/* "path\x1foffset" of a declaration: the same in every translation unit
 * that includes the file, unlike cursors. */
static const char *location_key(struct arena *a, CXCursor c)
{
    CXFile file;
    unsigned line, col, off;
    clang_getExpansionLocation(clang_getCursorLocation(c), &file, &line, &col, &off);
    CXString name = clang_getFileName(file);
    char offset[16];
    snprintf(offset, sizeof offset, "%u", off);
    const char *key = arena_concat(a, file ? clang_getCString(name) : "", "\x1f", offset, NULL);
    clang_disposeString(name);
    return key;
}

struct decl_names {
    const char *name, *tag;
};

/* Asked again for every field of a record's type, after every typedef of
 * the translation unit was noted (pass_names): kept per declaration, as
 * resolving a location key costs clang a source location each time. */
static const char *decl_name(struct walker *w, CXCursor decl, const char **tag_out)
{
    const struct decl_names *known = cursor_map_get(&w->names_of, decl);
    if (!known) {
        struct decl_names *dn = arena_alloc(w->a, sizeof *dn);
        const char *tag = take(w->a, clang_getCursorSpelling(decl));
        dn->tag = is_unnamed_tag(tag) ? NULL : tag;
        CXCursor canonical = clang_getCanonicalCursor(decl);
        const char *td = w->prefix ? strmap_get(&w->prefix->by_location, location_key(w->a, canonical)) : NULL;
        if (!td)
            td = cursor_map_get(&w->typedef_of, canonical);
        dn->name = td ? td : dn->tag;
        cursor_map_put(&w->names_of, decl, dn);
        known = dn;
    }
    if (tag_out)
        *tag_out = known->tag;
    return known->name;
}

/* --- records ---------------------------------------------------------- */

struct record_ctx {
    struct walker *w;
    struct cfg_record *rec;
    const char *top;            /* name of the top-level record */
    const char *path_prefix;    /* designator prefix ("Transfer." or "") */
    uint64_t base_bits;         /* offset of this record in the top-level one */
    unsigned anon_count[2];     /* numbering of anonymous structs / unions */
    int depth;
};

static struct cfg_record *extract_record(struct walker *w, CXCursor decl, const char *name, const char *top,
                                         const char *path_prefix, uint64_t base_bits, int depth);

/* Where a declaration's name is spelled, for reading the tokens around it. */
static const struct source_tokens *name_tokens(struct walker *w, CXCursor c, unsigned *offset)
{
    CXFile file;
    unsigned line, col;
    clang_getSpellingLocation(clang_getCursorLocation(c), &file, &line, &col, offset);
    struct file_info *fi = file_info_for(w, file);
    return fi ? fi->tokens : NULL;
}

static const char *decl_sal(struct walker *w, CXCursor c)
{
    unsigned offset;
    const struct source_tokens *t = name_tokens(w, c, &offset);
    return t ? sal_before(w->a, w->sal, t, offset) : NULL;
}

static const char *decl_comment_dir(struct walker *w, CXCursor c)
{
    unsigned offset;
    const struct source_tokens *t = name_tokens(w, c, &offset);
    return t ? comment_dir_after(t, offset) : NULL;
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

static unsigned scalar_of(CXType canonical);

/* A pointer's class, with the class of the type under all its pointer
 * levels (T for T **): the marshallers follow a _Field_size_ pointer only
 * when that type is a scalar or a record the spec lays out. */
static unsigned pointer_scalar(CXType canonical)
{
    CXType base = canonical;
    for (int depth = 0; base.kind == CXType_Pointer && depth < MAX_NESTING; depth++)
        base = clang_getCanonicalType(clang_getPointeeType(base));
    unsigned base_class = base.kind == CXType_Pointer ? DDI_SCALAR_NONE : scalar_of(base) & 0xff;
    return DDI_SCALAR_POINTER | base_class << DDI_POINTEE_SHIFT;
}

/* How a canonical type's bytes read as a value, as clang says for this
 * target: the kind of a builtin type is its signedness on the target (plain
 * char is Char_S under MSVC), an enum reads as its integer type. */
static unsigned scalar_of(CXType canonical)
{
    switch (canonical.kind) {
    case CXType_Enum: {
        CXType integer = clang_getEnumDeclIntegerType(clang_getTypeDeclaration(canonical));
        integer = clang_getCanonicalType(integer);
        return (integer.kind == CXType_Enum ? DDI_SCALAR_NONE : scalar_of(integer)) | DDI_TYPE_ENUM;
    }
    case CXType_Bool:
    case CXType_Char_U:
    case CXType_UChar:
    case CXType_Char16:
    case CXType_Char32:
    case CXType_UShort:
    case CXType_UInt:
    case CXType_ULong:
    case CXType_ULongLong:
    case CXType_UInt128:
    case CXType_WChar: /* libclang gives no signedness: unsigned short on every MSVC target */
        return DDI_SCALAR_UNSIGNED;
    case CXType_Char_S:
    case CXType_SChar:
    case CXType_Short:
    case CXType_Int:
    case CXType_Long:
    case CXType_LongLong:
    case CXType_Int128: return DDI_SCALAR_SIGNED;
    case CXType_Float:
    case CXType_Double:
    case CXType_LongDouble:
    case CXType_Float128:
    case CXType_Half:
    case CXType_Float16:
    case CXType_BFloat16:
    case CXType_Ibm128: return DDI_SCALAR_FLOAT;
    case CXType_Pointer: return pointer_scalar(canonical);
    case CXType_BlockPointer:
    case CXType_MemberPointer:
    case CXType_NullPtr: return DDI_SCALAR_POINTER;
    case CXType_Record: return DDI_SCALAR_RECORD;
    default: return DDI_SCALAR_NONE;
    }
}

/* Size and scalar class of a type on this configuration's target. */
static struct cfg_type_facts type_facts(CXType t)
{
    CXType canonical = clang_getCanonicalType(t);
    long long size = clang_Type_getSizeOf(canonical);
    struct cfg_type_facts f = {size >= 0 ? (uint64_t)size : DDI_BYTES_UNKNOWN, scalar_of(canonical)};
    return f;
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

/* `UINT DXGK_ALLOC_RESERVED0 : 1;` with `#define DXGK_ALLOC_RESERVED0
 * Reserved0`: the token written where the declaration's name expands,
 * when it is not the name clang gives the field. */
static const char *spelled_name(const struct file_info *fi, unsigned off, const char *name)
{
    const char *token = fi && fi->tokens && name[0] ? source_token_at(fi->tokens, off) : NULL;
    if (!token || !strcmp(token, name) || !(isalpha((unsigned char)token[0]) || token[0] == '_'))
        return NULL;
    return token;
}

static void add_field(struct record_ctx *ctx, CXCursor c)
{
    struct walker *w = ctx->w;
    struct cfg_field *f = arena_alloc(w->a, sizeof *f);
    f->name = take(w->a, clang_getCursorSpelling(c));
    CXFile file;
    unsigned col;
    clang_getExpansionLocation(clang_getCursorLocation(c), &file, &f->line, &col, &f->source_offset);
    f->spelled = spelled_name(file_info_for(w, file), f->source_offset, f->name);
    f->path = arena_concat(w->a, ctx->path_prefix, f->name, NULL);
    long long off = clang_Cursor_getOffsetOfField(c);
    f->offset_bits = ctx->base_bits + (off > 0 ? (uint64_t)off : 0);
    f->bit_width = clang_Cursor_isBitField(c) ? clang_getFieldDeclBitWidth(c) : -1;
    f->sal = decl_sal(w, c);
    f->comment_dir = decl_comment_dir(w, c);

    CXType t = strip_arrays(w, clang_getCursorType(c), &f->array);
    f->facts = type_facts(t);
    CXCursor decl = clang_getTypeDeclaration(clang_getCanonicalType(t));
    if (is_inline_record(w, decl) && ctx->depth < MAX_NESTING) {
        /* Named like the docs do: Top.Member.Sub, anonymous levels skipped. */
        const char *name = arena_concat(w->a, ctx->top, ".", f->path, NULL);
        f->nested = extract_record(w, decl, name, ctx->top, arena_concat(w->a, f->path, ".", NULL), f->offset_bits,
                                   ctx->depth + 1);
        f->type = f->nested->kind;
        f->canonical = arena_concat(w->a, f->nested->kind, " ", name, NULL);
    } else {
        f->type = type_spelling(w, t);
        f->canonical = type_spelling(w, clang_getCanonicalType(t));
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

/* A member without a name whose record type is decl, declared at `where`
 * and starting offset_bits into the top-level record: its fields keep the
 * paths of the record that holds it, and it is named X.(unnamed struct N). */
static struct cfg_field *add_unnamed_member(struct record_ctx *ctx, CXCursor decl, CXCursor where,
                                            uint64_t offset_bits)
{
    struct walker *w = ctx->w;
    int is_union = decl.kind == CXCursor_UnionDecl;
    unsigned n = ++ctx->anon_count[is_union];
    const char *label = n == 1 ? arena_printf(w->a, "(unnamed %s)", is_union ? "union" : "struct")
                               : arena_printf(w->a, "(unnamed %s %u)", is_union ? "union" : "struct", n);
    struct cfg_field *f = arena_alloc(w->a, sizeof *f);
    f->name = "";
    f->path = ctx->path_prefix[0] ? arena_strndup(w->a, ctx->path_prefix, strlen(ctx->path_prefix) - 1) : "";
    file_of(w, where, &f->line);
    f->source_offset = source_offset(where);
    f->offset_bits = offset_bits;
    f->bit_width = -1;
    f->facts = type_facts(clang_getCursorType(decl));
    if (ctx->depth < MAX_NESTING) {
        const char *name = arena_concat(w->a, ctx->rec->name, ".", label, NULL);
        f->nested = extract_record(w, decl, name, ctx->top, ctx->path_prefix, f->offset_bits, ctx->depth + 1);
        f->nested->anonymous = 1;
        f->type = f->nested->kind;
        f->canonical = arena_concat(w->a, f->nested->kind, " ", name, NULL);
    }
    vec_push(&ctx->rec->fields, f);
    return f;
}

static void add_anonymous_member(struct record_ctx *ctx, CXCursor decl)
{
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
    add_unnamed_member(ctx, decl, decl, ctx->base_bits + offset);
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

/* `SEQ_RANGE;` inside a struct (a Microsoft extension): an unnamed member
 * of a named record type, whose fields are reached as if declared in place
 * (offsetof(SEQ_WINDOW, First)). clang makes it an implicit field, which
 * the cursor walk does not visit; the record's field list has it. */
static enum CXVisitorResult named_anonymous_member(CXCursor c, CXClientData data)
{
    struct record_ctx *ctx = data;
    CXString s = clang_getCursorSpelling(c);
    int unnamed = !clang_getCString(s)[0];
    clang_disposeString(s);
    if (!unnamed || clang_Cursor_isBitField(c))
        return CXVisit_Continue;
    CXCursor decl = clang_getTypeDeclaration(clang_getCanonicalType(clang_getCursorType(c)));
    if (!is_record_kind(decl.kind) || clang_Cursor_isAnonymousRecordDecl(decl) || ctx->depth >= MAX_NESTING)
        return CXVisit_Continue;
    long long off = clang_Cursor_getOffsetOfField(c);
    struct cfg_field *f = add_unnamed_member(ctx, decl, c, ctx->base_bits + (off > 0 ? (uint64_t)off : 0));
    /* Named through its type (SEQ_RANGE), unlike a C11 anonymous member. */
    f->type = type_spelling(ctx->w, clang_getCursorType(c));
    f->canonical = type_spelling(ctx->w, clang_getCanonicalType(clang_getCursorType(c)));
    return CXVisit_Continue;
}

/* libclang checks the whole record on every offset query
 * (clang_Cursor_getOffsetOfField), so measuring a record costs members^2:
 * 100,000 members took minutes. Real DDI records have at most ~100. */
#define MAX_RECORD_MEMBERS 1024

static enum CXVisitorResult count_member(CXCursor c, CXClientData data)
{
    (void)c;
    return ++*(unsigned *)data > MAX_RECORD_MEMBERS ? CXVisit_Break : CXVisit_Continue;
}

static struct cfg_record *extract_record(struct walker *w, CXCursor decl, const char *name, const char *top,
                                         const char *path_prefix, uint64_t base_bits, int depth)
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

    unsigned members = 0;
    clang_Type_visitFields(t, count_member, &members);
    if (members > MAX_RECORD_MEMBERS) {
        ddigen_error(r->file, r->line, "record %s has more than %d members; not measured", name,
                     MAX_RECORD_MEMBERS);
        w->m->fatal = 1;
        return r;
    }
    struct record_ctx ctx = {w, r, top ? top : name, path_prefix, base_bits, {0, 0}, depth};
    clang_visitChildren(decl, record_child, &ctx);
    clang_Type_visitFields(t, named_anonymous_member, &ctx);
    sort_by_declaration(&r->fields);
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
};

static enum CXChildVisitResult param_child(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct param_ctx *pc = data;
    if (c.kind != CXCursor_ParmDecl)
        return CXChildVisit_Continue;
    struct walker *w = pc->w;
    struct cfg_param *p = arena_alloc(w->a, sizeof *p);
    p->name = take(w->a, clang_getCursorSpelling(c));
    p->type = type_spelling(w, clang_getCursorType(c));
    p->sal = decl_sal(w, c);
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

/* Only x86 has conventions that change a definition's spelling (APIENTRY is
 * __stdcall there and nothing elsewhere), so other targets report none. A
 * generated definition of a function declared through the typedef must spell
 * the same convention. */
static const char *calling_convention(CXType fn_type)
{
    switch (clang_getFunctionTypeCallingConv(fn_type)) {
    case CXCallingConv_X86StdCall: return "stdcall";
    case CXCallingConv_X86FastCall: return "fastcall";
    default: return NULL;
    }
}

static struct cfg_functype *extract_functype(struct walker *w, CXCursor td, const char *name, CXType declared,
                                             CXType fn_type, const char *pointer_to)
{
    struct cfg_functype *fn = arena_alloc(w->a, sizeof *fn);
    fn->name = name;
    fn->pointer_to = pointer_to;
    struct file_info *fi = file_of(w, td, &fn->line);
    fn->file = fi ? fi->relative : "";
    if (!pointer_to) {
        fn->result = result_spelling(w, declared, fn_type);
        fn->callconv = calling_convention(fn_type);
        /* Annotations before the typedef's name apply to the function. */
        unsigned name_offset, line, col, begin_offset;
        const struct source_tokens *t = name_tokens(w, td, &name_offset);
        CXFile file;
        clang_getSpellingLocation(clang_getRangeStart(clang_getCursorExtent(td)), &file, &line, &col, &begin_offset);
        if (t)
            fn->sal = sal_between(w->a, w->sal, t, begin_offset, name_offset);
        struct param_ctx pc = {w, fn};
        clang_visitChildren(td, param_child, &pc);
    }
    vec_push(&w->m->functypes, fn);
    return fn;
}

/* A typedef whose type is a function signature (DXGKDDI_X). */
static int names_function_type(CXCursor typedef_decl)
{
    enum CXTypeKind k = clang_getCanonicalType(clang_getTypedefDeclUnderlyingType(typedef_decl)).kind;
    return k == CXType_FunctionProto || k == CXType_FunctionNoProto;
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
             * desugars the pointee, so read it from the TypeRef child. Any
             * other first type (NTSTATUS in `typedef NTSTATUS (APIENTRY
             * *PFN)(...)`) is the result of a signature declared here. */
            CXCursor target_decl = clang_getNullCursor();
            clang_visitChildren(td, first_typedef_ref, &target_decl);
            if (!clang_Cursor_isNull(target_decl) && names_function_type(target_decl))
                extract_functype(w, td, name, pointee, pc, take(w->a, clang_getCursorSpelling(target_decl)));
            else
                extract_functype(w, td, name, pointee, pc, NULL)->pointer = 1;
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
    t->type = type_spelling(w, under);
    t->canonical = type_spelling(w, canon);
    t->facts = type_facts(canon);
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
    CXCursor key = clang_getCanonicalCursor(decl);
    const char *name = take(w->a, clang_getCursorSpelling(td));
    const char *have = cursor_map_get(&w->typedef_of, key);
    const char *tag = take(w->a, clang_getCursorSpelling(decl));
    int matches_tag = tag[0] == '_' && strcmp(tag + 1, name) == 0;
    if (!have || matches_tag)
        cursor_map_put(&w->typedef_of, key, name);
}

static enum CXChildVisitResult pass_names(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct walker *w = data;
    if (c.kind == CXCursor_TypedefDecl)
        note_typedef_name(w, c);
    return CXChildVisit_Continue;
}

/* --- the prefix ------------------------------------------------------- */

struct prefix_build {
    struct prefix_names *p;
    const struct extract_scope *scope;
};

/* The same choice as note_typedef_name, keyed by location. */
static enum CXChildVisitResult prefix_visit(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct prefix_build *b = data;
    CXFile file;
    unsigned line, col, off;
    clang_getExpansionLocation(clang_getCursorLocation(c), &file, &line, &col, &off);
    if (file && !b->p->declares_scope) {
        CXString fname = clang_getFileName(file);
        b->p->declares_scope = basename_in_scope(b->scope, clang_getCString(fname));
        clang_disposeString(fname);
    }
    if (c.kind != CXCursor_TypedefDecl)
        return CXChildVisit_Continue;
    CXCursor decl = clang_getTypeDeclaration(clang_getCanonicalType(clang_getTypedefDeclUnderlyingType(c)));
    if (!is_record_kind(decl.kind) && decl.kind != CXCursor_EnumDecl)
        return CXChildVisit_Continue;
    struct arena *a = &b->p->arena;
    const char *key = location_key(a, clang_getCanonicalCursor(decl));
    const char *name = take(a, clang_getCursorSpelling(c));
    const char *tag = take(a, clang_getCursorSpelling(decl));
    int matches_tag = tag[0] == '_' && strcmp(tag + 1, name) == 0;
    if (!strmap_get(&b->p->by_location, key) || matches_tag)
        strmap_put(&b->p->by_location, key, (void *)name);
    return CXChildVisit_Continue;
}

void prefix_names_build(struct prefix_names *p, CXTranslationUnit tu, const struct extract_scope *scope)
{
    struct prefix_build b = {p, scope};
    clang_visitChildren(clang_getTranslationUnitCursor(tu), prefix_visit, &b);
}

void prefix_names_free(struct prefix_names *p)
{
    strmap_free(&p->by_location);
    arena_free(&p->arena);
}

static const char *cxx_type_of(struct walker *w, CXCursor decl);

struct member_of_type {
    CXCursor type_decl; /* the record whose member is wanted */
    CXCursor field;     /* the first FieldDecl of that type, or a null cursor */
    int is_array;
};

static enum CXChildVisitResult find_member_of_type(CXCursor c, CXCursor parent, CXClientData data)
{
    (void)parent;
    struct member_of_type *m = data;
    if (c.kind != CXCursor_FieldDecl)
        return CXChildVisit_Continue;
    CXType t = clang_getCanonicalType(clang_getCursorType(c));
    int is_array = 0;
    while (t.kind == CXType_ConstantArray || t.kind == CXType_IncompleteArray) {
        t = clang_getCanonicalType(clang_getArrayElementType(t));
        is_array = 1;
    }
    if (!clang_equalCursors(clang_getCanonicalCursor(clang_getTypeDeclaration(t)),
                            clang_getCanonicalCursor(m->type_decl)))
        return CXChildVisit_Continue;
    m->field = c;
    m->is_array = is_array;
    return CXChildVisit_Break;
}

/* A tag declared inside an unnamed record (`union { struct INNER {...}
 * Member; };` in DXGK_POWER_COMPONENT_MAPPING) has no qualified name in
 * C++: the scope it belongs to has none. It is reached through the member
 * declared with it instead, from the nearest named record:
 * `decltype(((OUTER *)0)->Member)`, the member's declared type. NULL when no
 * such member exists, or only an array of the type (decltype would give
 * the array, and no spelling of the element without a template is portable). */
static const char *cxx_type_through_member(struct walker *w, CXCursor decl, CXCursor parent)
{
    const char *path = NULL;
    CXCursor inner = decl;
    for (int depth = 0; is_record_kind(parent.kind) && depth < MAX_NESTING; depth++) {
        if (!clang_equalCursors(inner, decl) && clang_Cursor_isAnonymousRecordDecl(inner)) {
            /* an anonymous member: its fields are the parent's own */
        } else {
            struct member_of_type m = {.type_decl = inner, .field = clang_getNullCursor()};
            clang_visitChildren(parent, find_member_of_type, &m);
            if (clang_Cursor_isNull(m.field) || m.is_array)
                return NULL;
            const char *member = take(w->a, clang_getCursorSpelling(m.field));
            path = path ? arena_concat(w->a, member, ".", path, NULL) : member;
        }
        const char *tag;
        const char *name = decl_name(w, parent, &tag);
        if (tag || name) {
            const char *outer = tag ? cxx_type_of(w, parent) : NULL;
            if (!outer)
                outer = tag ? tag : name;
            return arena_printf(w->a, "decltype(((%s *)0)->%s)", outer, path);
        }
        inner = parent;
        parent = clang_getCursorLexicalParent(parent);
    }
    return NULL;
}

/* A C++ compiler nests a tag declared inside another record in that
 * record (C puts it at file scope): `_OUTER::_INNER`, through every
 * enclosing record, each named by its tag or else its typedef. NULL for a
 * tag declared at file scope. */
static const char *cxx_type_of(struct walker *w, CXCursor decl)
{
    /* C gives such a tag the file as its semantic parent; the record it
     * is written in is its lexical parent. */
    CXCursor parent = clang_getCursorLexicalParent(decl);
    if (!is_record_kind(parent.kind))
        return NULL;
    const char *spelled = take(w->a, clang_getCursorSpelling(decl));
    if (is_unnamed_tag(spelled))
        return NULL;
    for (int depth = 0; is_record_kind(parent.kind) && depth < MAX_NESTING; depth++) {
        const char *tag;
        const char *name = decl_name(w, parent, &tag);
        if (!tag && !name) /* an unnamed enclosing record: no qualified name */
            return cxx_type_through_member(w, decl, clang_getCursorLexicalParent(decl));
        spelled = arena_concat(w->a, tag ? tag : name, "::", spelled, NULL);
        if (tag == NULL)
            break; /* a typedef name is already file-scope */
        parent = clang_getCursorLexicalParent(parent);
    }
    return spelled;
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
    if (clang_isInvalidDeclaration(decl)) {
        /* clang recovered from an error inside it: its layout is a guess. */
        unsigned line;
        struct file_info *fi = file_of(w, decl, &line);
        vec_push(&w->m->invalid, arena_printf(w->a, "%s (%s:%u)", name, fi ? fi->relative : "?", line));
    }
    int referenced = !cursor_in_scope(w, decl);
    if (decl.kind == CXCursor_EnumDecl) {
        extract_enum(w, decl, name, tag);
        ((struct cfg_enum *)w->m->enums.items[w->m->enums.len - 1])->referenced = referenced;
        return;
    }
    struct cfg_record *r = extract_record(w, decl, name, NULL, "", 0, 0);
    r->referenced = referenced;
    r->cxx_type = cxx_type_of(w, decl);
    vec_push(&w->m->records, r);
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

int extract_scope_has_root(const char *path, const void *scope)
{
    const struct extract_scope *sc = scope;
    for (size_t i = 0; i < sc->nroots; i++) {
        size_t n = strlen(sc->roots[i]);
        if (strncmp(path, sc->roots[i], n) == 0 && path[n] == '/')
            return 1;
    }
    return 0;
}

void extract_config(CXTranslationUnit tu, const struct extract_scope *scope, const struct sal_index *sal,
                    const struct prefix_names *prefix, struct cfg_model *m)
{
    struct walker *w = calloc(1, sizeof *w);
    if (!w)
        abort();
    w->tu = tu;
    w->scope = scope;
    w->sal = sal;
    w->prefix = prefix;
    w->m = m;
    w->a = &m->arena;
    w->types = calloc(1, sizeof *w->types);
    if (!w->types)
        abort();
    CXCursor root = clang_getTranslationUnitCursor(tu);
    clang_visitChildren(root, pass_names, w);
    clang_visitChildren(root, pass_decls, w);
    /* Records referenced from the DDI but declared elsewhere (MDL,
     * LARGE_INTEGER): pull them in, transitively. */
    for (size_t i = 0; i < w->wanted.len; i++)
        take_record_or_enum(w, clang_getCursorDefinition(*(CXCursor *)w->wanted.items[i]));
    vec_free(&w->wanted);
    free(w->typedef_of.slots);
    free(w->names_of.slots);
    free(w->types->slots);
    free(w->types);
    strmap_free(&w->done);
    free(w);
}
