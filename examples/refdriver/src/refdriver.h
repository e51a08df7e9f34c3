/* refdriver: the paging half of a WDDM display miniport built on ddigen's
 * generated code and its paging runtime (reference backend). Kernel C. */
#ifndef REFDRIVER_H
#define REFDRIVER_H

#include "refdriver_wdk.h"
#include "rpb_backend.h"

/* What the adapter's platform provides: its segments (from the driver's
 * QuerySegment answer) and the CPU write path for page tables. */
typedef struct refdriver_platform {
    uint32_t segment_count;                      /* segments 1..segment_count */
    pb_segment_info segments[PB_MAX_SEGMENTS + 1];
    uint32_t paging_buffer_size;
    int (*cpu_write64)(void *user, void *cpu_va, const uint64_t *v, uint32_t n);
    void *user;
} refdriver_platform;

typedef struct refdriver_adapter {
    pb_engine engine;
    pb_config config;
    rpb_backend_ctx backend;
    /* Rules the engine or (debug builds) the generated validators reported. */
    unsigned long violations;
    ddi_violation last_violation;
} refdriver_adapter;

/* DxgkDdiStartDevice's part for paging: configures the engine. The adapter
 * comes zeroed from the platform (nonpaged pool is allocated zeroed). */
NTSTATUS refdriver_start_adapter(refdriver_adapter *adapter, const refdriver_platform *platform);

#if defined(REFDRIVER_HAVE_SKELETON)
/* With the generated skeleton, DriverEntry's part: the DDI table filled
 * with the skeleton's thunks for the chosen DDI version (ddis.txt). The
 * thunks forward to drv_BuildPagingBuffer (ddi_skeleton_driver.h). */
NTSTATUS refdriver_initialize(DRIVER_INITIALIZATION_DATA *init);
/* refdriver_skeleton_violation (refdriver_wdk.h) is the thunks' hook. */
#else
/* The DDI itself; its type is checked against the WDK's declaration. */
DXGKDDI_BUILDPAGINGBUFFER RefDdiBuildPagingBuffer;
#endif

#endif
