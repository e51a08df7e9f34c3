/* ddigen: keeps WDDM display drivers in sync with the DDI. This file only
 * dispatches subcommands; each stage parses its own options. */
#include "checkdriver/checkdriver.h"
#include "diff/diff.h"
#include "docs/docs.h"
#include "emit/emit.h"
#include "generate.h"
#include "header/header.h"
#include "report/report.h"
#include "spec/schema.h"
#include "spec/spec.h"
#include "trace/trace.h"
#include "util/config.h"
#include "util/diag.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static const char validate_usage[] = "usage: ddigen validate SPEC.xml...\n"
                                     "  checks each file against the schema and the layout's semantic rules\n";

static int cmd_validate(int argc, char **argv)
{
    /* Options may come anywhere, as with getopt; "--" ends them, so a file
     * may be named "-x.xml". File names are moved to the front of argv. */
    int nfiles = 0, options_done = 0;
    for (int i = 1; i < argc; i++) {
        char *a = argv[i];
        if (!options_done && !strcmp(a, "--")) {
            options_done = 1;
        } else if (!options_done && (!strcmp(a, "--help") || !strcmp(a, "-h"))) {
            fputs(validate_usage, stdout);
            return 0;
        } else if (!options_done && a[0] == '-' && a[1]) {
            ddigen_error(NULL, 0, "validate: unknown option '%s'", ddigen_quote(a));
            fputs(validate_usage, stderr);
            return 2;
        } else {
            argv[1 + nfiles++] = a;
        }
    }
    if (!nfiles) {
        ddigen_error(NULL, 0, "validate: no spec file given");
        fputs(validate_usage, stderr);
        return 2;
    }
    int rc = 0;
    for (int i = 1; i <= nfiles; i++) {
        xmlDocPtr doc = spec_load(argv[i]);
        if (!doc)
            rc = 1;
        xmlFreeDoc(doc);
    }
    return rc;
}

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
    int exit_bit_mask; /* exit status is a bit mask with 1 = error (diff) */
};

static const struct command commands[] = {
    {"layout", ddigen_cmd_layout, "WDK headers -> layout spec (XML)", 0},
    {"docs", ddigen_cmd_docs, "DDI reference pages -> doc model with rules (XML)", 0},
    {"diff", ddigen_cmd_diff, "what changed between two specs (exit: 1 error 2 usage 4 change 8 incompatible)", 1},
    {"spec", ddigen_cmd_spec, "layout + docs (+ overrides, previous spec) -> spec with stable IDs", 0},
    {"lint", ddigen_cmd_lint, "findings where the docs and the headers disagree (text, SARIF)", 0},
    {"emit", ddigen_cmd_emit, "spec + templates -> generated C", 0},
    {"generate", ddigen_cmd_generate, "run every stage end to end", 0},
    {"check-driver", ddigen_cmd_check_driver, "a driver's callback definitions vs the DDI (types, SAL, paging)", 0},
    {"trace", ddigen_cmd_trace, "print a trace of DDI calls (CBOR) naming fields from the spec", 0},
    {"report", ddigen_cmd_report, "spec -> static HTML site: byte maps, fields, rules, changes, lint", 0},
    {"history", ddigen_cmd_history, "specs of every kit, oldest first -> one timeline per record (site + JSON)", 0},
    {"validate", cmd_validate, "check spec files against the schema", 0},
    {"overlay", ddigen_cmd_overlay, "case-insensitive clang VFS overlay for WDK folders", 0},
};

static void usage(FILE *out)
{
    fputs("usage: ddigen COMMAND [options]   (ddigen COMMAND --help for its options)\n\ncommands:\n", out);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
}

/* Reports, diffs and "-o -" go to stdout: a full disk or a closed pipe
 * there is a failed run, not a successful one with a truncated report. */
static int stdout_flushed(const struct command *cmd, int rc)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        ddigen_error("<stdout>", 0, "write failed: %s", strerror(errno));
        return cmd->exit_bit_mask ? rc | 1 : rc ? rc : 1;
    }
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    static const struct command top = {0};
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return stdout_flushed(&top, 0);
    }
    if (!strcmp(argv[1], "--version")) {
        puts("ddigen " DDIGEN_VERSION);
        return stdout_flushed(&top, 0);
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name)) {
            /* ddigen.yaml (or --config FILE) becomes options placed before
             * the command line's, for the commands that read it. */
            struct arena config_strings = {0};
            int cargc = argc - 1;
            char **cargv = argv + 1;
            int rc = config_apply(commands[i].name, &cargc, &cargv, &config_strings);
            if (rc == 0)
                rc = commands[i].run(cargc, cargv);
            ddigen_diag_global.origin = NULL;
            config_reset();
            arena_free(&config_strings);
            rc = stdout_flushed(&commands[i], rc);
            /* A stage that reported an error and still returned success
             * would make CI green on a wrong result: the error wins. */
            if (ddigen_diag_global.errors && !(commands[i].exit_bit_mask ? rc & 3 : rc))
                rc = commands[i].exit_bit_mask ? rc | 1 : 1;
            return rc;
        }
    ddigen_error(NULL, 0, "unknown command '%s'", ddigen_quote(argv[1]));
    usage(stderr);
    return 2;
}
