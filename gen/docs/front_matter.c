/* Front matter of docs-repository pages: a plain reader for the shape the
 * repository writes, libyaml for everything else (see front_matter.h). */
#include "front_matter.h"

#include "../util/diag.h"

#include <stdio.h>
#include <string.h>
#include <yaml.h>

/* ---- what the model keeps ------------------------------------------------ */

/* A value as both readers see it: a scalar, or a sequence of which only
 * the first and last scalar items matter (NULL for an item that is not a
 * scalar), or something else (a mapping), which no key uses. */
enum fm_kind { FM_SCALAR, FM_SEQUENCE, FM_OTHER };
struct fm_value {
    enum fm_kind kind;
    const char *s; /* FM_SCALAR: not NUL-terminated */
    size_t n;
    const char *first, *last; /* FM_SEQUENCE: arena strings */
};

static bool key_is(const char *key, size_t n, const char *name)
{
    return strlen(name) == n && !memcmp(key, name, n);
}

/* Keys whose sequence items are kept. */
static bool key_wants_items(const char *key, size_t n)
{
    return key_is(key, n, "api_name") || key_is(key, n, "api_location");
}

/* One "key: value" of the top mapping, in page order; line is the page's. */
static void fm_assign(struct fm_values *v, struct arena *a, const char *key, size_t kn, unsigned line,
                      const struct fm_value *val)
{
    const char *sv = val->kind == FM_SCALAR ? val->s : NULL;
    size_t n = val->n;
    if (key_is(key, kn, "UID") && sv) {
        v->uid = arena_strndup(a, sv, n);
    } else if (key_is(key, kn, "title") && sv) {
        v->title = arena_strndup(a, sv, n);
    } else if (key_is(key, kn, "description") && sv) {
        v->description = arena_strndup(a, sv, n), v->description_line = line;
    } else if (key_is(key, kn, "req.header") && sv && n) {
        v->header = arena_strndup(a, sv, n);
    } else if (key_is(key, kn, "req.irql") && sv && n) {
        v->irql = arena_strndup(a, sv, n);
    } else if (key_is(key, kn, "req.typenames") && sv && n) {
        v->typenames = arena_strndup(a, sv, n);
    } else if (key_is(key, kn, "req.target-min-winverclnt") && sv && n) {
        v->client = arena_strndup(a, sv, n), v->avail_line = line;
    } else if (key_is(key, kn, "req.target-min-winversvr") && sv && n) {
        v->server = arena_strndup(a, sv, n);
        if (!v->avail_line)
            v->avail_line = line;
    } else if (key_is(key, kn, "api_name")) {
        v->api_last = val->kind == FM_SEQUENCE ? val->last : NULL;
    } else if (key_is(key, kn, "api_location") && !v->header) {
        v->header = val->kind == FM_SEQUENCE ? val->first : NULL;
    }
}

/* ---- the plain reader ---------------------------------------------------- */

/* The shape, line by line (anything else declines, and libyaml decides):
 *   key: plain scalar | "quoted" | ["quoted", ...] | (nothing)
 *   - plain scalar | "quoted"      items of a sequence under "key:", all at
 *                                  the indentation of the first item
 *   (blank)
 * Keys are [A-Za-z0-9_][A-Za-z0-9_.-]* at column 0. Text is what
 * text_char allows: no tab, CR, control, break or malformed UTF-8. A plain scalar
 * is one line that does not start with an indicator and has no ": ",
 * " #" or final ':'; a quoted one has no '\' or '"' inside. Within these
 * rules YAML gives a scalar its text with the spaces around it removed,
 * which is what this reader gives. */

struct fm_line {
    const char *s; /* without the '\n' */
    size_t n;
};

/* Length of the character at s[i] (i < n) if it is one YAML prints inside
 * a scalar and never reads as a break or a BOM, else 0: printable ASCII, and
 * well-formed UTF-8 from U+00A0 to U+FFFD without U+2028, U+2029 (line and
 * paragraph separators), U+FEFF, U+FFFE, U+FFFF, surrogates, NEL (U+0085)
 * and the four-byte forms libyaml does not count as printable. Pages have
 * no-break spaces ("Windows\u00a010") and typographic quotes. */
