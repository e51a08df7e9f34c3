/* Where a WDK Include/<version> folder keeps its headers: the folders
 * ingestion puts on the include path, in its search order, and the one
 * that holds a header of a given name (so a report can name
 * shared/d3dkmddi.h, relative to the kit, where the spec says d3dkmddi.h). */
#ifndef DDIGEN_WDK_LAYOUT_H
#define DDIGEN_WDK_LAYOUT_H

#include "arena.h"

#include <stddef.h>

extern const char *const wdk_include_parts[];
extern const size_t wdk_include_nparts;

/* The path of header name relative to the kit root (km/dispmprt.h,
 * shared/d3dkmddi.h): the first include folder that has it, or the root
 * itself; NULL when none has it. */
const char *wdk_locate(struct arena *a, const char *root, const char *name);

#endif
