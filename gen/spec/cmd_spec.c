/* `ddigen spec --layout L.xml --docs D.xml [--overrides F] [--previous OLD]
 * -o SPEC.xml`: copies the layout and the docs into one document, assigns
 * stable IDs (keeping OLD's), merges, validates and writes it. */
#include "spec.h"

#include "ids.h"
#include "lint.h"
#include "merge_docs.h"
#include "overrides.h"
#include "reviewed.h"
#include "schema.h"
#include "../model/specxml.h"

#include "../util/cli.h"
#include "../util/diag.h"
#include "../util/output.h"

#include <getopt.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

xmlDocPtr spec_build(xmlDocPtr layout, xmlDocPtr docs, const struct spec_build_options *opt)
{
    struct overrides ovr = {0};
    struct reviewed rev = {0};
    xmlDocPtr prev = NULL, out = NULL;
    int ok = 1;
    if (opt->overrides && overrides_load(&ovr, opt->overrides) != 0)
        ok = 0;
    if (ok && opt->reviewed && reviewed_load(&rev, opt->reviewed) != 0)
        ok = 0;
    xmlDocPtr given = opt->previous_doc;
    if (ok && (opt->previous || given)) {
        prev = given ? given : spec_load(opt->previous);
        ok = prev && spec_check_ids(prev, opt->previous) == 0;
    }
    if (!ok)
        goto done;
    out = xmlNewDoc(BAD_CAST "1.0");
    xmlNodePtr root = xmlNewNode(NULL, BAD_CAST "ddi-spec");
    xmlDocSetRootElement(out, root);
    xmlSetProp(root, BAD_CAST "version", BAD_CAST "1");
    /* The parts move into the new document (no copy: specs get large). */
    xmlNodePtr l = sx_part(layout, "layout");
    if (l) {
        xmlUnlinkNode(l);
        xmlDOMWrapAdoptNode(NULL, layout, l, out, root, 0);
        xmlAddChild(root, l);
    }
    xmlNodePtr d = sx_part(docs, "docs");
    if (d) {
        xmlUnlinkNode(d);
        xmlDOMWrapAdoptNode(NULL, docs, d, out, root, 0);
        xmlAddChild(root, d);
    }
    struct spec_ids_stats ids;
    ok = spec_assign_ids(out, prev, opt->previous, &ids) == 0;
    struct spec_merge_stats ms;
    if (ok)
        ok = spec_merge(out, opt->overrides ? &ovr : NULL, opt->reviewed ? &rev : NULL, &ms) == 0;
    if (ok) {
        ddigen_progress("spec: IDs %u kept, %u new, %u retired", ids.kept, ids.added, ids.retired);
        ddigen_progress("spec: %u of %u pages matched; %u of %u members matched (%u of %u unnamed); "
                        "%u of %u rules attached, %u of %u operands resolved",
                        ms.pages_matched, ms.pages, ms.members_matched, ms.members, ms.unnamed_matched,
                        ms.unnamed, ms.rules_attached, ms.rules, ms.operands_resolved, ms.operands);
        ddigen_progress("spec: %u discriminators (%u of %u cases mapped); overrides %u applied, %u stale",
                        ms.discriminators, ms.cases_mapped, ms.cases, ms.overrides_applied,
                        ms.overrides_stale);
        if (opt->reviewed)
            ddigen_progress("spec: reviewed entries %u applied, %u stale", ms.reviewed_applied, ms.reviewed_stale);
    } else {
        xmlFreeDoc(out);
        out = NULL;
    }
done:
    if (prev != given)
        xmlFreeDoc(prev);
    overrides_free(&ovr);
    reviewed_free(&rev);
    return out;
}

static const char spec_usage[] =
    "usage: ddigen spec --layout LAYOUT.xml [--docs DOCS.xml] [--overrides spec/overrides.xml]\n"
    "                   [--reviewed spec/reviewed.xml]\n"
    "                   [--previous OLD.xml] -o SPEC.xml [-v] [-q]\n"
    "  --layout FILE     output of `ddigen layout`\n"
    "  --docs FILE       output of `ddigen docs`\n"
    "  --overrides FILE  hand-kept facts with reasons (spec/overrides.xml)\n"
    "  --reviewed FILE   rules a reader wrote from the pages: add, drop, correct (spec/reviewed.xml)\n"
    "  --previous FILE   the previous revision's spec: its IDs are kept, never reused\n"
    "  -o FILE           the spec (\"-\" for stdout)\n";

