/* See json_read.h. Recursive descent, depth bounded so that a hostile
 * document cannot exhaust the stack. */
#include "json_read.h"

#include "diag.h"
#include "strbuf.h"

#include <stdlib.h>
#include <string.h>

#define JSON_MAX_DEPTH 64

struct reader {
    struct arena *a;
    const char *file, *p, *end;
    unsigned line;
    int failed;
};

static void fail(struct reader *r, const char *what)
{
    if (!r->failed)
        ddigen_error(r->file, r->line, "invalid JSON: %s", what);
    r->failed = 1;
}

static void skip_space(struct reader *r)
{
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\r' || *r->p == '\n')) {
        if (*r->p == '\n')
            r->line++;
        r->p++;
    }
}

static int literal(struct reader *r, const char *word)
{
    size_t n = strlen(word);
    if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0)
        return 0;
    r->p += n;
    return 1;
}

static int hex4(struct reader *r, unsigned *out)
{
    if (r->end - r->p < 4)
        return -1;
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = r->p[i];
        v <<= 4;
        if (c >= '0' && c <= '9')
            v |= (unsigned)(c - '0');
        else if (c >= 'a' && c <= 'f')
            v |= (unsigned)(c - 'a' + 10);
        else if (c >= 'A' && c <= 'F')
            v |= (unsigned)(c - 'A' + 10);
        else
            return -1;
    }
    r->p += 4;
    *out = v;
    return 0;
}

static void put_utf8(struct strbuf *sb, unsigned cp)
{
    char b[4];
    size_t n;
    if (cp < 0x80)
        b[0] = (char)cp, n = 1;
    else if (cp < 0x800)
        b[0] = (char)(0xC0 | cp >> 6), b[1] = (char)(0x80 | (cp & 0x3F)), n = 2;
    else if (cp < 0x10000)
        b[0] = (char)(0xE0 | cp >> 12), b[1] = (char)(0x80 | (cp >> 6 & 0x3F)), b[2] = (char)(0x80 | (cp & 0x3F)), n = 3;
    else
        b[0] = (char)(0xF0 | cp >> 18), b[1] = (char)(0x80 | (cp >> 12 & 0x3F)),
        b[2] = (char)(0x80 | (cp >> 6 & 0x3F)), b[3] = (char)(0x80 | (cp & 0x3F)), n = 4;
    sb_appendn(sb, b, n);
}

/* A \u escape, with a surrogate pair read whole; a lone surrogate is U+FFFD. */
static int unicode_escape(struct reader *r, struct strbuf *sb)
{
    unsigned cp, lo;
    if (hex4(r, &cp) != 0)
        return -1;
    if (cp >= 0xD800 && cp < 0xDC00 && r->end - r->p >= 6 && r->p[0] == '\\' && r->p[1] == 'u') {
        r->p += 2;
        if (hex4(r, &lo) != 0)
            return -1;
        cp = lo >= 0xDC00 && lo < 0xE000 ? 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00) : 0xFFFD;
    } else if (cp >= 0xD800 && cp < 0xE000) {
        cp = 0xFFFD;
    }
    put_utf8(sb, cp);
    return 0;
}

static const char *read_string(struct reader *r)
{
    struct strbuf sb = {0};
    r->p++; /* the opening quote */
    sb_append(&sb, "");
    while (r->p < r->end && *r->p != '"') {
        unsigned char c = (unsigned char)*r->p;
        if (c < 0x20) {
            fail(r, "control character in a string");
            break;
        }
        if (c != '\\') {
            sb_appendn(&sb, r->p++, 1);
            continue;
        }
        if (++r->p >= r->end)
            break;
        char e = *r->p++;
        static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
        const char *k = strchr(from, e);
        if (e && k)
            sb_appendn(&sb, &to[k - from], 1);
        else if (e != 'u' || unicode_escape(r, &sb) != 0)
            fail(r, "bad escape in a string");
    }
    if (r->p >= r->end)
        fail(r, "unterminated string");
    r->p++;
    const char *s = arena_strdup(r->a, sb_str(&sb));
    sb_free(&sb);
    return s;
}

static struct json_value *read_value(struct reader *r, int depth);

