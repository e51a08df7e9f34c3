/* The index (records, enums and callbacks grouped by header, with
 * search-as-you-type over an embedded index), the enum and callback
 * pages, the changes page and the lint page. */
#include "site.h"

#include "../util/json.h"

#include <stdlib.h>
#include <string.h>

struct entry {
    const char *name, *kind, *file, *versions, *page;
};

static int by_file_kind_name(const void *pa, const void *pb)
{
    const struct entry *a = pa, *b = pb;
    int c = strcmp(a->file, b->file);
    if (!c)
        c = strcmp(a->kind, b->kind);
    return c ? c : strcmp(a->name, b->name);
}

static void entry_item(struct strbuf *sb, const struct entry *e)
{
    sb_printf(sb, "<li class=\"%s\"><a href=\"", e->kind);
    html_escape(sb, e->page);
    sb_append(sb, "\">");
    html_escape(sb, e->name);
    sb_printf(sb, "</a> <span class=\"kind\">%s</span> <span class=\"avail\">", e->kind);
    html_escape(sb, e->versions);
    sb_append(sb, "</span></li>\n");
}

/* The entries as JSON for the search script: [name, kind, header, versions, page]. */
static void embedded_index(struct strbuf *sb, const struct entry *e, size_t n)
{
    struct strbuf js = {0};
    sb_append(&js, "[");
    for (size_t i = 0; i < n; i++) {
        sb_append(&js, i ? ",\n[" : "\n[");
        const char *fields[5] = {e[i].name, e[i].kind, e[i].file, e[i].versions, e[i].page};
        for (int k = 0; k < 5; k++) {
            if (k)
                sb_append(&js, ",");
            json_sb_str(&js, fields[k]);
        }
        sb_append(&js, "]");
    }
    sb_append(&js, "\n]");
    /* "</" cannot end the script element early: JSON allows "<\/". */
    sb_append(sb, "<script type=\"application/json\" id=\"search-index\">");
    for (const char *p = sb_str(&js); *p; p++) {
        if (p[0] == '<' && p[1] == '/')
            sb_append(sb, "<\\");
        else
            sb_appendn(sb, p, 1);
    }
    sb_append(sb, "</script>\n");
    sb_free(&js);
}

int report_index_page(struct site *s)
{
    const struct ddi_model *m = s->m;
    size_t n = 0, cap = m->nrecords + m->nenums + m->nfunctypes;
    struct entry *e = calloc(cap + 1, sizeof *e);
    for (size_t i = 0; i < m->nrecords; i++) {
        const struct ddi_model_record *r = m->records[i];
        e[n++] = (struct entry){r->name, "record", r->file ? r->file : "", site_versions_text(s, r->versions),
                                s->record_page[i]};
    }
    for (size_t i = 0; i < m->nenums; i++) {
        const struct ddi_model_enum *en = &m->enums[i];
        const char *page = strmap_get(&s->page_of_enum, en->name);
        if (page && ddi_model_enum(m, en->name) == en)
            e[n++] = (struct entry){en->name, "enum", en->file ? en->file : "", site_versions_text(s, en->versions),
                                    page};
    }
    for (size_t i = 0; i < m->nfunctypes; i++) {
        const struct ddi_model_functype *f = &m->functypes[i];
        const char *page = strmap_get(&s->page_of_functype, f->name);
        if (page && &m->functypes[i] == ddi_model_functype(m, f->name))
            e[n++] = (struct entry){f->name, "callback", f->file ? f->file : "", site_versions_text(s, f->versions),
                                    page};
    }
    qsort(e, n, sizeof *e, by_file_kind_name);
    struct strbuf sb = {0};
    site_page_begin(&sb, s->title, "");
    sb_append(&sb, "<h1>");
    html_escape(&sb, s->title);
    sb_printf(&sb, "</h1>\n<p>%zu records, %zu enums, %zu callbacks; DDI versions %s.", m->nrecords, m->nenums,
              m->nfunctypes, site_versions_text(s, ddi_vset_all(&m->where)));
    if (s->changes)
        sb_append(&sb, " <a href=\"changes.html\">Changes</a>.");
    if (s->findings)
        sb_append(&sb, " <a href=\"lint.html\">Lint findings</a>.");
    sb_append(&sb, "</p>\n<p><input id=\"search\" type=\"search\" placeholder=\"Search by part of a name\" "
                   "autocomplete=\"off\"> <span id=\"count\"></span></p>\n<ul id=\"results\" hidden></ul>\n"
                   "<div id=\"groups\">\n");
    for (size_t i = 0; i < n; i++) {
        if (!i || strcmp(e[i].file, e[i - 1].file) != 0) {
            sb_append(&sb, i ? "</ul></section>\n<section class=\"header\"><h2>" : "<section class=\"header\"><h2>");
            html_escape(&sb, *e[i].file ? e[i].file : "(no header)");
            sb_append(&sb, "</h2><ul>\n");
        }
        entry_item(&sb, &e[i]);
    }
    if (n)
        sb_append(&sb, "</ul></section>\n");
    sb_append(&sb, "</div>\n");
    embedded_index(&sb, e, n);
    int rc = site_page_finish(s, &sb, "index.html");
    free(e);
    return rc;
}

