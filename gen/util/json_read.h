/* A small JSON reader (RFC 8259) for the documents ddigen reads back
 * (`report --lint` reads a SARIF log): a tree in an arena, nesting
 * bounded, every error with the line it was found on. */
#ifndef DDIGEN_JSON_READ_H
#define DDIGEN_JSON_READ_H

#include "arena.h"

#include <stddef.h>

enum json_type { JSON_NULL, JSON_BOOL, JSON_NUMBER, JSON_STRING, JSON_ARRAY, JSON_OBJECT };

struct json_value {
    enum json_type type;
    const char *str;   /* string (NUL-terminated, UTF-8 as read); a number as written */
    double number;
    int boolean;
    /* Arrays: the items; objects: the values, with keys[i] their names. */
    struct json_value **items;
    const char **keys;
    size_t len;
};

/* Parses text (len bytes); NULL after reporting "file:line: error: ..." */
struct json_value *json_parse(struct arena *a, const char *file, const char *text, size_t len);

/* An object's member by name, an array's item; NULL when absent or of
 * another shape. */
const struct json_value *json_get(const struct json_value *obj, const char *key);
const struct json_value *json_at(const struct json_value *arr, size_t i);
/* A member's string (NULL when absent or not a string) and integer (def). */
const char *json_get_str(const struct json_value *obj, const char *key);
long json_get_long(const struct json_value *obj, const char *key, long def);

#endif
