/* The docs stage driver: finds pages, picks a reader, runs syntax parsing and
 * rule extraction, and writes each page as canonical XML (fixed attribute
 * order, page order = sorted paths, members in page order). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "docs.h"

#include <libxml/parser.h>

#include "../util/deps.h"
#include "../util/diag.h"
#include "../util/output.h"
#include "model.h"
#include "outcheck.h"
#include "readers.h"
#include "rules.h"
#include "syntax.h"
#include "text.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>


const char *ddigen_docs_rule_kind_name(unsigned kind)
{
    return kind < DOCS_RULE_KIND_COUNT ? docs_rule_kind_name((enum docs_rule_kind)kind) : NULL;
}

void ddigen_docs_shutdown(void)
{
    docs_syntax_shutdown();
    docs_md_release(); /* generate reads the pages on a thread that then ends */
}

/* ---- XML ----------------------------------------------------------------- */

/* The output is streamed as text in exactly the bytes libxml2's formatted
 * serializer (xmlDocDumpFormatMemoryEnc, UTF-8) gives for the same tree:
 * two-space indent, one element per line, "<x/>" when empty, text content
 * inline. No tree is built on the `ddigen docs` path. */

struct xw {
    struct docs_buf *b;
    int depth;      /* depth of the element being written */
    bool open_tag;  /* start tag of the innermost element not closed by '>' yet */
    const char *stack[64];
    bool has_children[64];
    int top;        /* elements open */
};

static void xw_put(struct xw *w, const char *s, size_t n) { docs_buf_put(w->b, s, n); }
#define XW_LIT(w, lit) xw_put((w), (lit), sizeof(lit) - 1)

static void xw_indent(struct xw *w, int depth)
{
    static const char spaces[] = "                                                            "; /* 60 */
    int n = depth > 30 ? 30 : depth;
    xw_put(w, spaces, (size_t)n * 2);
}

/* Escapes s (XML 1.0 forbids most C0 controls and U+FFFE/U+FFFF even when
 * escaped: they become ' ' and U+FFFD, as before). */
static void xw_escape(struct xw *w, const char *s, bool attribute)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t run = 0;
    for (size_t i = 0;; i++) {
        unsigned char c = u[i];
        if (c >= 0x20 && c != '<' && c != '>' && c != '&' && c != '"' && c != 0xEF)
            continue;
        if (c == '"' && !attribute)
            continue;
        if (c == 0xEF && !(u[i + 1] == 0xBF && (u[i + 2] == 0xBE || u[i + 2] == 0xBF)))
            continue;
        xw_put(w, s + run, i - run);
        run = i + 1;
        switch (c) {
        case '\0':
            return;
        case '<': XW_LIT(w, "&lt;"); break;
        case '>': XW_LIT(w, "&gt;"); break;
        case '&': XW_LIT(w, "&amp;"); break;
        case '"': XW_LIT(w, "&quot;"); break;
        case '\n':
            if (attribute)
                XW_LIT(w, "&#10;");
            else
                XW_LIT(w, "\n");
            break;
        case '\t':
            if (attribute)
                XW_LIT(w, "&#9;");
            else
                XW_LIT(w, "\t");
            break;
        case 0xEF: /* U+FFFE / U+FFFF -> U+FFFD */
            XW_LIT(w, "\xEF\xBF\xBD");
            i += 2;
            run = i + 1;
            break;
        default: /* other C0 controls */
            XW_LIT(w, " ");
            break;
        }
    }
}

/* Closes a pending start tag before a child element. */
static void xw_child_start(struct xw *w)
{
    if (w->top > 0 && w->open_tag) {
        XW_LIT(w, ">\n");
        w->open_tag = false;
    }
    if (w->top > 0)
        w->has_children[w->top - 1] = true;
}

static void xw_start(struct xw *w, const char *name)
{
    xw_child_start(w);
    xw_indent(w, w->depth + w->top);
    XW_LIT(w, "<");
    docs_buf_puts(w->b, name);
    w->stack[w->top] = name;
    w->has_children[w->top] = false;
    w->top++;
    w->open_tag = true;
}

static void xw_end(struct xw *w)
{
    w->top--;
    if (w->open_tag) {
        XW_LIT(w, "/>\n");
    } else {
        xw_indent(w, w->depth + w->top);
        XW_LIT(w, "</");
        docs_buf_puts(w->b, w->stack[w->top]);
        XW_LIT(w, ">\n");
    }
    w->open_tag = false;
}

