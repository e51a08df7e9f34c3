/* The three page readers. Each fills a docs_page from a cleaned buffer (LF
 * line endings, valid UTF-8) and reports problems with the page's lines. */
#ifndef DDIGEN_DOCS_READERS_H
#define DDIGEN_DOCS_READERS_H

#include "model.h"

/* Returns 0, or -1 when the input is not a reference page at all (the error
 * has been reported). Non-fatal problems are diagnostics on the page. */
int docs_read_markdown(struct docs_page *page, const char *buf, size_t len);
int docs_read_html(struct docs_page *page, const char *buf, size_t len);
int docs_read_text(struct docs_page *page, const char *buf, size_t len);
/* Returns the calling thread's markdown parse heap to the system (it is
 * kept between pages; a thread that read pages calls this before it ends). */
void docs_md_release(void);

/* Shared by all readers once fields are known. */
void docs_parse_field_name(struct docs_page *page, const char *text, size_t n, struct docs_field *f);
/* Title "NAME structure (hdr.h)" -> name, kind, header (kind may stay). */
void docs_parse_title(struct docs_page *page, const char *title);
/* Page name for rule IDs when a title gave none. */
void docs_finish_page(struct docs_page *page);

/* A run of rendered-page blocks (from text lines or HTML elements), read the
 * same way by the text and HTML readers. */
enum docs_block_kind { DOCS_BLK_HEADING, DOCS_BLK_PARA, DOCS_BLK_CODE, DOCS_BLK_NAME, DOCS_BLK_ROW };
struct docs_block {
    enum docs_block_kind kind;
    int level;          /* headings */
    const char *text;   /* arena */
    unsigned line;
    unsigned gap;       /* blank lines before (text reader) */
};
int docs_read_blocks(struct docs_page *page, struct docs_block *blocks, size_t n);

#endif
