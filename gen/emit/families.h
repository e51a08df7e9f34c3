/* Output families for `--outputs asserts,validate,...`: the names a user
 * selects and the templates each one stands for. */
#ifndef DDIGEN_EMIT_FAMILIES_H
#define DDIGEN_EMIT_FAMILIES_H

#include "../util/arena.h"

/* The template file names (sorted, strdup'ed into names) of the families in
 * the comma-separated list, of those present in templates_dir. An unknown
 * family, or one none of whose templates is in the folder, is an error
 * naming it: 0, or -1 after reporting. */
int emit_select_templates(const char *templates_dir, const char *outputs, struct vec *names);

/* The file a template renders to: its name without ".xsl" (into a). */
const char *emit_output_name(struct arena *a, const char *template_name);
/* Whether names (template file names) hold a template of the family. */
int emit_family_selected(const struct vec *names, const char *family);
/* Whether one template file name is a template of the family. */
int emit_template_in_family(const char *template_name, const char *family);

#endif
