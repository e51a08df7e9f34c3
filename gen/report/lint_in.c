/* `report --lint FILE`: a SARIF log (lint's) read back, each finding
 * placed on the record it is about. SARIF gives places, not records: a
 * header location is the record whose declaration holds that line (a
 * field's line, else the last record declared at or above it in that
 * file); a page location is the record whose rules were read from that
 * page. Files are compared by their last path component, as the log's
 * paths are relative to roots (uriBaseId) the report does not know. */
#include "site.h"

#include "../util/diag.h"
#include "../util/json_read.h"
#include "../util/output.h"

#include <stdlib.h>
#include <string.h>

static const char *base_name(const char *path)
{
    const char *slash = path ? strrchr(path, '/') : NULL;
    return slash ? slash + 1 : path;
}

struct places {
    struct strmap by_header_line; /* "file:line" -> record */
    struct strmap by_page;        /* page file -> record */
};

static void index_places(struct site *s, struct places *p)
{
    const struct ddi_model *m = s->m;
    for (size_t i = 0; i < m->nrecords; i++) {
        const struct ddi_model_record *r = m->records[i];
        const char *file = base_name(r->file);
        if (file && !strmap_get(&p->by_header_line, arena_printf(&s->a, "%s:%u", file, r->line)))
            strmap_put(&p->by_header_line, arena_printf(&s->a, "%s:%u", file, r->line), (void *)r);
        for (size_t k = 0; file && k < r->nall; k++)
            if (r->all[k]->line && !strmap_get(&p->by_header_line, arena_printf(&s->a, "%s:%u", file, r->all[k]->line)))
                strmap_put(&p->by_header_line, arena_printf(&s->a, "%s:%u", file, r->all[k]->line), (void *)r);
        for (size_t k = 0; k < r->nrules; k++)
            if (r->rules[k]->page && !strmap_get(&p->by_page, base_name(r->rules[k]->page)))
                strmap_put(&p->by_page, base_name(r->rules[k]->page), (void *)r);
    }
}

/* The record declared at or above line in file (the nearest one). */
static const struct ddi_model_record *record_above(const struct site *s, const char *file, long line)
{
    const struct ddi_model_record *best = NULL;
    for (size_t i = 0; i < s->m->nrecords; i++) {
        const struct ddi_model_record *r = s->m->records[i];
        if (r->file && !strcmp(base_name(r->file), file) && r->line <= line && (!best || r->line > best->line))
            best = r;
    }
    return best;
}

static const struct ddi_model_record *place(struct site *s, struct places *p, const char *file, long line)
{
    if (!file)
        return NULL;
    const char *b = base_name(file);
    const struct ddi_model_record *r = strmap_get(&p->by_header_line, arena_printf(&s->a, "%s:%ld", b, line));
    if (!r)
        r = strmap_get(&p->by_page, b);
    size_t n = strlen(b);
    if (!r && n > 2 && !strcmp(b + n - 2, ".h"))
        r = record_above(s, b, line);
    return r;
}

static void location(const struct json_value *loc, const char **file, long *line)
{
    const struct json_value *phys = json_get(loc, "physicalLocation");
    *file = json_get_str(json_get(phys, "artifactLocation"), "uri");
    *line = json_get_long(json_get(phys, "region"), "startLine", 0);
}

int report_read_lint(struct site *s, const char *path)
{
    char *text;
    size_t len;
    if (ddigen_read_file(path, &text, &len) != 0)
        return -1;
    const struct json_value *doc = json_parse(&s->a, path, text, len);
    free(text);
    const struct json_value *results = json_get(json_at(json_get(doc, "runs"), 0), "results");
    if (!doc)
        return -1;
    if (!results || results->type != JSON_ARRAY) {
        ddigen_error(path, 1, "not a SARIF log: expected runs[0].results, an array");
        return -1;
    }
    struct places p = {0};
    index_places(s, &p);
    struct report_finding *out = arena_alloc(&s->a, (results->len + 1) * sizeof *out);
    for (size_t i = 0; i < results->len; i++) {
        const struct json_value *r = results->items[i];
        struct report_finding *f = &out[i];
        f->rule_id = json_get_str(r, "ruleId");
        f->level = json_get_str(r, "level");
        f->message = json_get_str(json_get(r, "message"), "text");
        if (!f->rule_id || !f->message) {
            ddigen_error(path, 1, "not a SARIF log: result %zu has no ruleId or message text", i);
            strmap_free(&p.by_header_line), strmap_free(&p.by_page);
            return -1;
        }
        if (!f->level || (strcmp(f->level, "error") && strcmp(f->level, "warning") && strcmp(f->level, "note")))
            f->level = "warning";
        location(json_at(json_get(r, "locations"), 0), &f->file, &f->line);
        location(json_at(json_get(r, "relatedLocations"), 0), &f->related_file, &f->related_line);
        f->record = place(s, &p, f->file, f->line);
        if (!f->record)
            f->record = place(s, &p, f->related_file, f->related_line);
        if (f->record) {
            struct vec *v = strmap_get(&s->findings_of_record, f->record->name);
            if (!v) {
                v = arena_alloc(&s->a, sizeof *v);
                strmap_put(&s->findings_of_record, f->record->name, v);
            }
            vec_push(v, f);
        }
    }
    s->findings = out;
    s->nfindings = results->len;
    strmap_free(&p.by_header_line);
    strmap_free(&p.by_page);
    return 0;
}
