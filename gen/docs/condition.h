/* A rule's condition clause read as data when it literally names a field
 * ("If the Paging flag of Flags is set", "when SegmentId is zero", "If Type
 * is DXGKQAITYPE_X"); anything else stays prose. Pure string work. */
#ifndef DDIGEN_DOCS_CONDITION_H
#define DDIGEN_DOCS_CONDITION_H

#include <stdbool.h>
#include <stddef.h>

/* Writes the condition as `F` (set), `F==0` (clear) or `F==ENUMERATOR`
 * into out (F a designator as the page writes it: Flags.Paging); false
 * when the clause is not exactly a cue, a field and one of those states. */
bool docs_condition_parse(const char *clause, char *out, size_t size);

#endif
