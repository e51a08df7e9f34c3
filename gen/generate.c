/* `ddigen generate --wdk DIR [--docs DIR] -o DIR`: layout -> spec (stable
 * IDs, kept from --previous; with --docs the merge) -> emit, writing
 * OUT/spec/layout.xml, OUT/spec/ddi.xml and OUT/include/<generated
 * headers>; with --docs also OUT/spec/docs.xml and OUT/lint.txt. The docs
 * stage runs beside the layout and the written documents are checked on
 * threads beside the stages after them (docs/ARCHITECTURE.md, "generate"). */
#include "generate.h"

#include "docs/docs.h"
#include "emit/emit.h"
#include "emit/scope.h"
#include "emit/skeleton_opts.h"
#include "emit/stamp.h"
#include "header/header.h"
#include "model/model.h"
#include "spec/layout.h"
#include "spec/lint.h"
#include "spec/schema.h"
#include "spec/semantic.h"
#include "spec/spec.h"
#include "spec/write_behind.h"
#include "util/cli.h"
#include "util/deps.h"
#include "util/diag.h"
#include "util/output.h"
#include "util/outset.h"

#include <getopt.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static const char usage[] =
    "usage: ddigen generate (--wdk DIR | --header FILE ...) [layout options] [--docs DIR ...]\n"
    "                       [--overrides FILE] [--reviewed FILE] [--previous OLD.xml] [--templates DIR]\n"
    "                       [--param NAME=VALUE ...] [--outputs FAMILY,...] [--depfile FILE] [--werror] -o DIR\n"
    "  --reviewed FILE     the rules a reader wrote from the pages (spec/reviewed.xml): add, drop, correct\n"
    "  --previous OLD.xml  keep the stable IDs of the previous revision's spec (with or without --docs)\n"
    "  --werror            exit 1 when lint finds an error-level finding (default: report them, exit 0)\n"
    "  --param NAME=VALUE  template parameter (scope=all: also assert the kernel records the DDI refers to)\n"
    "  --outputs LIST      generate only these families: asserts validate marshal dispatch skeleton\n"
    "  --depfile FILE      write a Makefile rule OUT/spec/ddi.xml: every header, page and template read\n"
    "  --ddi-version LIST  also: the skeleton is for the newest of them and up (--param ddi-version=V1..V2\n"
    "                      for a range)\n" SKELETON_USAGE;

/* -v: the wall time of each stage, so a slow stage shows without perf. */
static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void stage_done(const char *stage, double *since)
{
    double now = seconds_now();
    if (ddigen_diag_global.verbose)
        ddigen_progress("time: %s %.3f s", stage, now - *since);
    *since = now;
}

/* The docs pages read into OUT/spec/docs.xml; NULL after reporting. The
 * text is written as the docs stage made it and parsed into the tree the
 * spec takes its <docs> from, the same tree ddigen_docs_build() gives. It
 * is not checked against the schema here: the spec holds the same <page>
 * elements under the same <docs> pattern, and its check refuses the whole
 * set before anything lands (the same reasoning as for layout.xml below). */
static xmlDocPtr read_docs(const struct vec *docs, const char *docs_path)
{
    struct ddigen_docs_options opt = {.parse_syntax = true, .pages_checked_by_caller = true};
    char *data = NULL;
    size_t len = 0;
    int ok = ddigen_docs_build_mem((const char *const *)docs->items, docs->len, &opt, &data, &len, NULL) == 0;
    ddigen_docs_shutdown();
    if (ok)
        ok = ddigen_write_file(docs_path, data, len) == 0;
    xmlDocPtr docs_doc =
        ok ? xmlReadMemory(data, (int)len, "docs.xml", NULL, XML_PARSE_NONET | XML_PARSE_NOBLANKS | XML_PARSE_HUGE)
           : NULL;
    free(data);
    return docs_doc;
}

/* The docs stage reads only pages, so it runs on a thread of its own while
 * libclang parses the headers. Its messages are held and printed after the
 * layout's, where a run of one stage after the other printed them; when the
 * layout failed they are dropped, as such a run never read the pages. */
