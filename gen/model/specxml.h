/* Small helpers over the libxml2 tree of a spec document, shared by every
 * stage that reads or writes one (the spec stages, the model, diff, trace,
 * emit): attribute access without allocation and attribute placement that
 * keeps the canonical order. The one set of XML accessors: no stage keeps
 * its own. */
#ifndef DDIGEN_MODEL_SPECXML_H
#define DDIGEN_MODEL_SPECXML_H

#include <libxml/tree.h>
#include <stdbool.h>

/* The value of attribute name, or NULL; points into the tree. */
const char *sx_get(xmlNodePtr n, const char *name);
/* Attribute as an unsigned number; dflt when absent or not a number. */
unsigned long sx_get_ulong(xmlNodePtr n, const char *name, unsigned long dflt);
bool sx_is(xmlNodePtr n, const char *name);
/* First element child named name (or any element when name is NULL). */
xmlNodePtr sx_child(xmlNodePtr parent, const char *name);
/* Next element sibling named name (or any element when name is NULL). */
xmlNodePtr sx_next(xmlNodePtr n, const char *name);
/* The <operand name="name"> child of a rule, or NULL; its value= . */
xmlNodePtr sx_operand(xmlNodePtr rule, const char *name);
const char *sx_operand_value(xmlNodePtr rule, const char *name);
/* Sets attribute name to value, placing a new attribute right after the
 * attribute `after` (or first when after is NULL or absent). */
void sx_set_after(xmlNodePtr n, const char *name, const char *value, const char *after);
/* Appends attribute name=value when value is not NULL. */
void sx_set(xmlNodePtr n, const char *name, const char *value);
void sx_set_ulong(xmlNodePtr n, const char *name, unsigned long v);
/* Appends a new element child. */
xmlNodePtr sx_add(xmlNodePtr parent, const char *name);
/* The <layout>/<docs> element of a spec, or NULL. */
xmlNodePtr sx_part(xmlDocPtr doc, const char *name);
/* Inserts child into root after the last of the named parts that exist
 * (keeps the canonical order of the spec's parts). */
void sx_insert_part(xmlNodePtr root, xmlNodePtr child, const char *const *before_names);

#endif
