/* Stable IDs: every record, field, enum and enum value of a spec has a
 * decimal ID that never changes across revisions (docs/ARCHITECTURE.md,
 * "Stable IDs", is the contract other stages and `ddigen diff` rely on). */
#ifndef DDIGEN_IDS_H
#define DDIGEN_IDS_H

#include "../util/arena.h"

#include <libxml/tree.h>

struct spec_ids_stats {
    unsigned kept;    /* items that kept the previous spec's ID */
    unsigned added;   /* items that got a new ID */
    unsigned retired; /* IDs of the previous spec no longer in use */
};

/* Identity of a field inside its top-level record, the same identity the
 * layout merge uses: path + spelled type + bit width; an anonymous member
 * is named by its nested record ("X.(unnamed union)"). occurrence counts
 * fields with an equal identity (a member that exists twice, once per
 * version) from 1. The key is allocated in a. */
const char *spec_field_key(struct arena *a, xmlNodePtr field, unsigned occurrence);
/* The same from its parts: path, type and bits= as written (bits NULL when
 * not a bitfield), and the nested record's name for an anonymous member. */
const char *spec_field_key_of(struct arena *a, const char *path, const char *type, const char *bits, const char *nested,
                              unsigned occurrence);

/* Adds id attributes to the <layout> of spec and writes <retired-ids>.
 * With prev (a spec written by `ddigen spec`, named prev_name in messages)
 * every item that prev knew keeps its ID, retired ones included; new items
 * get max+1. Returns 0, or -1 after file:line errors about prev. */
int spec_assign_ids(xmlDocPtr spec, xmlDocPtr prev, const char *prev_name, struct spec_ids_stats *st);

/* Checks a spec's IDs: present on every item, unique in their scope, not
 * equal to a retired ID. 0 or -1 (errors reported as name:line). */
int spec_check_ids(xmlDocPtr doc, const char *name);

/* Checks that new_doc kept every ID of old_doc: an item of both with a
 * different ID, an ID of old_doc given to a different item, or an item of
 * old_doc that vanished without being retired is an error reported at
 * new_name:line. Returns the number of such errors. */
unsigned spec_check_kept_ids(xmlDocPtr old_doc, const char *old_name, xmlDocPtr new_doc, const char *new_name);

#endif