struct docs_task {
    const struct vec *paths;
    const char *docs_path; /* OUT/spec/docs.xml, in the staging folder */
    xmlDocPtr doc;         /* the tree the spec takes <docs> from; NULL: failed */
    double seconds;
    struct ddigen_diag_held held;
    pthread_t thread;
    int threaded;
};

static void *docs_task_run(void *arg)
{
    struct docs_task *t = arg;
    double start = seconds_now();
    ddigen_diag_hold(&t->held);
    t->doc = read_docs(t->paths, t->docs_path);
    ddigen_diag_hold(NULL);
    t->seconds = seconds_now() - start;
    return NULL;
}

/* The checks of the written documents compile the schema on first use,
 * which registers libxml2's input callbacks: done here, before the docs
 * thread uses libxml2. */
static void docs_task_start(struct docs_task *t)
{
    spec_schema_init();
    t->threaded = pthread_create(&t->thread, NULL, docs_task_run, t) == 0;
    if (!t->threaded)
        docs_task_run(t);
}

/* The docs tree, or NULL (its errors printed when the layout succeeded). */
static xmlDocPtr docs_task_finish(struct docs_task *t, int layout_ok)
{
    if (t->threaded)
        pthread_join(t->thread, NULL);
    if (layout_ok) {
        ddigen_diag_print_held(&t->held);
        if (ddigen_diag_global.verbose)
            ddigen_progress("time: docs %.3f s (beside the layout)", t->seconds);
        return t->doc;
    }
    if (t->held.stream)
        fclose(t->held.stream);
    free(t->held.text);
    xmlFreeDoc(t->doc);
    return NULL;
}

/* The asserts read the layout alone (records, sizes, offsets, versions):
 * rendered from a layout document of their own on a thread while this one
 * builds, merges and lints the spec, where the second core had little to
 * do; the same bytes as rendered from the spec (`emit --spec layout.xml
 * --outputs asserts` differs only in the name it cites, which is given as
 * the spec's here). Not when a scope narrows the families (--ddi-list,
 * --records): the scope is computed from the whole spec. Messages are
 * held and printed after emit's. */
#define EARLY_FAMILY "asserts"

struct early_render {
    const struct ddi_layout *layout;
    struct emit_options opt;
    struct ddigen_diag_held held;
    pthread_t thread;
    int threaded, rc;
};

static xmlDocPtr layout_doc_make(const void *layout);

static void *early_render_run(void *arg)
{
    struct early_render *e = arg;
    ddigen_diag_hold(&e->held);
    xmlDocPtr doc = layout_doc_make(e->layout);
    e->rc = doc ? emit_render(&e->opt, doc) : 1;
    xmlFreeDoc(doc);
    ddigen_diag_hold(NULL);
    return NULL;
}

/* Starts the early render when the run renders asserts without a scope;
 * 1 when started (the caller then skips the family). */
static int early_render_start(struct early_render *e)
{
    if (emit_scope_wanted(e->opt.params) || !emit_selects_family(&e->opt, EARLY_FAMILY))
        return 0;
    e->opt.outputs = EARLY_FAMILY;
    e->opt.layout_only = 1;
    e->threaded = pthread_create(&e->thread, NULL, early_render_run, e) == 0;
    return e->threaded;
}

static int early_render_finish(struct early_render *e)
{
    if (!e->threaded)
        return 0;
    pthread_join(e->thread, NULL);
    ddigen_diag_print_held(&e->held);
    return e->rc;
}

/* Lint findings into OUT/lint.txt; the number of error-level findings,
 * or -1 when lint ran out of memory or the file could not be written
 * (reported). */
static int lint_to_file(xmlDocPtr spec, const struct ddi_model *model, const char *lint_path, const char *shown)
{
    struct lint_result res;
    if (lint_run_model(spec, model, NULL, &res) != 0)
        return -1;
    int errors = lint_write_text_file(&res, lint_path) == 0 ? (int)res.counts[LINT_ERROR] : -1;
    ddigen_progress("lint: %u errors, %u warnings, %u notes (%s)", res.counts[LINT_ERROR], res.counts[LINT_WARNING],
                    res.counts[LINT_NOTE], shown);
    lint_result_free(&res);
    return errors;
}

