/* Orchestrates header ingestion: checks the inputs, discovers the DDI
 * interface versions, precompiles the version-independent prefix once per
 * architecture, parses every configuration on a pool of threads, and merges
 * the results in a fixed order so the output never depends on scheduling. */
#include "header.h"

#include "../util/deps.h"
#include "../util/diag.h"
#include "../util/output.h"
#include "known_errors.h"
#include "../util/strbuf.h"
#include "clang_args.h"
#include "config_model.h"
#include "extract.h"
#include "merge_configs.h"
#include "versions.h"

#include "../util/clang_api.h"
#include "../util/wdk_layout.h"
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef DDIGEN_CLANG_RESOURCE_DIR
#define DDIGEN_CLANG_RESOURCE_DIR ""
#endif

static const char *const default_scope[] = {"d3dkmddi.h", "d3dukmdt.h", "d3dkmdt.h", "dispmprt.h"};
#define MAIN_FILE "/ddigen-virtual/translation-unit.c"
#define PREFIX_FILE "/ddigen-virtual/prefix.h"

struct diag_line {
    const char *file;
    unsigned line, col;
    int severity; /* enum CXDiagnosticSeverity */
    int known;    /* an error on the known list: ingestion goes on */
    const char *text;
};

struct job {
    enum ddi_arch arch;
    int version;            /* index into the layout's versions, or -1 for a PCH build or discovery */
    int discovery;          /* the DDI versions and SAL index */
    struct job *after;      /* the PCH build this job runs on (taken earlier from the queue), or NULL */
    const char *pch_out;    /* prefix to build */
    int keep_macros;        /* the PCH keeps its macro definitions (discovery's) */
    int prefix_rc;          /* discover_prefix on it, when keep_macros */
    struct cfg_model model;
    struct vec diags;       /* struct diag_line* in model.arena */
    int pch_failed;
    int done;               /* under run.lock */
};

struct run {
    struct arena arena;
    struct parse_setup setup;
    struct extract_scope scope;
    struct vec roots;        /* absolute folders file names are relative to */
    const char *main_text;   /* what the driver's translation unit includes */
    const char *prefix_text; /* its version-independent prefix, or NULL */
    const char *body_text;   /* the rest, used on top of the prefix's PCH */
    const char *tmpdir;
    struct job *jobs;
    size_t njobs;            /* grows once discovery has found the versions, under lock */
    size_t next;             /* next job to take, under lock */
    int closed;              /* no job will be added, under lock */
    pthread_mutex_t lock;
    pthread_cond_t job_done;
    pthread_t threads[64];
    int nthreads;
    const struct ddi_layout *layout;
    struct ddi_layout *discovered; /* where discovery stores the versions */
    const struct vec *requested;   /* --ddi-version names */
    int discovery_rc;
    struct sal_index sal;    /* raw tokens of the headers in scope */
    struct prefix_names prefix[DDI_ARCH_COUNT]; /* names in each arch's PCH */
    struct known_errors known; /* header errors ingestion may go on after */
};

