/* ddigen.yaml: a driver repository's options in one file, read by
 * `generate`, `emit`, `lint` and `diff` (docs/ARCHITECTURE.md, "One
 * configuration file"). The file is turned into the very options the
 * command line gives (one table: key -> command, option, kind of value),
 * placed before the command line's own, so every command parses it with
 * the getopt loop it already has; an option given on the command line
 * drops the key that sets the same thing. */
#ifndef DDIGEN_CONFIG_H
#define DDIGEN_CONFIG_H

#include "arena.h"

#include <stddef.h>

#define DDIGEN_CONFIG_NAME "ddigen.yaml"

/* For a command that reads the config: takes --config FILE / --no-config
 * out of argv; loads FILE, or ./ddigen.yaml when present (neither with
 * --no-config, --help or -h); and makes *argv the command name, the
 * config's options for this command, then the command line's arguments.
 * Strings live in a. 0 (argv unchanged for a command that reads no
 * config), or 2 after reporting a usage error: an unreadable file, YAML
 * that does not parse, an unknown key, a value of the wrong kind (each
 * named at FILE:LINE:COL and with what was expected). */
int config_apply(const char *command, int *argc, char ***argv, struct arena *a);

/* Parses a config's text (name in messages) into the options of command,
 * pushed onto out as "--option" and value strings (in a). 0, or -1 after
 * reporting. Exposed for the fuzz target. */
int config_parse(const char *name, const char *text, size_t len, const char *command, struct vec *out,
                 struct arena *a);

/* Where a string config_apply put into argv came from ("FILE:LINE:COL"),
 * or NULL for the command line's own arguments. */
const char *config_origin(const char *arg);

/* Forgets the origins (config_apply's strings are about to be freed). */
void config_reset(void);

#endif