/* layout (+ docs) -> spec with stable IDs (kept from --previous) -> lint
 * when there are docs. */
struct spec_paths {
    const char *dir, *layout, *spec, *lint; /* written: in the staging folder */
    const char *shown_spec, *shown_lint;    /* named in messages: in OUT */
};

/* The spec (with docs: merged and linted) from the layout document, which
 * it empties, and the docs tree, which it frees. The spec is checked
 * against the schema on *writer's thread, beside lint and what follows;
 * the caller serializes it before emit and writes it with
 * spec_write_behind_end. NULL after reporting. */
static xmlDocPtr build_spec(const struct spec_paths *p, xmlDocPtr layout, xmlDocPtr docs_doc,
                            const struct spec_build_options *opt, int werror, const char *outputs,
                            const char *const *params, struct spec_write_behind **writer, struct ddi_model **model)
{
    double t = seconds_now();
    xmlDocPtr spec = spec_build(layout, docs_doc, opt);
    stage_done("spec", &t);
    /* The skeleton's --ddi-list/--driver-kind/--ddi-version are checked
     * against the new spec before it replaces the old one. */
    int rc = spec && skeleton_check_params(spec, p->shown_spec, params) == 0 ? 0 : 1;
    /* What emit renders with, kept in the spec for `emit --check` (stamp.h);
     * before its thread starts serializing it. */
    if (rc == 0)
        emit_stamp_add(spec, outputs, params);
    if (rc == 0 && !(*writer = spec_write_behind_doc(spec, p->spec)))
        rc = 1;
    stage_done("spec write (started)", &t);
    /* One model of the finished spec for lint and emit's validation plan. */
    if (rc == 0 && !(*model = ddi_model_load(spec))) {
        ddigen_error(p->shown_spec, 0, "out of memory");
        rc = 1;
    }
    if (rc == 0 && docs_doc) {
        int errors = lint_to_file(spec, *model, p->lint, p->shown_lint);
        if (errors < 0 || (werror && errors > 0))
            rc = 1;
        if (werror && errors > 0) {
            /* The spec lands in the staging folder as a serial run wrote
             * it, before the error that refuses the set. */
            spec_write_behind_end(*writer);
            *writer = NULL;
            ddigen_error(p->shown_lint, 0, "%d error-level lint findings (--werror)", errors);
        }
        stage_done("lint", &t);
    }
    xmlFreeDoc(docs_doc);
    if (rc != 0) {
        spec_write_behind_end(*writer); /* the thread reads spec until then */
        *writer = NULL;
        xmlFreeDoc(spec);
        return NULL;
    }
    return spec;
}

/* The layout as a spec document (<ddi-spec><layout>); made twice from the
 * same model: once for layout.xml, on the thread that checks it, once for
 * the spec, which takes its nodes. */
static xmlDocPtr layout_doc_make(const void *layout)
{
    xmlDocPtr doc = xmlNewDoc(BAD_CAST "1.0");
    xmlNodePtr root = xmlNewNode(NULL, BAD_CAST "ddi-spec");
    xmlDocSetRootElement(doc, root);
    xmlSetProp(root, BAD_CAST "version", BAD_CAST "1");
    ddi_layout_to_xml(layout, root);
    return doc;
}

/* The semantic checks emit relies on (spec_load runs them on every spec it
 * reads), here on the spec in memory, which was never parsed and so has no
 * line numbers: on a failure the written spec is loaded to report it at
 * its line. 0 or -1. */
static int check_semantics(xmlDocPtr spec, const char *path, struct spec_write_behind **writer)
{
    struct ddigen_diag_held quiet = {0};
    ddigen_diag_hold(&quiet);
    unsigned errors = ddigen_diag_global.errors;
    int rc = spec_check_semantics(spec, path);
    ddigen_diag_hold(NULL);
    if (quiet.stream)
        fclose(quiet.stream); /* sets quiet.text to its final buffer */
    free(quiet.text);
    if (rc == 0)
        return 0;
    ddigen_diag_global.errors = errors; /* reported again, with its line */
    int written = spec_write_behind_end(*writer);
    *writer = NULL;
    xmlDocPtr reread = written == 0 ? spec_load(path) : NULL;
    xmlFreeDoc(reread);
    return -1;
}