static int is_dir(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

static char *absolute(struct arena *a, const char *p)
{
    char buf[PATH_MAX];
    return realpath(p, buf) ? arena_strdup(a, buf) : NULL;
}

static int add_include_dir(struct run *r, const char *dir)
{
    char *abs = absolute(&r->arena, dir);
    if (!abs || !is_dir(abs)) {
        ddigen_error(dir, 0, "include folder does not exist");
        return -1;
    }
    vec_push(&r->setup.include_dirs, abs);
    return 0;
}

static int setup_wdk(struct run *r, const struct header_input *in)
{
    if (!is_dir(in->wdk_root)) {
        ddigen_error(in->wdk_root, 0, "WDK include folder does not exist");
        return -1;
    }
    char *km = arena_printf(&r->arena, "%s/km", in->wdk_root);
    if (!is_dir(km)) {
        ddigen_error(in->wdk_root, 0, "not a WDK Include/<version> folder: no km/ inside");
        return -1;
    }
    for (size_t i = 0; i < wdk_include_nparts; i++) {
        char *d = arena_printf(&r->arena, "%s/%s", in->wdk_root, wdk_include_parts[i]);
        if (is_dir(d) && add_include_dir(r, d) != 0)
            return -1;
    }
    /* What a display miniport sees: ntddk.h, then dispmprt.h (which pulls in
     * d3dkmddi.h). ntddk.h does not depend on the DDI version: it is the
     * prefix compiled once per architecture. */
    r->prefix_text = "#include <ntddk.h>\n";
    r->body_text = "#include <dispmprt.h>\n";
    r->main_text = "#include <ntddk.h>\n#include <dispmprt.h>\n";
    return 0;
}

static int setup_header(struct run *r, const struct header_input *in)
{
    char *abs = absolute(&r->arena, in->header);
    if (!abs || !is_file(abs)) {
        ddigen_error(in->header, 0, abs && is_dir(abs) ? "--header names a folder; expected a header file"
                                                       : "header file does not exist");
        return -1;
    }
    char *dir = arena_strdup(&r->arena, abs);
    *strrchr(dir, '/') = '\0';
    vec_push(&r->setup.include_dirs, dir);
    struct strbuf pre = {0};
    for (size_t i = 0; i < in->pre_includes.len; i++)
        sb_printf(&pre, "#include <%s>\n", (char *)in->pre_includes.items[i]);
    r->prefix_text = pre.len ? arena_strdup(&r->arena, pre.data) : NULL;
    r->body_text = arena_printf(&r->arena, "#include \"%s\"\n", abs);
    r->main_text = arena_printf(&r->arena, "%s%s", sb_str(&pre), r->body_text);
    sb_free(&pre);
    return 0;
}

static int setup_run(struct run *r, const struct header_input *in)
{
    if (!in->wdk_root == !in->header) {
        ddigen_error(NULL, 0, "give exactly one of --wdk DIR or --header FILE");
        return -1;
    }
    if ((in->wdk_root ? setup_wdk(r, in) : setup_header(r, in)) != 0)
        return -1;
    known_errors_add_defaults(&r->known, &r->arena);
    for (size_t i = 0; i < in->known_errors.len; i++)
        if (known_errors_add(&r->known, &r->arena, in->known_errors.items[i], NULL, 0) != 0)
            return -1;
    for (size_t i = 0; i < in->known_error_lists.len; i++)
        if (known_errors_load(&r->known, &r->arena, in->known_error_lists.items[i]) != 0)
            return -1;
    for (size_t i = 0; i < in->include_dirs.len; i++)
        if (add_include_dir(r, in->include_dirs.items[i]) != 0)
            return -1;
    for (size_t i = 0; i < in->defines.len; i++)
        vec_push(&r->setup.defines, in->defines.items[i]);
    /* File names in the spec are relative to the WDK root (km/d3dkmddi.h)
     * or to the include folder that holds them. */
    for (size_t i = 0; i < r->setup.include_dirs.len; i++)
        vec_push(&r->roots, r->setup.include_dirs.items[i]);
    if (in->wdk_root)
        vec_push(&r->roots, absolute(&r->arena, in->wdk_root));
    r->scope.roots = (const char *const *)r->roots.items;
    r->scope.nroots = r->roots.len;
    if (in->scope_files.len) {
        r->scope.files = (const char *const *)in->scope_files.items;
        r->scope.nfiles = in->scope_files.len;
    } else if (in->wdk_root) {
        r->scope.files = default_scope;
        r->scope.nfiles = sizeof default_scope / sizeof default_scope[0];
    } else {
        const char *base = strrchr(in->header, '/');
        const char **one = arena_alloc(&r->arena, sizeof *one);
        *one = base ? base + 1 : in->header;
        r->scope.files = one;
        r->scope.nfiles = 1;
    }
    r->setup.overlay_path = write_case_insensitive_overlay(&r->arena, &r->setup.include_dirs);
    if (!r->setup.overlay_path)
        return -1;
    const char *res = getenv("DDIGEN_CLANG_RESOURCE_DIR");
    if (!res || !*res)
        res = DDIGEN_CLANG_RESOURCE_DIR;
    r->setup.resource_dir = *res ? res : NULL;
    r->scope.resource_dir = r->setup.resource_dir;
    r->tmpdir = ddigen_temp_dir(&r->arena, "pch"); /* also removes those of killed runs */
    return r->tmpdir ? 0 : -1;
}

/* --- parsing ---------------------------------------------------------- */

/* The text of the source line that holds offset, for matching known
 * errors by what they say rather than where they are. */
static const char *source_line_at(struct arena *a, CXTranslationUnit tu, CXFile file, unsigned offset)
{
    size_t size = 0;
    const char *text = file ? clang_getFileContents(tu, file, &size) : NULL;
    if (!text || offset > size)
        return NULL;
    size_t begin = offset, end = offset;
    while (begin > 0 && text[begin - 1] != '\n')
        begin--;
    while (end < size && text[end] != '\n')
        end++;
    return arena_strndup(a, text + begin, end - begin);
}

static void keep_diagnostics(struct job *job, CXTranslationUnit tu, const struct known_errors *known)
{
    unsigned n = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        enum CXDiagnosticSeverity sev = clang_getDiagnosticSeverity(d);
        if (sev >= CXDiagnostic_Warning) {
            struct diag_line *dl = arena_alloc(&job->model.arena, sizeof *dl);
            CXFile file;
            unsigned off;
            clang_getExpansionLocation(clang_getDiagnosticLocation(d), &file, &dl->line, &dl->col, &off);
            CXString fname = clang_getFileName(file);
            dl->file = arena_strdup(&job->model.arena, file ? clang_getCString(fname) : NULL);
            clang_disposeString(fname);
            CXString text = clang_getDiagnosticSpelling(d);
            dl->text = arena_strdup(&job->model.arena, clang_getCString(text));
            clang_disposeString(text);
            dl->severity = sev;
            vec_push(&job->diags, dl);
            if (sev == CXDiagnostic_Warning) {
                job->model.diag_warnings++;
            } else {
                job->model.diag_errors++;
                dl->known = known_errors_match(known, dl->file, dl->line,
                                               source_line_at(&job->model.arena, tu, file, off));
                if (!dl->known)
                    job->model.unknown_errors++;
            }
            if (diag_is_fatal(d)) {
                job->model.fatal = 1;
                dl->severity = CXDiagnostic_Fatal;
            }
        }
        clang_disposeDiagnostic(d);
    }
}

