/* The callback members of a kit's driver initialization records
 * (DRIVER_INITIALIZATION_DATA, KMDDOD_INITIALIZATION_DATA), read from the
 * DDI headers' text with the raw lexer (lex.h), without libclang: what a
 * build's configure step checks a driver's DDI list against in a few
 * milliseconds, where the parse that makes the spec takes a minute.
 *
 * A callback member is what the spec calls one (emit/skeleton_opts.c): a
 * member whose type is a pointer typedef of a function typedef
 * (`PDXGKDDI_X DxgkDdiX;` with `typedef DXGKDDI_X *PDXGKDDI_X;` and
 * `typedef ... DXGKDDI_X(...);`). Preprocessor conditionals are not
 * evaluated: every branch is read, so a member of any DDI version (or
 * architecture) of the kit is found. The reading is a superset of the
 * spec's at every version: it can accept a name a given version lacks
 * (generate then refuses it after the parse), never refuse one the spec
 * has. */
#ifndef DDIGEN_HEADER_KIT_CALLBACKS_H
#define DDIGEN_HEADER_KIT_CALLBACKS_H

#include "../util/arena.h"

/* One callback member: its name (DxgkDdiAddDevice) and the function
 * typedef its pointer type points to (DXGKDDI_ADD_DEVICE). */
struct kit_callback {
    const char *member, *role;
};

/* The callback members of record (by its typedef name or tag) in the DDI
 * headers of the kit at root (an Include/<version> folder), in declaration
 * order, into out (struct kit_callback *, in a); *where is the header that
 * declares the record (root/km/dispmprt.h). 0, or -1 after reporting (no
 * km/ folder, an unreadable header, no such record). */
int kit_callbacks_read(const char *root, const char *record, struct arena *a, struct vec *out, const char **where);

#endif
