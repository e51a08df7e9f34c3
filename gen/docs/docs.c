/* The docs stage driver: finds pages, picks a reader, runs syntax parsing and
 * rule extraction, and writes each page as canonical XML (fixed attribute
 * order, page order = sorted paths, members in page order). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "docs.h"

#include "../util/diag.h"
#include "../util/output.h"
#include "model.h"
#include "readers.h"
#include "rules.h"
#include "syntax.h"
#include "text.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

_Static_assert(DDIGEN_DOCS_RULE_KINDS == DOCS_RULE_KIND_COUNT, "rule kinds out of sync");

const char *ddigen_docs_rule_kind_name(unsigned kind)
{
    return kind < DOCS_RULE_KIND_COUNT ? docs_rule_kind_name((enum docs_rule_kind)kind) : NULL;
}

void ddigen_docs_shutdown(void) { docs_syntax_shutdown(); }

/* ---- XML ----------------------------------------------------------------- */

/* XML 1.0 forbids most C0 controls and U+FFFE/U+FFFF even when escaped. */
static const char *xml_safe(struct docs_arena *a, const char *s)
{
    if (!s)
        return "";
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0;
    for (; u[i]; i++) {
        if ((u[i] < 0x20 && u[i] != '\n' && u[i] != '\t') ||
            (u[i] == 0xEF && u[i + 1] == 0xBF && (u[i + 2] == 0xBE || u[i + 2] == 0xBF)))
            break;
    }
    if (!u[i])
        return s;
    char *d = docs_arena_strdup(a, s);
    for (unsigned char *p = (unsigned char *)d; *p; p++) {
        if (*p < 0x20 && *p != '\n' && *p != '\t')
            *p = ' ';
        else if (p[0] == 0xEF && p[1] == 0xBF && (p[2] == 0xBE || p[2] == 0xBF))
            p[2] = 0xBD;
    }
    return d;
}

struct writer {
    struct docs_page *p;
};

static void attr(struct writer *w, xmlNodePtr n, const char *name, const char *value)
{
    if (value && *value)
        xmlNewProp(n, (const xmlChar *)name, (const xmlChar *)xml_safe(&w->p->arena, value));
}

static void attr_u(struct writer *w, xmlNodePtr n, const char *name, unsigned v)
{
    char buf[16];
    snprintf(buf, sizeof buf, "%u", v);
    attr(w, n, name, buf);
}

static xmlNodePtr child(struct writer *w, xmlNodePtr parent, const char *name, const char *text)
{
    return xmlNewTextChild(parent, NULL, (const xmlChar *)name,
                           text ? (const xmlChar *)xml_safe(&w->p->arena, text) : NULL);
}

static const char *heading_name(enum docs_heading h)
{
    static const char *const names[] = {"field", "param", "bare", "text", "unnamed"};
    return names[h];
}

