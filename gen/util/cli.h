/* Small helpers shared by the subcommands' argument parsing. */
#ifndef DDIGEN_CLI_H
#define DDIGEN_CLI_H

#include "arena.h"

#include <getopt.h>

/* Splits "a,b,c" into v (pieces strdup'ed into a). */
void cli_split_list(struct arena *a, const char *list, struct vec *v);
/* A name (or with list, comma-separated names) of letters, digits and '_',
 * as DDI versions and records are: 0, or -1 after one error line naming
 * option. Checked before any work, so that an empty or malformed value is
 * a usage error and never reaches a template. */
int cli_check_names(const char *option, const char *value, int list);
/* Parses "x86,x64,arm64" into a mask; -1 on an unknown name (reported). */
int cli_parse_archs(const char *list, unsigned *mask);

/* getopt_long with ddigen's own messages: an unknown option, a missing
 * value or a value given to a flag is reported as one escaped error line
 * naming the command (argv[0]) and the option, and returned as '?', which
 * every caller turns into its usage and exit 2. "--" ends the options as
 * with getopt_long; GNU permutation is kept (options after file names). */
int cli_getopt(int argc, char **argv, const char *shortopts, const struct option *longopts);

#endif
