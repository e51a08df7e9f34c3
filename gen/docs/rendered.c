/* What the readers share: field-name and title parsing, page completion, and
 * the interpreter for rendered pages (plain-text copies and saved HTML), which
 * both arrive here as a list of blocks. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "readers.h"

#include "../util/diag.h"
#include "rules.h"
#include "text.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- names and titles ---------------------------------------------------- */

static void replace_all(char *s, const char *from, const char *to)
{
    size_t fl = strlen(from), tl = strlen(to);
    for (char *h = strstr(s, from); h; h = strstr(h + tl, from)) {
        memmove(h + tl, h + fl, strlen(h + fl) + 1);
        memcpy(h, to, tl);
    }
}

void docs_parse_field_name(struct docs_page *p, const char *text, size_t n, struct docs_field *f)
{
    char *s = arena_alloc_raw(&p->arena, n + 32);
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        if (text[i] == '*' || text[i] == '`' || text[i] == '\\')
            continue;
        s[k++] = text[i];
    }
    s[k] = '\0';
    /* Localized pages: ideographic full stop and the translated "(unnamed union)". */
    replace_all(s, "\xE3\x80\x82", ".");              /* U+3002 */
    replace_all(s, "\xEF\xBC\x88", "(");              /* fullwidth ( */
    replace_all(s, "\xEF\xBC\x89", ")");              /* fullwidth ) */
    replace_all(s, "(\xE6\x9C\xAA\xE5\x91\xBD\xE5\x90\x8D\xE7\x9A\x84\xE8\x81\x94\xE5\x90\x88)",
                "(unnamed union)");                   /* (未命名的联合) */
    k = strlen(s);
    while (k > 0 && isspace((unsigned char)s[k - 1]))
        s[--k] = '\0';
    /* trailing direction "[in]", "[in, optional]" */
    char *open = k ? memrchr(s, '[', k) : NULL;
    if (open && s[k - 1] == ']') {
        enum docs_dir d;
        bool opt;
        if (docs_parse_direction(open + 1, (size_t)(s + k - 1 - open - 1), &d, &opt)) {
            f->dir = d;
            f->optional = opt;
            *open = '\0';
            k = (size_t)(open - s);
            while (k > 0 && isspace((unsigned char)s[k - 1]))
                s[--k] = '\0';
        }
    }
    while (k > 0 && (s[k - 1] == ':' || isspace((unsigned char)s[k - 1])))
        s[--k] = '\0';
    char *colon = strchr(s, ':');
    if (colon) {
        char *v = colon + 1;
        while (*v == ' ')
            v++;
        if (*v)
            f->value = arena_strdup(&p->arena, v);
        *colon = '\0';
        k = (size_t)(colon - s);
        while (k > 0 && isspace((unsigned char)s[k - 1]))
            s[--k] = '\0';
    }
    open = k ? memrchr(s, '[', k) : NULL;
    if (open && s[k - 1] == ']' && open > s) {
        f->array = arena_strndup(&p->arena, open + 1, (size_t)(s + k - 1 - open - 1));
        k = (size_t)(open - s);
        while (k > 0 && (s[k - 1] == '.' || s[k - 1] == ' '))
            k--;
        s[k] = '\0';
    }
    size_t lead = 0;
    while (isspace((unsigned char)s[lead]))
        lead++;
    f->path = s + lead;
    size_t pl = strlen(f->path);
    if (pl > 16 && !strcmp(f->path + pl - 16, ".(unnamed union)"))
        f->anonymous_union = true;
}

static enum docs_kind kind_word(const char *t)
{
    static const struct {
        const char *word;
        enum docs_kind kind;
    } words[] = {
        {"structure", DOCS_KIND_STRUCT},   {"\xE7\xBB\x93\xE6\x9E\x84", DOCS_KIND_STRUCT},
        {"union", DOCS_KIND_UNION},        {"\xE8\x81\x94\xE5\x90\x88", DOCS_KIND_UNION},
        {"enumeration", DOCS_KIND_ENUM},   {"\xE6\x9E\x9A\xE4\xB8\xBE", DOCS_KIND_ENUM},
        {"callback", DOCS_KIND_CALLBACK},  {"\xE5\x9B\x9E\xE8\xB0\x83", DOCS_KIND_CALLBACK},
        {"macro", DOCS_KIND_MACRO},        {"\xE5\xAE\x8F", DOCS_KIND_MACRO},
        {"function", DOCS_KIND_FUNCTION},  {"\xE5\x87\xBD\xE6\x95\xB0", DOCS_KIND_FUNCTION},
        {"IOCTL", DOCS_KIND_IOCTL},
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        if (docs_memcasestr(t, strlen(t), words[i].word))
            return words[i].kind;
    }
    return DOCS_KIND_UNKNOWN;
}