static const char *field_text(struct docs_page *p, size_t index)
{
    struct docs_buf b = {0};
    for (size_t i = 0; i < p->paras.n; i++) {
        const struct docs_para *para = &p->paras.v[i];
        if (para->section != DOCS_SEC_FIELD || para->field != (int)index)
            continue;
        if (b.len)
            docs_buf_puts(&b, "\n\n");
        docs_buf_puts(&b, docs_squash(&p->arena, para->text, strlen(para->text)));
    }
    const char *t = b.len ? docs_arena_strdup(&p->arena, b.data) : NULL;
    docs_buf_free(&b);
    return t;
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

static void write_member(struct writer *w, xmlNodePtr parent, size_t i)
{
    struct docs_page *p = w->p;
    const struct docs_field *f = &p->fields.v[i];
    const char *elem = f->heading == DOCS_HEAD_PARAM || p->kind == DOCS_KIND_CALLBACK ||
                               p->kind == DOCS_KIND_FUNCTION || p->kind == DOCS_KIND_MACRO
                           ? "param"
                       : p->kind == DOCS_KIND_ENUM ? "value"
                                                   : "field";
    xmlNodePtr n = xmlNewChild(parent, NULL, (const xmlChar *)elem, NULL);
    attr(w, n, "name", f->path[0] ? leaf(f->path) : NULL);
    attr(w, n, "path", f->path);
    attr(w, n, "id", f->path[0] ? docs_arena_printf(&p->arena, "%s.%s", p->name, f->path)
                                : docs_arena_printf(&p->arena, "%s.#%u", p->name, f->ordinal));
    attr_u(w, n, "line", f->line);
    attr(w, n, "heading", heading_name(f->heading));
    if (f->ordinal)
        attr_u(w, n, "ordinal", f->ordinal);
    attr(w, n, "value", f->value);
    attr(w, n, "array", f->array);
    attr(w, n, "direction", docs_dir_name(f->dir));
    if (f->optional)
        attr(w, n, "optional", "true");
    attr(w, n, "direction-from", f->dir != DOCS_DIR_NONE || f->optional ? f->dir_source : NULL);
    if (f->anonymous_union)
        attr(w, n, "anonymous", "union");
    if (p->has_syntax && p->syntax.decls.n && f->path[0] && !f->anonymous_union)
        attr(w, n, "in-syntax", f->in_block ? "true" : "false");
    attr(w, n, "candidate", f->candidate);
    attr(w, n, "candidate-basis", f->candidate_basis);
    const char *text = field_text(p, i);
    if (text)
        child(w, n, "text", text);
    for (size_t k = i + 1; k < p->fields.n; k++)
        if (p->fields.v[k].parent == (int)i)
            write_member(w, n, k);
}

static void write_syntax(struct writer *w, xmlNodePtr page)
{
    struct docs_page *p = w->p;
    const struct docs_syntax *sx = &p->syntax;
    xmlNodePtr s = xmlNewChild(page, NULL, (const xmlChar *)"syntax", NULL);
    attr_u(w, s, "line", sx->line);
    attr(w, s, "lang", sx->lang);
    attr(w, s, "status", sx->status ? sx->status : "not-parsed");
    attr(w, s, "declares", sx->type_name);
    if (sx->clang_errors)
        attr_u(w, s, "clang-errors", sx->clang_errors);
    if (sx->fragment)
        attr(w, s, "fragment", "true");
    child(w, s, "code", sx->code);
    for (size_t i = 0; i < sx->decls.n; i++) {
        const struct docs_decl *d = &sx->decls.v[i];
        xmlNodePtr n = xmlNewChild(s, NULL, (const xmlChar *)"decl", NULL);
        attr(w, n, "path", d->path);
        attr(w, n, "type", d->type);
        attr(w, n, "array", d->array);
        attr(w, n, "value", d->value);
        attr(w, n, "sal", d->sal);
        if (d->anonymous)
            attr(w, n, "anonymous", "true");
        attr_u(w, n, "line", d->line);
    }
    for (size_t i = 0; i < sx->mismatches.n; i++) {
        xmlNodePtr n = child(w, s, "mismatch", sx->mismatches.v[i].text);
        attr(w, n, "kind", sx->mismatches.v[i].severity);
        attr_u(w, n, "line", sx->mismatches.v[i].line);
    }
}

static void write_page(struct docs_page *p, xmlNodePtr docs, const char *source)
{
    struct writer wr = {p};
    struct writer *w = &wr;
    xmlNodePtr page = xmlNewChild(docs, NULL, (const xmlChar *)"page", NULL);
    attr(w, page, "name", p->name);
    attr(w, page, "kind", docs_kind_name(p->kind));
    attr(w, page, "uid", p->uid);
    attr(w, page, "header", p->header);
    attr(w, page, "source", source);
    attr(w, page, "format", docs_format_name(p->format));
    attr(w, page, "lang", p->lang);
    attr(w, page, "prose-rules", p->prose_rules ? "extracted" : "not-extracted");
    if (!p->prose_rules)
        attr(w, page, "prose-note",
             "prose is not in English: structure, directions and requirements are read, "
             "rules from prose are not; modal sentences are listed as unextracted");
    child(w, page, "title", p->title);
    if (p->description) {
        xmlNodePtr d = child(w, page, "description", p->description);
        attr_u(w, d, "line", p->description_line);
    }
    if (p->avail.client || p->avail.server) {
        xmlNodePtr a = xmlNewChild(page, NULL, (const xmlChar *)"availability", NULL);
        attr(w, a, "client", p->avail.client);
        attr(w, a, "server", p->avail.server);
        attr(w, a, "wddm", p->avail.wddm);
        attr(w, a, "ddi-version", p->avail.ddi);
        attr_u(w, a, "line", p->avail.line);
    }
    if (p->has_syntax)
        write_syntax(w, page);
    xmlNodePtr members = xmlNewChild(page, NULL, (const xmlChar *)"members", NULL);
    for (size_t i = 0; i < p->fields.n; i++)
        if (p->fields.v[i].parent < 0)
            write_member(w, members, i);
    if (p->returns) {
        xmlNodePtr r = child(w, page, "returns", p->returns);
        attr_u(w, r, "line", p->returns_line);
    }
    xmlNodePtr rules = xmlNewChild(page, NULL, (const xmlChar *)"rules", NULL);
    for (size_t i = 0; i < p->rules.n; i++) {
        const struct docs_rule *r = &p->rules.v[i];
        xmlNodePtr n = xmlNewChild(rules, NULL, (const xmlChar *)"rule", NULL);
        attr(w, n, "id", r->id);
        attr(w, n, "kind", docs_rule_kind_name(r->kind));
        attr(w, n, "subject", r->subject);
        attr_u(w, n, "line", r->line);
        for (unsigned k = 0; k < r->nops; k++) {
            xmlNodePtr o = xmlNewChild(n, NULL, (const xmlChar *)"operand", NULL);
            attr(w, o, "name", r->ops[k].name);
            xmlNewProp(o, (const xmlChar *)"value", (const xmlChar *)xml_safe(&p->arena, r->ops[k].value));
        }
        if (r->sentence)
            child(w, n, "sentence", r->sentence);
    }
    if (p->unextracted.n) {
        xmlNodePtr u = xmlNewChild(page, NULL, (const xmlChar *)"unextracted", NULL);
        for (size_t i = 0; i < p->unextracted.n; i++) {
            const struct docs_unextracted *x = &p->unextracted.v[i];
            xmlNodePtr n = child(w, u, "sentence", x->sentence);
            attr(w, n, "subject", x->subject);
            attr_u(w, n, "line", x->line);
            attr(w, n, "reason", x->reason);
        }
    }
    if (p->see_also.n) {
        xmlNodePtr s = xmlNewChild(page, NULL, (const xmlChar *)"see-also", NULL);
        for (size_t i = 0; i < p->see_also.n; i++)
            child(w, s, "ref", p->see_also.v[i]);
    }
    for (size_t i = 0; i < p->notes.n; i++) {
        xmlNodePtr n = child(w, page, "diagnostic", p->notes.v[i].text);
        attr(w, n, "severity", p->notes.v[i].severity);
        attr_u(w, n, "line", p->notes.v[i].line);
    }
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

static int read_one(const char *name, const char *source, const char *data, size_t len,
                    enum ddigen_docs_format fmt, bool listed, const struct ddigen_docs_options *opt,
                    xmlNodePtr docs, struct ddigen_docs_stats *st)
{
    if (fmt == DDIGEN_DOCS_AUTO)
        fmt = sniff(name, data, len);
    struct docs_page *p = docs_page_new(name, (enum docs_format)fmt);
    st->files++;
    size_t clean_len;
    char *clean = docs_clean_input(p, data, len, &clean_len);
    int rc = -1;
    if (!clean) {
        st->failed++;
        goto done;
    }
    if (clean_len == 0 || strspn(clean, " \n\t") == clean_len) {
        ddigen_error(name, 1, "empty page");
        st->failed++;
        goto done;
    }
    if (fmt == DDIGEN_DOCS_MARKDOWN)
        rc = docs_read_markdown(p, clean, clean_len);
    else if (fmt == DDIGEN_DOCS_HTML)
        rc = docs_read_html(p, clean, clean_len);
    else
        rc = docs_read_text(p, clean, clean_len);
    if (rc != 0) {
        st->failed++;
        goto done;
    }
    if (fmt == DDIGEN_DOCS_MARKDOWN && (!p->uid || overview_page(p)) && !listed) {
        /* Folders hold READMEs and header overviews beside the pages. */
        ddigen_note(name, 1, "skipped: %s", p->uid ? "header overview page" : "no UID front matter");
        st->skipped++;
        rc = 1;
        goto done;
    }
    docs_finish_page(p);
    if (opt->parse_syntax)
        docs_parse_syntax(p);
    docs_extract_rules(p);
    write_page(p, docs, source);
    count(p, st);
    rc = 0;
done:
    free(clean);
    docs_page_free(p);
    return rc < 0 ? -1 : 0;
}

int ddigen_docs_read_buffer(const char *name, const char *data, size_t len, enum ddigen_docs_format fmt,
                            const struct ddigen_docs_options *opt, xmlNodePtr docs_elem,
                            struct ddigen_docs_stats *stats)
{
    struct ddigen_docs_stats local = {0};
    struct ddigen_docs_options defaults = {true};
    return read_one(name, name, data, len, fmt, true, opt ? opt : &defaults, docs_elem,
                    stats ? stats : &local);
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

static void walk_dir(const char *dir, const char *rel, struct input_list *out, int depth)
{
    DIR *d = opendir(dir);
    if (!d) {
        ddigen_error(dir, 0, "cannot open folder");
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char *path = NULL, *sub = NULL;
        if (asprintf(&path, "%s/%s", dir, e->d_name) < 0 || asprintf(&sub, "%s/%s", rel, e->d_name) < 0)
            abort();
        struct stat sb;
        if (stat(path, &sb) == 0 && S_ISDIR(sb.st_mode) && depth < 32) {
            walk_dir(path, sub, out, depth + 1);
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

int ddigen_docs_build_ex(const char *const *paths, size_t npaths, const struct ddigen_docs_options *opt,
                         xmlDocPtr *out, struct ddigen_docs_stats *stats)
{
    struct ddigen_docs_stats local = {0};
    struct ddigen_docs_options defaults = {true};
    if (!stats)
        stats = &local;
    if (!opt)
        opt = &defaults;
    unsigned errors_before = ddigen_diag_global.errors;
    struct input_list inputs = {0};
    for (size_t i = 0; i < npaths; i++) {
        struct stat sb;
        if (stat(paths[i], &sb) != 0) {
            ddigen_error(paths[i], 0, "no such file or folder");
            continue;
        }
        char *base = base_name(paths[i]);
        if (S_ISDIR(sb.st_mode)) {
            walk_dir(paths[i], base, &inputs, 0);
            free(base);
        } else {
            struct input in = {strdup(paths[i]), base, true};
            DOCS_PUSH(inputs, in);
        }
    }
    qsort(inputs.v, inputs.n, sizeof *inputs.v, by_source);
    xmlDocPtr doc = xmlNewDoc((const xmlChar *)"1.0");
    xmlNodePtr root = xmlNewNode(NULL, (const xmlChar *)"ddi-spec");
    xmlNewProp(root, (const xmlChar *)"version", (const xmlChar *)"1");
    xmlDocSetRootElement(doc, root);
    xmlNodePtr docs = xmlNewChild(root, NULL, (const xmlChar *)"docs", NULL);
    for (size_t i = 0; i < inputs.n; i++) {
        char *data;
        size_t len;
        if (ddigen_read_file(inputs.v[i].path, &data, &len) == 0) {
            read_one(inputs.v[i].path, inputs.v[i].source, data, len, DDIGEN_DOCS_AUTO, inputs.v[i].listed,
                     opt, docs, stats);
            free(data);
        } else {
            stats->failed++;
        }
        free(inputs.v[i].path);
        free(inputs.v[i].source);
    }
    free(inputs.v);
    *out = doc;
    return ddigen_diag_global.errors > errors_before ? 1 : 0;
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
