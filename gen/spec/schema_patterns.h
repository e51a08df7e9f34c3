/* Pattern facets of the schema's attributes, checked with regular
 * expressions compiled once per check instead of once per value (libxml2's
 * RELAX NG compiles a facet's expression again for every value it checks:
 * half of a generated spec's validation). */
#ifndef DDIGEN_SPEC_SCHEMA_PATTERNS_H
#define DDIGEN_SPEC_SCHEMA_PATTERNS_H

#include <libxml/tree.h>

struct schema_patterns;

/* Takes out of grammar (the main .rng, parsed; others: the grammars it
 * names by externalRef) the pattern facets that this module can check in
 * its place with the same verdict: an attribute's pattern is taken only
 * when every declaration of that attribute on every element of that name,
 * in every grammar, has that one pattern on an XSD string. NULL when none
 * is taken (the grammar is then unchanged) or out of memory. */
struct schema_patterns *schema_patterns_take(xmlDocPtr grammar, xmlDocPtr *others, size_t n_others);

/* 1 when every attribute of doc whose pattern was taken matches it (the
 * whole document then is valid against the original grammar exactly when it
 * is valid against the changed one); 0 when one does not, or on failure. */
int schema_patterns_hold(const struct schema_patterns *p, xmlDocPtr doc);

#endif
