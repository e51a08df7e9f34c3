/* Input repair and the small pieces of text knowledge every reader needs:
 * direction markers, sentence boundaries, and the Windows-release to
 * DXGKDDI_INTERFACE_VERSION table. */
#include "text.h"

#include "../util/diag.h"
#include "../util/utf8.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cp1252 code points for bytes 0x80..0x9F (0 = undefined, kept as C1). */
static const uint16_t cp1252_high[32] = {
    0x20AC, 0,      0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
    0x2039, 0x0152, 0,      0x017D, 0,      0,      0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
    0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0,      0x017E, 0x0178,
};

/* The byte a mojibake character stands for, or -1. */
static int cp1252_byte(uint32_t cp)
{
    if (cp >= 0x80 && cp <= 0xFF)
        return (cp >= 0xA0 || cp1252_high[cp - 0x80] == 0) ? (int)cp : -1;
    for (int i = 0; i < 32; i++) {
        if (cp1252_high[i] && cp1252_high[i] == cp)
            return 0x80 + i;
    }
    return -1;
}

/* At s (a decoded Latin-1 lead char), try to undo a UTF-8 -> cp1252 -> UTF-8
 * double encoding. Returns source bytes consumed and the repaired bytes. */
static size_t try_mojibake(const unsigned char *s, size_t n, unsigned char out[4], size_t *out_n)
{
    uint32_t lead;
    size_t used = utf8_decode(s, n, &lead);
    if (!used || lead < 0xC2 || lead > 0xF4)
        return 0;
    size_t need = lead < 0xE0 ? 1 : lead < 0xF0 ? 2 : 3;
    out[0] = (unsigned char)lead;
    for (size_t i = 1; i <= need; i++) {
        uint32_t cp;
        size_t k = used < n ? utf8_decode(s + used, n - used, &cp) : 0;
        if (!k)
            return 0;
        int b = cp1252_byte(cp);
        if (b < 0x80 || b > 0xBF)
            return 0;
        out[i] = (unsigned char)b;
        used += k;
    }
    uint32_t check;
    if (utf8_decode(out, need + 1, &check) != need + 1)
        return 0;
    *out_n = need + 1;
    return used;
}

/* End of the run of ASCII bytes other than CR and LF that starts at i: eight
 * bytes at a time (a word has such a byte when its high bit is set or a
 * byte XOR '\r' / '\n' is zero), then bytewise. Pages are mostly ASCII
 * lines of 80 characters; bytewise this loop was 5 % of `ddigen docs`. */
static size_t ascii_run(const unsigned char *s, size_t i, size_t len)
{
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    while (i + 8 <= len) {
        uint64_t x, cr, lf;
        memcpy(&x, s + i, 8);
        cr = x ^ (ones * '\r');
        lf = x ^ (ones * '\n');
        if ((x | ((cr - ones) & ~cr) | ((lf - ones) & ~lf)) & highs)
            break;
        i += 8;
    }
    while (i < len && s[i] < 0x80 && s[i] != '\r' && s[i] != '\n')
        i++;
    return i;
}