void docs_parse_title(struct docs_page *p, const char *title)
{
    size_t n = 0;
    while (docs_is_ident_char((unsigned char)title[n]))
        n++;
    if (n > 0)
        p->name = arena_strndup(&p->arena, title, n);
    const char *open = strrchr(title, '(');
    if (open && !p->header) {
        const char *close = strchr(open, ')');
        if (close && close - open > 3 && !strncmp(close - 2, ".h", 2))
            p->header = arena_strndup(&p->arena, open + 1, (size_t)(close - open - 1));
    }
    if (p->kind == DOCS_KIND_UNKNOWN)
        p->kind = kind_word(title + n);
}

void docs_finish_page(struct docs_page *p)
{
    if (p->uid && strlen(p->uid) > 3 && p->uid[2] == ':') {
        static const struct {
            const char *prefix;
            enum docs_kind kind;
        } prefixes[] = {{"NS", DOCS_KIND_STRUCT}, {"NE", DOCS_KIND_ENUM}, {"NC", DOCS_KIND_CALLBACK},
                        {"NF", DOCS_KIND_FUNCTION}, {"NI", DOCS_KIND_IOCTL}};
        for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
            if (strncasecmp(p->uid, prefixes[i].prefix, 2))
                continue;
            enum docs_kind titled = p->title ? kind_word(p->title) : DOCS_KIND_UNKNOWN;
            p->kind = prefixes[i].kind;
            if (p->kind == DOCS_KIND_FUNCTION && titled == DOCS_KIND_MACRO)
                p->kind = DOCS_KIND_MACRO;
            if (p->kind == DOCS_KIND_STRUCT && titled == DOCS_KIND_UNION)
                p->kind = DOCS_KIND_UNION;
        }
        if (!p->name) {
            const char *dot = strrchr(p->uid, '.');
            const char *s = dot ? dot + 1 : p->uid + 3;
            while (*s == '_')
                s++;
            p->name = arena_strdup(&p->arena, s);
        }
    }
    if (!p->name || !*p->name) {
        const char *base = strrchr(p->path, '/');
        base = base ? base + 1 : p->path;
        p->name = arena_strndup(&p->arena, base, strcspn(base, "."));
    }
    const char *src = p->avail.client ? p->avail.client : p->avail.server;
    if (src && docs_normalize_version(src, &p->avail.wddm, &p->avail.ddi, &p->avail.basis) == false)
        docs_page_note(p, p->avail.line, false, "availability '%s' names no Windows or WDDM release",
                       ddigen_quote(src));
}

/* ---- rendered pages ------------------------------------------------------ */

enum r_section { R_TOP, R_SYNTAX, R_MEMBERS, R_RETURNS, R_REMARKS, R_REQUIREMENTS, R_SEE_ALSO };

static int section_word(const char *t)
{
    static const struct {
        const char *word;
        enum r_section sec;
    } words[] = {
        {"Syntax", R_SYNTAX},          {"\xE8\xAF\xAD\xE6\xB3\x95", R_SYNTAX},             /* 语法 */
        {"Members", R_MEMBERS},        {"\xE6\x88\x90\xE5\x91\x98", R_MEMBERS},            /* 成员 */
        {"Fields", R_MEMBERS},         {"Constants", R_MEMBERS},
        {"\xE5\xB8\xB8\xE9\x87\x8F", R_MEMBERS},                                            /* 常量 */
        {"Parameters", R_MEMBERS},     {"\xE5\x8F\x82\xE6\x95\xB0", R_MEMBERS},            /* 参数 */
        {"Return value", R_RETURNS},   {"\xE8\xBF\x94\xE5\x9B\x9E\xE5\x80\xBC", R_RETURNS}, /* 返回值 */
        {"Remarks", R_REMARKS},        {"\xE6\xB3\xA8\xE8\xA7\xA3", R_REMARKS},            /* 注解 */
        {"\xE8\xA8\x80\xE8\xAE\xBA", R_REMARKS},                                            /* 言论 */
        {"\xE5\xA4\x87\xE6\xB3\xA8", R_REMARKS},                                            /* 备注 */
        {"Requirements", R_REQUIREMENTS}, {"\xE8\xA6\x81\xE6\xB1\x82", R_REQUIREMENTS},    /* 要求 */
        {"See also", R_SEE_ALSO},      {"\xE5\x8F\xA6\xE8\xAF\xB7\xE5\x8F\x82\xE9\x98\x85", R_SEE_ALSO},
    };
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        if (!strcasecmp(t, words[i].word))
            return (int)words[i].sec;
    }
    return -1;
}

