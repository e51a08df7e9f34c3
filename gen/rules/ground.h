/* What the model says about a rule before it becomes a check (issue 26,
 * "Grounded in the layout", "Direction"): bits a reserved field shares with
 * a named field, whether a field holds an address, size or offset, and
 * whether the driver can write a record at all. Internal to gen/rules. */
#ifndef DDIGEN_RULES_GROUND_H
#define DDIGEN_RULES_GROUND_H

#include "rules.h"
#include "util/strmap.h"

/* The named, non-reserved field of f's top-level record whose bits overlap
 * f's on some architecture in some version where both exist (a union alias,
 * a bitfield beside it in one union), or NULL. Neither f's holders nor what
 * it holds count, nor the flag word (a scalar beside the bitfield struct in
 * one union, `Value`: it is every bit's other spelling, not another
 * meaning), nor a field of another named member of one union (Map and
 * Unmap: a selector chooses between them). Reserved: a field the record's
 * pages call reserved. */
const struct ddi_model_field *ground_shared_bits(const struct ddi_versions *where,
                                                 const struct ddi_model_field *f);

/* Whether a check of alignment can be about f: a pointer, or an integer
 * whose name, type or documented unit (bytes) says it is an address, size,
 * offset or pitch; never an index, count, ID or ordinal. */
int ground_is_location(const struct rules_field *f);

/* Whether every DDI function type that takes the record takes a pointer to
 * const (IN_CONST_PDXGKARG_SUBMITCOMMAND): the driver cannot write it, so
 * there is nothing to check on return. 0 when no function type takes it.
 * The takers are found once per lowering, in one pass over every parameter
 * (asked per record and field, walking them all took 0.5 G instructions of
 * a real kit's lowering). */
struct ground_taken;
struct ground_read_only {
    struct strmap by_name; /* record name -> its ground_taken */
    struct ground_taken *taken;
    size_t ntaken;
};
int ground_read_only_init(struct ground_read_only *ro, const struct ddi_model *m); /* -1: out of memory */
int ground_read_only(const struct ground_read_only *ro, const struct ddi_model_record *rec);
void ground_read_only_free(struct ground_read_only *ro);

#endif