static size_t text_char(const char *str, size_t n, size_t i)
{
    const unsigned char *s = (const unsigned char *)str + i;
    size_t left = n - i;
    if (s[0] >= 0x20 && s[0] < 0x7f)
        return 1;
    if (s[0] < 0xc2 || s[0] > 0xef || left < 2 || (s[1] & 0xc0) != 0x80)
        return 0;
    if (s[0] < 0xe0)
        return s[0] == 0xc2 && s[1] < 0xa0 ? 0 : 2;
    if (left < 3 || (s[2] & 0xc0) != 0x80)
        return 0;
    if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] >= 0xa0))
        return 0; /* overlong, surrogate */
    if (s[0] == 0xe2 && s[1] == 0x80 && (s[2] == 0xa8 || s[2] == 0xa9))
        return 0;
    if (s[0] == 0xef && ((s[1] == 0xbb && s[2] == 0xbf) || (s[1] == 0xbf && s[2] >= 0xbe)))
        return 0;
    return 3;
}

static bool key_char(unsigned char c, bool first)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           (!first && (c == '.' || c == '-'));
}

static size_t trim_end(const char *s, size_t n)
{
    while (n && s[n - 1] == ' ')
        n--;
    return n;
}

/* A whole one-line plain scalar s[0..n) (n > 0, no trailing space). */
static bool plain_scalar(const char *s, size_t n)
{
    if (strchr("-?:,[]{}#&*!|>'\"%@`", s[0]))
        return false;
    for (size_t i = 0, c; i < n; i += c) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == ':' && (i + 1 == n || s[i + 1] == ' '))
            return false;
        if (ch == '#' && s[i - 1] == ' ') /* i > 0: s[0] is not '#' */
            return false;
        c = ch >= 0x20 && ch < 0x7f ? 1 : text_char(s, n, i);
        if (!c)
            return false;
    }
    return true;
}

/* "text" at s (s[0] == '"'): the length of the quoted part, 0 if not simple. */
static size_t quoted_scalar(const char *s, size_t n)
{
    for (size_t i = 1, c; i < n; i += c) {
        if (s[i] == '"')
            return i + 1;
        if (s[i] == '\\' || !(c = text_char(s, n, i)))
            return 0;
    }
    return 0;
}

/* A scalar that is the whole of s[0..n) (trailing spaces removed); out is
 * its text. */
static bool whole_scalar(const char *s, size_t n, struct fm_value *out)
{
    out->kind = FM_SCALAR;
    if (n && s[0] == '"') {
        size_t q = quoted_scalar(s, n);
        if (q != n)
            return false;
        out->s = s + 1, out->n = q - 2;
        return true;
    }
    if (!n || !plain_scalar(s, n))
        return false;
    out->s = s, out->n = n;
    return true;
}

/* ["a", "b"] on one line: first and last items into the arena when keep. */
static bool flow_sequence(const char *s, size_t n, struct arena *a, bool keep, struct fm_value *out)
{
    out->kind = FM_SEQUENCE;
    out->first = out->last = NULL;
    size_t i = 1; /* past '[' */
    bool any = false;
    for (;;) {
        while (i < n && s[i] == ' ')
            i++;
        if (i < n && s[i] == ']' && !any)
            break;
        size_t q = i < n && s[i] == '"' ? quoted_scalar(s + i, n - i) : 0;
        if (!q)
            return false;
        if (keep) {
            out->last = arena_strndup(a, s + i + 1, q - 2);
            if (!any)
                out->first = out->last;
        }
        any = true;
        i += q;
        while (i < n && s[i] == ' ')
            i++;
        if (i < n && s[i] == ']')
            break;
        if (i >= n || s[i] != ',')
            return false;
        i++;
    }
    return trim_end(s + i + 1, n - i - 1) == 0;
}

