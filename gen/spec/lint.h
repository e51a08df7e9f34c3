/* Lint: findings from reconciling the doc view with the header view of a
 * merged spec (its <merge> part), as gcc-style text or SARIF 2.1.0. */
#ifndef DDIGEN_LINT_H
#define DDIGEN_LINT_H

#include "../util/arena.h"

#include <libxml/tree.h>
#include <stdio.h>

enum lint_severity { LINT_NOTE, LINT_WARNING, LINT_ERROR };

/* One finding kind: its stable SARIF ruleId and default severity. */
struct lint_kind {
    const char *id;   /* "doc-field-missing" */
    const char *name; /* "DocFieldMissing" */
    enum lint_severity severity;
    const char *description;
};

struct lint_finding {
    const struct lint_kind *kind;
    enum lint_severity severity;
    const char *message;
    const char *doc_file, *header_file; /* as shown: under the roots given, as a person opens them */
    const char *doc_uri, *header_uri;   /* relative to the docs root and the kit root (SARIF) */
    unsigned doc_line, header_line;
    int primary_is_header;   /* the finding is about the header side */
    const char *fingerprint; /* stable across line moves: kind + identity */
};

struct lint_result {
    struct arena a;
    struct vec findings; /* struct lint_finding*, sorted */
    unsigned counts[3];
    const char *docs_root, *headers_root; /* the options', for SARIF's originalUriBaseIds */
};

struct lint_options {
    /* The folder given to `ddigen docs` (or `generate --docs`), or its
     * parent (pages are recorded under the folder's name:
     * ddi-docs/d3dkmddi/x.md); NULL: paths as recorded. */
    const char *docs_root;
    /* The kit (the WDK Include/<version> folder): a header the spec names
     * d3dkmddi.h is shown as ROOT/shared/d3dkmddi.h, the folder the kit
     * has it in; or a folder that holds the headers themselves. NULL: names
     * as recorded. */
    const char *headers_root;
};

extern const struct lint_kind lint_kinds[];
extern const unsigned lint_kind_count;

/* Computes the findings of a spec that has a <merge> part: 0, or -1 when
 * memory ran out (reported; *out is empty and must not be written as a
 * clean result). */
int lint_run(xmlDocPtr spec, const struct lint_options *opt, struct lint_result *out);
/* The same on the spec's model, loaded by the caller, who shares it with
 * the stages after lint (generate: emit's validation plan). */
struct ddi_model;
int lint_run_model(xmlDocPtr spec, const struct ddi_model *model, const struct lint_options *opt,
                   struct lint_result *out);
void lint_result_free(struct lint_result *r);
void lint_write_text(const struct lint_result *r, FILE *out);
/* The same into a file (atomically; "-" is stdout). 0 or -1 (reported). */
int lint_write_text_file(const struct lint_result *r, const char *path);
/* SARIF 2.1.0 into a malloc'd string. */
char *lint_sarif(const struct lint_result *r, const char *tool_version);

#endif
