/* The kinds of documented rules, declared once. Each line: the enumerator
 * suffix and the name pages, specs and generated IDs use. What a kind
 * means to the validators (its operands, how it is lowered to a check,
 * evaluated on the host, rendered as C, and its test example) is its row in
 * gen/rules/kinds.c; how pages state it is gen/docs/rule_table.c. Adding a
 * kind is a line here, a row there and a pattern with its example sentence
 * in the page table: three files. */
#ifndef DDIGEN_MODEL_RULE_KINDS_H
#define DDIGEN_MODEL_RULE_KINDS_H

#include <stddef.h>

#define DDI_RULE_KIND_LIST(X)                                                            \
    X(DIRECTION, "direction")                                                            \
    X(OPTIONAL, "optional")                                                              \
    X(RESERVED, "reserved")                                                              \
    X(RESERVED_ZERO, "reserved-zero")                                                    \
    X(ALIGN, "align")                                                                    \
    X(UNITS, "units")                                                                    \
    X(RANGE, "range")                                                                    \
    X(NONZERO, "nonzero")                                                                \
    X(BIT, "bit")                                                                        \
    X(EXCLUSIVE, "exclusive")                                                            \
    X(IMPLIES, "implies")                                                                \
    X(NULL_WHEN, "null-when")                                                            \
    X(NONNULL_IFF, "nonnull-iff")                                                        \
    X(DISCRIMINATOR, "discriminator")                                                    \
    X(REQUIRES_CAP, "requires-cap")                                                      \
    X(AVAILABILITY, "availability")                                                      \
    X(UNION_MEMBER, "union-member")                                                      \
    X(ZERO_WHEN, "zero-when") /* "must not set X on the primary surface": 0 under a condition */ \
    X(AT_LEAST, "at-least")   /* "must be greater than or equal to the value in the Size member" */ \
    X(NONNULL_WHEN, "nonnull-when")     /* "a pointer to X, if Type specifies Y": non-NULL under a condition */ \
    X(EITHER_NONZERO, "either-nonzero") /* "A and B cannot both be zero" */                         \
    X(IN_SET, "in-set")                 /* a segment id that is a set bit of a segment mask */ \
    X(BUFFER_TYPE, "buffer-type")       /* an enum value's untyped buffer holds record X, written by its side */

enum ddi_rule_kind {
#define DDI_RULE_KIND_ENUM(id, name) DDI_RULE_##id,
    DDI_RULE_KIND_LIST(DDI_RULE_KIND_ENUM)
#undef DDI_RULE_KIND_ENUM
        DDI_RULE_KIND_COUNT
};

/* "reserved-zero" for DDI_RULE_RESERVED_ZERO; NULL out of range. */
const char *ddi_rule_kind_name(enum ddi_rule_kind k);
/* The kind of a name, or -1. */
int ddi_rule_kind_find(const char *name);

#endif