/* Items "<indent>- scalar" from line *at on, while they last; out gets the
 * sequence and *at the line after the last item (unchanged when there is
 * none). False when an item line breaks the shape. */
static bool block_sequence(const struct fm_line *lines, size_t nlines, size_t *at, struct arena *a, bool keep,
                           struct fm_value *out)
{
    out->kind = FM_SEQUENCE;
    out->first = out->last = NULL;
    size_t indent = (size_t)-1, after = *at;
    for (size_t i = *at; i < nlines; i++) {
        const char *s = lines[i].s;
        size_t n = trim_end(s, lines[i].n), d = 0;
        if (!n)
            continue; /* blank lines may sit between items */
        while (d < n && s[d] == ' ')
            d++;
        if (s[d] != '-')
            break;
        if (indent == (size_t)-1)
            indent = d;
        struct fm_value item;
        if (d != indent || d + 1 >= n || s[d + 1] != ' ')
            return false;
        size_t b = d + 2;
        while (b < n && s[b] == ' ')
            b++;
        if (!whole_scalar(s + b, n - b, &item))
            return false;
        if (keep) {
            out->last = arena_strndup(a, item.s, item.n);
            if (after == *at)
                out->first = out->last;
        }
        after = i + 1;
    }
    *at = after;
    return true;
}

/* The lines of fm; at most cap, false when there are more. */
static bool split_lines(const char *fm, size_t len, struct fm_line *lines, size_t cap, size_t *count)
{
    size_t n = 0;
    for (const char *s = fm, *end = fm + len; s < end;) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *e = nl ? nl : end;
        if (n == cap)
            return false;
        lines[n].s = s, lines[n].n = (size_t)(e - s);
        n++;
        s = nl ? nl + 1 : end;
    }
    *count = n;
    return true;
}

/* Pages have about 40 lines of front matter and keys of 30 characters;
 * longer ones go to libyaml (which limits a key to 1024). */
#define FM_PLAIN_MAX_LINES 512
#define FM_PLAIN_MAX_KEY 128

bool fm_read_plain(const char *fm, size_t len, struct arena *a, struct fm_values *v)
{
    struct fm_line lines[FM_PLAIN_MAX_LINES];
    size_t nlines, entries = 0;
    if (!split_lines(fm, len, lines, FM_PLAIN_MAX_LINES, &nlines))
        return false;
    for (size_t i = 0; i < nlines;) {
        const char *s = lines[i].s;
        size_t n = trim_end(s, lines[i].n), k = 0;
        if (!n) {
            i++;
            continue;
        }
        while (k < n && key_char((unsigned char)s[k], k == 0))
            k++;
        if (!k || k > FM_PLAIN_MAX_KEY || k >= n || s[k] != ':' || (k + 1 < n && s[k + 1] != ' '))
            return false;
        size_t b = k + 1;
        while (b < n && s[b] == ' ')
            b++;
        unsigned line = (unsigned)i + 2;
        bool keep = key_wants_items(s, k);
        struct fm_value val;
        i++;
        if (b == n) { /* nothing after the colon: a sequence follows, or "" */
            size_t at = i;
            if (!block_sequence(lines, nlines, &at, a, keep, &val))
                return false;
            if (at == i)
                val.kind = FM_SCALAR, val.s = s + n, val.n = 0;
            i = at;
        } else if (s[b] == '[') {
            if (!flow_sequence(s + b, n - b, a, keep, &val))
                return false;
        } else if (!whole_scalar(s + b, n - b, &val)) {
            return false;
        }
        fm_assign(v, a, s, k, line, &val);
        entries++;
    }
    return entries > 0;
}

/* ---- libyaml ------------------------------------------------------------- */

/* libyaml's event API: the keys the model needs are read as the parser
 * goes; no document tree is built (yaml_parser_load cost as much as the
 * markdown parse of the page). */

