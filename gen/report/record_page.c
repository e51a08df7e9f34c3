/* A record's page: its byte maps per architecture with a version switch,
 * the field table, the documented rules on each field, the union's
 * discriminator cases, lint findings and, with --previous, its changes. */
#include "site.h"

#include <string.h>

/* Where the field is on arch: "0x10" (a bit-field "0x10.3:2"), and its
 * size, with the versions of each distinct placement when there are
 * several. */
static void placement(struct site *s, struct strbuf *sb, const struct ddi_model_field *f, unsigned arch)
{
    long last_at = -2;
    struct {
        long at;
        ddi_vset versions;
    } seen[DDI_VSET_MAX];
    int n = 0;
    for (int v = 0; v < (int)s->m->where.n; v++) {
        long at = ddi_vset_has(f->eff_versions, v) && (f->eff_archs >> arch & 1) ? ddi_model_offset(f, (int)arch, v) : -1;
        if (at < 0)
            continue;
        if (at != last_at || !n)
            seen[n++].at = at, seen[n - 1].versions = 0;
        seen[n - 1].versions |= (ddi_vset)1 << v;
        last_at = at;
    }
    if (!n) {
        sb_append(sb, "&#8212;");
        return;
    }
    for (int i = 0; i < n; i++) {
        if (i)
            sb_append(sb, "<br>");
        if (f->bitfield)
            sb_printf(sb, "0x%lX.%ld:%d", seen[i].at / 8, seen[i].at % 8, f->bits);
        else
            sb_printf(sb, "0x%lX", seen[i].at / 8);
        if (n > 1)
            sb_printf(sb, " <small>%s</small>", site_versions_text(s, seen[i].versions));
    }
}

/* The field's size in bytes on arch at its first version there, "" for a bit-field. */
static void field_size(struct site *s, struct strbuf *sb, const struct ddi_model_field *f, unsigned arch)
{
    if (f->bitfield)
        return;
    for (int v = 0; v < (int)s->m->where.n; v++)
        if (ddi_vset_has(f->eff_versions, v) && ddi_model_offset(f, (int)arch, v) >= 0) {
            struct ddi_type_fact t = ddi_model_fact(f, (int)arch, v);
            if (t.bytes)
                sb_printf(sb, " /%u%s", t.bytes, f->array ? "&#215;n" : "");
            return;
        }
}

/* The field a rule is about: the first of its subject's chain (in this record). */
static const struct ddi_model_field *rule_field(const struct ddi_model_rule *r)
{
    return r->subject_field.depth ? r->subject_field.field[0] : NULL;
}

static const char *direction_of(const struct ddi_model_record *rec, const struct ddi_model_field *f)
{
    for (size_t i = 0; i < rec->nrules; i++) {
        const struct ddi_model_rule *r = rec->rules[i];
        if (rule_field(r) == f && r->kind == DDI_RULE_DIRECTION) {
            const char *v = ddi_model_docs_operand(r, "value");
            if (v)
                return v;
        }
    }
    return NULL;
}

static void rule_item(struct site *s, struct strbuf *sb, const struct ddi_model_rule *r)
{
    sb_append(sb, "<li class=\"rule\"><span class=\"kind\">");
    html_escape(sb, r->kind_name);
    sb_printf(sb, "</span> <span class=\"prov\">%s</span> ",
              r->provenance == DDI_PROVENANCE_REVIEWED ? "reviewed" : "extracted");
    if (r->page) {
        if (s->docs_root) {
            sb_append(sb, "<a class=\"src\" href=\"");
            html_escape(sb, s->docs_root);
            sb_append(sb, "/");
            html_escape(sb, r->page);
            sb_printf(sb, "#L%ld\">", r->line);
        } else {
            sb_append(sb, "<span class=\"src\">");
        }
        html_escape(sb, r->page);
        sb_printf(sb, ":%ld%s", r->line, s->docs_root ? "</a>" : "</span>");
    }
    for (size_t i = 0; i < r->ndocs_operands; i++)
        if (strcmp(r->docs_operands[i].name, "from") != 0) {
            sb_append(sb, " <code>");
            html_escape(sb, r->docs_operands[i].name);
            sb_append(sb, "=");
            html_escape(sb, r->docs_operands[i].value);
            sb_append(sb, "</code>");
        }
    if (r->condition) {
        sb_append(sb, " <em>when: ");
        html_escape(sb, r->condition);
        sb_append(sb, "</em>");
    }
    if (r->sentence) {
        sb_append(sb, "<blockquote>");
        html_escape(sb, r->sentence);
        sb_append(sb, "</blockquote>");
    }
    sb_append(sb, "</li>\n");
}

/* Indexes of the versions a field exists at on some architecture, for the script. */
static void versions_attr(struct strbuf *sb, const struct site *s, ddi_vset set)
{
    sb_append(sb, " data-versions=\"");
    for (int v = 0; v < (int)s->m->where.n; v++)
        if (ddi_vset_has(set, v))
            sb_printf(sb, " %d", v);
    sb_append(sb, " \"");
}

