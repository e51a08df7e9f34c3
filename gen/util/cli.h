/* Small helpers shared by the subcommands' argument parsing. */
#ifndef DDIGEN_CLI_H
#define DDIGEN_CLI_H

#include "arena.h"

/* Splits "a,b,c" into v (pieces strdup'ed into a). */
void cli_split_list(struct arena *a, const char *list, struct vec *v);
/* Parses "x86,x64,arm64" into a mask; -1 on an unknown name (reported). */
int cli_parse_archs(const char *list, unsigned *mask);

#endif
