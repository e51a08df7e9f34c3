/* Doc model storage: a per-page arena, growable buffers, and the helpers that
 * keep field trees and rule IDs consistent whichever reader fills a page. */
#include "model.h"

#include "../util/hash.h"
#include "../util/diag.h"

#include <stdarg.h>
#include <stdint.h>
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

static const char *rule_id(struct docs_page *p, enum docs_rule_kind kind, const char *subject,
                           const char *id_suffix)
{
    const char *kname = docs_rule_kind_name(kind);
    if (subject && subject[0])
        return id_suffix ? arena_printf(&p->arena, "%s.%s:%s:%s", p->name, subject, kname, id_suffix)
                         : arena_printf(&p->arena, "%s.%s:%s", p->name, subject, kname);
    return id_suffix ? arena_printf(&p->arena, "%s:%s:%s", p->name, kname, id_suffix)
                     : arena_printf(&p->arena, "%s:%s", p->name, kname);
}

struct docs_rule *docs_page_add_rule(struct docs_page *p, enum docs_rule_kind kind,
                                     const char *subject, const char *id_suffix,
                                     unsigned line, const char *sentence)
{
    const char *id = rule_id(p, kind, subject, id_suffix);
    if (!strmap_get(&p->rule_ids, id))
        strmap_put(&p->rule_ids, id, (void *)(uintptr_t)(p->rules.n + 1));
    struct docs_rule r = {0};
    r.kind = kind;
    r.id = id;
    r.subject = subject ? subject : "";
    r.line = line;
    r.sentence = sentence;
    DOCS_PUSH(p->rules, r);
    return &p->rules.v[p->rules.n - 1];
}

struct docs_rule *docs_page_find_rule(struct docs_page *p, enum docs_rule_kind kind, const char *subject,
                                      const char *id_suffix)
{
    uintptr_t i = (uintptr_t)strmap_get(&p->rule_ids, rule_id(p, kind, subject, id_suffix));
    return i ? &p->rules.v[i - 1] : NULL;
}

/* Operands that say where a statement was read or how it was normalized,
 * not what it states: "optional" from the heading and from the text is one
 * statement. */
static bool provenance(const char *name) { return !strcmp(name, "from") || !strcmp(name, "basis"); }

/* Does a state nothing b does not? Every operand of a (but provenance) is
 * one of b's, counted with repeats. A second reading of the same sentence
 * by a pattern that catches less, or the same statement made again with
 * less detail, says nothing new. */
static bool says_nothing_more(const struct docs_rule *a, const struct docs_rule *b)
{
    bool used[DOCS_MAX_OPERANDS] = {false};
    for (unsigned k = 0; k < a->nops; k++) {
        if (provenance(a->ops[k].name))
            continue;
        bool found = false;
        for (unsigned j = 0; j < b->nops && !found; j++)
            if (!used[j] && !strcmp(a->ops[k].name, b->ops[j].name) && !strcmp(a->ops[k].value, b->ops[j].value))
                used[j] = found = true;
        if (!found)
            return false;
    }
    return true;
}

/* Characters an ID suffix keeps as they are; anything else makes the
 * suffix a hash. */
static bool id_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
           c == '-';
}

#define RULE_SUFFIX_MAX 64

/* What a rule says, as an ID suffix: "min=1,max=16" (its operands in
 * order, provenance left out) when that is short and made of ID
 * characters, else "h" and the FNV-1a of the same text. Either way it
 * depends on the statement only, not on where the page says it. */
static const char *content_suffix(struct docs_page *p, const struct docs_rule *r)
{
    struct docs_buf b = {0};
    for (unsigned k = 0; k < r->nops; k++) {
        if (provenance(r->ops[k].name))
            continue;
        if (b.len)
            docs_buf_putc(&b, ',');
        docs_buf_puts(&b, r->ops[k].name);
        docs_buf_putc(&b, '=');
        docs_buf_puts(&b, r->ops[k].value);
    }
    bool plain = b.len > 0 && b.len <= RULE_SUFFIX_MAX;
    for (size_t i = 0; i < b.len && plain; i++)
        plain = id_char(b.data[i]) || b.data[i] == ',' || b.data[i] == '=';
    const char *suffix;
    if (plain) {
        suffix = arena_strdup(&p->arena, b.data);
    } else {
        suffix = arena_printf(&p->arena, "h%08x", (unsigned)fnv1a32n(b.data, b.len));
    }
    docs_buf_free(&b);
    return suffix;
}

/* The ID a later, different statement gets; never one the page has. */
static const char *distinct_id(struct docs_page *p, const char *base, const char *suffix, struct strmap *taken)
{
    const char *id = arena_printf(&p->arena, "%s:%s", base, suffix);
    for (unsigned n = 2; strmap_get(&p->rule_ids, id) || strmap_get(taken, id); n++)
        id = arena_printf(&p->arena, "%s:%s-%u", base, suffix, n);
    return id;
}

void docs_page_settle_rules(struct docs_page *p)
{
    size_t n = p->rules.n;
    const char **final = docs_xrealloc(NULL, (n ? n : 1) * sizeof *final); /* NULL: dropped */
    struct strmap taken = {0}; /* suffixed IDs given so far */
    for (size_t i = 0; i < n; i++) {
        const struct docs_rule *r = &p->rules.v[i];
        size_t first = (uintptr_t)strmap_get(&p->rule_ids, r->id) - 1;
        final[i] = r->id;
        for (size_t j = first; j < i && final[i]; j++)
            if (final[j] && !strcmp(p->rules.v[j].id, r->id) && says_nothing_more(r, &p->rules.v[j]))
                final[i] = NULL;
        if (final[i] && first != i) {
            final[i] = distinct_id(p, r->id, content_suffix(p, r), &taken);
            strmap_put(&taken, final[i], (void *)final[i]);
        }
    }
    strmap_free(&taken);
    strmap_free(&p->rule_ids);
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        if (!final[i])
            continue;
        p->rules.v[kept] = p->rules.v[i];
        p->rules.v[kept].id = final[i];
        strmap_put(&p->rule_ids, final[i], (void *)(uintptr_t)(kept + 1));
        kept++;
    }
    p->rules.n = kept;
    free(final);
}

void docs_rule_op(struct docs_page *p, struct docs_rule *r, const char *name, const char *value)
{
    if (!r || r->nops == DOCS_MAX_OPERANDS)
        return;
    r->ops[r->nops].name = name;
    r->ops[r->nops].value = arena_strdup(&p->arena, value);
    r->nops++;
}
