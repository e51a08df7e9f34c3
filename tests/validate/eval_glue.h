/* The host evaluator (gen/rules) behind a plain-C interface, so the
 * behaviour test's WDK translation unit never sees libxml2's headers. */
#ifndef EVAL_GLUE_H
#define EVAL_GLUE_H

#include <stddef.h>

/* Evaluates RECORD's rules for dir ("in"/"out") over object as laid out
 * for x64 at DDI version; returns the violation count and copies the first
 * rule ID, -1 on error, -2 when this host's layout of the record is not
 * x64's (the bytes would mean something else). */
long eval_glue_run(const char *spec, const char *record, const char *version, const char *dir, const void *object,
                   size_t size, char *first_id, size_t id_size);

#endif
