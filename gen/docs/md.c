/* Docs-repository markdown reader: front_matter.c for the front matter, cmark-gfm
 * (with GFM tables) for the body. Headings are classified from their source
 * line, so a field name is never mangled by emphasis rules. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "readers.h"

#include "../util/bump.h"
#include "../util/diag.h"
#include "front_matter.h"
#include "rules.h"
#include "syntax.h"
#include "text.h"

#include <cmark-gfm.h>
#include <cmark-gfm/cmark-gfm-extension_api.h>
#include <cmark-gfm-core-extensions.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum md_section {
    SEC_NONE,
    SEC_DESCRIPTION,
    SEC_FIELDS,
    SEC_RETURNS,
    SEC_REMARKS,
    SEC_SEE_ALSO,
    SEC_SYNTAX,
    SEC_OTHER,
};

struct md_reader {
    struct docs_page *p;
    const char *src;      /* whole cleaned file */
    const char **lines;   /* start of each line, 1-based */
    unsigned nlines;
    unsigned body_line0;  /* file line of body line 1, minus 1 */
    enum md_section sec;
    int field;            /* current field, -1 none */
    bool field_has_text;
    unsigned dash_headings; /* "-field"/"-param" headings in the page */
    struct docs_buf tmp;
    bool union_fields;
    bool too_deep;        /* containers nested past MD_MAX_NESTING: page refused */
};

/* Reference pages nest quotes and lists a few levels; the bound keeps the
 * walk's recursion (one frame per level) far from the end of the stack. */
#define MD_MAX_NESTING 64

/* ---- bounds -------------------------------------------------------------- */

/* cmark-gfm's cost grows with the square of a table row's cells (a list
 * append per cell), so rows are bounded before it sees the text; pages use
 * a few columns. */
#define MD_MAX_TABLE_CELLS 256

/* Line (from 1) of the first line with more cell separators than a table
 * row may have, or 0. */
static unsigned row_too_wide(const char *s, size_t len)
{
    unsigned pipes = 0, line = 1;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\n') {
            pipes = 0;
            line++;
        } else if (s[i] == '|' && (i == 0 || s[i - 1] != '\\') && ++pipes > MD_MAX_TABLE_CELLS) {
            return line;
        }
    }
    return 0;
}

/* ---- inline flattening --------------------------------------------------- */

static void strip_tags(struct docs_buf *b, const char *s)
{
    static const struct {
        const char *ent, *rep;
    } ents[] = {{"&amp;", "&"}, {"&lt;", "<"}, {"&gt;", ">"}, {"&quot;", "\""},
                {"&#39;", "'"}, {"&nbsp;", " "}, {"&apos;", "'"}};
    while (*s) {
        if (*s == '<') {
            const char *e = strchr(s, '>');
            if (!e)
                break;
            if (!strncasecmp(s, "<br", 3) || !strncasecmp(s, "<p", 2) || !strncasecmp(s, "</p", 3) ||
                !strncasecmp(s, "<li", 3))
                docs_buf_putc(b, ' ');
            s = e + 1;
            continue;
        }
        if (*s == '&') {
            size_t i;
            for (i = 0; i < sizeof ents / sizeof ents[0]; i++) {
                size_t m = strlen(ents[i].ent);
                if (!strncmp(s, ents[i].ent, m)) {
                    docs_buf_puts(b, ents[i].rep);
                    s += m;
                    break;
                }
            }
            if (i < sizeof ents / sizeof ents[0])
                continue;
        }
        docs_buf_putc(b, *s++);
    }
}

/* Text of a paragraph-like node; soft breaks stay '\n' for line numbers. */
static void flatten(cmark_node *node, struct docs_buf *b)
{
    cmark_iter *it = cmark_iter_new(node);
    cmark_event_type ev;
    while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
        cmark_node *n = cmark_iter_get_node(it);
        if (ev != CMARK_EVENT_ENTER)
            continue;
        switch (cmark_node_get_type(n)) {
        case CMARK_NODE_TEXT:
        case CMARK_NODE_CODE: {
            const char *lit = cmark_node_get_literal(n);
            if (lit)
                docs_buf_puts(b, lit);
            break;
        }
        case CMARK_NODE_SOFTBREAK:
        case CMARK_NODE_LINEBREAK:
            docs_buf_putc(b, '\n');
            break;
        case CMARK_NODE_HTML_INLINE: {
            const char *lit = cmark_node_get_literal(n);
            if (lit && (!strncasecmp(lit, "<br", 3)))
                docs_buf_putc(b, ' ');
            break;
        }
        default:
            break;
        }
    }
    cmark_iter_free(it);
}

