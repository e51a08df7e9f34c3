/* Lint against the pinned kit: a member a page documents and the kit lacks
 * is, most of the time, a member of a later release (today's pages
 * document the newest kit). The evidence that says so, per page, so that
 * such a member is a note (doc-field-newer) and only the rest an error. */
#ifndef DDIGEN_LINT_NEWER_H
#define DDIGEN_LINT_NEWER_H

#include "../util/arena.h"
#include "../util/strmap.h"

#include <libxml/tree.h>

struct ddi_model;
struct ddi_model_enum;
struct ddi_model_record;

/* What one merge <page> tells about the release its docs page documents. */
struct lint_newer_page {
    struct arena *a;
    xmlNodePtr dpage;              /* the docs <page> */
    int kit_newest;                /* WDDM x10 of the kit's newest version, -1 unknown */
    const char *kit_newest_name;   /* its short name */
    int page_newest;               /* the latest WDDM x10 the page dates anything, -1 none */
    unsigned page_newest_line;
    unsigned last_kit_member_line; /* line of the last documented member the kit has; 0 when
                                      the page leaves a member of the kit undocumented */
    int has_last_value;            /* enum pages: the kit's enum has an ordinary value */
    long long kit_last_value;      /* its largest one (sentinels aside) */
    struct strmap verdicts;        /* doc name -> evidence ("" = none) of members seen */
};

void lint_newer_page_init(struct lint_newer_page *p, struct arena *a, const struct ddi_model *m, xmlNodePtr mpage,
                          xmlNodePtr dpage, const struct ddi_model_record *top, const struct ddi_model_enum *en);
void lint_newer_page_free(struct lint_newer_page *p);

/* Why the member a <match how="none"> names (doc, at line) is of a later
 * release than the kit, in words for the finding, or NULL when nothing
 * says so (then it is an error). When the member's own availability text
 * dates it in a version the kit has, *dated gets that text ("WDDM 2.0,
 * line 93") and the result is NULL: the page contradicts the kit. */
const char *lint_newer_evidence(struct lint_newer_page *p, const char *doc, unsigned line, const char **dated);

#endif
