/* `ddigen layout`: headers -> the layout part of the spec. */
#include "header.h"

#include "../util/cli.h"
#include "../util/diag.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: ddigen layout (--wdk DIR | --header FILE [-I DIR] [-D NAME[=V]] [--include FILE])\n"
    "                     [--arch x86,x64,arm64] [--ddi-version V,...] [--scope FILE.h]\n"
    "                     [--record NAME] [-j N] [--no-pch] [-v] [-q] -o FILE\n";

enum { OPT_WDK = 256, OPT_HEADER, OPT_INCLUDE, OPT_SCOPE, OPT_ARCH, OPT_VERSION, OPT_RECORD, OPT_NO_PCH };

static const struct option options[] = {
    {"wdk", required_argument, NULL, OPT_WDK},
    {"header", required_argument, NULL, OPT_HEADER},
    {"include", required_argument, NULL, OPT_INCLUDE},
    {"scope", required_argument, NULL, OPT_SCOPE},
    {"arch", required_argument, NULL, OPT_ARCH},
    {"ddi-version", required_argument, NULL, OPT_VERSION},
    {"record", required_argument, NULL, OPT_RECORD},
    {"no-pch", no_argument, NULL, OPT_NO_PCH},
    {"output", required_argument, NULL, 'o'},
    {"jobs", required_argument, NULL, 'j'},
    {"verbose", no_argument, NULL, 'v'},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* Parses the layout options shared by `layout` and `generate`. Returns 0,
 * 1 for --help, -1 on a usage error (reported). */
int header_parse_option(int opt, const char *arg, struct header_input *in, struct arena *a)
{
    switch (opt) {
    case OPT_WDK: in->wdk_root = arg; return 0;
    case OPT_HEADER: in->header = arg; return 0;
    case 'I': vec_push(&in->include_dirs, (void *)arg); return 0;
    case 'D': vec_push(&in->defines, (void *)arg); return 0;
    case OPT_INCLUDE: vec_push(&in->pre_includes, (void *)arg); return 0;
    case OPT_SCOPE: cli_split_list(a, arg, &in->scope_files); return 0;
    case OPT_ARCH: return cli_parse_archs(arg, &in->arch_mask);
    case OPT_VERSION: cli_split_list(a, arg, &in->versions); return 0;
    case OPT_RECORD: cli_split_list(a, arg, &in->required); return 0;
    case OPT_NO_PCH: in->no_pch = 1; return 0;
    case 'j': in->jobs = atoi(arg); return in->jobs > 0 ? 0 : -1;
    case 'v': ddigen_diag_global.verbose = 1; return 0;
    case 'q': ddigen_diag_global.quiet = 1; return 0;
    }
    return -1;
}

void header_input_free(struct header_input *in)
{
    vec_free(&in->include_dirs);
    vec_free(&in->defines);
    vec_free(&in->pre_includes);
    vec_free(&in->scope_files);
    vec_free(&in->versions);
    vec_free(&in->required);
}

int ddigen_cmd_layout(int argc, char **argv)
{
    struct header_input in = {.arch_mask = 7};
    struct arena a = {0};
    const char *out_path = NULL;
    int rc = 0, opt;
    optind = 1;
    while (rc == 0 && (opt = getopt_long(argc, argv, "I:D:o:j:vqh", options, NULL)) != -1) {
        if (opt == 'o')
            out_path = optarg;
        else if (opt == 'h') {
            fputs(usage, stdout);
            goto done;
        } else if (header_parse_option(opt, optarg, &in, &a) != 0)
            rc = 2;
    }
    if (rc == 0 && (optind < argc || !out_path)) {
        ddigen_error(NULL, 0, optind < argc ? "unexpected argument '%s'" : "missing -o FILE%s",
                     optind < argc ? argv[optind] : "");
        rc = 2;
    }
    if (rc == 2) {
        fputs(usage, stderr);
        goto done;
    }
    struct ddi_layout layout = {0};
    rc = header_ingest(&in, &layout) == 0 && ddi_layout_write_xml(&layout, out_path) == 0 ? 0 : 1;
    ddi_layout_free(&layout);
done:
    header_input_free(&in);
    arena_free(&a);
    return rc;
}