/* ---- headings ------------------------------------------------------------ */

static unsigned node_line(struct md_reader *r, cmark_node *n)
{
    return (unsigned)cmark_node_get_start_line(n) + r->body_line0;
}

/* The heading's text from its source line: "### -field A.B [in]" -> "-field A.B [in]". */
static const char *heading_text(struct md_reader *r, cmark_node *n, size_t *len)
{
    unsigned line = node_line(r, n);
    if (line < 1 || line > r->nlines)
        return NULL;
    const char *s = r->lines[line];
    const char *e = strchr(s, '\n');
    if (!e)
        e = s + strlen(s);
    while (s < e && *s == ' ')
        s++;
    if (*s != '#') {
        /* setext heading: the text is the node's content */
        docs_buf_reset(&r->tmp);
        flatten(n, &r->tmp);
        *len = r->tmp.len;
        return r->tmp.data;
    }
    while (s < e && *s == '#')
        s++;
    while (s < e && (*s == ' ' || *s == '\t'))
        s++;
    while (e > s && (e[-1] == ' ' || e[-1] == '\t'))
        e--;
    /* closing sequence "## Title ##" */
    const char *c = e;
    while (c > s && c[-1] == '#')
        c--;
    if (c < e && (c == s || c[-1] == ' '))
        for (e = c; e > s && e[-1] == ' ';)
            e--;
    *len = (size_t)(e - s);
    return s;
}

/* "-field X", "- field X", "-param X" -> 'f' / 'p', and the rest. */
static int dash_heading(const char *t, size_t n, size_t *rest)
{
    if (n < 2 || t[0] != '-')
        return 0;
    size_t i = 1;
    while (i < n && t[i] == ' ')
        i++;
    int kind = 0;
    if (n - i >= 5 && !strncmp(t + i, "field", 5))
        kind = 'f', i += 5;
    else if (n - i >= 5 && !strncmp(t + i, "param", 5))
        kind = 'p', i += 5;
    if (!kind || (i < n && t[i] != ' ' && t[i] != '\t'))
        return 0;
    while (i < n && (t[i] == ' ' || t[i] == '\t'))
        i++;
    *rest = i;
    return kind;
}

static bool is_ident_path(const char *t, size_t n)
{
    if (n == 0 || !docs_is_ident_start((unsigned char)t[0]))
        return false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)t[i];
        if (docs_is_ident_char(c) || c == '.')
            continue;
        if (c == '(' && (memmem(t + i, n - i, "(unnamed ", 9)))
            return t[n - 1] == ')';
        if (c == '[' && t[n - 1] == ']')
            return true;
        return false;
    }
    return true;
}

static enum md_section section_of(const char *t, size_t n, struct md_reader *r)
{
#define IS(s) (n == sizeof(s) - 1 && !strncasecmp(t, s, n))
    if (IS("-description"))
        return SEC_DESCRIPTION;
    if (IS("-struct-fields") || IS("-enum-fields") || IS("-parameters") || IS("-ioctlparameters"))
        return SEC_FIELDS;
    if (IS("-union-fields")) {
        r->union_fields = true;
        return SEC_FIELDS;
    }
    if (IS("-returns"))
        return SEC_RETURNS;
    if (IS("-remarks") || IS("remarks"))
        return SEC_REMARKS;
    if (IS("-see-also") || IS("see also"))
        return SEC_SEE_ALSO;
    if (IS("-prototype") || IS("-syntax") || IS("syntax"))
        return SEC_SYNTAX;
#undef IS
    return SEC_OTHER;
}

static void start_field(struct md_reader *r, const char *t, size_t n, enum docs_heading how, unsigned line)
{
    struct docs_field f = {0};
    f.heading = how;
    f.line = line;
    docs_parse_field_name(r->p, t, n, &f);
    if (f.dir != DOCS_DIR_NONE || f.optional)
        f.dir_source = "heading";
    if (!f.path[0]) {
        docs_page_note(r->p, line, true, "field heading without a name");
        f.path = "";
        f.heading = DOCS_HEAD_UNNAMED;
        f.ordinal = 1;
        for (size_t i = 0; i < r->p->fields.n; i++)
            f.ordinal += r->p->fields.v[i].heading == DOCS_HEAD_UNNAMED;
    }
    r->field = (int)docs_page_add_field(r->p, &f);
    r->field_has_text = false;
}

