/* The list of header errors ingestion may go on after; see known_errors.h. */
#include "known_errors.h"

#include "../util/diag.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *without_spaces(struct arena *a, const char *s, size_t n)
{
    char *out = arena_alloc(a, n + 1);
    size_t j = 0;
    for (size_t i = 0; i < n && s[i]; i++)
        if (!isspace((unsigned char)s[i]))
            out[j++] = s[i];
    out[j] = '\0';
    return out;
}

int known_errors_add(struct known_errors *k, struct arena *a, const char *spec, const char *origin,
                     unsigned origin_line)
{
    const char *colon = strchr(spec, ':');
    struct known_error *e = arena_alloc(a, sizeof *e);
    if (colon && colon > spec && colon[1] == '~' && colon[2]) {
        e->text = without_spaces(a, colon + 2, strlen(colon + 2));
    } else if (colon && colon > spec && colon[1] && strspn(colon + 1, "0123456789") == strlen(colon + 1)) {
        e->line = (unsigned)strtoul(colon + 1, NULL, 10);
    }
    if (!e->text && !e->line) {
        ddigen_error(origin, origin_line, "known header error '%s': expected FILE:LINE or FILE:~TEXT",
                     ddigen_quote(spec));
        return -1;
    }
    e->file = arena_strndup(a, spec, (size_t)(colon - spec));
    const char *slash = strrchr(e->file, '/');
    if (slash)
        e->file = slash + 1;
    vec_push(&k->entries, e);
    return 0;
}

int known_errors_load(struct known_errors *k, struct arena *a, const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        ddigen_error(path, 0, "cannot read the list of known header errors");
        return -1;
    }
    char buf[4096];
    unsigned line = 0;
    int rc = 0;
    while (fgets(buf, sizeof buf, f)) {
        line++;
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        size_t n = strlen(buf);
        while (n && isspace((unsigned char)buf[n - 1]))
            buf[--n] = '\0';
        char *start = buf;
        while (isspace((unsigned char)*start))
            start++;
        if (*start && known_errors_add(k, a, start, path, line) != 0)
            rc = -1;
    }
    fclose(f);
    return rc;
}

void known_errors_add_defaults(struct known_errors *k, struct arena *a)
{
    known_errors_add(k, a, "dispmprt.h:~static_assert(FIELD_OFFSET(", NULL, 0);
}

int known_errors_match(const struct known_errors *k, const char *path, unsigned line, const char *source_line)
{
    if (!path)
        return 0;
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    struct arena scratch = {0};
    const char *text = source_line ? without_spaces(&scratch, source_line, strlen(source_line)) : "";
    int found = 0;
    for (size_t i = 0; i < k->entries.len && !found; i++) {
        const struct known_error *e = k->entries.items[i];
        if (strcasecmp(e->file, base) != 0)
            continue;
        found = e->line ? e->line == line : strstr(text, e->text) != NULL;
    }
    arena_free(&scratch);
    return found;
}

void known_errors_free(struct known_errors *k)
{
    vec_free(&k->entries);
}
