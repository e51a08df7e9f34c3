/* Operand resolution: turns the tokens a pattern captured into rule
 * operands (field paths, normalized values, sizes, bit ordinals). */
#ifndef DDIGEN_DOCS_OPERANDS_H
#define DDIGEN_DOCS_OPERANDS_H

#include "sentence.h"

#include <stdbool.h>

/* A name the text mentions, as the page's field path when it has one
 * (siblings first), else the name without a "Type::" qualifier. */
const char *operand_field(const struct sentence *s, const char *name);

/* A stated value, normalized: "0" (zero, FALSE, 0x0), "1" (TRUE, one),
 * "NULL", "nonzero" (nonzero, non-NULL), a number as written, or a
 * constant name. NULL when the text is none of these. */
const char *operand_value(const struct sentence *s, const char *text);

/* ALL_CAPS_WITH_UNDERSCORES (digits allowed). */
bool operand_is_constant(const char *text);

/* The value under which a member is valid when the text says when it is
 * ignored: set -> 0, non-NULL/nonzero -> NULL/0, NULL/0 -> nonzero. */
const char *operand_negate(const char *value, bool pointer);

/* 0-based index of an ordinal word ("first" .. "thirty-second"), or -1. */
int operand_ordinal(const char *lc);

/* Bytes of a size written at tokens [i, ...): "4 KB", "4KB", "64-byte",
 * "4096 bytes"; 0 when there is none there. */
unsigned long operand_size_at(const struct sentence *s, size_t i);

#endif