/* An attribute written even when empty. */
static void xw_attr_always(struct xw *w, const char *name, const char *value)
{
    XW_LIT(w, " ");
    docs_buf_puts(w->b, name);
    XW_LIT(w, "=\"");
    xw_escape(w, value ? value : "", true);
    XW_LIT(w, "\"");
}

static void attr(struct xw *w, const char *name, const char *value)
{
    if (value && *value)
        xw_attr_always(w, name, value);
}

static void attr_u(struct xw *w, const char *name, unsigned v)
{
    char buf[16];
    snprintf(buf, sizeof buf, "%u", v);
    attr(w, name, buf);
}

/* Ends the start tag of a text element: its content (NULL: "<x/>"). */
static void xw_text_end(struct xw *w, const char *text)
{
    if (!text) {
        xw_end(w);
        return;
    }
    XW_LIT(w, ">");
    xw_escape(w, text, false);
    w->top--;
    XW_LIT(w, "</");
    docs_buf_puts(w->b, w->stack[w->top]);
    XW_LIT(w, ">\n");
    w->open_tag = false;
}

static void child(struct xw *w, const char *name, const char *text)
{
    xw_start(w, name);
    xw_text_end(w, text);
}

static const char *heading_name(enum docs_heading h)
{
    static const char *const names[] = {"field", "param", "bare", "text", "unnamed"};
    return names[h];
}

/* Where each member's text and children are, computed once per page: a
 * scan of the later paragraphs and fields per member made pages quadratic
 * in their fields. Chains end at paras.n / fields.n. */
struct member_index {
    size_t *first_para;  /* per field: its first paragraph */
    size_t *next_para;   /* per paragraph: the next one of the same field */
    size_t *first_child; /* per field: its first child */
    size_t *next_sibling;
};

/* Body text of a field: its paragraphs squashed, joined by blank lines. */
static const char *field_text(struct docs_page *p, size_t index, const struct member_index *mi,
                              struct docs_buf *b)
{
    docs_buf_reset(b);
    for (size_t i = mi->first_para[index]; i < p->paras.n; i = mi->next_para[i]) {
        const struct docs_para *para = &p->paras.v[i];
        if (b->len)
            docs_buf_put(b, "\n\n", 2);
        /* docs_squash, straight into the buffer, a word at a time */
        const char *t = para->text;
        bool first = true;
        for (;;) {
            while (*t == ' ' || *t == '\n' || *t == '\t' || *t == '\r' || *t == '\f' || *t == '\v')
                t++;
            if (!*t)
                break;
            const char *e = t;
            while (*e && *e != ' ' && *e != '\n' && *e != '\t' && *e != '\r' && *e != '\f' && *e != '\v')
                e++;
            if (!first)
                docs_buf_put(b, " ", 1);
            docs_buf_put(b, t, (size_t)(e - t));
            first = false;
            t = e;
        }
    }
    return b->len ? b->data : NULL;
}

static const char *leaf(const char *path)
{
    /* last component, not splitting inside "(unnamed union)" */
    const char *l = path;
    for (const char *s = path; *s; s++)
        if (*s == '.' && s[1] && s[1] != '.')
            l = s + 1;
    return l;
}

static void write_member(struct xw *w, struct docs_page *p, size_t i, const struct member_index *mi,
                         struct docs_buf *tmp)
{
    const struct docs_field *f = &p->fields.v[i];
    const char *elem = f->heading == DOCS_HEAD_PARAM || p->kind == DOCS_KIND_CALLBACK ||
                               p->kind == DOCS_KIND_FUNCTION || p->kind == DOCS_KIND_MACRO
                           ? "param"
                       : p->kind == DOCS_KIND_ENUM ? "value"
                                                   : "field";
    xw_start(w, elem);
    attr(w, "name", f->path[0] ? leaf(f->path) : NULL);
    attr(w, "path", f->path);
    char id[64];
    if (f->path[0]) {
        XW_LIT(w, " id=\"");
        xw_escape(w, p->name ? p->name : "(null)", true);
        XW_LIT(w, ".");
        xw_escape(w, f->path, true);
        XW_LIT(w, "\"");
    } else {
        snprintf(id, sizeof id, ".#%u", f->ordinal);
        XW_LIT(w, " id=\"");
        xw_escape(w, p->name ? p->name : "(null)", true);
        xw_escape(w, id, true);
        XW_LIT(w, "\"");
    }
    attr_u(w, "line", f->line);
    attr(w, "heading", heading_name(f->heading));
    if (f->ordinal)
        attr_u(w, "ordinal", f->ordinal);
    attr(w, "value", f->value);
    attr(w, "array", f->array);
    attr(w, "direction", docs_dir_name(f->dir));
    if (f->optional)
        attr(w, "optional", "true");
    attr(w, "direction-from", f->dir != DOCS_DIR_NONE || f->optional ? f->dir_source : NULL);
    if (f->anonymous_union)
        attr(w, "anonymous", "union");
    if (p->has_syntax && p->syntax.decls.n && f->path[0] && !f->anonymous_union)
        attr(w, "in-syntax", f->in_block ? "true" : "false");
    attr(w, "candidate", f->candidate);
    attr(w, "candidate-basis", f->candidate_basis);
    const char *text = field_text(p, i, mi, tmp);
    if (text)
        child(w, "text", text);
    for (size_t k = mi->first_child[i]; k < p->fields.n; k = mi->next_sibling[k])
        write_member(w, p, k, mi, tmp);
    xw_end(w);
}

