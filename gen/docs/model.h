/* The doc model: what one reference page promises, per structure, field, enum
 * value and parameter. Every reader fills it; rules.c and xml_out.c read it. */
#ifndef DDIGEN_DOCS_MODEL_H
#define DDIGEN_DOCS_MODEL_H

#include "../model/rule_kinds.h"
#include "../util/arena.h"
#include "../util/strmap.h"

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

/* All strings of a page live in its arena (util/arena.h) and die with it. */

/* A growable byte buffer (heap, owned by whoever declared it). */
struct docs_buf {
    char *data;
    size_t len, cap;
};
/* Makes room for n more bytes and the NUL (out of line: rarely taken). */
void docs_buf_grow(struct docs_buf *b, size_t n);
/* Inline: the readers and the writer append a few bytes at a time, a million
 * times a run, and the call cost more than the copy. */
static inline void docs_buf_put(struct docs_buf *b, const char *s, size_t n)
{
    if (b->len + n + 1 > b->cap)
        docs_buf_grow(b, n);
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}
static inline void docs_buf_putc(struct docs_buf *b, char c)
{
    if (b->len + 2 > b->cap)
        docs_buf_grow(b, 1);
    b->data[b->len++] = c;
    b->data[b->len] = '\0';
}
static inline void docs_buf_puts(struct docs_buf *b, const char *s)
{
    docs_buf_put(b, s, strlen(s));
}
void docs_buf_reset(struct docs_buf *b);
void docs_buf_free(struct docs_buf *b);

/* Growable array of pointers or structs, element size fixed by the user. */
#define DOCS_VEC(T) struct { T *v; size_t n, cap; }
#define DOCS_PUSH(vec, item)                                                                     \
    do {                                                                                         \
        if ((vec).n == (vec).cap) {                                                              \
            (vec).cap = (vec).cap ? (vec).cap * 2 : 8;                                           \
            (vec).v = docs_xrealloc((vec).v, (vec).cap * sizeof *(vec).v);                       \
        }                                                                                        \
        (vec).v[(vec).n++] = (item);                                                             \
    } while (0)
void *docs_xrealloc(void *p, size_t n);

enum docs_kind {
    DOCS_KIND_UNKNOWN,
    DOCS_KIND_STRUCT,
    DOCS_KIND_UNION,
    DOCS_KIND_ENUM,
    DOCS_KIND_CALLBACK,
    DOCS_KIND_FUNCTION,
    DOCS_KIND_MACRO,
    DOCS_KIND_IOCTL,
};
const char *docs_kind_name(enum docs_kind k);

enum docs_format { DOCS_FMT_MARKDOWN, DOCS_FMT_HTML, DOCS_FMT_TEXT };
const char *docs_format_name(enum docs_format f);

enum docs_dir { DOCS_DIR_NONE, DOCS_DIR_IN, DOCS_DIR_OUT, DOCS_DIR_INOUT };
const char *docs_dir_name(enum docs_dir d);

/* Where a field or parameter came from in the page. */
enum docs_heading {
    DOCS_HEAD_FIELD,   /* "### -field X" (any spelling, incl. "### - field X") */
    DOCS_HEAD_PARAM,   /* "### -param X" or "## -param X" */
    DOCS_HEAD_BARE,    /* a plain "### X" / "#### X.(unnamed union)" in a field section */
    DOCS_HEAD_TEXT,    /* a name alone on a line in a rendered-page copy */
    DOCS_HEAD_UNNAMED, /* a description whose name was lost (damaged page) */
};

/* A field, enum value or parameter, in page order. */
struct docs_field {
    const char *path;     /* dotted name as documented, "" when unnamed */
    const char *array;    /* array extent as written ("5", "MAX_PATH"), or NULL */
    const char *value;    /* enum value as written after ':' (numeric or symbolic) */
    enum docs_heading heading;
    enum docs_dir dir;
    bool optional;
    const char *dir_source; /* "heading", "body", "marker" or NULL */
    unsigned marker_line;   /* line of a marker at the start of the body, 0 if none */
    enum docs_dir body_dir; /* the body marker's direction (may contradict the heading's) */
    bool body_optional;     /* the body marker said optional */
    bool anonymous_union;   /* "X.(unnamed union)" */
    unsigned line;
    unsigned ordinal;        /* 1-based order among unnamed descriptions */
    const char *candidate;   /* unnamed: member suggested by syntax-block order */
    const char *candidate_basis;
    const char *text;        /* plain-text body, paragraphs joined by "\n\n" */
    int parent;              /* index of the parent field, -1 at top level */
    bool in_block;           /* also declared in the page's syntax block */
    bool driver_changes;     /* its text says the driver sets it to another value before it returns */
};

/* The rule kinds are declared once, in gen/model/rule_kinds.h. */
enum docs_rule_kind {
#define DOCS_RULE_KIND_ENUM(id, name) DOCS_RULE_##id = DDI_RULE_##id,
    DDI_RULE_KIND_LIST(DOCS_RULE_KIND_ENUM)
#undef DOCS_RULE_KIND_ENUM
        DOCS_RULE_KIND_COUNT = DDI_RULE_KIND_COUNT
};
const char *docs_rule_kind_name(enum docs_rule_kind k);

struct docs_operand {
    const char *name;
    const char *value;
};

