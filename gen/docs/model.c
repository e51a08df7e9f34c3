/* Doc model storage: a per-page arena, growable buffers, and the helpers that
 * keep field trees and rule IDs consistent whichever reader fills a page. */
#include "model.h"

#include "../util/diag.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *docs_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fputs("ddigen: out of memory\n", stderr);
        abort();
    }
    return q;
}

void docs_buf_grow(struct docs_buf *b, size_t n)
{
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + n + 1)
        cap *= 2;
    b->data = docs_xrealloc(b->data, cap);
    b->cap = cap;
}

void docs_buf_reset(struct docs_buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

void docs_buf_free(struct docs_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

const char *docs_kind_name(enum docs_kind k)
{
    static const char *const names[] = {"unknown",  "struct",   "union", "enum",
                                        "callback", "function", "macro", "ioctl"};
    return names[k];
}

const char *docs_format_name(enum docs_format f)
{
    static const char *const names[] = {"markdown", "html", "text"};
    return names[f];
}

const char *docs_dir_name(enum docs_dir d)
{
    static const char *const names[] = {"", "in", "out", "in-out"};
    return names[d];
}

const char *docs_rule_kind_name(enum docs_rule_kind k)
{
    return ddi_rule_kind_name((enum ddi_rule_kind)k);
}

struct docs_page *docs_page_new(const char *path, enum docs_format fmt)
{
    struct docs_page *p = calloc(1, sizeof *p);
    if (!p)
        abort();
    p->path = arena_strdup(&p->arena, path);
    p->format = fmt;
    p->lang = "en-us";
    p->prose_rules = true;
    return p;
}

void docs_page_free(struct docs_page *p)
{
    if (!p)
        return;
    free(p->fields.v);
    free(p->paras.v);
    free(p->rules.v);
    strmap_free(&p->rule_ids);
    free(p->unextracted.v);
    free(p->notes.v);
    free(p->see_also.v);
    free(p->syntax.decls.v);
    free(p->syntax.mismatches.v);
    arena_free(&p->arena);
    free(p);
}

/* The parent of "A.B.C" is the nearest earlier field whose path is "A.B";
 * "A.(unnamed union)" hangs under "A". Undocumented levels are skipped, as
 * the pages skip anonymous levels themselves. */
static int find_parent(const struct docs_page *p, const char *path)
{
    const char *dot = NULL;
    for (const char *s = path; *s; s++) {
        if (*s == '.' && s[1] != '\0')
            dot = s;
    }
    while (dot) {
        size_t plen = (size_t)(dot - path);
        for (size_t i = p->fields.n; i-- > 0;) {
            const char *q = p->fields.v[i].path;
            if (strlen(q) == plen && memcmp(q, path, plen) == 0)
                return (int)i;
        }
        const char *prev = NULL;
        for (const char *s = path; s < dot; s++) {
            if (*s == '.')
                prev = s;
        }
        dot = prev;
    }
    return -1;
}

size_t docs_page_add_field(struct docs_page *p, const struct docs_field *f)
{
    struct docs_field copy = *f;
    copy.parent = copy.path[0] ? find_parent(p, copy.path) : -1;
    DOCS_PUSH(p->fields, copy);
    return p->fields.n - 1;
}

void docs_page_note(struct docs_page *p, unsigned line, bool warning, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    struct docs_note n = {line, warning ? "warning" : "note", arena_strdup(&p->arena, msg)};
    DOCS_PUSH(p->notes, n);
    if (!p->defer_notes)
        ddigen_report(warning ? DDIGEN_WARNING : DDIGEN_NOTE, p->path, line, "%s", msg);
}

struct docs_rule *docs_page_add_rule(struct docs_page *p, enum docs_rule_kind kind,
                                     const char *subject, const char *id_suffix,
                                     unsigned line, const char *sentence)
{
    const char *id;
    const char *kname = docs_rule_kind_name(kind);
    if (subject && subject[0])
        id = id_suffix ? arena_printf(&p->arena, "%s.%s:%s:%s", p->name, subject, kname, id_suffix)
                       : arena_printf(&p->arena, "%s.%s:%s", p->name, subject, kname);
    else
        id = id_suffix ? arena_printf(&p->arena, "%s:%s:%s", p->name, kname, id_suffix)
                       : arena_printf(&p->arena, "%s:%s", p->name, kname);
    if (strmap_get(&p->rule_ids, id))
        return NULL;
    strmap_put(&p->rule_ids, id, (void *)id);
    struct docs_rule r = {0};
    r.kind = kind;
    r.id = id;
    r.subject = subject ? subject : "";
    r.line = line;
    r.sentence = sentence;
    DOCS_PUSH(p->rules, r);
    return &p->rules.v[p->rules.n - 1];
}

void docs_rule_op(struct docs_page *p, struct docs_rule *r, const char *name, const char *value)
{
    if (!r || r->nops == DOCS_MAX_OPERANDS)
        return;
    r->ops[r->nops].name = name;
    r->ops[r->nops].value = arena_strdup(&p->arena, value);
    r->nops++;
}
