/* Diagnostics sink: prints gcc-style messages and counts errors so that
 * main() can turn them into an exit status. */
#include "diag.h"
#include "utf8.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct ddigen_diag ddigen_diag_global;

/* Stages run configurations on worker threads; keep lines whole. */
static pthread_mutex_t diag_lock = PTHREAD_MUTEX_INITIALIZER;

/* Where this thread's messages go: stderr, or the buffer of a hold. */
static _Thread_local FILE *held_stream;

static FILE *sink(void)
{
    return held_stream ? held_stream : stderr;
}

/* Code points a terminal acts on or that reorder what is shown: C0, DEL,
 * C1, and the bidi embeddings, overrides and isolates. */
static int unsafe_code_point(uint32_t cp)
{
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F) || (cp >= 0x202A && cp <= 0x202E) ||
           (cp >= 0x2066 && cp <= 0x2069);
}

void ddigen_escape(const char *s, size_t len, void (*put)(void *ctx, const char *bytes, size_t n), void *ctx)
{
    const unsigned char *p = (const unsigned char *)s, *end = p + len, *run = p;
    while (p < end) {
        uint32_t cp;
        size_t n = utf8_decode(p, (size_t)(end - p), &cp);
        if (n && !unsafe_code_point(cp)) {
            p += n;
            continue;
        }
        if (p > run)
            put(ctx, (const char *)run, (size_t)(p - run));
        char esc[8];
        if (n == 1 && cp == '\n')
            memcpy(esc, "\\n", 3);
        else if (n == 1 && cp == '\t')
            memcpy(esc, "\\t", 3);
        else if (n == 1 && cp == '\r')
            memcpy(esc, "\\r", 3);
        else if (n > 1)
            snprintf(esc, sizeof esc, "\\u%04X", cp);
        else
            snprintf(esc, sizeof esc, "\\x%02X", *p); /* a control byte, or not UTF-8 */
        put(ctx, esc, strlen(esc));
        p += n ? n : 1;
        run = p;
    }
    if (p > run)
        put(ctx, (const char *)run, (size_t)(p - run));
}

/* The quote ring: each slot holds one escaped quote (at most
 * DDIGEN_QUOTE_MAX input bytes, each at most 6 bytes escaped, and the
 * length note). */
struct quote_slot {
    char buf[DDIGEN_QUOTE_MAX * 6 + 32];
    size_t len;
};

static void put_slot(void *ctx, const char *bytes, size_t n)
{
    struct quote_slot *q = ctx;
    if (n > sizeof q->buf - 1 - q->len)
        n = sizeof q->buf - 1 - q->len; /* cannot happen: sized for the worst case */
    memcpy(q->buf + q->len, bytes, n);
    q->len += n;
}

const char *ddigen_quoten(const char *s, size_t len)
{
    static _Thread_local struct quote_slot ring[DDIGEN_QUOTE_SLOTS];
    static _Thread_local unsigned next;
    struct quote_slot *q = &ring[next++ % DDIGEN_QUOTE_SLOTS];
    q->len = 0;
    if (!s)
        s = "(null)", len = 6;
    size_t cut = len;
    if (len > DDIGEN_QUOTE_MAX) {
        /* Cut before a UTF-8 sequence rather than inside one. */
        cut = DDIGEN_QUOTE_MAX;
        while (cut > DDIGEN_QUOTE_MAX - 3 && ((unsigned char)s[cut] & 0xC0) == 0x80)
            cut--;
    }
    ddigen_escape(s, cut, put_slot, q);
    if (cut < len) {
        char more[40];
        snprintf(more, sizeof more, "...(%zu bytes)", len);
        put_slot(q, more, strlen(more));
    }
    q->buf[q->len] = '\0';
    return q->buf;
}

const char *ddigen_quote(const char *s)
{
    return ddigen_quoten(s, s ? strlen(s) : 0);
}

static void put_file(void *ctx, const char *bytes, size_t n)
{
    fwrite(bytes, 1, n, ctx);
}

/* Writes what fmt gives, escaped: a quote forgotten at some call site still
 * cannot put a raw control byte on the terminal. */
static void vput_escaped(const char *fmt, va_list ap)
{
    char small[512];
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(small, sizeof small, fmt, copy);
    va_end(copy);
    if (n < 0)
        return;
    char *text = small;
    if ((size_t)n >= sizeof small) {
        text = malloc((size_t)n + 1);
        if (!text) {
            fputs("(out of memory formatting a message)", sink());
            return;
        }
        vsnprintf(text, (size_t)n + 1, fmt, ap);
    }
    ddigen_escape(text, (size_t)n, put_file, sink());
    if (text != small)
        free(text);
}

static void put_escaped(const char *s)
{
    ddigen_escape(s, strlen(s), put_file, sink());
}

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
        FILE *out = sink();
        if (file) {
            put_escaped(file);
            if (line)
                fprintf(out, ":%u", line);
            fputs(": ", out);
        } else if (d->origin) {
            put_escaped(d->origin);
            fputs(": ", out);
        } else {
            fputs("ddigen: ", out);
        }
        fprintf(out, "%s: ", severity_name(sev));
        vput_escaped(fmt, ap);
        fputc('\n', out);
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
        FILE *out = sink();
        put_escaped(file ? file : "ddigen");
        if (file && line && col)
            fprintf(out, ":%u:%u", line, col);
        else if (file && line)
            fprintf(out, ":%u", line);
        fputs(": ", out);
        put_escaped(label);
        fputs(": ", out);
        vput_escaped(fmt, ap);
        fputc('\n', out);
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
    fputs("ddigen: ", sink());
    vput_escaped(fmt, ap);
    fputc('\n', sink());
    pthread_mutex_unlock(&diag_lock);
    va_end(ap);
}

void ddigen_diag_hold(struct ddigen_diag_held *h)
{
    if (h && !h->stream)
        h->stream = open_memstream(&h->text, &h->len);
    held_stream = h ? h->stream : NULL;
}

void ddigen_diag_held_raw(const char *fmt, va_list ap)
{
    pthread_mutex_lock(&diag_lock);
    vfprintf(sink(), fmt, ap);
    pthread_mutex_unlock(&diag_lock);
}

/* Stops holding into h and closes its stream (h->text, h->len final). */
static void close_held(struct ddigen_diag_held *h)
{
    if (held_stream == h->stream)
        held_stream = NULL;
    if (h->stream)
        fclose(h->stream);
    h->stream = NULL;
}

static void free_held(struct ddigen_diag_held *h)
{
    free(h->text);
    h->text = NULL;
    h->len = 0;
}

void ddigen_diag_discard_held(struct ddigen_diag_held *h)
{
    close_held(h);
    free_held(h);
}

void ddigen_diag_print_held(struct ddigen_diag_held *h)
{
    close_held(h);
    pthread_mutex_lock(&diag_lock);
    if (h->len)
        fwrite(h->text, 1, h->len, sink());
    pthread_mutex_unlock(&diag_lock);
    free_held(h);
}