/* The items of an array or the members of an object, up to close. */
static void read_members(struct reader *r, struct json_value *v, char close, int depth)
{
    struct vec items = {0}, keys = {0};
    r->p++;
    skip_space(r);
    if (r->p < r->end && *r->p == close) {
        r->p++;
    } else {
        while (!r->failed) {
            skip_space(r);
            if (close == '}') {
                if (r->p >= r->end || *r->p != '"') {
                    fail(r, "expected a member name");
                    break;
                }
                vec_push(&keys, (void *)read_string(r));
                skip_space(r);
                if (r->p >= r->end || *r->p++ != ':') {
                    fail(r, "expected ':' after a member name");
                    break;
                }
            }
            struct json_value *item = read_value(r, depth + 1);
            if (!item)
                break;
            vec_push(&items, item);
            skip_space(r);
            if (r->p < r->end && *r->p == ',') {
                r->p++;
                continue;
            }
            if (r->p < r->end && *r->p == close) {
                r->p++;
                break;
            }
            fail(r, close == '}' ? "expected ',' or '}'" : "expected ',' or ']'");
        }
    }
    v->len = items.len;
    v->items = arena_alloc(r->a, (items.len + 1) * sizeof *v->items);
    memcpy(v->items, items.items, items.len * sizeof *v->items);
    if (close == '}') {
        v->keys = arena_alloc(r->a, (keys.len + 1) * sizeof *v->keys);
        memcpy(v->keys, keys.items, keys.len * sizeof *v->keys);
    }
    vec_free(&items);
    vec_free(&keys);
}

static void read_number(struct reader *r, struct json_value *v)
{
    const char *start = r->p;
    while (r->p < r->end && strchr("+-0123456789.eE", *r->p))
        r->p++;
    char *text = arena_strndup(r->a, start, (size_t)(r->p - start)), *stop;
    v->number = strtod(text, &stop);
    v->str = text;
    if (stop == text || *stop)
        fail(r, "bad number");
}

static struct json_value *read_value(struct reader *r, int depth)
{
    skip_space(r);
    if (depth > JSON_MAX_DEPTH) {
        fail(r, "nested too deeply");
        return NULL;
    }
    if (r->p >= r->end) {
        fail(r, "unexpected end of the document");
        return NULL;
    }
    struct json_value *v = arena_alloc(r->a, sizeof *v);
    char c = *r->p;
    if (c == '{' || c == '[') {
        v->type = c == '{' ? JSON_OBJECT : JSON_ARRAY;
        read_members(r, v, c == '{' ? '}' : ']', depth);
    } else if (c == '"') {
        v->type = JSON_STRING;
        v->str = read_string(r);
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        v->type = JSON_NUMBER;
        read_number(r, v);
    } else if (literal(r, "true") || literal(r, "false")) {
        v->type = JSON_BOOL;
        v->boolean = r->p[-1] == 'e' && r->p[-2] == 'u';
    } else if (literal(r, "null")) {
        v->type = JSON_NULL;
    } else {
        fail(r, "expected a value");
    }
    return r->failed ? NULL : v;
}

struct json_value *json_parse(struct arena *a, const char *file, const char *text, size_t len)
{
    struct reader r = {a, file, text, text + len, 1, 0};
    struct json_value *v = read_value(&r, 0);
    skip_space(&r);
    if (v && r.p < r.end)
        fail(&r, "text after the document");
    return r.failed ? NULL : v;
}

const struct json_value *json_get(const struct json_value *obj, const char *key)
{
    if (!obj || obj->type != JSON_OBJECT)
        return NULL;
    for (size_t i = 0; i < obj->len; i++)
        if (!strcmp(obj->keys[i], key))
            return obj->items[i];
    return NULL;
}

const struct json_value *json_at(const struct json_value *arr, size_t i)
{
    return arr && arr->type == JSON_ARRAY && i < arr->len ? arr->items[i] : NULL;
}

const char *json_get_str(const struct json_value *obj, const char *key)
{
    const struct json_value *v = json_get(obj, key);
    return v && v->type == JSON_STRING ? v->str : NULL;
}

long json_get_long(const struct json_value *obj, const char *key, long def)
{
    const struct json_value *v = json_get(obj, key);
    return v && v->type == JSON_NUMBER ? (long)v->number : def;
}
