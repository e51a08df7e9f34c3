/* Syntax and prototype blocks are C: libclang reads them for member order,
 * types and parameter SAL, and the result is checked against the page's own
 * field list (some blocks are stale). */
#ifndef DDIGEN_DOCS_SYNTAX_H
#define DDIGEN_DOCS_SYNTAX_H

#include "model.h"

/* Parses page->syntax.code (if any) into page->syntax.decls, records where
 * the block and the documented fields disagree, and suggests names for
 * unnamed descriptions of a damaged page. */
void docs_parse_syntax(struct docs_page *page);

/* Releases the process-wide libclang index. */
void docs_syntax_shutdown(void);

#endif