static bool parent_exists(struct docs_page *p, const char *t, size_t n)
{
    const char *dot = NULL;
    for (size_t i = 0; i < n; i++)
        if (t[i] == '.')
            dot = t + i;
    if (!dot)
        return false;
    size_t pl = (size_t)(dot - t);
    for (size_t i = 0; i < p->fields.n; i++)
        if (strlen(p->fields.v[i].path) == pl && !memcmp(p->fields.v[i].path, t, pl))
            return true;
    return false;
}

static void on_heading(struct md_reader *r, cmark_node *n)
{
    size_t len;
    const char *t = heading_text(r, n, &len);
    unsigned line = node_line(r, n);
    int level = cmark_node_get_heading_level(n);
    if (!t)
        return;
    size_t rest;
    int dash = dash_heading(t, len, &rest);
    if (dash) {
        if (level == 2 && r->sec != SEC_FIELDS)
            r->sec = SEC_FIELDS; /* "## -param x" at H2 opens the list itself */
        start_field(r, t + rest, len - rest, dash == 'p' ? DOCS_HEAD_PARAM : DOCS_HEAD_FIELD, line);
        return;
    }
    if (level == 1) {
        if (!r->p->title)
            r->p->title = arena_strndup(&r->p->arena, t, len);
        return;
    }
    if (level == 2) {
        r->sec = section_of(t, len, r);
        r->field = -1;
        if (r->sec == SEC_OTHER)
            docs_page_note(r->p, line, false, "section '%s' not read", ddigen_quoten(t, len));
        return;
    }
    /* A bare "### Name" is a field where the page has no -field headings, or
     * "X.(unnamed union)", or a dotted name under a documented parent. */
    size_t name_len = len;
    while (name_len > 0 && t[name_len - 1] == ']') {
        const char *open = memrchr(t, '[', name_len);
        if (!open)
            break;
        enum docs_dir d;
        bool opt;
        if (!docs_parse_direction(open + 1, (size_t)(t + name_len - open - 2), &d, &opt))
            break;
        name_len = (size_t)(open - t);
        while (name_len > 0 && t[name_len - 1] == ' ')
            name_len--;
    }
    bool fieldish = (r->sec == SEC_FIELDS || r->sec == SEC_SEE_ALSO) && is_ident_path(t, name_len) &&
                    (r->dash_headings == 0 || memmem(t, name_len, "(unnamed ", 9) ||
                     parent_exists(r->p, t, name_len));
    if (fieldish) {
        r->sec = SEC_FIELDS;
        start_field(r, t, len, DOCS_HEAD_BARE, line);
        return;
    }
    if (r->sec == SEC_FIELDS && r->field >= 0)
        docs_page_note(r->p, line, false, "stray heading '%s' read as text of %s", ddigen_quoten(t, len),
                       ddigen_quote(r->p->fields.v[r->field].path));
}

/* ---- blocks -------------------------------------------------------------- */

static void add_para(struct md_reader *r, const char *text, size_t n, unsigned line)
{
    struct docs_page *p = r->p;
    while (n > 0 && (text[0] == ' ' || text[0] == '\n'))
        text++, n--;
    while (n > 0 && (text[n - 1] == ' ' || text[n - 1] == '\n'))
        n--;
    if (n == 0)
        return;
    struct docs_para para = {0};
    para.line = line;
    switch (r->sec) {
    case SEC_FIELDS:
        if (r->field < 0) {
            para.section = DOCS_SEC_REMARKS;
            break;
        }
        para.section = DOCS_SEC_FIELD;
        para.field = r->field;
        if (!r->field_has_text) {
            struct docs_field *f = &p->fields.v[r->field];
            enum docs_dir d = DOCS_DIR_NONE;
            bool opt = false;
            char *copy = arena_strndup(&p->arena, text, n);
            size_t skip = docs_body_marker(copy, &d, &opt);
            if (skip) {
                f->marker_line = line, f->body_dir = d, f->body_optional = opt;
                if (f->dir == DOCS_DIR_NONE && d != DOCS_DIR_NONE) {
                    f->dir = d;
                    f->dir_source = "body";
                }
                if (opt && !f->optional) {
                    f->optional = true;
                    if (!f->dir_source)
                        f->dir_source = "body";
                }
                text += skip, n -= skip;
            }
        }
        r->field_has_text = true;
        break;
    case SEC_DESCRIPTION:
        para.section = DOCS_SEC_DESCRIPTION;
        if (!p->description) {
            p->description = docs_squash(&p->arena, text, n);
            p->description_line = line;
        }
        break;
    case SEC_RETURNS:
        para.section = DOCS_SEC_RETURNS;
        if (!p->returns) {
            p->returns = docs_squash(&p->arena, text, n);
            p->returns_line = line;
        }
        break;
    case SEC_SEE_ALSO: {
        const char *s = docs_squash(&p->arena, text, n);
        DOCS_PUSH(p->see_also, s);
        return;
    }
    case SEC_REMARKS:
        para.section = DOCS_SEC_REMARKS;
        break;
    default:
        return;
    }
    if (n == 0)
        return;
    para.text = arena_strndup(&p->arena, text, n);
    DOCS_PUSH(p->paras, para);
}