static void write_syntax(struct xw *w, struct docs_page *p)
{
    const struct docs_syntax *sx = &p->syntax;
    xw_start(w, "syntax");
    attr_u(w, "line", sx->line);
    attr(w, "lang", sx->lang);
    attr(w, "status", sx->status ? sx->status : "not-parsed");
    attr(w, "declares", sx->type_name);
    if (sx->clang_errors)
        attr_u(w, "clang-errors", sx->clang_errors);
    if (sx->fragment)
        attr(w, "fragment", "true");
    child(w, "code", sx->code);
    for (size_t i = 0; i < sx->decls.n; i++) {
        const struct docs_decl *d = &sx->decls.v[i];
        xw_start(w, "decl");
        xw_attr_always(w, "path", d->path ? d->path : ""); /* "" for an unnamed parameter */
        attr(w, "type", d->type);
        attr(w, "array", d->array);
        attr(w, "value", d->value);
        attr(w, "sal", d->sal);
        if (d->anonymous)
            attr(w, "anonymous", "true");
        attr_u(w, "line", d->line);
        xw_end(w);
    }
    for (size_t i = 0; i < sx->mismatches.n; i++) {
        xw_start(w, "mismatch");
        attr(w, "kind", sx->mismatches.v[i].severity);
        attr_u(w, "line", sx->mismatches.v[i].line);
        xw_text_end(w, sx->mismatches.v[i].text);
    }
    xw_end(w);
}

static void member_index_build(const struct docs_page *p, struct member_index *mi)
{
    size_t n = p->fields.n;
    mi->first_para = docs_xrealloc(NULL, (n + 1) * sizeof *mi->first_para);
    mi->next_para = docs_xrealloc(NULL, (p->paras.n + 1) * sizeof *mi->next_para);
    mi->first_child = docs_xrealloc(NULL, (n + 1) * sizeof *mi->first_child);
    mi->next_sibling = docs_xrealloc(NULL, (n + 1) * sizeof *mi->next_sibling);
    for (size_t i = 0; i < n; i++) {
        mi->first_para[i] = p->paras.n;
        mi->first_child[i] = mi->next_sibling[i] = n;
    }
    for (size_t i = p->paras.n; i-- > 0;) { /* back to front, so each chain is in order */
        mi->next_para[i] = p->paras.n;
        if (p->paras.v[i].section == DOCS_SEC_FIELD && p->paras.v[i].field >= 0 &&
            (size_t)p->paras.v[i].field < n) {
            mi->next_para[i] = mi->first_para[p->paras.v[i].field];
            mi->first_para[p->paras.v[i].field] = i;
        }
    }
    for (size_t k = n; k-- > 0;) { /* a child follows its parent; built back to front, kept in order */
        int parent = p->fields.v[k].parent;
        if (parent >= 0 && (size_t)parent < k) {
            mi->next_sibling[k] = mi->first_child[parent];
            mi->first_child[parent] = k;
        }
    }
}

static void member_index_free(struct member_index *mi)
{
    free(mi->first_para);
    free(mi->next_para);
    free(mi->first_child);
    free(mi->next_sibling);
}