static CXTranslationUnit parse_tu(CXIndex index, const char *name, const char *text, struct vec *args,
                                  unsigned options)
{
    struct CXUnsavedFile file = {name, text, (unsigned long)strlen(text)};
    CXTranslationUnit tu = NULL;
    enum CXErrorCode err = clang_parseTranslationUnit2(index, name, (const char *const *)args->items,
                                                       (int)args->len, &file, 1, options, &tu);
    return err == CXError_Success ? tu : NULL;
}

static void record_inclusion(CXFile file, CXSourceLocation *stack, unsigned depth, CXClientData data)
{
    (void)stack, (void)depth, (void)data;
    CXString name = clang_getFileName(file);
    ddigen_deps_add(clang_getCString(name));
    clang_disposeString(name);
}

/* Every header this parse opened is a dependency of the outputs (--depfile):
 * which ones depends on the architecture and the DDI version's #ifs. */
static void record_inclusions(CXTranslationUnit tu)
{
    clang_getInclusions(tu, record_inclusion, NULL);
}

static void run_pch_job(struct run *r, CXIndex index, struct job *job)
{
    struct vec args = {0};
    build_clang_args(&job->model.arena, &r->setup, job->arch, NULL, NULL, 1, &args);
    /* Discovery reads the SAL macros of the whole translation unit, the
     * prefix's included, from the PCH it runs on. */
    unsigned macros = job->keep_macros ? CXTranslationUnit_DetailedPreprocessingRecord : 0;
    CXTranslationUnit tu = parse_tu(index, PREFIX_FILE, r->prefix_text, &args,
                                    CXTranslationUnit_Incomplete | CXTranslationUnit_ForSerialization |
                                        CXTranslationUnit_SkipFunctionBodies | macros);
    vec_free(&args);
    job->pch_failed = 1;
    if (!tu)
        return;
    record_inclusions(tu);
    unsigned errors = 0, n = clang_getNumDiagnostics(tu);
    for (unsigned i = 0; i < n; i++) {
        CXDiagnostic d = clang_getDiagnostic(tu, i);
        errors += clang_getDiagnosticSeverity(d) >= CXDiagnostic_Error;
        clang_disposeDiagnostic(d);
    }
    /* A prefix with errors cannot be saved; the configurations then parse
     * from scratch, which gives the same result, only slower. */
    if (!errors && clang_saveTranslationUnit(tu, job->pch_out, clang_defaultSaveOptions(tu)) == CXSaveError_None) {
        job->pch_failed = 0;
        prefix_names_build(&r->prefix[job->arch], tu, &r->scope);
        if (job->keep_macros)
            job->prefix_rc = discover_prefix(tu, &r->scope, &r->sal);
    }
    clang_disposeTranslationUnit(tu);
}