/* emit adds its view to the spec once the check of the written spec no
 * longer reads it. */
static void spec_released(void *writer)
{
    spec_write_behind_released(writer);
}

/* The inputs named on the command line; headers, pages and templates are
 * recorded by the stages that open them. */
static void record_inputs(const struct spec_build_options *opt, const struct header_input *in)
{
    ddigen_deps_enable();
    ddigen_deps_add(opt->overrides);
    ddigen_deps_add(opt->reviewed);
    ddigen_deps_add(opt->previous);
    for (size_t i = 0; i < in->known_error_lists.len; i++)
        ddigen_deps_add(in->known_error_lists.items[i]);
}

/* A path made absolute against the working folder, its links kept: the
 * depfile's target (the spec, the command's first output for a build system)
 * is spelled the way the user spelled it, so it matches theirs. */
static char *absolute_path(const char *spec_path)
{
    char cwd[4096];
    char *abs = NULL;
    if (spec_path[0] == '/' || !getcwd(cwd, sizeof cwd))
        return strdup(spec_path);
    return asprintf(&abs, "%s/%s", cwd, spec_path) < 0 ? NULL : abs;
}

/* A target Make or Ninja could not read back fails before any work. */
static int check_depfile_target(const char *spec_path)
{
    char *target = absolute_path(spec_path);
    int rc = target && ddigen_deps_check(target, 1) == 0 ? 0 : 1;
    free(target);
    return rc;
}

static int write_depfile(const char *path, const char *depfile, const char *spec_path)
{
    char *target = absolute_path(spec_path);
    int rc = target ? ddigen_deps_write(path, target) : -1;
    free(target);
    if (rc == 0)
        ddigen_progress("wrote %s", depfile);
    return rc == 0 ? 0 : 1;
}

/* prefix/rest when path is below folder dir, else NULL. */
static const char *below(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    while (n > 1 && dir[n - 1] == '/')
        n--;
    return dir[0] && !strncmp(path, dir, n) && path[n] == '/' ? path + n : NULL;
}

/* Where the depfile is written: inside OUT (ddigen_generate() puts it at
 * OUT/ddigen.d) it goes into the staging folder and switches in with the
 * set; anywhere else it is written just before the switch. */
static const char *depfile_path(const struct output_set *set, const char *out, const char *depfile, struct arena *a)
{
    char *abs_out = absolute_path(out), *abs_dep = absolute_path(depfile);
    const char *rest = NULL;
    if (abs_out && abs_dep && !(rest = below(abs_dep, abs_out)))
        rest = below(abs_dep, set->target);
    const char *path = rest ? arena_printf(a, "%s%s", set->staging, rest) : depfile;
    free(abs_out);
    free(abs_dep);
    return path;
}

/* generate's own options; 256..299 are the header stage's, 400.. the skeleton's. */
enum {
    GEN_OPT_DOCS = 300,
    GEN_OPT_OVERRIDES,
    GEN_OPT_REVIEWED,
    GEN_OPT_PREVIOUS,
    GEN_OPT_WERROR,
    GEN_OPT_PARAM,
    GEN_OPT_OUTPUTS,
    GEN_OPT_DEPFILE
};

