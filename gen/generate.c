/* `ddigen generate --wdk DIR [--docs DIR] -o DIR`: layout (+ docs -> spec
 * with stable IDs and the merge) -> emit, writing OUT/spec/ddi.xml and
 * OUT/include/<generated headers>; with --docs also OUT/spec/layout.xml,
 * OUT/spec/docs.xml and OUT/lint.txt. */
#include "generate.h"

#include "docs/docs.h"
#include "emit/emit.h"
#include "header/header.h"
#include "spec/lint.h"
#include "spec/schema.h"
#include "spec/spec.h"
#include "util/diag.h"
#include "util/output.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "usage: ddigen generate (--wdk DIR | --header FILE ...) [layout options] [--docs DIR ...]\n"
    "                       [--overrides FILE] [--previous OLD.xml] [--templates DIR] -o DIR\n";

/* docs -> spec (IDs, merge) -> lint findings into OUT/lint.txt. */
static int merge_docs(const char *layout_path, struct vec *docs, const char *overrides, const char *previous,
                      const char *spec_dir, const char *spec_path, const char *lint_path, struct arena *a)
{
    const char *docs_path = arena_printf(a, "%s/docs.xml", spec_dir);
    xmlDocPtr docs_doc = NULL;
    int rc = ddigen_docs_build((const char *const *)docs->items, docs->len, &docs_doc) == 0 ? 0 : 1;
    char *data = NULL;
    size_t len = 0;
    if (ddigen_docs_serialize(docs_doc, &data, &len) != 0 || spec_write_text(docs_path, data, len) != 0)
        rc = 1;
    free(data);
    ddigen_docs_shutdown();
    xmlDocPtr layout = spec_load(layout_path);
    struct spec_build_options opt = {overrides, previous};
    xmlDocPtr spec = layout && docs_doc ? spec_build(layout, docs_doc, &opt) : NULL;
    if (!spec || spec_write(spec, spec_path) != 0)
        rc = 1;
    if (spec) {
        struct lint_result res;
        lint_run(spec, NULL, &res);
        if (lint_write_text_file(&res, lint_path) != 0)
            rc = 1;
        ddigen_progress("lint: %u errors, %u warnings, %u notes (%s)", res.counts[LINT_ERROR],
                        res.counts[LINT_WARNING], res.counts[LINT_NOTE], lint_path);
        lint_result_free(&res);
    }
    xmlFreeDoc(spec);
    xmlFreeDoc(layout);
    xmlFreeDoc(docs_doc);
    return rc;
}

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
        {"docs", required_argument, NULL, 300},      {"overrides", required_argument, NULL, 301},
        {"previous", required_argument, NULL, 302},
        {NULL, 0, NULL, 0},
    };
    struct header_input in = {.arch_mask = 7};
    struct arena a = {0};
    const char *out = NULL, *templates = DDIGEN_DEFAULT_TEMPLATES, *overrides = NULL, *previous = NULL;
    struct vec docs = {0};
    int rc = 0, c;
    optind = 1;
    while (rc == 0 && (c = getopt_long(argc, argv, "I:D:o:j:vqh", options, NULL)) != -1) {
        if (c == 'o')
            out = optarg;
        else if (c == 't')
            templates = optarg;
        else if (c == 300)
            vec_push(&docs, optarg);
        else if (c == 301)
            overrides = optarg;
        else if (c == 302)
            previous = optarg;
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
    char *layout_path = docs.len ? arena_printf(&a, "%s/layout.xml", spec_dir) : spec_path;
    char *include_dir = arena_printf(&a, "%s/include", out);
    struct ddi_layout layout = {0};
    rc = ddigen_make_dirs(spec_dir) == 0 && header_ingest(&in, &layout) == 0 &&
                 ddi_layout_write_xml(&layout, layout_path) == 0
             ? 0
             : 1;
    ddi_layout_free(&layout);
    if (rc == 0 && docs.len)
        rc = merge_docs(layout_path, &docs, overrides, previous, spec_dir, spec_path,
                        arena_printf(&a, "%s/lint.txt", out), &a);
    if (rc == 0) {
        ddigen_progress("wrote %s", spec_path);
        struct emit_options eo = {spec_path, templates, include_dir, 0};
        rc = emit_run(&eo);
        if (rc == 0)
            ddigen_progress("wrote generated headers to %s", include_dir);
    }
done:
    vec_free(&docs);
    header_input_free(&in);
    arena_free(&a);
    return rc;
}
