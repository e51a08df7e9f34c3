/* The one JSON string writer of ddigen: every --format json output (trace,
 * diff), SARIF (lint) and every JSON file it writes (the libclang overlay) quotes its
 * strings here, so that any byte a name, a path or a trace holds gives valid
 * JSON (RFC 8259): '"' and '\' escaped, control bytes as \u00XX (\n, \t, \r
 * by name), DEL as \u007f, and bytes that are not UTF-8 as U+FFFD (JSON text
 * is UTF-8; a path that is not would make the whole document unreadable). */
#ifndef DDIGEN_JSON_H
#define DDIGEN_JSON_H

#include <stddef.h>
#include <stdio.h>

struct strbuf;

/* "s" (n bytes) to a stream / a string buffer. */
void json_write_strn(FILE *out, const char *s, size_t n);
void json_write_str(FILE *out, const char *s); /* NULL: "" */
void json_sb_strn(struct strbuf *sb, const char *s, size_t n);
void json_sb_str(struct strbuf *sb, const char *s);

#endif
