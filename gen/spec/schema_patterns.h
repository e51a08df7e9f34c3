/* Pattern facets of the schema's attributes, checked with regular
 * expressions compiled once per check instead of once per value (libxml2's
 * RELAX NG compiles a facet's expression again for every value it checks:
 * half of a generated spec's validation); the XSD integer types checked
 * here too, and plain strings made <text/> (the datatype library looks a
 * type up by name for every value it checks). */
#ifndef DDIGEN_SPEC_SCHEMA_PATTERNS_H
#define DDIGEN_SPEC_SCHEMA_PATTERNS_H

#include <libxml/tree.h>

struct schema_patterns;

/* Takes out of grammar (the main .rng, parsed; others: the grammars it
 * names by externalRef; each changed in place) the pattern facets and XSD
 * integer types that this module can check in its place with the same
 * verdict: an attribute's pattern is taken only when every declaration of
 * that attribute on every element of that name, in every grammar, has that
 * one pattern on an XSD string (or that one integer type). A plain XSD
 * string becomes <text/>, which accepts the same values. NULL when none is
 * taken (no value then needs checking here) or out of memory. */
struct schema_patterns *schema_patterns_take(xmlDocPtr grammar, xmlDocPtr *others, size_t n_others);

/* 1 when every attribute of doc whose pattern was taken matches it (the
 * whole document then is valid against the original grammar exactly when it
 * is valid against the changed one); 0 when one does not, or on failure. */
int schema_patterns_hold(const struct schema_patterns *p, xmlDocPtr doc);

/* The check made in place of an XSD integer type (integer,
 * nonNegativeInteger, positiveInteger) without facets: 1 when v is of
 * the type, 0 when not, -1 for any other type. A test holds it to
 * libxml2's own verdicts. */
int schema_patterns_integer_holds(const char *xsd_type, const xmlChar *v);

#endif