char *docs_clean_input(struct docs_page *page, const char *raw, size_t len, size_t *out_len)
{
    const unsigned char *s = (const unsigned char *)raw;
    size_t nul = 0, ctrl = 0;
    size_t probe = len < 65536 ? len : 65536;
    for (size_t i = 0; i < probe;) {
        /* eight bytes at a time while none is below 0x20 */
        if (i + 8 <= probe) {
            uint64_t x;
            memcpy(&x, s + i, 8);
            if (!((x - 0x2020202020202020ull) & ~x & 0x8080808080808080ull)) {
                i += 8;
                continue;
            }
        }
        nul += s[i] == 0;
        ctrl += s[i] < 0x20 && s[i] != '\n' && s[i] != '\r' && s[i] != '\t' && s[i] != '\f';
        i++;
    }
    if (nul || (len && ctrl * 20 > (len < 65536 ? len : 65536))) {
        ddigen_error(page->path, 1, "binary data, not a reference page (%s)",
                     nul ? "NUL bytes" : "control characters");
        return NULL;
    }
    struct docs_buf b = {0};
    b.cap = len + len / 8 + 16;
    b.data = docs_xrealloc(NULL, b.cap);
    unsigned line = 1, bad_lines = 0, long_reported = 0;
    size_t line_start = 0;
    for (size_t i = 0; i < len;) {
        unsigned char c = s[i];
        size_t this_len = i - line_start;
        if (c == '\r') {
            docs_buf_putc(&b, '\n');
            i += (i + 1 < len && s[i + 1] == '\n') ? 2 : 1;
        } else if (c == '\n') {
            docs_buf_putc(&b, '\n');
            i++;
        } else if (c < 0x80) {
            size_t j = ascii_run(s, i, len);
            if (j + 1 < len && s[j] == '\r' && s[j + 1] == '\n' && j - line_start <= DOCS_LONG_LINE) {
                /* the common CRLF line end, with the line */
                docs_buf_put(&b, raw + i, j - i);
                docs_buf_putc(&b, '\n');
                i = j + 2;
                line++;
                line_start = i;
                continue;
            }
            docs_buf_put(&b, raw + i, j - i);
            i = j;
            continue;
        } else {
            unsigned char fix[4];
            size_t fix_n;
            size_t used = try_mojibake(s + i, len - i, fix, &fix_n);
            uint32_t cp;
            if (used) {
                if (page->repaired_mojibake++ == 0)
                    docs_page_note(page, line, false, "repaired mojibake (UTF-8 read as cp1252)");
                if (fix_n == 2 && fix[0] == 0xC2 && fix[1] == 0xA0)
                    docs_buf_putc(&b, ' ');
                else
                    docs_buf_put(&b, (const char *)fix, fix_n);
                i += used;
            } else if ((used = utf8_decode(s + i, len - i, &cp)) != 0) {
                if (cp == 0xA0)
                    docs_buf_putc(&b, ' ');
                else
                    docs_buf_put(&b, raw + i, used);
                i += used;
            } else {
                if (bad_lines++ < 3)
                    ddigen_error(page->path, line, "invalid UTF-8 byte 0x%02x", c);
                docs_buf_puts(&b, "\xEF\xBF\xBD");
                i++;
            }
            continue;
        }
        if (this_len > DOCS_LONG_LINE && long_reported++ < 3)
            docs_page_note(page, line, true, "line is %zu bytes long", this_len);
        line++;
        line_start = i;
    }
    if (len - line_start > DOCS_LONG_LINE && long_reported++ < 3)
        docs_page_note(page, line, true, "line is %zu bytes long", len - line_start);
    if (bad_lines > 3)
        ddigen_error(page->path, 0, "%u more lines with invalid UTF-8", bad_lines - 3);
    if (!b.data) {
        b.data = docs_xrealloc(NULL, 1);
        b.data[0] = '\0';
    }
    *out_len = b.len;
    return b.data;
}

bool docs_parse_direction(const char *s, size_t n, enum docs_dir *dir, bool *optional)
{
    bool in = false, out = false, opt = false, any = false;
    size_t i = 0;
    while (i < n) {
        while (i < n && (s[i] == ' ' || s[i] == ',' || s[i] == '/' || s[i] == '|' || s[i] == '-'))
            i++;
        size_t j = i;
        while (j < n && (isalpha((unsigned char)s[j]) || s[j] == '_'))
            j++;
        if (j == i) {
            if (i < n)
                return false;
            break;
        }
        char w[16];
        size_t wl = j - i < sizeof w - 1 ? j - i : sizeof w - 1;
        for (size_t k = 0; k < wl; k++)
            w[k] = (char)tolower((unsigned char)s[i + k]);
        w[wl] = '\0';
        if (!strcmp(w, "in") || !strcmp(w, "_in_"))
            in = true;
        else if (!strcmp(w, "out") || !strcmp(w, "_out_"))
            out = true;
        else if (!strcmp(w, "inout") || !strcmp(w, "_inout_"))
            in = out = true;
        else if (!strcmp(w, "opt") || !strcmp(w, "optional"))
            opt = true;
        else
            return false;
        any = true;
        i = j;
    }
    if (!any || (!in && !out))
        return false;
    *dir = in && out ? DOCS_DIR_INOUT : in ? DOCS_DIR_IN : DOCS_DIR_OUT;
    *optional = opt;
    return true;
}

/* Windows releases in the order DXGKDDI_INTERFACE_VERSION grew. The first
 * WDDM version that shipped with the release is what "starting with" means. */