/* Writes one <page> at the given element depth (2 under ddi-spec/docs). */
static void write_page(struct docs_page *p, struct docs_buf *out, int depth, const char *source)
{
    struct xw wr = {.b = out, .depth = depth};
    struct xw *w = &wr;
    struct docs_buf tmp = {0};
    xw_start(w, "page");
    attr(w, "name", p->name);
    attr(w, "kind", docs_kind_name(p->kind));
    attr(w, "uid", p->uid);
    attr(w, "header", p->header);
    attr(w, "irql", p->irql);
    attr(w, "source", source);
    attr(w, "format", docs_format_name(p->format));
    attr(w, "lang", p->lang);
    attr(w, "prose-rules", p->prose_rules ? "extracted" : "not-extracted");
    if (!p->prose_rules)
        attr(w, "prose-note",
             "prose is not in English: structure, directions and requirements are read, "
             "rules from prose are not; modal sentences are listed as unextracted");
    child(w, "title", p->title);
    if (p->description) {
        xw_start(w, "description");
        attr_u(w, "line", p->description_line);
        xw_text_end(w, p->description);
    }
    if (p->avail.client || p->avail.server) {
        xw_start(w, "availability");
        attr(w, "client", p->avail.client);
        attr(w, "server", p->avail.server);
        attr(w, "wddm", p->avail.wddm);
        attr(w, "ddi-version", p->avail.ddi);
        attr_u(w, "line", p->avail.line);
        xw_end(w);
    }
    if (p->has_syntax)
        write_syntax(w, p);
    struct member_index mi;
    member_index_build(p, &mi);
    xw_start(w, "members");
    for (size_t i = 0; i < p->fields.n; i++)
        if (p->fields.v[i].parent < 0)
            write_member(w, p, i, &mi, &tmp);
    xw_end(w);
    member_index_free(&mi);
    if (p->returns) {
        xw_start(w, "returns");
        attr_u(w, "line", p->returns_line);
        xw_text_end(w, p->returns);
    }
    xw_start(w, "rules");
    for (size_t i = 0; i < p->rules.n; i++) {
        const struct docs_rule *r = &p->rules.v[i];
        xw_start(w, "rule");
        attr(w, "id", r->id);
        attr(w, "kind", docs_rule_kind_name(r->kind));
        attr(w, "subject", r->subject);
        attr_u(w, "line", r->line);
        if (r->condition)
            attr(w, "condition", r->condition);
        for (unsigned k = 0; k < r->nops; k++) {
            xw_start(w, "operand");
            attr(w, "name", r->ops[k].name);
            xw_attr_always(w, "value", r->ops[k].value);
            xw_end(w);
        }
        if (r->sentence)
            child(w, "sentence", r->sentence);
        xw_end(w);
    }
    xw_end(w);
    if (p->unextracted.n) {
        xw_start(w, "unextracted");
        for (size_t i = 0; i < p->unextracted.n; i++) {
            const struct docs_unextracted *x = &p->unextracted.v[i];
            xw_start(w, "sentence");
            attr(w, "subject", x->subject);
            attr_u(w, "line", x->line);
            attr(w, "reason", x->reason);
            xw_text_end(w, x->sentence);
        }
        xw_end(w);
    }
    if (p->see_also.n) {
        xw_start(w, "see-also");
        for (size_t i = 0; i < p->see_also.n; i++)
            child(w, "ref", p->see_also.v[i]);
        xw_end(w);
    }
    for (size_t i = 0; i < p->notes.n; i++) {
        xw_start(w, "diagnostic");
        attr(w, "severity", p->notes.v[i].severity);
        attr_u(w, "line", p->notes.v[i].line);
        xw_text_end(w, p->notes.v[i].text);
    }
    xw_end(w);
    docs_buf_free(&tmp);
}

/* ---- one page ------------------------------------------------------------ */

static enum ddigen_docs_format sniff(const char *name, const char *data, size_t len)
{
    const char *dot = strrchr(name, '.');
    if (dot && (!strcasecmp(dot, ".html") || !strcasecmp(dot, ".htm")))
        return DDIGEN_DOCS_HTML;
    if (dot && !strcasecmp(dot, ".md"))
        return DDIGEN_DOCS_MARKDOWN;
    size_t i = 0;
    if (len >= 3 && !memcmp(data, "\xEF\xBB\xBF", 3))
        i = 3;
    while (i < len && (data[i] == ' ' || data[i] == '\n' || data[i] == '\r' || data[i] == '\t'))
        i++;
    if (len - i >= 3 && !memcmp(data + i, "---", 3))
        return DDIGEN_DOCS_MARKDOWN;
    if (i < len && data[i] == '<')
        return DDIGEN_DOCS_HTML;
    return DDIGEN_DOCS_TEXT;
}