static void field_anchor(struct strbuf *sb, const struct ddi_model_field *f)
{
    sb_append(sb, "f-");
    sb_append_c_ident(sb, f->path && *f->path ? f->path : "anon");
    sb_printf(sb, "-%zu", f->index);
}

static void field_rows(struct site *s, struct strbuf *sb, const struct ddi_model_record *rec)
{
    const struct ddi_versions *w = &s->m->where;
    sb_append(sb, "<table class=\"fields\">\n<thead><tr><th>Field</th><th>Type</th>");
    for (unsigned a = 0; a < w->narchs; a++) {
        sb_append(sb, "<th>");
        html_escape(sb, w->arch[a]);
        sb_append(sb, "</th>");
    }
    sb_append(sb, "<th>Versions</th><th>SAL</th><th>Dir</th></tr></thead>\n<tbody>\n");
    for (size_t i = 0; i < rec->nall; i++) {
        const struct ddi_model_field *f = rec->all[i];
        int depth = 0;
        for (const struct ddi_model_record *o = f->owner; o != rec && o->holder; o = o->holder->owner)
            depth++;
        sb_append(sb, "<tr id=\"");
        field_anchor(sb, f);
        sb_append(sb, "\"");
        versions_attr(sb, s, f->eff_versions);
        sb_printf(sb, "><td class=\"name\" style=\"padding-left:%dem\">", depth + 1);
        if (f->name && *f->name)
            html_escape(sb, f->name);
        else
            sb_printf(sb, "<i>(%s)</i>", f->nested && f->nested->is_union ? "union" : f->nested ? "struct" : "padding");
        sb_append(sb, "</td><td>");
        site_type_link(s, sb, f->type, "../");
        if (f->bitfield)
            sb_printf(sb, " : %d", f->bits);
        if (f->array) {
            sb_append(sb, "[");
            html_escape(sb, strcmp(f->array, "flexible") ? f->array : "");
            sb_append(sb, "]");
        }
        sb_append(sb, "</td>");
        for (unsigned a = 0; a < w->narchs; a++) {
            sb_append(sb, "<td class=\"num\">");
            placement(s, sb, f, a);
            field_size(s, sb, f, a);
            sb_append(sb, "</td>");
        }
        sb_printf(sb, "<td>%s</td><td>", site_versions_text(s, f->eff_versions));
        html_escape(sb, f->sal);
        const char *dir = direction_of(rec, f);
        sb_append(sb, "</td><td>");
        html_escape(sb, dir);
        sb_append(sb, "</td></tr>\n");
        int any = 0;
        for (size_t k = 0; k < rec->nrules; k++)
            if (rule_field(rec->rules[k]) == f && rec->rules[k]->kind != DDI_RULE_DIRECTION) {
                if (!any++)
                    sb_printf(sb, "<tr class=\"rules\"><td colspan=\"%u\"><ul>\n", 5 + w->narchs);
                rule_item(s, sb, rec->rules[k]);
            }
        if (any)
            sb_append(sb, "</ul></td></tr>\n");
    }
    sb_append(sb, "</tbody>\n</table>\n");
}

static void record_rules(struct site *s, struct strbuf *sb, const struct ddi_model_record *rec)
{
    int any = 0;
    for (size_t k = 0; k < rec->nrules; k++)
        if (!rule_field(rec->rules[k])) {
            if (!any++)
                sb_append(sb, "<h2>Rules on the record</h2>\n<ul>\n");
            rule_item(s, sb, rec->rules[k]);
        }
    if (any)
        sb_append(sb, "</ul>\n");
}

static void discriminator(struct site *s, struct strbuf *sb, const struct ddi_model_record *rec)
{
    const struct ddi_model_discriminator *d = rec->discriminator;
    if (!d)
        return;
    sb_append(sb, "<h2>Discriminator</h2>\n<p><code>");
    html_escape(sb, d->selector);
    sb_append(sb, "</code> (");
    site_type_link(s, sb, d->enum_name, "../");
    sb_append(sb, ") selects the member of <code>");
    html_escape(sb, d->union_name);
    sb_append(sb, "</code>.</p>\n<table class=\"cases\"><thead><tr><th>Value</th><th>#</th><th>Member</th>"
                  "<th>Versions</th></tr></thead>\n<tbody>\n");
    for (size_t i = 0; i < d->ncases; i++) {
        const struct ddi_model_case *c = &d->cases[i];
        sb_append(sb, "<tr><td>");
        html_escape(sb, c->value);
        sb_printf(sb, "</td><td class=\"num\">%lld</td><td>", c->number);
        const struct ddi_model_field *mf = c->member_field;
        const char *page = mf && mf->type_record ? site_record_page(s, mf->type_record) : NULL;
        if (page) {
            sb_printf(sb, "<a class=\"case\" href=\"../%s\">", page);
        } else if (mf) {
            sb_append(sb, "<a class=\"case\" href=\"#");
            field_anchor(sb, mf);
            sb_append(sb, "\">");
        }
        html_escape(sb, c->member ? c->member : "");
        sb_printf(sb, "%s</td><td>%s</td></tr>\n", mf ? "</a>" : "", site_versions_text(s, c->versions));
    }
    sb_append(sb, "</tbody></table>\n");
}