struct version_map {
    const char *needle; /* matched case-insensitively, longest first */
    const char *wddm;
};
static const struct version_map windows_versions[] = {
    {"windows 11, version 24h2", "3.2"},
    {"windows 11, version 23h2", "3.1"},
    {"windows 11, version 22h2", "3.1"},
    {"windows 11, version 21h2", "3.0"},
    {"windows 11", "3.0"},
    {"windows server 2025", "3.2"},
    {"windows server 2022", "2.9"},
    {"windows server 2019", "2.5"},
    {"windows server 2016", "2.1"},
    {"windows server 2012 r2", "1.3"},
    {"windows server 2012", "1.2"},
    {"windows server 2008 r2", "1.1"},
    {"windows server 2008", "1.0"},
    {"windows 10, version 22h2", "2.7"},
    {"windows 10, version 21h2", "2.7"},
    {"windows 10, version 21h1", "2.7"},
    {"windows 10, version 20h2", "2.7"},
    {"windows 10, version 2004", "2.7"},
    {"windows 10, version 1909", "2.6"},
    {"windows 10, version 1903", "2.6"},
    {"windows 10, version 1809", "2.5"},
    {"windows 10, version 1803", "2.4"},
    {"windows 10, version 1709", "2.3"},
    {"windows 10, version 1703", "2.2"},
    {"windows 10, version 1607", "2.1"},
    {"windows 10, version 1511", "2.0"},
    {"windows 10, version 1507", "2.0"},
    {"windows 10", "2.0"},
    {"windows 8.1", "1.3"},
    {"windows 8", "1.2"},
    {"windows 7", "1.1"},
    {"windows vista", "1.0"},
};

static const struct {
    const char *wddm, *ddi;
} ddi_names[] = {
    {"1.0", "DXGKDDI_INTERFACE_VERSION_VISTA"},   {"1.1", "DXGKDDI_INTERFACE_VERSION_WIN7"},
    {"1.2", "DXGKDDI_INTERFACE_VERSION_WIN8"},    {"1.3", "DXGKDDI_INTERFACE_VERSION_WDDM1_3"},
    {"2.0", "DXGKDDI_INTERFACE_VERSION_WDDM2_0"}, {"2.1", "DXGKDDI_INTERFACE_VERSION_WDDM2_1"},
    {"2.2", "DXGKDDI_INTERFACE_VERSION_WDDM2_2"}, {"2.3", "DXGKDDI_INTERFACE_VERSION_WDDM2_3"},
    {"2.4", "DXGKDDI_INTERFACE_VERSION_WDDM2_4"}, {"2.5", "DXGKDDI_INTERFACE_VERSION_WDDM2_5"},
    {"2.6", "DXGKDDI_INTERFACE_VERSION_WDDM2_6"}, {"2.7", "DXGKDDI_INTERFACE_VERSION_WDDM2_7"},
    {"2.8", "DXGKDDI_INTERFACE_VERSION_WDDM2_8"}, {"2.9", "DXGKDDI_INTERFACE_VERSION_WDDM2_9"},
    {"3.0", "DXGKDDI_INTERFACE_VERSION_WDDM3_0"}, {"3.1", "DXGKDDI_INTERFACE_VERSION_WDDM3_1"},
    {"3.2", "DXGKDDI_INTERFACE_VERSION_WDDM3_2"},
};

/* Index into ddi_names, or -1. */
static int ddi_index(const char *wddm)
{
    for (size_t i = 0; i < sizeof ddi_names / sizeof ddi_names[0]; i++) {
        if (!strcmp(ddi_names[i].wddm, wddm))
            return (int)i;
    }
    return -1;
}

const char *docs_memcasestr(const char *hay, size_t n, const char *needle)
{
    size_t m = strlen(needle);
    if (m == 0)
        return hay;
    int first = tolower((unsigned char)needle[0]);
    for (size_t i = 0; i + m <= n; i++) {
        if (tolower((unsigned char)hay[i]) != first)
            continue;
        if (strncasecmp(hay + i, needle, m) == 0)
            return hay + i;
    }
    return NULL;
}

/* "WDDM 2.2", "WDDM2.1", "WDDM v2", "WDDMv1" -> index into ddi_names. */
static int find_wddm(const char *text)
{
    for (const char *p = text; (p = docs_memcasestr(p, strlen(p), "wddm")) != NULL; p += 4) {
        const char *q = p + 4;
        while (*q == ' ' || *q == 'v' || *q == 'V')
            q++;
        if (!isdigit((unsigned char)q[0]))
            continue;
        char buf[4] = {q[0], '.', '0', '\0'};
        if (q[1] == '.' && isdigit((unsigned char)q[2]))
            buf[2] = q[2];
        int i = ddi_index(buf);
        if (i >= 0)
            return i;
    }
    return -1;
}