static void count(struct docs_page *p, struct ddigen_docs_stats *st)
{
    st->pages++;
    for (size_t i = 0; i < p->fields.n; i++) {
        const struct docs_field *f = &p->fields.v[i];
        st->members++;
        st->dash_headings += f->heading == DOCS_HEAD_FIELD || f->heading == DOCS_HEAD_PARAM;
        st->bare_headings += f->heading == DOCS_HEAD_BARE;
        st->unnamed += f->heading == DOCS_HEAD_UNNAMED;
        st->directions += f->dir != DOCS_DIR_NONE;
    }
    if (p->has_syntax) {
        st->syntax_blocks++;
        st->syntax_parsed += p->syntax.status && strcmp(p->syntax.status, "unparsed") != 0;
        st->syntax_disagree += p->syntax.mismatches.n > 0;
    }
    st->modal_sentences += p->modal_sentences;
    st->unextracted += (unsigned)p->unextracted.n;
    st->rules += (unsigned)p->rules.n;
    for (size_t i = 0; i < p->rules.n; i++)
        st->rules_by_kind[p->rules.v[i].kind]++;
}

/* Front matter with a UID that is not an API page (header overviews). */
static bool overview_page(const struct docs_page *p)
{
    return p->uid && !strncasecmp(p->uid, "NA:", 3);
}

/* Reads one page up to its rules. Returns the page (syntax block not parsed
 * yet), or NULL when it is not written (unreadable or skipped; *rc says). */
static struct docs_page *read_page(const char *name, const char *data, size_t len, enum ddigen_docs_format fmt,
                                   bool listed, struct ddigen_docs_stats *st, int *rc_out)
{
    if (fmt == DDIGEN_DOCS_AUTO)
        fmt = sniff(name, data, len);
    struct docs_page *p = docs_page_new(name, (enum docs_format)fmt);
    st->files++;
    size_t clean_len = 0;
    char *clean = NULL;
    int rc = -1;
    if (len > DDIGEN_DOCS_MAX_PAGE_BYTES) {
        ddigen_error(name, 0, "page of %zu bytes: pages above %zu bytes (4 MiB) are refused", len,
                     DDIGEN_DOCS_MAX_PAGE_BYTES);
        st->failed++;
        goto fail;
    }
    clean = docs_clean_input(p, data, len, &clean_len);
    if (!clean) {
        st->failed++;
        goto fail;
    }
    if (clean_len == 0 || strspn(clean, " \n\t") == clean_len) {
        ddigen_error(name, 1, "empty page");
        st->failed++;
        goto fail;
    }
    if (fmt == DDIGEN_DOCS_MARKDOWN)
        rc = docs_read_markdown(p, clean, clean_len);
    else if (fmt == DDIGEN_DOCS_HTML)
        rc = docs_read_html(p, clean, clean_len);
    else
        rc = docs_read_text(p, clean, clean_len);
    if (rc != 0) {
        st->failed++;
        goto fail;
    }
    if (fmt == DDIGEN_DOCS_MARKDOWN && (!p->uid || overview_page(p)) && !listed) {
        /* Folders hold READMEs and header overviews beside the pages. */
        ddigen_note(name, 1, "skipped: %s", p->uid ? "header overview page" : "no UID front matter");
        st->skipped++;
        rc = 1;
        goto fail;
    }
    free(clean);
    docs_finish_page(p);
    *rc_out = 0;
    return p;
fail:
    free(clean);
    docs_page_free(p);
    *rc_out = rc < 0 ? -1 : 0;
    return NULL;
}

static void emit_page(struct docs_page *p, const char *source, struct docs_buf *out, int depth,
                      struct ddigen_docs_stats *st)
{
    write_page(p, out, depth, source);
    count(p, st);
    docs_page_free(p);
}

/* Synchronous path (one page in memory): syntax, then rules, as always. */
static int read_one(const char *name, const char *source, const char *data, size_t len,
                    enum ddigen_docs_format fmt, bool listed, const struct ddigen_docs_options *opt,
                    struct docs_buf *out, int depth, struct ddigen_docs_stats *st)
{
    int rc;
    struct docs_page *p = read_page(name, data, len, fmt, listed, st, &rc);
    if (!p)
        return rc;
    if (opt->parse_syntax)
        docs_parse_syntax(p);
    docs_extract_rules(p);
    emit_page(p, source, out, depth, st);
    return 0;
}