/* The PCH a job runs on: its build's, unless there is none or it failed. */
static const char *usable_pch(const struct job *job)
{
    return job->after && !job->after->pch_failed ? job->after->pch_out : NULL;
}

/* Skipping the PCH's declarations when walking a configuration saves
 * visiting the whole version-independent prefix once per version; only
 * when the prefix declares nothing in scope (then its declarations are
 * only ever reached by reference). */
static int skips_prefix(const struct run *r, const struct job *job)
{
    return usable_pch(job) && !r->prefix[job->arch].declares_scope;
}

static void run_config_job(struct run *r, CXIndex index, struct job *job)
{
    const struct ddi_version *v = job->version >= 0 ? &r->layout->versions[job->version] : NULL;
    const char *pch = usable_pch(job);
    struct vec args = {0};
    build_clang_args(&job->model.arena, &r->setup, job->arch, v && v->value ? v->name : NULL, pch, 0, &args);
    const char *text = pch ? r->body_text : r->main_text;
    /* No preprocessing record: macros were read once, in discovery. */
    CXTranslationUnit tu = parse_tu(index, MAIN_FILE, text, &args,
                                    CXTranslationUnit_SkipFunctionBodies | CXTranslationUnit_KeepGoing);
    vec_free(&args);
    if (!tu) {
        job->model.fatal = 1;
        return;
    }
    keep_diagnostics(job, tu, &r->known);
    record_inclusions(tu);
    extract_config(tu, &r->scope, &r->sal, skips_prefix(r, job) ? &r->prefix[job->arch] : NULL, &job->model);
    clang_disposeTranslationUnit(tu);
}

/* The versions decide the configurations, so they are found before any
 * configuration is parsed: on the x64 PCH when there is one (a parse of
 * the body alone, a fifth of the whole), else on the whole unit. */
static void run_discovery_job(struct run *r, struct job *job)
{
    struct arena a = {0};
    struct vec args = {0};
    const char *pch = usable_pch(job);
    build_clang_args(&a, &r->setup, DDI_ARCH_X64, NULL, pch, 0, &args);
    r->discovery_rc = pch && job->after->prefix_rc ? -1
                                                   : discover_versions(MAIN_FILE, pch ? r->body_text : r->main_text,
                                                                       &args, pch != NULL, r->requested, &r->scope,
                                                                       &r->sal, r->discovered);
    vec_free(&args);
    arena_free(&a);
}

static void wait_for_job(struct run *r, struct job *job);

/* The next job, waiting for one while the queue may still grow (or, run
 * inline without threads, only what is queued); NULL when there is none. */
static struct job *take_job(struct run *r, int wait_for_more)
{
    pthread_mutex_lock(&r->lock);
    while (wait_for_more && r->next >= r->njobs && !r->closed)
        pthread_cond_wait(&r->job_done, &r->lock);
    struct job *job = r->next < r->njobs ? &r->jobs[r->next++] : NULL;
    pthread_mutex_unlock(&r->lock);
    return job;
}

