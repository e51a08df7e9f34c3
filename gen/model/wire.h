/* How a field goes on the marshallers' wire (the m-class of
 * templates/lib/marshal_common.xsl), decided once, here, from the layout
 * stage's type facts: the derived view prints it for the marshaller
 * templates (emit/view.c) and `ddigen trace` reads traces by it, so the
 * reader accepts exactly what the writers write. */
#ifndef DDIGEN_MODEL_WIRE_H
#define DDIGEN_MODEL_WIRE_H

#include "../util/arena.h"
#include "../util/strbuf.h"
#include "../util/strmap.h"

#include <libxml/tree.h>

/* The layout's records by "kind tag" and by name, and the unions a
 * discriminator selects: what a field's class depends on beyond itself. */
struct ddi_wire_index {
    struct arena a;
    struct strmap by_type, by_name; /* marshalled records: struct ddi_wire_count */
    struct strmap any_by_type;      /* every record by "kind tag": xmlNodePtr */
    struct vec disc_unions;         /* union names a discriminator selects */
};

void ddi_wire_index_build(struct ddi_wire_index *ix, xmlNodePtr layout, xmlNodePtr merge);
void ddi_wire_index_free(struct ddi_wire_index *ix);

/* A record the marshallers cover: not referenced-only, with an ID. */
int ddi_wire_is_marshalled(xmlNodePtr rec);
/* Does a discriminator select the members of this union? */
int ddi_wire_union_selected(const struct ddi_wire_index *ix, const char *union_name);

/* The field's canonical type without the qualifiers that do not change
 * its wire form (m-canonical). */
const char *ddi_wire_canonical(xmlNodePtr f);

/* The class of a field: nest (an inline record), u, s, ptr, follow (a
 * pointer with a _Field_size_ naming a sibling: null or the pointee's
 * bytes), rec (a marshalled record held by value), arr-u, arr-s, arr-rec,
 * bytes (an array of one-byte integers), raw (its bytes), skip (a flexible
 * array, never written); NULL when the spec has no type facts for it.
 * in_union: some enclosing record is a union no discriminator selects. */
const char *ddi_wire_class(const struct ddi_wire_index *ix, xmlNodePtr f, int in_union);

/* The marshalled record a canonical spelling names (m-record-of), or NULL. */
xmlNodePtr ddi_wire_record(const struct ddi_wire_index *ix, const char *canonical);

/* The text between the first '(' of a SAL annotation and the next ')':
 * its length, *arg set ("" when none). */
size_t ddi_wire_sal_argument(const char *sal, const char **arg);
/* "A.B.C" -> length of "A.B." (m-parent-prefix). */
size_t ddi_wire_parent_prefix_len(const char *path);
/* Appends XPath's normalize-space of s[0, n). */
void ddi_wire_normalize_space(struct strbuf *sb, const char *s, size_t n);

#endif
