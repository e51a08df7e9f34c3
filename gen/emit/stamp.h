/* The options a generated set was made with, kept with it (docs/
 * ARCHITECTURE.md, "Options stamped into the spec"): a <generated-with>
 * element in ddi.xml, which `emit` takes as its defaults, so that
 * `emit --check` on the spec `generate` wrote renders what `generate`
 * rendered; and one comment line at the top of each generated file naming
 * the template parameters, so a reader of the file sees what shaped it. */
#ifndef DDIGEN_EMIT_STAMP_H
#define DDIGEN_EMIT_STAMP_H

#include "../util/arena.h"

#include <libxml/tree.h>

struct emit_options;

/* Adds <generated-with outputs=...><param name value/>...</generated-with>
 * to the spec's root (replacing one it had), when there are outputs or
 * params (NULL-terminated NAME=VALUE); nothing otherwise. */
void emit_stamp_add(xmlDocPtr spec, const char *outputs, const char *const *params);

/* The spec's stamp under opt's own choices: opt->outputs when it has none,
 * and each stamped parameter whose name opt->params does not set. The
 * merged list is built in merged (NULL-terminated, strings in a) and
 * opt->params pointed at it. */
void emit_stamp_apply(xmlDocPtr spec, struct emit_options *opt, struct vec *merged, struct arena *a);

/* "/ * ddigen options: NAME=VALUE ... * /\n" for the parameters that shape
 * the output (sorted by name; a long value as its size and hash), or NULL
 * when there are none. */
const char *emit_stamp_comment(const char *const *params, struct arena *a);

#endif
