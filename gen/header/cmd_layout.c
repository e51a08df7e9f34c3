/* `ddigen layout`: headers -> the layout part of the spec. */
#include "header.h"

#include "../util/cli.h"
#include "../util/diag.h"
#include "../util/output.h"
#include "../util/wdk_layout.h"
#include "clang_args.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: ddigen layout (--wdk DIR | --header FILE [-I DIR] [-D NAME[=V]] [--include FILE])\n"
    "                     [--arch x86,x64,arm64] [--ddi-version V,...] [--scope FILE.h]\n"
    "                     [--record NAME] [-j N] [--no-pch] [-v] [-q] -o FILE\n"
    "                     [--allow-header-error FILE:LINE|FILE:~TEXT] [--allow-header-errors LIST]\n"
    "  Any clang error in the headers is fatal (clang recovers by guessing layouts), except the\n"
    "  ones listed: dispmprt.h's static_assert(FIELD_OFFSET(...)) is listed by default.\n";

static const struct option options[] = {
    HEADER_LONG_OPTIONS,
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
    case HEADER_OPT_WDK: in->wdk_root = arg; return 0;
    case HEADER_OPT_HEADER: in->header = arg; return 0;
    case 'I': vec_push(&in->include_dirs, (void *)arg); return 0;
    case 'D': vec_push(&in->defines, (void *)arg); return 0;
    case HEADER_OPT_INCLUDE: vec_push(&in->pre_includes, (void *)arg); return 0;
    case HEADER_OPT_SCOPE: cli_split_list(a, arg, &in->scope_files); return 0;
    case HEADER_OPT_ARCH: return cli_parse_archs(arg, &in->arch_mask);
    case HEADER_OPT_VERSION:
        if (cli_check_names("--ddi-version", arg, 1) != 0)
            return -1;
        cli_split_list(a, arg, &in->versions);
        return 0;
    case HEADER_OPT_RECORD:
        if (cli_check_names("--record", arg, 1) != 0)
            return -1;
        cli_split_list(a, arg, &in->required);
        return 0;
    case HEADER_OPT_NO_PCH: in->no_pch = 1; return 0;
    case HEADER_OPT_ALLOW_ERROR: vec_push(&in->known_errors, (void *)arg); return 0;
    case HEADER_OPT_ALLOW_ERRORS: vec_push(&in->known_error_lists, (void *)arg); return 0;
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
    vec_free(&in->known_errors);
    vec_free(&in->known_error_lists);
}

int ddigen_cmd_layout(int argc, char **argv)
{
    struct header_input in = {.arch_mask = 7};
    struct arena a = {0};
    const char *out_path = NULL;
    int rc = 0, opt;
    optind = 1;
    while (rc == 0 && (opt = cli_getopt(argc, argv, "I:D:o:j:vqh", options)) != -1) {
        if (opt == 'o')
            out_path = optarg;
        else if (opt == 'h') {
            fputs(usage, stdout);
            goto done;
        } else if (header_parse_option(opt, optarg, &in, &a) != 0)
            rc = 2;
    }
    if (rc == 0 && (optind < argc || !out_path)) {
        if (optind < argc)
            ddigen_error(NULL, 0, "layout: unexpected argument '%s'", ddigen_quote(argv[optind]));
        else
            ddigen_error(NULL, 0, "layout: missing -o FILE");
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

/* `ddigen overlay --wdk DIR | -I DIR... -o FILE`: the case-insensitive VFS
 * overlay ingestion uses, for compiling against WDK headers with clang on
 * a case-sensitive file system (clang -ivfsoverlay FILE). */
int ddigen_cmd_overlay(int argc, char **argv)
{
    static const struct option opts[] = {
        {"wdk", required_argument, NULL, HEADER_OPT_WDK},
        {"output", required_argument, NULL, 'o'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct arena a = {0};
    struct vec dirs = {0};
    const char *out = NULL;
    int c, rc = 0;
    optind = 1;
    while ((c = cli_getopt(argc, argv, "I:o:h", opts)) != -1) {
        if (c == HEADER_OPT_WDK) {
            for (size_t i = 0; i < wdk_include_nparts; i++)
                vec_push(&dirs, arena_printf(&a, "%s/%s", optarg, wdk_include_parts[i]));
        } else if (c == 'I') {
            vec_push(&dirs, optarg);
        } else if (c == 'o') {
            out = optarg;
        } else {
            fputs("usage: ddigen overlay (--wdk DIR | -I DIR...) -o FILE\n", c == 'h' ? stdout : stderr);
            rc = c == 'h' ? 0 : 2;
            goto done;
        }
    }
    if (!out || !dirs.len || optind < argc) {
        if (optind < argc)
            ddigen_error(NULL, 0, "overlay: unexpected argument '%s'", ddigen_quote(argv[optind]));
        else
            ddigen_error(NULL, 0, "overlay needs --wdk DIR or -I DIR, and -o FILE");
        fputs("usage: ddigen overlay (--wdk DIR | -I DIR...) -o FILE\n", stderr);
        rc = 2;
        goto done;
    }
    struct vec existing = {0};
    char buf[PATH_MAX];
    for (size_t i = 0; i < dirs.len; i++)
        if (realpath(dirs.items[i], buf))
            vec_push(&existing, arena_strdup(&a, buf));
    if (!existing.len) {
        ddigen_error(dirs.items[0], 0, "no such include folder");
        rc = 1;
    } else {
        char *json = case_insensitive_overlay_json(&existing);
        rc = ddigen_write_file(out, json, strlen(json)) == 0 ? 0 : 1;
        free(json);
    }
    vec_free(&existing);
done:
    vec_free(&dirs);
    arena_free(&a);
    return rc;
}
