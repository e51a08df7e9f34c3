/* cli_getopt: getopt_long with ddigen's messages. Its own file so that a
 * program linking only the spec stage does not pull cli.c's architecture
 * parsing (and with it the layout code) in. */
#include "cli.h"

#include "config.h"
#include "diag.h"

#include <stdio.h>
#include <string.h>

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
    /* An option a config file gave: what it says is blamed on its line. */
    ddigen_diag_global.origin = NULL;
    if (c != -1 && optind > 0 && optind <= argc)
        ddigen_diag_global.origin = config_origin(optarg ? optarg : argv[optind - 1]);
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