int ddigen_cmd_generate(int argc, char **argv)
{
    static const struct option options[] = {
        HEADER_LONG_OPTIONS,
        {"templates", required_argument, NULL, 't'},
        {"output", required_argument, NULL, 'o'},
        {"jobs", required_argument, NULL, 'j'},
        {"verbose", no_argument, NULL, 'v'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {"docs", required_argument, NULL, GEN_OPT_DOCS},
        {"overrides", required_argument, NULL, GEN_OPT_OVERRIDES},
        {"reviewed", required_argument, NULL, GEN_OPT_REVIEWED},
        {"previous", required_argument, NULL, GEN_OPT_PREVIOUS},
        {"werror", no_argument, NULL, GEN_OPT_WERROR},
        {"param", required_argument, NULL, GEN_OPT_PARAM},
        {"outputs", required_argument, NULL, GEN_OPT_OUTPUTS},
        {"depfile", required_argument, NULL, GEN_OPT_DEPFILE},
        SKELETON_LONG_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    struct header_input in = {.arch_mask = 7};
    struct arena a = {0};
    const char *out = NULL, *templates = DDIGEN_DEFAULT_TEMPLATES, *overrides = NULL, *previous = NULL,
               *reviewed = NULL;
    const char *outputs = NULL, *depfile = NULL;
    struct vec docs = {0}, params = {0};
    int rc = 0, c, werror = 0;
    optind = 1;
    while (rc == 0 && (c = cli_getopt(argc, argv, "I:D:o:j:vqh", options)) != -1) {
        if (c == 'o')
            out = optarg;
        else if (c == 't')
            templates = optarg;
        else if (c == GEN_OPT_DOCS)
            vec_push(&docs, optarg);
        else if (c == GEN_OPT_OVERRIDES)
            overrides = optarg;
        else if (c == GEN_OPT_REVIEWED)
            reviewed = optarg;
        else if (c == GEN_OPT_PREVIOUS)
            previous = optarg;
        else if (c == GEN_OPT_WERROR)
            werror = 1;
        else if (c == GEN_OPT_OUTPUTS)
            outputs = optarg;
        else if (c == GEN_OPT_DEPFILE)
            depfile = optarg;
        else if (c == GEN_OPT_PARAM) {
            rc = emit_check_param(optarg) == 0 ? 0 : 2;
            vec_push(&params, optarg);
        } else if (c == SKELETON_OPT_DDI_LIST || c == SKELETON_OPT_ALL || c == SKELETON_OPT_DRIVER_KIND ||
                   c == SKELETON_OPT_CALLBACK_NAME || c == SKELETON_OPT_THUNKS || c == SKELETON_OPT_RECORDS)
            rc = skeleton_option(c, optarg, &params, &a);
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
        if (rc == 2)
            fputs(usage, stderr);
        goto done;
    }
    /* A wrong family, or two options setting one template parameter, are
     * usage errors found before anything is parsed or written. */
    vec_push(&params, NULL);
    if ((outputs && emit_check_outputs(templates, outputs) != 0) ||
        emit_check_param_conflicts((const char *const *)params.items) != 0) {
        rc = 2;
        goto done;
    }
    /* A name the DDI list gets wrong is refused now, from the kit's text,
     * rather than after the parse; the new spec checks every option again. */
    if (in.wdk_root && skeleton_check_before_parse(in.wdk_root, NULL, NULL, (const char *const *)params.items) != 0) {
        rc = 1;
        goto done;
    }
    struct spec_build_options spec_opt = {.overrides = overrides, .previous = previous, .reviewed = reviewed};
    const char *shown_spec = arena_printf(&a, "%s/spec/ddi.xml", out);
    if (depfile && check_depfile_target(shown_spec) != 0) {
        rc = 1;
        goto done;
    }
    if (depfile) {
        record_inputs(&spec_opt, &in);
        /* The DDI list, also when a config named it (no build rule does). */
        ddigen_deps_add(skeleton_param((const char *const *)params.items, "list-file"));
    }
    /* Everything is written into a staging folder beside OUT and switched
     * in at the end: a failed or killed run leaves OUT as it was. */
    struct output_set set;
    if (output_set_begin(&set, out) != 0) {
        rc = 1;
        goto done;
    }
    const char *root = set.staging;
    struct spec_paths paths = {
        .dir = arena_printf(&a, "%s/spec", root),
        .layout = arena_printf(&a, "%s/spec/layout.xml", root),
        .spec = arena_printf(&a, "%s/spec/ddi.xml", root),
        .lint = arena_printf(&a, "%s/lint.txt", root),
        .shown_spec = shown_spec,
        .shown_lint = arena_printf(&a, "%s/lint.txt", out),
    };
    ddigen_output_keep_unchanged(paths.spec); /* the staging folder holds links to the set's files */
    char *include_dir = arena_printf(&a, "%s/include", root);
    struct ddi_layout layout = {0};
    struct docs_task docs_task = {.paths = &docs, .docs_path = arena_printf(&a, "%s/docs.xml", paths.dir)};
    double t = seconds_now();
    int dirs_made = ddigen_make_dirs(paths.dir) == 0;
    if (dirs_made && docs.len)
        docs_task_start(&docs_task);
    rc = dirs_made && header_ingest(&in, &layout) == 0 ? 0 : 1;
    stage_done("layout", &t);
    xmlDocPtr docs_doc = dirs_made && docs.len ? docs_task_finish(&docs_task, rc == 0) : NULL;
    if (docs.len && !docs_doc)
        rc = 1;
    stage_done("docs (wait)", &t);
    /* layout.xml is made and serialized on a thread from the same model
     * while this one builds the spec from a copy of its own. It is not
     * checked against the schema here: the spec's check covers the same
     * nodes, made by the same function, which the spec only adds to (IDs,
     * merge attributes); a second RELAX NG pass cost 0.09 s CPU on the
     * 14393 kit, one core's share of what follows the layout. */
    struct spec_write_behind *layout_writer =
        rc == 0 ? spec_write_behind_make(layout_doc_make, &layout, paths.layout, 0) : NULL;
    xmlDocPtr layout_doc = layout_writer ? layout_doc_make(&layout) : NULL;
    stage_done("layout write (started)", &t);
    struct early_render early = {.layout = &layout,
                                 .opt = {.spec_path = paths.spec,
                                         .templates_dir = templates,
                                         .out_dir = include_dir,
                                         .params = (const char *const *)params.items,
                                         .outputs = outputs,
                                         .jobs = 1}};
    int early_started = layout_doc && early_render_start(&early);
    struct spec_write_behind *spec_writer = NULL;
    struct ddi_model *model = NULL;
    xmlDocPtr spec = layout_doc ? build_spec(&paths, layout_doc, docs_doc, &spec_opt, werror, outputs,
                                             (const char *const *)params.items, &spec_writer, &model)
                                : NULL;
    if (!layout_doc)
        xmlFreeDoc(docs_doc);
    xmlFreeDoc(layout_doc);
    rc = spec && check_semantics(spec, paths.spec, &spec_writer) == 0 ? 0 : 1;
    if (rc == 0) {
        struct emit_options eo = {.spec_path = paths.spec,
                                  .templates_dir = templates,
                                  .out_dir = include_dir,
                                  .params = (const char *const *)params.items,
                                  .outputs = outputs,
                                  .jobs = in.jobs,
                                  .model = model,
                                  .skip_family = early_started ? EARLY_FAMILY : NULL};
        spec_write_behind_serialize(spec_writer); /* beside its check, before emit changes it */
        eo.spec_unshared = spec_released, eo.spec_unshared_arg = spec_writer;
        rc = emit_render(&eo, spec);
        stage_done("emit", &t);
    }
    if (early_render_finish(&early) != 0)
        rc = 1;
    /* The checks of layout.xml and the spec end here: a document that does
     * not match the schema refuses the whole set, as it did when written
     * before the stages that follow. */
    if (layout_writer && spec_write_behind_end(layout_writer) != 0)
        rc = 1;
    if (spec_writer && spec_write_behind_end(spec_writer) != 0)
        rc = 1;
    stage_done("checks of the written documents (wait)", &t);
    ddi_layout_free(&layout);
    ddi_model_free(model);
    xmlFreeDoc(spec);
    /* The depfile names the spec where it will be, and is written before
     * the switch: a depfile newer than its outputs only costs a rebuild. */
    if (rc == 0 && depfile)
        rc = write_depfile(depfile_path(&set, out, depfile, &a), depfile, paths.shown_spec);
    if (rc == 0)
        rc = output_set_commit(&set) == 0 ? 0 : 1;
    else
        output_set_abort(&set);
    if (rc == 0)
        ddigen_progress("wrote %s/spec and the generated files in %s/include", out, out);
done:
    ddigen_deps_reset();
    vec_free(&docs);
    vec_free(&params);
    header_input_free(&in);
    arena_free(&a);
    return rc;
}
