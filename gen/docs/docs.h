/* Public API of the docs stage: reference pages (docs-repo markdown, saved
 * HTML, plain-text copies) in, the <docs> part of the spec out. */
#ifndef DDIGEN_DOCS_H
#define DDIGEN_DOCS_H

#include "../model/rule_kinds.h"
#include <libxml/tree.h>
#include <stdbool.h>
#include <stddef.h>

enum ddigen_docs_format {
    DDIGEN_DOCS_AUTO = -1,
    DDIGEN_DOCS_MARKDOWN = 0,
    DDIGEN_DOCS_HTML = 1,
    DDIGEN_DOCS_TEXT = 2,
};

#define DDIGEN_DOCS_RULE_KINDS DDI_RULE_KIND_COUNT

/* The largest page read, in bytes. Reading is linear in a page's bytes and
 * fields, but checking its output holds libxml2's tree of it (about 170
 * bytes per input byte); the largest of Microsoft's 825 reference pages is
 * 29 KB, so a page past 4 MiB is not a page and is refused by name. */
#define DDIGEN_DOCS_MAX_PAGE_BYTES ((size_t)4 << 20)

struct ddigen_docs_stats {
    unsigned files;          /* files looked at */
    unsigned pages;          /* pages in the output */
    unsigned skipped;        /* not reference pages (each reported) */
    unsigned failed;         /* unreadable (each reported as an error) */
    unsigned members;        /* fields + enum values + params */
    unsigned dash_headings;  /* "-field"/"-param" headings read */
    unsigned bare_headings;  /* "### Name" headings read as fields */
    unsigned unnamed;        /* descriptions that lost their names */
    unsigned directions;     /* members with a direction */
    unsigned syntax_blocks, syntax_parsed, syntax_disagree;
    unsigned modal_sentences, unextracted;
    unsigned rules;
    unsigned rules_by_kind[DDIGEN_DOCS_RULE_KINDS];
    bool output_checked;     /* every page of the output passed the schema
                                while it was written (docs_outcheck) */
};

struct ddigen_docs_options {
    bool parse_syntax; /* run libclang over syntax/prototype blocks (default on) */
    /* The caller checks the pages against the schema itself: generate, whose
     * spec holds the same <page> elements and is checked before anything
     * is written. The pages' own check then costs CPU beside the layout
     * for nothing (0.2 s of the 14393 kit's pages). */
    bool pages_checked_by_caller;
};

/* Reads every page under paths (files, or folders recursively, in sorted
 * order) into a new document <ddi-spec version="1"><docs>...</docs></ddi-spec>.
 * Returns 0, or 1 when an input had errors (reported as file:line; the
 * document is still built from what could be read). stats may be NULL. */
int ddigen_docs_build(const char *const *paths, size_t npaths, xmlDocPtr *out);
/* The same, streamed: *data (malloc'd, NUL-terminated) holds exactly the
 * bytes ddigen_docs_serialize gives for the built document. This is what
 * `ddigen docs` uses: no tree is built. */
int ddigen_docs_build_mem(const char *const *paths, size_t npaths, const struct ddigen_docs_options *opt,
                          char **data, size_t *len, struct ddigen_docs_stats *stats);
int ddigen_docs_build_ex(const char *const *paths, size_t npaths, const struct ddigen_docs_options *opt,
                         xmlDocPtr *out, struct ddigen_docs_stats *stats);

/* Reads one page held in memory and appends its <page> to docs_elem (used by
 * the fuzz targets and unit tests). Returns 0 or -1 (not a page). */
int ddigen_docs_read_buffer(const char *name, const char *data, size_t len, enum ddigen_docs_format fmt,
                            const struct ddigen_docs_options *opt, xmlNodePtr docs_elem,
                            struct ddigen_docs_stats *stats);

const char *ddigen_docs_rule_kind_name(unsigned kind);

/* Canonical serialization of a built document (what `ddigen docs -o` writes). */
int ddigen_docs_serialize(xmlDocPtr doc, char **data, size_t *len);

/* Releases process-wide state (the libclang index) and the calling
 * thread's page-parse heap. */
void ddigen_docs_shutdown(void);

/* `ddigen docs PATH... -o FILE [-v] [-q]`; argv[0] is "docs". */
int ddigen_cmd_docs(int argc, char **argv);

#endif
