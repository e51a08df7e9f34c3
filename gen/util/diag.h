/* Diagnostics for every stage: gcc-style "file:line: severity: message" on
 * stderr, with counters so a stage can say whether it failed. */
#ifndef DDIGEN_DIAG_H
#define DDIGEN_DIAG_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum ddigen_severity { DDIGEN_NOTE, DDIGEN_WARNING, DDIGEN_ERROR };

struct ddigen_diag {
    int verbose;     /* -v: also print notes and warnings from inputs */
    int quiet;       /* -q: no progress lines */
    unsigned errors;
    unsigned warnings;
    /* Where the option being parsed was written when not on the command
     * line (a config file's FILE:LINE:COL, see config.h); a message
     * without a file names it. Set and cleared by cli_getopt. */
    const char *origin;
};

/* The process-wide sink; main() sets verbose/quiet. */
extern struct ddigen_diag ddigen_diag_global;

/* file may be NULL (no location); line 0 means "whole file". */
void ddigen_report(enum ddigen_severity sev, const char *file, unsigned line,
                   const char *fmt, ...) __attribute__((format(printf, 4, 5)));
void ddigen_vreport(enum ddigen_severity sev, const char *file, unsigned line,
                    const char *fmt, va_list ap);
/* A diagnostic of another tool (clang) at file:line:col, printed under
 * that tool's own severity name (label: "warning", "error", "fatal error")
 * and counted as sev; printed whenever sev is an error, else with -v. */
void ddigen_report_foreign(enum ddigen_severity sev, const char *label, const char *file, unsigned line,
                           unsigned col, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* A progress line on stderr unless quiet. */
void ddigen_progress(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Holding back messages: after ddigen_diag_hold(h) every message and
 * progress line of the calling thread goes into h (counted at once, as
 * usual) instead of stderr, until ddigen_diag_hold(NULL); a task may be
 * held on one thread and then another. ddigen_diag_print_held(h) prints
 * what h holds and frees it. A stage that runs tasks on worker threads
 * prints each task's messages in the tasks' order, whatever thread
 * finished first. Zero-initialise h; without memory for it the messages
 * go to stderr as they come. */
struct ddigen_diag_held {
    char *text;
    size_t len;
    FILE *stream;
};
void ddigen_diag_hold(struct ddigen_diag_held *h);
void ddigen_diag_print_held(struct ddigen_diag_held *h);
/* Frees what h holds without printing it (the counts stay as they are). */
void ddigen_diag_discard_held(struct ddigen_diag_held *h);
/* Text another library prints itself (libxml2's generic errors), written
 * unchanged to stderr or the thread's hold. */
void ddigen_diag_held_raw(const char *fmt, va_list ap);

/* Input quoted in a message (a file's text, an option value, a name from a
 * page or header) goes through these: at most DDIGEN_QUOTE_MAX bytes of it,
 * then "...(N bytes)", with control bytes, DEL, C1 controls, bidi overrides
 * and bytes that are not UTF-8 written as \n \t \r \xHH \uHHHH, so it can
 * neither forge a line nor drive the terminal. The result lives in a
 * per-thread ring of DDIGEN_QUOTE_SLOTS buffers: use it in the message at
 * hand (up to that many quotes in one message), do not keep it. */
#define DDIGEN_QUOTE_MAX 120
#define DDIGEN_QUOTE_SLOTS 8
const char *ddigen_quote(const char *s);
const char *ddigen_quoten(const char *s, size_t len);
/* The escaping alone, unbounded: appends s[0..len) escaped to the buffer
 * through put(ctx, bytes, n). Messages, their file names and getopt's
 * complaints go through it whole. */
void ddigen_escape(const char *s, size_t len, void (*put)(void *ctx, const char *bytes, size_t n), void *ctx);

#define ddigen_error(file, line, ...) ddigen_report(DDIGEN_ERROR, file, line, __VA_ARGS__)
#define ddigen_warning(file, line, ...) ddigen_report(DDIGEN_WARNING, file, line, __VA_ARGS__)
#define ddigen_note(file, line, ...) ddigen_report(DDIGEN_NOTE, file, line, __VA_ARGS__)

#endif
