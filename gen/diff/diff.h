/* `ddigen diff OLD.xml NEW.xml`: what changed between two revisions of the
 * spec, each change classified; the exit status is a bit mask like
 * abidiff's so CI can decide what fails. */
#ifndef DDIGEN_DIFF_H
#define DDIGEN_DIFF_H

#include "../util/arena.h"

#include <libxml/tree.h>
#include <stdio.h>

enum diff_exit {
    DIFF_ERROR = 1,        /* bad input, or NEW renumbered an ID of OLD */
    DIFF_USAGE = 2,
    DIFF_CHANGE = 4,       /* something changed */
    DIFF_INCOMPATIBLE = 8, /* something changed that breaks source or ABI */
};

enum diff_format { DIFF_TEXT, DIFF_JSON, DIFF_XML };

/* Which changes fail the run (--fail-on): any change (the default), a
 * source- or ABI-breaking one, or an ABI-breaking one. Below it the
 * status is 0; at or above it, the mask above. */
enum diff_fail_on { DIFF_FAIL_ANY, DIFF_FAIL_SOURCE, DIFF_FAIL_ABI };

struct diff_options {
    enum diff_format format;
    enum diff_fail_on fail_on;
    int kernel;                /* --scope all: kernel records (wdm.h) too */
    const char *const *params; /* a driver's ddi-list, driver-kind, records (NAME=VALUE, NULL-terminated), or NULL */
};

/* Compares two loaded specs and writes the report; returns the exit mask.
 * opt NULL: text, the DDI headers' records, fail on any change. */
int diff_specs(xmlDocPtr old_doc, const char *old_name, xmlDocPtr new_doc, const char *new_name,
               const struct diff_options *opt, FILE *out);

/* One change as the report prints it (report, --previous): the same
 * changes, labels and classes as diff_specs writes. */
enum diff_breaks { DIFF_BREAKS_ABI, DIFF_BREAKS_SOURCE, DIFF_BREAKS_NOTHING };
struct diff_change {
    const char *kind;       /* "record", "field", "enum value", ... */
    const char *change;     /* "added", "removed", "layout changed", "type changed", ... */
    const char *item;       /* "RECORD" or "RECORD.path", "ENUM::VALUE", ... */
    const char *detail;     /* "" when none */
    const char *class_name; /* "ABI-breaking", "source-breaking", "compatible" */
    enum diff_breaks breaks;
};

struct diff_changes {
    struct diff_change *items; /* sorted as the text report lists them */
    size_t len;
    struct arena a;
};

/* Compares two loaded specs into *out (freed with diff_changes_free,
 * whatever the result); returns the exit mask diff_specs would. */
int diff_collect(xmlDocPtr old_doc, const char *old_name, xmlDocPtr new_doc, const char *new_name,
                 struct diff_changes *out);
struct ddi_model;
/* A loaded spec, with its model when the caller has it (NULL: the diff
 * loads one); the model is only read. */
struct diff_spec {
    xmlDocPtr doc;
    const char *name;
    const struct ddi_model *model;
};
/* diff_collect on specs whose models may be loaded already (history holds
 * each kit's model: a second load per pair was a third of its reading). */
int diff_collect_loaded(const struct diff_spec *old_spec, const struct diff_spec *new_spec, struct diff_changes *out);
void diff_changes_free(struct diff_changes *c);

int ddigen_cmd_diff(int argc, char **argv);

#endif
