/* Operand conversion: turns the tokens a pattern captured into rule
 * operands (field paths, normalized values, sizes, bit ordinals). The only
 * place text becomes an operand value; the matcher (pattern.h) only says
 * which tokens a slot spans. */
#ifndef DDIGEN_DOCS_OPERANDS_H
#define DDIGEN_DOCS_OPERANDS_H

#include "pattern.h"
#include "sentence.h"

#include <stdbool.h>

/* A name the text mentions, as the page's field path when it has one
 * (siblings first), else the name without a "Type::" qualifier. */
const char *operand_field(const struct sentence *s, const char *name);

/* A stated value, normalized: "0" (zero, FALSE, 0x0), "1" (TRUE, one),
 * "NULL", "nonzero" (nonzero, non-NULL), a number as written, or a
 * constant name. NULL when the text is none of these. */
const char *operand_value(const struct sentence *s, const char *text);

/* The names of an {F} / {L} slot, resolved to field paths where the page
 * has them (arena strings); returns how many (at most max). */
size_t operand_fields(const struct sentence *s, const struct match *m, char slot, const char **out, size_t max);

/* The value of a {V} slot, normalized as operand_value() does ("not
 * NULL" is "nonzero"); NULL when the slot is absent or empty. */
const char *operand_slot_value(const struct sentence *s, const struct match *m, char slot);

/* The value under which a member is valid when the text says when it is
 * ignored: set -> 0, non-NULL/nonzero -> NULL/0, NULL/0 -> nonzero. */
const char *operand_negate(const char *value, bool pointer);

/* 0-based index of an ordinal word ("first" .. "thirty-second"), or -1. */
int operand_ordinal(const char *lc);

/* Bytes of a size written at tokens [i, ...): "4 KB", "4KB", "64-byte",
 * "4096 bytes"; 0 when there is none there. */
unsigned long operand_size_at(const struct sentence *s, size_t i);

#endif