static void run_jobs(struct run *r, int wait_for_more)
{
    /* An index that leaves out the PCH's declarations for configurations
     * that skip them, one that keeps them for everything else. */
    CXIndex index[2] = {clang_createIndex(0, 0), clang_createIndex(1, 0)};
    struct job *job;
    while ((job = take_job(r, wait_for_more)) != NULL) {
        if (job->after)
            wait_for_job(r, job->after); /* taken before this one: running or done */
        if (job->discovery)
            run_discovery_job(r, job);
        else if (job->pch_out)
            run_pch_job(r, index[0], job);
        else
            run_config_job(r, index[skips_prefix(r, job)], job);
        pthread_mutex_lock(&r->lock);
        job->done = 1;
        pthread_cond_broadcast(&r->job_done);
        pthread_mutex_unlock(&r->lock);
    }
    clang_disposeIndex(index[0]);
    clang_disposeIndex(index[1]);
}

static void *worker(void *arg)
{
    run_jobs(arg, 1);
    return NULL;
}

/* Starts the workers on jobs; more may be queued with queue_jobs until
 * close_jobs. The caller takes results in order with wait_for_job while
 * later jobs are still parsing, then calls join_jobs. */
static void start_jobs(struct run *r, struct job *jobs, size_t njobs, int nthreads)
{
    r->jobs = jobs;
    r->njobs = njobs;
    r->next = 0;
    r->closed = 0;
    if (nthreads > 64)
        nthreads = 64;
    r->nthreads = 0;
    for (int i = 0; i < nthreads; i++)
        if (pthread_create(&r->threads[r->nthreads], NULL, worker, r) == 0)
            r->nthreads++;
    if (!r->nthreads)
        run_jobs(r, 0); /* no threads to be had: do it here */
}

/* Makes jobs[0, njobs) the queue (a longer prefix of the same array) and
 * says no more will come. */
static void close_jobs(struct run *r, size_t njobs)
{
    pthread_mutex_lock(&r->lock);
    r->njobs = njobs;
    r->closed = 1;
    pthread_cond_broadcast(&r->job_done);
    pthread_mutex_unlock(&r->lock);
    if (!r->nthreads)
        run_jobs(r, 0);
}

static void wait_for_job(struct run *r, struct job *job)
{
    pthread_mutex_lock(&r->lock);
    while (!job->done)
        pthread_cond_wait(&r->job_done, &r->lock);
    pthread_mutex_unlock(&r->lock);
}

static void join_jobs(struct run *r)
{
    for (int i = 0; i < r->nthreads; i++)
        pthread_join(r->threads[i], NULL);
    r->nthreads = 0;
}

/* --- reporting -------------------------------------------------------- */

/* Prints each distinct header diagnostic once (the same static_assert shows
 * up in every configuration), in configuration order. */
static void report_diagnostics(struct job *job, const struct ddi_layout *l, struct strmap *seen, struct arena *a)
{
    for (size_t i = 0; i < job->diags.len; i++) {
        struct diag_line *d = job->diags.items[i];
        char *key = arena_printf(a, "%s:%u:%s", d->file ? d->file : "", d->line, d->text);
        if (strmap_get(seen, key))
            continue;
        strmap_put(seen, key, key);
        const char *cfg = arena_printf(a, "[%s %s]", ddi_arch_name(job->arch),
                                       job->version >= 0 ? ddi_version_short(&l->versions[job->version])
                                                         : "default");
        /* clang's own severity; what it means for ingestion follows. */
        if (d->severity == CXDiagnostic_Fatal)
            ddigen_report_foreign(DDIGEN_ERROR, "fatal error", d->file, d->line, d->col, "%s %s", d->text, cfg);
        else if (d->severity == CXDiagnostic_Warning)
            ddigen_report_foreign(DDIGEN_NOTE, "warning", d->file, d->line, d->col, "%s %s", d->text, cfg);
        else if (d->known)
            ddigen_report_foreign(DDIGEN_NOTE, "error", d->file, d->line, d->col,
                                  "%s %s (a known header error: ingestion goes on)", d->text, cfg);
        else
            ddigen_report_foreign(DDIGEN_ERROR, "error", d->file, d->line, d->col,
                                  "%s %s (clang recovers from header errors by guessing layouts; if this one "
                                  "is expected, list it with --allow-header-error FILE:LINE)",
                                  d->text, cfg);
    }
}

