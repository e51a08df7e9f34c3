/* ddi_trace: writing and reading the head of a traced DDI call; the record
 * itself is the generated marshaller's. See ddi_trace.h. Kernel C. */
#include "ddi_trace.h"

void ddi_trace_begin(ddi_cbor_writer *w, uint32_t ddi_id, unsigned direction, uint32_t record_id)
{
    ddi_mrt_put_array(w, 4);
    ddi_mrt_put_u(w, ddi_id);
    ddi_mrt_put_u(w, direction);
    ddi_mrt_put_u(w, record_id);
}

void ddi_trace_start(ddi_cbor_writer *w, void *buffer, size_t size, size_t used, uint32_t ddi_id, unsigned direction,
                     uint32_t record_id)
{
    if (used > size)
        used = size;
    ddi_cbor_writer_init(w, (uint8_t *)buffer + used, size - used);
    ddi_trace_begin(w, ddi_id, direction, record_id);
}

size_t ddi_trace_end(const ddi_cbor_writer *w, size_t size, size_t *used)
{
    if (*used <= size && ddi_cbor_writer_fits(w) && w->needed <= size - *used)
        *used += w->needed;
    return w->needed;
}

int ddi_trace_next(ddi_cbor_reader *r, ddi_trace_call_head *head)
{
    uint64_t n, ddi, dir, rec;
    if (ddi_cbor_at_end(r))
        return 0;
    if (!ddi_cbor_get_array(r, &n))
        return -1;
    if (n != 4) {
        ddi_cbor_fail(r, DDI_CBOR_TYPE_MISMATCH);
        return -1;
    }
    if (!ddi_cbor_get_uint(r, &ddi) || !ddi_cbor_get_uint(r, &dir) || !ddi_cbor_get_uint(r, &rec))
        return -1;
    if (ddi > 0xFFFFFFFFu || dir > 1 || rec > 0xFFFFFFFFu) {
        ddi_cbor_fail(r, DDI_CBOR_TOO_LARGE);
        return -1;
    }
    head->ddi_id = (uint32_t)ddi;
    head->direction = (unsigned)dir;
    head->record_id = (uint32_t)rec;
    return 1;
}