int docs_rendered_section(const char *t) { return section_word(t); }

static bool requirement_row(struct docs_page *p, const char *t, unsigned line)
{
    static const struct {
        const char *key;
        int what; /* 1 client, 2 server, 3 header */
    } keys[] = {
        {"Minimum supported client", 1},
        {"\xE6\x9C\x80\xE4\xBD\x8E\xE6\x94\xAF\xE6\x8C\x81\xE7\x9A\x84\xE5\xAE\xA2\xE6\x88\xB7\xE7\xAB\xAF", 1},
        {"Minimum supported server", 2},
        {"\xE6\x9C\x80\xE4\xBD\x8E\xE6\x94\xAF\xE6\x8C\x81\xE7\x9A\x84\xE6\x9C\x8D\xE5\x8A\xA1\xE5\x99\xA8", 2},
        {"Header", 3},
        {"\xE6\xA0\x87\xE5\xA4\xB4", 3},
    };
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        size_t m = strlen(keys[i].key);
        if (strncasecmp(t, keys[i].key, m) || docs_is_ident_char((unsigned char)t[m]))
            continue;
        const char *v = t + m;
        while (*v == ' ' || *v == '|' || *v == '\t')
            v++;
        size_t vl = strlen(v);
        while (vl > 0 && (v[vl - 1] == ' ' || v[vl - 1] == '|'))
            vl--;
        if (vl == 0)
            return true;
        const char *val = arena_strndup(&p->arena, v, vl);
        if (keys[i].what == 1 && !p->avail.client)
            p->avail.client = val, p->avail.line = line;
        else if (keys[i].what == 2 && !p->avail.server) {
            p->avail.server = val;
            if (!p->avail.line)
                p->avail.line = line;
        } else if (keys[i].what == 3 && !p->header)
            p->header = arena_strndup(&p->arena, val, strcspn(val, " ("));
        return true;
    }
    return false;
}

