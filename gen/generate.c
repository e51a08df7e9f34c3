/* `ddigen generate --wdk DIR -o DIR`: layout -> spec file -> emit, writing
 * OUT/spec/ddi.xml and OUT/include/<generated headers>. */
#include "generate.h"

#include "emit/emit.h"
#include "header/header.h"
#include "util/diag.h"
#include "util/output.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

static const char usage[] =
    "usage: ddigen generate (--wdk DIR | --header FILE ...) [layout options] [--templates DIR] -o DIR\n";

int ddigen_cmd_generate(int argc, char **argv)
{
    static const struct option options[] = {
        {"wdk", required_argument, NULL, 256},       {"header", required_argument, NULL, 257},
        {"include", required_argument, NULL, 258},   {"scope", required_argument, NULL, 259},
        {"arch", required_argument, NULL, 260},      {"ddi-version", required_argument, NULL, 261},
        {"record", required_argument, NULL, 262},    {"no-pch", no_argument, NULL, 263},
        {"templates", required_argument, NULL, 't'}, {"output", required_argument, NULL, 'o'},
        {"jobs", required_argument, NULL, 'j'},      {"verbose", no_argument, NULL, 'v'},
        {"quiet", no_argument, NULL, 'q'},           {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    struct header_input in = {.arch_mask = 7};
    struct arena a = {0};
    const char *out = NULL, *templates = DDIGEN_DEFAULT_TEMPLATES;
    int rc = 0, c;
    optind = 1;
    while (rc == 0 && (c = getopt_long(argc, argv, "I:D:o:j:vqh", options, NULL)) != -1) {
        if (c == 'o')
            out = optarg;
        else if (c == 't')
            templates = optarg;
        else if (c == 'h') {
            fputs(usage, stdout);
            goto done;
        } else if (header_parse_option(c, optarg, &in, &a) != 0)
            rc = 2;
    }
    if (rc == 0 && (!out || optind < argc)) {
        ddigen_error(NULL, 0, "generate needs -o DIR and no extra arguments");
        rc = 2;
    }
    if (rc) {
        fputs(usage, stderr);
        goto done;
    }
    char *spec_dir = arena_printf(&a, "%s/spec", out);
    char *spec_path = arena_printf(&a, "%s/ddi.xml", spec_dir);
    char *include_dir = arena_printf(&a, "%s/include", out);
    struct ddi_layout layout = {0};
    rc = ddigen_make_dirs(spec_dir) == 0 && header_ingest(&in, &layout) == 0 &&
                 ddi_layout_write_xml(&layout, spec_path) == 0
             ? 0
             : 1;
    ddi_layout_free(&layout);
    if (rc == 0) {
        ddigen_progress("wrote %s", spec_path);
        struct emit_options eo = {spec_path, templates, include_dir, 0};
        rc = emit_run(&eo);
        if (rc == 0)
            ddigen_progress("wrote generated headers to %s", include_dir);
    }
done:
    header_input_free(&in);
    arena_free(&a);
    return rc;
}
