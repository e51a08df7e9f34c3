/* The spec schema (spec/ddi.rng, compiled into the binary) and loading of
 * spec files with file:line errors. */
#ifndef DDIGEN_SCHEMA_H
#define DDIGEN_SCHEMA_H

#include <libxml/tree.h>
#include <stddef.h>

/* Parses and validates XML text (name is used in messages). Returns the
 * document, or NULL after reporting "name:line: error: ..." lines. */
xmlDocPtr spec_parse_and_validate(const char *name, const char *text, size_t len);
/* The same for a file on disk. */
xmlDocPtr spec_load(const char *path);
/* Serializes doc canonically (2-space indent, UTF-8), validates the bytes,
 * then writes them atomically to path. 0 or -1. */
int spec_write(xmlDocPtr doc, const char *path);

#endif
