/* The engine's operations as the handlers of the generated dispatch table over
 * DXGK_BUILDPAGINGBUFFER_OPERATION (ddi_dispatch.c, generated at build time from
 * the spec): the table decides which values exist at the compiled DDI version;
 * pb_engine.c dispatches each call through it. */
#include "pb_dispatch.h"

/* Each handler runs one encoder on the call's run state (ctx) and returns the
 * encoder's pb_step as its status: 0..3 are success codes in NTSTATUS terms,
 * apart from the table's refusals (STATUS_INVALID_PARAMETER) and its default
 * (DDI_DISPATCH_UNSUPPORTED_STATUS), so the engine tells them apart without a
 * store and the handler ends in a tail call. */
#define PB_HANDLER(name, op)                                                                                           \
    static NTSTATUS name(void *ctx, DXGKARG_BUILDPAGINGBUFFER *args)                                                   \
    {                                                                                                                  \
        (void)args;                                                                                                    \
        return (NTSTATUS)op((pb_run *)ctx);                                                                            \
    }

PB_HANDLER(on_transfer, pb_op_transfer)
PB_HANDLER(on_fill, pb_op_fill)
PB_HANDLER(on_physical, pb_op_physical)
PB_HANDLER(on_map_aperture, pb_op_map_aperture)
PB_HANDLER(on_unmap_aperture, pb_op_unmap_aperture)
PB_HANDLER(on_virtual_transfer, pb_op_virtual_transfer)
PB_HANDLER(on_virtual_fill, pb_op_virtual_fill)
PB_HANDLER(on_update_page_table, pb_op_update_page_table)
PB_HANDLER(on_flush_tlb, pb_op_flush_tlb)
PB_HANDLER(on_copy_page_table_entries, pb_op_copy_page_table_entries)
#if PB_HAVE_WDDM2_2_OPS
PB_HANDLER(on_signal_fence, pb_op_signal_fence)
#endif
PB_HANDLER(on_note, pb_op_note)
#if PB_HAVE_WDDM2_9_OPS
PB_HANDLER(on_map_aperture2, pb_op_map_aperture2)
#endif

/* Registered by enumerator; a kit without an operation has no slot for it
 * (ddi_..._HAS_<enumerator>), and the table refuses it before any handler runs. */
const ddi_DXGKARG_BUILDPAGINGBUFFER_Operation_handlers pb_paging_handlers = {{
    .DXGK_OPERATION_TRANSFER = on_transfer,
    .DXGK_OPERATION_FILL = on_fill,
    .DXGK_OPERATION_DISCARD_CONTENT = on_note,
    .DXGK_OPERATION_READ_PHYSICAL = on_physical,
    .DXGK_OPERATION_WRITE_PHYSICAL = on_physical,
    .DXGK_OPERATION_MAP_APERTURE_SEGMENT = on_map_aperture,
    .DXGK_OPERATION_UNMAP_APERTURE_SEGMENT = on_unmap_aperture,
    .DXGK_OPERATION_SPECIAL_LOCK_TRANSFER = on_transfer,
#if defined(ddi_DXGKARG_BUILDPAGINGBUFFER_Operation_HAS_DXGK_OPERATION_VIRTUAL_TRANSFER)
    .DXGK_OPERATION_VIRTUAL_TRANSFER = on_virtual_transfer,
    .DXGK_OPERATION_VIRTUAL_FILL = on_virtual_fill,
#endif
#if defined(ddi_DXGKARG_BUILDPAGINGBUFFER_Operation_HAS_DXGK_OPERATION_INIT_CONTEXT_RESOURCE)
    .DXGK_OPERATION_INIT_CONTEXT_RESOURCE = on_note,
#endif
#if defined(ddi_DXGKARG_BUILDPAGINGBUFFER_Operation_HAS_DXGK_OPERATION_UPDATE_PAGE_TABLE)
    .DXGK_OPERATION_UPDATE_PAGE_TABLE = on_update_page_table,
    .DXGK_OPERATION_FLUSH_TLB = on_flush_tlb,
    .DXGK_OPERATION_UPDATE_CONTEXT_ALLOCATION = on_note,
    .DXGK_OPERATION_COPY_PAGE_TABLE_ENTRIES = on_copy_page_table_entries,
    .DXGK_OPERATION_NOTIFY_RESIDENCY = on_note,
#endif
#if defined(ddi_DXGKARG_BUILDPAGINGBUFFER_Operation_HAS_DXGK_OPERATION_SIGNAL_MONITORED_FENCE) && PB_HAVE_WDDM2_2_OPS
    .DXGK_OPERATION_SIGNAL_MONITORED_FENCE = on_signal_fence,
#endif
#if defined(ddi_DXGKARG_BUILDPAGINGBUFFER_Operation_HAS_DXGK_OPERATION_MAP_APERTURE_SEGMENT2) && PB_HAVE_WDDM2_9_OPS
    .DXGK_OPERATION_MAP_APERTURE_SEGMENT2 = on_map_aperture2,
#endif
#if defined(ddi_DXGKARG_BUILDPAGINGBUFFER_Operation_HAS_DXGK_OPERATION_NOTIFY_FENCE_RESIDENCY)
    .DXGK_OPERATION_NOTIFY_FENCE_RESIDENCY = on_note,
#endif
#if defined(ddi_DXGKARG_BUILDPAGINGBUFFER_Operation_HAS_DXGK_OPERATION_MAP_MMU)
    .DXGK_OPERATION_MAP_MMU = on_note,
    .DXGK_OPERATION_UNMAP_MMU = on_note,
    .DXGK_OPERATION_NOTIFY_RESIDENCY2 = on_note,
    .DXGK_OPERATION_NOTIFY_ALLOC = on_note,
#endif
}};
