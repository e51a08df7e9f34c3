/* ddigen: keeps WDDM display drivers in sync with the DDI. This file only
 * dispatches subcommands; each stage parses its own options. */
#include "diff/diff.h"
#include "docs/docs.h"
#include "emit/emit.h"
#include "generate.h"
#include "header/header.h"
#include "spec/schema.h"
#include "spec/spec.h"
#include "util/diag.h"

#include <stdio.h>
#include <string.h>

static int cmd_validate(int argc, char **argv)
{
    int rc = argc > 1 ? 0 : 2;
    for (int i = 1; i < argc; i++) {
        xmlDocPtr doc = spec_load(argv[i]);
        if (!doc)
            rc = 1;
        xmlFreeDoc(doc);
    }
    if (rc == 2)
        fputs("usage: ddigen validate SPEC.xml...\n", stderr);
    return rc;
}

struct command {
    const char *name;
    int (*run)(int argc, char **argv);
    const char *summary;
};

static const struct command commands[] = {
    {"layout", ddigen_cmd_layout, "WDK headers -> layout spec (XML)"},
    {"docs", ddigen_cmd_docs, "DDI reference pages -> doc model with rules (XML)"},
    {"diff", ddigen_cmd_diff, "what changed between two specs (exit: 1 error 2 usage 4 change 8 incompatible)"},
    {"spec", ddigen_cmd_spec, "layout + docs (+ overrides, previous spec) -> spec with stable IDs"},
    {"lint", ddigen_cmd_lint, "findings where the docs and the headers disagree (text, SARIF)"},
    {"emit", ddigen_cmd_emit, "spec + templates -> generated C"},
    {"generate", ddigen_cmd_generate, "run every stage end to end"},
    {"validate", cmd_validate, "check spec files against the schema"},
    {"overlay", ddigen_cmd_overlay, "case-insensitive clang VFS overlay for WDK folders"},
};

static void usage(FILE *out)
{
    fputs("usage: ddigen COMMAND [options]   (ddigen COMMAND --help for its options)\n\ncommands:\n", out);
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(out, "  %-10s %s\n", commands[i].name, commands[i].summary);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        puts("ddigen " DDIGEN_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(argv[1], commands[i].name)) {
            int rc = commands[i].run(argc - 1, argv + 1);
            /* A stage that reported an error and still returned success
             * would make CI green on a wrong result: the error wins. */
            if (rc == 0 && ddigen_diag_global.errors)
                rc = 1;
            return rc;
        }
    ddigen_error(NULL, 0, "unknown command '%s'", argv[1]);
    usage(stderr);
    return 2;
}
