/* Argument helpers: comma lists and architecture names. */
#include "cli.h"

#include "../spec/layout.h"
#include "diag.h"

#include <string.h>

void cli_split_list(struct arena *a, const char *list, struct vec *v)
{
    while (*list) {
        const char *comma = strchr(list, ',');
        size_t n = comma ? (size_t)(comma - list) : strlen(list);
        if (n)
            vec_push(v, arena_strndup(a, list, n));
        list += n + (comma != NULL);
    }
}

int cli_check_names(const char *option, const char *value, int list)
{
    const char *bad = NULL;
    if (!*value)
        bad = "an empty value";
    for (const char *c = value; !bad && *c; c++) {
        if (*c == ',' && list && c != value && c[1] && c[1] != ',')
            continue;
        if (*c == ',')
            bad = list ? "an empty name in the list" : "a list (one name is taken)";
        else if (!((*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_'))
            bad = "a character that is not a letter, digit or '_'";
    }
    if (!bad)
        return 0;
    ddigen_error(NULL, 0, "%s '%s': %s; expected %s", option, ddigen_quote(value), bad,
                 list ? "names (letters, digits, '_') separated by commas" : "a name (letters, digits, '_')");
    return -1;
}

int cli_parse_archs(const char *list, unsigned *mask)
{
    struct arena a = {0};
    struct vec names = {0};
    cli_split_list(&a, list, &names);
    int rc = names.len ? 0 : -1;
    *mask = 0;
    for (size_t i = 0; i < names.len; i++) {
        enum ddi_arch arch;
        if (ddi_arch_parse(names.items[i], &arch) != 0) {
            ddigen_error(NULL, 0, "unknown architecture '%s' (expected x86, x64 or arm64)",
                         ddigen_quote(names.items[i]));
            rc = -1;
        } else {
            *mask |= 1u << arch;
        }
    }
    if (!names.len)
        ddigen_error(NULL, 0, "empty architecture list");
    vec_free(&names);
    arena_free(&a);
    return rc;
}
