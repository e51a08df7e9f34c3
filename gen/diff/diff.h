/* `ddigen diff OLD.xml NEW.xml`: what changed between two revisions of the
 * spec, each change classified; the exit status is a bit mask like
 * abidiff's so CI can decide what fails. */
#ifndef DDIGEN_DIFF_H
#define DDIGEN_DIFF_H

#include <libxml/tree.h>
#include <stdio.h>

enum diff_exit {
    DIFF_ERROR = 1,        /* bad input, or NEW renumbered an ID of OLD */
    DIFF_USAGE = 2,
    DIFF_CHANGE = 4,       /* something changed */
    DIFF_INCOMPATIBLE = 8, /* something changed that breaks source or ABI */
};

enum diff_format { DIFF_TEXT, DIFF_JSON, DIFF_XML };

/* Compares two loaded specs and writes the report; returns the exit mask. */
int diff_specs(xmlDocPtr old_doc, const char *old_name, xmlDocPtr new_doc, const char *new_name,
               enum diff_format format, FILE *out);

int ddigen_cmd_diff(int argc, char **argv);

#endif
