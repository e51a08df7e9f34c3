/* Argument helpers: comma lists and architecture names. */
#include "cli.h"

#include "../spec/layout.h"
#include "diag.h"

#include <stdio.h>
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

int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts)
{
    char spec[128];
    /* A leading ':' makes getopt return ':' for a missing value, so the two
     * mistakes get their own message; opterr = 0 keeps getopt's raw echo of
     * the argument off the terminal. */
    snprintf(spec, sizeof spec, ":%s", shortopts);
    int saved = opterr;
    opterr = 0;
    int c = getopt_long(argc, argv, spec, longopts, NULL);
    opterr = saved;
    if (c != '?' && c != ':')
        return c;
    const char *cmd = argv[0];
    const char *arg = optind > 0 && optind <= argc ? argv[optind - 1] : "";
    int is_long = !strncmp(arg, "--", 2);
    if (c == ':') {
        if (is_long)
            ddigen_error(NULL, 0, "%s: option '%s' needs a value", cmd, ddigen_quote(arg));
        else
            ddigen_error(NULL, 0, "%s: option '-%c' needs a value", cmd, optopt);
    } else if (optopt == 0) {
        ddigen_error(NULL, 0, "%s: unknown option '%s'", cmd, ddigen_quote(arg));
    } else if (optopt < 0x80 && !strchr(shortopts, optopt) && optopt != ':') {
        char one[2] = {(char)optopt, 0};
        ddigen_error(NULL, 0, "%s: unknown option '-%s'", cmd, ddigen_quote(one));
    } else {
        /* "--flag=value" for an option that takes none. */
        const char *eq = strchr(arg, '=');
        ddigen_error(NULL, 0, "%s: option '%s' takes no value", cmd,
                     ddigen_quoten(arg, eq ? (size_t)(eq - arg) : strlen(arg)));
    }
    return '?';
}