#define DOCS_MAX_OPERANDS 6
struct docs_rule {
    enum docs_rule_kind kind;
    const char *id;      /* PAGE.Subject:kind[:suffix]; unique in the page once settled */
    const char *subject; /* field path, "" for the page itself */
    unsigned line;
    const char *sentence;
    /* The clause of the sentence that makes the rule conditional ("When
     * the driver is first called ..."), when the rule's operands do not
     * carry it; NULL when the sentence states no condition. */
    const char *condition;
    struct docs_operand ops[DOCS_MAX_OPERANDS];
    unsigned nops;
};

/* A sentence with a modal that produced no rule: coverage is measurable. */
struct docs_unextracted {
    const char *subject;
    unsigned line;
    const char *sentence;
    const char *reason; /* "no-pattern" or "language" */
};

/* One paragraph of prose, kept for rule extraction after the page is read
 * (rules need the whole field list to resolve names). Soft line breaks are
 * kept as '\n' so a sentence can be given its own line number. */
enum docs_section { DOCS_SEC_FIELD, DOCS_SEC_DESCRIPTION, DOCS_SEC_REMARKS, DOCS_SEC_RETURNS };
struct docs_para {
    enum docs_section section;
    int field; /* index into fields for DOCS_SEC_FIELD */
    const char *text;
    unsigned line;
};

struct docs_note {
    unsigned line;
    const char *severity; /* "note" | "warning" */
    const char *text;
};

/* What a syntax or prototype block declares, as libclang read it. */
struct docs_decl {
    const char *path;  /* dotted member path, or parameter name */
    const char *type;  /* type as clang spells it */
    const char *array; /* extent, or NULL */
    const char *sal;   /* SAL annotations joined by ' ', or NULL */
    const char *value; /* enum constant value, or NULL */
    unsigned line;     /* page line */
    bool anonymous;    /* nameless union/struct level */
};

struct docs_syntax {
    const char *code;
    unsigned line;           /* page line of the first code line */
    const char *lang;        /* fence info string, or NULL */
    const char *status;      /* "parsed", "partial", "unparsed" */
    unsigned clang_errors;
    bool fragment;           /* member lines without their record around them */
    const char *type_name;   /* typedef / function name the block declares */
    DOCS_VEC(struct docs_decl) decls;
    DOCS_VEC(struct docs_note) mismatches; /* block vs page field list */
};

struct docs_availability {
    const char *client;   /* raw text as written */
    const char *server;
    const char *wddm;     /* "2.2" */
    const char *ddi;      /* "DXGKDDI_INTERFACE_VERSION_WDDM2_2" */
    const char *basis;    /* what the normalization keyed on */
    unsigned line;
};

struct docs_page {
    struct arena arena;
    const char *path;
    enum docs_format format;
    const char *lang;     /* "en-us", "zh-cn" */
    bool prose_rules;     /* false: prose in a language we do not read */
    const char *uid;
    enum docs_kind kind;
    const char *name;     /* the typedef / function name rule IDs start with */
    const char *header;
    const char *irql;     /* req.irql of the front matter, as written */
    const char *title;
    const char *description;
    unsigned description_line;
    struct docs_availability avail;
    bool has_syntax;
    struct docs_syntax syntax;
    const char *returns;
    unsigned returns_line;
    DOCS_VEC(struct docs_field) fields; /* fields, enum values or params */
    DOCS_VEC(struct docs_para) paras;
    DOCS_VEC(struct docs_rule) rules;
    struct strmap rule_ids; /* rule ID as added -> 1 + index of its first rule */
    DOCS_VEC(struct docs_unextracted) unextracted;
    DOCS_VEC(struct docs_note) notes;
    DOCS_VEC(const char *) see_also;
    unsigned modal_sentences;
    unsigned repaired_mojibake;
    bool defer_notes; /* notes are printed later (page on the syntax worker) */
};

struct docs_page *docs_page_new(const char *path, enum docs_format fmt);
void docs_page_free(struct docs_page *p);

/* Adds a field and returns its index; the tree parent is found by path. */
size_t docs_page_add_field(struct docs_page *p, const struct docs_field *f);
/* Records a page note and prints it through diag (warnings count). */
void docs_page_note(struct docs_page *p, unsigned line, bool warning, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Adds a rule with the ID PAGE.subject:kind[:id_suffix] and returns it
 * (valid until the next rule is added). Two rules may be added with one
 * ID: docs_page_settle_rules() tells them apart once their operands are in. */
struct docs_rule *docs_page_add_rule(struct docs_page *p, enum docs_rule_kind kind,
                                     const char *subject, const char *id_suffix,
                                     unsigned line, const char *sentence);
/* The first rule added with that ID, or NULL. */
struct docs_rule *docs_page_find_rule(struct docs_page *p, enum docs_rule_kind kind, const char *subject,
                                      const char *id_suffix);
void docs_rule_op(struct docs_page *p, struct docs_rule *r, const char *name, const char *value);

/* Makes every rule ID name one statement. Of rules added with one ID, the
 * first keeps it; a later one that says the same (same operands) is the
 * same statement said again and is dropped; a later one that says
 * something else gets the ID with a suffix made of what it says (its
 * operand values), so the ID does not move when other statements are added
 * or removed around it. Run once, after the last rule of the page. */
void docs_page_settle_rules(struct docs_page *p);

#endif