/* Reports one configuration and merges it; -1 if it is unusable. */
static int take_config(const struct header_input *in, struct job *job, struct ddi_layout *out, int merge)
{
    /* Known errors (the kit's FIELD_OFFSET static_assert) are counted apart:
     * "1 header errors" on every line of a good kit read as a failure. */
    unsigned known = job->model.diag_errors - job->model.unknown_errors;
    char known_text[64] = "";
    if (known)
        snprintf(known_text, sizeof known_text, " (+%u known, accepted)", known);
    ddigen_progress("%s %s: %zu records, %zu enums, %zu function types; %u header errors%s, %u warnings%s",
                    ddi_arch_name(job->arch), ddi_version_short(&out->versions[job->version]),
                    job->model.records.len, job->model.enums.len, job->model.functypes.len,
                    job->model.unknown_errors, known_text, job->model.diag_warnings,
                    (job->model.diag_errors || job->model.diag_warnings) && !ddigen_diag_global.verbose
                        ? " (-v lists them)" : "");
    if (job->model.fatal || job->model.unknown_errors)
        return -1;
    for (size_t i = 0; i < job->model.invalid.len; i++)
        ddigen_error(in->wdk_root ? in->wdk_root : in->header, 0,
                     "%s %s: record %s is invalid (clang recovered from an error in it)", ddi_arch_name(job->arch),
                     ddi_version_short(&out->versions[job->version]), (char *)job->model.invalid.items[i]);
    if (job->model.invalid.len)
        return -1;
    if (!job->model.records.len) {
        ddigen_error(in->wdk_root ? in->wdk_root : in->header, 0, "%s %s: no records found in the headers in scope",
                     ddi_arch_name(job->arch), ddi_version_short(&out->versions[job->version]));
        return -1;
    }
    if (merge)
        merge_config(out, job->arch, (unsigned)job->version, &job->model);
    return 0;
}

static int count_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

static int check_required(const struct header_input *in, const struct ddi_layout *l)
{
    int rc = 0;
    for (size_t i = 0; i < in->required.len; i++) {
        const char *name = in->required.items[i];
        int found = 0;
        for (size_t j = 0; j < l->records.len && !found; j++)
            found = strcmp(((struct ddi_record *)l->records.items[j])->name, name) == 0;
        if (!found) {
            ddigen_error(in->wdk_root ? in->wdk_root : in->header, 0, "record %s was asked for but not found", name);
            rc = -1;
        }
    }
    return rc;
}

static int worker_count(const struct header_input *in)
{
    return in->jobs > 0 ? in->jobs : count_cores();
}

/* The queue before discovery has found the versions: the PCH builds, x64
 * first, then discovery on the x64 one (the next free thread takes it as
 * soon as that PCH is written). Returns the discovery job. */
static struct job *queue_discovery(struct run *r, const struct header_input *in, struct job *jobs, size_t *n,
                                   struct job *pch[DDI_ARCH_COUNT])
{
    static const enum ddi_arch order[] = {DDI_ARCH_X64, DDI_ARCH_X86, DDI_ARCH_ARM64};
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
        enum ddi_arch a = order[k];
        if (!((in->arch_mask >> a) & 1) || !r->prefix_text || in->no_pch)
            continue;
        struct job *j = pch[a] = &jobs[(*n)++];
        j->arch = a;
        j->version = -1;
        j->pch_out = arena_printf(&r->arena, "%s/prefix-%s.pch", r->tmpdir, ddi_arch_name(a));
        j->keep_macros = a == DDI_ARCH_X64;
    }
    struct job *d = &jobs[(*n)++];
    d->discovery = 1;
    d->version = -1;
    d->after = pch[DDI_ARCH_X64];
    return d;
}

/* One configuration per architecture and DDI version, each on its
 * architecture's PCH build. */
static size_t queue_configs(const struct header_input *in, const struct ddi_layout *out, struct job *jobs, size_t n,
                            struct job *const pch[DDI_ARCH_COUNT])
{
    for (int a = 0; a < DDI_ARCH_COUNT; a++)
        for (unsigned v = 0; v < out->nversions && ((in->arch_mask >> a) & 1); v++, n++) {
            jobs[n].arch = (enum ddi_arch)a;
            jobs[n].version = (int)v;
            jobs[n].after = pch[a];
        }
    return n;
}

