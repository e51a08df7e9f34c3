/* Rule extraction: turns the prose of a read page into machine-checkable
 * rules from a closed set of kinds, and lists modal sentences it could not. */
#ifndef DDIGEN_DOCS_RULES_H
#define DDIGEN_DOCS_RULES_H

#include "model.h"

/* Runs after a reader has filled fields and paragraphs. */
void docs_extract_rules(struct docs_page *page);

/* Leading "[in]" / "(Optional)" / "_In_" marker of a field body: returns the
 * bytes it spans (0 if none) and sets dir/optional. */
size_t docs_body_marker(const char *text, enum docs_dir *dir, bool *optional);

#endif
