/* Checks of a spec's layout that the schema cannot express: bit widths,
 * offsets and sizes a compiler could have produced, version ranges. */
#ifndef DDIGEN_SEMANTIC_H
#define DDIGEN_SEMANTIC_H

#include <libxml/tree.h>

/* 0, or -1 after reporting the first impossible value as file:line: error. */
int spec_check_semantics(xmlDocPtr doc, const char *file);

#endif