/* Waits for the PCH builds and says which could not be made. */
static void report_pch_builds(struct run *r, struct job *const pch[DDI_ARCH_COUNT])
{
    for (int a = 0; a < DDI_ARCH_COUNT; a++) {
        if (!pch[a])
            continue;
        wait_for_job(r, pch[a]);
        if (pch[a]->pch_failed)
            ddigen_note(NULL, 0, "%s: the prefix could not be precompiled; parsing without it", ddi_arch_name(a));
    }
}

/* Reports and merges the configurations in queue order while the workers
 * parse ahead, so the result never depends on which thread finished first. */
static int take_configs(struct run *r, const struct header_input *in, struct ddi_layout *out, struct job *first,
                        size_t nconfig)
{
    struct strmap seen = {0};
    struct arena scratch = {0};
    int rc = 0;
    for (size_t i = 0; i < nconfig; i++) {
        wait_for_job(r, &first[i]);
        report_diagnostics(&first[i], out, &seen, &scratch);
        if (take_config(in, &first[i], out, rc == 0) != 0)
            rc = -1;
        cfg_model_free(&first[i].model);
        vec_free(&first[i].diags);
    }
    strmap_free(&seen);
    arena_free(&scratch);
    return rc;
}

/* Every parse on one queue of worker threads: the PCH builds, discovery,
 * and the configurations it decides, which start as soon as their PCH is
 * written rather than after every other build. */
static int parse_all(struct run *r, const struct header_input *in, struct ddi_layout *out)
{
    int nthreads = worker_count(in);
    struct job *jobs = calloc(2 * DDI_ARCH_COUNT + 1 + (size_t)DDI_ARCH_COUNT * DDI_MAX_VERSIONS, sizeof *jobs);
    struct job *pch[DDI_ARCH_COUNT] = {0};
    size_t n = 0;
    r->discovered = out;
    r->requested = &in->versions;
    struct job *discovery = queue_discovery(r, in, jobs, &n, pch);
    start_jobs(r, jobs, n, nthreads);
    wait_for_job(r, discovery);
    int rc = r->discovery_rc;
    size_t nconfig = 0;
    if (rc == 0) {
        size_t end = queue_configs(in, out, jobs, n, pch);
        nconfig = end - n;
        close_jobs(r, end);
        report_pch_builds(r, pch);
        unsigned narch = out->nversions ? (unsigned)(nconfig / out->nversions) : 0;
        ddigen_progress("parsing %zu configurations (%u architectures x %u DDI versions) on %d threads", nconfig,
                        narch, out->nversions, nthreads < (int)nconfig ? nthreads : (int)nconfig);
        rc = take_configs(r, in, out, &jobs[n], nconfig);
    } else {
        close_jobs(r, n);
    }
    join_jobs(r);
    for (int a = 0; a < DDI_ARCH_COUNT; a++) {
        if (!pch[a])
            continue;
        unlink(pch[a]->pch_out); /* a failed save may leave a part behind */
        cfg_model_free(&pch[a]->model);
    }
    free(jobs);
    if (rc == 0)
        merge_finish(out);
    return rc;
}

int header_ingest(const struct header_input *in, struct ddi_layout *out)
{
    struct run r = {0};
    pthread_mutex_init(&r.lock, NULL);
    pthread_cond_init(&r.job_done, NULL);
    int rc = setup_run(&r, in);
    out->arch_mask = in->arch_mask;
    r.layout = out;
    if (rc == 0)
        rc = parse_all(&r, in, out);
    if (rc == 0)
        rc = check_required(in, out);
    if (r.setup.overlay_path)
        unlink(r.setup.overlay_path);
    if (r.tmpdir)
        rmdir(r.tmpdir);
    vec_free(&r.setup.include_dirs);
    vec_free(&r.setup.defines);
    vec_free(&r.roots);
    sal_index_free(&r.sal);
    known_errors_free(&r.known);
    for (int a = 0; a < DDI_ARCH_COUNT; a++)
        prefix_names_free(&r.prefix[a]);
    pthread_cond_destroy(&r.job_done);
    pthread_mutex_destroy(&r.lock);
    arena_free(&r.arena);
    return rc;
}
