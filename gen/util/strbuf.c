/* Growable string buffer for building text (arguments, tokens, reports). */
#include "strbuf.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void reserve(struct strbuf *sb, size_t extra)
{
    if (sb->len + extra + 1 <= sb->cap)
        return;
    size_t cap = sb->cap ? sb->cap : 64;
    while (cap < sb->len + extra + 1)
        cap *= 2;
    char *data = realloc(sb->data, cap);
    if (!data) {
        fputs("ddigen: fatal: out of memory\n", stderr);
        abort();
    }
    sb->data = data;
    sb->cap = cap;
}

void sb_appendn(struct strbuf *sb, const char *s, size_t n)
{
    reserve(sb, n);
    memcpy(sb->data + sb->len, s, n);
    sb->len += n;
    sb->data[sb->len] = '\0';
}

void sb_append(struct strbuf *sb, const char *s)
{
    sb_appendn(sb, s, strlen(s));
}

void sb_append_c_ident(struct strbuf *sb, const char *name)
{
    size_t start = sb->len;
    int pending_sep = 0;
    for (const char *p = name; p && *p; p++) {
        if (isalnum((unsigned char)*p) || *p == '_') {
            if (pending_sep && sb->len > start)
                sb_append(sb, "_");
            pending_sep = 0;
            sb_appendn(sb, p, 1);
        } else {
            pending_sep = 1;
        }
    }
}

void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    reserve(sb, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(sb->data + sb->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb->len += (size_t)n;
}

void sb_free(struct strbuf *sb)
{
    free(sb->data);
    sb->data = NULL;
    sb->len = sb->cap = 0;
}