/* ---- libclang on a second thread ----------------------------------------
 * Rules do not read what the syntax block says, so a run extracts the rules
 * of page i on the main thread and hands its syntax block to a worker, which
 * parses it while the main thread reads the next pages. Pages are written in
 * order: page i is written once LOOKAHEAD more pages have been read (or at
 * the end), waiting for its block if need be. The page's notes from rules
 * and syntax are merged in the order a sequential run gives (syntax first)
 * and printed when the page is written, so stderr is deterministic too. */

#define LOOKAHEAD 128

struct worker {
    pthread_t thread;
    bool started, stop;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct docs_page **queue;
    size_t queued, cap, done;
};

static void *worker_main(void *arg)
{
    struct worker *w = arg;
    pthread_mutex_lock(&w->mu);
    for (;;) {
        while (w->done == w->queued && !w->stop)
            pthread_cond_wait(&w->cv, &w->mu);
        if (w->done == w->queued)
            break;
        struct docs_page *p = w->queue[w->done];
        pthread_mutex_unlock(&w->mu);
        docs_parse_syntax(p);
        pthread_mutex_lock(&w->mu);
        w->done++;
        pthread_cond_broadcast(&w->cv);
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* Queues p; returns its ticket. */
static size_t worker_push(struct worker *w, struct docs_page *p)
{
    if (!w->started) {
        pthread_mutex_init(&w->mu, NULL);
        pthread_cond_init(&w->cv, NULL);
        if (pthread_create(&w->thread, NULL, worker_main, w) != 0) {
            fputs("ddigen: cannot start a thread\n", stderr);
            abort();
        }
        w->started = true;
    }
    pthread_mutex_lock(&w->mu);
    if (w->queued == w->cap) {
        w->cap = w->cap ? w->cap * 2 : 32;
        w->queue = docs_xrealloc(w->queue, w->cap * sizeof *w->queue);
    }
    w->queue[w->queued] = p;
    size_t ticket = w->queued++;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    return ticket;
}

static void worker_wait(struct worker *w, size_t ticket)
{
    pthread_mutex_lock(&w->mu);
    while (w->done <= ticket)
        pthread_cond_wait(&w->cv, &w->mu);
    pthread_mutex_unlock(&w->mu);
}

static void worker_finish(struct worker *w)
{
    if (!w->started)
        return;
    pthread_mutex_lock(&w->mu);
    w->stop = true;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
    free(w->queue);
}

struct pending {
    struct docs_page *p;
    const char *source;
    bool queued;        /* syntax block with the worker */
    size_t ticket;
    size_t notes_at;    /* first note added after reading (rules, syntax) */
    size_t syntax_at;   /* first note from the syntax block */
};

static void rotate_notes(struct docs_page *p, size_t a, size_t b)
{
    /* notes [a, b) are the rules', [b, n) the syntax block's: syntax first */
    size_t n = p->notes.n;
    if (b == a || b == n)
        return;
    struct docs_note *tmp = docs_xrealloc(NULL, (b - a) * sizeof *tmp);
    memcpy(tmp, p->notes.v + a, (b - a) * sizeof *tmp);
    memmove(p->notes.v + a, p->notes.v + b, (n - b) * sizeof *tmp);
    memcpy(p->notes.v + a + (n - b), tmp, (b - a) * sizeof *tmp);
    free(tmp);
}

static void flush_one(struct worker *w, struct pending *pd, struct docs_buf *out, struct ddigen_docs_stats *st)
{
    struct docs_page *p = pd->p;
    if (pd->queued) {
        worker_wait(w, pd->ticket);
        rotate_notes(p, pd->notes_at, pd->syntax_at);
        p->defer_notes = false;
        for (size_t i = pd->notes_at; i < p->notes.n; i++)
            ddigen_report(strcmp(p->notes.v[i].severity, "warning") ? DDIGEN_NOTE : DDIGEN_WARNING, p->path,
                          p->notes.v[i].line, "%s", p->notes.v[i].text);
    }
    emit_page(p, pd->source, out, 2, st);
}

/* Writes the page and hands a copy of its XML to the output checker. */
static void flush_checked(struct worker *w, struct pending *pd, struct docs_buf *out,
                          struct ddigen_docs_stats *st, struct docs_outcheck *check)
{
    size_t at = out->len;
    flush_one(w, pd, out, st);
    docs_outcheck_push(check, out->data + at, out->len - at);
}

/* Parses streamed XML back into a tree (the tree API is for tests, fuzz
 * targets and other stages; `ddigen docs` itself never builds one). */
static xmlDocPtr reparse(const char *data, size_t len)
{
    return xmlReadMemory(data, (int)len, "docs.xml", NULL, XML_PARSE_NONET | XML_PARSE_NOBLANKS | XML_PARSE_HUGE);
}

int ddigen_docs_read_buffer(const char *name, const char *data, size_t len, enum ddigen_docs_format fmt,
                            const struct ddigen_docs_options *opt, xmlNodePtr docs_elem,
                            struct ddigen_docs_stats *stats)
{
    struct ddigen_docs_stats local = {0};
    struct ddigen_docs_options defaults = {.parse_syntax = true};
    struct docs_buf out = {0};
    int rc = read_one(name, name, data, len, fmt, true, opt ? opt : &defaults, &out, 0,
                      stats ? stats : &local);
    if (out.len) {
        xmlDocPtr page = reparse(out.data, out.len);
        xmlNodePtr root = page ? xmlDocGetRootElement(page) : NULL;
        if (root)
            xmlAddChild(docs_elem, xmlDocCopyNode(root, docs_elem->doc, 1));
        xmlFreeDoc(page);
    }
    docs_buf_free(&out);
    return rc;
}

/* ---- finding pages ------------------------------------------------------- */

struct input {
    char *path;   /* for reading and diagnostics */
    char *source; /* what the XML records: relative to the argument */
    bool listed;  /* named on the command line */
};

struct input_list {
    struct input *v;
    size_t n, cap;
};

static bool page_extension(const char *name)
{
    const char *dot = strrchr(name, '.');
    return dot && (!strcasecmp(dot, ".md") || !strcasecmp(dot, ".txt") || !strcasecmp(dot, ".html") ||
                   !strcasecmp(dot, ".htm"));
}

/* Folders already read, by device and inode: a symlink back up the tree
 * (sub/up -> ..) or two links to one folder must not read pages twice. */
struct visited {
    struct {
        dev_t dev;
        ino_t ino;
    } *v;
    size_t n, cap;
};

static bool first_visit(struct visited *seen, const struct stat *sb)
{
    for (size_t i = 0; i < seen->n; i++)
        if (seen->v[i].dev == sb->st_dev && seen->v[i].ino == sb->st_ino)
            return false;
    if (seen->n == seen->cap) {
        seen->cap = seen->cap ? seen->cap * 2 : 16;
        seen->v = docs_xrealloc(seen->v, seen->cap * sizeof *seen->v);
    }
    seen->v[seen->n].dev = sb->st_dev;
    seen->v[seen->n].ino = sb->st_ino;
    seen->n++;
    return true;
}

static void walk_dir(const char *dir, const char *rel, struct input_list *out, struct visited *seen, int depth)
{
    DIR *d = opendir(dir);
    if (!d) {
        ddigen_error(dir, 0, "cannot open folder");
        return;
    }
    ddigen_deps_add(dir); /* a page added or removed changes the folder's time */
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char *path = NULL, *sub = NULL;
        if (asprintf(&path, "%s/%s", dir, e->d_name) < 0 || asprintf(&sub, "%s/%s", rel, e->d_name) < 0)
            abort();
        struct stat sb;
        if (stat(path, &sb) != 0) {
            /* a dangling symlink: nothing to read */
        } else if (S_ISDIR(sb.st_mode) && depth < 32) {
            if (first_visit(seen, &sb))
                walk_dir(path, sub, out, seen, depth + 1);
            else
                ddigen_warning(path, 0, "folder already read (a symlink loop or a second link); skipped");
        } else if (S_ISREG(sb.st_mode) && page_extension(e->d_name)) {
            struct input in = {path, sub, false};
            DOCS_PUSH(*out, in);
            continue;
        }
        free(path);
        free(sub);
    }
    closedir(d);
}

static int by_source(const void *a, const void *b)
{
    return strcmp(((const struct input *)a)->source, ((const struct input *)b)->source);
}

static char *base_name(const char *path)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        n--;
    const char *s = path + n;
    while (s > path && s[-1] != '/')
        s--;
    return strndup(s, (size_t)(path + n - s));
}