/* Skips the rest of a node whose start event was ev; false on error. */
static bool fm_skip(yaml_parser_t *parser, const yaml_event_t *ev)
{
    if (ev->type != YAML_SEQUENCE_START_EVENT && ev->type != YAML_MAPPING_START_EVENT)
        return true;
    int depth = 1;
    while (depth > 0) {
        yaml_event_t e;
        if (!yaml_parser_parse(parser, &e))
            return false;
        if (e.type == YAML_SEQUENCE_START_EVENT || e.type == YAML_MAPPING_START_EVENT)
            depth++;
        else if (e.type == YAML_SEQUENCE_END_EVENT || e.type == YAML_MAPPING_END_EVENT)
            depth--;
        yaml_event_delete(&e);
    }
    return true;
}

/* A sequence value (start event consumed): its first and last items as
 * arena strings (NULL for an item that is not a scalar). */
static bool fm_sequence(yaml_parser_t *parser, struct arena *a, struct fm_value *out)
{
    out->kind = FM_SEQUENCE;
    out->first = out->last = NULL;
    for (bool any = false;; any = true) {
        yaml_event_t it;
        if (!yaml_parser_parse(parser, &it))
            return false;
        if (it.type == YAML_SEQUENCE_END_EVENT) {
            yaml_event_delete(&it);
            return true;
        }
        const char *copy =
            it.type == YAML_SCALAR_EVENT ? arena_strdup(a, (const char *)it.data.scalar.value) : NULL;
        if (!any)
            out->first = copy;
        out->last = copy;
        bool ok = fm_skip(parser, &it);
        yaml_event_delete(&it);
        if (!ok)
            return false;
    }
}

/* One "key: value" of the top mapping (key event consumed). */
static bool fm_pair(yaml_parser_t *parser, struct arena *a, const yaml_event_t *k, struct fm_values *v)
{
    const char *key = k->type == YAML_SCALAR_EVENT ? (const char *)k->data.scalar.value : NULL;
    unsigned line = (unsigned)k->start_mark.line + 2;
    if (!key && !fm_skip(parser, k))
        return false;
    yaml_event_t ev;
    if (!yaml_parser_parse(parser, &ev))
        return false;
    struct fm_value val = {.kind = FM_OTHER};
    bool ok = true, consumed = false;
    if (ev.type == YAML_SCALAR_EVENT) {
        val.kind = FM_SCALAR;
        val.s = (const char *)ev.data.scalar.value, val.n = strlen(val.s); /* to the first NUL, as before */
    } else if (ev.type == YAML_SEQUENCE_START_EVENT && key && key_wants_items(key, strlen(key))) {
        ok = fm_sequence(parser, a, &val);
        consumed = true; /* the event keeps its type: yaml_event_delete frees its anchor and tag */
    } else if (ev.type == YAML_SEQUENCE_START_EVENT) {
        val.kind = FM_SEQUENCE;
    }
    if (key && ok)
        fm_assign(v, a, key, strlen(key), line, &val);
    if (ok && !consumed)
        ok = fm_skip(parser, &ev);
    yaml_event_delete(&ev);
    return ok;
}

/* Parses to the end of the first document; false on a YAML error. */
static bool fm_rest(yaml_parser_t *parser)
{
    for (;;) {
        yaml_event_t ev;
        if (!yaml_parser_parse(parser, &ev))
            return false;
        yaml_event_type_t t = ev.type;
        yaml_event_delete(&ev);
        if (t == YAML_DOCUMENT_END_EVENT || t == YAML_STREAM_END_EVENT)
            return true;
    }
}

/* The root mapping's pairs (its start event consumed). */
static bool fm_mapping(yaml_parser_t *parser, struct arena *a, struct fm_values *v)
{
    for (;;) {
        yaml_event_t k;
        if (!yaml_parser_parse(parser, &k))
            return false;
        bool end = k.type == YAML_MAPPING_END_EVENT;
        bool ok = end || fm_pair(parser, a, &k, v);
        yaml_event_delete(&k);
        if (end || !ok)
            return ok;
    }
}

