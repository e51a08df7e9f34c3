/* A kit's callback members from its headers' tokens (kit_callbacks.h).
 * Three facts are gathered over every DDI header, since a record, the
 * pointer typedefs of its members and the function typedefs they point to
 * live in different ones (dispmprt.h, d3dkmddi.h): then each member of the
 * record is kept when its type resolves through both. */
#include "kit_callbacks.h"

#include "lex.h"

#include "../util/diag.h"
#include "../util/output.h"
#include "../util/strmap.h"
#include "../util/wdk_layout.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The headers ingestion parses for the DDI (ingest.c's default scope). */
static const char *const ddi_headers[] = {"dispmprt.h", "d3dkmddi.h", "d3dkmdt.h", "d3dukmdt.h"};
#define NHEADERS (sizeof ddi_headers / sizeof ddi_headers[0])

struct token {
    const char *text;
    int identifier;
    size_t match; /* of a bracket: the index of its pair (the count when it has none) */
};

/* What the headers read so far declare. */
struct scan {
    struct arena *a;
    const char *record;
    struct strmap pointers;  /* P -> X for `typedef X *P;` */
    struct strmap functions; /* X -> X for `typedef ... X(...);` */
    struct vec members;      /* struct kit_callback *, role = the member's type until resolved */
    int found;               /* the record was seen */
};

/* The tokens of one header outside preprocessor directives: a directive
 * runs from a `#` that starts a line to the next token that starts one
 * (the lexer's splices keep a continued directive on its line). */
struct collect {
    const char *text;
    struct arena *a;
    struct vec *tokens;
    int in_directive;
};

static void take_token(const struct raw_token *tok, void *ctx)
{
    struct collect *c = ctx;
    int hash = tok->end - tok->offset == 1 && c->text[tok->offset] == '#';
    if (tok->line_start)
        c->in_directive = hash;
    if (c->in_directive)
        return;
    struct token *t = arena_alloc(c->a, sizeof *t);
    char *spelling = arena_alloc_raw(c->a, tok->end - tok->offset + 1);
    lex_spelling(c->text, tok, spelling);
    t->text = spelling;
    t->identifier = tok->identifier;
    vec_push(c->tokens, t);
}

static const char *tok_at(const struct vec *v, size_t i)
{
    return i < v->len ? ((const struct token *)v->items[i])->text : "";
}

static int ident_at(const struct vec *v, size_t i)
{
    return i < v->len && ((const struct token *)v->items[i])->identifier;
}

/* Pairs the brackets of v once, so that every skip over a group is one
 * step whatever the input nests: a closing bracket pairs with the open one
 * on top when it is of its kind and is ignored otherwise; one never closed
 * pairs with the end. */
static void pair_brackets(struct vec *v)
{
    struct vec open = {0};
    for (size_t i = 0; i < v->len; i++) {
        struct token *t = v->items[i];
        t->match = v->len;
        const char *c = t->text;
        if (c[1])
            continue;
        if (c[0] == '(' || c[0] == '{' || c[0] == '[') {
            vec_push(&open, t);
            continue;
        }
        char want = c[0] == ')' ? '(' : c[0] == '}' ? '{' : c[0] == ']' ? '[' : 0;
        struct token *top = open.len ? open.items[open.len - 1] : NULL;
        if (want && top && top->text[0] == want) {
            top->match = i;
            open.len--;
        }
    }
    vec_free(&open);
}

/* The index of the token that closes the bracket opened at i (the count
 * when it is never closed). */
static size_t closing(const struct vec *v, size_t i)
{
    return ((const struct token *)v->items[i])->match;
}

/* The `;` that ends the declaration starting at i, brackets skipped. */
static size_t statement_end(const struct vec *v, size_t i)
{
    for (; i < v->len; i++) {
        const char *t = tok_at(v, i);
        if (!strcmp(t, ";"))
            return i;
        if (!strcmp(t, "(") || !strcmp(t, "{") || !strcmp(t, "["))
            i = closing(v, i);
    }
    return v->len;
}

/* `typedef X *P;` (P -> X), and `typedef ... X(...);` whose last bracket
 * group is its parameters (X): the function typedefs of the DDI
 * (`typedef _Function_class_DXGK_(X) ... NTSTATUS X(...);`). A pointer
 * to a signature declared in place (`typedef NTSTATUS (*PFN)(...);`) has
 * `)` before its parameters, and names no function typedef. */
static void scan_typedef(struct scan *s, const struct vec *v, size_t i, size_t end)
{
    if (end == i + 4 && ident_at(v, i + 1) && !strcmp(tok_at(v, i + 2), "*") && ident_at(v, i + 3)) {
        strmap_put(&s->pointers, tok_at(v, i + 3), (void *)tok_at(v, i + 1));
        return;
    }
    if (end < i + 3 || strcmp(tok_at(v, end - 1), ")") != 0)
        return;
    size_t open = end - 1;
    for (size_t j = i + 1; j < end - 1; j++)
        if (!strcmp(tok_at(v, j), "(")) {
            size_t c = closing(v, j);
            if (c == end - 1)
                open = j;
            else
                j = c;
        }
    if (open > i + 1 && open < end - 1 && ident_at(v, open - 1))
        strmap_put(&s->functions, tok_at(v, open - 1), (void *)tok_at(v, open - 1));
}

