/* libFuzzer target for ddi_cbor's reader: skipping and walking arbitrary
 * input must end in OK or a stated error, never read past the input (ASan)
 * and never loop (every step consumes at least one byte). */
#include "ddi_cbor.h"

#include <stddef.h>
#include <stdint.h>

/* Walks like a marshaller would: a map of integer keys whose values are
 * read by their type, anything else skipped. */
static void walk(const uint8_t *data, size_t size)
{
    ddi_cbor_reader r;
    uint64_t count, key, u;
    int64_t i;
    int b;
    const uint8_t *bytes;
    size_t n;
    ddi_cbor_reader_init(&r, data, size);
    if (!ddi_cbor_get_map(&r, &count))
        return;
    for (uint64_t k = 0; k < count && r.status == DDI_CBOR_OK; k++) {
        if (!ddi_cbor_get_uint(&r, &key))
            return;
        switch (ddi_cbor_peek(&r)) {
        case DDI_CBOR_UINT: ddi_cbor_get_uint(&r, &u); break;
        case DDI_CBOR_NEGINT: ddi_cbor_get_int(&r, &i); break;
        case DDI_CBOR_BYTES: ddi_cbor_get_bytes(&r, &bytes, &n); break;
        case DDI_CBOR_SIMPLE: if (!ddi_cbor_take_null(&r)) ddi_cbor_get_bool(&r, &b); break;
        default: ddi_cbor_skip(&r); break;
        }
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ddi_cbor_reader r;
    ddi_cbor_reader_init(&r, data, size);
    while (ddi_cbor_peek(&r) >= 0 && ddi_cbor_skip(&r))
        ;
    walk(data, size);
    return 0;
}
