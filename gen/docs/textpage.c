/* Plain-text reader: text copied from the rendered page (any locale, possibly
 * damaged). Lines become blocks: the title, section words, the syntax block,
 * and one paragraph per line, with the blank-line gap kept for damaged pages. */
#include "readers.h"

#include "../util/diag.h"
#include "text.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

int docs_rendered_section(const char *t);

/* A C declaration line: "  UINT Size;", "typedef struct _X {", "} X;". */
static bool c_line(const char *s, size_t n)
{
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    while (n > 0 && (*s == ' ' || *s == '\t'))
        s++, n--;
    if (n == 0)
        return false;
    if (!strncmp(s, "typedef ", 8) || !strncmp(s, "struct ", 7) || !strncmp(s, "union ", 6) ||
        !strncmp(s, "enum ", 5) || s[0] == '{' || s[0] == '}')
        return true;
    if (s[n - 1] != ';' && s[n - 1] != ',' && s[n - 1] != '{')
        return false;
    /* no prose: at most a handful of words, no sentence punctuation inside */
    unsigned words = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '.' || s[i] == '?' || s[i] == '!' || (unsigned char)s[i] >= 0x80)
            return false;
        words += (i == 0 || s[i - 1] == ' ') && s[i] != ' ';
    }
    return words <= 6 && docs_is_ident_start((unsigned char)s[0]);
}

static char *trimmed(struct docs_page *p, const char *s, size_t n)
{
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    while (n > 0 && (*s == ' ' || *s == '\t'))
        s++, n--;
    return arena_strndup(&p->arena, s, n);
}

int docs_read_text(struct docs_page *p, const char *buf, size_t len)
{
    DOCS_VEC(struct docs_block) blocks = {0};
    struct docs_buf code = {0};
    unsigned line = 0, gap = 0, code_line = 0;
    bool in_syntax = false, titled = false;
    const char *s = buf, *end = buf + len;
    while (s < end) {
        const char *e = memchr(s, '\n', (size_t)(end - s));
        if (!e)
            e = end;
        size_t n = (size_t)(e - s);
        line++;
        const char *next = e < end ? e + 1 : end;
        char *t = trimmed(p, s, n);
        if (!*t) {
            gap++;
            if (code.len && in_syntax)
                docs_buf_putc(&code, '\n'); /* keep code lines at their page lines */
            s = next;
            continue;
        }
        int sec = titled ? docs_rendered_section(t) : -1;
        bool code_ish = c_line(s, n);
        if (code.len && (sec >= 0 || (!in_syntax && !code_ish))) {
            struct docs_block b = {DOCS_BLK_CODE, 0, arena_strndup(&p->arena, code.data, code.len),
                                   code_line, 0};
            DOCS_PUSH(blocks, b);
            docs_buf_reset(&code);
            in_syntax = false;
        }
        if (!titled) {
            struct docs_block b = {DOCS_BLK_HEADING, 1, t, line, gap};
            DOCS_PUSH(blocks, b);
            titled = true;
        } else if (sec >= 0) {
            struct docs_block b = {DOCS_BLK_HEADING, 2, t, line, gap};
            DOCS_PUSH(blocks, b);
            in_syntax = sec == 1; /* R_SYNTAX */
        } else if (in_syntax || code_ish) {
            if (!code.len)
                code_line = line;
            docs_buf_put(&code, s, n);
            docs_buf_putc(&code, '\n');
        } else {
            struct docs_block b = {DOCS_BLK_PARA, 0, t, line, gap};
            DOCS_PUSH(blocks, b);
        }
        gap = 0;
        s = next;
    }
    if (code.len) {
        struct docs_block b = {DOCS_BLK_CODE, 0, arena_strndup(&p->arena, code.data, code.len),
                               code_line, 0};
        DOCS_PUSH(blocks, b);
    }
    docs_buf_free(&code);
    if (!titled) {
        ddigen_error(p->path, 1, "empty page");
        free(blocks.v);
        return -1;
    }
    int rc = docs_read_blocks(p, blocks.v, blocks.n);
    free(blocks.v);
    return rc;
}
