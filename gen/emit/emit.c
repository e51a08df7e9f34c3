/* Renders templates over the spec. Generators never parse the spec
 * themselves: they read the validated document through XSLT. */
#include "emit.h"
#include "families.h"
#include "scope.h"
#include "skeleton_opts.h"
#include "stamp.h"
#include "view.h"

#include "../model/model.h"
#include "../rules/rules.h"
#include "../spec/schema.h"
#include "../util/arena.h"
#include "../util/cli.h"
#include "../util/deps.h"
#include "../util/diag.h"
#include "../util/output.h"
#include "../util/outset.h"

#include <dirent.h>
#include <getopt.h>
#include <pthread.h>
#include <libexslt/exslt.h>
#include <libxslt/transform.h>
#include <libxslt/variables.h>
#include <libxslt/xsltInternals.h>
#include <libxslt/xsltutils.h>
#include <libxml/xpath.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TEMPLATE_SUFFIX ".xsl"

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Template file names in a stable order. */
static int list_templates(const char *dir, struct vec *names)
{
    DIR *d = opendir(dir);
    if (!d) {
        ddigen_error(dir, 0, "cannot open the templates folder");
        return -1;
    }
    for (struct dirent *e; (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        size_t s = strlen(TEMPLATE_SUFFIX);
        if (n > s && strcmp(e->d_name + n - s, TEMPLATE_SUFFIX) == 0 && e->d_name[0] != '.')
            vec_push(names, strdup(e->d_name));
    }
    closedir(d);
    if (names->len)
        qsort(names->items, names->len, sizeof(void *), by_name);
    else
        ddigen_error(dir, 0, "no *%s templates in the templates folder", TEMPLATE_SUFFIX);
    return names->len ? 0 : -1;
}

/* The template a thread compiles or renders: libxslt's generic error
 * handler is one for the process, so it finds the name here. */
static _Thread_local const char *current_template;

static void xslt_error(void *ctx, const char *fmt, ...)
{
    const char *name = ctx ? ctx : current_template;
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    size_t n = strlen(msg);
    while (n && msg[n - 1] == '\n')
        msg[--n] = '\0';
    if (n)
        ddigen_error(name, 0, "%s", msg);
}


/* The options that set a template parameter, for messages. */
static const char *option_of(const char *name, size_t len)
{
    static const struct { const char *param, *option; } options[] = {
        {"ddi-list", "--ddi-list or --all"}, {"driver-kind", "--driver-kind"}, {"ddi-version", "--ddi-version"},
        {"callback-name", "--callback-name"}, {"thunks", "--thunks"}, {"records", "--records"},
        {"list-records", "--ddi-list"}, {"list-file", "--ddi-list"},
    };
    for (size_t i = 0; i < sizeof options / sizeof options[0]; i++)
        if (strlen(options[i].param) == len && !strncmp(options[i].param, name, len))
            return options[i].option;
    return "--param";
}

int emit_check_param(const char *param)
{
    const char *eq = strchr(param, '=');
    size_t name_len = eq ? (size_t)(eq - param) : 0;
    if (!eq || !name_len || strspn(param, "abcdefghijklmnopqrstuvwxyz0123456789-") != name_len) {
        ddigen_error(NULL, 0, "--param '%s': expected NAME=VALUE (a lower-case name)", ddigen_quote(param));
        return -1;
    }
    /* The parameters of ddigen's own templates take known values; a user's
     * templates may take parameters of their own. */
    if (name_len == 5 && !strncmp(param, "scope", 5) && strcmp(eq + 1, "ddi") && strcmp(eq + 1, "all")) {
        ddigen_error(NULL, 0, "--param scope='%s': expected ddi or all", ddigen_quote(eq + 1));
        return -1;
    }
    return 0;
}

int emit_check_param_conflicts(const char *const *params)
{
    for (size_t i = 0; params && params[i]; i++) {
        size_t len = strcspn(params[i], "=");
        for (size_t j = 0; j < i; j++) {
            if (strcspn(params[j], "=") != len || strncmp(params[i], params[j], len))
                continue;
            ddigen_error(NULL, 0, "%s given twice (template parameter '%.*s'): '%s' and '%s'", option_of(params[i], len),
                         (int)len, params[i], ddigen_quote(params[j] + len + 1), ddigen_quote(params[i] + len + 1));
            return -1;
        }
    }
    return emit_scope_check_options(params);
}

/* The stylesheet parameters: spec-name, then the user's NAME=VALUE. They are
 * passed as strings (xsltQuoteUserParams), never parsed as XPath, so no
 * value can become an expression. Strings live in a. */
static const char **stylesheet_params(const struct emit_options *opt, struct arena *a)
{
    size_t n = 0;
    while (opt->params && opt->params[n])
        n++;
    const char **params = arena_alloc(a, (2 * n + 3) * sizeof *params);
    const char *base = strrchr(opt->spec_path, '/');
    params[0] = "spec-name";
    params[1] = base ? base + 1 : opt->spec_path;
    for (size_t i = 0; i < n; i++) {
        const char *eq = strchr(opt->params[i], '=');
        params[2 + 2 * i] = arena_strndup(a, opt->params[i], (size_t)(eq - opt->params[i]));
        params[3 + 2 * i] = eq + 1;
    }
    params[2 + 2 * n] = NULL;
    return params;
}

/* The stylesheet and every file it includes or imports, for --depfile. */
static void record_stylesheet_deps(xsltStylesheetPtr sheet)
{
    for (; sheet; sheet = sheet->next) {
        if (sheet->doc)
            ddigen_deps_add((const char *)sheet->doc->URL);
        for (xsltDocumentPtr inc = sheet->includes; inc; inc = inc->next)
            if (inc->doc)
                ddigen_deps_add((const char *)inc->doc->URL);
        record_stylesheet_deps(sheet->imports); /* as deep as libxslt let the imports nest */
    }
}

/* One template: compiled on the calling thread, transformed on a worker,
 * its output written (or compared) and its messages printed in template
 * order once every transform is done. */
struct render_job {
    const char *name;
    char *xsl_path, *out_path;
    xsltStylesheetPtr sheet;
    xsltTransformContextPtr tctx; /* made before the workers start (new_context) */
    xmlChar *bytes; /* the rendered text, when rendered */
    int len;
    int rendered;
    double cpu; /* seconds this template's transform took on its thread (-v) */
    struct ddigen_diag_held msgs;
};

/* What every transform shares: read only while the workers run, except
 * the job counter and the plan cache, which have their locks. */
struct render_run {
    xmlDocPtr spec;
    const char **params;
    struct emit_shared *shared;
    struct render_job *jobs;
    size_t njobs, next;
    pthread_mutex_t lock;
    const char *stamp; /* the options' comment line put first in every file (stamp.h), or NULL */
};

static int render_paths(struct render_job *job, const struct emit_options *opt)
{
    size_t base_len = strlen(job->name) - strlen(TEMPLATE_SUFFIX);
    return asprintf(&job->xsl_path, "%s/%s", opt->templates_dir, job->name) < 0 ||
                   asprintf(&job->out_path, "%s/%.*s", opt->out_dir, (int)base_len, job->name) < 0
               ? -1
               : 0;
}

static void compile_one(struct render_job *job)
{
    ddigen_diag_hold(&job->msgs);
    current_template = job->xsl_path;
    job->sheet = xsltParseStylesheetFile(BAD_CAST job->xsl_path);
    current_template = NULL;
    if (job->sheet)
        record_stylesheet_deps(job->sheet);
    else
        ddigen_error(job->xsl_path, 0, "not a valid XSLT stylesheet");
    ddigen_diag_hold(NULL);
}

/* libxml2's own messages (an XPath error) go to the job's messages: its
 * handler is per thread, so it is set on the worker. */
static void libxml_error(void *ctx, const char *fmt, ...)
{
    (void)ctx;
    va_list ap;
    va_start(ap, fmt);
    ddigen_diag_held_raw(fmt, ap);
    va_end(ap);
}

static double thread_cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A transform's context, made on the calling thread before the workers
 * start. libxslt's xsltNewTransformContext numbers the source document's
 * elements for XPath order every time, unless its debugger is on: on the
 * shared spec that was a write to a tree other workers were reading, and
 * a walk of the whole spec per template (7% of the render CPU on the 14393
 * kit with its pages). transform_all numbers the spec once instead; the
 * debugger status is set only around this call, and the context keeps the
 * status the transform would have had (none: no debugger hooks run). */
static void new_context(struct render_run *run, struct render_job *job)
{
    ddigen_diag_hold(&job->msgs);
    current_template = job->xsl_path;
    int status = xsltGetDebuggerStatus();
    xsltSetDebuggerStatus(XSLT_DEBUG_RUN);
    job->tctx = xsltNewTransformContext(job->sheet, run->spec);
    xsltSetDebuggerStatus(status);
    if (job->tctx) {
        job->tctx->debugStatus = status;
        job->tctx->_private = run->shared; /* d:validation-plan's cache */
        xsltSetTransformErrorFunc(job->tctx, job->xsl_path, xslt_error);
    }
    current_template = NULL;
    ddigen_diag_hold(NULL);
}

static void transform_one(struct render_run *run, struct render_job *job)
{
    double start = thread_cpu_seconds();
    ddigen_diag_hold(&job->msgs);
    current_template = job->xsl_path;
    xmlSetGenericErrorFunc(NULL, libxml_error);
    xsltTransformContextPtr tctx = job->tctx;
    xmlDocPtr result = NULL;
    if (tctx && xsltQuoteUserParams(tctx, run->params) == 0)
        result = xsltApplyStylesheetUser(job->sheet, run->spec, NULL, NULL, getenv("DDIGEN_XSLT_PROFILE") ? stderr : NULL, tctx);
    xsltFreeTransformContext(tctx);
    job->tctx = NULL;
    job->rendered = result && xsltSaveResultToString(&job->bytes, &job->len, result, job->sheet) == 0;
    if (!job->rendered)
        ddigen_error(job->xsl_path, 0, "the template failed to render");
    xmlFreeDoc(result);
    xmlSetGenericErrorFunc(NULL, NULL);
    current_template = NULL;
    ddigen_diag_hold(NULL);
    job->cpu += thread_cpu_seconds() - start;
}

static void *render_worker(void *arg)
{
    struct render_run *run = arg;
    for (;;) {
        pthread_mutex_lock(&run->lock);
        size_t i = run->next++;
        pthread_mutex_unlock(&run->lock);
        if (i >= run->njobs)
            return NULL;
        if (run->jobs[i].sheet)
            transform_one(run, &run->jobs[i]);
    }
}

/* Longest first: the template file's size stands for its cost, so the
 * marshaller (the largest) does not start last and finish alone. */
static int by_cost(const void *a, const void *b)
{
    const struct render_job *x = *(struct render_job *const *)a, *y = *(struct render_job *const *)b;
    struct stat sx, sy;
    off_t cx = stat(x->xsl_path, &sx) == 0 ? sx.st_size : 0, cy = stat(y->xsl_path, &sy) == 0 ? sy.st_size : 0;
    return cx < cy ? 1 : cx > cy ? -1 : strcmp(x->name, y->name);
}

static int worker_count(const struct emit_options *opt, size_t njobs)
{
    long n = opt->jobs > 0 ? opt->jobs : sysconf(_SC_NPROCESSORS_ONLN);
    if (n < 1)
        n = 1;
    return (int)(n > (long)njobs ? (long)njobs : n > 64 ? 64 : n);
}

/* The transforms on a pool of threads, the largest first. The spec's
 * document order is set here, once, on this thread, and the contexts made
 * (new_context): no transform writes to the shared document. */
static void transform_all(struct render_run *run, const struct emit_options *opt)
{
    struct render_job **order = calloc(run->njobs, sizeof *order);
    struct render_job *sorted = calloc(run->njobs, sizeof *sorted);
    struct render_job *jobs = run->jobs;
    xmlXPathOrderDocElems(run->spec);
    for (size_t i = 0; i < run->njobs; i++)
        if (jobs[i].sheet) {
            double start = thread_cpu_seconds();
            new_context(run, &jobs[i]);
            jobs[i].cpu = thread_cpu_seconds() - start;
        }
    if (order && sorted) {
        for (size_t i = 0; i < run->njobs; i++)
            order[i] = &jobs[i];
        qsort(order, run->njobs, sizeof *order, by_cost);
        for (size_t i = 0; i < run->njobs; i++)
            sorted[i] = *order[i];
        run->jobs = sorted;
    }
    pthread_t threads[64];
    int started = 0, want = worker_count(opt, run->njobs);
    for (int i = 1; i < want; i++) /* this thread is a worker too */
        if (pthread_create(&threads[started], NULL, render_worker, run) == 0)
            started++;
    render_worker(run);
    for (int i = 0; i < started; i++)
        pthread_join(threads[i], NULL);
    if (order && sorted) {
        for (size_t i = 0; i < run->njobs; i++)
            *order[i] = sorted[i];
        run->jobs = jobs;
    }
    free(order);
    free(sorted);
}

/* Writes (or compares) a job's output, the stamp line first: 0, 3 stale
 * (a file that differs or is missing, each said as such), -1 failed. */
static int finish_one(const struct emit_options *opt, struct render_job *job, const char *stamp)
{
    if (!job->rendered)
        return -1;
    size_t head = stamp ? strlen(stamp) : 0, len = head + (size_t)job->len;
    char *text = malloc(len + 1);
    if (!text) {
        ddigen_error(job->out_path, 0, "out of memory");
        return -1;
    }
    memcpy(text, stamp ? stamp : "", head);
    memcpy(text + head, job->bytes ? (const char *)job->bytes : "", (size_t)job->len);
    int rc;
    if (!opt->check) {
        rc = ddigen_write_file_if_changed(job->out_path, text, len);
    } else if (access(job->out_path, F_OK) != 0) {
        ddigen_error(job->out_path, 0, "stale: missing; regenerating from %s would create it", opt->spec_path);
        rc = 3;
    } else {
        rc = ddigen_file_has(job->out_path, text, len) ? 0 : 3;
        if (rc)
            ddigen_error(job->out_path, 0, "stale: differs; regenerating from %s gives different content",
                         opt->spec_path);
    }
    free(text);
    return rc;
}

/* libxslt's tables of extension functions are process-wide: filled once,
 * before any stylesheet compiles (generate compiles on two threads). */
static pthread_once_t extensions_once = PTHREAD_ONCE_INIT;

static void register_extensions(void)
{
    exsltRegisterAll();
    emit_register_extensions();
}

/* The jobs of names, their stylesheets compiled (they read only the
 * templates, so this runs while the spec may still be read elsewhere).
 * 0, or 1 when a job could not be made (a stylesheet that does not
 * compile is reported with its job). */
static int compile_all(struct render_run *run, const struct emit_options *opt, struct vec *names, struct arena *a)
{
    run->params = stylesheet_params(opt, a);
    run->njobs = names->len;
    pthread_mutex_init(&run->lock, NULL);
    run->jobs = calloc(names->len ? names->len : 1, sizeof *run->jobs);
    int rc = run->jobs ? 0 : 1;
    if (!run->jobs) {
        ddigen_error(opt->spec_path, 0, "out of memory");
        pthread_mutex_destroy(&run->lock);
    }
    for (size_t i = 0; rc == 0 && i < run->njobs; i++) {
        run->jobs[i].name = names->items[i];
        if (render_paths(&run->jobs[i], opt) != 0)
            rc = 1;
    }
    if (rc == 0) {
        pthread_once(&extensions_once, register_extensions);
        xsltSetGenericErrorFunc(NULL, xslt_error);
        for (size_t i = 0; i < run->njobs; i++)
            compile_one(&run->jobs[i]);
        xsltSetGenericErrorFunc(NULL, NULL);
    }
    return rc;
}

/* Renders the compiled jobs (ready: compile_all succeeded and the view is
 * on the spec), writes their outputs and frees them. */
static int render_all(const struct emit_options *opt, struct render_run *run, int ready)
{
    int rc = ready ? 0 : 1;
    if (ready) {
        xsltSetGenericErrorFunc(NULL, xslt_error);
        transform_all(run, opt);
        xsltSetGenericErrorFunc(NULL, NULL);
    }
    for (size_t i = 0; run->jobs && i < run->njobs; i++) {
        struct render_job *job = &run->jobs[i];
        ddigen_diag_print_held(&job->msgs);
        if (ddigen_diag_global.verbose && job->sheet)
            ddigen_progress("time: render %s %.3f s CPU", job->name, job->cpu);
        int one = ready ? finish_one(opt, job, run->stamp) : -1;
        if (one == 3 && rc == 0)
            rc = 3;
        else if (one != 0 && one != 3)
            rc = 1;
        xmlFree(job->bytes);
        if (job->sheet)
            xsltFreeStylesheet(job->sheet);
        free(job->xsl_path);
        free(job->out_path);
    }
    free(run->jobs);
    run->jobs = NULL;
    pthread_mutex_destroy(&run->lock);
    return rc;
}

/* What opt selects: the --outputs families' templates, or every one, but
 * those of the family it skips. */
static int select_templates(const struct emit_options *opt, struct vec *names)
{
    int rc = opt->outputs ? emit_select_templates(opt->templates_dir, opt->outputs, names)
                          : list_templates(opt->templates_dir, names);
    size_t kept = 0;
    for (size_t i = 0; rc == 0 && i < names->len; i++) {
        if (opt->skip_family && emit_template_in_family(names->items[i], opt->skip_family))
            free(names->items[i]);
        else
            names->items[kept++] = names->items[i];
    }
    if (rc == 0)
        names->len = kept;
    if (rc != 0) {
        for (size_t i = 0; i < names->len; i++)
            free(names->items[i]);
        vec_free(names);
    }
    return rc;
}

int emit_selects_family(const struct emit_options *opt, const char *family)
{
    struct vec names = {0};
    if (select_templates(opt, &names) != 0)
        return 0;
    int selected = emit_family_selected(&names, family);
    for (size_t i = 0; i < names.len; i++)
        free(names.items[i]);
    vec_free(&names);
    return selected;
}

int emit_check_outputs(const char *templates_dir, const char *outputs)
{
    struct emit_options opt = {.templates_dir = templates_dir, .outputs = outputs};
    struct vec names = {0};
    if (select_templates(&opt, &names) != 0)
        return -1;
    for (size_t i = 0; i < names.len; i++)
        free(names.items[i]);
    vec_free(&names);
    return 0;
}

/* --list-outputs: the file names a run would write, one a line, so a
 * build system knows its custom command's outputs before the first run. */
static int list_outputs(const struct emit_options *opt)
{
    struct vec names = {0};
    if (select_templates(opt, &names) != 0)
        return 1;
    struct arena a = {0};
    for (size_t i = 0; i < names.len; i++) {
        printf("%s\n", emit_output_name(&a, names.items[i]));
        free(names.items[i]);
    }
    arena_free(&a);
    vec_free(&names);
    return 0;
}

int emit_render(const struct emit_options *opt, xmlDocPtr spec)
{
    if (emit_check_param_conflicts(opt->params) != 0)
        return 1;
    struct vec names = {0};
    if (select_templates(opt, &names) != 0)
        return 1;
    ddigen_deps_add(opt->templates_dir); /* a template added to the folder */
    int rc = 0;
    if (!opt->layout_only && skeleton_check_params(spec, opt->spec_path, opt->params) != 0)
        rc = 1;
    /* The records a --ddi-list or --records narrows every family to:
     * from the model (emit's own when the caller has none). */
    const struct ddi_model *model = opt->model;
    struct ddi_model *own_model = NULL;
    struct emit_scope scope = {0};
    if (rc == 0 && !opt->layout_only && !model && emit_scope_wanted(opt->params) &&
        !(model = own_model = ddi_model_load(spec))) {
        ddigen_error(opt->spec_path, 0, "out of memory");
        rc = 1;
    }
    if (rc == 0 && model && emit_scope_compute(&scope, model, opt->params, opt->spec_path) != 0)
        rc = 1;
    if (rc == 0 && !opt->check && ddigen_make_dirs(opt->out_dir) != 0)
        rc = 1;
    struct emit_shared shared;
    emit_shared_init(&shared, spec, model);
    if (rc == 0 && (opt->stats || opt->checks)) {
        const struct rules_plan *plan = emit_shared_plan(&shared);
        if (plan && opt->stats)
            rules_print_stats(plan, stdout);
        if (plan && opt->stats)
            emit_scope_print_stats(&scope, stdout);
        if (plan && opt->checks)
            rules_print_checks(plan, stdout);
    }
    /* What reads only the templates or the model runs before the spec
     * changes, while another thread may still be reading it. */
    struct arena a = {0};
    struct render_run run = {.spec = spec, .shared = &shared, .stamp = emit_stamp_comment(opt->params, &a)};
    double compile_start = thread_cpu_seconds();
    int compiled = rc == 0 && compile_all(&run, opt, &names, &a) == 0;
    if (ddigen_diag_global.verbose)
        ddigen_progress("time: compile %.3f s CPU", thread_cpu_seconds() - compile_start);
    /* The validation plan reads only the model: lowered here, it takes
     * time the main thread would spend waiting for the spec's check. */
    if (compiled && opt->model && opt->spec_unshared && emit_family_selected(&names, "validate"))
        (void)emit_shared_plan(&shared);
    if (opt->spec_unshared) {
        struct timespec before, after;
        clock_gettime(CLOCK_MONOTONIC, &before);
        opt->spec_unshared(opt->spec_unshared_arg);
        clock_gettime(CLOCK_MONOTONIC, &after);
        if (ddigen_diag_global.verbose)
            ddigen_progress("time: wait for the spec's readers %.3f s",
                            (double)(after.tv_sec - before.tv_sec) + (double)(after.tv_nsec - before.tv_nsec) / 1e9);
    }
    double view_start = thread_cpu_seconds();
    if (compiled && emit_view_add(spec, opt->spec_path) != 0)
        rc = 1;
    if (compiled && rc == 0)
        skeleton_view_add(spec, opt->params);
    if (compiled && rc == 0)
        emit_scope_mark(&scope, spec);
    if (compiled && rc == 0 && emit_scope_check_marshal(&scope, spec, opt->spec_path) != 0)
        rc = 1;
    if (ddigen_diag_global.verbose)
        ddigen_progress("time: view %.3f s CPU", thread_cpu_seconds() - view_start);
    if (run.jobs) {
        int rendered = render_all(opt, &run, compiled && rc == 0);
        rc = rc ? rc : rendered;
    } else if (rc == 0) {
        rc = 1; /* out of memory, reported */
    }
    arena_free(&a);
    emit_view_remove(spec);
    emit_shared_free(&shared);
    emit_scope_free(&scope);
    ddi_model_free(own_model);
    for (size_t i = 0; i < names.len; i++)
        free(names.items[i]);
    vec_free(&names);
    return rc;
}

int emit_run(const struct emit_options *opt)
{
    if (emit_check_param_conflicts(opt->params) != 0)
        return 1;
    struct vec names = {0};
    if (select_templates(opt, &names) != 0)
        return 1;
    for (size_t i = 0; i < names.len; i++)
        free(names.items[i]);
    vec_free(&names);
    xmlDocPtr spec = spec_load(opt->spec_path);
    /* The options generate stamped into the spec, under the ones given. */
    struct emit_options stamped = *opt;
    struct vec merged = {0};
    struct arena a = {0};
    if (spec)
        emit_stamp_apply(spec, &stamped, &merged, &a);
    int rc = spec ? emit_render(&stamped, spec) : 1;
    vec_free(&merged);
    arena_free(&a);
    xmlFreeDoc(spec);
    return rc;
}

static const char usage[] =
    "usage: ddigen emit --spec FILE [--templates DIR] [--outputs FAMILY,...] [--param NAME=VALUE ...] -o DIR\n"
    "                   [--check] [--stats] [--checks] [-v] [-q]\n"
    "       ddigen emit --list-outputs [--templates DIR] [--outputs FAMILY,...] [--wdk DIR] [--spec FILE]\n"
    "                   [--ddi-list FILE ...]\n"
    "  --outputs LIST      render only these families: asserts validate marshal dispatch skeleton\n"
    "  --list-outputs      print the names of the files a run would write, after checking the skeleton's\n"
    "                      options: the --ddi-list's names against the kit (--wdk) or else the spec\n"
    "                      (--spec), the rest against the spec\n"
    "  --wdk DIR           with --list-outputs: the kit's Include/<version> folder; its headers are read\n"
    "                      as text (no parse) for the callbacks of every DDI version (other runs render\n"
    "                      from the spec and ignore it)\n"
    "  --stats             print, per rule kind, how many documented rules the validators check\n"
    "  --checks            print every check, one tab-separated line per direction: page, line, record,\n"
    "                      subject, kind, operands, direction, rule ID, provenance\n"
    "  --param scope=all   also assert the kernel records the DDI refers to (default: scope=ddi)\n"
    "  --ddi-version R     the DDI versions the skeleton supports: V1..V2, V1.. (V alone is V..), ..V2\n"
    "                      (default: the newest of the spec and up)\n" SKELETON_USAGE;

int ddigen_cmd_emit(int argc, char **argv)
{
    static const struct option options[] = {
        {"spec", required_argument, NULL, 's'},   {"templates", required_argument, NULL, 't'},
        {"output", required_argument, NULL, 'o'}, {"check", no_argument, NULL, 'c'},
        {"verbose", no_argument, NULL, 'v'},      {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},         {"param", required_argument, NULL, 'p'},
        {"stats", no_argument, NULL, 'S'},
        {"checks", no_argument, NULL, 'K'},
        {"outputs", required_argument, NULL, 'O'}, {"list-outputs", no_argument, NULL, 'L'},
        {"wdk", required_argument, NULL, 'W'},
        {"ddi-version", required_argument, NULL, SKELETON_OPT_DDI_VERSION}, SKELETON_LONG_OPTIONS,
        {NULL, 0, NULL, 0},
    };
    int list = 0;
    const char *wdk = NULL;
    struct emit_options opt = {.templates_dir = DDIGEN_DEFAULT_TEMPLATES};
    struct vec params = {0};
    struct arena a = {0};
    int c, rc = 0;
    optind = 1;
    while (rc == 0 && (c = cli_getopt(argc, argv, "o:vqh", options)) != -1) {
        switch (c) {
        case 'p':
            if (emit_check_param(optarg) != 0)
                rc = 2;
            vec_push(&params, optarg);
            break;
        case 's': opt.spec_path = optarg; break;
        case 't': opt.templates_dir = optarg; break;
        case 'o': opt.out_dir = optarg; break;
        case 'c': opt.check = 1; break;
        case 'S': opt.stats = 1; break;
        case 'K': opt.checks = 1; break;
        case 'O': opt.outputs = optarg; break;
        case 'L': list = 1; break;
        case 'W': wdk = optarg; break;
        case 'v': ddigen_diag_global.verbose = 1; break;
        case 'q': ddigen_diag_global.quiet = 1; break;
        case 'h': fputs(usage, stdout); vec_free(&params); arena_free(&a); return 0;
        case SKELETON_OPT_DDI_LIST:
        case SKELETON_OPT_DDI_VERSION:
        case SKELETON_OPT_ALL:
        case SKELETON_OPT_DRIVER_KIND:
        case SKELETON_OPT_CALLBACK_NAME:
        case SKELETON_OPT_THUNKS:
        case SKELETON_OPT_RECORDS: rc = skeleton_option(c, optarg, &params, &a); break;
        default: rc = 2; break;
        }
    }
    if (rc == 0 && list && optind == argc) {
        /* The skeleton's options are checked first, against the kit's text
         * and the previous spec: a build system's configure step learns of
         * a name the list gets wrong (at its line) before anything is
         * generated, without the parse. */
        vec_push(&params, NULL);
        xmlDocPtr spec = opt.spec_path ? spec_load(opt.spec_path) : NULL;
        if ((opt.spec_path && !spec) ||
            skeleton_check_before_parse(wdk, spec, opt.spec_path, (const char *const *)params.items) != 0)
            rc = 1;
        xmlFreeDoc(spec);
        vec_free(&params);
        arena_free(&a);
        return rc == 0 ? list_outputs(&opt) : rc;
    }
    if (rc == 0 && (!opt.spec_path || !opt.out_dir || optind < argc)) {
        ddigen_error(NULL, 0, "emit needs --spec FILE and -o DIR");
        rc = 2;
    }
    vec_push(&params, NULL);
    /* Two options setting one parameter, or a family that is not there, are
     * usage errors found before any work. */
    if (rc == 0 && ((opt.outputs && emit_check_outputs(opt.templates_dir, opt.outputs) != 0) ||
                    emit_check_param_conflicts((const char *const *)params.items) != 0))
        rc = 3;
    if (rc) {
        if (rc == 2)
            fputs(usage, stderr);
        vec_free(&params);
        arena_free(&a);
        return rc == 3 ? 2 : rc;
    }
    opt.params = (const char *const *)params.items;
    /* The whole set in a staging folder, switched in only when every
     * template rendered (--check writes nothing). */
    struct output_set set = {0};
    if (!opt.check && output_set_begin(&set, opt.out_dir) != 0)
        rc = 1;
    else if (!opt.check)
        opt.out_dir = set.staging;
    if (rc == 0)
        rc = emit_run(&opt);
    if (!opt.check && set.staging) {
        if (rc == 0)
            rc = output_set_commit(&set) == 0 ? 0 : 1;
        else
            output_set_abort(&set);
    }
    vec_free(&params);
    arena_free(&a);
    return rc;
}
