/* JSON string escaping; see json.h. */
#include "json.h"

#include "strbuf.h"

#include <stdint.h>
#include <string.h>

/* The length of the valid UTF-8 sequence at s (of n bytes), or 0. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    unsigned char c = s[0];
    size_t need;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF)
        need = 1;
    else if (c >= 0xE0 && c <= 0xEF) {
        need = 2;
        lo = c == 0xE0 ? 0xA0 : 0x80;
        hi = c == 0xED ? 0x9F : 0xBF;
    } else if (c >= 0xF0 && c <= 0xF4) {
        need = 3;
        lo = c == 0xF0 ? 0x90 : 0x80;
        hi = c == 0xF4 ? 0x8F : 0xBF;
    } else
        return 0;
    if (n <= need)
        return 0;
    for (size_t k = 1; k <= need; k++)
        if (s[k] < (k == 1 ? lo : 0x80) || s[k] > (k == 1 ? hi : 0xBF))
            return 0;
    return need + 1;
}

typedef void (*json_sink)(void *ctx, const char *s, size_t n);

static void escape(const char *str, size_t n, json_sink put, void *ctx)
{
    const unsigned char *s = (const unsigned char *)str;
    put(ctx, "\"", 1);
    size_t i = 0, run = 0; /* bytes [i - run, i) go out as they are */
    while (i < n) {
        unsigned char c = s[i];
        const char *esc = NULL;
        char buf[8];
        size_t len = 1;
        if (c == '"')
            esc = "\\\"";
        else if (c == '\\')
            esc = "\\\\";
        else if (c == '\n')
            esc = "\\n";
        else if (c == '\t')
            esc = "\\t";
        else if (c == '\r')
            esc = "\\r";
        else if (c < 0x20 || c == 0x7F) {
            snprintf(buf, sizeof buf, "\\u%04x", c);
            esc = buf;
        } else if (c >= 0x80) {
            len = utf8_len(s + i, n - i);
            if (!len) {
                esc = "\\ufffd";
                len = 1;
            }
        }
        if (esc) {
            if (run)
                put(ctx, (const char *)s + i - run, run);
            run = 0;
            put(ctx, esc, strlen(esc));
            i += len;
        } else {
            run += len;
            i += len;
        }
    }
    if (run)
        put(ctx, (const char *)s + i - run, run);
    put(ctx, "\"", 1);
}

static void put_file(void *ctx, const char *s, size_t n)
{
    fwrite(s, 1, n, (FILE *)ctx);
}

static void put_sb(void *ctx, const char *s, size_t n)
{
    sb_appendn((struct strbuf *)ctx, s, n);
}

void json_write_strn(FILE *out, const char *s, size_t n)
{
    escape(s ? s : "", s ? n : 0, put_file, out);
}

void json_write_str(FILE *out, const char *s)
{
    json_write_strn(out, s, s ? strlen(s) : 0);
}

void json_sb_strn(struct strbuf *sb, const char *s, size_t n)
{
    escape(s ? s : "", s ? n : 0, put_sb, sb);
}

void json_sb_str(struct strbuf *sb, const char *s)
{
    json_sb_strn(sb, s, s ? strlen(s) : 0);
}
