/* Who writes a record's fields, decided by the paths that reach it from the
 * DDI entry points (issue 26, "Direction"). Internal to gen/rules; below
 * lower.c, which asks it for every field's direction. */
#ifndef DDIGEN_RULES_REACH_H
#define DDIGEN_RULES_REACH_H

#include "rules.h"

struct reach;

/* Builds the reach of every record of the model: the function types the
 * OS calls (members of DRIVER_INITIALIZATION_DATA and
 * KMDDOD_INITIALIZATION_DATA) and those the driver calls (DXGKCB_*,
 * members of DXGKRNL_INTERFACE and of interfaces a callback returns),
 * followed through their argument records, the records those embed and
 * the records they point to. NULL on no memory. */
struct reach *reach_compute(const struct ddi_model *m);
void reach_free(struct reach *r);

/* The validators (RULES_DIR_*) a field of a top-level record can be
 * checked in, from what marks it in its record alone: the page's
 * [in]/[out] (inherited from the nearest marked parent), its SAL, a
 * `writes` override, else the record's default for unmarked fields. */
unsigned reach_marked_dir(const struct reach *r, const struct ddi_model_record *rec, const char *path);
/* The same, but 0 where nothing marks the field (no default). A field of a
 * record reached only embedded, through fields each marked (or a union
 * member its record's discriminator selects, marked as the selector is),
 * takes their direction: DXGK_BUILDPAGINGBUFFER_UPDATEPAGETABLE.UpdateMode
 * is the caller's as the [in] Operation that selects UpdatePageTable is. */
unsigned reach_explicit_dir(const struct reach *r, const struct ddi_model_record *rec, const char *path);

/* How the DDIs reach a record. */
struct reach_context {
    int reached;     /* some path from an entry point (or an embedding record) leads to it */
    unsigned dirs;   /* RULES_DIR_* its checks may run in: the union over the paths */
    int os_returned; /* some path is a callback's output: the OS fills it for the driver */
    int called_back; /* some path is an argument of a call the driver makes */
    int direct;      /* some path reaches it as a parameter or through a pointer, not only embedded */
    unsigned marked_dirs; /* the explicit marks of the embedding fields on the paths (reach_explicit_dir) */
    int guessed;     /* some embedding field on a path is marked by no page, SAL or override */
};
struct reach_context reach_context_of(const struct reach *r, const struct ddi_model_record *rec);

/* The validators a field's checks run in, the paths considered: its
 * marked direction within those of its record's context; for a record
 * reached only embedded, whose marks the embedding field overrides, the
 * context's when the two do not meet (DXGK_ALLOCATIONINFOFLAGS_WDDM2_0
 * marks its bits [in], DXGK_ALLOCATIONINFO.FlagsWddm2 that holds it is
 * [out]: the driver sets them). A record no path reaches: its marks, and
 * its default for unmarked fields only when it marks some (none: 0). */
unsigned reach_field_dir(const struct reach *r, const struct ddi_model_record *rec, const char *path);

/* The record a type points to (typedefs followed to the first '*'), the
 * number of '*' and whether the pointee is const; NULL when none. */
const struct ddi_model_record *reach_pointee(const struct ddi_model *m, const char *type, int *stars, int *is_const);

/* Whether a field holds another top-level record by value, which a
 * validator descends into (not an array, not a bitfield): the record, or NULL. */
const struct ddi_model_record *reach_embedded(const struct ddi_model_field *f);

#endif
