/* ddi_trace: a trace of DDI calls is a CBOR sequence (RFC 8742) of calls,
 * each a 4-item array [DDI ID, direction, record ID, record map]: the DDI ID
 * is DDI_TRACE_DDI_<function type> of ddi_marshal.h, the record ID and the
 * map's keys are the spec's stable IDs, so a reader generated from another
 * WDK release, or `ddigen trace` with only the spec, reads it. Kernel C. */
#ifndef DDI_TRACE_H
#define DDI_TRACE_H

#include "ddi_marshal_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

enum ddi_trace_direction {
    DDI_TRACE_IN = 0, /* the arguments as the DDI received them */
    DDI_TRACE_OUT = 1 /* the arguments as the DDI left them on return */
};

/* Starts one call record; the record's map follows (ddi_marshal_put_R). */
void ddi_trace_begin(ddi_cbor_writer *w, uint32_t ddi_id, unsigned direction, uint32_t record_id);

/* Appends one call to buffer[*used, size) and stores in *needed the bytes
 * it takes; *used advances only when it fit, so a full buffer holds whole
 * calls only. R is the record type's name (DXGKARG_BUILDPAGINGBUFFER). */
#define DDI_TRACE_CALL(buffer, size, used, needed, ddi_id, direction, R, a, flags)                                     \
    do {                                                                                                               \
        ddi_cbor_writer ddi_trace_w_;                                                                                  \
        ddi_trace_start(&ddi_trace_w_, (buffer), (size), *(used), (ddi_id), (direction), DDI_MARSHAL_ID_##R);          \
        ddi_marshal_put_##R(&ddi_trace_w_, (a), (flags));                                                              \
        *(needed) = ddi_trace_end(&ddi_trace_w_, (size), (used));                                                      \
    } while (0)

void ddi_trace_start(ddi_cbor_writer *w, void *buffer, size_t size, size_t used, uint32_t ddi_id, unsigned direction,
                     uint32_t record_id);
size_t ddi_trace_end(const ddi_cbor_writer *w, size_t size, size_t *used);

/* Reading: the head of the next call, leaving the reader at its record map.
 * Returns 1, 0 at the end of the trace, -1 on malformed input (r->status). */
typedef struct ddi_trace_call_head {
    uint32_t ddi_id;
    unsigned direction;
    uint32_t record_id;
} ddi_trace_call_head;
int ddi_trace_next(ddi_cbor_reader *r, ddi_trace_call_head *head);

#ifdef __cplusplus
}
#endif

#endif /* DDI_TRACE_H */