bool docs_normalize_version(const char *text, const char **wddm, const char **ddi,
                            const char **basis)
{
    if (!text || !*text)
        return false;
    /* An explicit WDDM version wins over the Windows release it came with. */
    int w = find_wddm(text);
    if (w >= 0) {
        *wddm = ddi_names[w].wddm;
        *ddi = ddi_names[w].ddi;
        *basis = "wddm";
        return true;
    }
    /* "Windows 10, version 1703" may be written "Windows 10 version 1703". */
    char norm[256];
    size_t n = 0;
    for (const char *p = text; *p && n < sizeof norm - 2; p++) {
        if (*p == ' ' && n && norm[n - 1] == ' ')
            continue;
        if (*p == ' ' && n >= 2 && norm[n - 2] == '1' && norm[n - 1] == '0' &&
            strncasecmp(p, " version", 8) == 0)
            norm[n++] = ',';
        norm[n++] = *p;
    }
    norm[n] = '\0';
    for (size_t i = 0; i < sizeof windows_versions / sizeof windows_versions[0]; i++) {
        const char *hit = docs_memcasestr(norm, n, windows_versions[i].needle);
        if (!hit)
            continue;
        /* "Windows 8" must not match "Windows 8.1", nor "Windows 10" "Windows 100". */
        size_t m = strlen(windows_versions[i].needle);
        if ((hit[m] == '.' && isdigit((unsigned char)hit[m + 1])) || isdigit((unsigned char)hit[m]))
            continue;
        int k = ddi_index(windows_versions[i].wddm);
        *wddm = ddi_names[k].wddm;
        *ddi = ddi_names[k].ddi;
        *basis = windows_versions[i].needle;
        return true;
    }
    return false;
}

int docs_wddm_cmp(const char *a, const char *b)
{
    double x = strtod(a, NULL), y = strtod(b, NULL);
    return x < y ? -1 : x > y;
}

bool docs_is_ident_start(int c) { return isalpha(c) || c == '_'; }
bool docs_is_ident_char(int c) { return isalnum(c) || c == '_'; }

bool docs_has_cjk(const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    for (size_t i = 0; i + 2 < n; i++) {
        /* U+4E00..U+9FFF encode as E4 B8 80 .. E9 BF BF */
        if (u[i] >= 0xE4 && u[i] <= 0xE9 && (u[i + 1] & 0xC0) == 0x80)
            return true;
    }
    return false;
}

char *docs_squash(struct arena *a, const char *s, size_t n)
{
    char *d = arena_alloc_raw(a, n + 1);
    size_t k = 0;
    bool space = false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            space = k > 0;
            continue;
        }
        if (space)
            d[k++] = ' ';
        space = false;
        d[k++] = (char)c;
    }
    d[k] = '\0';
    return d;
}

static bool is_abbrev_before(const char *text, size_t dot)
{
    static const char *const abbrevs[] = {"e.g", "i.e", "etc", "vs", "approx", "Ver", "No", "cf"};
    for (size_t i = 0; i < sizeof abbrevs / sizeof abbrevs[0]; i++) {
        size_t m = strlen(abbrevs[i]);
        if (dot >= m && strncasecmp(text + dot - m, abbrevs[i], m) == 0 &&
            (dot == m || !isalnum((unsigned char)text[dot - m - 1])))
            return true;
    }
    return false;
}

void docs_split_sentences(const char *text, docs_sentence_fn fn, void *ctx)
{
    size_t start = 0, counted = 0;
    unsigned nl = 0;
    for (size_t i = 0;; i++) {
        unsigned char c = (unsigned char)text[i];
        size_t stop = 0;
        if (c == '\0') {
            stop = i;
        } else if (c == '.' || c == '!' || c == '?') {
            char n = text[i + 1];
            if ((n == ' ' || n == '\n' || n == '\0') && !is_abbrev_before(text, i))
                stop = i + 1;
        } else if (c == 0xE3 && (unsigned char)text[i + 1] == 0x80 &&
                   (unsigned char)text[i + 2] == 0x82) { /* U+3002 ideographic full stop */
            stop = i + 3;
        } else if (c == 0xEF && (unsigned char)text[i + 1] == 0xBC &&
                   ((unsigned char)text[i + 2] == 0x81 || (unsigned char)text[i + 2] == 0x9F)) {
            stop = i + 3; /* fullwidth ! and ? */
        }
        if (!stop && c != '\0')
            continue;
        while (start < stop && (text[start] == ' ' || text[start] == '\n'))
            start++;
        for (; counted < start; counted++)
            nl += text[counted] == '\n';
        if (stop > start)
            fn(ctx, text + start, stop - start, nl);
        if (c == '\0')
            return;
        start = stop;
        i = stop - 1;
    }
}