int report_enum_page(struct site *s, const struct ddi_model_enum *en, const char *page)
{
    struct strbuf sb = {0};
    site_page_begin(&sb, en->name, "../");
    site_item_heading(s, &sb, "enum", en->name, en->file, en->line, en->versions);
    sb_append(&sb, "</p>\n");
    sb_append(&sb, "<table class=\"values\"><thead><tr><th>Name</th><th>Value</th><th>Versions</th></tr></thead>\n"
                   "<tbody>\n");
    for (size_t i = 0; i < en->nvalues; i++) {
        const struct ddi_model_value *v = &en->values[i];
        sb_append(&sb, "<tr><td>");
        html_escape(&sb, v->name);
        sb_printf(&sb, "</td><td class=\"num\">%lld</td><td>%s</td></tr>\n", v->value,
                  site_versions_text(s, v->versions));
    }
    sb_append(&sb, "</tbody></table>\n");
    return site_page_finish(s, &sb, page);
}

int report_functype_page(struct site *s, const struct ddi_model_functype *f, const char *page)
{
    struct strbuf sb = {0};
    site_page_begin(&sb, f->name, "../");
    site_item_heading(s, &sb, "callback", f->name, f->file, f->line, f->versions);
    sb_append(&sb, "</p>\n<p><code>");
    if (f->sal) {
        html_escape(&sb, f->sal);
        sb_append(&sb, " ");
    }
    html_escape(&sb, f->result);
    sb_append(&sb, " ");
    html_escape(&sb, f->name);
    sb_append(&sb, "(...)</code></p>\n<table class=\"params\"><thead><tr><th>Parameter</th><th>Type</th><th>SAL</th>"
                   "</tr></thead>\n<tbody>\n");
    for (size_t i = 0; i < f->nparams; i++) {
        const struct ddi_model_param *p = &f->params[i];
        sb_append(&sb, "<tr><td>");
        html_escape(&sb, p->name);
        sb_append(&sb, "</td><td>");
        site_type_link(s, &sb, p->type, "../");
        sb_append(&sb, "</td><td>");
        html_escape(&sb, p->sal);
        sb_append(&sb, "</td></tr>\n");
    }
    sb_append(&sb, "</tbody></table>\n");
    return site_page_finish(s, &sb, page);
}

/* The record an item of the diff belongs to ("R.path", "R"), when it is one of this spec's. */
static const char *change_page(struct site *s, const struct diff_change *c)
{
    if (strcmp(c->kind, "record") != 0 && strcmp(c->kind, "field") != 0)
        return NULL;
    size_t n = strcspn(c->item, ".");
    return strmap_get(&s->page_of_record, arena_strndup(&s->a, c->item, n));
}

int report_changes_page(struct site *s)
{
    struct strbuf sb = {0};
    site_page_begin(&sb, "Changes", "");
    sb_append(&sb, "<h1>Changes since ");
    html_escape(&sb, s->previous_name);
    sb_printf(&sb, "</h1>\n<p>%zu changes, ABI-breaking first.</p>\n", s->changes->len);
    static const char *const headings[] = {"ABI-breaking", "Source-breaking", "Compatible"};
    for (int b = DIFF_BREAKS_ABI; b <= DIFF_BREAKS_NOTHING; b++) {
        int any = 0;
        for (size_t i = 0; i < s->changes->len; i++) {
            const struct diff_change *c = &s->changes->items[i];
            if ((int)c->breaks != b)
                continue;
            if (!any++)
                sb_printf(&sb, "<h2>%s</h2>\n<table class=\"changes b%d\"><thead><tr><th>Change</th><th>Kind</th>"
                               "<th>Item</th><th>Detail</th></tr></thead>\n<tbody>\n",
                          headings[b], b);
            sb_append(&sb, "<tr><td>");
            html_escape(&sb, c->change);
            sb_append(&sb, "</td><td>");
            html_escape(&sb, c->kind);
            sb_append(&sb, "</td><td>");
            const char *page = change_page(s, c);
            if (page)
                sb_printf(&sb, "<a href=\"%s\">", page);
            html_escape(&sb, c->item);
            sb_append(&sb, page ? "</a></td><td>" : "</td><td>");
            html_escape(&sb, c->detail);
            sb_append(&sb, "</td></tr>\n");
        }
        if (any)
            sb_append(&sb, "</tbody></table>\n");
    }
    return site_page_finish(s, &sb, "changes.html");
}

int report_lint_page(struct site *s)
{
    struct strbuf sb = {0};
    site_page_begin(&sb, "Lint findings", "");
    sb_append(&sb, "<h1>Lint findings of ");
    html_escape(&sb, s->lint_name);
    sb_printf(&sb, "</h1>\n<p>%zu findings.</p>\n<table class=\"lint\"><thead><tr><th>Level</th><th>Rule</th>"
                   "<th>Record</th><th>Where</th><th>Message</th></tr></thead>\n<tbody>\n",
              s->nfindings);
    for (size_t i = 0; i < s->nfindings; i++) {
        const struct report_finding *f = &s->findings[i];
        sb_printf(&sb, "<tr class=\"%s\"><td>", f->level);
        html_escape(&sb, f->level);
        sb_append(&sb, "</td><td>");
        html_escape(&sb, f->rule_id);
        sb_append(&sb, "</td><td>");
        const char *page = f->record ? site_record_page(s, f->record) : NULL;
        if (page) {
            sb_printf(&sb, "<a href=\"%s\">", page);
            html_escape(&sb, f->record->name);
            sb_append(&sb, "</a>");
        }
        sb_append(&sb, "</td><td>");
        html_escape(&sb, f->file);
        if (f->file)
            sb_printf(&sb, ":%ld", f->line);
        sb_append(&sb, "</td><td>");
        html_escape(&sb, f->message);
        sb_append(&sb, "</td></tr>\n");
    }
    sb_append(&sb, "</tbody></table>\n");
    return site_page_finish(s, &sb, "lint.html");
}