static void on_code(struct md_reader *r, cmark_node *n)
{
    struct docs_page *p = r->p;
    unsigned line = node_line(r, n);
    int fence_len = 0, fence_off = 0;
    char fence_char = 0;
    int fenced = cmark_node_get_fenced(n, &fence_len, &fence_off, &fence_char);
    if (fenced) {
        /* cmark runs an unclosed fence to the end of the document. */
        unsigned end = (unsigned)cmark_node_get_end_line(n) + r->body_line0;
        const char *last = end <= r->nlines ? r->lines[end] : "";
        while (*last == ' ')
            last++;
        bool closed = end > line && last[0] == fence_char && last[1] == fence_char && last[2] == fence_char;
        if (!closed) {
            ddigen_error(p->path, line, "unterminated code fence (runs to the end of the page)");
            return;
        }
    }
    if (r->sec != SEC_SYNTAX || p->has_syntax)
        return;
    const char *code = cmark_node_get_literal(n);
    if (!code || !*code)
        return;
    p->has_syntax = true;
    p->syntax.code = arena_strdup(&p->arena, code);
    p->syntax.line = line + (fenced ? 1 : 0);
    const char *info = cmark_node_get_fence_info(n);
    p->syntax.lang = info && *info ? arena_strdup(&p->arena, info) : NULL;
}

static void on_block(struct md_reader *r, cmark_node *n, unsigned depth)
{
    if (depth > MD_MAX_NESTING) {
        if (!r->too_deep)
            ddigen_error(r->p->path, node_line(r, n),
                         "quotes or lists nested more than %d levels deep; the page is not read", MD_MAX_NESTING);
        r->too_deep = true;
        return;
    }
    switch (cmark_node_get_type(n)) {
    case CMARK_NODE_HEADING:
        on_heading(r, n);
        return;
    case CMARK_NODE_CODE_BLOCK:
        on_code(r, n);
        return;
    case CMARK_NODE_PARAGRAPH:
        docs_buf_reset(&r->tmp);
        flatten(n, &r->tmp);
        add_para(r, r->tmp.data ? r->tmp.data : "", r->tmp.len, node_line(r, n));
        return;
    case CMARK_NODE_HTML_BLOCK: {
        const char *lit = cmark_node_get_literal(n);
        docs_buf_reset(&r->tmp);
        strip_tags(&r->tmp, lit ? lit : "");
        add_para(r, r->tmp.data ? r->tmp.data : "", r->tmp.len, node_line(r, n));
        return;
    }
    case CMARK_NODE_THEMATIC_BREAK:
        return;
    default:
        break;
    }
    /* Containers (lists, quotes, tables and their rows): read the children;
     * a table row is one paragraph with its cells separated by " | ". */
    const char *type = cmark_node_get_type_string(n);
    if (type && !strcmp(type, "table_row")) {
        docs_buf_reset(&r->tmp);
        for (cmark_node *c = cmark_node_first_child(n); c; c = cmark_node_next(c)) {
            if (c != cmark_node_first_child(n))
                docs_buf_puts(&r->tmp, " | ");
            flatten(c, &r->tmp);
        }
        add_para(r, r->tmp.data ? r->tmp.data : "", r->tmp.len, node_line(r, n));
        return;
    }
    for (cmark_node *c = cmark_node_first_child(n); c && !r->too_deep; c = cmark_node_next(c))
        on_block(r, c, depth + 1);
}

static void index_lines(struct md_reader *r, const char *buf, size_t len)
{
    unsigned n = 1;
    const char *end = buf + len;
    for (const char *q = buf; (q = memchr(q, '\n', (size_t)(end - q))) != NULL; q++)
        n++;
    r->lines = docs_xrealloc(NULL, (n + 2) * sizeof *r->lines);
    r->lines[0] = buf;
    unsigned k = 1;
    r->lines[k++] = buf;
    for (const char *q = buf; (q = memchr(q, '\n', (size_t)(end - q))) != NULL; q++)
        r->lines[k++] = q + 1;
    r->nlines = k - 1;
}