int ddigen_cmd_spec(int argc, char **argv)
{
    static const struct option options[] = {
        {"layout", required_argument, NULL, 'l'},   {"docs", required_argument, NULL, 'd'},
        {"overrides", required_argument, NULL, 'r'}, {"previous", required_argument, NULL, 'p'},
        {"reviewed", required_argument, NULL, 'R'},
        {"output", required_argument, NULL, 'o'},   {"verbose", no_argument, NULL, 'v'},
        {"quiet", no_argument, NULL, 'q'},          {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *layout_path = NULL, *docs_path = NULL, *out_path = NULL;
    struct spec_build_options opt = {0};
    int c;
    optind = 1;
    while ((c = cli_getopt(argc, argv, "o:vqh", options)) != -1) {
        switch (c) {
        case 'l': layout_path = optarg; break;
        case 'd': docs_path = optarg; break;
        case 'r': opt.overrides = optarg; break;
        case 'R': opt.reviewed = optarg; break;
        case 'p': opt.previous = optarg; break;
        case 'o': out_path = optarg; break;
        case 'v': ddigen_diag_global.verbose = 1; break;
        case 'q': ddigen_diag_global.quiet = 1; break;
        case 'h': fputs(spec_usage, stdout); return 0;
        default: fputs(spec_usage, stderr); return 2;
        }
    }
    if (!layout_path || !out_path || optind < argc) {
        ddigen_error(NULL, 0, "spec needs --layout FILE and -o FILE, and no other arguments");
        fputs(spec_usage, stderr);
        return 2;
    }
    xmlDocPtr layout = spec_load(layout_path);
    xmlDocPtr docs = docs_path ? spec_load(docs_path) : NULL;
    int rc = 1;
    if (layout && (!docs_path || docs)) {
        if (!sx_part(layout, "layout"))
            ddigen_error(layout_path, 0, "has no <layout> (give the output of `ddigen layout`)");
        else if (docs && !sx_part(docs, "docs"))
            ddigen_error(docs_path, 0, "has no <docs> (give the output of `ddigen docs`)");
        else {
            xmlDocPtr spec = spec_build(layout, docs, &opt);
            xmlFreeDoc(layout); /* emptied by spec_build: free before writing */
            xmlFreeDoc(docs);
            layout = docs = NULL;
            if (spec && spec_write(spec, out_path) == 0)
                rc = 0;
            xmlFreeDoc(spec);
        }
    }
    xmlFreeDoc(layout);
    xmlFreeDoc(docs);
    return rc;
}

static const char lint_usage[] =
    "usage: ddigen lint SPEC.xml [options]\n"
    "       ddigen lint --layout LAYOUT.xml --docs DOCS.xml [--overrides FILE] [--reviewed FILE] [options]\n"
    "  --sarif FILE         also write the findings as SARIF 2.1.0\n"
    "  --previous OLD.xml   also check that SPEC kept every stable ID of OLD\n"
    "  --docs-root DIR      the pages' folder as given to ddigen docs/generate --docs (or its parent):\n"
    "                       doc paths are shown under it, and SARIF URIs are relative to it (DOCS)\n"
    "  --headers-root KIT   the kit (WDK Include/<version>): headers are shown as KIT/shared/d3dkmddi.h,\n"
    "                       and SARIF URIs are relative to it (HEADERS: shared/d3dkmddi.h, km/...)\n"
    "  -o FILE              text findings to FILE instead of stdout\n"
    "exit status: 0 no error-level finding, 1 errors found, 2 usage or unreadable input\n";

static int lint_outputs(const struct lint_result *res, const char *text_path, const char *sarif_path)
{
    int rc = lint_write_text_file(res, text_path ? text_path : "-");
    if (sarif_path) {
        char *json = lint_sarif(res, DDIGEN_VERSION);
        rc = json && ddigen_write_file(sarif_path, json, strlen(json)) == 0 ? 0 : -1;
        free(json);
    }
    return rc;
}

int ddigen_cmd_lint(int argc, char **argv)
{
    static const struct option options[] = {
        {"layout", required_argument, NULL, 'l'},     {"docs", required_argument, NULL, 'd'},
        {"overrides", required_argument, NULL, 'r'},  {"previous", required_argument, NULL, 'p'},
        {"reviewed", required_argument, NULL, 'R'},
        {"sarif", required_argument, NULL, 's'},      {"docs-root", required_argument, NULL, 'D'},
        {"headers-root", required_argument, NULL, 'H'}, {"output", required_argument, NULL, 'o'},
        {"verbose", no_argument, NULL, 'v'},          {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},             {NULL, 0, NULL, 0},
    };
    const char *layout_path = NULL, *docs_path = NULL, *sarif = NULL, *text = NULL, *previous = NULL;
    struct spec_build_options bopt = {0};
    struct lint_options lopt = {0};
    int c;
    optind = 1;
    while ((c = cli_getopt(argc, argv, "o:vqh", options)) != -1) {
        switch (c) {
        case 'l': layout_path = optarg; break;
        case 'd': docs_path = optarg; break;
        case 'r': bopt.overrides = optarg; break;
        case 'R': bopt.reviewed = optarg; break;
        case 'p': previous = optarg; break;
        case 's': sarif = optarg; break;
        case 'D': lopt.docs_root = optarg; break;
        case 'H': lopt.headers_root = optarg; break;
        case 'o': text = optarg; break;
        case 'v': ddigen_diag_global.verbose = 1; break;
        case 'q': ddigen_diag_global.quiet = 1; break;
        case 'h': fputs(lint_usage, stdout); return 0;
        default: fputs(lint_usage, stderr); return 2;
        }
    }
    int from_spec = optind + 1 == argc && !layout_path && !docs_path && !bopt.overrides && !bopt.reviewed;
    int from_inputs = optind == argc && layout_path && docs_path;
    if (!from_spec && !from_inputs) {
        ddigen_error(NULL, 0, "lint needs SPEC.xml, or --layout and --docs");
        fputs(lint_usage, stderr);
        return 2;
    }
    const char *name = from_spec ? argv[optind] : "(merged)";
    xmlDocPtr spec = NULL;
    if (from_spec) {
        spec = spec_load(argv[optind]);
        if (spec && !sx_part(spec, "merge")) {
            ddigen_error(argv[optind], 0, "has no <merge> part; lint reads the output of `ddigen spec`");
            xmlFreeDoc(spec);
            spec = NULL;
        }
    } else {
        ddigen_diag_global.quiet = 1;
        xmlDocPtr layout = spec_load(layout_path), docs = spec_load(docs_path);
        if (layout && docs)
            spec = spec_build(layout, docs, &bopt);
        xmlFreeDoc(layout);
        xmlFreeDoc(docs);
    }
    if (!spec)
        return 2;
    unsigned id_errors = 0;
    if (previous) {
        xmlDocPtr old = spec_load(previous);
        id_errors = old ? spec_check_kept_ids(old, previous, spec, name) : 1;
        xmlFreeDoc(old);
    }
    struct lint_result res;
    if (lint_run(spec, &lopt, &res) != 0) {
        xmlFreeDoc(spec);
        return 2;
    }
    int rc = lint_outputs(&res, text, sarif) == 0 ? 0 : 2;
    fprintf(stderr, "ddigen: lint: %u errors, %u warnings, %u notes%s\n", res.counts[LINT_ERROR],
            res.counts[LINT_WARNING], res.counts[LINT_NOTE], id_errors ? " (and stable IDs changed)" : "");
    if (rc == 0 && (res.counts[LINT_ERROR] || id_errors))
        rc = 1;
    lint_result_free(&res);
    xmlFreeDoc(spec);
    return rc;
}
