/* JSON string escaping; see json.h. */
#include "json.h"

#include "strbuf.h"
#include "utf8.h"

#include <stdint.h>
#include <string.h>

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
            uint32_t cp;
            len = utf8_decode(s + i, n - i, &cp);
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
