/* libFuzzer target for the generated decoders (ddi_marshal.c of fixture
 * 10.0.26100.0). The first two bytes pick the record (its stable ID, little
 * endian; an ID not generated picks by index), the rest is its CBOR. Every
 * input ends in success or a stated error without reading past the input
 * or the arena (ASan); what decodes re-encodes, and that encoding decodes
 * to the same encoding again (nothing decoded is half-kept). Re-encoding
 * does not follow pointers: a pointer decoded from an address is not one
 * this process may read. */
#include <dispmprt.h>
#include <ntddk.h>

#include "ddi_marshal.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const ddi_marshal_type *pick(const uint8_t *data)
{
    size_t n = 0, id = (size_t)data[0] | (size_t)data[1] << 8;
    for (; ddi_marshal_types[n].name; n++)
        if (ddi_marshal_types[n].id == id)
            return &ddi_marshal_types[n];
    return &ddi_marshal_types[id % n];
}

static int decode(const ddi_marshal_type *t, void *out, const uint8_t *data, size_t size, ddi_marshal_arena *arena)
{
    ddi_marshal_ctx c;
    ddi_marshal_result res;
    memset(out, 0, t->size);
    ddi_mrt_ctx_init(&c, data, size, arena, &res);
    if (!t->get(&c, out)) {
        if (res.status == DDI_CBOR_OK)
            abort(); /* a failure must say why */
        return 0;
    }
    return ddi_mrt_ctx_finish(&c);
}

static size_t encode(const ddi_marshal_type *t, const void *obj, uint8_t *buf, size_t size)
{
    ddi_cbor_writer w;
    ddi_cbor_writer_init(&w, buf, size);
    t->put(&w, obj, DDI_MARSHAL_NO_FOLLOW);
    return w.needed;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    const ddi_marshal_type *t = pick(data);
    /* Exact-size copies: ASan sees a read one past the input. */
    uint8_t *in = malloc(size - 2 ? size - 2 : 1);
    memcpy(in, data + 2, size - 2);
    void *a = malloc(t->size), *b = malloc(t->size);
    uint8_t *arena_mem = malloc(4096), *arena2_mem = malloc(4096);
    ddi_marshal_arena arena = {arena_mem, 4096, 0}, arena2 = {arena2_mem, 4096, 0};
    if (decode(t, a, in, size - 2, &arena)) {
        size_t n = encode(t, a, NULL, 0);
        uint8_t *e1 = malloc(n), *e2 = malloc(n);
        if (encode(t, a, e1, n) != n || !decode(t, b, e1, n, &arena2) || encode(t, b, e2, n) != n ||
            memcmp(e1, e2, n) != 0)
            abort();
        free(e1);
        free(e2);
    }
    free(in);
    free(a);
    free(b);
    free(arena_mem);
    free(arena2_mem);
    return 0;
}