/* The direct members of a record body (v[open] is its `{`): the last two
 * tokens of each declaration, when both are identifiers, are its type
 * and its name. Nested records, arrays and bit-fields end otherwise. */
static void scan_members(struct scan *s, const struct vec *v, size_t open, size_t close)
{
    size_t start = open + 1;
    for (size_t i = start; i < close; i++) {
        const char *t = tok_at(v, i);
        if (!strcmp(t, "{") || !strcmp(t, "(") || !strcmp(t, "[")) {
            i = closing(v, i);
            continue;
        }
        if (strcmp(t, ";") != 0)
            continue;
        if (i >= start + 2 && ident_at(v, i - 1) && ident_at(v, i - 2)) {
            struct kit_callback *m = arena_alloc(s->a, sizeof *m);
            m->member = tok_at(v, i - 1);
            m->role = tok_at(v, i - 2);
            vec_push(&s->members, m);
        }
        start = i + 1;
    }
}

/* `struct TAG { ... } NAME, *PNAME;`: the record's body when TAG or one
 * of the names after it (up to what is not a name, `*` or `,`) is the
 * record looked for. A record declared in several branches of an #if is
 * read in each. */
static size_t scan_struct(struct scan *s, const struct vec *v, size_t i)
{
    size_t open = ident_at(v, i + 1) ? i + 2 : i + 1;
    if (strcmp(tok_at(v, open), "{") != 0)
        return i;
    size_t close = closing(v, open);
    int wanted = open == i + 2 && !strcmp(tok_at(v, i + 1), s->record);
    for (size_t j = close + 1;
         j < v->len && !wanted && (ident_at(v, j) || !strcmp(tok_at(v, j), "*") || !strcmp(tok_at(v, j), ",")); j++)
        wanted = ident_at(v, j) && !strcmp(tok_at(v, j), s->record);
    if (wanted) {
        s->found = 1;
        scan_members(s, v, open, close);
    }
    return open; /* records nested inside are read too */
}

static void scan_tokens(struct scan *s, const struct vec *v)
{
    size_t typedef_end = 0; /* a typedef inside one is no C: not read again */
    for (size_t i = 0; i < v->len; i++) {
        if (!ident_at(v, i))
            continue;
        const char *t = tok_at(v, i);
        if (!strcmp(t, "typedef") && i >= typedef_end) {
            typedef_end = statement_end(v, i);
            scan_typedef(s, v, i, typedef_end);
        }
        if (!strcmp(t, "struct"))
            i = scan_struct(s, v, i);
    }
}

/* One header of the kit into s; -1 after reporting it unreadable. */
static int scan_file(struct scan *s, const char *path)
{
    char *data = NULL;
    size_t len = 0;
    if (ddigen_read_file(path, &data, &len) != 0)
        return -1;
    struct vec tokens = {0};
    struct collect c = {data, s->a, &tokens, 0};
    lex_raw(data, len, take_token, &c);
    pair_brackets(&tokens);
    scan_tokens(s, &tokens);
    vec_free(&tokens);
    free(data);
    return 0;
}

/* The members whose type points to a function typedef, the type
 * replaced by that typedef. */
static void keep_callbacks(struct scan *s, struct vec *out)
{
    for (size_t i = 0; i < s->members.len; i++) {
        struct kit_callback *m = s->members.items[i];
        const char *pointee = strmap_get(&s->pointers, m->role);
        if (pointee && strmap_get(&s->functions, pointee)) {
            m->role = pointee;
            vec_push(out, m);
        }
    }
}

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

int kit_callbacks_read(const char *root, const char *record, struct arena *a, struct vec *out, const char **where)
{
    if (!is_dir(arena_printf(a, "%s/km", root))) {
        ddigen_error(root, 0, "not a WDK Include/<version> folder: no km/ inside");
        return -1;
    }
    struct scan s = {.a = a, .record = record};
    int rc = 0;
    *where = NULL;
    for (size_t i = 0; i < NHEADERS && rc == 0; i++) {
        const char *rel = wdk_locate(a, root, ddi_headers[i]);
        int before = s.found;
        if (rel && scan_file(&s, arena_printf(a, "%s/%s", root, rel)) != 0)
            rc = -1;
        if (s.found && !before)
            *where = arena_printf(a, "%s/%s", root, rel);
    }
    if (rc == 0 && !s.found) {
        ddigen_error(root, 0, "no %s in the kit's DDI headers (dispmprt.h, d3dkmddi.h, d3dkmdt.h, d3dukmdt.h)", record);
        rc = -1;
    }
    if (rc == 0)
        keep_callbacks(&s, out);
    strmap_free(&s.pointers);
    strmap_free(&s.functions);
    vec_free(&s.members);
    return rc;
}