static void changes(struct site *s, struct strbuf *sb, const struct ddi_model_record *rec)
{
    struct vec *v = s->changes ? strmap_get(&s->changes_of_record, rec->name) : NULL;
    if (!s->changes)
        return;
    sb_append(sb, "<h2>Changes since ");
    html_escape(sb, s->previous_name);
    sb_append(sb, "</h2>\n");
    if (!v) {
        sb_append(sb, "<p>None.</p>\n");
        return;
    }
    sb_append(sb, "<ul class=\"changes\">\n");
    static const char *const breaks[] = {"b0", "b1", "b2"};
    for (size_t i = 0; i < v->len; i++) {
        const struct diff_change *c = v->items[i];
        site_badge_item(sb, breaks[c->breaks], c->class_name, c->change, c->item, c->detail);
    }
    sb_append(sb, "</ul>\n");
}

static void findings(struct site *s, struct strbuf *sb, const struct ddi_model_record *rec)
{
    struct vec *v = s->findings ? strmap_get(&s->findings_of_record, rec->name) : NULL;
    if (!v)
        return;
    sb_append(sb, "<h2>Lint findings</h2>\n<ul class=\"lint\">\n");
    for (size_t i = 0; i < v->len; i++) {
        const struct report_finding *f = v->items[i];
        site_badge_item(sb, f->level, f->level, NULL, f->rule_id, f->message);
    }
    sb_append(sb, "</ul>\n");
}

static void version_switch(struct site *s, struct strbuf *sb, const struct ddi_model_record *rec)
{
    sb_append(sb, "<p class=\"switch\"><label>DDI version <select id=\"version\">");
    int last = ddi_vset_last(rec->versions);
    for (int v = 0; v < (int)s->m->where.n; v++)
        if (ddi_vset_has(rec->versions, v)) {
            sb_printf(sb, "<option value=\"%d\"%s>", v, v == last ? " selected" : "");
            html_escape(sb, s->m->where.short_name[v]);
            sb_append(sb, "</option>");
        }
    sb_append(sb, "</select></label> <span class=\"legend\"><span class=\"pad\"></span> padding "
                  "<span class=\"bits\"></span> bit-field</span></p>\n");
}

int report_record_page(struct site *s, size_t index)
{
    const struct ddi_model_record *rec = s->m->records[index];
    const struct ddi_versions *w = &s->m->where;
    struct strbuf sb = {0};
    site_page_begin(&sb, rec->name, "../");
    site_item_heading(s, &sb, rec->is_union ? "union" : "struct", rec->name, rec->file, rec->line, rec->versions);
    sb_append(&sb, " &#183; size");
    for (unsigned a = 0; a < w->narchs; a++) {
        const struct ddi_model_measures *ms = &rec->sizes[a];
        for (size_t k = 0; k < ms->len; k++) {
            sb_printf(&sb, "%s%s%s%ld", k ? "/" : " ", k ? "" : w->arch[a], k ? "" : " ", ms->items[k].value);
        }
    }
    sb_append(&sb, "</p>\n");
    if (s->history)
        report_timeline(s, &sb, rec);
    changes(s, &sb, rec);
    version_switch(s, &sb, rec);
    /* the hatching of padding, defined once for every map of the page */
    sb_append(&sb, "<svg width=\"0\" height=\"0\" style=\"position:absolute\" aria-hidden=\"true\"><defs><pattern id=\"hatch\" width=\"6\" "
                   "height=\"6\" patternUnits=\"userSpaceOnUse\" patternTransform=\"rotate(45)\"><rect width=\"6\" "
                   "height=\"6\" fill=\"#fff\"/><line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#bbb\" "
                   "stroke-width=\"3\"/></pattern></defs></svg>\n");
    for (unsigned a = 0; a < w->narchs; a++) {
        sb_append(&sb, "<section class=\"arch\" id=\"map-");
        html_escape(&sb, w->arch[a]);
        sb_append(&sb, "\"><h2>");
        html_escape(&sb, w->arch[a]);
        sb_append(&sb, "</h2>\n");
        report_bytemaps(s, &sb, rec, a);
        sb_append(&sb, "<p class=\"nomap\" hidden>Not on this architecture at this version.</p>\n</section>\n");
    }
    sb_append(&sb, "<h2>Fields</h2>\n");
    field_rows(s, &sb, rec);
    record_rules(s, &sb, rec);
    discriminator(s, &sb, rec);
    findings(s, &sb, rec);
    return site_page_finish(s, &sb, s->record_page[index]);
}