static bool stop_word(const char *t)
{
    static const char *const words[] = {"Note", "Notes", "Remarks", "Example", "Examples", "Important",
                                        "Warning", "Tip", "Caution", "NULL", "TRUE", "FALSE"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (!strcmp(t, words[i]))
            return true;
    return false;
}

/* A member name alone on a line: "pDmaBuffer", "Transfer.Source.SegmentId",
 * "Reserved[64]", "X.(unnamed union)" (also localized). */
static bool looks_like_name(struct docs_page *p, const char *t)
{
    struct docs_field f = {0};
    size_t n = strlen(t);
    if (n == 0 || n > 120 || stop_word(t))
        return false;
    docs_parse_field_name(p, t, n, &f);
    const char *s = f.path;
    if (!docs_is_ident_start((unsigned char)s[0]))
        return false;
    for (const char *c = s; *c; c++) {
        if (docs_is_ident_char((unsigned char)*c) || *c == '.')
            continue;
        return !strcmp(c, "(unnamed union)") && c > s && c[-1] == '.';
    }
    return s[strlen(s) - 1] != '.';
}

struct r_state {
    struct docs_page *p;
    enum r_section sec;
    int field;
    bool field_has_text;
    bool saw_members;
    bool after_code;
    bool in_remarks_group; /* damaged page: a "This structure ..." group */
    unsigned unnamed;
};

static void r_para(struct r_state *st, const struct docs_block *b)
{
    struct docs_page *p = st->p;
    struct docs_para para = {.line = b->line};
    const char *text = b->text;
    switch (st->sec) {
    case R_TOP:
        if (!p->description) {
            p->description = docs_squash(&p->arena, text, strlen(text));
            p->description_line = b->line;
        }
        para.section = DOCS_SEC_DESCRIPTION;
        break;
    case R_MEMBERS:
        if (st->field < 0) {
            para.section = DOCS_SEC_REMARKS;
            break;
        }
        para.section = DOCS_SEC_FIELD;
        para.field = st->field;
        if (!st->field_has_text) {
            struct docs_field *f = &p->fields.v[st->field];
            enum docs_dir d = DOCS_DIR_NONE;
            bool opt = false;
            size_t skip = docs_body_marker(text, &d, &opt);
            if (skip) {
                f->dir = d != DOCS_DIR_NONE ? d : f->dir;
                f->optional |= opt;
                f->dir_source = "marker";
                text += skip;
            }
        }
        st->field_has_text = true;
        break;
    case R_RETURNS:
        para.section = DOCS_SEC_RETURNS;
        if (!p->returns)
            p->returns = docs_squash(&p->arena, text, strlen(text)), p->returns_line = b->line;
        break;
    case R_REMARKS:
        para.section = DOCS_SEC_REMARKS;
        break;
    case R_REQUIREMENTS:
        requirement_row(p, text, b->line);
        return;
    case R_SEE_ALSO: {
        const char *s = docs_squash(&p->arena, text, strlen(text));
        DOCS_PUSH(p->see_also, s);
        return;
    }
    case R_SYNTAX:
        return;
    }
    if (!*text)
        return;
    para.text = text;
    DOCS_PUSH(p->paras, para);
}

static void r_start_field(struct r_state *st, const char *name, unsigned line)
{
    struct docs_field f = {0};
    f.heading = name ? DOCS_HEAD_TEXT : DOCS_HEAD_UNNAMED;
    f.line = line;
    if (name)
        docs_parse_field_name(st->p, name, strlen(name), &f);
    else {
        f.path = "";
        f.ordinal = ++st->unnamed;
    }
    if (f.dir != DOCS_DIR_NONE)
        f.dir_source = "heading";
    st->field = (int)docs_page_add_field(st->p, &f);
    st->field_has_text = false;
}

static bool describes_page(const char *t)
{
    static const char *const starts[] = {"This structure", "This union", "This enumeration",
                                         "This callback", "This function", "The structure",
                                         "This type"};
    for (size_t i = 0; i < sizeof starts / sizeof starts[0]; i++)
        if (!strncmp(t, starts[i], strlen(starts[i])))
            return true;
    return false;
}

/* Damaged page: after the syntax block and before any "Members" heading, a
 * paragraph after two blank lines starts an unnamed member description. */
static bool damaged_group(struct r_state *st, const struct docs_block *b)
{
    if (st->saw_members || !st->after_code || st->sec != R_TOP || b->kind != DOCS_BLK_PARA)
        return false;
    if (b->gap >= 2 || st->field < 0) {
        if (describes_page(b->text)) {
            st->in_remarks_group = true;
            return false;
        }
        st->in_remarks_group = false;
        r_start_field(st, NULL, b->line);
    }
    if (st->in_remarks_group)
        return false;
    st->sec = R_MEMBERS;
    r_para(st, b);
    st->sec = R_TOP;
    return true;
}

static void r_code(struct r_state *st, const struct docs_block *b)
{
    struct docs_page *p = st->p;
    st->after_code = true;
    if (p->has_syntax)
        return;
    p->has_syntax = true;
    p->syntax.code = b->text;
    p->syntax.line = b->line;
    p->syntax.lang = NULL;
}

int docs_read_blocks(struct docs_page *p, struct docs_block *blocks, size_t n)
{
    struct r_state st = {.p = p, .sec = R_TOP, .field = -1};
    for (size_t i = 0; i < n; i++) {
        const struct docs_block *b = &blocks[i];
        if (docs_has_cjk(b->text, strlen(b->text)) && p->prose_rules) {
            p->lang = "zh-cn";
            p->prose_rules = false;
        }
        if (b->kind == DOCS_BLK_HEADING && b->level == 1 && !p->title) {
            p->title = b->text;
            docs_parse_title(p, b->text);
            continue;
        }
        if (b->kind == DOCS_BLK_HEADING) {
            int sec = section_word(b->text);
            if (sec >= 0) {
                st.sec = (enum r_section)sec;
                st.field = -1;
                st.saw_members |= sec == R_MEMBERS;
            } else if (st.sec == R_MEMBERS && looks_like_name(p, b->text)) {
                r_start_field(&st, b->text, b->line);
            } else {
                struct docs_block para = *b;
                para.kind = DOCS_BLK_PARA;
                r_para(&st, &para);
            }
            continue;
        }
        if (b->kind == DOCS_BLK_CODE) {
            if (st.sec == R_SYNTAX || (!p->has_syntax && !st.saw_members))
                r_code(&st, b);
            continue;
        }
        if (b->kind == DOCS_BLK_ROW) {
            if (!requirement_row(p, b->text, b->line) && st.sec != R_REQUIREMENTS)
                r_para(&st, b);
            continue;
        }
        if (requirement_row(p, b->text, b->line))
            continue;
        if (st.sec == R_MEMBERS && looks_like_name(p, b->text)) {
            r_start_field(&st, b->text, b->line);
            continue;
        }
        if (damaged_group(&st, b))
            continue;
        r_para(&st, b);
    }
    if (st.unnamed)
        docs_page_note(p, 0, true, "%u member descriptions have lost their names", st.unnamed);
    return 0;
}
