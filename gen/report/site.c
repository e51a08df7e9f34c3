/* The helpers every page of the report uses (site.h). */
#include "site.h"

#include "../util/output.h"

#include <stdio.h>
#include <string.h>

void html_escape(struct strbuf *sb, const char *s)
{
    if (!s)
        return;
    const char *run = s;
    for (; *s; s++) {
        const char *rep = *s == '&' ? "&amp;" : *s == '<' ? "&lt;" : *s == '>' ? "&gt;" : *s == '"' ? "&quot;"
                          : *s == '\'' ? "&#39;" : NULL;
        if (!rep)
            continue;
        sb_appendn(sb, run, (size_t)(s - run));
        sb_append(sb, rep);
        run = s + 1;
    }
    sb_append(sb, run);
}

const char *site_versions_text(struct site *s, ddi_vset set)
{
    struct strbuf sb = {0};
    ddi_vset_ranges(&s->m->where, set, &sb);
    const char *out = arena_strdup(&s->a, sb.len ? sb_str(&sb) : "none");
    sb_free(&sb);
    return out;
}

void site_page_begin(struct strbuf *sb, const char *title, const char *root)
{
    sb_append(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>");
    html_escape(sb, title);
    sb_printf(sb, "</title>\n<link rel=\"stylesheet\" href=\"%sreport.css\">\n<script src=\"%sreport.js\" defer></script>\n"
                  "</head>\n<body>\n<nav><a href=\"%sindex.html\">Index</a></nav>\n<main>\n",
              root, root, root);
}

int site_page_finish(struct site *s, struct strbuf *sb, const char *rel)
{
    sb_append(sb, "</main>\n</body>\n</html>\n");
    int rc = site_write(s, rel, sb);
    sb_free(sb);
    return rc;
}

void site_item_heading(struct site *s, struct strbuf *sb, const char *kind, const char *name, const char *file,
                       unsigned line, ddi_vset versions)
{
    sb_printf(sb, "<h1>%s ", kind);
    html_escape(sb, name);
    sb_append(sb, "</h1>\n<p class=\"where\">");
    html_escape(sb, file);
    sb_printf(sb, ":%u &#183; available %s", line, site_versions_text(s, versions));
}

void site_badge_item(struct strbuf *sb, const char *li_class, const char *badge, const char *text,
                     const char *code, const char *more)
{
    sb_append(sb, "<li class=\"");
    html_escape(sb, li_class);
    sb_append(sb, "\"><span class=\"badge\">");
    html_escape(sb, badge);
    sb_append(sb, "</span> ");
    html_escape(sb, text);
    if (code) {
        sb_append(sb, " <code>");
        html_escape(sb, code);
        sb_append(sb, "</code> ");
    }
    html_escape(sb, more);
    sb_append(sb, "</li>\n");
}

int site_write(struct site *s, const char *rel, const struct strbuf *sb)
{
    const char *path = arena_concat(&s->a, s->dir, "/", rel, NULL);
    if (ddigen_write_staged(path, sb_str(sb), sb->len) != 0)
        return -1;
    s->pages++;
    if (sb->len > s->largest_page) {
        s->largest_page = sb->len;
        s->largest_name = arena_strdup(&s->a, rel);
    }
    return 0;
}

const char *site_record_page(const struct site *s, const struct ddi_model_record *r)
{
    char key[32];
    snprintf(key, sizeof key, "%p", (const void *)r);
    size_t i = (size_t)strmap_get(&s->record_index, key);
    return i ? s->record_page[i - 1] : NULL;
}

/* The name a type spelling refers to: const, struct, union, enum dropped. */
void site_type_link(struct site *s, struct strbuf *sb, const char *type, const char *root)
{
    const struct ddi_model_record *r = type ? ddi_model_type_record(s->m, type) : NULL;
    const struct ddi_model_enum *e = type && !r ? ddi_model_type_enum(s->m, type) : NULL;
    const char *page = r ? site_record_page(s, r) : e ? strmap_get(&s->page_of_enum, e->name) : NULL;
    if (page) {
        sb_printf(sb, "<a href=\"%s%s\">", root, page);
        html_escape(sb, type);
        sb_append(sb, "</a>");
    } else {
        html_escape(sb, type);
    }
}
