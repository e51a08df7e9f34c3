/* Saved learn.microsoft.com page reader: libxml2's HTML parser builds the
 * tree; headings, paragraphs, <pre> blocks and table rows become the same
 * blocks the plain-text reader produces. */
#include "readers.h"

#include "../util/diag.h"
#include "text.h"

#include <libxml/HTMLparser.h>
#include <libxml/tree.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct h_state {
    struct docs_page *p;
    DOCS_VEC(struct docs_block) blocks;
    struct docs_buf tmp;
};

static bool is(const xmlNode *n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && !strcasecmp((const char *)n->name, name);
}

static void text_of(const xmlNode *n, struct docs_buf *b)
{
    for (const xmlNode *c = n; c; c = c->next) {
        if (c->type == XML_TEXT_NODE || c->type == XML_CDATA_SECTION_NODE) {
            if (c->content)
                docs_buf_puts(b, (const char *)c->content);
        } else if (c->type == XML_ELEMENT_NODE) {
            if (is(c, "script") || is(c, "style"))
                continue;
            if (is(c, "br"))
                docs_buf_putc(b, '\n');
            text_of(c->children, b);
        }
    }
}

static void push(struct h_state *st, enum docs_block_kind kind, int level, const xmlNode *n, bool squash)
{
    docs_buf_reset(&st->tmp);
    text_of(n->children, &st->tmp);
    const char *t = st->tmp.data ? st->tmp.data : "";
    const char *text = squash ? docs_squash(&st->p->arena, t, st->tmp.len)
                              : arena_strndup(&st->p->arena, t, st->tmp.len);
    if (!*text)
        return;
    struct docs_block b = {kind, level, text, (unsigned)xmlGetLineNo(n), 1};
    DOCS_PUSH(st->blocks, b);
}

/* <p><code>Name</code></p>: the way rendered pages show a member name. */
static bool name_para(const xmlNode *p)
{
    const xmlNode *code = NULL;
    for (const xmlNode *c = p->children; c; c = c->next) {
        if (c->type == XML_TEXT_NODE) {
            for (const xmlChar *s = c->content; s && *s; s++)
                if (*s != ' ' && *s != '\n' && *s != '\t')
                    return false;
        } else if (is(c, "code") || is(c, "strong") || is(c, "b")) {
            if (code)
                return false;
            code = c;
        } else if (c->type == XML_ELEMENT_NODE) {
            return false;
        }
    }
    return code != NULL;
}

static void walk(struct h_state *st, const xmlNode *n)
{
    for (; n; n = n->next) {
        if (n->type != XML_ELEMENT_NODE)
            continue;
        const char *name = (const char *)n->name;
        if (is(n, "script") || is(n, "style") || is(n, "nav") || is(n, "header") || is(n, "footer") ||
            is(n, "head"))
            continue;
        if (strlen(name) == 2 && (name[0] == 'h' || name[0] == 'H') && name[1] >= '1' && name[1] <= '6') {
            int level = name[1] - '0';
            push(st, level >= 3 ? DOCS_BLK_NAME : DOCS_BLK_HEADING, level, n, true);
        } else if (is(n, "p") || is(n, "li") || is(n, "dd") || is(n, "dt")) {
            bool nested = false;
            for (const xmlNode *c = n->children; c; c = c->next)
                nested |= is(c, "p") || is(c, "ul") || is(c, "ol") || is(c, "pre") || is(c, "table");
            if (nested)
                walk(st, n->children);
            else
                push(st, is(n, "p") && name_para(n) ? DOCS_BLK_NAME : DOCS_BLK_PARA, 0, n, true);
        } else if (is(n, "pre")) {
            push(st, DOCS_BLK_CODE, 0, n, false);
        } else if (is(n, "tr")) {
            docs_buf_reset(&st->tmp);
            bool first = true;
            for (const xmlNode *c = n->children; c; c = c->next) {
                if (!is(c, "td") && !is(c, "th"))
                    continue;
                if (!first)
                    docs_buf_puts(&st->tmp, " | ");
                first = false;
                text_of(c->children, &st->tmp);
            }
            const char *t = docs_squash(&st->p->arena, st->tmp.data ? st->tmp.data : "", st->tmp.len);
            struct docs_block b = {DOCS_BLK_ROW, 0, t, (unsigned)xmlGetLineNo(n), 1};
            if (*t)
                DOCS_PUSH(st->blocks, b);
        } else {
            walk(st, n->children);
        }
    }
}

static const xmlNode *find_element(const xmlNode *n, const char *name)
{
    for (; n; n = n->next) {
        if (is(n, name))
            return n;
        const xmlNode *f = find_element(n->children, name);
        if (f)
            return f;
    }
    return NULL;
}

static void read_meta(struct docs_page *p, const xmlNode *n)
{
    for (; n; n = n->next) {
        if (is(n, "meta")) {
            xmlChar *name = xmlGetProp(n, (const xmlChar *)"name");
            xmlChar *content = xmlGetProp(n, (const xmlChar *)"content");
            if (name && content && !strcasecmp((const char *)name, "uid") && !p->uid)
                p->uid = arena_strdup(&p->arena, (const char *)content);
            xmlFree(name);
            xmlFree(content);
        }
        if (n->type == XML_ELEMENT_NODE && !is(n, "body"))
            read_meta(p, n->children);
    }
}

static void on_html_error(void *ctx, const char *msg, ...) { (void)ctx, (void)msg; }

int docs_read_html(struct docs_page *p, const char *buf, size_t len)
{
    if (len > (size_t)0x7fffffff) {
        ddigen_error(p->path, 0, "page too large for the HTML parser");
        return -1;
    }
    xmlSetGenericErrorFunc(NULL, on_html_error);
    htmlDocPtr doc = htmlReadMemory(buf, (int)len, p->path, "UTF-8",
                                    HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING |
                                        HTML_PARSE_NONET | HTML_PARSE_COMPACT);
    if (!doc) {
        ddigen_error(p->path, 1, "not an HTML page");
        return -1;
    }
    const xmlNode *root = xmlDocGetRootElement(doc);
    read_meta(p, root);
    const xmlNode *scope = find_element(root, "main");
    if (!scope)
        scope = find_element(root, "body");
    struct h_state st = {.p = p};
    if (scope)
        walk(&st, scope->children);
    int rc = 0;
    if (st.blocks.n == 0) {
        ddigen_error(p->path, 1, "HTML page has no content");
        rc = -1;
    } else {
        rc = docs_read_blocks(p, st.blocks.v, st.blocks.n);
    }
    free(st.blocks.v);
    docs_buf_free(&st.tmp);
    xmlFreeDoc(doc);
    return rc;
}
