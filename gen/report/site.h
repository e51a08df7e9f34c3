/* `ddigen report`: a static HTML site of a spec. What every page writer
 * shares: the model, where each item's page is, the changes and lint
 * findings per record, HTML escaping and the page frame. */
#ifndef DDIGEN_REPORT_SITE_H
#define DDIGEN_REPORT_SITE_H

#include "../diff/diff.h"
#include "../model/model.h"
#include "../util/arena.h"
#include "../util/strbuf.h"
#include "../util/strmap.h"

/* A finding of a SARIF log, placed on a record when one of its locations
 * is in the record's declaration or on one of its pages. */
struct report_finding {
    const char *rule_id, *level, *message;
    const char *file, *related_file;
    long line, related_line;
    const struct ddi_model_record *record; /* or NULL */
};

/* `ddigen history`: the timeline of every record over a list of kits
 * (history.c), rendered on each record page and as history.json. */
struct report_history;

/* What a site is made of (ddigen report's options; history adds its timeline). */
struct report_options {
    const char *spec, *previous, *lint, *docs_root, *out;
    /* What the pages call the spec and the previous one (history: the
     * kits' names, never a temporary path); NULL: the file names given. */
    const char *spec_label, *previous_label;
    const struct report_history *history; /* or NULL */
    /* What history has in hand already (else NULL: read from spec and
     * previous): the spec loaded and checked, its model, and the changes
     * from previous to it. Only read. */
    xmlDocPtr spec_doc;
    const struct ddi_model *spec_model;
    const struct diff_changes *previous_changes;
};

/* Writes the whole site into o->out (switched in only when every page
 * was written); 0, or 1 after reporting the error. */
int report_run(const struct report_options *o);

struct site {
    struct arena a;
    const struct ddi_model *m;
    const char *dir;       /* the folder written into (the staging folder) */
    const char *docs_root; /* href prefix of the reference pages, or NULL */
    const char *title;     /* the spec's file name, for page titles */
    const char **record_page; /* per top-level record index: "r/NAME.html" */
    struct strmap page_of_record, page_of_enum, page_of_functype; /* name -> page of the first of that name */
    struct strmap record_index; /* "%p" of a top-level record -> index + 1 */
    /* --previous: every change, and per top-level record name its vec of
     * changes (struct diff_change *). */
    const struct diff_changes *changes;
    const char *previous_name;
    struct strmap changes_of_record;
    /* --lint: every finding, and per record name its vec. */
    const struct report_finding *findings;
    size_t nfindings;
    const char *lint_name;
    struct strmap findings_of_record;
    const struct report_history *history; /* or NULL */
    size_t largest_page;
    const char *largest_name;
    size_t pages;
};

/* Appends text with &, <, >, " and ' escaped. */
void html_escape(struct strbuf *sb, const char *s);
/* The availability of a set as ranges ("VISTA-WDDM2_1"), "none" when empty. */
const char *site_versions_text(struct site *s, ddi_vset set);
/* A page's top: title, stylesheet and the navigation, root the path back
 * to the site's root ("" or "../"). */
void site_page_begin(struct strbuf *sb, const char *title, const char *root);
/* Ends the page, writes it as rel (site_write) and frees sb; 0 or -1. */
int site_page_finish(struct site *s, struct strbuf *sb, const char *rel);
/* The heading of an item's page: "<h1>KIND NAME</h1>" and where it is
 * declared with its availability (the paragraph left open for more). */
void site_item_heading(struct site *s, struct strbuf *sb, const char *kind, const char *name, const char *file,
                       unsigned line, ddi_vset versions);
/* A list item: a badge, text, a code span and more text (each NULL for none). */
void site_badge_item(struct strbuf *sb, const char *li_class, const char *badge, const char *text,
                     const char *code, const char *more);
/* Writes rel (a path inside the site) with sb's bytes; 0 or -1 (reported). */
int site_write(struct site *s, const char *rel, const struct strbuf *sb);
/* The page of a top-level record by pointer, or NULL. */
const char *site_record_page(const struct site *s, const struct ddi_model_record *r);
/* Appends the type, linked to its record's or enum's page when the spec has one. */
void site_type_link(struct site *s, struct strbuf *sb, const char *type, const char *root);

/* The pages. Each 0 or -1 (reported). */
int report_record_page(struct site *s, size_t index);
int report_enum_page(struct site *s, const struct ddi_model_enum *e, const char *page);
int report_functype_page(struct site *s, const struct ddi_model_functype *f, const char *page);
int report_index_page(struct site *s);
int report_changes_page(struct site *s);
int report_lint_page(struct site *s);

/* The SVG byte maps of a record on one architecture (index into the
 * spec's archs), one per group of versions with the same layout. */
void report_bytemaps(struct site *s, struct strbuf *sb, const struct ddi_model_record *r, unsigned arch);

/* The record's timeline strip (history only), and history.json. */
void report_timeline(struct site *s, struct strbuf *sb, const struct ddi_model_record *rec);
int report_history_json(struct site *s);

/* Reads a SARIF log into findings placed on records; 0 or -1 (reported). */
int report_read_lint(struct site *s, const char *path);

#endif