int fm_read_yaml(const char *fm, size_t len, struct arena *a, struct fm_values *v, unsigned *err_line,
                 char *err, size_t err_size)
{
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser)) {
        *err_line = 2;
        snprintf(err, err_size, "out of memory");
        return -1;
    }
    yaml_parser_set_input_string(&parser, (const unsigned char *)fm, len);
    bool ok, mapping = false;
    yaml_event_t ev;
    ok = yaml_parser_parse(&parser, &ev); /* STREAM-START */
    if (ok) {
        yaml_event_delete(&ev);
        ok = yaml_parser_parse(&parser, &ev); /* DOCUMENT-START, or STREAM-END when empty */
    }
    if (ok && ev.type == YAML_DOCUMENT_START_EVENT) {
        yaml_event_delete(&ev);
        ok = yaml_parser_parse(&parser, &ev); /* the root node */
        if (ok && ev.type == YAML_MAPPING_START_EVENT) {
            mapping = true;
            ok = fm_mapping(&parser, a, v);
        } else if (ok) {
            ok = fm_skip(&parser, &ev);
        }
        yaml_event_delete(&ev); /* zeroed by libyaml when parsing failed */
        ok = ok && fm_rest(&parser);
    } else {
        yaml_event_delete(&ev);
    }
    if (!ok) {
        *err_line = (unsigned)parser.problem_mark.line + 2;
        snprintf(err, err_size, "%s", parser.problem ? parser.problem : "invalid YAML");
    }
    yaml_parser_delete(&parser);
    return !ok ? -1 : mapping ? 0 : -2;
}

/* ---- the page ------------------------------------------------------------ */

/* libyaml's cost grows with the square of flow nesting (100 KB of '['
 * took minutes), so nesting is bounded before libyaml sees the text;
 * pages use one level. */
#define FM_MAX_FLOW_DEPTH 64

/* Line (from 1) where YAML flow collections nest past the bound, or 0. */
static unsigned flow_too_deep(const char *s, size_t len)
{
    unsigned depth = 0, line = 1;
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\n')
            line++;
        else if (s[i] == '[' || s[i] == '{') {
            if (++depth > FM_MAX_FLOW_DEPTH)
                return line;
        } else if ((s[i] == ']' || s[i] == '}') && depth)
            depth--;
    }
    return 0;
}

/* Values are staged and only reach the page once the whole front matter
 * was read, so invalid YAML leaves the page as before. */
void docs_read_front_matter(struct docs_page *p, const char *fm, size_t len)
{
    struct fm_values v = {0};
    if (!fm_read_plain(fm, len, &p->arena, &v)) {
        unsigned deep = flow_too_deep(fm, len);
        if (deep) {
            ddigen_error(p->path, deep + 1, "front matter: [ or { nested more than %d levels deep; not read",
                         FM_MAX_FLOW_DEPTH);
            return;
        }
        memset(&v, 0, sizeof v);
        char err[256];
        unsigned line = 0;
        int rc = fm_read_yaml(fm, len, &p->arena, &v, &line, err, sizeof err);
        if (rc == -1) {
            ddigen_error(p->path, line, "front matter: %s", err);
            return;
        }
        if (rc == -2) {
            ddigen_error(p->path, 2, "front matter is not a mapping of keys");
            return;
        }
    }
    p->uid = v.uid;
    p->title = v.title;
    p->description = v.description;
    p->description_line = v.description_line;
    p->header = v.header;
    p->irql = v.irql;
    p->avail.client = v.client;
    p->avail.server = v.server;
    p->avail.line = v.avail_line;
    if (v.typenames) {
        size_t n = strcspn(v.typenames, " ,;*");
        if (n && !p->name)
            p->name = arena_strndup(&p->arena, v.typenames, n);
    }
    if (!p->name && v.api_last)
        p->name = v.api_last;
}