int ddigen_docs_build_mem(const char *const *paths, size_t npaths, const struct ddigen_docs_options *opt,
                          char **data, size_t *len, struct ddigen_docs_stats *stats)
{
    struct ddigen_docs_stats local = {0};
    struct ddigen_docs_options defaults = {.parse_syntax = true};
    if (!stats)
        stats = &local;
    if (!opt)
        opt = &defaults;
    unsigned errors_before = ddigen_diag_global.errors;
    struct input_list inputs = {0};
    struct visited seen = {0};
    for (size_t i = 0; i < npaths; i++) {
        struct stat sb;
        if (stat(paths[i], &sb) != 0) {
            ddigen_error(paths[i], 0, "no such file or folder");
            continue;
        }
        char *base = base_name(paths[i]);
        if (S_ISDIR(sb.st_mode)) {
            if (first_visit(&seen, &sb))
                walk_dir(paths[i], base, &inputs, &seen, 0);
            free(base);
        } else {
            struct input in = {strdup(paths[i]), base, true};
            DOCS_PUSH(inputs, in);
        }
    }
    free(seen.v);
    if (inputs.n > 1) /* an empty folder: v is NULL, which qsort may not get */
        qsort(inputs.v, inputs.n, sizeof *inputs.v, by_source);
    struct docs_buf out = {0};
    docs_buf_puts(&out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<ddi-spec version=\"1\">\n");
    size_t docs_at = out.len;
    docs_buf_puts(&out, "  <docs>\n");
    size_t body_at = out.len;
    struct worker worker = {0};
    struct docs_outcheck *check = opt->pages_checked_by_caller ? NULL : docs_outcheck_start();
    DOCS_VEC(struct pending) pend = {0};
    size_t head = 0;
    for (size_t i = 0; i < inputs.n; i++) {
        char *file;
        size_t flen;
        if (ddigen_read_file(inputs.v[i].path, &file, &flen) == 0) {
            ddigen_deps_add(inputs.v[i].path);
            int rc;
            struct docs_page *p = read_page(inputs.v[i].path, file, flen, DDIGEN_DOCS_AUTO, inputs.v[i].listed,
                                            stats, &rc);
            free(file);
            if (p) {
                struct pending pd = {.p = p, .source = inputs.v[i].source, .notes_at = p->notes.n};
                bool syntax = opt->parse_syntax && p->has_syntax && p->syntax.code;
                if (syntax)
                    p->defer_notes = true;
                docs_extract_rules(p);
                if (syntax) {
                    pd.syntax_at = p->notes.n;
                    pd.queued = true;
                    pd.ticket = worker_push(&worker, p);
                }
                DOCS_PUSH(pend, pd);
            }
        } else {
            stats->failed++;
        }
        while (pend.n - head > LOOKAHEAD)
            flush_checked(&worker, &pend.v[head++], &out, stats, check);
    }
    while (head < pend.n)
        flush_checked(&worker, &pend.v[head++], &out, stats, check);
    worker_finish(&worker);
    stats->output_checked = docs_outcheck_finish(check);
    free(pend.v);
    for (size_t i = 0; i < inputs.n; i++) {
        free(inputs.v[i].path);
        free(inputs.v[i].source);
    }
    free(inputs.v);
    if (out.len == body_at) { /* no page: "<docs/>" */
        out.len = docs_at;
        docs_buf_puts(&out, "  <docs/>\n");
    } else {
        docs_buf_puts(&out, "  </docs>\n");
    }
    docs_buf_puts(&out, "</ddi-spec>\n");
    *data = out.data;
    *len = out.len;
    return ddigen_diag_global.errors > errors_before ? 1 : 0;
}

int ddigen_docs_build_ex(const char *const *paths, size_t npaths, const struct ddigen_docs_options *opt,
                         xmlDocPtr *out, struct ddigen_docs_stats *stats)
{
    char *data;
    size_t len;
    int rc = ddigen_docs_build_mem(paths, npaths, opt, &data, &len, stats);
    *out = reparse(data, len);
    free(data);
    if (!*out)
        abort();
    return rc;
}

int ddigen_docs_build(const char *const *paths, size_t npaths, xmlDocPtr *out)
{
    return ddigen_docs_build_ex(paths, npaths, NULL, out, NULL);
}

int ddigen_docs_serialize(xmlDocPtr doc, char **data, size_t *len)
{
    xmlChar *mem = NULL;
    int size = 0;
    xmlDocDumpFormatMemoryEnc(doc, &mem, &size, "UTF-8", 1);
    if (!mem)
        return -1;
    *data = malloc((size_t)size + 1);
    if (!*data) {
        xmlFree(mem);
        return -1;
    }
    memcpy(*data, mem, (size_t)size);
    (*data)[size] = '\0';
    *len = (size_t)size;
    xmlFree(mem);
    return 0;
}
