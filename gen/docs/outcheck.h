/* Checks `ddigen docs` output against the schema page by page, on a thread
 * of its own, while the main thread reads the next pages.
 *
 * Why: the output must be validated before it lands (a page the extractor
 * turns into schema-invalid XML is a ddigen bug that must not reach a spec),
 * but reparsing and validating the whole document after the last page cost
 * 37 % of the instructions of a corpus run, all on the critical path. The
 * document is `<ddi-spec version="1"><docs>` + pages + `</docs></ddi-spec>`
 * and the schema's <docs> is a sequence of <page>s, so the whole document is
 * valid exactly when every page is valid on its own: the pages can be
 * checked as they are written. A page that fails is not reported here; the
 * caller then validates the whole document the slow way, which names the
 * page and the input it came from. */
#ifndef DDIGEN_DOCS_OUTCHECK_H
#define DDIGEN_DOCS_OUTCHECK_H

#include <stdbool.h>
#include <stddef.h>

struct docs_outcheck;

/* Starts the checker (a thread); NULL when no thread could be started, in
 * which case the pushes are ignored and finish says "not checked". */
struct docs_outcheck *docs_outcheck_start(void);
/* Queues a copy of one <page> element's XML text. */
void docs_outcheck_push(struct docs_outcheck *c, const char *page_xml, size_t len);
/* Waits for the queued pages and frees the checker. True when a checker ran
 * and every page pushed was schema-valid. */
bool docs_outcheck_finish(struct docs_outcheck *c);

#endif
