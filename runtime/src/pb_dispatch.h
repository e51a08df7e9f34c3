/* The generated dispatch table over DXGK_BUILDPAGINGBUFFER_OPERATION and the
 * engine's encoders registered as its handlers (pb_dispatch.c); only the engine
 * core dispatches through it. */
#ifndef PB_DISPATCH_H
#define PB_DISPATCH_H

#include "pb_internal.h"

#include "ddi_dispatch.h"

/* Each handler runs one encoder on the pb_run given as ctx and returns the
 * encoder's pb_step (0..3) as its status; a value without an encoder has the
 * table's default. */
extern const ddi_DXGKARG_BUILDPAGINGBUFFER_Operation_handlers pb_paging_handlers;

#endif /* PB_DISPATCH_H */