/* ---- cmark-gfm's memory -------------------------------------------------- */

/* cmark-gfm allocates every node, inline, delimiter and string buffer on
 * its own and frees them one by one: the malloc family and the tree's free
 * were an eighth of `ddigen docs`. A page's parse allocates from a bump
 * heap instead, rewound once the page is read (util/bump.h). cmark's
 * allocator hooks take no context, hence one heap per thread. (cmark's own
 * arena allocator unmaps its slabs at each reset, so every page would
 * fault its pages in again.) */
static _Thread_local struct bump_heap md_heap;

static void *heap_calloc(size_t n, size_t size)
{
    return bump_calloc(&md_heap, n, size);
}

static void *heap_realloc(void *ptr, size_t size)
{
    return bump_realloc(&md_heap, ptr, size);
}

static void heap_free(void *ptr)
{
    (void)ptr; /* the page's heap is rewound whole */
}

static cmark_mem md_heap_mem = {heap_calloc, heap_realloc, heap_free};

void docs_md_release(void)
{
    bump_release(&md_heap);
}

static cmark_parser *new_parser(void)
{
    cmark_parser *parser = cmark_parser_new_with_mem(CMARK_OPT_DEFAULT, &md_heap_mem);
    static int registered;
    if (!registered) {
        cmark_gfm_core_extensions_ensure_registered();
        registered = 1;
    }
    cmark_syntax_extension *table = cmark_find_syntax_extension("table");
    if (table)
        cmark_parser_attach_syntax_extension(parser, table);
    return parser;
}

/* Counts "-field"/"-param" headings first: whether bare "### Name" headings
 * are fields depends on whether the page has any. */
static unsigned count_dash_headings(struct md_reader *r, cmark_node *doc)
{
    unsigned count = 0;
    for (cmark_node *c = cmark_node_first_child(doc); c; c = cmark_node_next(c)) {
        if (cmark_node_get_type(c) != CMARK_NODE_HEADING)
            continue;
        size_t len, rest;
        const char *t = heading_text(r, c, &len);
        if (t && dash_heading(t, len, &rest))
            count++;
    }
    return count;
}

int docs_read_markdown(struct docs_page *p, const char *buf, size_t len)
{
    struct md_reader r = {.p = p, .src = buf, .field = -1};
    index_lines(&r, buf, len);
    const char *body = buf;
    if (!strncmp(buf, "---\n", 4) || !strncmp(buf, "--- \n", 5)) {
        unsigned close = 0;
        for (unsigned l = 2; l <= r.nlines; l++) {
            const char *s = r.lines[l];
            if (!strncmp(s, "---", 3) && (s[3] == '\n' || s[3] == '\0' || s[3] == ' ')) {
                close = l;
                break;
            }
        }
        if (!close) {
            ddigen_error(p->path, 1, "unterminated front matter: no closing '---' line");
            free(r.lines);
            return -1;
        }
        docs_read_front_matter(p, r.lines[2], (size_t)(r.lines[close] - r.lines[2]));
        body = close < r.nlines ? r.lines[close + 1] : buf + len;
        r.body_line0 = close;
    }
    if (!p->uid)
        docs_page_note(p, 1, true, "no UID in front matter");
    unsigned wide = row_too_wide(body, (size_t)(buf + len - body));
    if (wide) {
        ddigen_error(p->path, wide + r.body_line0, "a line with more than %d '|' (table cells); the page is not read",
                     MD_MAX_TABLE_CELLS);
        free(r.lines);
        return -1;
    }
    cmark_parser *parser = new_parser();
    cmark_parser_feed(parser, body, (size_t)(buf + len - body));
    cmark_node *doc = cmark_parser_finish(parser);
    r.dash_headings = count_dash_headings(&r, doc);
    for (cmark_node *c = cmark_node_first_child(doc); c && !r.too_deep; c = cmark_node_next(c))
        on_block(&r, c, 1);
    if (r.union_fields && p->kind == DOCS_KIND_STRUCT && p->fields.n == 0)
        p->kind = DOCS_KIND_UNION;
    /* the tree, the parser and its extension list are all on the heap */
    bump_rewind(&md_heap);
    docs_buf_free(&r.tmp);
    free(r.lines);
    if (r.too_deep)
        return -1;
    if (p->title)
        docs_parse_title(p, p->title);
    return 0;
}
