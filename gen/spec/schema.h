/* The spec schema (spec/ddi.rng, compiled into the binary) and loading of
 * spec files with file:line errors. */
#ifndef DDIGEN_SCHEMA_H
#define DDIGEN_SCHEMA_H

#include <libxml/tree.h>
#include <stddef.h>

/* Parses XML text ddigen is given (specs, overrides): no DOCTYPE, no
 * network. Returns the document, or NULL after reporting file:line errors. */
xmlDocPtr spec_read_xml(const char *name, const char *text, size_t len);
/* spec_read_xml on a file's text (no schema check: for XML a process of
 * this run wrote and checked). NULL after reporting. */
xmlDocPtr spec_read_xml_file(const char *path);
/* Parses and validates XML text (name is used in messages). Returns the
 * document, or NULL after reporting "name:line: error: ..." lines. */
xmlDocPtr spec_parse_and_validate(const char *name, const char *text, size_t len);
/* The same for a file on disk. */
xmlDocPtr spec_load(const char *path);
/* Serializes doc canonically (2-space indent, UTF-8) while a thread
 * validates it (write_behind.c), then writes the bytes atomically to path
 * if it is valid. 0 or -1. */
int spec_write(xmlDocPtr doc, const char *path);
/* The check spec_write makes: 0, or -1 after reporting that doc (a
 * document ddigen made, to be written to path) does not match the schema.
 * Reads doc only. */
int spec_validate_generated(xmlDocPtr doc, const char *path);
/* Compiles the schema now, on the calling thread (it is compiled on first
 * use otherwise): 0, or -1 when it does not compile. */
int spec_schema_init(void);

/* Checks serialized XML that a stage generated against the schema, then
 * writes it atomically; on a mismatch nothing is written and the error names
 * the input the offending element came from. 0 or -1. */
int spec_write_text(const char *path, const char *text, size_t len);

/* Schema check of XML texts without any report, safe to use from one
 * thread other than the one using spec_* otherwise: spec_text_check gives 0
 * when the text is well-formed and valid. Call spec_text_is_valid_init()
 * first on the main thread (compiles the schema; 0, or -1 when it does not
 * compile); a checker is made and used on the checking thread. */
int spec_text_is_valid_init(void);
struct spec_text_checker;
struct spec_text_checker *spec_text_checker_new(void); /* NULL: out of memory or no schema */
int spec_text_check(struct spec_text_checker *c, const char *text, size_t len);
void spec_text_checker_free(struct spec_text_checker *c);

#endif
