/* Diagnostics sink: prints gcc-style messages and counts errors so that
 * main() can turn them into an exit status. */
#include "diag.h"

#include <pthread.h>
#include <stdio.h>

struct ddigen_diag ddigen_diag_global;

/* Stages run configurations on worker threads; keep lines whole. */
static pthread_mutex_t diag_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *severity_name(enum ddigen_severity sev)
{
    switch (sev) {
    case DDIGEN_NOTE: return "note";
    case DDIGEN_WARNING: return "warning";
    case DDIGEN_ERROR: return "error";
    }
    return "error";
}

void ddigen_vreport(enum ddigen_severity sev, const char *file, unsigned line,
                    const char *fmt, va_list ap)
{
    struct ddigen_diag *d = &ddigen_diag_global;
    pthread_mutex_lock(&diag_lock);
    if (sev == DDIGEN_ERROR)
        d->errors++;
    else if (sev == DDIGEN_WARNING)
        d->warnings++;
    /* Errors always print; notes and warnings only when asked (-v). */
    if (sev == DDIGEN_ERROR || d->verbose) {
        if (file && line)
            fprintf(stderr, "%s:%u: ", file, line);
        else if (file)
            fprintf(stderr, "%s: ", file);
        else
            fputs("ddigen: ", stderr);
        fprintf(stderr, "%s: ", severity_name(sev));
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
    }
    pthread_mutex_unlock(&diag_lock);
}

void ddigen_report_foreign(enum ddigen_severity sev, const char *label, const char *file, unsigned line,
                           unsigned col, const char *fmt, ...)
{
    struct ddigen_diag *d = &ddigen_diag_global;
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&diag_lock);
    if (sev == DDIGEN_ERROR)
        d->errors++;
    else if (sev == DDIGEN_WARNING)
        d->warnings++;
    if (sev == DDIGEN_ERROR || d->verbose) {
        if (file && line && col)
            fprintf(stderr, "%s:%u:%u: ", file, line, col);
        else if (file && line)
            fprintf(stderr, "%s:%u: ", file, line);
        else
            fprintf(stderr, "%s: ", file ? file : "ddigen");
        fprintf(stderr, "%s: ", label);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
    }
    pthread_mutex_unlock(&diag_lock);
    va_end(ap);
}

void ddigen_report(enum ddigen_severity sev, const char *file, unsigned line,
                   const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ddigen_vreport(sev, file, line, fmt, ap);
    va_end(ap);
}

void ddigen_progress(const char *fmt, ...)
{
    if (ddigen_diag_global.quiet)
        return;
    va_list ap;
    va_start(ap, fmt);
    pthread_mutex_lock(&diag_lock);
    fputs("ddigen: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    pthread_mutex_unlock(&diag_lock);
    va_end(ap);
}
